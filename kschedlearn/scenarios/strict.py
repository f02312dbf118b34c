"""Unknown fields inside a scenario's manifests: an error naming the field, with a suggestion.

Go: none — kschedlearn-only. 1.6's decoder (``encoding/json`` into the v1 structs) ignores a
key it does not know, so a typo such as ``alocatable:`` under a node's ``status`` used to be
dropped without a word: the node simply had no allocatable resources and nothing fitted. A
scenario file is kschedlearn's own format, written by hand, so it is strict at every depth, the
way its top-level keys already were: ``objects[0].status.alocatable: unknown field (expected one
of ...); did you mean 'allocatable'?``. The known keys of each object are the JSON names of the
API class the codec decodes it into (``kschedlearn.api.v1``), i.e. the fields of 1.6's types that
the simulation models.

Lenient where 1.6's API accepted the object: what a client sends to the HTTP face and what a
cluster dump (``Simulation.from_manifests``) holds are decoded as 1.6 did, unknown keys ignored
(a dump lists them once in its import report).
"""

from __future__ import annotations

import types
import typing
from collections.abc import Mapping
from typing import Annotated, Any, Union

import attrs

from kschedlearn.api.v1 import codec
from kschedlearn.api.v1.yaml_load import KINDS
from kschedlearn.scenarios.validate import suggest

_TYPE_META = ("kind", "apiVersion")


def unknown_field(manifest: Any, where: str) -> str | None:
    """The first unknown key anywhere in ``manifest`` (one object of a scenario) as an error
    text ``where.path: unknown field ...``, or None (a malformed value is the decoder's to name)."""
    if not isinstance(manifest, Mapping):
        return None
    cls = KINDS.get(manifest.get("kind"))  # type: ignore[arg-type]
    if cls is None:
        return None
    return _struct(cls, manifest, where, top=True)


def _struct(cls: type, value: Any, path: str, *, top: bool = False) -> str | None:
    if not isinstance(value, Mapping):
        return None
    try:
        plan = {fp.key: fp for fp in codec._plan(cls)}
    except Exception:  # noqa: BLE001 - a class with its own codec: nothing to check here
        return None
    known = list(plan) + (list(_TYPE_META) if top else [])
    for key in value:
        if key not in known:
            shown = ", ".join(sorted(known))
            return f"{path}.{key}: unknown field (expected one of {shown})" + suggest(str(key), known)
    for key, item in value.items():
        fp = plan.get(key)
        if fp is not None and item is not None:
            problem = _value(fp.tp, item, f"{path}.{key}")
            if problem:
                return problem
    return None


def _value(tp: Any, item: Any, path: str) -> str | None:
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is Annotated:
        return _value(args[0], item, path)
    if origin in (Union, types.UnionType):
        rest = [a for a in args if a is not type(None)]
        return _value(rest[0], item, path) if len(rest) == 1 else None
    if origin in (tuple, list) and isinstance(item, list):
        for i, element in enumerate(item):
            problem = _value(args[0], element, f"{path}[{i}]")
            if problem:
                return problem
        return None
    if origin in (dict, Mapping, typing.Mapping) and isinstance(item, Mapping) and len(args) == 2:
        for key, element in item.items():
            problem = _value(args[1], element, f"{path}[{key!r}]")
            if problem:
                return problem
        return None
    if isinstance(tp, type) and attrs.has(tp):
        return _struct(tp, item, path)
    return None


__all__ = ["unknown_field"]
