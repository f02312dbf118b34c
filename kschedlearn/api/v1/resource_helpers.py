"""Condition helpers over pod and node status.

Go: ``pkg/api/v1/resource_helpers.go``,
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/api/v1/resource_helpers.go

The scheduler's podConditionUpdater calls :func:`update_pod_condition` to record
``PodScheduled=False, reason=Unschedulable`` (spec §2.9).
"""

from __future__ import annotations

import attrs

from kschedlearn.api.v1.node import NODE_READY, Node, NodeCondition, NodeStatus
from kschedlearn.api.v1.pod import CONDITION_TRUE, POD_READY, Pod, PodCondition, PodStatus

__all__ = [
    "get_node_condition",
    "get_pod_condition",
    "get_pod_ready_condition",
    "is_node_ready",
    "is_pod_available",
    "is_pod_ready",
    "update_pod_condition",
]


def get_pod_condition(status: PodStatus | None, condition_type: str) -> tuple[int, PodCondition | None]:
    """``(index, condition)`` of the first condition of that type, ``(-1, None)`` if absent.

    Go: GetPodCondition, https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/api/v1/resource_helpers.go#L115-L127
    """
    if status is None:
        return -1, None
    for i, condition in enumerate(status.conditions):
        if condition.type == condition_type:
            return i, condition
    return -1, None


def get_node_condition(status: NodeStatus | None, condition_type: str) -> tuple[int, NodeCondition | None]:
    """``(index, condition)`` of the first node condition of that type, ``(-1, None)`` if absent.

    Go: GetNodeCondition, https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/api/v1/resource_helpers.go#L129-L141
    """
    if status is None:
        return -1, None
    for i, condition in enumerate(status.conditions):
        if condition.type == condition_type:
            return i, condition
    return -1, None


def get_pod_ready_condition(status: PodStatus) -> PodCondition | None:
    """The pod's Ready condition or None.

    Go: GetPodReadyCondition, https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/api/v1/resource_helpers.go#L108-L113
    """
    _, condition = get_pod_condition(status, POD_READY)
    return condition


def is_pod_ready(pod: Pod) -> bool:
    """Whether the pod's Ready condition is True.

    Go: IsPodReady / IsPodReadyConditionTrue, https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/api/v1/resource_helpers.go#L97-L100
    """
    condition = get_pod_ready_condition(pod.status)
    return condition is not None and condition.status == CONDITION_TRUE


def is_pod_available(pod: Pod, min_ready_seconds: int, now: float) -> bool:
    """Ready, and (with ``min_ready_seconds``) ready for longer than that.

    Go: IsPodAvailable, https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/api/v1/resource_helpers.go#L79-L95
    """
    if not is_pod_ready(pod):
        return False
    c = get_pod_ready_condition(pod.status)
    assert c is not None
    if min_ready_seconds == 0 or (c.last_transition_time is not None
                                  and c.last_transition_time + min_ready_seconds < now):
        return True
    return False


def is_node_ready(node: Node) -> bool:
    """Whether the node's Ready condition is True (False if there is none).

    Go: IsNodeReady, https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/api/v1/resource_helpers.go#L173-L181
    """
    for condition in node.status.conditions:
        if condition.type == NODE_READY:
            return condition.status == CONDITION_TRUE
    return False


def update_pod_condition(
    status: PodStatus, condition: PodCondition, *, now: float | None = None
) -> tuple[bool, PodStatus]:
    """Add or replace a pod condition; report whether anything changed.

    The new condition's ``last_transition_time`` is ``now``, unless the status
    (True/False/Unknown) is unchanged, in which case the old transition time is kept.
    The boolean is True when the condition was added or any of status, reason,
    message, probe time or transition time differs.

    Go: UpdatePodCondition, https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/api/v1/resource_helpers.go#L143-L171

    Differs from Go: values are frozen, so instead of mutating ``status`` and
    ``condition`` this returns ``(changed, new_status)``; "now" comes from the
    ``now`` argument or, when omitted, from the simulated clock (``sim.now()``)
    rather than the wall clock.
    """
    if now is None:
        from kschedlearn import sim  # noqa: PLC0415 - only needed when the caller gives no time

        now = sim.now()
    condition = attrs.evolve(condition, last_transition_time=now)
    condition_index, old_condition = get_pod_condition(status, condition.type)

    if old_condition is None:
        return True, attrs.evolve(status, conditions=(*status.conditions, condition))

    if condition.status == old_condition.status:
        condition = attrs.evolve(condition, last_transition_time=old_condition.last_transition_time)

    is_equal = (
        condition.status == old_condition.status
        and condition.reason == old_condition.reason
        and condition.message == old_condition.message
        and condition.last_probe_time == old_condition.last_probe_time
        and condition.last_transition_time == old_condition.last_transition_time
    )

    conditions = list(status.conditions)
    conditions[condition_index] = condition
    return not is_equal, attrs.evolve(status, conditions=tuple(conditions))
