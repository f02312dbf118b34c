"""What a careful person replaying a modern pod onto Kubernetes 1.6 changes, and why.

kschedlearn-only. A modern pod can carry what 1.6's API server refuses outright; refusing the
whole dump for it (as the first importer did) helps nobody. :func:`adapt_pod` makes the smallest
change that lets 1.6 take the pod and says what it did, so the import report can list it by kind,
field and count:

- ``matchFields`` node-selector terms (1.12+; every DaemonSet pod since 1.12 carries one naming its
  node): 1.6's ``NodeSelectorTerm`` has only ``matchExpressions``, and a term left empty is refused.
  A bound pod keeps its node and loses the term; a pending pod pinned to one node by it is given
  that node in ``spec.nodeName``, which is what 1.6's DaemonSet controller did itself (the 1.6
  scheduler never saw a daemon pod); any other ``matchFields`` is removed.
- container resource names without a ``/`` other than ``cpu`` and ``memory``
  (``ephemeral-storage``, ``hugepages-2Mi``): 1.6's API server refuses them; they are removed.
- extended resources (``nvidia.com/gpu``, ``example.com/foo``): 1.6 accepted any name with a ``/``
  but its PodFitsResources counts only ``alpha.kubernetes.io/nvidia-gpu`` and the
  ``pod.alpha.kubernetes.io/opaque-int-resource-`` ones; they are kept and reported as unchecked.
- ``dnsPolicy: None`` (1.9+): refused by 1.6; read as ``Default`` (DNS never affects placement).
"""

from __future__ import annotations

import copy
from typing import Any

import attrs

from kschedlearn.api.v1.pod import RESOURCE_NVIDIA_GPU, RESOURCE_OPAQUE_INT_PREFIX
from kschedlearn.scenarios.dump_report import GO, NOT_IN_1_6, SCHEDULING

_AFFINITY = "spec.affinity.nodeAffinity"
_REQUIRED = f"{_AFFINITY}.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[].matchFields"
_PREFERRED = f"{_AFFINITY}.preferredDuringSchedulingIgnoredDuringExecution[].preference.matchFields"
_DS_WHY = ("1.6's NodeSelectorTerm has only matchExpressions "
           f"({GO}pkg/api/v1/types.go#L1968-L1972); in 1.6 the DaemonSet controller created each daemon "
           f"pod with spec.nodeName already set (RealPodControl.createPods, "
           f"{GO}pkg/controller/controller_utils.go#L544-L568), so the scheduler never placed one")
_NAME_WHY = ("1.6's API server refuses a container resource name without a '/' other than cpu and memory "
             f"(validateContainerResourceName, {GO}pkg/api/validation/validation.go#L3121-L3131); 1.6 "
             "schedules neither local storage nor huge pages")
_EXTENDED_WHY = ("1.6 accepted the name, but its PodFitsResources counts only cpu, memory, "
                 f"{RESOURCE_NVIDIA_GPU} and {RESOURCE_OPAQUE_INT_PREFIX}* "
                 f"(GetResourceRequest, {GO}plugin/pkg/scheduler/algorithm/predicates/predicates.go#L471-L540; "
                 f"PodFitsResources, {GO}plugin/pkg/scheduler/algorithm/predicates/predicates.go#L546-L592): the "
                 "pod may land on a node that has none")
_DNS_WHY = ("1.6 knows ClusterFirstWithHostNet, ClusterFirst and Default "
            f"(validateDNSPolicy, {GO}pkg/api/validation/validation.go#L1877-L1889); DNS plays no part in placement")


@attrs.frozen
class Change:
    """One thing the replay did to one pod (aggregated by the report)."""

    part: str  # SCHEDULING | NOT_IN_1_6
    field: str
    action: str
    why: str


def adapt_pod(doc: dict[str, Any]) -> tuple[dict[str, Any], list[Change]]:
    """``doc`` as 1.6 can take it (a copy when anything changes) and the changes made."""
    changes: list[Change] = []
    spec = doc.get("spec")
    if not isinstance(spec, dict):
        return doc, changes
    new_spec = _resources(spec, changes)
    new_spec = _match_fields(new_spec, changes)
    if new_spec.get("dnsPolicy") == "None":
        new_spec = {**new_spec, "dnsPolicy": "Default"}
        changes.append(Change(NOT_IN_1_6, "spec.dnsPolicy", "None read as Default", _DNS_WHY))
    return (doc if new_spec is spec else {**doc, "spec": new_spec}), changes


def _resources(spec: dict[str, Any], changes: list[Change]) -> dict[str, Any]:
    out = spec
    for group in ("initContainers", "containers"):
        containers = spec.get(group)
        if not isinstance(containers, list):
            continue
        for i, container in enumerate(containers):
            resources = container.get("resources") if isinstance(container, dict) else None
            if not isinstance(resources, dict):
                continue
            kept = _resource_lists(group, resources, changes)
            if kept is not resources:
                if out is spec:
                    out = copy.copy(spec)
                if out[group] is containers:
                    out[group] = list(containers)
                out[group][i] = {**container, "resources": kept}
    return out


