"""``Table`` rows for the controllers' kinds, with the columns kubectl 1.6 printed for them.

Go: none in 1.6's API server — kschedlearn extension (see :mod:`.tables`). The columns are
those of kubectl 1.6's printers,
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/printers/internalversion/printers.go#L55-L94
(``printReplicationController``, ``printReplicaSet``, ``printStatefulSet``, ``printDaemonSet``,
``printDeployment``): a learner sees DESIRED next to CURRENT, as 1.6 showed them; ``-o wide``
adds CONTAINER(S), IMAGE(S) and SELECTOR.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_NAME_COL = {"name": "Name", "type": "string", "format": "name", "priority": 0,
             "description": "Name must be unique within a namespace."}


def _col(name: str, priority: int = 0, type_: str = "string") -> dict[str, Any]:
    return {"name": name, "type": type_, "format": "", "priority": priority, "description": name}


_WIDE = [_col("Containers", 1), _col("Images", 1), _col("Selector", 1)]


def _age(obj: Any, now: float) -> str:
    from kschedlearn.apiserver.rest.tables import human_duration

    created = obj.metadata.creation_timestamp
    return "<unknown>" if created is None else human_duration(now - created)


def _containers(obj: Any) -> list[str]:
    """Go: ``layoutContainers`` — names and images, comma-separated."""
    containers = obj.spec.template.spec.containers if obj.spec.template is not None else ()
    return [",".join(c.name for c in containers), ",".join(c.image for c in containers)]


def _format_labels(m: dict[str, str]) -> str:
    """Go: ``labels.FormatLabels`` ("<none>" for an empty map)."""
    return ",".join(f"{k}={v}" for k, v in sorted(m.items())) or "<none>"


def _selector(obj: Any) -> str:
    """Go: ``metav1.FormatLabelSelector`` / ``selector.String()`` of the object's selector."""
    from kschedlearn.apimachinery.apis.meta.v1.helpers import label_selector_as_selector

    sel = obj.spec.selector
    if isinstance(sel, dict):
        return _format_labels(sel)
    return (label_selector_as_selector(sel).string() if sel is not None else "") or "<none>"


def _rc_row(o: Any, now: float) -> list[Any]:
    return [o.metadata.name, o.spec.replicas, o.status.replicas, o.status.ready_replicas, _age(o, now),
            *_containers(o), _selector(o)]


def _ss_row(o: Any, now: float) -> list[Any]:
    return [o.metadata.name, o.spec.replicas, o.status.replicas, _age(o, now), *_containers(o), _selector(o)]


def _ds_row(o: Any, now: float) -> list[Any]:
    s = o.status
    return [o.metadata.name, s.desired_number_scheduled, s.current_number_scheduled, s.number_ready,
            s.updated_number_scheduled, s.number_available, _format_labels(o.spec.template.spec.node_selector),
            _age(o, now), *_containers(o), _selector(o)]


def _deployment_row(o: Any, now: float) -> list[Any]:
    s = o.status
    return [o.metadata.name, o.spec.replicas, s.replicas, s.updated_replicas, s.available_replicas, _age(o, now),
            *_containers(o), _selector(o)]


_INT = "integer"
_RC_COLS = [_NAME_COL, _col("Desired", type_=_INT), _col("Current", type_=_INT), _col("Ready", type_=_INT),
            _col("Age"), *_WIDE]

#: resource → (columns, row function); merged into :data:`.tables._PRINTERS`
WORKLOAD_PRINTERS: dict[str, tuple[list[dict[str, Any]], Callable[[Any, float], list[Any]]]] = {
    "replicationcontrollers": (_RC_COLS, _rc_row),
    "replicasets": (_RC_COLS, _rc_row),
    "statefulsets": ([_NAME_COL, _col("Desired", type_=_INT), _col("Current", type_=_INT), _col("Age"), *_WIDE],
                     _ss_row),
    "daemonsets": ([_NAME_COL, _col("Desired", type_=_INT), _col("Current", type_=_INT), _col("Ready", type_=_INT),
                    _col("Up-to-date", type_=_INT), _col("Available", type_=_INT), _col("Node-Selector"),
                    _col("Age"), *_WIDE], _ds_row),
    "deployments": ([_NAME_COL, _col("Desired", type_=_INT), _col("Current", type_=_INT),
                     _col("Up-to-date", type_=_INT), _col("Available", type_=_INT), _col("Age"), *_WIDE],
                    _deployment_row),
}

__all__ = ["WORKLOAD_PRINTERS"]
