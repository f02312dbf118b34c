"""Which fields of a dumped object 1.6 had, which kschedlearn models, and which change scheduling.

kschedlearn-only. A modern object carries three kinds of field kschedlearn does not keep, and the
import report must not mix them up:

- fields Kubernetes 1.6 did not have at all (``metadata.managedFields``,
  ``spec.topologySpreadConstraints``, ``spec.priority`` ...): :data:`NEW`;
- fields 1.6 had and its scheduler never read, which kschedlearn does not model (``env``, probes,
  ``volumeMounts``, ``status.containerStatuses`` ...): :data:`UNMODELLED`;
- among the new ones, those a modern scheduler acts on, so that 1.6's placement can differ from
  the captured cluster's: :func:`scheduling_note` names them and says why.

"1.6 had it" is read from ``data/k8s-1.6.1-json-fields.json`` (the JSON field names of the v1.6.1
Go types, written by ``tools/make_k8s16_fields.py``); "kschedlearn models it" from the API classes
(:func:`kschedlearn.api.v1.codec.manifest_fields`). One walk over the object finds both.
"""

from __future__ import annotations

import functools
import json
import re
import types
import typing
from pathlib import Path
from typing import Any, Union

import attrs

from kschedlearn.api.v1.codec import manifest_fields
from kschedlearn.scenarios.dump_report import GO

FIELDS_FILE = Path(__file__).resolve().parent / "data" / "k8s-1.6.1-json-fields.json"
NEW = "new"
UNMODELLED = "unmodelled"
#: a dump kind -> its Go type in the table
ROOT_TYPES = {"Pod": "v1.Pod", "Node": "v1.Node", "Service": "v1.Service",
              "ReplicationController": "v1.ReplicationController", "PersistentVolume": "v1.PersistentVolume",
              "PersistentVolumeClaim": "v1.PersistentVolumeClaim", "ReplicaSet": "extensions.ReplicaSet",
              "StatefulSet": "apps.StatefulSet"}
_TOP = ("apiVersion", "kind")
_PRIORITY = ("1.6 has no pod priority and no preemption: pending pods are scheduled in the "
             "order they arrive and never evict a running pod")
_NS_SELECTOR = ("1.6 names the namespaces of a term only by list, an empty list meaning the pod's own "
                "namespace, so the term now matches pods of fewer namespaces (PodAffinityTerm: "
                f"{GO}pkg/api/v1/types.go#L2094-L2116)")
#: (pattern of a Pod field path 1.6 did not have, what the replay does and why) — fields a modern
#: scheduler acts on; everything else 1.6 did not have is harmless to 1.6's placements
_SCHEDULING: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p), note) for p, note in (
    (r"spec\.topologySpreadConstraints$",
     "1.6 has no topology spread constraints; its SelectorSpreadPriority only prefers spreading "
     "the pods of one Service/RC/RS/StatefulSet over nodes and zones, and never filters a node "
     f"(CalculateSpreadPriority, {GO}plugin/pkg/scheduler/algorithm/priorities/selector_spreading.go#L96-L192)"),
    (r"spec\.(priority|priorityClassName|preemptionPolicy)$", _PRIORITY),
    (r"status\.nominatedNodeName$", _PRIORITY),
    (r"spec\.overhead$", "1.6 adds no RuntimeClass overhead to a pod's requests"),
    (r"spec\.schedulingGates$", "1.6 has no scheduling gates: it schedules the pod at once"),
    (r"spec\.(resourceClaims|containers\[\]\.resources\.claims)$",
     "1.6 has no dynamic resource allocation: the pod is placed as if it claimed nothing"),
    (r"spec\.resources$", "1.6 has no pod-level resources: only the containers' requests count"),
    (r"spec\.initContainers\[\]\.restartPolicy$",
     "in 1.6 an init container runs to completion, so its requests are not added to the "
     "containers' (a sidecar's are, in the captured cluster): the pod asks 1.6 for less "
     f"(GetResourceRequest, {GO}plugin/pkg/scheduler/algorithm/predicates/predicates.go#L471-L540)"),
    # spec.affinity.podAffinity / podAntiAffinity terms (1.21+ namespaceSelector, 1.29+ label keys)
    (r"spec\.[a-z]+\.pod[A-Za-z]+\..*\.(namespaceSelector|matchLabelKeys|mismatchLabelKeys)$", _NS_SELECTOR),
))


@functools.cache
def go_types() -> dict[str, Any]:
    """The table of 1.6's JSON fields (``package.Type`` -> fields or a named type's expression)."""
    return json.loads(FIELDS_FILE.read_text())["types"]


