"""NodeAffinityPriority: prefer nodes matching the pod's *preferred* node-affinity terms.

Go: plugin/pkg/scheduler/algorithm/priorities/node_affinity.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/node_affinity.go#L29-L101

Map: add up the weights of the preferred terms a node matches. Reduce: scale so that the best
node gets 10 (float64 arithmetic, divide first, then truncate).
"""

from __future__ import annotations

from kschedlearn.apimachinery._goint import int32

from typing import TYPE_CHECKING, Any


from kschedlearn.api.v1.helpers import node_selector_requirements_as_selector
from kschedlearn.scheduler.algorithm.priorities.balanced_resource_allocation import NodeNotFoundError
from kschedlearn.scheduler.algorithm.priorities.metadata import PriorityMetadata
from kschedlearn.scheduler.api.types import HostPriority
from kschedlearn.scheduler.schedulercache.reconcile_affinity import reconcile_affinity
# Go's NodeInfo accessors are nil-safe: a node missing from nodeNameToInfo is a nil *NodeInfo, whose
# Node() is nil, Pods() empty, ... (node_info.go); ni.<accessor>(info) is that call, for None too.
from kschedlearn.scheduler.schedulercache import node_info as ni

if TYPE_CHECKING:
    from kschedlearn.api.v1 import Pod
    from kschedlearn.scheduler.schedulercache.node_info import NodeInfo


def calculate_node_affinity_priority_map(pod: "Pod", meta: Any, node_info: "NodeInfo") -> HostPriority:
    """Raw score = sum of ``weight`` over the preferred terms whose expressions match the node.

    A term with weight 0 is skipped; a term with no expressions matches no node; an invalid
    expression raises.

    Go: func CalculateNodeAffinityPriorityMap(pod *v1.Pod, meta interface{}, nodeInfo *schedulercache.NodeInfo) (schedulerapi.HostPriority, error)
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/node_affinity.go#L29-L75
    Differs from Go: raises instead of returning an error.
    """
    node = ni.node(node_info)
    if node is None:
        raise NodeNotFoundError()

    if isinstance(meta, PriorityMetadata):
        affinity = meta.affinity
    else:
        affinity = reconcile_affinity(pod)

    count = 0
    # Only the *preferred* terms matter here; required ones are the predicate's business.
    if affinity is not None and affinity.node_affinity is not None:
        for preferred_scheduling_term in affinity.node_affinity.preferred_during_scheduling_ignored_during_execution:
            if preferred_scheduling_term.weight == 0:
                continue
            node_selector = node_selector_requirements_as_selector(
                preferred_scheduling_term.preference.match_expressions
            )
            if node_selector.matches(node.metadata.labels):
                # Go: ``var count int32`` — the sum of weights wraps at 32 bits
                count = int32(count + preferred_scheduling_term.weight)
    return HostPriority(host=node.metadata.name, score=count)


def calculate_node_affinity_priority_reduce(
    pod: "Pod", meta: Any, node_name_to_info: "dict[str, NodeInfo]", result: list[HostPriority]
) -> None:
    """Normalise in place: ``int(10 * (count / maxCount))``, or 0 everywhere if no node matched.

    Go: func CalculateNodeAffinityPriorityReduce(pod *v1.Pod, meta interface{}, nodeNameToInfo map[string]*schedulercache.NodeInfo, result schedulerapi.HostPriorityList) error
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/node_affinity.go#L77-L101
    Differs from Go: ``HostPriority`` is frozen, so each list element is replaced by a
    new ``HostPriority`` with the same host (``attrs.evolve`` would cost more for two fields); no V(10) log line.
    """
    max_count = 0
    for hp in result:
        if hp.score > max_count:
            max_count = hp.score
    max_count_float = float(max_count)

    for i, hp in enumerate(result):
        if max_count > 0:
            f_score = 10 * (float(hp.score) / max_count_float)
        else:
            f_score = 0.0
        result[i] = HostPriority(host=hp.host, score=int(f_score))
