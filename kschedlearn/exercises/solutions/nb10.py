"""Solutions for notebook 10: a custom predicate and priority, wired through a policy file.

Go: plugin/pkg/scheduler/factory/plugins.go (RegisterFitPredicate, RegisterPriorityFunction2)
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/factory/plugins.go
"""

from __future__ import annotations

from typing import Any

from kschedlearn.api.v1 import Pod
from kschedlearn.scheduler.algorithm.predicates.error import new_failure_reason
from kschedlearn.scheduler.api.types import HostPriority
from kschedlearn.scheduler.factory.plugins import (
    PluginRegistry,
    register_fit_predicate,
    register_priority_function2,
)
from kschedlearn.scheduler.schedulercache.node_info import NodeInfo


def dedicated_nodes_predicate(pod: Pod, meta: Any, node_info: NodeInfo) -> tuple[bool, list[Any]]:
    """A node labelled ``dedicated=<team>`` takes only pods labelled ``team=<team>``."""
    node = node_info.node()
    if node is None:
        raise RuntimeError("node not found")
    team = node.metadata.labels.get("dedicated")
    if team is None or pod.metadata.labels.get("team") == team:
        return True, []
    return False, [new_failure_reason(f"node is dedicated to team {team}")]


def fewest_pods_priority_map(pod: Pod, meta: Any, node_info: NodeInfo) -> HostPriority:
    """Score ``max(0, 10 - number of pods on the node)``."""
    node = node_info.node()
    if node is None:
        raise RuntimeError("node not found")
    return HostPriority(host=node.metadata.name, score=max(0, 10 - len(node_info.pods())))


def register_plugins(registry: PluginRegistry) -> None:
    """Register predicate ``DedicatedNodes`` and priority ``FewestPods`` (weight 1) in ``registry``.

    Go: factory.RegisterFitPredicate and factory.RegisterPriorityFunction2 (plugins.go). The
    predicate: a node labelled ``dedicated=<team>`` accepts only pods labelled
    ``team=<team>`` (failure reason: any ``new_failure_reason(...)``); nodes without the label
    accept every pod. The priority map: ``max(0, 10 - len(node_info.pods()))``. Pass
    ``registry=registry`` to both register functions.
    """
    register_fit_predicate("DedicatedNodes", dedicated_nodes_predicate, registry=registry)
    register_priority_function2("FewestPods", fewest_pods_priority_map, None, 1, registry=registry)
