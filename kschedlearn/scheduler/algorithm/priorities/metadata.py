"""Per-pod data computed once per scheduling attempt and shared by the map functions.

Go: plugin/pkg/scheduler/algorithm/priorities/metadata.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/metadata.go#L24-L46

``PrioritizeNodes`` calls the metadata producer once, then hands the result to every map
function for every node, so the pod's requests, tolerations and affinity are not recomputed
N times. Every map function also works without it (``meta=None``) by computing the value itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

import attrs

from kschedlearn.scheduler.schedulercache.node_info import Resource
from kschedlearn.scheduler.schedulercache.reconcile_affinity import reconcile_affinity

if TYPE_CHECKING:
    from kschedlearn.api.v1 import Affinity, Pod, Toleration
    from kschedlearn.scheduler.schedulercache.node_info import NodeInfo


@attrs.frozen(kw_only=True)
class PriorityMetadata:
    """What the priority functions want to know about the pod being scheduled.

    Go: type priorityMetadata struct { nonZeroRequest; podTolerations; affinity }
    Differs from Go: the Go struct is unexported (``priorityMetadata``) and its producer is the
    exported function ``PriorityMetadata``; Python cannot give a class and a function the same
    name, so the class takes the CamelCase name and the producer is ``priority_metadata``.
    """

    non_zero_request: Resource
    pod_tolerations: "tuple[Toleration, ...]"
    affinity: "Optional[Affinity]"


def priority_metadata(pod: "Optional[Pod]", node_name_to_info: "dict[str, NodeInfo]") -> Optional[PriorityMetadata]:
    """Compute the metadata for ``pod``; ``None`` when there is no pod.

    Go: func PriorityMetadata(pod *v1.Pod, nodeNameToInfo map[string]*schedulercache.NodeInfo) interface{}
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/metadata.go#L31-L46
    """
    # Imported here, once per pod, so that the map functions (run once per node) can import
    # PriorityMetadata at their module's top instead of inside every call.
    from kschedlearn.scheduler.algorithm.priorities.balanced_resource_allocation import (  # noqa: PLC0415
        get_non_zero_requests,
    )
    from kschedlearn.scheduler.algorithm.priorities.taint_toleration import (  # noqa: PLC0415
        get_all_toleration_prefer_no_schedule,
    )

    # A nil pod cannot be described; the map functions then fall back to their slow paths.
    if pod is None:
        return None
    return PriorityMetadata(
        non_zero_request=get_non_zero_requests(pod),
        pod_tolerations=tuple(get_all_toleration_prefer_no_schedule(pod.spec.tolerations)),
        affinity=reconcile_affinity(pod),
    )
