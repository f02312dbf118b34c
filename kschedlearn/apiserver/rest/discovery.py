"""Discovery documents: ``/api``, ``/api/v1``, ``/apis``, ``/apis/{group}/{version}``, ``/version``.

Go: the discovery web services of
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apiserver/pkg/endpoints/discovery.go
(``/apis``: NewApisWebService, a group: NewGroupWebService, a group version's resources:
AddSupportedResourcesWebService; the legacy ``/api`` list: AddApiWebService), and the
``/version`` answer of ``pkg/version`` at v1.6.1.

Differs from Go: only the resources the embedded server stores are listed (plus the
``namespaces`` kschedlearn derives and the ``bindings`` POST target); the lists are built from
one table, :data:`SERVED`, which the handler uses for routing too. ``pods/eviction`` names its
group and version (``policy``/``v1beta1``), fields discovery gained in 1.8: without them
kubectl 1.32's ``drain`` would not use the eviction subresource at all and delete the pods.
"""

from __future__ import annotations

from typing import Any

import attrs

#: The answer of ``GET /version`` as a v1.6.1 server gives it.
VERSION_INFO: dict[str, str] = {
    "major": "1", "minor": "6", "gitVersion": "v1.6.1",
    "gitCommit": "b0b7a323cc5a4a2019b2e9520c21c7830b7f708e", "gitTreeState": "clean",
    "buildDate": "2017-04-03T20:33:27Z", "goVersion": "go1.7.5", "compiler": "gc",
    "platform": "linux/amd64",
}

_RW = ("create", "delete", "get", "list", "patch", "update", "watch")
_RWC = ("create", "delete", "deletecollection", "get", "list", "patch", "update", "watch")


@attrs.frozen
class Served:
    """One resource of the HTTP face: where it lives and what may be done to it."""

    name: str
    kind: str
    group_version: str
    namespaced: bool
    verbs: tuple[str, ...] = _RW
    short_names: tuple[str, ...] = ()
    singular: str = ""
    stored: bool = True  # False: answered by the REST layer itself (namespaces, bindings)
    group: str = ""  # a subresource of another group (discovery's 1.8 ``group``/``version`` fields)
    version: str = ""


SERVED: tuple[Served, ...] = (
    Served("pods", "Pod", "v1", True, verbs=_RWC, short_names=("po",), singular="pod"),
    Served("pods/status", "Pod", "v1", True, verbs=("get", "patch", "update")),
    Served("pods/binding", "Binding", "v1", True, verbs=("create",)),
    Served("pods/eviction", "Eviction", "v1", True, verbs=("create",), group="policy", version="v1beta1"),
    Served("bindings", "Binding", "v1", True, verbs=("create",), singular="binding"),
    Served("nodes", "Node", "v1", False, verbs=_RWC, short_names=("no",), singular="node"),
    Served("nodes/status", "Node", "v1", False, verbs=("get", "patch", "update")),
    Served("events", "Event", "v1", True, verbs=_RWC, short_names=("ev",), singular="event"),
    Served("endpoints", "Endpoints", "v1", True, verbs=_RWC, short_names=("ep",), singular="endpoints"),
    Served("services", "Service", "v1", True, short_names=("svc",), singular="service"),
    Served("replicationcontrollers", "ReplicationController", "v1", True, verbs=_RWC, short_names=("rc",),
           singular="replicationcontroller"),
    Served("persistentvolumes", "PersistentVolume", "v1", False, verbs=_RWC, short_names=("pv",),
           singular="persistentvolume"),
    Served("persistentvolumeclaims", "PersistentVolumeClaim", "v1", True, verbs=_RWC, short_names=("pvc",),
           singular="persistentvolumeclaim"),
    Served("namespaces", "Namespace", "v1", False, verbs=("create", "get", "list", "watch"),
           short_names=("ns",), singular="namespace", stored=False),
    Served("replicasets", "ReplicaSet", "extensions/v1beta1", True, verbs=_RWC, short_names=("rs",),
           singular="replicaset"),
    Served("statefulsets", "StatefulSet", "apps/v1beta1", True, verbs=_RWC, singular="statefulset"),
)

