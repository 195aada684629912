"""The API's values as frozen dataclasses, read from the server's JSON (field names as on the wire).

Every type keeps the JSON it was read from in ``raw``: fields the server adds later are not lost,
and the trace (whose shape follows the read path) stays a plain dict.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional


def _get(o: Dict[str, Any], name: str, default: Any = None) -> Any:
    v = o.get(name, default)
    return default if v is None else v


@dataclass(frozen=True)
class Record:
    """One stored version of a memory (``GET /v1/owners/{owner}/memories/{id}``).

    Times are ISO-8601 strings as the server writes them (``2026-03-01T10:00:00Z``); ``expired_at``
    is None while the version is current; ``version`` counts versions under ``fact_key`` (0 without).
    """

    id: str
    owner: str
    category: str
    text: str
    recorded_at: str
    valid_from: str
    version: int
    importance: float
    authority: str
    sources: List[str] = field(default_factory=list)
    entities: List[str] = field(default_factory=list)
    metadata: Dict[str, str] = field(default_factory=dict)
    access: List[str] = field(default_factory=list)
    scope: Optional[str] = None
    context: Optional[str] = None
    episode: Optional[str] = None
    seq: int = -1
    expired_at: Optional[str] = None
    valid_to: Optional[str] = None
    fact_key: Optional[str] = None
    origin: Optional[str] = None
    access_count: int = 0
    last_accessed_at: Optional[str] = None
    raw: Dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def current(self) -> bool:
        """Whether this version is current (not superseded, expired or corrected)."""
        return self.expired_at is None

    @classmethod
    def from_json(cls, o: Dict[str, Any]) -> "Record":
        return cls(
            id=o["id"],
            owner=o["owner"],
            category=o["category"],
            text=o["text"],
            recorded_at=o["recorded_at"],
            valid_from=o["valid_from"],
            version=int(_get(o, "version", 0)),
            importance=float(_get(o, "importance", 0.0)),
            authority=_get(o, "authority", "explicit"),
            sources=list(_get(o, "sources", [])),
            entities=list(_get(o, "entities", [])),
            metadata=dict(_get(o, "metadata", {})),
            access=list(_get(o, "access", [])),
            scope=o.get("scope"),
            context=o.get("context"),
            episode=o.get("episode"),
            seq=int(_get(o, "seq", -1)),
            expired_at=o.get("expired_at"),
            valid_to=o.get("valid_to"),
            fact_key=o.get("fact_key"),
            origin=o.get("origin"),
            access_count=int(_get(o, "access_count", 0)),
            last_accessed_at=o.get("last_accessed_at"),
            raw=o,
        )


@dataclass(frozen=True)
class Recalled:
    """A selected record with why it was selected: fused ``score``, the gate's ``relevance``
    (probability it helps answer the query) and the tokens its text takes."""

    record: Record
    score: float
    relevance: float
    tokens: int
    conflicts_with: List[str] = field(default_factory=list)

    @classmethod
    def from_json(cls, o: Dict[str, Any]) -> "Recalled":
        return cls(
            record=Record.from_json(o),
            score=float(_get(o, "score", 0.0)),
            relevance=float(_get(o, "relevance", 0.0)),
            tokens=int(_get(o, "tokens", 0)),
            conflicts_with=list(_get(o, "conflicts_with", [])),
        )


@dataclass(frozen=True)
class RecallResult:
    """``POST /v1/recall``: the selected records best first, the prompt ``block`` to put in front of
    the model (empty when nothing is relevant), token counts and, with ``explain=True``, the trace."""

    records: List[Recalled]
    block: str
    tokens_used: int
    block_tokens: int
    trace: Optional[Dict[str, Any]] = None
    raw: Dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def empty(self) -> bool:
        """Whether nothing was selected (a valid answer: nothing stored is relevant)."""
        return not self.records

    @property
    def gate(self) -> Optional[Dict[str, Any]]:
        """The fetch gate's decision in the trace (``fetch``, ``reason``...), or None without one."""
        return None if self.trace is None else self.trace.get("gate")

    @classmethod
    def from_json(cls, o: Dict[str, Any]) -> "RecallResult":
        return cls(
            records=[Recalled.from_json(r) for r in _get(o, "records", [])],
            block=_get(o, "block", ""),
            tokens_used=int(_get(o, "tokens_used", 0)),
            block_tokens=int(_get(o, "block_tokens", 0)),
            trace=o.get("trace"),
            raw=o,
        )


@dataclass(frozen=True)
class Turn:
    """One conversation event for ``ingest``: a user, assistant or system message, or a tool call
    or result. ``id`` is unique within the owner (ingest is idempotent by it)."""

    id: str
    owner: str
    text: str
    role: Optional[str] = None
    speaker: Optional[str] = None
    episode: Optional[str] = None
    at: Optional[str] = None
    turn_id: Optional[str] = None
    attempt: Optional[int] = None
    status: Optional[str] = None
    metadata: Optional[Dict[str, str]] = None

    def to_json(self) -> Dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if v is not None}


@dataclass(frozen=True)
class IngestReceipt:
    """``POST /v1/ingest``: turn ids accepted and already known, how many wait for extraction, and
    the ids of records written synchronously (none when extraction runs in the background)."""

    accepted: List[str]
    duplicates: List[str]
    queued: int
    records: List[str]

    @classmethod
    def from_json(cls, o: Dict[str, Any]) -> "IngestReceipt":
        return cls(
            list(_get(o, "accepted", [])),
            list(_get(o, "duplicates", [])),
            int(_get(o, "queued", 0)),
            list(_get(o, "records", [])),
        )


