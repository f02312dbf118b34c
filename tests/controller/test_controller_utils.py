"""The Go tests of pkg/controller's shared helpers (expectations, active pods, replica sets), ported.

Go: pkg/controller/controller_utils_test.go. Go's goroutines that observe creations are plain
calls here (the order does not matter to the counts); the fake clock is the virtual one.
"""

from __future__ import annotations

import random

import attrs
import pytest

from kschedlearn.api.v1 import (
    CONDITION_TRUE,
    POD_FAILED,
    POD_PENDING,
    POD_READY,
    POD_RUNNING,
    POD_SUCCEEDED,
    PodCondition,
)
from kschedlearn.apimachinery._gosort import sort_by_less
from kschedlearn.controller import controller_utils as controller
from controller_harness import new_env, new_pod_list, new_replica_set, new_replication_controller


def test_controller_expectations() -> None:
    """Go: TestControllerExpectations — observed adds and deletes satisfy, a new round resets, the
    TTL (5 min in 1.6's ControlleeExpectations) expires them."""
    env = new_env()

    def body() -> None:
        e = controller.new_controller_expectations()
        adds, dels = 10, 30
        rc_key = "default/foobar"
        e.set_expectations(rc_key, adds, dels)
        for _ in range(adds + 1):
            e.creation_observed(rc_key)
        assert not e.satisfied_expectations(rc_key), "Rc will sync before expectations are met"
        for _ in range(dels + 1):
            e.deletion_observed(rc_key)
        pod_exp, exists = e.get_expectations(rc_key)
        assert exists and pod_exp.get_expectations() == (-1, -1)
        assert e.satisfied_expectations(rc_key), "Expectations are met but the rc will not sync"
        e.set_expectations(rc_key, 1, 2)
        pod_exp, exists = e.get_expectations(rc_key)
        assert exists and pod_exp.get_expectations() == (1, 2)
        env.rt.now += controller.EXPECTATIONS_TIMEOUT + 1  # Go: fakeClock.Step(ttl + 1)
        assert e.satisfied_expectations(rc_key), "Expectations should have expired but didn't"

    env.run(body)


def test_uid_expectations() -> None:
    """Go: TestUIDExpectations — deletions are tracked by pod key, per controller."""
    uid_exp = controller.new_uid_tracking_controller_expectations(controller.new_controller_expectations())
    rc_to_pods: dict[str, list[str]] = {}
    keys = []
    env = new_env()

    def body() -> None:
        for i, replicas in enumerate((2, 1, 0, 5)):
            rc = new_replication_controller(replicas)
            name = f"rc-{i}"
            rc = attrs.evolve(rc, metadata=attrs.evolve(rc.metadata, name=name),
                              spec=attrs.evolve(rc.spec, selector={**rc.spec.selector, name: name}))
            pods = new_pod_list(None, 5, POD_RUNNING, rc, "pod")
            key = f"default/{name}"
            keys.append(key)
            rc_to_pods[key] = [f"default/{p.metadata.name}-{name}" for p in pods]
            uid_exp.expect_deletions(key, rc_to_pods[key])
        random.Random(1).shuffle(keys)
        for key in keys:
            assert not uid_exp.satisfied_expectations(key), f"Controller {key} satisfied expectations before deletion"
            for p in rc_to_pods[key]:
                uid_exp.deletion_observed(key, p)
            assert uid_exp.satisfied_expectations(key), f"Controller {key} didn't satisfy expectations after deletion"
            uid_exp.delete_expectations(key)
            assert uid_exp.get_uids(key) is None, f"Failed to delete uid expectations for {key}"

    env.run(body)


def test_active_pod_filtering() -> None:
    """Go: TestActivePodFiltering — succeeded and failed pods are not active."""
    pods = new_pod_list(None, 5, POD_RUNNING, new_replication_controller(0), "pod")
    pods[0] = attrs.evolve(pods[0], status=attrs.evolve(pods[0].status, phase=POD_SUCCEEDED))
    pods[1] = attrs.evolve(pods[1], status=attrs.evolve(pods[1].status, phase=POD_FAILED))
    got = controller.filter_active_pods(pods)
    assert {p.metadata.name for p in got} == {p.metadata.name for p in pods[2:]}