GROUP_VERSIONS: tuple[str, ...] = ("extensions/v1beta1", "apps/v1beta1")


def find_served(group_version: str, name: str) -> Served | None:
    for s in SERVED:
        if s.group_version == group_version and s.name == name:
            return s
    return None


def api_versions(server_address: str) -> dict[str, Any]:
    """``GET /api``: the legacy group's versions."""
    return {"kind": "APIVersions", "versions": ["v1"],
            "serverAddressByClientCIDRs": [{"clientCIDR": "0.0.0.0/0", "serverAddress": server_address}]}


#: Signposts (kschedlearn extension): kinds of later releases a modern manifest names, listed in
#: discovery with no verbs so that kubectl 1.32 maps them and sends the request, which then gets a
#: 404 saying where Kubernetes v1.6.1 kept them (:func:`not_served_hint`). A (group version,
#: resource) that :data:`SERVED` serves is never a signpost, so a route added there wins.
SIGNPOSTS: dict[str, tuple[tuple[str, str], ...]] = {
    "apps/v1": (("deployments", "Deployment"), ("daemonsets", "DaemonSet"), ("replicasets", "ReplicaSet"),
                ("statefulsets", "StatefulSet")),
    "batch/v1": (("jobs", "Job"), ("cronjobs", "CronJob")),
    "networking.k8s.io/v1": (("ingresses", "Ingress"), ("networkpolicies", "NetworkPolicy")),
    "policy/v1": (("poddisruptionbudgets", "PodDisruptionBudget"),),
    "autoscaling/v2": (("horizontalpodautoscalers", "HorizontalPodAutoscaler"),),
}


def signposts(group_version: str) -> list[tuple[str, str]]:
    """The signpost (resource, kind) pairs of ``group_version`` that nothing serves."""
    return [(r, k) for r, k in SIGNPOSTS.get(group_version, ()) if find_served(group_version, r) is None]


def all_group_versions() -> tuple[str, ...]:
    """Every named group version in discovery: the served ones, then those with signposts only."""
    return (*GROUP_VERSIONS, *(gv for gv in SIGNPOSTS if gv not in GROUP_VERSIONS and signposts(gv)))


def _group(name: str, server_address: str) -> dict[str, Any]:
    versions = [{"groupVersion": gv, "version": gv.split("/")[1]} for gv in all_group_versions()
                if gv.split("/")[0] == name]
    return {"name": name, "versions": versions, "preferredVersion": versions[0],
            "serverAddressByClientCIDRs": [{"clientCIDR": "0.0.0.0/0", "serverAddress": server_address}]}


def api_group_list(server_address: str) -> dict[str, Any]:
    """``GET /apis``: every named group, its versions in :func:`all_group_versions` order (the first preferred)."""
    names = list(dict.fromkeys(gv.split("/")[0] for gv in all_group_versions()))
    return {"kind": "APIGroupList", "apiVersion": "v1", "groups": [_group(n, server_address) for n in names]}


def api_group(group: str, server_address: str) -> dict[str, Any] | None:
    """``GET /apis/{group}``."""
    if not any(gv.split("/")[0] == group for gv in all_group_versions()):
        return None
    return {"kind": "APIGroup", "apiVersion": "v1", **_group(group, server_address)}


def api_resource_list(group_version: str) -> dict[str, Any] | None:
    """``GET /api/v1`` or ``GET /apis/{group}/{version}``: the resources of one group version."""
    if group_version != "v1" and group_version not in all_group_versions():
        return None
    resources = []
    for s in SERVED:
        if s.group_version != group_version:
            continue
        entry: dict[str, Any] = {"name": s.name, "singularName": s.singular, "namespaced": s.namespaced,
                                 "kind": s.kind, "verbs": list(s.verbs)}
        if s.short_names:
            entry["shortNames"] = list(s.short_names)
        if s.group:
            entry.update(group=s.group, version=s.version)
        resources.append(entry)
    resources += [{"name": r, "singularName": k.lower(), "namespaced": True, "kind": k, "verbs": []}
                  for r, k in signposts(group_version)]
    return {"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": group_version,
            "resources": resources}


