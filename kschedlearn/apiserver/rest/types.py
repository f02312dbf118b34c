"""Plain values crossing the HTTP face: one request in, one response out.

Go: none — kschedlearn-only. A :class:`RestRequest` is frozen and holds the request's bytes, so
it can be stored in the simulation's history as an external action and replayed byte for byte
(:meth:`RestRequest.to_plain` is its JSON-friendly form in an exported trace).
"""

from __future__ import annotations

import base64
import json
from typing import Any
from urllib.parse import parse_qs, urlsplit

import attrs

MUTATING_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
JSON = "application/json"


def _as_bytes(body: str | bytes) -> bytes:
    return body.encode("utf-8") if isinstance(body, str) else bytes(body)


@attrs.frozen
class RestRequest:
    """One HTTP request as the REST layer sees it (method, path, query, headers it reads, body)."""

    method: str
    path: str
    query: tuple[tuple[str, str], ...] = ()
    body: bytes = attrs.field(default=b"", converter=_as_bytes)
    content_type: str = ""
    accept: str = ""

    @classmethod
    def from_target(cls, method: str, target: str, *, body: str | bytes = b"", content_type: str = "",
                    accept: str = "") -> RestRequest:
        """Build from a request target such as ``/api/v1/pods?watch=1`` (``body``: text or bytes)."""
        parts = urlsplit(target)
        query = tuple((k, v[-1]) for k, v in sorted(parse_qs(parts.query, keep_blank_values=True).items()))
        return cls(method=method.upper(), path=parts.path.rstrip("/") or "/", query=query, body=body,
                   content_type=content_type, accept=accept)

    @property
    def text(self) -> str:
        """The body as text (UTF-8; an undecodable byte becomes U+FFFD, as Go's string conversion keeps it)."""
        return self.body.decode("utf-8", errors="replace")

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

    def to_plain(self) -> dict[str, Any]:
        """JSON-friendly fields (for trace data): a text body as text, a protobuf or binary one in base64."""
        out: dict[str, Any] = {"method": self.method, "path": self.path, "query": [list(q) for q in self.query],
                               "content_type": self.content_type, "accept": self.accept}
        binary = "protobuf" in self.content_type
        try:
            text = None if binary else self.body.decode("utf-8")
        except UnicodeDecodeError:
            text = None
        if text is None:
            out["body_base64"] = base64.b64encode(self.body).decode("ascii")
        else:
            out["body"] = text
        return out


@attrs.frozen
class Response:
    """An answer: status code, body (a dict in JSON form) and the media type it goes out in.

    ``content_type`` is ``application/json`` or the protobuf media type (then ``body`` is a kind
    with a protobuf schema, encoded by :mod:`.protobuf` on the wire).
    """

    code: int
    body: dict[str, Any]
    content_type: str = JSON

    def encode(self) -> bytes:
        if self.content_type == "application/yaml":
            import yaml  # noqa: PLC0415 - only YAML answers need it

            return yaml.safe_dump(self.body, sort_keys=False).encode("utf-8")
        if self.content_type != JSON:
            from kschedlearn.apiserver.rest import protobuf  # noqa: PLC0415 - only protobuf answers need it

            return protobuf.encode_object(self.body)
        return json.dumps(self.body, sort_keys=False, separators=(",", ":")).encode("utf-8")


@attrs.frozen
class WatchRequest:
    """What a watch asks for, resolved by the handler: where to start and what to let through.

    ``resource_version`` 0 stands for a watch without one ("" or "0"): 1.6's watch cache first
    sends every existing object as ADDED. ``protobuf``: frame the events in protobuf.
    ``link``: how 1.6 forms the events' selfLinks (see :mod:`.selflink`).
    """

    resource: str
    namespace: str
    label_selector: str
    field_selector: str
    resource_version: int
    timeout_seconds: float | None
    as_table: bool
    include_object: str = "PartialObjectMetadata"
    protobuf: bool = False
    link: Any = None


__all__ = ["RestRequest", "Response", "WatchRequest", "MUTATING_METHODS", "JSON"]
