"""LeastRequestedPriority: prefer nodes with the most unrequested cpu and memory left.

Go: plugin/pkg/scheduler/algorithm/priorities/least_requested.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/least_requested.go#L29-L91

All arithmetic is int64 in Go; the operands are never negative, so Python's ``//`` gives the
same results as Go's truncating ``/``.
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


def least_requested_priority_map(pod: "Pod", meta: Any, node_info: "NodeInfo") -> HostPriority:
    """Score = mean of the cpu and memory "free share" scores, each 0..10.

    Go: func LeastRequestedPriorityMap(pod *v1.Pod, meta interface{}, nodeInfo *schedulercache.NodeInfo) (schedulerapi.HostPriority, error)
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/least_requested.go#L29-L42
    """
    if isinstance(meta, PriorityMetadata):
        non_zero_request = meta.non_zero_request
    else:
        non_zero_request = get_non_zero_requests(pod)
    return _calculate_unused_priority(pod, non_zero_request, node_info)


def _calculate_unused_score(requested: int, capacity: int, node: str) -> int:
    """``(capacity - requested) * 10 / capacity`` in int64; 0 for zero capacity or over-commitment.

    Go: func calculateUnusedScore(requested int64, capacity int64, node string) int64
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/least_requested.go#L44-L57
    Differs from Go: the V(10) log line for over-commitment is not emitted.
    """
    if capacity == 0:
        return 0
    if requested > capacity:
        return 0
    return div64(int64(int64(capacity - requested) * 10), capacity)


def _calculate_unused_priority(pod: "Pod", pod_requests: "Resource", node_info: "NodeInfo") -> HostPriority:
    """Add the node's non-zero load to the pod's request and score what would remain.

    Go: func calculateUnusedPriority(pod *v1.Pod, podRequests *schedulercache.Resource, nodeInfo *schedulercache.NodeInfo) (schedulerapi.HostPriority, error)
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/least_requested.go#L59-L91
    Differs from Go: raises ``NodeNotFoundError``; no V(10) log line.
    """
    node = ni.node(node_info)
    if node is None:
        raise NodeNotFoundError()

    allocatable_resources = ni.allocatable_resource(node_info)
    total_resources = pod_requests.clone()
    total_resources.milli_cpu = int64(total_resources.milli_cpu + ni.nonzero_request(node_info).milli_cpu)
    total_resources.memory = int64(total_resources.memory + ni.nonzero_request(node_info).memory)

    cpu_score = _calculate_unused_score(total_resources.milli_cpu, allocatable_resources.milli_cpu, node.metadata.name)
    memory_score = _calculate_unused_score(total_resources.memory, allocatable_resources.memory, node.metadata.name)
    return HostPriority(host=node.metadata.name, score=div64(int64(cpu_score + memory_score), 2))
