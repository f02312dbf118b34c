"""The Kubernetes protobuf wire format (``application/vnd.kubernetes.protobuf``), for the kinds 1.6 clients send and read.

Go: none — kschedlearn-only. It plays the part of apimachinery's protobuf serializer
(https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/runtime/serializer/protobuf/protobuf.go:
the ``k8s\\x00`` prefix and the ``runtime.Unknown`` envelope of ``Serializer``; the bare message of
``RawSerializer``), of its ``LengthDelimitedFramer`` (a 4-byte big-endian length before each
watch event), and of the gogo-generated ``Marshal``/``Unmarshal`` of every message, driven by
the field tables of :mod:`.protobuf_schema`. Objects cross it in their JSON (manifest) form:
a message decodes to the dict ``json.loads`` would give for the same object, and encodes from
one, so the rest of the HTTP face never knows which encoding the client spoke.

Differs from Go: gogo writes every non-pointer field, zero values included; here only the keys
present in the dict are written (a decoder reads both the same: an absent field is its zero
value). Map entries are written in key order, as gogo does. Unmarshal errors keep gogo's texts
(``unexpected EOF``, ``proto: wrong wireType = 2 for field Kind``, ...), with the Go field name
derived from the JSON name (capitalised; ``uid`` -> ``UID``, ``metadata`` -> ``ObjectMeta``).
"""

from __future__ import annotations

import base64
import calendar
import datetime as _dt
import functools
import json
from collections.abc import Iterator
from typing import Any

import attrs

from kschedlearn.apiserver.rest.protobuf_schema import KINDS, MESSAGES

MEDIA_TYPE = "application/vnd.kubernetes.protobuf"
WATCH_MEDIA_TYPE = MEDIA_TYPE + ";stream=watch"
#: Go: protoEncodingPrefix, "k8s" and the encoding style 0 (the rest is a runtime.Unknown)
PREFIX = b"k8s\x00"

_VARINT, _FIXED64, _BYTES, _START_GROUP, _END_GROUP, _FIXED32 = 0, 1, 2, 3, 4, 5
_SCALARS = ("string", "int32", "int64", "bool", "bytes")
_VARINT_TYPES = ("int32", "int64", "bool")
_GO_NAMES = {"uid": "UID", "apiVersion": "APIVersion", "hostIP": "HostIP", "podIP": "PodIP",
             "podCIDR": "PodCIDR", "externalID": "ExternalID", "providerID": "ProviderID",
             "clusterIP": "ClusterIP", "volumeID": "VolumeID", "diskURI": "DiskURI"}


class ProtobufError(ValueError):
    """A body that is not a valid message (the text is gogo's or the serializer's)."""


@attrs.frozen
class Field:
    """One field of a message: number, JSON name, element type and shape."""

    number: int
    name: str
    type: str  # a scalar name or a message name
    repeated: bool = False
    map: bool = False
    inline: bool = False

    @property
    def wire_type(self) -> int:
        return _VARINT if self.type in _VARINT_TYPES and not self.map else _BYTES

    @property
    def go_name(self) -> str:
        """Go's field name, as gogo's ``wrong wireType`` error names it."""
        if self.name == "metadata":
            return self.type.rpartition(".")[2]
        return _GO_NAMES.get(self.name, self.name[:1].upper() + self.name[1:])


@functools.cache
def fields(message: str) -> tuple[Field, ...]:
    """The fields of ``message`` in declaration order (gogo's marshal order)."""
    out = []
    for part in MESSAGES[message].split("; "):
        number, name, spec = part.split(" ")
        repeated, is_map, inline = spec.startswith("*"), spec.startswith("{"), spec.startswith("~")
        out.append(Field(int(number), name, spec.strip("*{}~"), repeated, is_map, inline))
    return tuple(out)


@functools.cache
def _by_number(message: str) -> dict[int, Field]:
    return {f.number: f for f in fields(message)}


# -- wire primitives --------------------------------------------------------------------------

def _varint(value: int) -> bytes:
    value &= (1 << 64) - 1  # negative ints are written as their 64-bit two's complement
    out = bytearray()
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def _read_varint(data: bytes, pos: int) -> tuple[int, int]:
    result = shift = 0
    while True:
        if shift >= 64:
            raise ProtobufError("proto: integer overflow")
        if pos >= len(data):
            raise ProtobufError("unexpected EOF")
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if byte < 0x80:
            return result & ((1 << 64) - 1), pos
        shift += 7


def _key(number: int, wire_type: int) -> bytes:
    return _varint(number << 3 | wire_type)


def _length_delimited(number: int, payload: bytes) -> bytes:
    return _key(number, _BYTES) + _varint(len(payload)) + payload


def _read_bytes(data: bytes, pos: int) -> tuple[bytes, int]:
    length, pos = _read_varint(data, pos)
    if length >= 1 << 63:
        raise ProtobufError("proto: negative length found during unmarshaling")
    end = pos + length
    if end > len(data):
        raise ProtobufError("unexpected EOF")
    return data[pos:end], end


