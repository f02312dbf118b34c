"""MostRequestedPriority: prefer the fullest nodes (bin packing; ClusterAutoscalerProvider).

Go: plugin/pkg/scheduler/algorithm/priorities/most_requested.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/most_requested.go#L29-L94

The mirror image of LeastRequestedPriority: the same inputs, but the *used* share is scored.
"""

from __future__ import annotations

from kschedlearn.apimachinery._goint import div64, int64

from typing import TYPE_CHECKING, Any

from kschedlearn.scheduler.algorithm.priorities.balanced_resource_allocation import (
    NodeNotFoundError,
    get_non_zero_requests,
)
from kschedlearn.scheduler.algorithm.priorities.metadata import PriorityMetadata
from kschedlearn.scheduler.api.types import HostPriority
# Go's NodeInfo accessors are nil-safe: a node missing from nodeNameToInfo is a nil *NodeInfo, whose
# Node() is nil, Pods() empty, ... (node_info.go); ni.<accessor>(info) is that call, for None too.
from kschedlearn.scheduler.schedulercache import node_info as ni

if TYPE_CHECKING:
    from kschedlearn.api.v1 import Pod
    from kschedlearn.scheduler.schedulercache.node_info import NodeInfo, Resource


def most_requested_priority_map(pod: "Pod", meta: Any, node_info: "NodeInfo") -> HostPriority:
    """Score = mean of the cpu and memory "used share" scores, each 0..10.

    Go: func MostRequestedPriorityMap(pod *v1.Pod, meta interface{}, nodeInfo *schedulercache.NodeInfo) (schedulerapi.HostPriority, error)
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/most_requested.go#L29-L42
    """
    if isinstance(meta, PriorityMetadata):
        non_zero_request = meta.non_zero_request
    else:
        non_zero_request = get_non_zero_requests(pod)
    return _calculate_used_priority(pod, non_zero_request, node_info)


def _calculate_used_score(requested: int, capacity: int, node: str) -> int:
    """``requested * 10 / capacity`` in int64; 0 for zero capacity or over-commitment.

    Go: func calculateUsedScore(requested int64, capacity int64, node string) int64
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/most_requested.go#L44-L61
    Differs from Go: the V(10) log line for over-commitment is not emitted.
    """
    if capacity == 0:
        return 0
    if requested > capacity:
        return 0
    return div64(int64(requested * 10), capacity)


def _calculate_used_priority(pod: "Pod", pod_requests: "Resource", node_info: "NodeInfo") -> HostPriority:
    """Add the node's non-zero load to the pod's request and score how full the node would be.

    Go: func calculateUsedPriority(pod *v1.Pod, podRequests *schedulercache.Resource, nodeInfo *schedulercache.NodeInfo) (schedulerapi.HostPriority, error)
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/most_requested.go#L63-L94
    Differs from Go: raises ``NodeNotFoundError``; no V(10) log line.
    """
    node = ni.node(node_info)
    if node is None:
        raise NodeNotFoundError()

    allocatable_resources = ni.allocatable_resource(node_info)
    total_resources = pod_requests.clone()
    total_resources.milli_cpu = int64(total_resources.milli_cpu + ni.nonzero_request(node_info).milli_cpu)
    total_resources.memory = int64(total_resources.memory + ni.nonzero_request(node_info).memory)

    cpu_score = _calculate_used_score(total_resources.milli_cpu, allocatable_resources.milli_cpu, node.metadata.name)
    memory_score = _calculate_used_score(total_resources.memory, allocatable_resources.memory, node.metadata.name)
    return HostPriority(host=node.metadata.name, score=div64(int64(cpu_score + memory_score), 2))
