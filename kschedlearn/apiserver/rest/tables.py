"""Server-side ``Table`` answers, so ``kubectl get`` prints the columns it prints against a real cluster.

Go: none in 1.6 — kschedlearn extension. Tables (``meta.k8s.io/v1 Table``) came with
Kubernetes 1.10's server-side printing; kubectl 1.32 asks for them with
``Accept: application/json;as=Table;v=v1;g=meta.k8s.io``. The columns follow the printers of
``pkg/printers/internalversion`` of later releases (pods, nodes, events); every other kind gets
NAME and AGE. Ages are counted on the simulation's virtual clock.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

_NAME_COL = {"name": "Name", "type": "string", "format": "name", "priority": 0,
             "description": "Name must be unique within a namespace."}


def _col(name: str, priority: int = 0, type_: str = "string") -> dict[str, Any]:
    return {"name": name, "type": type_, "format": "", "priority": priority, "description": name}


def human_duration(seconds: float) -> str:
    """Go: apimachinery's ``duration.HumanDuration`` (as kubectl's AGE column prints it)."""
    if seconds < -1:
        return "<invalid>"
    s = max(int(seconds), 0)
    minutes, hours = s // 60, s // 3600
    if s < 120:
        return f"{s}s"
    if minutes < 10:
        return f"{minutes}m" + (f"{s % 60}s" if s % 60 else "")
    if minutes < 180:
        return f"{minutes}m"
    if hours < 8:
        return f"{hours}h" + (f"{minutes % 60}m" if minutes % 60 else "")
    if hours < 48:
        return f"{hours}h"
    if hours < 24 * 8:
        return f"{hours // 24}d" + (f"{hours % 24}h" if hours % 24 else "")
    if hours < 24 * 365 * 2:
        return f"{hours // 24}d"
    if hours < 24 * 365 * 8:
        return f"{hours // (24 * 365)}y{(hours // 24) % 365}d"
    return f"{hours // (24 * 365)}y"


def _age(obj: Any, now: float) -> str:
    created = obj.metadata.creation_timestamp
    return "<unknown>" if created is None else human_duration(now - created)


def _pod_row(pod: Any, now: float) -> list[Any]:
    n = len(pod.spec.containers)
    ready = n if pod.status.phase == "Running" else 0
    status = "Terminating" if pod.metadata.deletion_timestamp is not None else (pod.status.phase or "Pending")
    return [pod.metadata.name, f"{ready}/{n}", status, 0, _age(pod, now),
            pod.status.pod_ip or "<none>", pod.spec.node_name or "<none>", "<none>", "<none>"]


_POD_COLS = [_NAME_COL, _col("Ready"), _col("Status"), _col("Restarts", type_="integer"), _col("Age"),
             _col("IP", 1), _col("Node", 1), _col("Nominated Node", 1), _col("Readiness Gates", 1)]


def _node_status(node: Any) -> str:
    ready = next((c.status for c in node.status.conditions if c.type == "Ready"), "Unknown")
    out = {"True": "Ready", "False": "NotReady"}.get(ready, "Unknown")
    return out + (",SchedulingDisabled" if node.spec.unschedulable else "")


#: a label ``node-role.kubernetes.io/<role>`` names a role, as does the older ``kubernetes.io/role: <role>``
_ROLE_PREFIX, _ROLE_LABEL = "node-role.kubernetes.io/", "kubernetes.io/role"


def _node_roles(labels: dict[str, str]) -> str:
    """The ROLES column as later kubectl printers compute it (``findNodeRoles``), "<none>" if none."""
    roles = {k[len(_ROLE_PREFIX):] for k in labels if k.startswith(_ROLE_PREFIX) and k != _ROLE_PREFIX}
    if labels.get(_ROLE_LABEL):
        roles.add(labels[_ROLE_LABEL])
    return ",".join(sorted(roles)) or "<none>"


def _address(node: Any, kind: str) -> str:
    return next((a.address for a in node.status.addresses if a.type == kind), "<none>")


def _node_row(node: Any, now: float) -> list[Any]:
    # A replayed cluster's node shows what its kubelet reported; a simulated node is a 1.6.1 kubelet.
    info = node.status.node_info
    version = info.kubelet_version if info is not None and info.kubelet_version else "v1.6.1"
    system = [(getattr(info, f) or "<unknown>") if info is not None else "<unknown>"
              for f in ("os_image", "kernel_version", "container_runtime_version")]
    return [node.metadata.name, _node_status(node), _node_roles(node.metadata.labels), _age(node, now), version,
            _address(node, "InternalIP"), _address(node, "ExternalIP"), *system]


_NODE_COLS = [_NAME_COL, _col("Status"), _col("Roles"), _col("Age"), _col("Version"),
              _col("Internal-IP", 1), _col("External-IP", 1), _col("OS-Image", 1),
              _col("Kernel-Version", 1), _col("Container-Runtime", 1)]


def _event_row(ev: Any, now: float) -> list[Any]:
    ref = ev.involved_object
    last = ev.last_timestamp if ev.last_timestamp is not None else ev.first_timestamp
    seen = "<unknown>" if last is None else human_duration(now - last)
    return [seen, ev.type or "Normal", ev.reason, f"{ref.kind.lower()}/{ref.name}", ev.message]


_EVENT_COLS = [_col("Last Seen"), _col("Type"), _col("Reason"), _col("Object"), _col("Message")]

_PRINTERS: dict[str, tuple[list[dict[str, Any]], Callable[[Any, float], list[Any]]]] = {
    "pods": (_POD_COLS, _pod_row),
    "nodes": (_NODE_COLS, _node_row),
    "events": (_EVENT_COLS, _event_row),
}


def _default_row(obj: Any, now: float) -> list[Any]:
    return [obj.metadata.name, _age(obj, now)]


def _row_object(obj: Any, include_object: str) -> dict[str, Any]:
    full = obj.to_dict()
    if include_object == "Object":
        return full
    if include_object == "None":
        return {}
    return {"kind": "PartialObjectMetadata", "apiVersion": "meta.k8s.io/v1", "metadata": full.get("metadata", {})}


def table(resource: str, objects: Iterable[Any], now: float, resource_version: str, *,
          include_object: str = "PartialObjectMetadata", with_columns: bool = True) -> dict[str, Any]:
    """A ``meta.k8s.io/v1 Table`` of ``objects`` of one resource."""
    cols, row = _PRINTERS.get(resource, ([_NAME_COL, _col("Age")], _default_row))
    out: dict[str, Any] = {"kind": "Table", "apiVersion": "meta.k8s.io/v1",
                           "metadata": {"resourceVersion": resource_version}}
    if with_columns:
        out["columnDefinitions"] = cols
    out["rows"] = [{"cells": row(o, now), "object": _row_object(o, include_object)} for o in objects]
    return out


def wants_table(accept: str) -> bool:
    """Whether an ``Accept`` header asks for a Table first."""
    first = accept.split(",")[0] if accept else ""
    return "as=Table" in first


__all__ = ["table", "wants_table", "human_duration"]
