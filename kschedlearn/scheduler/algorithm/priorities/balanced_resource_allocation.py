"""BalancedResourceAllocation: prefer nodes whose cpu and memory would be used in equal shares.

Go: plugin/pkg/scheduler/algorithm/priorities/balanced_resource_allocation.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/balanced_resource_allocation.go

The Go file also holds the image-size constants of ImageLocalityPriority and the pod-side
``getNonZeroRequests`` shared by all the request-based priorities; they stay here, as in Go.
Arithmetic is float64 in Go, i.e. Python ``float``; Go's ``int(x)`` truncates, like ``int()``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kschedlearn.scheduler.algorithm.priorities.metadata import PriorityMetadata
from kschedlearn.scheduler.algorithm.priorities.util.non_zero import get_nonzero_requests
from kschedlearn.scheduler.api.types import HostPriority
from kschedlearn.scheduler.schedulercache.node_info import Resource
# Go's NodeInfo accessors are nil-safe: a node missing from nodeNameToInfo is a nil *NodeInfo, whose
# Node() is nil, Pods() empty, ... (node_info.go); ni.<accessor>(info) is that call, for None too.
from kschedlearn.scheduler.schedulercache import node_info as ni

if TYPE_CHECKING:
    from kschedlearn.api.v1 import Pod
    from kschedlearn.scheduler.schedulercache.node_info import NodeInfo

# Image sizes for ImageLocalityPriority (Go keeps them in this file).
#: Go: mb = 1024 * 1024
MB: int = 1024 * 1024
#: Go: minImgSize -- images smaller than this earn no locality score.
MIN_IMG_SIZE: int = 23 * MB
#: Go: maxImgSize -- images this big or bigger earn the full score.
MAX_IMG_SIZE: int = 1000 * MB


class NodeNotFoundError(Exception):
    """A NodeInfo without a node object was handed to a priority (Go: ``fmt.Errorf("node not found")``).

    Differs from Go: Go returns an untyped error; this class keeps the same message.
    """

    def __init__(self) -> None:
        super().__init__("node not found")


def get_non_zero_requests(pod: "Pod") -> Resource:
    """The pod's cpu/memory requests, with the non-zero defaults for containers that state none.

    Init containers are ignored here (they only matter to the predicates).

    Go: func getNonZeroRequests(pod *v1.Pod) *schedulercache.Resource
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/balanced_resource_allocation.go#L38-L49
    """
    result = Resource()
    for container in pod.spec.containers:
        cpu, memory = get_nonzero_requests(container.resources.requests)
        result.milli_cpu += cpu
        result.memory += memory
    return result


def balanced_resource_allocation_map(pod: "Pod", meta: Any, node_info: "NodeInfo") -> HostPriority:
    """Score 10 when cpu and memory fractions would be equal, less the further apart they are.

    Go: func BalancedResourceAllocationMap(pod *v1.Pod, meta interface{}, nodeInfo *schedulercache.NodeInfo) (schedulerapi.HostPriority, error)
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/balanced_resource_allocation.go#L101-L116
    """
    if isinstance(meta, PriorityMetadata):
        non_zero_request = meta.non_zero_request
    else:
        # No usable metadata: compute the pod's requests ourselves, as Go does.
        non_zero_request = get_non_zero_requests(pod)
    return _calculate_balanced_resource_allocation(pod, non_zero_request, node_info)


def _fraction_of_capacity(requested: int, capacity: int) -> float:
    """``requested / capacity`` as float64; a zero capacity counts as completely full (1).

    Go: func fractionOfCapacity(requested, capacity int64) float64
    """
    if capacity == 0:
        return 1.0
    return float(requested) / float(capacity)


def _calculate_balanced_resource_allocation(
    pod: "Pod", pod_requests: Resource, node_info: "NodeInfo"
) -> HostPriority:
    """``int(10 - |cpuFraction - memFraction| * 10)``, or 0 if either fraction reaches 1.

    Go: func calculateBalancedResourceAllocation(pod *v1.Pod, podRequests *schedulercache.Resource, nodeInfo *schedulercache.NodeInfo) (schedulerapi.HostPriority, error)
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/balanced_resource_allocation.go#L51-L92
    Differs from Go: raises ``NodeNotFoundError`` instead of returning an error.
    """
    node = ni.node(node_info)
    if node is None:
        raise NodeNotFoundError()

    allocatable_resources = ni.allocatable_resource(node_info)
    # Go copies the struct (``*podRequests``) before adding the node's load to it.
    total_resources = pod_requests.clone()
    total_resources.milli_cpu += ni.nonzero_request(node_info).milli_cpu
    total_resources.memory += ni.nonzero_request(node_info).memory

    cpu_fraction = _fraction_of_capacity(total_resources.milli_cpu, allocatable_resources.milli_cpu)
    memory_fraction = _fraction_of_capacity(total_resources.memory, allocatable_resources.memory)
    score = 0
    if cpu_fraction >= 1 or memory_fraction >= 1:
        # A node that would be full on either resource is never "balanced".
        score = 0
    else:
        # 0 <= diff < 1, so the score lies in 1..10 before truncation.
        diff = abs(cpu_fraction - memory_fraction)
        score = int(10 - diff * 10)
    return HostPriority(host=node.metadata.name, score=score)
