"""Plain values crossing the HTTP face: one request in, one response out.

Go: none — kschedlearn-only. A :class:`RestRequest` is frozen and holds only text, so it can
be stored in the simulation's history as an external action and replayed byte for byte.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qs, urlsplit

import attrs

MUTATING_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


@attrs.frozen
class RestRequest:
    """One HTTP request as the REST layer sees it (method, path, query, headers it reads, body)."""

    method: str
    path: str
    query: tuple[tuple[str, str], ...] = ()
    body: str = ""
    content_type: str = ""
    accept: str = ""

    @classmethod
    def from_target(cls, method: str, target: str, *, body: str = "", content_type: str = "",
                    accept: str = "") -> RestRequest:
        """Build from a request target such as ``/api/v1/pods?watch=1``."""
        parts = urlsplit(target)
        query = tuple((k, v[-1]) for k, v in sorted(parse_qs(parts.query, keep_blank_values=True).items()))
        return cls(method=method.upper(), path=parts.path.rstrip("/") or "/", query=query, body=body,
                   content_type=content_type, accept=accept)

    def param(self, name: str, default: str = "") -> str:
        for key, value in self.query:
            if key == name:
                return value
        return default

    @property
    def mutating(self) -> bool:
        return self.method in MUTATING_METHODS

    def describe(self) -> str:
        q = "&".join(f"{k}={v}" for k, v in self.query)
        return f"{self.method} {self.path}" + (f"?{q}" if q else "")


@attrs.frozen
class Response:
    """A JSON answer: status code and body (a dict, encoded on the wire)."""

    code: int
    body: dict[str, Any]

    def encode(self) -> bytes:
        return json.dumps(self.body, sort_keys=False, separators=(",", ":")).encode("utf-8")


@attrs.frozen
class WatchRequest:
    """What a watch asks for, resolved by the handler: where to start and what to let through."""

    resource: str
    namespace: str
    label_selector: str
    field_selector: str
    resource_version: int
    timeout_seconds: float | None
    as_table: bool
    include_object: str = "PartialObjectMetadata"


__all__ = ["RestRequest", "Response", "WatchRequest", "MUTATING_METHODS"]
