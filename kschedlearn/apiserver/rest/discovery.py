"""Discovery documents: ``/api``, ``/api/v1``, ``/apis``, ``/apis/{group}/{version}``, ``/version``.

Go: the discovery web services of
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apiserver/pkg/endpoints/discovery.go
(``/apis``: NewApisWebService, a group: NewGroupWebService, a group version's resources:
AddSupportedResourcesWebService; the legacy ``/api`` list: AddApiWebService), and the
``/version`` answer of ``pkg/version`` at v1.6.1.

Differs from Go: only the resources the embedded server stores are listed (plus the
``namespaces`` kschedlearn derives and the ``bindings`` POST target); the lists are built from
one table, :data:`SERVED`, which the handler uses for routing too.
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


SERVED: tuple[Served, ...] = (
    Served("pods", "Pod", "v1", True, short_names=("po",), singular="pod"),
    Served("pods/status", "Pod", "v1", True, verbs=("get", "patch", "update")),
    Served("pods/binding", "Binding", "v1", True, verbs=("create",)),
    Served("bindings", "Binding", "v1", True, verbs=("create",), singular="binding"),
    Served("nodes", "Node", "v1", False, short_names=("no",), singular="node"),
    Served("nodes/status", "Node", "v1", False, verbs=("get", "patch", "update")),
    Served("events", "Event", "v1", True, short_names=("ev",), singular="event"),
    Served("endpoints", "Endpoints", "v1", True, short_names=("ep",), singular="endpoints"),
    Served("services", "Service", "v1", True, short_names=("svc",), singular="service"),
    Served("replicationcontrollers", "ReplicationController", "v1", True, short_names=("rc",),
           singular="replicationcontroller"),
    Served("persistentvolumes", "PersistentVolume", "v1", False, short_names=("pv",),
           singular="persistentvolume"),
    Served("persistentvolumeclaims", "PersistentVolumeClaim", "v1", True, short_names=("pvc",),
           singular="persistentvolumeclaim"),
    Served("namespaces", "Namespace", "v1", False, verbs=("create", "get", "list", "watch"),
           short_names=("ns",), singular="namespace", stored=False),
    Served("replicasets", "ReplicaSet", "extensions/v1beta1", True, short_names=("rs",),
           singular="replicaset"),
    Served("statefulsets", "StatefulSet", "apps/v1beta1", True, singular="statefulset"),
    # the workload controllers' resources and subresources (kschedlearn.apiserver.rest.workloads)
    Served("replicationcontrollers/scale", "Scale", "v1", True, verbs=("get", "patch", "update")),
    Served("replicationcontrollers/status", "ReplicationController", "v1", True, verbs=("get", "patch", "update")),
    Served("daemonsets", "DaemonSet", "extensions/v1beta1", True, short_names=("ds",), singular="daemonset"),
    Served("daemonsets/status", "DaemonSet", "extensions/v1beta1", True, verbs=("get", "patch", "update")),
    Served("deployments", "Deployment", "extensions/v1beta1", True, short_names=("deploy",), singular="deployment"),
    Served("deployments/rollback", "DeploymentRollback", "extensions/v1beta1", True, verbs=("create",)),
    Served("deployments/scale", "Scale", "extensions/v1beta1", True, verbs=("get", "patch", "update")),
    Served("deployments/status", "Deployment", "extensions/v1beta1", True, verbs=("get", "patch", "update")),
    Served("replicasets/scale", "Scale", "extensions/v1beta1", True, verbs=("get", "patch", "update")),
    Served("replicasets/status", "ReplicaSet", "extensions/v1beta1", True, verbs=("get", "patch", "update")),
    Served("deployments", "Deployment", "apps/v1beta1", True, short_names=("deploy",), singular="deployment"),
    Served("deployments/rollback", "DeploymentRollback", "apps/v1beta1", True, verbs=("create",)),
    Served("deployments/scale", "Scale", "apps/v1beta1", True, verbs=("get", "patch", "update")),
    Served("deployments/status", "Deployment", "apps/v1beta1", True, verbs=("get", "patch", "update")),
    Served("statefulsets/status", "StatefulSet", "apps/v1beta1", True, verbs=("get", "patch", "update")),
)

GROUP_VERSIONS: tuple[str, ...] = ("extensions/v1beta1", "apps/v1beta1")

#: ``apps/v1``: a kschedlearn extension for kubectl 1.32 and the Python client (see
#: :mod:`.workloads`), listed as a second, non-preferred version of the apps group, so kubectl
#: still resolves ``deployments`` to extensions/v1beta1 (and ``deployments.apps`` to v1beta1) as
#: against 1.6, while an ``apps/v1`` manifest maps
EXTENSION_SERVED: tuple[Served, ...] = tuple(
    Served(name, kind, "apps/v1", True, verbs=verbs)
    for name, kind, verbs in (
        ("deployments", "Deployment", _RW), ("deployments/scale", "Scale", ("get", "patch", "update")),
        ("deployments/status", "Deployment", ("get", "patch", "update")),
        ("replicasets", "ReplicaSet", _RW), ("replicasets/scale", "Scale", ("get", "patch", "update")),
        ("replicasets/status", "ReplicaSet", ("get", "patch", "update")),
        ("daemonsets", "DaemonSet", _RW), ("daemonsets/status", "DaemonSet", ("get", "patch", "update")),
        ("statefulsets", "StatefulSet", _RW), ("statefulsets/status", "StatefulSet", ("get", "patch", "update")),
    )
)
EXTENSION_GROUP_VERSIONS: tuple[str, ...] = ("apps/v1",)


def find_served(group_version: str, name: str) -> Served | None:
    for s in SERVED:
        if s.group_version == group_version and s.name == name:
            return s
    return None


def api_versions(server_address: str) -> dict[str, Any]:
    """``GET /api``: the legacy group's versions."""
    return {"kind": "APIVersions", "versions": ["v1"],
            "serverAddressByClientCIDRs": [{"clientCIDR": "0.0.0.0/0", "serverAddress": server_address}]}


