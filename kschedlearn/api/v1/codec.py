"""A small generic codec between API objects and their manifest form (camelCase dicts).

Go: the JSON struct tags of ``pkg/api/v1/types.go`` together with ``encoding/json``
and ``k8s.io/apimachinery`` meta types (``metav1.Time``, ``resource.Quantity``),
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/api/v1/types.go

How it works: every API class is an attrs class; the codec reads the class's type
hints and the optional field metadata set by :func:`field` and decodes / encodes
each field by type, so no class has a hand-written ``from_dict``/``to_dict``.

Supported field types: ``str``, ``int`` (a ``bool`` is *not* an int), ``bool``,
:data:`Time` (float seconds of the simulated clock), :data:`IntOrString`,
``X | None``, ``tuple[X, ...]``, ``dict[str, str]``, :data:`ResourceList`
(``dict[str, Quantity]``) and nested attrs classes.

Rules (decisions documented for users of the package):

* JSON names default to the camelCase of the Python name (``node_name`` ->
  ``nodeName``); Go names that are not plain camelCase (``hostIP``, ``volumeID``,
  ``podCIDR``, ``diskURI``, ...) are given with ``field(json=...)``.
* Unknown keys are ignored on decode (like Go's ``encoding/json``) and therefore
  not preserved on encode.
* A ``null`` value is treated like an absent key (the field keeps its default).
* ``to_dict`` omits empty values like kubectl's ``omitempty``: ``None``, ``""``,
  ``0``, ``False``, empty lists/maps and nested structs that encode to ``{}``.
  Exceptions: an optional field (``X | None``) is written whenever it is not
  ``None`` (so ``emptyDir: {}`` and ``replicas: 0`` survive a round trip), and
  fields declared with ``omitempty=False`` (Go fields without ``omitempty``, such
  as ``containerPort``) are always written.
* Times: manifests carry RFC3339 strings; the Python value is float seconds since
  2017-04-03T00:00:00Z (the v1.6.1 release day), so simulated time 0.0 is that day.
  Differs from Go: ``metav1.Time`` writes whole seconds; we keep a fractional part
  (``...T00:00:01.5Z``) because simulated times are floats.
* Quantities are parsed with ``kschedlearn.api.resource.parse_quantity`` (numbers
  such as ``cpu: 2`` are accepted, as Go's Quantity accepts JSON numbers) and written
  as ``str(q)`` (Go's canonical form).
* Errors raise :class:`~kschedlearn.api.errors.ManifestError` naming the object and
  the field path.
"""

from __future__ import annotations

import collections.abc
import datetime as _dt
import functools
import json
import re
import sys
import types
import typing
from collections.abc import Callable, Mapping
from typing import Annotated, Any, ClassVar, Union

import attrs

from kschedlearn.api.v1._gojson import _GO_JSON, go_json_fields
from kschedlearn.api.errors import ManifestError
from kschedlearn.api.resource import Quantity, parse_quantity
from kschedlearn.api.v1.times import _TIME_MARK, EPOCH, Time, format_time, parse_time

__all__ = [
    "EPOCH",
    "IntOrString",
    "ResourceList",
    "Serializable",
    "Time",
    "TopLevelObject",
    "describe_object",
    "field",
    "format_time",
    "manifest_fields",
    "parse_time",
]

#: Go's ``v1.ResourceList``: resource name -> Quantity.
ResourceList = dict[str, Quantity]
#: Go's ``intstr.IntOrString``.
IntOrString = Union[int, str]

_JSON_KEY = "kschedlearn.json"
_OMITEMPTY_KEY = "kschedlearn.omitempty"
_PLAIN_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")


def field(
    *,
    json: str | None = None,
    default: Any = attrs.NOTHING,
    factory: Callable[[], Any] | None = None,
    omitempty: bool = True,
) -> Any:
    """Declare an attrs field with its manifest key (``json``) and omitempty behaviour.

    kschedlearn-only: plays the part of Go's ``json:"name,omitempty"`` struct tags.
    """
    metadata = {_OMITEMPTY_KEY: omitempty}
    if json is not None:
        metadata[_JSON_KEY] = json
    if factory is not None:
        return attrs.field(factory=factory, metadata=metadata)
    return attrs.field(default=default, metadata=metadata)


