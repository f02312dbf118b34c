"""Content negotiation: which encoding a request body is in, and which one the answer goes out in.

Go: https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apiserver/pkg/endpoints/handlers/negotiation/negotiate.go
(``NegotiateInputSerializer``: the ``Content-Type``, JSON when absent, else 415;
``NegotiateOutputSerializer``: the ``Accept`` clauses sorted as goautoneg sorts them, the first
one naming a supported type wins, else 406) and its ``errors.go`` (the 406 and 415 texts).
The supported types are 1.6's: ``application/json``, ``application/yaml`` and
``application/vnd.kubernetes.protobuf``.

Differs from Go: a clause asking for a conversion (``as=``/``g=``/``v=``, e.g. kubectl 1.32's
aggregated-discovery or Table clauses) is skipped here, where 1.6 stopped at it with a 406
(Tables are answered before negotiation, a kschedlearn extension, see :mod:`.tables`).
kschedlearn answers protobuf only for the kinds of :mod:`.protobuf_schema` (other documents —
discovery, Tables — go out as JSON, which 1.6's clients read by the answer's ``Content-Type``).
"""

from __future__ import annotations

import attrs

from kschedlearn.apimachinery.api.errors import Status, StatusError
from kschedlearn.apiserver.rest.protobuf import MEDIA_TYPE as PROTOBUF
from kschedlearn.apiserver.rest.types import JSON

YAML = "application/yaml"
#: the server's media types in 1.6's order (json first: the default)
MEDIA_TYPES = (JSON, YAML, PROTOBUF)
#: those with a stream serializer, which 1.6's 415 text lists (a quirk: ``_, supported :=``)
STREAM_MEDIA_TYPES = (JSON + ";stream=watch", PROTOBUF + ";stream=watch")


@attrs.frozen
class Clause:
    """One clause of an ``Accept`` header."""

    type: str
    subtype: str
    params: tuple[tuple[str, str], ...]
    q: float


def parse_media_type(text: str) -> tuple[str, dict[str, str]] | None:
    """Go: ``mime.ParseMediaType`` (lower-cased ``type/subtype`` and parameters; None if malformed)."""
    head, *rest = text.split(";")
    media = head.strip().lower()
    if media.count("/") != 1 or not all(media.split("/")) or any(c.isspace() for c in media):
        return None
    params: dict[str, str] = {}
    for part in rest:
        if not part.strip():
            continue
        key, eq, value = part.partition("=")
        if not eq or not key.strip():
            return None
        params[key.strip().lower()] = value.strip().strip('"')
    return media, params


def parse_accept(header: str) -> list[Clause]:
    """Go: ``goautoneg.ParseAccept`` — clauses sorted by q, then the more specific first (stable)."""
    clauses = []
    for raw in header.split(","):
        parsed = parse_media_type(raw) if raw.strip() else None
        if parsed is None:
            continue
        media, params = parsed
        q = 1.0
        if "q" in params:
            try:
                q = float(params.pop("q"))
            except ValueError:
                q = 0.0
        type_, subtype = media.split("/")
        clauses.append(Clause(type_, subtype, tuple(sorted(params.items())), q))
    return sorted(clauses, key=lambda c: (-c.q, c.type == "*", c.subtype == "*"))


def not_acceptable() -> StatusError:
    """Go: ``errNotAcceptable`` (406)."""
    return StatusError(Status(message=f"only the following media types are accepted: {', '.join(MEDIA_TYPES)}",
                              reason="NotAcceptable", code=406))


def unsupported_media_type() -> StatusError:
    """Go: ``errUnsupportedMediaType`` (415), listing the stream media types as 1.6 does."""
    return StatusError(Status(
        message=f"the body of the request was in an unknown format - accepted media types include: "
                f"{', '.join(STREAM_MEDIA_TYPES)}",
        reason="UnsupportedMediaType", code=415))


def output_media_type(accept: str) -> str:
    """Go: ``NegotiateOutputSerializer`` -> the media type to answer in; raises the 406."""
    if not accept.strip():
        return JSON
    for clause in parse_accept(accept):
        if any(key in ("as", "g", "v") for key, _ in clause.params):
            continue  # a conversion 1.6 cannot make (see the module docstring)
        for media in MEDIA_TYPES:
            type_, subtype = media.split("/")
            if (clause.type, clause.subtype) in ((type_, subtype), (type_, "*"), ("*", "*")):
                return media
    raise not_acceptable()


def input_media_type(content_type: str) -> str:
    """Go: ``NegotiateInputSerializer`` -> the body's media type (JSON if none); raises the 415."""
    if not content_type.strip():
        return JSON
    parsed = parse_media_type(content_type)
    if parsed is None or parsed[0] not in MEDIA_TYPES:
        raise unsupported_media_type()
    return parsed[0]


__all__ = ["MEDIA_TYPES", "PROTOBUF", "YAML", "Clause", "parse_accept", "parse_media_type", "output_media_type",
           "input_media_type", "not_acceptable", "unsupported_media_type"]
