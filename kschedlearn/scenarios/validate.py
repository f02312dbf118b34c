"""Scenario checks made before anything runs: fault parameters and every cross reference.

Go: none — kschedlearn-only. A scenario that names a replica, node or pod it never creates, or a
fault whose parameters have the wrong type, used to fail half-way through a run (a ``KeyError``
inside the workload process, the rest of the timeline silently skipped). ``check_fault`` runs
while the timeline is parsed and ``check_references`` once the whole file is read, so every
error names the file, the entry and the field, and nothing has run yet.
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Iterable
from typing import Any

import attrs

from kschedlearn.api.validation import validation as _validation
from kschedlearn.apimachinery.util.validation.field import to_aggregate

MAX_SECONDS = (2**63 - 1) // 10**9  # Go's time.Duration is int64 nanoseconds (~292 years)

#: fault name -> {parameter: (kind, required)}; kinds: verb, resource, count, seconds, error
FAULT_PARAMS: dict[str, dict[str, tuple[str, bool]]] = {
    "fail_next": {"verb": ("verb", False), "resource": ("resource", False), "n": ("count", False),
                  "error": ("error", False), "name": ("name", False)},
    "delay_next": {"verb": ("verb", True), "seconds": ("seconds", True), "resource": ("resource", False),
                   "n": ("count", False)},
    "close_watches": {"resource": ("resource", False)},
    "stall_watches": {"duration": ("seconds", True), "resource": ("resource", False)},
    "expire_watch_window": {"n": ("window", False), "resource": ("resource", False)},
}
ERRORS = ("internal", "conflict")
_DNS = re.compile(r"^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$")


class _Problem(ValueError):
    """One bad value; the caller adds the file and entry."""


def suggest(name: str, known: Iterable[str]) -> str:
    """``"; did you mean 'x'?"`` for the closest known names, or the list of known names."""
    choices = sorted(set(known))
    close = difflib.get_close_matches(str(name), choices, n=3, cutoff=0.5)
    if close:
        return "; did you mean " + " or ".join(repr(c) for c in close) + "?"
    if not choices:
        return "; there are none"
    shown = ", ".join(repr(c) for c in choices[:10])
    return f"; known: {shown}" + (", ..." if len(choices) > 10 else "")


def check_fault(name: str, params: dict[str, Any], where: str) -> str | None:
    """The error text for a fault's parameters (``where`` = ``file: timeline[i].fault``), or None."""
    spec = FAULT_PARAMS[name]
    for key in params:
        if key not in spec:
            return (f"{where}.{name}.{key}: unknown parameter (expected {', '.join(spec)})"
                    + suggest(str(key), spec))
    for key, (kind, required) in spec.items():
        if key not in params:
            if required:
                return f"{where}.{name}: missing {key!r} (the fault needs {', '.join(k for k, (_, r) in spec.items() if r)})"
            continue
        try:
            _check_value(kind, params[key])
        except _Problem as err:
            return f"{where}.{name}.{key}: {err}"
    return None


def _check_value(kind: str, value: Any) -> None:
    from kschedlearn.apiserver.faults import ANY, VERBS  # (imported when a fault is checked)
    from kschedlearn.apiserver.registry import RESOURCES
    if kind == "verb":
        if value not in VERBS and value != ANY:
            raise _Problem(f"unknown verb {value!r} (one of {', '.join(VERBS)} or '*')" + suggest(str(value), VERBS))
    elif kind in ("resource", "name"):
        if value is not None and (not isinstance(value, str) or not value or " " in value):
            raise _Problem(f"expected a resource name such as 'pods', got {value!r}")
        # a resource the API server does not serve would match no request: the fault never fires
        if kind == "resource" and value is not None and value != ANY and value not in RESOURCES:
            raise _Problem(f"unknown resource {value!r} (one of {', '.join(sorted(RESOURCES))} or '*')"
                           + suggest(value, RESOURCES))
    elif kind in ("count", "window"):
        low = 1 if kind == "count" else 0
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise _Problem(f"expected a whole number >= {low}, got {value!r}")
    elif kind == "seconds":
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
            raise _Problem(f"expected a finite number of seconds >= 0, got {value!r}")
        if value > MAX_SECONDS:
            raise _Problem(f"expected at most {MAX_SECONDS} seconds (Go's longest time.Duration), got {value!r}")
    elif kind == "error":
        if value not in ERRORS:
            raise _Problem(f"expected one of {', '.join(ERRORS)}, got {value!r}" + suggest(str(value), ERRORS))


