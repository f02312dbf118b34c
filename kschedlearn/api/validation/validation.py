"""The API server's validation of the fields kschedlearn models, with 1.6's messages.

Go: ``pkg/api/validation/validation.go``
(https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/api/validation/validation.go), with the
generic ObjectMeta rules of ``staging/src/k8s.io/apimachinery/pkg/api/validation/objectmeta.go``
and the label rules of ``staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/validation/validation.go``.
Each function returns a list of :class:`~kschedlearn.apimachinery.util.validation.field.Error`
(empty = valid), in Go's order; :func:`validate_object` picks the kind's validator.

Differs from Go: only the fields kschedlearn models are checked. A container's ``image`` is not
required (the scheduler never reads it and teaching manifests omit it); probes, env, volume
mounts, security contexts and the ``terminationMessagePolicy`` are not modelled. Go iterates
label and resource maps in random order; here they are checked in the map's own order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from kschedlearn.api.v1.times import EPOCH, format_time
from kschedlearn.apimachinery.util.validation import field as f
from kschedlearn.apimachinery.util.validation.validation import (
    is_dns1123_label,
    is_dns1123_subdomain,
    is_qualified_name,
    is_valid_label_value,
    is_valid_port_num,
)

Errors = list[f.Error]
IS_NEGATIVE_ERROR_MSG = "must be greater than or equal to 0"
SUPPORTED_PORT_PROTOCOLS = ("TCP", "UDP")
RESTART_POLICIES = ("Always", "OnFailure", "Never")
DNS_POLICIES = ("ClusterFirstWithHostNet", "ClusterFirst", "Default")
TAINT_EFFECTS = ("NoSchedule", "PreferNoSchedule", "NoExecute")
SELECTOR_OPS = ("In", "NotIn", "Exists", "DoesNotExist")
NODE_SELECTOR_OPS = (*SELECTOR_OPS, "Gt", "Lt")
_TOTAL_ANNOTATION_SIZE_LIMIT_B = 256 * (1 << 10)


# -- metadata --------------------------------------------------------------------------------

def validate_label_name(name: str, path: str) -> Errors:
    """Go: metav1 validation ``ValidateLabelName``."""
    return [f.invalid(path, name, msg) for msg in is_qualified_name(name)]


def validate_labels(labels: Mapping[str, str], path: str) -> Errors:
    """Go: metav1 validation ``ValidateLabels`` (errors name the map, not the key)."""
    errs: Errors = []
    for k, v in labels.items():
        errs += validate_label_name(k, path)
        errs += [f.invalid(path, v, msg) for msg in is_valid_label_value(v)]
    return errs


def validate_annotations(annotations: Mapping[str, str], path: str) -> Errors:
    """Go: objectmeta.go ``ValidateAnnotations`` (keys are qualified names, lower-cased; 256 KiB in all)."""
    errs: Errors = []
    total = 0
    for k, v in annotations.items():
        errs += [f.invalid(path, k, msg) for msg in is_qualified_name(k.lower())]
        total += len(k) + len(v)
    if total > _TOTAL_ANNOTATION_SIZE_LIMIT_B:
        errs.append(f.Error(f.TOO_LONG, path, "", f"must have at most {_TOTAL_ANNOTATION_SIZE_LIMIT_B} characters"))
    return errs


def validate_object_meta(meta: Any, requires_namespace: bool, path: str = "metadata") -> Errors:
    """Go: objectmeta.go ``ValidateObjectMeta`` with the DNS-subdomain name rule of pods and nodes."""
    errs: Errors = []
    if meta.generate_name:
        errs += [f.invalid(f.child(path, "generateName"), meta.generate_name, m) for m in is_dns1123_subdomain(meta.generate_name.rstrip("-") or "a")]
    if not meta.name:
        errs.append(f.required(f.child(path, "name"), "name or generateName is required"))
    else:
        errs += [f.invalid(f.child(path, "name"), meta.name, m) for m in is_dns1123_subdomain(meta.name)]
    if requires_namespace:
        if not meta.namespace:
            errs.append(f.required(f.child(path, "namespace")))
        else:
            errs += [f.invalid(f.child(path, "namespace"), meta.namespace, m) for m in is_dns1123_label(meta.namespace)]
    elif meta.namespace:
        errs.append(f.forbidden(f.child(path, "namespace"), "not allowed on this type"))
    if meta.generation < 0:
        errs.append(f.invalid(f.child(path, "generation"), meta.generation, IS_NEGATIVE_ERROR_MSG))
    errs += validate_labels(meta.labels, f.child(path, "labels"))
    errs += validate_annotations(meta.annotations, f.child(path, "annotations"))
    return errs


# -- selectors and affinity ------------------------------------------------------------------

def validate_label_selector(selector: Any, path: str) -> Errors:
    """Go: metav1 validation ``ValidateLabelSelector`` / ``ValidateLabelSelectorRequirement``."""
    if selector is None:
        return []
    errs = validate_labels(selector.match_labels, f.child(path, "matchLabels"))
    for i, req in enumerate(selector.match_expressions):
        p = f.index(f.child(path, "matchExpressions"), i)
        errs += _requirement(req.operator, req.values, p, SELECTOR_OPS)
        errs += validate_label_name(req.key, f.child(p, "key"))
    return errs


def _requirement(op: str, values: Sequence[str], path: str, ops: Sequence[str]) -> Errors:
    if op in ("In", "NotIn"):
        return [] if values else [f.required(f.child(path, "values"), "must be specified when `operator` is 'In' or 'NotIn'")]
    if op in ("Exists", "DoesNotExist"):
        return [f.forbidden(f.child(path, "values"), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'")] if values else []
    if op in ("Gt", "Lt") and "Gt" in ops:
        return [] if len(values) == 1 else [f.required(f.child(path, "values"), "must be specified single value when `operator` is 'Lt' or 'Gt'")]
    return [f.invalid(f.child(path, "operator"), op, "not a valid selector operator")]


def validate_node_selector_term(term: Any, path: str) -> Errors:
    """Go: ``ValidateNodeSelectorTerm`` + ``ValidateNodeSelectorRequirement``."""
    if not term.match_expressions:
        return [f.required(f.child(path, "matchExpressions"), "must have at least one node selector requirement")]
    errs: Errors = []
    for j, req in enumerate(term.match_expressions):
        p = f.index(f.child(path, "matchExpressions"), j)
        errs += _requirement(req.operator, req.values, p, NODE_SELECTOR_OPS)
        errs += validate_label_name(req.key, f.child(p, "key"))
    return errs


def _weight(weight: int, path: str) -> Errors:
    return [] if 1 <= weight <= 100 else [f.invalid(f.child(path, "weight"), weight, "must be in the range 1-100")]


def _pod_affinity_terms(terms: Sequence[Any], allow_empty_key: bool, path: str) -> Errors:
    errs: Errors = []
    for i, term in enumerate(terms):
        p = f.index(path, i)
        errs += validate_label_selector(term.label_selector, f.child(p, "matchExpressions"))
        for ns in term.namespaces:
            errs += [f.invalid(f.child(p, "namespace"), ns, m) for m in is_dns1123_label(ns)]
        if not allow_empty_key and not term.topology_key:
            errs.append(f.required(f.child(p, "topologyKey"), "can only be empty for PreferredDuringScheduling pod anti affinity"))
        if term.topology_key:
            errs += validate_label_name(term.topology_key, f.child(p, "topologyKey"))
    return errs


def _weighted_terms(terms: Sequence[Any], allow_empty_key: bool, path: str) -> Errors:
    errs: Errors = []
    for i, wt in enumerate(terms):
        p = f.index(path, i)
        errs += _weight(wt.weight, p)
        errs += _pod_affinity_terms([wt.pod_affinity_term], allow_empty_key, f.child(p, "podAffinityTerm"))
    return errs


def validate_affinity(affinity: Any, path: str) -> Errors:
    """Go: ``validateAffinity`` (node affinity terms, pod (anti-)affinity terms, weights 1-100)."""
    if affinity is None:
        return []
    errs: Errors = []
    na = affinity.node_affinity
    if na is not None:
        req = na.required_during_scheduling_ignored_during_execution
        p = f.child(path, "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution")
        if req is not None:
            if not req.node_selector_terms:
                errs.append(f.required(f.child(p, "nodeSelectorTerms"), "must have at least one node selector term"))
            for i, term in enumerate(req.node_selector_terms):
                errs += validate_node_selector_term(term, f.index(f.child(p, "nodeSelectorTerms"), i))
        for i, pt in enumerate(na.preferred_during_scheduling_ignored_during_execution):
            q = f.index(f.child(path, "nodeAffinity", "preferredDuringSchedulingIgnoredDuringExecution"), i)
            errs += _weight(pt.weight, q)
            errs += validate_node_selector_term(pt.preference, f.child(q, "preference"))
    for name, attr, allow_empty in (("podAffinity", affinity.pod_affinity, False),
                                    ("podAntiAffinity", affinity.pod_anti_affinity, True)):
        if attr is None:
            continue
        errs += _pod_affinity_terms(attr.required_during_scheduling_ignored_during_execution, False,
                                    f.child(path, name, "requiredDuringSchedulingIgnoredDuringExecution"))
        errs += _weighted_terms(attr.preferred_during_scheduling_ignored_during_execution, allow_empty,
                                f.child(path, name, "preferredDuringSchedulingIgnoredDuringExecution"))
    return errs


def validate_tolerations(tolerations: Sequence[Any], path: str) -> Errors:
    """Go: ``validateTolerations``."""
    errs: Errors = []
    for i, t in enumerate(tolerations):
        p = f.index(path, i)
        if t.key:
            errs += validate_label_name(t.key, f.child(p, "key"))
        if not t.key and t.operator != "Exists":
            errs.append(f.invalid(f.child(p, "operator"), t.operator,
                                  'operator must be Exists when `key` is empty, which means "match all values and all keys"'))
        if t.toleration_seconds is not None and t.effect != "NoExecute":
            errs.append(f.invalid(f.child(p, "effect"), t.effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"))
        if t.operator in ("Equal", ""):
            msgs = is_valid_label_value(t.value)
            if msgs:
                errs.append(f.invalid(f.child(p, "operator"), t.value, ";".join(msgs)))
        elif t.operator == "Exists":
            if t.value:
                errs.append(f.invalid(f.child(p, "operator"), t.value, "value must be empty when `operator` is 'Exists'"))
        else:
            errs.append(f.not_supported(f.child(p, "operator"), t.operator, ["Equal", "Exists"]))
        if t.effect and t.effect not in TAINT_EFFECTS:
            errs.append(f.not_supported(f.child(p, "effect"), t.effect, list(TAINT_EFFECTS)))
    return errs


# -- pods --------------------------------------------------------------------------------------

def validate_resource_requirements(req: Any, path: str) -> Errors:
    """Go: ``ValidateResourceRequirements`` (non-negative quantities; limits ≥ requests)."""
    errs: Errors = []
    lim_path, req_path = f.child(path, "limits"), f.child(path, "requests")
    for name, q in req.limits.items():
        errs += validate_container_resource_name(name, f.key(lim_path, name))
        errs += _quantity(q, f.key(lim_path, name))
        r = req.requests.get(name)
        if r is not None:
            if name == "alpha.kubernetes.io/nvidia-gpu" and q != r:
                errs.append(f.invalid(req_path, str(r), f"must be equal to {name} limit"))
            elif q < r:
                errs.append(f.invalid(lim_path, str(q), f"must be greater than or equal to {name} request"))
    for name, q in req.requests.items():
        errs += validate_container_resource_name(name, f.key(req_path, name))
        errs += _quantity(q, f.key(req_path, name))
    return errs


STANDARD_RESOURCES = ("cpu", "memory", "requests.cpu", "requests.memory", "limits.cpu", "limits.memory", "pods",
                      "resourcequotas", "services", "replicationcontrollers", "secrets", "configmaps",
                      "persistentvolumeclaims", "storage", "requests.storage")


def validate_container_resource_name(name: str, path: str) -> Errors:
    """Go: ``validateContainerResourceName`` over ``validateResourceName``, 1.6's quirk included:
    a name with a ``/`` is never rejected (the function returns an empty list, dropping the
    qualified-name errors it found)."""
    errs = [f.invalid(path, name, msg) for msg in is_qualified_name(name)]
    if not errs and "/" not in name and name not in STANDARD_RESOURCES:
        errs.append(f.invalid(path, name, "must be a standard resource type or fully qualified"))
    if "/" not in name:
        if name not in ("cpu", "memory"):  # Go: IsStandardContainerResourceName
            return errs + [f.invalid(path, name, "must be a standard resource for containers")]
    return []


def _quantity(q: Any, path: str) -> Errors:
    """Go: ``ValidateResourceQuantityValue`` → ``ValidateNonnegativeQuantity``."""
    return [f.invalid(path, str(q), IS_NEGATIVE_ERROR_MSG)] if q.milli_value() < 0 else []


def validate_container_ports(ports: Sequence[Any], path: str) -> Errors:
    """Go: ``validateContainerPorts``."""
    errs: Errors = []
    names: set[str] = set()
    for i, port in enumerate(ports):
        p = f.index(path, i)
        if port.name:
            if port.name in names:
                errs.append(f.duplicate(f.child(p, "name"), port.name))
            names.add(port.name)
        if port.container_port == 0:
            errs.append(f.required(f.child(p, "containerPort")))
        else:
            errs += [f.invalid(f.child(p, "containerPort"), port.container_port, m) for m in is_valid_port_num(port.container_port)]
        if port.host_port != 0:
            errs += [f.invalid(f.child(p, "hostPort"), port.host_port, m) for m in is_valid_port_num(port.host_port)]
        if not port.protocol:
            errs.append(f.required(f.child(p, "protocol")))
        elif port.protocol not in SUPPORTED_PORT_PROTOCOLS:
            errs.append(f.not_supported(f.child(p, "protocol"), port.protocol, list(SUPPORTED_PORT_PROTOCOLS)))
    return errs


def validate_containers(containers: Sequence[Any], path: str) -> Errors:
    """Go: ``validateContainers`` (names, ports, resources; host port conflicts)."""
    if not containers:
        return [f.required(path)]
    errs: Errors = []
    names: set[str] = set()
    for i, c in enumerate(containers):
        p = f.index(path, i)
        name_path = f.child(p, "name")
        if not c.name:
            errs.append(f.required(name_path))
        else:
            errs += [f.invalid(name_path, c.name, m) for m in is_dns1123_label(c.name)]
        if c.name in names:
            errs.append(f.duplicate(name_path, c.name))
        names.add(c.name)
        errs += validate_container_ports(c.ports, f.child(p, "ports"))
        errs += validate_resource_requirements(c.resources, f.child(p, "resources"))
    return errs + _host_port_conflicts(containers, path)


def _host_port_conflicts(containers: Sequence[Any], path: str) -> Errors:
    """Go: ``checkHostPortConflicts`` (``<port>/<protocol>`` used twice)."""
    seen: set[str] = set()
    errs: Errors = []
    for c in containers:
        for port in c.ports:
            if port.host_port == 0:
                continue
            key = f"{port.host_port}/{port.protocol}"
            if key in seen:
                errs.append(f.duplicate(path, key))
            seen.add(key)
    return errs


def validate_pod_spec(spec: Any, path: str = "spec") -> Errors:
    """Go: ``ValidatePodSpec`` (the modelled fields, in Go's order)."""
    errs = validate_containers(spec.containers, f.child(path, "containers"))
    if spec.init_containers:
        errs += validate_containers(spec.init_containers, f.child(path, "initContainers"))
    if not spec.restart_policy:
        errs.append(f.required(f.child(path, "restartPolicy")))
    elif spec.restart_policy not in RESTART_POLICIES:
        errs.append(f.not_supported(f.child(path, "restartPolicy"), spec.restart_policy, list(RESTART_POLICIES)))
    if not spec.dns_policy:
        errs.append(f.required(f.child(path, "dnsPolicy")))
    elif spec.dns_policy not in DNS_POLICIES:
        errs.append(f.not_supported(f.child(path, "dnsPolicy"), spec.dns_policy, list(DNS_POLICIES)))
    errs += validate_labels(spec.node_selector, f.child(path, "nodeSelector"))
    if spec.node_name:
        errs += [f.invalid(f.child(path, "nodeName"), spec.node_name, m) for m in is_dns1123_subdomain(spec.node_name)]
    if spec.active_deadline_seconds is not None and spec.active_deadline_seconds <= 0:
        errs.append(f.invalid(f.child(path, "activeDeadlineSeconds"), spec.active_deadline_seconds, "must be greater than 0"))
    errs += validate_affinity(spec.affinity, f.child(path, "affinity"))
    errs += validate_tolerations(spec.tolerations, f.child(path, "tolerations"))
    return errs


def validate_pod(pod: Any) -> Errors:
    """Go: ``ValidatePod``."""
    return (validate_object_meta(pod.metadata, True)
            + validate_pod_specific_annotations(pod.metadata.annotations, "metadata.annotations")
            + validate_pod_spec(pod.spec))


# -- the alpha annotations (Go's json.Unmarshal errors quoted as 1.6 does) -------------------------

AFFINITY_ANNOTATION_KEY = "scheduler.alpha.kubernetes.io/affinity"
TOLERATIONS_ANNOTATION_KEY = "scheduler.alpha.kubernetes.io/tolerations"
TAINTS_ANNOTATION_KEY = "scheduler.alpha.kubernetes.io/taints"
PREFER_AVOID_PODS_ANNOTATION_KEY = "scheduler.alpha.kubernetes.io/preferAvoidPods"


def _json_annotation(annotations: Mapping[str, str], key: str, gotype: str, path: str) -> Errors:
    """``field.Invalid(path, key, err.Error())`` when Go's ``json.Unmarshal`` into ``gotype`` fails."""
    from kschedlearn.api.v1._gojson_check import unmarshal_error
    from kschedlearn.api.v1._gojson_types import ANNOTATION_STRINGS, ANNOTATION_STRUCTS

    if not annotations.get(key, ""):
        return []
    error = unmarshal_error(annotations[key], gotype, ANNOTATION_STRUCTS, ANNOTATION_STRINGS)
    return [f.invalid(path, key, error)] if error else []


def validate_pod_specific_annotations(annotations: Mapping[str, str], path: str) -> Errors:
    """Go: ``ValidatePodSpecificAnnotations`` — the affinity and tolerations annotations must
    decode (``ValidateAffinityInPodAnnotations``, ``ValidateTolerationsInPodAnnotations``); a
    decodable affinity is validated as ``<path>.affinity``.

    Differs from Go: the decoded tolerations are not validated further.
    """
    errs = _json_annotation(annotations, AFFINITY_ANNOTATION_KEY, "api.Affinity", path)
    if not errs and annotations.get(AFFINITY_ANNOTATION_KEY, ""):
        from kschedlearn.api.v1.helpers import get_affinity_from_pod_annotations

        try:
            affinity = get_affinity_from_pod_annotations(annotations)
        except ValueError:
            affinity = None
        if affinity is not None:
            errs += validate_affinity(affinity, f.child(path, "affinity"))
    errs += _json_annotation(annotations, TOLERATIONS_ANNOTATION_KEY, "[]api.Toleration", path)
    return errs


def validate_node_specific_annotations(annotations: Mapping[str, str], path: str) -> Errors:
    """Go: ``ValidateNodeSpecificAnnotations`` — the taints and preferAvoidPods annotations must
    decode (``ValidateTaintsInNodeAnnotations``; ``ValidateAvoidPodsInNodeAnnotations`` reports
    at ``<path>.AvoidPods``). Differs from Go: the decoded entries are not validated further."""
    return (_json_annotation(annotations, TAINTS_ANNOTATION_KEY, "[]api.Taint", path)
            + _json_annotation(annotations, PREFER_AVOID_PODS_ANNOTATION_KEY, "v1.AvoidPods",
                               f.child(path, "AvoidPods")))


# -- nodes -------------------------------------------------------------------------------------

def validate_node(node: Any) -> Errors:
    """Go: ``ValidateNode`` (metadata, taints, non-negative capacity and allocatable)."""
    errs = validate_object_meta(node.metadata, False)
    errs += validate_node_specific_annotations(node.metadata.annotations, "metadata.annotations")
    if len(node.spec.taints) > 0:
        # 1.6's quirk: the path is built from ValidateNode's "metadata" path, so spec.taints[i]
        # is reported as metadata.taints[i] (ValidateNode,
        # https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/api/validation/validation.go#L3016-L3034)
        errs += _validate_node_taints(node.spec.taints, f.child("metadata", "taints"))
    for part in ("capacity", "allocatable"):
        for name, q in getattr(node.status, part).items():
            errs += _quantity(q, f.key(f.child("status", part), name))
    return errs


def _validate_node_taints(taints: Sequence[Any], path: str) -> Errors:
    """Go: ``validateNodeTaints`` — key, value and effect of each taint; unique by key and effect.

    https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/api/validation/validation.go#L2969-L3001
    """
    errs: Errors = []
    unique_taints: dict[str, set[str]] = {}
    for i, taint in enumerate(taints):
        idx_path = f.index(path, i)
        errs += validate_label_name(taint.key, f.child(idx_path, "key"))
        value_errs = is_valid_label_value(taint.value)
        if value_errs:
            errs.append(f.invalid(f.child(idx_path, "value"), taint.value, ";".join(value_errs)))
        errs += _validate_taint_effect(taint.effect, False, f.child(idx_path, "effect"))
        if taint.key in unique_taints.get(taint.effect, ()):
            errs.append(attrs.evolve(f.duplicate(idx_path, _GoTaint(taint)),
                                     detail="taints must be unique by key and effect pair"))
            continue
        unique_taints.setdefault(taint.effect, set()).add(taint.key)
    return errs


def _validate_taint_effect(effect: str, allow_empty: bool, path: str) -> Errors:
    """Go: ``validateTaintEffect``.

    https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/api/validation/validation.go#L1953-L1974
    """
    if not allow_empty and len(effect) == 0:
        return [f.required(path, "")]
    if effect not in TAINT_EFFECTS:
        return [f.not_supported(path, effect, list(TAINT_EFFECTS))]
    return []


#: seconds from Go's zero time (year 1) to the Unix epoch: time.Time's ``sec`` field in Go 1.7
_GO_UNIX_TO_INTERNAL = 62135596800


@attrs.frozen
class _GoTaint:
    """A taint as ``field.Duplicate`` prints it: Go's ``%#v`` of an ``api.Taint`` (Go 1.7's
    time.Time has no GoString, so its private fields show). Differs from Go: a set TimeAdded's
    location pointer prints as nil, where Go prints an address."""

    taint: Any

    def __str__(self) -> str:
        t = self.taint
        added = t.time_added
        sec, nsec = (0, 0) if added is None else _go_sec_nsec(added)
        # %#v prints string fields as %q does, the way field errors print a string value
        q = f.go_value
        return (f"api.Taint{{Key:{q(t.key)}, Value:{q(t.value)}, Effect:{q(t.effect)}, "
                f"TimeAdded:v1.Time{{Time:time.Time{{sec:{sec}, nsec:{nsec}, loc:(*time.Location)(nil)}}}}}}")


def _go_sec_nsec(added: float) -> tuple[int, int]:
    """A manifest time (simulated seconds after EPOCH) as Go 1.7's time.Time (sec, nsec)."""
    stamp = EPOCH.timestamp() + added
    whole = int(stamp // 1)
    return whole + _GO_UNIX_TO_INTERNAL, int(round((stamp - whole) * 1e9))


# -- updates ---------------------------------------------------------------------------------------

FIELD_IMMUTABLE = "field is immutable"
POD_UPDATE_FORBIDDEN = ("pod updates may not change fields other than `containers[*].image` or "
                        "`spec.activeDeadlineSeconds` or `spec.tolerations` (only additions to existing tolerations)")


def validate_object_meta_update(new: Any, old: Any, path: str = "metadata") -> Errors:
    """Go: objectmeta.go ``ValidateObjectMetaUpdate`` after its repairs (which the API server's
    ``prepare_for_update`` made: uid, creation time, a deletion already under way).

    https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/api/validation/objectmeta.go#L198-L261
    Differs from Go: a changed deletion time prints as its RFC 3339 text and a grace period as a
    number, where Go's ``%#v`` prints pointers.
    """
    errs: Errors = []
    if new.deletion_grace_period_seconds is not None and new.deletion_grace_period_seconds != old.deletion_grace_period_seconds:
        errs.append(f.invalid(f.child(path, "deletionGracePeriodSeconds"), new.deletion_grace_period_seconds,
                              "field is immutable; may only be changed via deletion"))
    if new.deletion_timestamp is not None and new.deletion_timestamp != old.deletion_timestamp:
        errs.append(f.invalid(f.child(path, "deletionTimestamp"), format_time(new.deletion_timestamp),
                              "field is immutable; may only be changed via deletion"))
    if old.deletion_timestamp is not None:
        extra = sorted(set(new.finalizers) - set(old.finalizers))
        if extra:
            listed = ", ".join(f.go_value(x) for x in extra)
            errs.append(f.forbidden(f.child(path, "finalizers"), "no new finalizers can be added if the object is "
                                    f"being deleted, found new finalizers []string{{{listed}}}"))
    if not new.resource_version:
        errs.append(f.invalid(f.child(path, "resourceVersion"), "", "must be specified for an update"))
    if new.generation < old.generation:
        errs.append(f.invalid(f.child(path, "generation"), new.generation, "must not be decremented"))
    for name in ("name", "namespace", "uid"):
        if getattr(new, name) != getattr(old, name):
            errs.append(f.invalid(f.child(path, name), getattr(new, name), FIELD_IMMUTABLE))
    errs += validate_labels(new.labels, f.child(path, "labels"))
    errs += validate_annotations(new.annotations, f.child(path, "annotations"))
    return errs


def _container_updates(new: Sequence[Any], old: Sequence[Any], path: str) -> tuple[Errors, bool]:
    """Go: ``ValidateContainerUpdates`` (the count may not change). Differs from Go: an empty
    ``image`` is not required here either (see the module docstring)."""
    if len(new) != len(old):
        return [f.forbidden(path, "pod updates may not add or remove containers")], True
    return [], False


def _only_added_tolerations(new: Sequence[Any], old: Sequence[Any], path: str) -> Errors:
    """Go: ``validateOnlyAddedTolerations`` (every old toleration kept, tolerationSeconds aside)."""
    kept = [attrs.evolve(t, toleration_seconds=None) for t in new]
    for toleration in old:
        if attrs.evolve(toleration, toleration_seconds=None) not in kept:
            return [f.forbidden(path, "existing toleration can not be modified except its tolerationSeconds")]
    return validate_tolerations(new, path)


def validate_pod_update(new: Any, old: Any) -> Errors:
    """Go: ``ValidatePodUpdate`` — only images, ``activeDeadlineSeconds`` (set, or lowered) and
    added tolerations may change in a pod's spec.

    https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/api/validation/validation.go#L2433-L2510
    """
    errs = validate_object_meta_update(new.metadata, old.metadata)
    errs += validate_pod_specific_annotations(new.metadata.annotations, "metadata.annotations")
    for name in ("containers", "initContainers"):
        attr = "containers" if name == "containers" else "init_containers"
        found, stop = _container_updates(getattr(new.spec, attr), getattr(old.spec, attr), f.child("spec", name))
        errs += found
        if stop:
            return errs
    deadline, old_deadline = new.spec.active_deadline_seconds, old.spec.active_deadline_seconds
    if deadline is not None:
        if deadline < 0:
            return errs + [f.invalid("spec.activeDeadlineSeconds", deadline, IS_NEGATIVE_ERROR_MSG)]
        if old_deadline is not None and old_deadline < deadline:
            return errs + [f.invalid("spec.activeDeadlineSeconds", deadline, "must be less than or equal to previous value")]
    elif old_deadline is not None:
        errs.append(f.invalid("spec.activeDeadlineSeconds", None, "must not update from a positive integer to nil value"))
    munged = attrs.evolve(
        new.spec,
        containers=tuple(attrs.evolve(c, image=o.image) for c, o in zip(new.spec.containers, old.spec.containers)),
        init_containers=tuple(attrs.evolve(c, image=o.image)
                              for c, o in zip(new.spec.init_containers, old.spec.init_containers)),
        active_deadline_seconds=old_deadline, tolerations=old.spec.tolerations)
    errs += _only_added_tolerations(new.spec.tolerations, old.spec.tolerations, "spec.tolerations")
    if munged != old.spec:
        errs.append(f.forbidden("spec", POD_UPDATE_FORBIDDEN))
    return errs


def validate_node_update(new: Any, old: Any) -> Errors:
    """Go: ``ValidateNodeUpdate`` — labels, taints, capacity, unschedulable, the status and a first
    podCIDR may change; anything else in the spec is forbidden.

    https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/api/validation/validation.go#L3036-L3099
    """
    errs = validate_object_meta_update(new.metadata, old.metadata)
    errs += validate_node_specific_annotations(new.metadata.annotations, "metadata.annotations")
    for part in ("capacity", "allocatable"):
        for name, q in getattr(new.status, part).items():
            errs += _quantity(q, f.key(f.child("status", part), name))
    old_spec = old.spec
    if not old_spec.pod_cidr:
        old_spec = attrs.evolve(old_spec, pod_cidr=new.spec.pod_cidr)
    elif old_spec.pod_cidr != new.spec.pod_cidr:
        errs.append(f.forbidden("spec.podCIDR", 'node updates may not change podCIDR except from "" to valid'))
    if new.spec.taints:
        errs += _validate_node_taints(new.spec.taints, f.child("metadata", "taints"))
    old_spec = attrs.evolve(old_spec, unschedulable=new.spec.unschedulable, taints=new.spec.taints)
    if old_spec != new.spec:
        errs.append(f.forbidden("[]", "node updates may only change labels, taints or capacity"))  # Go: NewPath("")
    return errs


def validate_object_update(resource: str, new: Any, old: Any, *, status_only: bool = False) -> Errors:
    """The errors of an update of ``old`` to ``new`` (``status_only``: the ``/status`` subresource).

    Go: ``rest.BeforeUpdate``'s ``validateCommonFields`` and then the strategy's ``ValidateUpdate``
    (``ValidatePod`` + ``ValidatePodUpdate``, ``ValidatePodStatusUpdate``, ``ValidateNode`` +
    ``ValidateNodeUpdate``, ... of each kind's ``strategy.go``); for kinds whose spec rules
    kschedlearn does not model, the metadata rules and the kind's own ``Validate``.
    """
    errs = validate_object_meta_update(new.metadata, old.metadata)
    if resource == "pods":
        if status_only:  # Go: ValidatePodStatusUpdate: the metadata rules (PrepareForUpdate kept the spec)
            return errs
        return errs + validate_pod(new) + validate_pod_update(new, old)
    if resource == "nodes":
        return errs + validate_node(new) + validate_node_update(new, old)
    if resource == "services" and not status_only and old.spec.type != "ExternalName" and old.spec.cluster_ip \
            and new.spec.type != "ExternalName" and new.spec.cluster_ip != old.spec.cluster_ip:
        errs.append(f.invalid("spec.clusterIP", new.spec.cluster_ip, FIELD_IMMUTABLE))
    return errs + validate_object(resource, new)


_NAMESPACED_META_ONLY = ("services", "replicationcontrollers", "replicasets", "statefulsets", "endpoints",
                         "persistentvolumeclaims", "events")


def validate_object(resource: str, obj: Any) -> Errors:
    """The errors of ``obj`` as resource ``resource`` (pods, nodes; metadata for the others).

    Go: the ``Validate`` of each kind's REST strategy (``pkg/registry/.../strategy.go``), which
    calls ``ValidatePod``, ``ValidateNode``, ... of this package.
    """
    if resource == "pods":
        return validate_pod(obj)
    if resource == "nodes":
        return validate_node(obj)
    if resource == "persistentvolumes":
        return validate_object_meta(obj.metadata, False)
    if resource in _NAMESPACED_META_ONLY:
        return validate_object_meta(obj.metadata, True)
    return []


__all__ = ["validate_object", "validate_object_update", "validate_pod_update", "validate_node_update",
           "validate_object_meta_update", "validate_pod", "validate_pod_spec", "validate_node", "validate_object_meta",
           "validate_labels", "validate_label_selector", "validate_affinity", "validate_tolerations",
           "validate_resource_requirements", "validate_container_ports", "validate_containers"]