class Serializable:
    """Mixin giving an attrs class ``from_dict`` / ``to_dict`` through the codec.

    kschedlearn-only: Go gets this from ``encoding/json`` reflection over struct tags.
    """

    __slots__ = ()

    @classmethod
    def from_dict(cls, d: Any, *, path: str = "") -> Any:
        """Decode a manifest dict; ``path`` names where it came from (error prefix)."""
        return decode_object(cls, d, source=path)

    def to_dict(self) -> dict[str, Any]:
        """Encode to manifest form (camelCase keys, empty values omitted)."""
        return encode_object(self)


class TopLevelObject(Serializable):
    """Mixin for kinds: ``kind``/``api_version`` class constants are checked and written.

    kschedlearn-only: Go's ``TypeMeta`` (``kind``/``apiVersion``) handled by the codec.
    """

    __slots__ = ()
    kind: ClassVar[str] = ""
    api_version: ClassVar[str] = "v1"


# --- error helpers ----------------------------------------------------------------


class _DecodeError(Exception):
    """Internal: a field failed to decode; turned into ManifestError at the top."""

    def __init__(self, path: str, msg: str) -> None:
        super().__init__(path, msg)
        self.path = path
        self.msg = msg


def _quote(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)


def _describe(value: Any) -> str:
    if isinstance(value, str):
        return _quote(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, Mapping):
        return "a map"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, (_dt.datetime, _dt.date)):
        return value.isoformat()
    return type(value).__name__


def _key_path(path: str, key: str) -> str:
    if _PLAIN_KEY.fullmatch(key):
        return f"{path}.{key}" if path else key
    return f"{path}[{_quote(key)}]"


def describe_object(kind: str, metadata: Any) -> str:
    """``Kind ns/name``, ``Kind name`` or ``Kind <unnamed>`` from a metadata dict or ObjectMeta.

    kschedlearn-only: names the object in error messages.
    """
    if isinstance(metadata, Mapping):
        name, namespace = metadata.get("name"), metadata.get("namespace")
    else:
        name = getattr(metadata, "name", None)
        namespace = getattr(metadata, "namespace", None)
    if not isinstance(name, str) or not name:
        return f"{kind} <unnamed>"
    if isinstance(namespace, str) and namespace:
        return f"{kind} {namespace}/{name}"
    return f"{kind} {name}"


# --- scalar decoders ----------------------------------------------------------------


def _dec_str(value: Any, path: str) -> str:
    if not isinstance(value, str):
        raise _DecodeError(path, f"expected string, got {_describe(value)}")
    # Interned: namespaces, label keys and values recur across thousands of objects, and the
    # scheduler compares them in its hottest loop (SelectorSpread's walk over every pod); equal
    # interned strings compare by identity without reading their text (another cache miss).
    return sys.intern(value) if len(value) <= _INTERN_MAX else value


#: strings longer than this (annotations' JSON, messages) are not interned
_INTERN_MAX = 253


