"""NodePreferAvoidPodsPriority: keep an RC's/RS's pods off nodes annotated to avoid them.

Go: plugin/pkg/scheduler/algorithm/priorities/node_prefer_avoid_pods.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/node_prefer_avoid_pods.go#L28-L60

A node can carry the annotation ``scheduler.alpha.kubernetes.io/preferAvoidPods`` listing
controllers whose pods it would rather not run. Such a node scores 0 for those pods and 10
otherwise. The DefaultProvider weighs this priority 10000, so it outweighs all others together.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kschedlearn.api.v1.helpers import get_avoid_pods_from_node_annotations
from kschedlearn.scheduler.algorithm.priorities.balanced_resource_allocation import NodeNotFoundError
from kschedlearn.scheduler.algorithm.priorities.util.util import get_controller_ref
from kschedlearn.scheduler.api.types import HostPriority
# Go's NodeInfo accessors are nil-safe: a node missing from nodeNameToInfo is a nil *NodeInfo, whose
# Node() is nil, Pods() empty, ... (node_info.go); ni.<accessor>(info) is that call, for None too.
from kschedlearn.scheduler.schedulercache import node_info as ni

if TYPE_CHECKING:
    from kschedlearn.api.v1 import Pod
    from kschedlearn.scheduler.schedulercache.node_info import NodeInfo

def calculate_node_prefer_avoid_pods_priority_map(pod: "Pod", meta: Any, node_info: "NodeInfo") -> HostPriority:
    """0 if the node asks to avoid the pod's ReplicationController/ReplicaSet, else 10.

    Pods without a controller, or owned by another kind (Job, StatefulSet, DaemonSet, ...),
    always get 10, and so does every node whose annotation cannot be parsed.

    Go: func CalculateNodePreferAvoidPodsPriorityMap(pod *v1.Pod, meta interface{}, nodeInfo *schedulercache.NodeInfo) (schedulerapi.HostPriority, error)
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/node_prefer_avoid_pods.go#L28-L60
    Differs from Go: raises ``NodeNotFoundError`` instead of returning an error.
    """
    node = ni.node(node_info)
    if node is None:
        raise NodeNotFoundError()

    controller_ref = get_controller_ref(pod)
    if controller_ref is not None:
        # Only RC- and RS-owned pods can be avoided in 1.6.
        if controller_ref.kind != "ReplicationController" and controller_ref.kind != "ReplicaSet":
            controller_ref = None
    if controller_ref is None:
        return HostPriority(host=node.metadata.name, score=10)

    try:
        avoids = get_avoid_pods_from_node_annotations(node.metadata.annotations)
    except ValueError:
        # An unreadable annotation is treated as "nothing to avoid", as in Go.
        return HostPriority(host=node.metadata.name, score=10)

    for avoid in avoids.prefer_avoid_pods:
        # Like Go, an entry without podController would dereference nil (here: AttributeError).
        pod_controller = avoid.pod_signature.pod_controller
        if pod_controller.kind == controller_ref.kind and pod_controller.uid == controller_ref.uid:  # type: ignore[union-attr]
            return HostPriority(host=node.metadata.name, score=0)
    return HostPriority(host=node.metadata.name, score=10)
