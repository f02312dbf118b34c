"""JSON for frozen attrs values, directed by their type hints (so decoding rebuilds the exact values).

Go: none — kschedlearn-only: how snapshots (``trace/snapshot.py``) are exported and read back.
"""

from __future__ import annotations

import functools
import json
import operator
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from kschedlearn.trace.chunks import Chunks


#: how :func:`encode` writes a value of each type it has met: one of the kinds below, or the
#: attrs class's field names. A snapshot is hundreds of thousands of small values of a few dozen
#: types; asking ``attrs.has`` and the ABCs for each value was most of a snapshot's ``dumps``.
_KINDS: dict[type, str | tuple[str, ...]] = {str: "plain", int: "plain", float: "plain", bool: "plain",
                                              type(None): "plain", tuple: "list", list: "list"}


def _kind(tp: type) -> str | tuple[str, ...]:
    if issubclass(tp, Chunks):  # a long snapshot part (trace/chunks.py): the list of its elements
        return "list"
    if attrs.has(tp):
        return tuple(f.name for f in attrs.fields(tp))
    if issubclass(tp, Mapping):
        return "mapping"
    if issubclass(tp, (tuple, list)):
        return "list"
    return "plain"


def encode(value: Any) -> Any:
    """Plain JSON-able data; mapping keys sorted so equal values dump identically."""
    kind = _kind_of(type(value))
    if kind == "plain":
        return value
    if kind == "list":
        return [encode(v) for v in value]
    if kind == "mapping":
        return {str(k): encode(value[k]) for k in sorted(value)}
    return {name: encode(getattr(value, name)) for name in kind}


def _kind_of(tp: type) -> str | tuple[str, ...]:
    kind = _KINDS.get(tp)
    if kind is None:
        kind = _KINDS[tp] = _kind(tp)
    return kind


def _unmapped(value: Any) -> Any:
    """``value``, or for a mapping one level of :func:`encode`: string keys, in the order of the
    original keys (``json`` sorts them again as strings; two keys with the same string keep the
    last, as in :func:`encode`), mapping values converted the same way. ``json`` writes a ``dict``
    itself, and would write an ``int`` or ``bool`` key differently (``1``, ``true``)."""
    if _kind_of(type(value)) != "mapping":
        return value
    return {str(k): _unmapped(value[k]) for k in sorted(value)}


def _fields_converter(names: tuple[str, ...]) -> Callable[[Any], dict[str, Any]]:
    """One level of :func:`encode` for an attrs class with fields ``names``: its field values by
    name, a mapping field converted by :func:`_unmapped`."""
    if not names:
        return lambda value: {}
    get = operator.attrgetter(*names)
    one = len(names) == 1

    def fields(value: Any) -> dict[str, Any]:
        values = (get(value),) if one else get(value)
        data = dict(zip(names, values))
        for name, v in zip(names, values):
            if _kind_of(type(v)) == "mapping":
                data[name] = _unmapped(v)
        return data

    return fields


#: how :func:`_plain` turns a value of each type ``json`` cannot write into one it can
_PLAIN: dict[type, Callable[[Any], Any]] = {}


def _plain(value: Any) -> Any:
    """``json``'s ``default``: one level of :func:`encode` for a value ``json`` does not know (an
    attrs value, a :class:`Chunks`, a mapping that is not a ``dict``); ``json`` goes on into what
    it returns."""
    tp = type(value)
    convert = _PLAIN.get(tp)
    if convert is None:
        kind = _kind_of(tp)
        if kind == "plain":
            raise TypeError(f"Object of type {tp.__name__} is not JSON serializable")
        convert = _PLAIN[tp] = list if kind == "list" else _unmapped if kind == "mapping" else _fields_converter(kind)
    return convert(value)


#: ``json.dumps(encode(value), sort_keys=True, separators=(",", ":"))`` with the walk in C: the
#: encoder calls :func:`_plain` once per attrs value, never per string or number
_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), default=_plain, check_circular=False)


def dumps(value: Any) -> str:
    """The compact JSON text of :func:`encode`'s output (keys sorted), the same text as
    ``json.dumps(encode(value), sort_keys=True, separators=(",", ":"))``, three times faster:
    ``json``'s C encoder walks the tuples, strings and numbers, and asks :func:`_plain` only for
    each attrs value, :class:`Chunks` and mapping that is not a ``dict``. A ``dict`` that is the
    value, an attrs field or a mapping's value is converted as :func:`encode` converts it; one that
    is an element of a list or tuple is written by ``json`` itself, which gives the same text when
    its keys are strings (snapshots hold ``dict`` values only in ``str``-keyed fields)."""
    return _ENCODER.encode(_unmapped(value))


@functools.cache
def _init_hints(tp: type) -> tuple[tuple[str, Any], ...]:
    """The ``__init__`` fields of attrs class ``tp`` with their resolved type hints, in order
    (``typing.get_type_hints`` evaluates every annotation string again at each call: reading
    a recording back asked it once per value, most of the read's time)."""
    hints = typing.get_type_hints(tp)
    return tuple((f.name, hints[f.name]) for f in attrs.fields(tp) if f.init)


def decode(tp: Any, value: Any, path: str) -> Any:
    """Rebuild a value of type ``tp`` from :func:`encode` output; ``ValueError`` names the field path."""
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        args = typing.get_args(tp)
        if value is None and type(None) in args:
            return None
        return decode(next(a for a in args if a is not type(None)), value, path)
    if attrs.has(tp):
        if not isinstance(value, Mapping):
            raise ValueError(f"{path}: expected an object for {tp.__name__}, got {value!r}")
        kwargs = {name: decode(hint, value[name], f"{path}.{name}")
                  for name, hint in _init_hints(tp) if name in value}
        try:
            return tp(**kwargs)
        except TypeError as err:
            raise ValueError(f"{path}: {err}") from err
    if origin is dict:
        _, vt = typing.get_args(tp)
        return {k: decode(vt, v, f"{path}[{k}]") for k, v in value.items()}
    if origin is tuple:
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(decode(args[0], v, f"{path}[{i}]") for i, v in enumerate(value))
        return tuple(decode(a, v, f"{path}[{i}]") for i, (a, v) in enumerate(zip(args, value)))
    if tp is float and isinstance(value, int):
        return float(value)
    if tp is Any:
        return value
    if isinstance(tp, type) and not isinstance(value, tp):
        raise ValueError(f"{path}: expected {tp.__name__}, got {value!r}")
    return value


__all__ = ["encode", "decode", "dumps"]