@dataclass(frozen=True)
class IngestProgress:
    """``GET /v1/ingest/progress``: where background extraction stands.

    The turn log by state, over its whole life: ``waiting`` (queued for extraction), ``extracted``,
    ``kept_as_sources`` (tool events, system messages, failed attempts: never memories),
    ``failed``. The engine's work since the server opened it: ``records_written``,
    ``duplicates_merged``, ``conflicts_kept``, ``dead_lettered``, ``last_error``."""

    waiting: int
    extracted: int
    kept_as_sources: int
    failed: int
    records_written: int
    duplicates_merged: int
    conflicts_kept: int
    dead_lettered: int
    last_error: Optional[str]
    dead_letters: List[str]
    raw: Dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def pending(self) -> int:
        """The former name of ``waiting``."""
        return self.waiting

    @classmethod
    def from_json(cls, o: Dict[str, Any]) -> "IngestProgress":
        # the grouped names, or the flat ones of a server from before them
        t = o.get("turns") or {
            "waiting": o.get("pending"), "extracted": o.get("extracted"),
            "kept_as_sources": o.get("kept"), "failed": o.get("errors"),
        }
        s = o.get("since_start") or {
            "records_written": o.get("records_written"),
            "duplicates_merged": o.get("duplicates_merged"),
            "conflicts_kept": o.get("conflicts"), "dead_lettered": o.get("dead_lettered"),
            "last_error": o.get("last_error"),
        }
        return cls(
            waiting=int(_get(t, "waiting", 0)),
            extracted=int(_get(t, "extracted", 0)),
            kept_as_sources=int(_get(t, "kept_as_sources", 0)),
            failed=int(_get(t, "failed", 0)),
            records_written=int(_get(s, "records_written", 0)),
            duplicates_merged=int(_get(s, "duplicates_merged", 0)),
            conflicts_kept=int(_get(s, "conflicts_kept", 0)),
            dead_lettered=int(_get(s, "dead_lettered", 0)),
            last_error=s.get("last_error"),
            dead_letters=list(_get(o, "dead_letters", [])),
            raw=o,
        )


@dataclass(frozen=True)
class LoggedRecall:
    """One recall of the retrieval log: a summary in a page of ``recalls()``, in full (the request
    and the trace) from ``logged_recall(id)``."""

    id: str
    logged_at: str
    owner: str
    selected: List[str]
    text: Optional[str] = None
    asked_at: Optional[str] = None
    used: List[str] = field(default_factory=list)
    request: Optional[Dict[str, Any]] = None
    trace: Optional[Dict[str, Any]] = None
    raw: Dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_json(cls, o: Dict[str, Any]) -> "LoggedRecall":
        req = o.get("request")
        return cls(
            id=o["id"],
            logged_at=o["logged_at"],
            owner=o["owner"],
            selected=list(_get(o, "selected", [])),
            text=o.get("text", (req or {}).get("query")),
            asked_at=o.get("asked_at"),
            used=list(_get(o, "used", [])),
            request=req,
            trace=o.get("trace"),
            raw=o,
        )


@dataclass(frozen=True)
class LoggedRecallPage:
    """A page of the retrieval log, newest first, with the total over every page."""

    total: int
    offset: int
    limit: int
    recalls: List[LoggedRecall]


@dataclass(frozen=True)
class RecallStats:
    """``GET /v1/recalls/stats``: how often recall fetched, selected and was used."""

    recalls: int
    fetched: int
    selected: int
    used: int
    fetch_rate: Optional[float]
    abstention_rate: Optional[float]
    use_rate: Optional[float]
    raw: Dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_json(cls, o: Dict[str, Any]) -> "RecallStats":
        return cls(
            recalls=int(_get(o, "recalls", 0)),
            fetched=int(_get(o, "fetched", 0)),
            selected=int(_get(o, "selected", 0)),
            used=int(_get(o, "used", 0)),
            fetch_rate=o.get("fetch_rate"),
            abstention_rate=o.get("abstention_rate"),
            use_rate=o.get("use_rate"),
            raw=o,
        )


@dataclass(frozen=True)
class Replay:
    """``POST /v1/recalls/{id}/replay``: the logged recall run again on today's store and engine."""

    id: str
    identical: bool
    selected_then: List[str]
    selected_now: List[str]
    added: List[str]
    removed: List[str]
    raw: Dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_json(cls, o: Dict[str, Any]) -> "Replay":
        return cls(
            id=o["id"],
            identical=bool(o["identical"]),
            selected_then=list(_get(o, "selected_then", [])),
            selected_now=list(_get(o, "selected_now", [])),
            added=list(_get(o, "added", [])),
            removed=list(_get(o, "removed", [])),
            raw=o,
        )


@dataclass(frozen=True)
class ApiKey:
    """A tenant's API key. ``key`` (the secret) is set only in the answer that created it: the
    server keeps a hash."""

    key_id: str
    created_at: str
    tenant: Optional[str] = None
    label: Optional[str] = None
    key: Optional[str] = None

    @classmethod
    def from_json(cls, o: Dict[str, Any], tenant: Optional[str] = None) -> "ApiKey":
        return cls(
            key_id=o["key_id"],
            created_at=o["created_at"],
            tenant=o.get("tenant", tenant),
            label=o.get("label"),
            key=o.get("key"),
        )