def check_references(scenario: Any, source: str) -> str | None:
    """The first dangling reference of ``scenario`` (file ``source``) as an error text, or None."""
    names = [s.name for s in scenario.schedulers]
    if not names:
        return f"{source}: schedulers: expected at least one kube-scheduler replica, got []"
    for i, name in enumerate(names):
        if not name or " " in name or "/" in name:
            return f"{source}: schedulers[{i}].name: expected a plain process name, got {name!r}"
        if name in names[:i]:
            return f"{source}: schedulers[{i}].name: duplicate replica name {name!r} (names must be unique)"
    # The replicas' flags and policy files are deliberately not checked here: a bad one makes the
    # simulated binary die exactly as Go's does (tests/cmd/kube_scheduler/test_flags_errors.py).
    # 1.6's API validation first: the embedded API server would answer these with a 422
    for obj_where, obj in _objects(scenario, source):
        problem = api_validation_error(obj)
        if problem:
            return f"{obj_where}: {problem}"
    seen: set[tuple[str, str]] = set()
    for i, obj in enumerate(scenario.objects):
        name = obj.metadata.name
        if not _DNS.match(name or ""):
            return (f"{source}: objects[{i}]: {type(obj).kind} {name!r}: metadata.name: expected a lower-case "
                    "DNS-1123 name (letters, digits, '-', '.')")
        ident = (type(obj).kind, _key(obj) if type(obj).kind != "Node" else name)
        if ident in seen:
            return f"{source}: objects[{i}]: {ident[0]} {ident[1]!r} is already created by an earlier entry"
        seen.add(ident)
    nodes, pods = _created(scenario)
    for obj_where, obj in _objects(scenario, source):
        if type(obj).kind == "Pod" and obj.spec.node_name and obj.spec.node_name not in nodes:
            return (f"{obj_where}: Pod {_key(obj)}: spec.nodeName: node {obj.spec.node_name!r} is never created "
                    "by this scenario" + suggest(obj.spec.node_name, nodes))
    cm = scenario.controller_manager
    for i, action in enumerate(scenario.timeline):
        where = f"{source}: timeline[{i}].{action.kind}"
        if action.kind == "kill" and action.arg == "kube-controller-manager" and not (cm is not None and cm.enabled):
            return f"{where}: the scenario does not run kube-controller-manager (add 'controller_manager: true')"
        problem = _check_action(action, where, names, nodes, pods)
        if problem:
            return problem
    if scenario.follow and scenario.follow not in pods:
        return (f"{source}: follow: pod {scenario.follow!r} is never created by this scenario"
                + suggest(scenario.follow, pods))
    return None


def api_validation_error(obj: Any) -> str:
    """What 1.6's API server would answer when the scenario creates ``obj`` (its 422 ``Invalid``
    message, e.g. ``Pod "web-1" is invalid: spec.containers[0].resources.requests[cpu]: Invalid
    value: "-1": must be greater than or equal to 0``), or "" when it would accept it.

    The object is prepared as ``APIServer.create`` prepares it first (the request's namespace,
    ``default`` for a namespaced object without one, and the kind's create defaults), then
    checked by ``kschedlearn.api.validation`` - the same code the embedded API server runs.
    An object without a name but with ``generateName`` gets a placeholder name for the check.
    """
    from kschedlearn.apiserver import registry  # (not at import: `import kschedlearn` loads no API server)

    kind = type(obj).kind
    info = next((i for i in registry.RESOURCES.values() if i.kind == kind), None)
    if info is None:
        return ""
    meta = obj.metadata
    name = meta.name or (meta.generate_name + "x" if meta.generate_name else "")
    if not name:
        return f'{kind} "" is invalid: metadata.name: Required value: name or generateName is required'
    namespace = (meta.namespace or "default") if info.namespaced else meta.namespace
    if info.resource == "pods" and _clean_spec(obj.spec) and _pod_defaults_keep_meta(registry):
        # (the create defaults of a pod change its spec and status only, and a clean spec's
        # checks read nothing else: the metadata alone is checked, no candidate pod is made)
        if name != meta.name or namespace != meta.namespace:
            meta = attrs.evolve(meta, name=name, namespace=namespace)
        errs = _pod_meta_errors(meta)
        return f'{kind} "{obj.metadata.name}" is invalid: {to_aggregate(errs)}' if errs else ""
    from kschedlearn.api.validation import validate_object

    candidate = registry.prepare_for_create(info, attrs.evolve(obj, metadata=attrs.evolve(meta, name=name, namespace=namespace)))
    from kschedlearn.apiserver import workloads

    if info.resource in workloads.RESOURCES:
        errs = workloads.validate(info.resource, candidate)
        kind = workloads.QUALIFIED_KINDS[info.resource]
    elif info.resource == "pods" and _clean_spec(obj.spec):
        errs = _pod_errors_but_spec(candidate)
    else:
        errs = validate_object(info.resource, candidate)
        if info.resource == "pods":
            _note_spec(obj.spec, candidate.spec)
    return f'{kind} "{meta.name}" is invalid: {to_aggregate(errs)}' if errs else ""