def _group(group_version: str, server_address: str) -> dict[str, Any]:
    name, version = group_version.split("/")
    gv = {"groupVersion": group_version, "version": version}
    more = [{"groupVersion": e, "version": e.split("/")[1]} for e in EXTENSION_GROUP_VERSIONS
            if e.split("/")[0] == name]
    return {"name": name, "versions": [gv, *more], "preferredVersion": gv,
            "serverAddressByClientCIDRs": [{"clientCIDR": "0.0.0.0/0", "serverAddress": server_address}]}


def api_group_list(server_address: str) -> dict[str, Any]:
    """``GET /apis``: every named group we serve."""
    return {"kind": "APIGroupList", "apiVersion": "v1",
            "groups": [_group(gv, server_address) for gv in GROUP_VERSIONS]}


def api_group(group: str, server_address: str) -> dict[str, Any] | None:
    """``GET /apis/{group}``."""
    for gv in GROUP_VERSIONS:
        if gv.split("/")[0] == group:
            return {"kind": "APIGroup", "apiVersion": "v1", **_group(gv, server_address)}
    return None


def api_resource_list(group_version: str) -> dict[str, Any] | None:
    """``GET /api/v1`` or ``GET /apis/{group}/{version}``: the resources of one group version."""
    if group_version != "v1" and group_version not in GROUP_VERSIONS and group_version not in EXTENSION_GROUP_VERSIONS:
        return None
    resources = []
    for s in (*SERVED, *EXTENSION_SERVED):
        if s.group_version != group_version:
            continue
        entry: dict[str, Any] = {"name": s.name, "singularName": s.singular, "namespaced": s.namespaced,
                                 "kind": s.kind, "verbs": list(s.verbs)}
        if s.short_names:
            entry["shortNames"] = list(s.short_names)
        resources.append(entry)
    return {"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": group_version,
            "resources": resources}


__all__ = ["openapi_v3_root", "openapi_v3_group_version", "SERVED", "Served", "VERSION_INFO", "GROUP_VERSIONS", "find_served", "api_versions",
           "api_group_list", "api_group", "api_resource_list"]


# -- OpenAPI v3 (kschedlearn extension: what kubectl 1.32 needs to validate on the server) ------

_QUERY_PARAMS = ("dryRun", "fieldManager", "fieldValidation", "pretty")


def _gv_path(group_version: str) -> str:
    return "api/v1" if group_version == "v1" else f"apis/{group_version}"


def openapi_v3_root() -> dict[str, Any]:
    """``GET /openapi/v3``: where each group version's document lives."""
    gvs = ("v1", *GROUP_VERSIONS, *EXTENSION_GROUP_VERSIONS)
    return {"paths": {_gv_path(gv): {"serverRelativeURL": f"/openapi/v3/{_gv_path(gv)}"} for gv in gvs}}


def openapi_v3_group_version(path: str) -> dict[str, Any] | None:
    """``GET /openapi/v3/api/v1`` (or ``/apis/{g}/{v}``): one PATCH operation per kind.

    kubectl reads only whether a kind's PATCH accepts ``fieldValidation`` (then it leaves
    validation to the server instead of downloading schemas); no schemas are served.
    """
    gv = "v1" if path == "api/v1" else path.removeprefix("apis/")
    if gv != "v1" and gv not in GROUP_VERSIONS and gv not in EXTENSION_GROUP_VERSIONS:
        return None
    group, _, version = gv.rpartition("/")
    paths: dict[str, Any] = {}
    for s in (*SERVED, *EXTENSION_SERVED):
        if s.group_version != gv or "/" in s.name or not s.stored or "patch" not in s.verbs:
            continue
        ns = "namespaces/{namespace}/" if s.namespaced else ""
        paths[f"/{_gv_path(gv)}/{ns}{s.name}/{{name}}"] = {"patch": {
            "operationId": f"patch{s.kind}",
            "parameters": [{"name": p, "in": "query", "schema": {"type": "string"}} for p in _QUERY_PARAMS],
            "responses": {"200": {"description": "OK"}},
            "x-kubernetes-action": "patch",
            "x-kubernetes-group-version-kind": {"group": group, "version": version, "kind": s.kind},
        }}
    return {"openapi": "3.0.0", "info": {"title": "Kubernetes (kschedlearn)", "version": "v1.6.1"},
            "paths": paths}
