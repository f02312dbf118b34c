"""The Kubernetes protobuf encoding (``application/vnd.kubernetes.protobuf``): envelope and watch stream.

Go: none — kschedlearn-only. It plays the part of apimachinery's protobuf serializer
(https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/runtime/serializer/protobuf/protobuf.go:
the ``k8s\\x00`` prefix and the ``runtime.Unknown`` envelope of ``Serializer``, with 1.6's decode
errors; the bare message of ``RawSerializer``) and of its ``LengthDelimitedFramer`` (a 4-byte
big-endian length before each watch event). The messages themselves go through
:mod:`.protobuf_wire`; objects cross this module in their JSON (manifest) form, so the rest of
the HTTP face never knows which encoding the client spoke.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import attrs

from kschedlearn.apiserver.rest.protobuf_schema import KINDS
from kschedlearn.apiserver.rest.protobuf_wire import (
    BYTES,
    END_GROUP,
    ProtobufError,
    decode_message,
    encode_message,
    length_delimited,
    read_bytes,
    read_varint,
    skip,
)

MEDIA_TYPE = "application/vnd.kubernetes.protobuf"
WATCH_MEDIA_TYPE = MEDIA_TYPE + ";stream=watch"
#: Go: protoEncodingPrefix, "k8s" and the encoding style 0 (the rest is a runtime.Unknown)
PREFIX = b"k8s\x00"


# -- the envelope and the watch stream --------------------------------------------------------

def message_for(api_version: str, kind: str) -> str | None:
    """The message of a kind the HTTP face speaks protobuf for (None: JSON only)."""
    return KINDS.get((api_version, kind))


def encode_object(obj: dict[str, Any]) -> bytes:
    """Go: ``Serializer.Encode`` — ``k8s\\x00`` + ``runtime.Unknown{typeMeta, raw}``."""
    api_version, kind = obj["apiVersion"], obj["kind"]
    message = message_for(api_version, kind)
    if message is None:
        raise ProtobufError(f"kschedlearn: no protobuf schema for {kind} in {api_version}")
    raw = encode_message(message, obj)
    type_meta = length_delimited(1, api_version.encode()) + length_delimited(2, kind.encode())
    unknown = (length_delimited(1, type_meta) + length_delimited(2, raw)
               + length_delimited(3, b"") + length_delimited(4, b""))
    return PREFIX + unknown


@attrs.frozen
class Envelope:
    """A decoded ``runtime.Unknown``: the type it names and the raw message bytes."""

    api_version: str
    kind: str
    raw: bytes


def decode_envelope(data: bytes) -> Envelope:
    """Go: the first half of ``Serializer.Decode`` (prefix, then ``runtime.Unknown``), 1.6's errors."""
    if not data:
        raise ProtobufError("empty data")
    if not data.startswith(PREFIX):
        raise ProtobufError("provided data does not appear to be a protobuf message, expected prefix "
                            f"[{' '.join(str(b) for b in PREFIX)}]")
    if len(data) == len(PREFIX):
        raise ProtobufError("empty body")
    unknown, pos = data[len(PREFIX):], 0
    api_version = kind = ""
    raw = b""
    names = {1: "TypeMeta", 2: "Raw", 3: "ContentEncoding", 4: "ContentType"}
    while pos < len(unknown):
        tag, pos = read_varint(unknown, pos)
        number, wire_type = tag >> 3, tag & 7
        if wire_type == END_GROUP:
            raise ProtobufError("proto: Unknown: wiretype end group for non-group")
        if number <= 0:
            raise ProtobufError(f"proto: Unknown: illegal tag {number} (wire type {wire_type})")
        if number not in names:
            pos = skip(unknown, pos, wire_type)
            continue
        if wire_type != BYTES:
            raise ProtobufError(f"proto: wrong wireType = {wire_type} for field {names[number]}")
        value, pos = read_bytes(unknown, pos)
        if number == 1:
            meta = decode_message("runtime.TypeMeta", value)
            api_version, kind = meta.get("apiVersion", ""), meta.get("kind", "")
        elif number == 2:
            raw = value
    return Envelope(api_version, kind, raw)


def decode_object(message: str, envelope: Envelope) -> dict[str, Any]:
    """The envelope's object as ``message``, in JSON form with its ``apiVersion`` and ``kind``."""
    body = decode_message(message, envelope.raw)
    return {"apiVersion": envelope.api_version, "kind": envelope.kind, **body}


def watch_frame(event_type: str, obj: dict[str, Any]) -> bytes:
    """One watch event as the protobuf stream carries it.

    Go: ``WatchServer.ServeHTTP`` — the object through the embedded (enveloped) encoder into a
    ``runtime.RawExtension``, the ``metav1.WatchEvent`` through the raw serializer, framed by
    ``LengthDelimitedFramer`` (4-byte big-endian length).
    """
    raw_extension = length_delimited(1, encode_object(obj))
    event = length_delimited(1, event_type.encode()) + length_delimited(2, raw_extension)
    return len(event).to_bytes(4, "big") + event


def read_watch_frames(stream: bytes) -> Iterator[tuple[str, dict[str, Any]]]:
    """The (type, object) pairs of a protobuf watch stream (for tests and recorded data)."""
    pos = 0
    while pos < len(stream):
        if pos + 4 > len(stream):
            raise ProtobufError("unexpected EOF")
        length = int.from_bytes(stream[pos:pos + 4], "big")
        frame = stream[pos + 4:pos + 4 + length]
        if len(frame) < length:
            raise ProtobufError("unexpected EOF")
        pos += 4 + length
        event = decode_message("meta.WatchEvent", frame)
        raw = _watch_object_bytes(frame)
        envelope = decode_envelope(raw)
        message = message_for(envelope.api_version, envelope.kind)
        if message is None:
            raise ProtobufError(f"kschedlearn: no protobuf schema for {envelope.kind} in {envelope.api_version}")
        yield event.get("type", ""), decode_object(message, envelope)


def _watch_object_bytes(frame: bytes) -> bytes:
    pos = 0
    while pos < len(frame):
        tag, pos = read_varint(frame, pos)
        if tag >> 3 == 2 and tag & 7 == BYTES:
            raw_extension, pos = read_bytes(frame, pos)
            inner = 0
            while inner < len(raw_extension):
                inner_tag, inner = read_varint(raw_extension, inner)
                if inner_tag >> 3 == 1 and inner_tag & 7 == BYTES:
                    return read_bytes(raw_extension, inner)[0]
                inner = skip(raw_extension, inner, inner_tag & 7)
            return b""
        pos = skip(frame, pos, tag & 7)
    return b""


__all__ = ["MEDIA_TYPE", "WATCH_MEDIA_TYPE", "PREFIX", "ProtobufError", "Envelope", "decode_message",
           "encode_message", "message_for", "encode_object", "decode_envelope", "decode_object", "watch_frame",
           "read_watch_frames"]