def _skip(data: bytes, pos: int, wire_type: int) -> int:
    """Go: gogo's ``skipGenerated`` past an unknown field's value."""
    if wire_type == _VARINT:
        return _read_varint(data, pos)[1]
    if wire_type in (_FIXED64, _FIXED32):
        end = pos + (8 if wire_type == _FIXED64 else 4)
        if end > len(data):
            raise ProtobufError("unexpected EOF")
        return end
    if wire_type == _BYTES:
        return _read_bytes(data, pos)[1]
    if wire_type == _START_GROUP:
        while True:
            key, pos = _read_varint(data, pos)
            if key & 7 == _END_GROUP:
                return pos
            pos = _skip(data, pos, key & 7)
    if wire_type == _END_GROUP:
        return pos
    raise ProtobufError(f"proto: illegal wireType {wire_type}")


def _signed(value: int, bits: int) -> int:
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >> (bits - 1) else value


# -- messages <-> JSON-form values ------------------------------------------------------------

def _time_to_json(raw: bytes) -> str | None:
    """Go: metav1.Time's Unmarshal (an empty message is the zero time, JSON null)."""
    if not raw:
        return None
    d = decode_message("meta.Time", raw)
    moment = _dt.datetime.fromtimestamp(0, _dt.timezone.utc) + _dt.timedelta(
        seconds=d.get("seconds", 0), microseconds=d.get("nanos", 0) // 1000)
    text = moment.strftime("%Y-%m-%dT%H:%M:%S")
    if moment.microsecond:
        text += f".{moment.microsecond:06d}".rstrip("0")
    return text + "Z"


def _time_from_json(text: str) -> bytes:
    from kschedlearn.api.v1.times import EPOCH, parse_time  # noqa: PLC0415 - a light import, kept local

    moment = EPOCH + _dt.timedelta(seconds=parse_time(text))
    return encode_message("meta.Time", {"seconds": calendar.timegm(moment.utctimetuple()),
                                        "nanos": moment.microsecond * 1000})


def _special_decode(message: str, raw: bytes) -> Any:
    """Messages whose JSON form is not an object (times, quantities, int-or-string, raw JSON)."""
    if message == "meta.Time":
        return _time_to_json(raw)
    d = decode_message(message, raw)
    if message == "resource.Quantity":
        return d.get("string", "")
    if message == "intstr.IntOrString":
        return d.get("strVal", "") if d.get("type", 0) == 1 else d.get("intVal", 0)
    raw_json = base64.b64decode(d.get("raw", ""))
    try:
        return json.loads(raw_json) if raw_json else None
    except ValueError:
        return base64.b64encode(raw_json).decode("ascii")


def _special_encode(message: str, value: Any) -> bytes:
    if message == "meta.Time":
        return _time_from_json(value)
    if message == "resource.Quantity":
        return encode_message(message, {"string": str(value)})
    if message == "intstr.IntOrString":
        if isinstance(value, str):
            return encode_message(message, {"type": 1, "strVal": value})
        return encode_message(message, {"type": 0, "intVal": value})
    return encode_message(message, {"raw": base64.b64encode(json.dumps(value).encode()).decode("ascii")})


_SPECIAL = ("meta.Time", "resource.Quantity", "intstr.IntOrString", "runtime.RawExtension")


def _decode_value(type_: str, wire_type: int, data: bytes, pos: int) -> tuple[Any, int]:
    if wire_type == _VARINT:
        raw, pos = _read_varint(data, pos)
        if type_ == "bool":
            return raw != 0, pos
        return _signed(raw, 32 if type_ == "int32" else 64), pos
    raw_bytes, pos = _read_bytes(data, pos)
    if type_ == "string":
        return raw_bytes.decode("utf-8", errors="replace"), pos
    if type_ == "bytes":
        return base64.b64encode(raw_bytes).decode("ascii"), pos
    if type_ in _SPECIAL:
        return _special_decode(type_, raw_bytes), pos
    return decode_message(type_, raw_bytes), pos


def _map_entry(value_type: str, raw: bytes) -> tuple[str, Any]:
    key, value, pos = "", "" if value_type == "string" else None, 0
    while pos < len(raw):
        tag, pos = _read_varint(raw, pos)
        number, wire_type = tag >> 3, tag & 7
        if number == 1 and wire_type == _BYTES:
            key, pos = _decode_value("string", _BYTES, raw, pos)
        elif number == 2 and wire_type == _BYTES:
            value, pos = _decode_value(value_type, _BYTES, raw, pos)
        else:
            pos = _skip(raw, pos, wire_type)
    return key, value


def decode_message(message: str, data: bytes) -> dict[str, Any]:
    """One message's bytes as its JSON-form dict (unknown fields skipped, as gogo does)."""
    by_number, short = _by_number(message), message.rpartition(".")[2]
    out: dict[str, Any] = {}
    pos = 0
    while pos < len(data):
        tag, pos = _read_varint(data, pos)
        number, wire_type = tag >> 3, tag & 7
        if wire_type == _END_GROUP:
            raise ProtobufError(f"proto: {short}: wiretype end group for non-group")
        if number <= 0:
            raise ProtobufError(f"proto: {short}: illegal tag {number} (wire type {wire_type})")
        field = by_number.get(number)
        if field is None:
            pos = _skip(data, pos, wire_type)
            continue
        packed = field.repeated and field.type in _VARINT_TYPES and wire_type == _BYTES
        if wire_type != field.wire_type and not packed:
            raise ProtobufError(f"proto: wrong wireType = {wire_type} for field {field.go_name}")
        if field.map:
            raw, pos = _read_bytes(data, pos)
            key, value = _map_entry(field.type, raw)
            out.setdefault(field.name, {})[key] = value
        elif packed:
            raw, pos = _read_bytes(data, pos)
            inner = 0
            while inner < len(raw):
                value, inner = _decode_value(field.type, _VARINT, raw, inner)
                out.setdefault(field.name, []).append(value)
        elif field.repeated:
            value, pos = _decode_value(field.type, wire_type, data, pos)
            out.setdefault(field.name, []).append(value)
        elif field.inline:
            value, pos = _decode_value(field.type, wire_type, data, pos)
            out.update(value)
        else:
            value, pos = _decode_value(field.type, wire_type, data, pos)
            if value is not None:
                out[field.name] = value
            else:
                out.pop(field.name, None)
    return out


def _encode_value(field: Field, value: Any) -> bytes:
    if field.type in _VARINT_TYPES:
        return _key(field.number, _VARINT) + _varint(int(value))
    if field.type == "string":
        return _length_delimited(field.number, str(value).encode("utf-8"))
    if field.type == "bytes":
        return _length_delimited(field.number, base64.b64decode(value))
    if field.type in _SPECIAL:
        return _length_delimited(field.number, _special_encode(field.type, value))
    return _length_delimited(field.number, encode_message(field.type, value))


def encode_message(message: str, value: dict[str, Any]) -> bytes:
    """A JSON-form dict as ``message``'s bytes (fields in declaration order, map keys sorted).

    A key the message does not have is an error naming it (it would otherwise be lost), except
    ``apiVersion``/``kind`` of list items, which protobuf carries only in the envelope.
    """
    known = {f.name for f in fields(message)}
    out = bytearray()
    for field in fields(message):
        if field.inline:
            known |= {f.name for f in fields(field.type)}
            part = {f.name: value[f.name] for f in fields(field.type) if f.name in value}
            if part:
                out += _length_delimited(field.number, encode_message(field.type, part))
            continue
        if field.name not in value or value[field.name] is None:
            continue
        item = value[field.name]
        if field.map:
            value_field = Field(2, "value", field.type)
            for key in sorted(item):
                entry = _length_delimited(1, key.encode("utf-8")) + _encode_value(value_field, item[key])
                out += _length_delimited(field.number, entry)
        elif field.repeated:
            for element in item:
                out += _encode_value(field, element)
        else:
            out += _encode_value(field, item)
    extra = sorted(set(value) - known - {"apiVersion", "kind"})
    if extra:
        raise ProtobufError(f"kschedlearn: the protobuf schema of {message} has no field {extra[0]!r}")
    return bytes(out)


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
    type_meta = _length_delimited(1, api_version.encode()) + _length_delimited(2, kind.encode())
    unknown = (_length_delimited(1, type_meta) + _length_delimited(2, raw)
               + _length_delimited(3, b"") + _length_delimited(4, b""))
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
        tag, pos = _read_varint(unknown, pos)
        number, wire_type = tag >> 3, tag & 7
        if wire_type == _END_GROUP:
            raise ProtobufError("proto: Unknown: wiretype end group for non-group")
        if number <= 0:
            raise ProtobufError(f"proto: Unknown: illegal tag {number} (wire type {wire_type})")
        if number not in names:
            pos = _skip(unknown, pos, wire_type)
            continue
        if wire_type != _BYTES:
            raise ProtobufError(f"proto: wrong wireType = {wire_type} for field {names[number]}")
        value, pos = _read_bytes(unknown, pos)
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
    raw_extension = _length_delimited(1, encode_object(obj))
    event = _length_delimited(1, event_type.encode()) + _length_delimited(2, raw_extension)
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
        tag, pos = _read_varint(frame, pos)
        if tag >> 3 == 2 and tag & 7 == _BYTES:
            raw_extension, pos = _read_bytes(frame, pos)
            inner = 0
            while inner < len(raw_extension):
                inner_tag, inner = _read_varint(raw_extension, inner)
                if inner_tag >> 3 == 1 and inner_tag & 7 == _BYTES:
                    return _read_bytes(raw_extension, inner)[0]
                inner = _skip(raw_extension, inner, inner_tag & 7)
            return b""
        pos = _skip(frame, pos, tag & 7)
    return b""


__all__ = ["MEDIA_TYPE", "WATCH_MEDIA_TYPE", "PREFIX", "ProtobufError", "Envelope", "Field", "fields",
           "decode_message", "encode_message", "message_for", "encode_object", "decode_envelope", "decode_object",
           "watch_frame", "read_watch_frames"]
