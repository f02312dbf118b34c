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
              "StatefulSet": "apps.StatefulSet", "Deployment": "extensions.Deployment",
              "DaemonSet": "extensions.DaemonSet"}
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
    """("struct", {json: (shape, inner)}) | ("list", expr) | ("map", expr) | ("leaf", None) for a type
    expression; a struct's fields come with their own shape, so the walk never descends into a leaf."""
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
            fields.update({k: _expr_of(k, inline) for k in inner})
    return "struct", {k: (v, _go_fields(v)[0]) for k, v in fields.items()}


def _expr_of(key: str, struct: str) -> str:
    """The type expression of field ``key`` of ``struct`` (through its inline structs)."""
    entry = go_types()[struct]
    while isinstance(entry, str):
        entry = go_types()[entry]
    if key in entry:
        return entry[key]
    return next(_expr_of(key, inline) for inline in entry.get("__inline__", ()) if key in _go_fields(inline)[1])


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


def classify(kind: str, doc: dict[str, Any], cls: type) -> list[tuple[str, str]]:
    """[(NEW | UNMODELLED, field path)] for the non-empty fields of ``doc`` kschedlearn drops.

    Paths name list elements with ``[]`` (``spec.containers[].env``), each path once per object;
    a field kschedlearn drops whole is named once, with the fields inside it that 1.6 did not
    have named as NEW. (An empty value — ``null``, ``""``, ``0``, ``false``, ``{}``, ``[]`` — says
    nothing and is not reported.)
    """
    out: dict[tuple[str, str], None] = {}
    _, fields = _go_fields(ROOT_TYPES[kind])
    _walk_struct({k: v for k, v in doc.items() if k not in _TOP}, fields, _py_fields(cls), "", out, True)
    return list(out)


def classify_field(kind: str, key: str, value: Any, cls: type) -> list[tuple[str, str]]:
    """:func:`classify`'s findings under the object's top-level field ``key`` alone.

    ``classify`` is these, field by field in the object's order, each finding kept once (every
    path starts with its field's name), so a part shared by many objects — the one spec of a
    dump's replicas — can be classified once (``cluster_dump._SharedSpecs``).
    """
    out: dict[tuple[str, str], None] = {}
    if key not in _TOP:
        _, fields = _go_fields(ROOT_TYPES[kind])
        _walk_struct({key: value}, fields, _py_fields(cls), "", out, True)
    return list(out)


def _walk(value: Any, expr: str, py: Any, path: str, out: dict[tuple[str, str], None], modelled: bool) -> None:
    shape, inner = _go_fields(expr)
    if shape == "list":
        if isinstance(value, list):
            for item in value:
                _walk(item, inner, py, f"{path}[]", out, modelled)
    elif shape == "map":
        if isinstance(value, dict) and _go_fields(inner)[0] != "leaf":
            for item in value.values():
                _walk(item, inner, py, f"{path}{{}}", out, modelled)
    elif shape == "struct" and isinstance(value, dict):
        _walk_struct(value, inner, _py_fields(py) if modelled else None, path, out, modelled)


def _walk_struct(value: dict[str, Any], fields: dict[str, tuple[str, str]], py: dict[str, Any] | None, path: str,
                 out: dict[tuple[str, str], None], modelled: bool) -> None:
    for key, item in value.items():
        if not item and (item is None or key not in _EMPTY_MEANS_SOMETHING):
            continue
        sub = f"{path}.{key}" if path else key
        field = fields.get(key)
        if field is None:
            out[(NEW, sub)] = None
            continue
        keeps = modelled and py is not None and key in py
        if modelled and py is not None and not keeps:
            out[(UNMODELLED, sub)] = None
        if field[1] != "leaf":
            _walk(item, field[0], py.get(key) if keeps and py is not None else None, sub, out, keeps)


def scheduling_note(kind: str, path: str) -> str:
    """Why ignoring a field 1.6 did not have can change where pods go (or "" when it cannot)."""
    if kind != "Pod":
        return ""
    return next((note for pattern, note in _SCHEDULING if pattern.match(path)), "")


__all__ = ["classify", "classify_field", "scheduling_note", "go_types", "NEW", "UNMODELLED", "ROOT_TYPES", "FIELDS_FILE"]