#: Kubernetes v1.6.1's API groups and the resources each served (discovery of a v1.6.1 server):
#: what a 404 for a later group (apps/v1, batch/v1beta1, ...) points the client to.
GROUPS_1_6: dict[str, tuple[str, ...]] = {
    "apps/v1beta1": ("deployments", "statefulsets"),
    "extensions/v1beta1": ("daemonsets", "deployments", "ingresses", "networkpolicies", "podsecuritypolicies",
                           "replicasets", "thirdpartyresources"),
    "batch/v1": ("jobs",), "batch/v2alpha1": ("cronjobs", "jobs"),
    "policy/v1beta1": ("poddisruptionbudgets",), "autoscaling/v1": ("horizontalpodautoscalers",),
    "storage.k8s.io/v1": ("storageclasses",), "storage.k8s.io/v1beta1": ("storageclasses",),
    "rbac.authorization.k8s.io/v1beta1": ("clusterrolebindings", "clusterroles", "rolebindings", "roles"),
    "certificates.k8s.io/v1beta1": ("certificatesigningrequests",), "settings.k8s.io/v1alpha1": ("podpresets",),
    "v1": ("configmaps", "secrets", "serviceaccounts", "limitranges", "resourcequotas", "podtemplates",
           "componentstatuses"),
}


def _served_in(resource: str) -> list[str]:
    return [s.group_version for s in SERVED if s.name == resource and s.stored]


def not_served_hint(group_version: str, resource: str) -> str:
    """Where Kubernetes v1.6.1 kept ``resource`` (or the kinds of ``group_version``'s group), for
    a 404's message; "" when there is nothing to add. Built from :data:`SERVED` and
    :data:`GROUPS_1_6`, so a route another part of kschedlearn adds to SERVED wins by itself."""
    group = group_version.rpartition("/")[0]
    if resource:
        here = [gv for gv in _served_in(resource) if gv != group_version]
        if here:
            return f"kschedlearn serves the Kubernetes v1.6.1 API: use apiVersion {' or '.join(here)} for {resource}"
        then = [gv for gv, names in GROUPS_1_6.items() if resource in names]
        if then:
            return (f"in Kubernetes v1.6.1, {resource} were served in {' and '.join(then)}; "
                    "kschedlearn does not serve them")
        return ""
    if group_version == "v1" or group_version in GROUP_VERSIONS:
        return ""
    if group_version in GROUPS_1_6:
        return (f"kschedlearn does not serve {group_version} (Kubernetes v1.6.1 served "
                f"{', '.join(GROUPS_1_6[group_version])} there)")
    same_group = {gv: names for gv, names in GROUPS_1_6.items() if gv.rpartition("/")[0] == group and group}
    if not same_group:
        return f"Kubernetes v1.6.1 has no {group_version}"
    parts = []
    for gv, names in same_group.items():
        ours = [s.name for s in SERVED if s.group_version == gv and s.stored and "/" not in s.name]
        parts.append(f"{gv} ({', '.join(names)}" + (f"; kschedlearn serves {', '.join(ours)})" if ours else ")"))
    return f"Kubernetes v1.6.1 has no {group_version}; its {group} group was {' and '.join(parts)}"


__all__ = ["not_served_hint", "GROUPS_1_6", "SIGNPOSTS", "signposts", "all_group_versions", "SERVED", "Served", "VERSION_INFO", "GROUP_VERSIONS", "find_served", "api_versions",
           "api_group_list", "api_group", "api_resource_list"]