def test_sorting_active_pods() -> None:
    """Go: TestSortingActivePods — unscheduled < pending < unknown < not ready < ready recently
    < ready long ago, then more restarts first, then newer first (the pods to delete first).
    Differs from Go: restart counts are all 0 (see ``edit``)."""
    now = 10_000_000.0
    then = now - 31 * 86400  # Go: now.AddDate(0, -1, 0)
    pods = new_pod_list(None, 9, POD_RUNNING, new_replication_controller(0), "pod")

    def edit(i: int, node: str, phase: str, ready: float | None | bool = False, restarts: tuple[int, ...] = (),
             created: float | None = None) -> None:
        p = pods[i]
        conditions = ()
        if ready is not False:
            conditions = (PodCondition(type=POD_READY, status=CONDITION_TRUE,
                                       last_transition_time=None if ready is None else ready),)
        # restart counts: container statuses are not modelled (every pod has 0 restarts); pods
        # 6 and 7 then differ by creation time (6 has none), and the Go order still holds
        status = attrs.evolve(p.status, phase=phase, conditions=conditions)
        meta = attrs.evolve(p.metadata, creation_timestamp=created) if created is not None else p.metadata
        pods[i] = attrs.evolve(p, metadata=meta, spec=attrs.evolve(p.spec, node_name=node), status=status)

    edit(0, "", POD_PENDING)
    edit(1, "bar", POD_PENDING)
    edit(2, "foo", "Unknown")
    edit(3, "foo", POD_RUNNING)
    edit(4, "foo", POD_RUNNING, ready=None, restarts=(3, 0))
    edit(5, "foo", POD_RUNNING, ready=now, restarts=(3, 0))
    edit(6, "foo", POD_RUNNING, ready=then, restarts=(3, 0))
    edit(7, "foo", POD_RUNNING, ready=then, restarts=(2, 1), created=now)
    edit(8, "foo", POD_RUNNING, ready=then, restarts=(2, 1), created=then)
    expected = [p.metadata.name for p in pods]
    rng = random.Random(0)
    for _ in range(20):
        shuffled = list(pods)
        rng.shuffle(shuffled)
        sort_by_less(shuffled, controller.active_pods_less)
        assert [p.metadata.name for p in shuffled] == expected


def test_active_replica_sets_filtering() -> None:
    """Go: TestActiveReplicaSetsFiltering — nil and zero-sized replica sets are not active."""
    def named(name: str, replicas: int) -> object:
        rs = new_replica_set(replicas)
        return attrs.evolve(rs, metadata=attrs.evolve(rs.metadata, name=name))

    got = controller.filter_active_replica_sets([named("zero", 0), None, named("foo", 1), named("bar", 2)])
    assert {rs.metadata.name for rs in got} == {"foo", "bar"}


@pytest.mark.parametrize("fail", [False, True], ids=["TestCreatePods", "TestCreatePods (the create fails)"])
def test_create_pods(fail: bool) -> None:
    """Go: TestCreatePods — RealPodControl creates a pod from the template with the controller's
    labels, the created-by annotation and generateName "<name>-"; kschedlearn's variant also
    checks that a refused create is returned as an error with a FailedCreate event."""
    env = new_env()
    rc = env.store("replicationcontrollers", new_replication_controller(1))
    events: list[tuple[str, str]] = []

    class Recorder:
        def eventf(self, obj: object, event_type: str, reason: str, fmt: str, *args: object) -> None:
            events.append((event_type, reason))

    pod_control = controller.RealPodControl(kube_client=env.client, recorder=Recorder())
    if fail:
        from kschedlearn.apimachinery.api.errors import new_internal_error

        env.api.faults.fail_next("create", "pods", new_internal_error("boom"), 1)
    err = env.run(lambda: _returned(pod_control.create_pods, "default", rc.spec.template, rc))
    pods = list(env.api.storage.items("pods"))
    if fail:
        assert err is not None and not pods and events == [("Warning", "FailedCreate")]
        return
    assert err is None and len(pods) == 1 and events == [("Normal", "SuccessfulCreate")]
    pod = pods[0]
    assert pod.metadata.generate_name == "foobar-"
    assert pod.metadata.labels == rc.spec.template.metadata.labels
    assert '"kind":"ReplicationController"' in pod.metadata.annotations["kubernetes.io/created-by"]


def _returned(fn: object, *args: object) -> BaseException | None:
    from controller_harness import returned_error

    return returned_error(fn, *args)  # type: ignore[arg-type]
