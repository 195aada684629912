"""Errors: every refusal of the server is a ProblemError carrying its RFC 9457 problem+json fields."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional


class MnemoError(Exception):
    """Root of the client's errors: the server could not be reached, or it answered with an error."""

    def __init__(self, message: str, retriable: bool = False) -> None:
        super().__init__(message)
        self.retriable = retriable


@dataclass(frozen=True)
class Violation:
    """One invalid field of a refused request (problem+json ``errors[]``)."""

    field: str
    message: str
    value: Any = None


class ProblemError(MnemoError):
    """The server refused the request: an HTTP error status with an ``application/problem+json`` body.

    ``type`` is ``urn:mnemo:problem:<slug>`` (``slug`` is the part after the last colon:
    ``invalid-request``, ``unauthorized``, ``not-found``, ``unavailable``...). ``retriable`` is true
    for 429 and 5xx answers (``unavailable``, ``not-ready``): the same request may succeed later.
    """

    def __init__(
        self,
        status: int,
        type: str,
        title: str,
        detail: str,
        instance: Optional[str] = None,
        request_id: Optional[str] = None,
        errors: Optional[List[Violation]] = None,
        body: Optional[Dict[str, Any]] = None,
    ) -> None:
        super().__init__(
            f"{status} {title}: {detail}", retriable=status == 429 or status >= 500
        )
        self.status = status
        self.type = type
        self.title = title
        self.detail = detail
        self.instance = instance
        self.request_id = request_id
        self.errors: List[Violation] = list(errors or [])
        self.body: Dict[str, Any] = dict(body or {})

    @property
    def slug(self) -> str:
        """The problem's short name: ``invalid-request`` of ``urn:mnemo:problem:invalid-request``."""
        return self.type.rsplit(":", 1)[-1]

    @classmethod
    def from_response(cls, status: int, reason: str, raw: bytes) -> "ProblemError":
        try:
            import json

            body = json.loads(raw.decode("utf-8")) if raw else {}
        except ValueError:
            body = {}
        if not isinstance(body, dict):
            body = {}
        errors = [
            Violation(str(e.get("field", "")), str(e.get("message", "")), e.get("value"))
            for e in body.get("errors", []) or []
            if isinstance(e, dict)
        ]
        text = raw.decode("utf-8", "replace")[:500] if raw else ""
        return cls(
            status=int(body.get("status", status)),
            type=str(body.get("type", "about:blank")),
            title=str(body.get("title", reason or "HTTP error")),
            detail=str(body.get("detail", text or reason or "")),
            instance=body.get("instance"),
            request_id=body.get("request_id"),
            errors=errors,
            body=body,
        )
