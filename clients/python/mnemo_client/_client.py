"""The client: one method per REST route, JSON in and dataclasses out (urllib from the standard
library, so ``pip install ./clients/python`` needs nothing else)."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Union

from ._errors import MnemoError, ProblemError
from ._types import (
    ApiKey,
    IngestProgress,
    IngestReceipt,
    LoggedRecall,
    LoggedRecallPage,
    RecallResult,
    RecallStats,
    Record,
    Replay,
    Turn,
)

_q = urllib.parse.quote


def _clean(fields: Mapping[str, Any]) -> Dict[str, Any]:
    """Drops unset (None) fields: the server applies its defaults to what is absent."""
    return {k: v for k, v in fields.items() if v is not None}


class Mnemo:
    """A client of one Mnemo server, for one tenant's key (or the admin key for ``create_key``,
    ``keys`` and ``revoke_key``).

    Thread-safe: it keeps no state between calls apart from its settings; each call opens its own
    connection. Errors: a refusal is a :class:`ProblemError` with the problem+json fields; a server
    that cannot be reached is a :class:`MnemoError` with ``retriable=True``.

    :param url: the server's base URL, e.g. ``http://127.0.0.1:8080``
    :param key: the API key (``Authorization: Bearer``); None for the public routes only
    :param timeout: seconds a call may take (default 30)
    """

    def __init__(self, url: str, key: Optional[str] = None, timeout: float = 30.0) -> None:
        if not url.startswith(("http://", "https://")):
            raise ValueError(f"url must start with http:// or https://, was {url!r}")
        if timeout <= 0:
            raise ValueError(f"timeout must be > 0, was {timeout}")
        self.url = url.rstrip("/")
        self.key = key
        self.timeout = timeout

    # ---- memories ------------------------------------------------------------------------------

    def remember(
        self,
        owner: str,
        text: str,
        *,
        fact_key: Optional[str] = None,
        category: Optional[str] = None,
        importance: Optional[float] = None,
        valid_from: Optional[str] = None,
        valid_to: Optional[str] = None,
        recorded_at: Optional[str] = None,
        sources: Optional[Sequence[str]] = None,
        episode: Optional[str] = None,
        scope: Optional[str] = None,
        metadata: Optional[Mapping[str, str]] = None,
        **more: Any,
    ) -> Record:
        """Stores one fact (``POST /v1/memories``); returns it once durable. A ``fact_key`` makes
        the record a new version of that fact (the current one is superseded, kept in history).
        ``more`` takes the other fields of the API's ``NewMemory`` (``authority``, ``access``...)."""
        body = _clean(
            dict(
                owner=owner,
                text=text,
                fact_key=fact_key,
                category=category,
                importance=importance,
                valid_from=valid_from,
                valid_to=valid_to,
                recorded_at=recorded_at,
                sources=list(sources) if sources is not None else None,
                episode=episode,
                scope=scope,
                metadata=dict(metadata) if metadata is not None else None,
                **more,
            )
        )
        return Record.from_json(self._send("POST", "/v1/memories", body)["records"][0])

    def remember_all(self, memories: Iterable[Mapping[str, Any]]) -> List[Record]:
        """Stores a batch atomically (each a ``NewMemory`` dict: ``owner``, ``text``...); all or
        none: one invalid memory refuses the batch, naming it (``records[3].text``)."""
        body = {"records": [_clean(m) for m in memories]}
        return [Record.from_json(r) for r in self._send("POST", "/v1/memories", body)["records"]]

    def recall(
        self,
        owner: str,
        text: str,
        *,
        k: Optional[int] = None,
        budget_tokens: Optional[int] = None,
        explain: bool = False,
        asked_at: Optional[str] = None,
        at: Optional[str] = None,
        categories: Optional[Sequence[str]] = None,
        scope: Optional[str] = None,
        **more: Any,
    ) -> RecallResult:
        """The owner's memories relevant to ``text`` (``POST /v1/recall``): best first, and a
        prompt block. ``explain=True`` adds the trace (the gate's decision, every candidate with its
        signals and why it was kept or dropped). ``more`` takes the other ``RecallRequest`` fields
        (``mode``, ``min_relevance``, ``focus``...)."""
        body = _clean(
            dict(
                owner=owner,
                text=text,
                k=k,
                budget_tokens=budget_tokens,
                explain=True if explain else None,
                asked_at=asked_at,
                at=at,
                categories=list(categories) if categories is not None else None,
                scope=scope,
                **more,
            )
        )
        return RecallResult.from_json(self._send("POST", "/v1/recall", body))

    def get(self, owner: str, id: str) -> Optional[Record]:
        """One stored version by id, or None when the owner has no such record."""
        try:
            return Record.from_json(self._send("GET", f"/v1/owners/{_q(owner, '')}/memories/{_q(id, '')}"))
        except ProblemError as e:
            if e.status == 404:
                return None
            raise

    def memories(
        self,
        owner: str,
        *,
        q: Optional[str] = None,
        current_only: bool = False,
        offset: int = 0,
        limit: int = 50,
    ) -> List[Record]:
        """A page of the owner's records, newest recorded first (every version unless
        ``current_only``); ``q`` keeps those whose text, fact key, id or category contains it."""
        params = _clean(
            dict(q=q, current_only="true" if current_only else None, offset=offset, limit=limit)
        )
        o = self._send("GET", f"/v1/owners/{_q(owner, '')}/memories", params=params)
        return [Record.from_json(r) for r in o["memories"]]

    def history(self, owner: str, fact_key: str) -> List[Record]:
        """Every version of one fact, oldest first (each with its valid and recorded time)."""
        o = self._send("GET", f"/v1/owners/{_q(owner, '')}/history", params={"fact_key": fact_key})
        return [Record.from_json(r) for r in o["versions"]]

    def forget(self, owner: str, id: Optional[str] = None) -> int:
        """Deletes one record (every version of it) or, without ``id``, every record and turn of
        the owner; returns how many records were deleted."""
        path = f"/v1/owners/{_q(owner, '')}" + ("" if id is None else f"/memories/{_q(id, '')}")
        return int(self._send("DELETE", path)["deleted"])

    def mark_used(
        self,
        owner: str,
        ids: Sequence[str],
        *,
        answer: Optional[str] = None,
        query: Optional[str] = None,
    ) -> List[str]:
        """Reports which recalled records the answer used (feeds importance and the retrieval
        log's use rate); with ``answer``, only the ids whose record it used are marked. Returns the
        ids marked."""
        body = _clean(dict(ids=list(ids), answer=answer, query=query))
        o = self._send("POST", f"/v1/owners/{_q(owner, '')}/used", body)
        return list(o.get("used", []))

    # ---- ingest --------------------------------------------------------------------------------

    def ingest(self, turns: Iterable[Union[Turn, Mapping[str, Any]]]) -> IngestReceipt:
        """Hands conversation turns to the write path (``POST /v1/ingest``); returns once they are
        durable. Extraction runs in the background: see :meth:`ingest_progress` and
        :meth:`await_ingested`. Idempotent by turn id."""
        body = {"turns": [t.to_json() if isinstance(t, Turn) else _clean(t) for t in turns]}
        return IngestReceipt.from_json(self._send("POST", "/v1/ingest", body))

    def ingest_progress(self) -> IngestProgress:
        """Where background extraction stands (``GET /v1/ingest/progress``)."""
        return IngestProgress.from_json(self._send("GET", "/v1/ingest/progress"))

    def await_ingested(self, timeout: float = 30.0) -> bool:
        """Waits until no turn is pending extraction; False when ``timeout`` seconds passed first."""
        deadline = time.monotonic() + timeout
        pause = 0.02
        while True:
            if self.ingest_progress().waiting == 0:
                return True
            if time.monotonic() >= deadline:
                return False
            time.sleep(min(pause, max(0.0, deadline - time.monotonic())))
            pause = min(pause * 2, 0.5)

    # ---- the retrieval log ---------------------------------------------------------------------

    def recalls(
        self,
        *,
        owner: Optional[str] = None,
        outcome: Optional[str] = None,
        record: Optional[str] = None,
        q: Optional[str] = None,
        from_: Optional[str] = None,
        to: Optional[str] = None,
        offset: int = 0,
        limit: int = 50,
    ) -> LoggedRecallPage:
        """A page of logged recalls, newest first (``GET /v1/recalls``); ``outcome`` is one of the
        server's outcomes (``selected``, ``empty``...), ``record`` keeps recalls that selected it."""
        params = _clean(
            dict(owner=owner, outcome=outcome, record=record, q=q, to=to, offset=offset, limit=limit)
        )
        if from_ is not None:
            params["from"] = from_
        o = self._send("GET", "/v1/recalls", params=params)
        return LoggedRecallPage(
            total=int(o["total"]),
            offset=int(o["offset"]),
            limit=int(o["limit"]),
            recalls=[LoggedRecall.from_json(r) for r in o["recalls"]],
        )

    def logged_recall(self, id: str) -> LoggedRecall:
        """One logged recall in full: the request, what was selected and the trace."""
        return LoggedRecall.from_json(self._send("GET", f"/v1/recalls/{_q(id, '')}"))

    def recall_stats(self, *, owner: Optional[str] = None) -> RecallStats:
        """Fetch, abstention and use rates over the logged recalls (``GET /v1/recalls/stats``)."""
        return RecallStats.from_json(
            self._send("GET", "/v1/recalls/stats", params=_clean(dict(owner=owner)))
        )

    def replay(self, id: str) -> Replay:
        """Runs a logged recall again on today's store and engine and says what changed."""
        return Replay.from_json(self._send("POST", f"/v1/recalls/{_q(id, '')}/replay", {}))

    # ---- keys (the admin key) ------------------------------------------------------------------

    def create_key(self, tenant: str, label: Optional[str] = None) -> ApiKey:
        """Issues an API key for ``tenant`` (created on first use); ``key`` is shown only here."""
        o = self._send("POST", f"/v1/tenants/{_q(tenant, '')}/keys", _clean(dict(label=label)))
        return ApiKey.from_json(o)

    def keys(self, tenant: str) -> List[ApiKey]:
        """The tenant's keys (ids, labels, creation times; never the secrets)."""
        o = self._send("GET", f"/v1/tenants/{_q(tenant, '')}/keys")
        return [ApiKey.from_json(k, tenant=o.get("tenant", tenant)) for k in o["keys"]]

    def revoke_key(self, tenant: str, key_id: str) -> None:
        """Revokes one key: requests with it are refused from now on."""
        self._send("DELETE", f"/v1/tenants/{_q(tenant, '')}/keys/{_q(key_id, '')}")

    # ---- health --------------------------------------------------------------------------------

    def ready(self) -> bool:
        """Whether the server is ready (``GET /health/ready`` answers 200)."""
        try:
            self._send("GET", "/health/ready")
            return True
        except ProblemError:
            return False

    # ---- transport -----------------------------------------------------------------------------

    def _send(
        self,
        method: str,
        path: str,
        body: Optional[Mapping[str, Any]] = None,
        params: Optional[Mapping[str, Any]] = None,
    ) -> Dict[str, Any]:
        url = self.url + path
        if params:
            url += "?" + urllib.parse.urlencode(params)
        data = None if body is None else json.dumps(body).encode("utf-8")
        req = urllib.request.Request(url, data=data, method=method)
        req.add_header("Accept", "application/json")
        if data is not None:
            req.add_header("Content-Type", "application/json")
        if self.key is not None:
            req.add_header("Authorization", "Bearer " + self.key)
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                raw = resp.read()
        except urllib.error.HTTPError as e:
            raise ProblemError.from_response(e.code, str(e.reason), e.read()) from None
        except (urllib.error.URLError, OSError) as e:
            reason = getattr(e, "reason", e)
            raise MnemoError(f"cannot reach {self.url}: {reason}", retriable=True) from e
        if not raw:
            return {}
        try:
            o = json.loads(raw.decode("utf-8"))
        except ValueError as e:
            raise MnemoError(f"{method} {path}: the answer is not JSON: {raw[:200]!r}") from e
        return o if isinstance(o, dict) else {"value": o}