def _dec_int(value: Any, path: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _DecodeError(path, f"expected integer, got {_describe(value)}")
    return value


def _dec_bool(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        raise _DecodeError(path, f"expected boolean, got {_describe(value)}")
    return value


def _dec_float(value: Any, path: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _DecodeError(path, f"expected number, got {_describe(value)}")
    return float(value)


def _dec_time(value: Any, path: str) -> float:
    if not isinstance(value, (str, _dt.datetime)):
        raise _DecodeError(path, f"expected RFC3339 time string, got {_describe(value)}")
    try:
        return parse_time(value)
    except ValueError as err:
        raise _DecodeError(path, str(err)) from None


def _dec_int_or_string(value: Any, path: str) -> int | str:
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise _DecodeError(path, f"expected integer or string, got {_describe(value)}")
    return value


def _dec_quantity(value: Any, path: str) -> Quantity:
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise _DecodeError(path, f"expected quantity string, got {_describe(value)}")
    text = value if isinstance(value, str) else str(value)
    try:
        return parse_quantity(text)
    except ValueError:
        raise _DecodeError(path, f"invalid quantity {_quote(text)}") from None


def _identity(value: Any) -> Any:
    return value


# --- type-driven codec construction -------------------------------------------------

Decoder = Callable[[Any, str], Any]
Encoder = Callable[[Any], Any]


def _tuple_codec(item_type: Any, as_list_type: type) -> tuple[Decoder, Encoder]:
    item_dec, item_enc = _codec_for(item_type)

    def decode(value: Any, path: str) -> Any:
        if not isinstance(value, (list, tuple)):
            raise _DecodeError(path, f"expected a list, got {_describe(value)}")
        return as_list_type(item_dec(v, f"{path}[{i}]") for i, v in enumerate(value))

    def encode(value: Any) -> list[Any]:
        return [item_enc(v) for v in value]

    return decode, encode


def _map_codec(value_type: Any) -> tuple[Decoder, Encoder]:
    val_dec, val_enc = _codec_for(value_type)

    def decode(value: Any, path: str) -> dict[str, Any]:
        if not isinstance(value, Mapping):
            raise _DecodeError(path, f"expected a map, got {_describe(value)}")
        out: dict[str, Any] = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise _DecodeError(path, f"expected string keys, got key {_describe(key)}")
            out[sys.intern(key)] = val_dec(item, _key_path(path, key))
        return out

    def encode(value: Mapping[str, Any]) -> dict[str, Any]:
        return {k: val_enc(v) for k, v in value.items()}

    return decode, encode


def _struct_codec(cls: type) -> tuple[Decoder, Encoder]:
    def decode(value: Any, path: str) -> Any:
        return _decode_struct(cls, value, path)

    return decode, _encode_struct


def _foreign_codec(cls: type) -> tuple[Decoder, Encoder]:
    """A class the codec cannot introspect but which has from_dict/to_dict itself."""

    def decode(value: Any, path: str) -> Any:
        try:
            return cls.from_dict(value)  # type: ignore[attr-defined]
        except ValueError as err:
            raise _DecodeError(path, str(err)) from None

    return decode, lambda obj: obj.to_dict()


@functools.cache
def _codec_for(tp: Any) -> tuple[Decoder, Encoder]:
    """(decoder, encoder) for a type hint; memoised (pure function of the type)."""
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is Annotated and _TIME_MARK in args[1:]:
        return _dec_time, format_time
    if origin in (Union, types.UnionType):
        rest = tuple(a for a in args if a is not type(None))
        if len(rest) == 1:
            return _codec_for(rest[0])
        if set(rest) == {int, str}:
            return _dec_int_or_string, _identity
        raise TypeError(f"unsupported union {tp!r}")
    if origin is tuple:
        return _tuple_codec(args[0], tuple)
    if origin is list:
        return _tuple_codec(args[0], list)
    if origin in (dict, collections.abc.Mapping, typing.Mapping):
        return _map_codec(args[1])
    scalars: dict[Any, tuple[Decoder, Encoder]] = {
        str: (_dec_str, _identity),
        int: (_dec_int, _identity),
        bool: (_dec_bool, _identity),
        float: (_dec_float, _identity),
        Quantity: (_dec_quantity, str),
    }
    if tp in scalars:
        return scalars[tp]
    if attrs.has(tp):
        try:
            _plan(tp)
        except Exception:  # an outside class we cannot introspect: use its own codec
            if hasattr(tp, "from_dict") and hasattr(tp, "to_dict"):
                return _foreign_codec(tp)
            raise
        return _struct_codec(tp)
    raise TypeError(f"unsupported field type {tp!r}")


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(word[:1].upper() + word[1:] for word in rest)


@attrs.frozen
class _FieldPlan:
    attr: str
    init_name: str
    key: str
    optional: bool
    omitempty: bool
    required: bool
    tp: Any


@functools.cache
def _plan(cls: type) -> tuple[_FieldPlan, ...]:
    """The per-field plan of an attrs class; memoised (pure function of the class)."""
    hints = typing.get_type_hints(cls, include_extras=True)
    plans = []
    for a in attrs.fields(cls):
        tp = hints[a.name]
        optional = typing.get_origin(tp) in (Union, types.UnionType) and type(None) in typing.get_args(tp)
        plans.append(
            _FieldPlan(
                attr=a.name,
                init_name=getattr(a, "alias", None) or a.name.lstrip("_"),
                key=a.metadata.get(_JSON_KEY, _camel(a.name)),
                optional=optional,
                omitempty=a.metadata.get(_OMITEMPTY_KEY, True),
                required=a.default is attrs.NOTHING,
                tp=tp,
            )
        )
    return tuple(plans)


def manifest_fields(cls: type) -> dict[str, Any]:
    """The manifest keys an API class models, each with its type hint (``{"nodeName": str, ...}``).

    kschedlearn-only: lets an importer tell a key kschedlearn reads from one it drops.
    """
    return {fp.key: fp.tp for fp in _plan(cls)}


def _decode_struct(cls: type, value: Any, path: str) -> Any:
    if not isinstance(value, Mapping):
        raise _DecodeError(path, f"expected a map, got {_describe(value)}")
    kwargs = {}
    plan = _plan(cls)
    if _GO_JSON.get():
        value = go_json_fields([fp.key for fp in plan], value)
    for fp in plan:
        item = value.get(fp.key)
        if item is None:
            if fp.required:  # a class without defaults (from outside): use Go's zero value
                kwargs[fp.init_name] = _zero_value(fp.tp)
            continue
        decode = _codec_for(fp.tp)[0]
        kwargs[fp.init_name] = decode(item, _key_path(path, fp.key))
    return cls(**kwargs)


def _zero_value(tp: Any) -> Any:
    """Go's zero value for a field type (only needed for classes without defaults)."""
    origin = typing.get_origin(tp)
    if origin in (Union, types.UnionType) and type(None) in typing.get_args(tp):
        return None
    if origin is tuple:
        return ()
    if origin is list:
        return []
    if origin in (dict, collections.abc.Mapping, typing.Mapping):
        return {}
    zeros: dict[Any, Any] = {str: "", int: 0, bool: False, float: 0.0}
    if tp in zeros:
        return zeros[tp]
    return _codec_for(tp)[0]({}, "")


def _encode_struct(obj: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for fp in _plan(type(obj)):
        value = getattr(obj, fp.attr)
        if value is None:
            continue
        encoded = _codec_for(fp.tp)[1](value)
        if fp.omitempty and not fp.optional and not encoded:
            continue
        out[fp.key] = encoded
    return out


# --- entry points ---------------------------------------------------------------------


def decode_object(cls: type, d: Any, *, source: str = "") -> Any:
    """Decode ``d`` into ``cls``; errors become ManifestError naming object and field.

    kschedlearn-only: stands in for ``json.Unmarshal`` into a v1 struct.
    """
    if issubclass(cls, TopLevelObject):
        metadata = d.get("metadata") if isinstance(d, Mapping) else None
        obj_desc = describe_object(cls.kind, metadata)
    else:  # a part of an object (e.g. an annotation's JSON): name just the type
        obj_desc = cls.__name__
    try:
        if issubclass(cls, TopLevelObject) and isinstance(d, Mapping):
            _check_type_meta(cls, d)
        return _decode_struct(cls, d, "")
    except _DecodeError as err:
        raise ManifestError(obj_desc, err.path, err.msg, source=source) from None


def _check_type_meta(cls: type[TopLevelObject], d: Mapping[str, Any]) -> None:
    for key, want in (("kind", cls.kind), ("apiVersion", cls.api_version)):
        got = d.get(key)
        if got is not None and got != want:
            raise _DecodeError(key, f"expected {_quote(want)}, got {_describe(got)}")


def encode_object(obj: Any) -> dict[str, Any]:
    """Encode an API object; kinds get ``apiVersion`` and ``kind`` first.

    kschedlearn-only: stands in for ``json.Marshal`` of a v1 struct.
    """
    body = _encode_struct(obj)
    if isinstance(obj, TopLevelObject):
        return {"apiVersion": obj.api_version, "kind": obj.kind, **body}
    return body
