"""ImageLocalityPriority: prefer nodes that already have the pod's container images.

Go: plugin/pkg/scheduler/algorithm/priorities/image_locality.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/image_locality.go#L27-L79

The score grows with the total size of the images present, between ``MIN_IMG_SIZE`` (23 MiB,
score 0 below it) and ``MAX_IMG_SIZE`` (1000 MiB, score 10 from there on). Registered in 1.6 but
not part of any provider; usable from a policy file.
"""

from __future__ import annotations

from kschedlearn.apimachinery._goint import div64, int64

from typing import TYPE_CHECKING, Any

from kschedlearn.scheduler.algorithm.priorities.balanced_resource_allocation import (
    MAX_IMG_SIZE,
    MIN_IMG_SIZE,
    NodeNotFoundError,
)
from kschedlearn.scheduler.api.types import HostPriority
# Go's NodeInfo accessors are nil-safe: a node missing from nodeNameToInfo is a nil *NodeInfo, whose
# Node() is nil, Pods() empty, ... (node_info.go); ni.<accessor>(info) is that call, for None too.
from kschedlearn.scheduler.schedulercache import node_info as ni

if TYPE_CHECKING:
    from kschedlearn.api.v1 import Container, Node, Pod
    from kschedlearn.scheduler.schedulercache.node_info import NodeInfo


def image_locality_priority_map(pod: "Pod", meta: Any, node_info: "NodeInfo") -> HostPriority:
    """Sum the sizes of the pod's images already on the node, and turn the sum into 0..10.

    Go: func ImageLocalityPriorityMap(pod *v1.Pod, meta interface{}, nodeInfo *schedulercache.NodeInfo) (schedulerapi.HostPriority, error)
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/image_locality.go#L27-L46
    Differs from Go: raises ``NodeNotFoundError`` instead of returning an error.
    """
    node = ni.node(node_info)
    if node is None:
        raise NodeNotFoundError()

    sum_size = 0
    # Init containers are not considered, only the regular ones.
    for container in pod.spec.containers:
        sum_size = int64(sum_size + _check_container_image_on_node(node, container))
    return HostPriority(host=node.metadata.name, score=_calculate_score_from_size(sum_size))


def _calculate_score_from_size(sum_size: int) -> int:
    """0 below the minimum size, 10 at or above the maximum, else a linear 1..10.

    Go: func calculateScoreFromSize(sumSize int64) int
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/image_locality.go#L48-L66
    Differs from Go: no V(10) log line. The int64 arithmetic wraps and truncates as Go's
    does (``_goint``).
    """
    if sum_size == 0 or sum_size < MIN_IMG_SIZE:
        # No image, or only a tiny one: downloading it costs next to nothing anyway.
        score = 0
    elif sum_size >= MAX_IMG_SIZE:
        score = 10
    else:
        score = div64(int64(10 * (sum_size - MIN_IMG_SIZE)), MAX_IMG_SIZE - MIN_IMG_SIZE) + 1
    return score


def _check_container_image_on_node(node: "Node", container: "Container") -> int:
    """Size in bytes of the first node image listing exactly ``container.image``, else 0.

    The comparison is plain string equality: ``nginx`` and ``nginx:latest`` are different.

    Go: func checkContainerImageOnNode(node *v1.Node, container *v1.Container) int64
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/image_locality.go#L68-L79
    """
    for image in node.status.images:
        for name in image.names:
            if container.image == name:
                return image.size_bytes
    return 0