#: id(PodSpec as decoded) -> (it, whether its defaulted form passed ``validate_pod_spec``). A dump's
#: replicas share one decoded PodSpec (``cluster_dump._SharedSpecs``): 150,000 pods have ~5,000
#: specs, and checking each spec once was a fifth of loading them. Bounded (cleared when full).
_SPECS_CHECKED: dict[int, tuple[Any, bool]] = {}
_SPECS_CHECKED_MAX = 1 << 16


def _clean_spec(spec: Any) -> bool:
    known = _SPECS_CHECKED.get(id(spec))
    return known is not None and known[0] is spec and known[1]


def _note_spec(spec: Any, defaulted: Any) -> None:
    from kschedlearn.api.validation.validation import validate_pod_spec

    if len(_SPECS_CHECKED) >= _SPECS_CHECKED_MAX:
        _SPECS_CHECKED.clear()
    _SPECS_CHECKED[id(spec)] = (spec, not validate_pod_spec(defaulted))


def _pod_errors_but_spec(pod: Any) -> list[Any]:
    """``validate_pod(pod)`` for a pod whose spec is known to pass ``validate_pod_spec``: its other
    two parts, in ``validate_pod``'s order (``ValidatePod`` is their concatenation, and
    ``ValidatePodSpec`` reads nothing but the spec; the defaulting before it depends on the spec
    alone)."""
    return _pod_meta_errors(pod.metadata)


def _pod_meta_errors(meta: Any) -> list[Any]:
    """:func:`_pod_errors_but_spec` of a pod with this metadata."""
    errs = _validation.validate_object_meta(meta, True)
    annotations = meta.annotations
    if annotations or _validation.validate_pod_specific_annotations is not _MIRROR_ANNOTATION_CHECK:
        errs += _validation.validate_pod_specific_annotations(annotations, "metadata.annotations")
    # (else: no annotation to decode, and the mirror's check answers [] — it reads only the
    # affinity and tolerations annotations, each checked only when present and non-empty)
    return errs


#: the mirror's ``validate_pod_specific_annotations`` (a learner's or a test's may answer otherwise
#: for no annotations: then it is asked)
_MIRROR_ANNOTATION_CHECK = _validation.validate_pod_specific_annotations
#: the registry's pod create defaults as defined (``prepare_for_create`` → ``default_pod``), taken
#: at the first call whose registry holds functions of its own by those names
_MIRROR_DEFAULTS: list[Any] = []


def _pod_defaults_keep_meta(registry: Any) -> bool:
    """Whether the pod create defaults are the registry's own (they set spec and status only),
    so a pod's metadata is what they leave it; else the candidate pod is made and checked."""
    held = (registry.prepare_for_create, registry.default_pod)
    if not _MIRROR_DEFAULTS:
        if [(getattr(f, "__module__", None), getattr(f, "__qualname__", None)) for f in held] != \
                [(registry.__name__, "prepare_for_create"), (registry.__name__, "default_pod")]:
            return False
        _MIRROR_DEFAULTS.extend(held)
    return held[0] is _MIRROR_DEFAULTS[0] and held[1] is _MIRROR_DEFAULTS[1]


def _check_action(action: Any, where: str, replicas: list[str], nodes: set[str], pods: set[str]) -> str | None:
    if action.kind == "kill" and action.arg == "kube-controller-manager":
        return None  # check_references: the scenario must run it
    if action.kind == "kill" and action.arg not in replicas:
        return f"{where}: no scheduler replica {action.arg!r}" + suggest(action.arg, replicas)
    if action.kind in ("cordon", "uncordon") and action.arg not in nodes:
        return f"{where}: node {action.arg!r} is never created by this scenario" + suggest(action.arg, nodes)
    if action.kind == "delete":
        what, name = action.arg.split(" ")
        if what == "pod":
            key = name if "/" in name else f"default/{name}"
            if key not in pods:
                return f"{where}: pod {name!r} is never created by this scenario" + suggest(key, pods)
        elif name not in nodes:
            return f"{where}: node {name!r} is never created by this scenario" + suggest(name, nodes)
    return None


def _objects(scenario: Any, source: str) -> list[tuple[str, Any]]:
    out = [(f"{source}: objects[{i}]", o) for i, o in enumerate(scenario.objects)]
    out += [(f"{source}: timeline[{i}].{a.kind}", a.arg) for i, a in enumerate(scenario.timeline)
            if a.kind in ("create", "apply")]
    return out


def _created(scenario: Any) -> tuple[set[str], set[str]]:
    nodes, pods = set(), set()
    for _, obj in _objects(scenario, ""):
        if type(obj).kind == "Node":
            nodes.add(obj.metadata.name)
        elif type(obj).kind == "Pod":
            pods.add(_key(obj))
    return nodes, pods


def _key(pod: Any) -> str:
    return f"{pod.metadata.namespace or 'default'}/{pod.metadata.name}"

