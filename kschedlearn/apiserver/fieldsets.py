"""Which fields of each kind a field selector may name, and their string values.

Go: the ``*ToSelectableFields`` functions of the registries, e.g. ``PodToSelectableFields``
(https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/registry/core/pod/strategy.go),
``NodeToSelectableFields`` (pkg/registry/core/node/strategy.go), ``getAttrs`` of events
(pkg/registry/core/event/strategy.go) and ``generic.ObjectMetaFieldsSet``
(https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apiserver/pkg/registry/generic/matcher.go).

Differs from Go: kschedlearn-only module; the per-kind maps are gathered in one table.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

FieldSet = dict[str, str]


def object_meta_fields_set(obj: Any, namespaced: bool) -> FieldSet:
    """``metadata.name`` (and ``metadata.namespace`` for namespaced kinds).

    Go: generic.ObjectMetaFieldsSet.
    """
    fs = {"metadata.name": obj.metadata.name}
    if namespaced:
        fs["metadata.namespace"] = obj.metadata.namespace
    return fs


def pod_to_selectable_fields(pod: Any) -> FieldSet:
    """Go: pod.PodToSelectableFields (the scheduler's selectors use spec.nodeName, status.phase)."""
    fs = object_meta_fields_set(pod, True)
    fs["spec.nodeName"] = pod.spec.node_name
    fs["spec.restartPolicy"] = pod.spec.restart_policy
    fs["status.phase"] = pod.status.phase
    return fs


def node_to_selectable_fields(node: Any) -> FieldSet:
    """Go: node.NodeToSelectableFields (``spec.unschedulable`` as "true"/"false")."""
    fs = object_meta_fields_set(node, False)
    fs["spec.unschedulable"] = "true" if node.spec.unschedulable else "false"
    return fs


def event_to_selectable_fields(event: Any) -> FieldSet:
    """Go: event.getAttrs (the involvedObject.* fields, reason, source, type)."""
    fs = object_meta_fields_set(event, True)
    ref = event.involved_object
    fs.update({
        "involvedObject.kind": ref.kind,
        "involvedObject.namespace": ref.namespace,
        "involvedObject.name": ref.name,
        "involvedObject.uid": ref.uid,
        "involvedObject.apiVersion": ref.api_version,
        "involvedObject.resourceVersion": ref.resource_version,
        "involvedObject.fieldPath": ref.field_path,
        "reason": event.reason,
        "source": event.source.component,
        "type": event.type,
    })
    return fs


def _namespaced_meta(obj: Any) -> FieldSet:
    return object_meta_fields_set(obj, True)


def _cluster_meta(obj: Any) -> FieldSet:
    return object_meta_fields_set(obj, False)


#: resource name → function giving an object's selectable fields.
FIELD_SETS: dict[str, Callable[[Any], FieldSet]] = {
    "pods": pod_to_selectable_fields,
    "nodes": node_to_selectable_fields,
    "events": event_to_selectable_fields,
    "endpoints": _namespaced_meta,
    "services": _namespaced_meta,
    "replicationcontrollers": _namespaced_meta,
    "replicasets": _namespaced_meta,
    "statefulsets": _namespaced_meta,
    "deployments": _namespaced_meta,  # Go: DeploymentToSelectableFields (extensions/deployment/strategy.go)
    "daemonsets": _namespaced_meta,  # Go: DaemonSetToSelectableFields (extensions/daemonset/strategy.go)
    "persistentvolumes": _cluster_meta,
    "persistentvolumeclaims": _namespaced_meta,
}


def selectable_fields(resource: str, obj: Any) -> FieldSet:
    """The field map a field selector is matched against for ``obj`` of ``resource``.

    Stored objects are replaced, never changed, so the map of one object is built once while
    it is recent: a write is matched against every watch of its resource, old and new state.
    """
    known = _RECENT.get(id(obj))
    if known is not None and known[0] is obj and known[1] == resource:
        return known[2]
    fields = FIELD_SETS[resource](obj)
    if len(_RECENT) >= 256:
        _RECENT.clear()
    _RECENT[id(obj)] = (obj, resource, fields)
    return fields


#: resource -> field label -> the object's value of it, read directly: what the kind's field map
#: (``FIELD_SETS``) holds, without building the map (see :func:`compiled_matcher`)
FIELD_GETTERS: dict[str, dict[str, Callable[[Any], Any]]] = {
    "pods": {
        "metadata.name": lambda o: o.metadata.name,
        "metadata.namespace": lambda o: o.metadata.namespace,
        "spec.nodeName": lambda o: o.spec.node_name,
        "spec.restartPolicy": lambda o: o.spec.restart_policy,
        "status.phase": lambda o: o.status.phase,
    },
}


def _terms(sel: Any) -> list[tuple[str, str, bool]] | None:
    """A field selector as (field, value, equal) terms, all to hold; None for another shape."""
    from kschedlearn.apimachinery.fields.selector import AndTerm, HasTerm, NotHasTerm  # noqa: PLC0415

    if type(sel) is HasTerm:
        return [(sel.field, sel.value, True)]
    if type(sel) is NotHasTerm:
        return [(sel.field, sel.value, False)]
    if type(sel) is AndTerm:
        out: list[tuple[str, str, bool]] = []
        for term in sel.terms:
            inner = _terms(term)
            if inner is None:
                return None
            out += inner
        return out
    return None


def compiled_matcher(resource: str, sel: Any) -> Callable[[Any], bool] | None:
    """``lambda obj: sel.matches(selectable_fields(resource, obj))`` reading the few fields the
    selector names straight from the object (a list of 160,000 pods built a field map for each);
    None when the selector or the kind is not one it knows. While the selector classes' ``matches``
    are not the mirror's own (an exercise's), the field map is built and asked as before."""
    from kschedlearn.apimachinery.fields.selector import AndTerm, HasTerm, NotHasTerm  # noqa: PLC0415

    getters = FIELD_GETTERS.get(resource)
    terms = _terms(sel) if getters is not None else None
    if terms is None or any(field not in getters for field, _, _ in terms):  # type: ignore[operator]
        return None
    checks = tuple((getters[field], value, equal) for field, value, equal in terms)  # type: ignore[index]
    mirror = (HasTerm.matches, NotHasTerm.matches, AndTerm.matches)

    def matches(obj: Any) -> bool:
        if (HasTerm.matches, NotHasTerm.matches, AndTerm.matches) != mirror:
            return sel.matches(selectable_fields(resource, obj))  # type: ignore[no-any-return]
        for get, value, equal in checks:
            if (get(obj) == value) is not equal:
                return False
        return True

    return matches


#: id(object) -> (the object, its resource, its field map), for the most recent objects
_RECENT: dict[int, tuple[Any, str, FieldSet]] = {}


_META_NAMESPACED = ("metadata.name", "metadata.namespace")

#: resource name → the field labels a field selector may use (others are a 400 Bad Request).
SUPPORTED_FIELDS: dict[str, tuple[str, ...]] = {
    "pods": (*_META_NAMESPACED, "spec.nodeName", "spec.restartPolicy", "status.phase"),
    "nodes": ("metadata.name", "spec.unschedulable"),
    "events": (*_META_NAMESPACED, "involvedObject.kind", "involvedObject.namespace",
               "involvedObject.name", "involvedObject.uid", "involvedObject.apiVersion",
               "involvedObject.resourceVersion", "involvedObject.fieldPath", "reason", "source",
               "type"),
    "persistentvolumes": ("metadata.name",),
}


def supported_fields(resource: str) -> tuple[str, ...]:
    """Field labels accepted in a field selector on ``resource``.

    Go: the field label conversion functions registered per kind (``ConvertFieldLabel``), whose
    refusal is ``field label not supported: <label>``.
    """
    return SUPPORTED_FIELDS.get(resource, _META_NAMESPACED)
