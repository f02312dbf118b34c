"""Small builders of API objects and scenario edits, shared by the activity modules.

Go: none — kschedlearn-only. The same shapes the notebooks build in their cells (notebook 06's
``node()`` and ``pod()``), so an activity's truth runs on the setup the learner saw.
"""

from __future__ import annotations

from typing import Any

import attrs

from kschedlearn.api.v1 import Node, Pod
from kschedlearn.scenarios.scenario import Scenario


def node(name: str, cpu: str = "2", mem: str = "4Gi", labels: dict[str, str] | None = None,
         taints: tuple[dict[str, str], ...] | list[dict[str, str]] = ()) -> Node:
    """A Ready node with that allocatable CPU and memory (110 pods)."""
    res = {"cpu": cpu, "memory": mem, "pods": "110"}
    return Node.from_dict({"metadata": {"name": name, "labels": labels or {}}, "spec": {"taints": list(taints)},
                           "status": {"capacity": res, "allocatable": res,
                                      "conditions": [{"type": "Ready", "status": "True"}]}})


def pod(name: str, cpu: str | None = None, mem: str | None = None, host_port: int | None = None,
        protocol: str = "TCP", **spec: Any) -> Pod:
    """A pod in ``default`` with one container (its requests and host port as given)."""
    req = {k: v for k, v in (("cpu", cpu), ("memory", mem)) if v}
    c: dict[str, Any] = {"name": "c", "image": "nginx", "resources": {"requests": req} if req else {}}
    if host_port:
        c["ports"] = [{"containerPort": host_port, "hostPort": host_port, "protocol": protocol}]
    return Pod.from_dict({"metadata": {"name": name, "namespace": "default"}, "spec": {"containers": [c], **spec}})


def node_info(n: Node, *pods: Pod) -> Any:
    """A NodeInfo holding ``pods`` on node ``n``."""
    from kschedlearn.scheduler.schedulercache.node_info import new_node_info

    info = new_node_info(*pods)
    info.set_node(n)
    return info


def move_action(scenario: Scenario, name: str, at: float) -> Scenario:
    """``scenario`` with the timeline action that creates or kills ``name`` moved to time ``at``."""
    timeline = []
    for a in scenario.timeline:
        arg_name = a.arg if isinstance(a.arg, str) else getattr(getattr(a.arg, "metadata", None), "name", None)
        timeline.append(attrs.evolve(a, at=at) if arg_name == name else a)
    return attrs.evolve(scenario, timeline=tuple(sorted(timeline, key=lambda a: a.at)))


def replace_kill(scenario: Scenario, victim: str) -> Scenario:
    """``scenario`` with its ``kill`` action aimed at ``victim`` instead."""
    return attrs.evolve(scenario, timeline=tuple(attrs.evolve(a, arg=victim) if a.kind == "kill" else a
                                                 for a in scenario.timeline))


__all__ = ["move_action", "node", "node_info", "pod", "replace_kill"]
