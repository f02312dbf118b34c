"""NodePreferAvoidPodsPriority: keep an RC's/RS's pods off nodes annotated to avoid them.

Go: plugin/pkg/scheduler/algorithm/priorities/node_prefer_avoid_pods.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/node_prefer_avoid_pods.go#L28-L60

A node can carry the annotation ``scheduler.alpha.kubernetes.io/preferAvoidPods`` listing
controllers whose pods it would rather not run. Such a node scores 0 for those pods and 10
otherwise. The DefaultProvider weighs this priority 10000, so it outweighs all others together.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from kschedlearn.scheduler.algorithm.priorities.balanced_resource_allocation import NodeNotFoundError
from kschedlearn.scheduler.algorithm.priorities.util.util import get_controller_ref
from kschedlearn.scheduler.api.types import HostPriority

if TYPE_CHECKING:
    from kschedlearn.api.v1 import Pod
    from kschedlearn.scheduler.schedulercache.node_info import NodeInfo

#: Go: v1.PreferAvoidPodsAnnotationKey
PREFER_AVOID_PODS_ANNOTATION_KEY = "scheduler.alpha.kubernetes.io/preferAvoidPods"


def _get_avoid_pods_controllers_from_node_annotations(annotations: Mapping[str, str]) -> list[tuple[str, str]]:
    """Parse the preferAvoidPods annotation into ``(kind, uid)`` pairs of the controllers to avoid.

    No annotation → empty list. Malformed JSON raises ``ValueError``.

    Go: func GetAvoidPodsFromNodeAnnotations(annotations map[string]string) (AvoidPods, error) (pkg/api/v1/helpers.go)
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/api/v1/helpers.go#L445-L454
    Differs from Go: a private helper that keeps only the two fields this priority compares
    (``podSignature.podController.kind`` and ``.uid``) instead of decoding the whole
    ``AvoidPods`` struct.
    """
    value = annotations.get(PREFER_AVOID_PODS_ANNOTATION_KEY)
    if value is None:
        return []
    doc = json.loads(value)
    if not isinstance(doc, dict):
        raise ValueError(f"{PREFER_AVOID_PODS_ANNOTATION_KEY}: expected a JSON object")
    controllers = []
    for avoid in doc.get("preferAvoidPods") or []:
        pod_controller = ((avoid or {}).get("podSignature") or {}).get("podController") or {}
        controllers.append((str(pod_controller.get("kind", "")), str(pod_controller.get("uid", ""))))
    return controllers


def calculate_node_prefer_avoid_pods_priority_map(pod: "Pod", meta: Any, node_info: "NodeInfo") -> HostPriority:
    """0 if the node asks to avoid the pod's ReplicationController/ReplicaSet, else 10.

    Pods without a controller, or owned by another kind (Job, StatefulSet, DaemonSet, ...),
    always get 10, and so does every node whose annotation cannot be parsed.

    Go: func CalculateNodePreferAvoidPodsPriorityMap(pod *v1.Pod, meta interface{}, nodeInfo *schedulercache.NodeInfo) (schedulerapi.HostPriority, error)
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/node_prefer_avoid_pods.go#L28-L60
    Differs from Go: raises ``NodeNotFoundError`` instead of returning an error.
    """
    node = node_info.node()
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
        avoids = _get_avoid_pods_controllers_from_node_annotations(node.metadata.annotations)
    except (ValueError, AttributeError):
        # An unreadable annotation is treated as "nothing to avoid", as in Go.
        return HostPriority(host=node.metadata.name, score=10)

    for kind, uid in avoids:
        if kind == controller_ref.kind and uid == controller_ref.uid:
            return HostPriority(host=node.metadata.name, score=0)
    return HostPriority(host=node.metadata.name, score=10)