def _resource_lists(group: str, resources: dict[str, Any], changes: list[Change]) -> dict[str, Any]:
    out = resources
    for section in ("requests", "limits"):
        names = resources.get(section)
        if not isinstance(names, dict):
            continue
        drop = [n for n in names if isinstance(n, str) and "/" not in n and n not in ("cpu", "memory")]
        for name in names:
            if not isinstance(name, str):
                continue
            where = f"spec.{group}[].resources.{section}[{name}]"
            if name in drop:
                changes.append(Change(SCHEDULING, where, "removed", _NAME_WHY))
            elif "/" in name and name != RESOURCE_NVIDIA_GPU and not name.startswith(RESOURCE_OPAQUE_INT_PREFIX):
                changes.append(Change(SCHEDULING, where, "kept, not checked by 1.6", _EXTENDED_WHY))
        if drop:
            out = {**out, section: {k: v for k, v in names.items() if k not in drop}}
    return out


def _match_fields(spec: dict[str, Any], changes: list[Change]) -> dict[str, Any]:
    node_affinity = (spec.get("affinity") or {}).get("nodeAffinity") if isinstance(spec.get("affinity"), dict) else None
    if not isinstance(node_affinity, dict):
        return spec
    required = node_affinity.get("requiredDuringSchedulingIgnoredDuringExecution")
    terms = required.get("nodeSelectorTerms") if isinstance(required, dict) else None
    preferred = node_affinity.get("preferredDuringSchedulingIgnoredDuringExecution")
    has_required = isinstance(terms, list) and any(isinstance(t, dict) and t.get("matchFields") for t in terms)
    has_preferred = isinstance(preferred, list) and any(
        isinstance(p, dict) and isinstance(p.get("preference"), dict) and p["preference"].get("matchFields")
        for p in preferred)
    if not has_required and not has_preferred:
        return spec
    na = dict(node_affinity)
    out = {**spec}
    if has_required:
        pin = _pinned_node(terms) if not spec.get("nodeName") else ""
        if spec.get("nodeName"):
            changes.append(Change(NOT_IN_1_6, _REQUIRED, "removed (the pod is bound and stays on its node)", _DS_WHY))
        elif pin:
            out["nodeName"] = pin
            changes.append(Change(SCHEDULING, _REQUIRED, "replaced by spec.nodeName (as 1.6's DaemonSet "
                                  "controller set it)", _DS_WHY))
        else:
            changes.append(Change(SCHEDULING, _REQUIRED, "removed: the pod may go to a node the term excluded",
                                  _DS_WHY))
        kept = [{k: v for k, v in t.items() if k != "matchFields"} for t in terms if isinstance(t, dict)]
        kept = [t for t in kept if t.get("matchExpressions")]
        if kept:
            na["requiredDuringSchedulingIgnoredDuringExecution"] = {**required, "nodeSelectorTerms": kept}
        else:
            na.pop("requiredDuringSchedulingIgnoredDuringExecution")
    if has_preferred:
        changes.append(Change(SCHEDULING if not spec.get("nodeName") else NOT_IN_1_6, _PREFERRED,
                              "removed (a preference left empty is dropped)", _DS_WHY))
        kept_p = [{**p, "preference": {k: v for k, v in p["preference"].items() if k != "matchFields"}}
                  for p in preferred if isinstance(p, dict) and isinstance(p.get("preference"), dict)]
        kept_p = [p for p in kept_p if p["preference"].get("matchExpressions")]
        if kept_p:
            na["preferredDuringSchedulingIgnoredDuringExecution"] = kept_p
        else:
            na.pop("preferredDuringSchedulingIgnoredDuringExecution")
    affinity = {**spec["affinity"], "nodeAffinity": na} if na else {
        k: v for k, v in spec["affinity"].items() if k != "nodeAffinity"}
    if affinity:
        out["affinity"] = affinity
    else:
        out.pop("affinity")
    return out


def _pinned_node(terms: list[Any]) -> str:
    """The node a DaemonSet-style affinity names: one term, ``metadata.name In [node]`` only."""
    if len(terms) != 1 or not isinstance(terms[0], dict) or terms[0].get("matchExpressions"):
        return ""
    fields = terms[0].get("matchFields")
    if not (isinstance(fields, list) and len(fields) == 1 and isinstance(fields[0], dict)):
        return ""
    req = fields[0]
    values = req.get("values")
    if req.get("key") == "metadata.name" and req.get("operator") == "In" and isinstance(values, list) \
            and len(values) == 1 and isinstance(values[0], str):
        return values[0]
    return ""


__all__ = ["adapt_pod", "Change", "SCHEDULING", "NOT_IN_1_6"]
