"""Condition helpers of pkg/api/v1/resource_helpers.go."""

from __future__ import annotations

from kschedlearn import sim
from kschedlearn.api import v1

SCHEDULED_FALSE = v1.PodCondition(type=v1.POD_SCHEDULED, status=v1.CONDITION_FALSE, reason=v1.POD_REASON_UNSCHEDULABLE)


def test_get_pod_condition():
    status = v1.PodStatus(conditions=(v1.PodCondition(type="Ready", status="True"), SCHEDULED_FALSE))
    assert v1.get_pod_condition(status, v1.POD_SCHEDULED) == (1, SCHEDULED_FALSE)
    assert v1.get_pod_condition(status, "Initialized") == (-1, None)
    assert v1.get_pod_condition(None, v1.POD_SCHEDULED) == (-1, None)


def test_update_pod_condition_adds_new_condition():
    changed, status = v1.update_pod_condition(v1.PodStatus(), SCHEDULED_FALSE, now=7.0)
    assert changed
    assert status.conditions == (SCHEDULED_FALSE.__class__(
        type="PodScheduled", status="False", reason="Unschedulable", last_transition_time=7.0
    ),)


def test_update_pod_condition_same_status_keeps_transition_time():
    _, status = v1.update_pod_condition(v1.PodStatus(), SCHEDULED_FALSE, now=7.0)
    changed, again = v1.update_pod_condition(status, SCHEDULED_FALSE, now=20.0)
    assert not changed
    assert again.conditions[0].last_transition_time == 7.0
    # A new message is a change, but the status did not flip: transition time kept.
    changed, msg = v1.update_pod_condition(status, v1.PodCondition(
        type=v1.POD_SCHEDULED, status="False", reason="Unschedulable", message="0/3 nodes"), now=30.0)
    assert changed and msg.conditions[0].message == "0/3 nodes"
    assert msg.conditions[0].last_transition_time == 7.0


def test_update_pod_condition_status_flip_sets_now():
    _, status = v1.update_pod_condition(v1.PodStatus(), SCHEDULED_FALSE, now=7.0)
    changed, flipped = v1.update_pod_condition(
        status, v1.PodCondition(type=v1.POD_SCHEDULED, status=v1.CONDITION_TRUE), now=9.0
    )
    assert changed
    assert len(flipped.conditions) == 1
    assert flipped.conditions[0].status == "True"
    assert flipped.conditions[0].last_transition_time == 9.0
    assert status.conditions[0].status == "False"  # the input is untouched


def test_update_pod_condition_defaults_to_simulated_clock():
    rt = sim.Runtime(seed=0)

    def body():
        sim.sleep(12.5)
        return v1.update_pod_condition(v1.PodStatus(), SCHEDULED_FALSE)

    changed, status = rt.run_fn(body)
    assert changed and status.conditions[0].last_transition_time == 12.5


def test_node_helpers():
    node = v1.Node(status=v1.NodeStatus(conditions=(
        v1.NodeCondition(type=v1.NODE_MEMORY_PRESSURE, status="False"),
        v1.NodeCondition(type=v1.NODE_READY, status="True"),
    )))
    assert v1.is_node_ready(node)
    assert v1.get_node_condition(node.status, v1.NODE_READY)[0] == 1
    assert not v1.is_node_ready(v1.Node())
    pod = v1.Pod(status=v1.PodStatus(conditions=(v1.PodCondition(type=v1.POD_READY, status="True"),)))
    assert v1.is_pod_ready(pod) and not v1.is_pod_ready(v1.Pod())