@functools.cache
def _go_fields(expr: str) -> tuple[str, Any]:
    """("struct", {json: expr}) | ("list", expr) | ("map", expr) | ("leaf", None) for a type expression."""
    if expr.startswith("[]"):
        return "list", expr[2:]
    if expr.startswith("map[]"):
        return "map", expr[5:]
    entry = go_types().get(expr)
    if entry is None:
        return "leaf", None
    if isinstance(entry, str):
        return _go_fields(entry)
    fields = {k: v for k, v in entry.items() if k != "__inline__"}
    for inline in entry.get("__inline__", ()):
        shape, inner = _go_fields(inline)
        if shape == "struct":
            fields.update(inner)
    return "struct", fields


@functools.cache
def _py_fields(tp: Any) -> dict[str, Any] | None:
    """The manifest keys kschedlearn models at a type hint (None when it is not a modelled struct)."""
    tp = _unwrap(tp)
    return manifest_fields(tp) if tp is not None and attrs.has(tp) else None


def _unwrap(tp: Any) -> Any:
    """``X | None`` -> X; ``tuple[X, ...]`` / ``list[X]`` / ``dict[str, X]`` -> X (the element)."""
    origin = typing.get_origin(tp)
    if origin in (Union, types.UnionType):
        rest = [a for a in typing.get_args(tp) if a is not type(None)]
        return _unwrap(rest[0]) if len(rest) == 1 else None
    if origin in (tuple, list):
        return _unwrap(typing.get_args(tp)[0])
    if origin is dict:
        return _unwrap(typing.get_args(tp)[1])
    return tp


#: fields whose empty value still says something: ``namespaceSelector: {}`` selects every namespace
_EMPTY_MEANS_SOMETHING = frozenset({"namespaceSelector"})


def _empty(value: Any) -> bool:
    return value is None or value is False or value == 0 or value == "" or value == {} or value == []


def classify(kind: str, doc: dict[str, Any], cls: type) -> list[tuple[str, str]]:
    """[(NEW | UNMODELLED, field path)] for the non-empty fields of ``doc`` kschedlearn drops.

    Paths name list elements with ``[]`` (``spec.containers[].env``); a field kschedlearn drops
    whole is named once, with the fields inside it that 1.6 did not have named as NEW.
    """
    out: list[tuple[str, str]] = []
    _, fields = _go_fields(ROOT_TYPES[kind])
    _walk_struct({k: v for k, v in doc.items() if k not in _TOP}, fields, _py_fields(cls), "", out, True)
    return out


def _walk(value: Any, expr: str, py: Any, path: str, out: list[tuple[str, str]], modelled: bool) -> None:
    shape, inner = _go_fields(expr)
    if shape == "leaf":
        return
    if shape in ("list", "map"):
        items = value if shape == "list" and isinstance(value, list) else (
            value.values() if shape == "map" and isinstance(value, dict) else ())
        sub = f"{path}[]" if shape == "list" else f"{path}{{}}"
        seen: set[str] = set()
        for item in items:
            found: list[tuple[str, str]] = []
            _walk(item, inner, py, sub, found, modelled)
            out.extend(f for f in found if f[1] not in seen)  # one report per field per object
            seen.update(f[1] for f in found)
        return
    if isinstance(value, dict):
        _walk_struct(value, inner, _py_fields(py) if modelled else None, path, out, modelled)


def _walk_struct(value: dict[str, Any], fields: dict[str, str], py: dict[str, Any] | None, path: str,
                 out: list[tuple[str, str]], modelled: bool) -> None:
    for key, item in value.items():
        if _empty(item) and not (key in _EMPTY_MEANS_SOMETHING and item is not None):
            continue
        sub = f"{path}.{key}" if path else key
        expr = fields.get(key)
        if expr is None:
            out.append((NEW, sub))
            continue
        keeps = modelled and py is not None and key in py
        if modelled and py is not None and not keeps:
            out.append((UNMODELLED, sub))
        _walk(item, expr, py.get(key) if keeps and py is not None else None, sub, out, keeps)


def scheduling_note(kind: str, path: str) -> str:
    """Why ignoring a field 1.6 did not have can change where pods go (or "" when it cannot)."""
    if kind != "Pod":
        return ""
    return next((note for pattern, note in _SCHEDULING if pattern.match(path)), "")


__all__ = ["classify", "scheduling_note", "go_types", "NEW", "UNMODELLED", "ROOT_TYPES", "FIELDS_FILE"]
