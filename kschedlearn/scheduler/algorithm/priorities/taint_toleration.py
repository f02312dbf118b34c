"""TaintTolerationPriority: prefer nodes with fewer ``PreferNoSchedule`` taints the pod can't tolerate.

Go: plugin/pkg/scheduler/algorithm/priorities/taint_toleration.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/taint_toleration.go#L28-L108

Map: count the node's intolerable ``PreferNoSchedule`` taints. Reduce: the node(s) with the most
get 0, a node with none gets 10; if *no* node has any, every node gets 10 (spec 13.11).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any


from kschedlearn.api.v1.helpers import tolerations_tolerate_taint
from kschedlearn.scheduler.algorithm.priorities.balanced_resource_allocation import NodeNotFoundError
from kschedlearn.scheduler.algorithm.priorities.metadata import PriorityMetadata
from kschedlearn.scheduler.api.types import HostPriority
# Go's NodeInfo accessors are nil-safe: a node missing from nodeNameToInfo is a nil *NodeInfo, whose
# Node() is nil, Pods() empty, ... (node_info.go); ni.<accessor>(info) is that call, for None too.
from kschedlearn.scheduler.schedulercache import node_info as ni

if TYPE_CHECKING:
    from kschedlearn.api.v1 import Pod, Taint, Toleration
    from kschedlearn.scheduler.schedulercache.node_info import NodeInfo

#: Go: v1.TaintEffectPreferNoSchedule
TAINT_EFFECT_PREFER_NO_SCHEDULE = "PreferNoSchedule"


def _count_intolerable_taints_prefer_no_schedule(
    taints: "Sequence[Taint]", tolerations: "Sequence[Toleration]"
) -> int:
    """Number of ``PreferNoSchedule`` taints not covered by ``tolerations``.

    Go: func countIntolerableTaintsPreferNoSchedule(taints []v1.Taint, tolerations []v1.Toleration) (intolerableTaints int)
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/taint_toleration.go#L28-L42
    Differs from Go: calls ``v1.TolerationsTolerateTaint`` (same test as Go's
    ``TaintToleratedByTolerations``, arguments swapped).
    """
    intolerable_taints = 0
    for taint in taints:
        # NoSchedule/NoExecute taints are the predicate's business, not this priority's.
        if taint.effect != TAINT_EFFECT_PREFER_NO_SCHEDULE:
            continue
        if not tolerations_tolerate_taint(tolerations, taint):
            intolerable_taints += 1
    return intolerable_taints


def get_all_toleration_prefer_no_schedule(tolerations: "Sequence[Toleration]") -> "list[Toleration]":
    """Keep the tolerations that can cover a ``PreferNoSchedule`` taint (effect empty or that).

    Go: func getAllTolerationPreferNoSchedule(tolerations []v1.Toleration) (tolerationList []v1.Toleration)
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/taint_toleration.go#L44-L53
    Differs from Go: the Go name is unexported; the metadata module imports it, so it keeps no
    leading underscore.
    """
    toleration_list = []
    for toleration in tolerations:
        if len(toleration.effect) == 0 or toleration.effect == TAINT_EFFECT_PREFER_NO_SCHEDULE:
            toleration_list.append(toleration)
    return toleration_list


def compute_taint_toleration_priority_map(pod: "Pod", meta: Any, node_info: "NodeInfo") -> HostPriority:
    """Raw score = count of the node's intolerable ``PreferNoSchedule`` taints.

    The taints are read from the node object (``node.spec.taints``), not the NodeInfo cache.

    Go: func ComputeTaintTolerationPriorityMap(pod *v1.Pod, meta interface{}, nodeInfo *schedulercache.NodeInfo) (schedulerapi.HostPriority, error)
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/taint_toleration.go#L59-L81
    Differs from Go: raises ``NodeNotFoundError`` instead of returning an error.
    """
    node = ni.node(node_info)
    if node is None:
        raise NodeNotFoundError()
    if isinstance(meta, PriorityMetadata):
        tolerations_prefer_no_schedule: Sequence[Toleration] = meta.pod_tolerations
    else:
        tolerations_prefer_no_schedule = get_all_toleration_prefer_no_schedule(pod.spec.tolerations)
    return HostPriority(
        host=node.metadata.name,
        score=_count_intolerable_taints_prefer_no_schedule(node.spec.taints, tolerations_prefer_no_schedule),
    )


def compute_taint_toleration_priority_reduce(
    pod: "Pod", meta: Any, node_name_to_info: "dict[str, NodeInfo]", result: list[HostPriority]
) -> None:
    """Normalise in place: ``int((1 - count / maxCount) * 10)``; 10 for all if ``maxCount`` is 0.

    Go: func ComputeTaintTolerationPriorityReduce(pod *v1.Pod, meta interface{}, nodeNameToInfo map[string]*schedulercache.NodeInfo, result schedulerapi.HostPriorityList) error
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/taint_toleration.go#L83-L108
    Differs from Go: list elements are replaced with new HostPriority values (HostPriority is
    frozen); no V(10) log line.
    """
    max_count = 0
    for hp in result:
        if hp.score > max_count:
            max_count = hp.score
    max_count_float = float(max_count)

    for i, hp in enumerate(result):
        f_score = 10.0
        if max_count_float > 0:
            f_score = (1.0 - float(hp.score) / max_count_float) * 10
        result[i] = HostPriority(host=hp.host, score=int(f_score))
