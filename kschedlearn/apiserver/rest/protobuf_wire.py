"""Protobuf's wire format for the messages of :mod:`.protobuf_schema`: bytes <-> JSON-form dicts.

Go: none — kschedlearn-only. It plays the part of the gogo-generated ``Marshal``/``Unmarshal``
of every message of 1.6's ``generated.proto`` files (e.g.
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/api/v1/generated.pb.go), driven by the
field tables of :mod:`.protobuf_schema`, and the hand-written marshalling of ``metav1.Time``,
``resource.Quantity`` and ``intstr.IntOrString``. A message decodes to the dict ``json.loads``
would give for the same object, and encodes from one.

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
from typing import Any

import attrs

from kschedlearn.apiserver.rest.protobuf_schema import MESSAGES

_VARINT, _FIXED64, BYTES, _START_GROUP, END_GROUP, _FIXED32 = 0, 1, 2, 3, 4, 5
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
        return _VARINT if self.type in _VARINT_TYPES and not self.map else BYTES

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


def read_varint(data: bytes, pos: int) -> tuple[int, int]:
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


def field_key(number: int, wire_type: int) -> bytes:
    return _varint(number << 3 | wire_type)


def length_delimited(number: int, payload: bytes) -> bytes:
    return field_key(number, BYTES) + _varint(len(payload)) + payload


def read_bytes(data: bytes, pos: int) -> tuple[bytes, int]:
    length, pos = read_varint(data, pos)
    if length >= 1 << 63:
        raise ProtobufError("proto: negative length found during unmarshaling")
    end = pos + length
    if end > len(data):
        raise ProtobufError("unexpected EOF")
    return data[pos:end], end


def skip(data: bytes, pos: int, wire_type: int) -> int:
    """Go: gogo's ``skipGenerated`` past an unknown field's value."""
    if wire_type == _VARINT:
        return read_varint(data, pos)[1]
    if wire_type in (_FIXED64, _FIXED32):
        end = pos + (8 if wire_type == _FIXED64 else 4)
        if end > len(data):
            raise ProtobufError("unexpected EOF")
        return end
    if wire_type == BYTES:
        return read_bytes(data, pos)[1]
    if wire_type == _START_GROUP:
        while True:
            key, pos = read_varint(data, pos)
            if key & 7 == END_GROUP:
                return pos
            pos = skip(data, pos, key & 7)
    if wire_type == END_GROUP:
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
        raw, pos = read_varint(data, pos)
        if type_ == "bool":
            return raw != 0, pos
        return _signed(raw, 32 if type_ == "int32" else 64), pos
    raw_bytes, pos = read_bytes(data, pos)
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
        tag, pos = read_varint(raw, pos)
        number, wire_type = tag >> 3, tag & 7
        if number == 1 and wire_type == BYTES:
            key, pos = _decode_value("string", BYTES, raw, pos)
        elif number == 2 and wire_type == BYTES:
            value, pos = _decode_value(value_type, BYTES, raw, pos)
        else:
            pos = skip(raw, pos, wire_type)
    return key, value


def decode_message(message: str, data: bytes) -> dict[str, Any]:
    """One message's bytes as its JSON-form dict (unknown fields skipped, as gogo does)."""
    by_number, short = _by_number(message), message.rpartition(".")[2]
    out: dict[str, Any] = {}
    pos = 0
    while pos < len(data):
        tag, pos = read_varint(data, pos)
        number, wire_type = tag >> 3, tag & 7
        if wire_type == END_GROUP:
            raise ProtobufError(f"proto: {short}: wiretype end group for non-group")
        if number <= 0:
            raise ProtobufError(f"proto: {short}: illegal tag {number} (wire type {wire_type})")
        field = by_number.get(number)
        if field is None:
            pos = skip(data, pos, wire_type)
            continue
        packed = field.repeated and field.type in _VARINT_TYPES and wire_type == BYTES
        if wire_type != field.wire_type and not packed:
            raise ProtobufError(f"proto: wrong wireType = {wire_type} for field {field.go_name}")
        if field.map:
            raw, pos = read_bytes(data, pos)
            key, value = _map_entry(field.type, raw)
            out.setdefault(field.name, {})[key] = value
        elif packed:
            raw, pos = read_bytes(data, pos)
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
        return field_key(field.number, _VARINT) + _varint(int(value))
    if field.type == "string":
        return length_delimited(field.number, str(value).encode("utf-8"))
    if field.type == "bytes":
        return length_delimited(field.number, base64.b64decode(value))
    if field.type in _SPECIAL:
        return length_delimited(field.number, _special_encode(field.type, value))
    return length_delimited(field.number, encode_message(field.type, value))


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
                out += length_delimited(field.number, encode_message(field.type, part))
            continue
        if field.name not in value or value[field.name] is None:
            continue
        item = value[field.name]
        if field.map:
            value_field = Field(2, "value", field.type)
            for key in sorted(item):
                entry = length_delimited(1, key.encode("utf-8")) + _encode_value(value_field, item[key])
                out += length_delimited(field.number, entry)
        elif field.repeated:
            for element in item:
                out += _encode_value(field, element)
        else:
            out += _encode_value(field, item)
    extra = sorted(set(value) - known - {"apiVersion", "kind"})
    if extra:
        raise ProtobufError(f"kschedlearn: the protobuf schema of {message} has no field {extra[0]!r}")
    return bytes(out)




__all__ = ["ProtobufError", "Field", "fields", "decode_message", "encode_message", "read_varint", "read_bytes",
           "skip", "length_delimited", "field_key", "BYTES", "END_GROUP"]
