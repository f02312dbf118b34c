"""The Go tests of the ReplicationManager and the ReplicaSetController, ported; each runs on both
twins (1.6 kept the two files in step), with the Go test's name as the id.

Go: pkg/controller/replication/replication_controller_test.go,
pkg/controller/replicaset/replica_set_test.go. The fake HTTP server of some Go tests, which
records the status PUT, is the embedded API server here: the test reads the status stored.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from kschedlearn.api.v1 import POD_PENDING, POD_RUNNING, POD_FAILED, OwnerReference
from kschedlearn.controller import controller_utils as controller
from controller_harness import (
    KINDS,
    ReplicaKind,
    key_of,
    new_env,
    new_pod,
    new_pod_list,
    validate_sync_replication,
)

TWINS = pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.name)


def setup(kind: ReplicaKind, obj: Any, burst: int = 500, *, stored: bool = True) -> tuple[Any, Any, Any, Any, Any]:
    env = new_env()
    if stored:
        # the server clears a deletion timestamp on create (rest.BeforeCreate); Go's fake keeps it
        stored_obj = env.store(kind.resource, obj)
        obj = attrs.evolve(stored_obj, metadata=attrs.evolve(stored_obj.metadata,
                                                             deletion_timestamp=obj.metadata.deletion_timestamp))
    manager, pod_informer, informer = kind.new_manager(env, burst)
    fake = controller.FakePodControl()
    manager.pod_control = fake
    informer.informer().get_indexer().add(obj)
    return env, manager, fake, pod_informer.informer().get_indexer(), obj


@TWINS
def test_sync_does_nothing(kind: ReplicaKind) -> None:
    """Go: TestSyncReplicationControllerDoesNothing / TestSyncReplicaSetDoesNothing."""
    env, m, fake, pods, obj = setup(kind, kind.new(2))
    new_pod_list(pods, 2, POD_RUNNING, obj, "pod")
    kind.sync(env, m, key_of(obj))
    validate_sync_replication(fake, 0, 0, 0)


@TWINS
def test_sync_deletes(kind: ReplicaKind) -> None:
    """Go: TestSyncReplicationControllerDeletes — 2 running pods, 1 replica: one delete."""
    env, m, fake, pods, obj = setup(kind, kind.new(1))
    new_pod_list(pods, 2, POD_RUNNING, obj, "pod")
    kind.sync(env, m, key_of(obj))
    validate_sync_replication(fake, 0, 1, 0)


@TWINS
def test_sync_creates(kind: ReplicaKind) -> None:
    """Go: TestSyncReplicationControllerCreates — failed and deleting pods are not active: 2 creates."""
    env, m, fake, pods, obj = setup(kind, kind.new(2))
    pods.add(new_pod("failed-pod", obj, POD_FAILED))
    deleted = new_pod("deleted-pod", obj, POD_RUNNING)
    pods.add(attrs.evolve(deleted, metadata=attrs.evolve(deleted.metadata, deletion_timestamp=0.0)))
    kind.sync(env, m, key_of(obj))
    validate_sync_replication(fake, 2, 0, 0)


@TWINS
def test_status_updates_without_replicas_change(kind: ReplicaKind) -> None:
    """Go: TestStatusUpdatesWithoutReplicasChange — steady state writes no status; a new
    generation writes one with observedGeneration."""
    env, m, fake, pods, obj = setup(kind, kind.new(5))
    status = attrs.evolve(obj.status, replicas=5, ready_replicas=5, available_replicas=5,
                          observed_generation=obj.metadata.generation)
    obj = env.api.update_status(kind.resource, "default", attrs.evolve(obj, status=status))
    m_informer = kind.informer(env).informer().get_indexer()
    m_informer.update(obj)
    new_pod_list(pods, 5, POD_RUNNING, obj, "pod")
    rv = obj.metadata.resource_version
    kind.sync(env, m, key_of(obj))
    validate_sync_replication(fake, 0, 0, 0)
    assert env.api.get(kind.resource, "default", "foobar").metadata.resource_version == rv, \
        "Unexpected update when pods and rcs are in a steady state"
    bumped = attrs.evolve(obj, metadata=attrs.evolve(obj.metadata, generation=obj.metadata.generation + 1))
    m_informer.update(bumped)
    kind.sync(env, m, key_of(obj))
    assert env.api.get(kind.resource, "default", "foobar").status.observed_generation == bumped.metadata.generation


@TWINS
def test_controller_update_replicas(kind: ReplicaKind) -> None:
    """Go: TestControllerUpdateReplicas — status.replicas 2 → 4 while one pod is created;
    fullyLabeledReplicas counts the pods carrying the template's labels (none here)."""
    env, m, fake, pods, obj = setup(kind, kind.new(5))
    obj = attrs.evolve(obj, metadata=attrs.evolve(obj.metadata, generation=1))
    obj = env.api.update_status(kind.resource, "default", attrs.evolve(obj, status=attrs.evolve(
        obj.status, replicas=2, fully_labeled_replicas=6, ready_replicas=2, available_replicas=2)))
    kind.informer(env).informer().get_indexer().update(obj)
    new_pod_list(pods, 2, POD_RUNNING, obj, "pod")
    new_pod_list(pods, 2, POD_RUNNING, kind.with_selector(obj, {"foo": "bar", "extraKey": "extraValue"}),
                 "podWithExtraLabel")
    kind.sync(env, m, key_of(obj))
    s = env.api.get(kind.resource, "default", "foobar").status
    assert (s.replicas, s.ready_replicas, s.available_replicas, s.fully_labeled_replicas) == (4, 4, 4, 0)
    validate_sync_replication(fake, 1, 0, 0)


@TWINS
def test_sync_dormancy(kind: ReplicaKind) -> None:
    """Go: TestSyncReplicationControllerDormancy — expectations hold back the next create until
    observed; a failed create leaves none raised."""
    env, m, fake, pods, obj = setup(kind, kind.new(2))
    new_pod_list(pods, 1, POD_RUNNING, obj, "pod")
    kind.sync(env, m, key_of(obj))
    validate_sync_replication(fake, 1, 0, 0)
    fake.clear()
    kind.sync(env, m, key_of(obj))
    validate_sync_replication(fake, 0, 0, 0)
    m.expectations.creation_observed(key_of(obj))
    fake.clear()
    fake.err = RuntimeError("Fake Error")
    kind.sync(env, m, key_of(obj))
    validate_sync_replication(fake, 1, 0, 0)
    fake.clear()
    fake.err = None
    kind.sync(env, m, key_of(obj))
    validate_sync_replication(fake, 1, 0, 0)


@TWINS
def test_delete_controller_and_expectations(kind: ReplicaKind) -> None:
    """Go: TestDeleteControllerAndExpectations — a deleted controller's expectations go with it."""
    env, m, fake, pods, obj = setup(kind, kind.new(1), burst=10)
    kind.sync(env, m, key_of(obj))
    validate_sync_replication(fake, 1, 0, 0)
    fake.clear()
    pod_exp, exists = m.expectations.get_expectations(key_of(obj))
    assert exists, "No expectations found for rc"
    kind.informer(env).informer().get_indexer().delete(obj)
    kind.sync(env, m, key_of(obj))
    assert not m.expectations.get_expectations(key_of(obj))[1], "Found expectations, expected none"
    pod_exp.add_(-1, 0)
    pods.replace([], "0")
    kind.sync(env, m, key_of(obj))
    validate_sync_replication(fake, 0, 0, 0)


def _owner(kind: ReplicaKind, obj: Any, **kw: Any) -> OwnerReference:
    return OwnerReference(uid=obj.metadata.uid, api_version=type(obj).api_version, kind=type(obj).kind,
                          name=obj.metadata.name, **kw)


@TWINS
@pytest.mark.parametrize("case", ["TestDoNotPatchPodWithOtherControlRef", "TestPatchPodWithOtherOwnerRef",
                                  "TestPatchPodWithCorrectOwnerRef"])
def test_adoption_patches(kind: ReplicaKind, case: str) -> None:
    """Go: TestDoNotPatchPodWithOtherControlRef (2 creates, no patch), TestPatchPodWithOtherOwnerRef
    and TestPatchPodWithCorrectOwnerRef (1 adoption patch, 1 create)."""
    env, m, fake, pods, obj = setup(kind, kind.new(2))
    pod = new_pod("pod", obj, POD_RUNNING, properly_owned=False)
    ref = {"TestDoNotPatchPodWithOtherControlRef": OwnerReference(uid="other", api_version="v1", kind=type(obj).kind,
                                                                   name="AnotherRC", controller=True),
           "TestPatchPodWithOtherOwnerRef": OwnerReference(uid="job", api_version="batch/v1", kind="Job", name="Job"),
           "TestPatchPodWithCorrectOwnerRef": _owner(kind, obj)}[case]
    pods.add(attrs.evolve(pod, metadata=attrs.evolve(pod.metadata, owner_references=(ref,))))
    kind.sync(env, m, key_of(obj))
    if case == "TestDoNotPatchPodWithOtherControlRef":
        validate_sync_replication(fake, 2, 0, 0)
    else:
        validate_sync_replication(fake, 1, 0, 1)


@TWINS
def test_patch_extra_pods_then_delete(kind: ReplicaKind) -> None:
    """Go: TestPatchExtraPodsThenDelete — three orphans adopted, one deleted."""
    env, m, fake, pods, obj = setup(kind, kind.new(2))
    for name in ("pod1", "pod2", "pod3"):
        pods.add(new_pod(name, obj, POD_RUNNING, properly_owned=False))
    kind.sync(env, m, key_of(obj))
    validate_sync_replication(fake, 0, 1, 3)


@TWINS
def test_update_labels_remove_controller_ref(kind: ReplicaKind) -> None:
    """Go: TestUpdateLabelsRemoveControllerRef — a pod whose labels no longer match is released
    (1 patch) and replaced (2 creates)."""
    env, m, fake, pods, obj = setup(kind, kind.new(2))
    pod = new_pod("pod", obj, POD_RUNNING)
    pod = attrs.evolve(pod, metadata=attrs.evolve(pod.metadata, resource_version="1"))
    updated = attrs.evolve(pod, metadata=attrs.evolve(pod.metadata, labels={}, resource_version="2"))
    pods.add(updated)
    env.run(lambda: m.update_pod(pod, updated))
    item, _ = m.queue.get()
    assert item == key_of(obj)
    m.queue.done(item)
    kind.sync(env, m, key_of(obj))
    validate_sync_replication(fake, 2, 0, 1)


@TWINS
def test_do_not_adopt_or_create_if_being_deleted(kind: ReplicaKind) -> None:
    """Go: TestDoNotAdoptOrCreateIfBeingDeleted."""
    obj = kind.new(2)
    obj = attrs.evolve(obj, metadata=attrs.evolve(obj.metadata, deletion_timestamp=0.0))
    env, m, fake, pods, obj = setup(kind, obj)
    pods.add(new_pod("pod1", obj, POD_RUNNING, properly_owned=False))
    kind.sync(env, m, key_of(obj))
    validate_sync_replication(fake, 0, 0, 0)


@TWINS
def test_ready_replicas(kind: ReplicaKind) -> None:
    """Go: TestReadyReplicas — 2 pending and 2 running pods: readyReplicas 0 → 2."""
    env, m, fake, pods, obj = setup(kind, kind.new(2))
    obj = env.api.update_status(kind.resource, "default", attrs.evolve(obj, status=attrs.evolve(
        obj.status, replicas=2, observed_generation=obj.metadata.generation)))
    kind.informer(env).informer().get_indexer().update(obj)
    new_pod_list(pods, 2, POD_PENDING, obj, "pod")
    new_pod_list(pods, 2, POD_RUNNING, obj, "pod")
    kind.sync(env, m, key_of(obj))
    s = env.api.get(kind.resource, "default", "foobar").status
    assert (s.replicas, s.ready_replicas, s.available_replicas) == (2, 2, 2)
    validate_sync_replication(fake, 0, 0, 0)


@TWINS
def test_available_replicas(kind: ReplicaKind) -> None:
    """Go: TestAvailableReplicas — minReadySeconds 15: a pod ready 20 s ago is available, one ready now is not."""
    env, m, fake, pods, obj = setup(kind, attrs.evolve(kind.new(2), spec=attrs.evolve(kind.new(2).spec,
                                                                                      min_ready_seconds=15)))
    env.rt.now = 100.0
    pods.add(new_pod("pod", obj, POD_RUNNING, last_transition_time=80.0))
    pods.add(new_pod("otherPod", obj, POD_RUNNING, last_transition_time=100.0))
    kind.sync(env, m, key_of(obj))
    s = env.api.get(kind.resource, "default", "foobar").status
    assert (s.replicas, s.ready_replicas, s.available_replicas) == (2, 2, 1)
    validate_sync_replication(fake, 0, 0, 0)


@TWINS
def test_controller_burst_replicas(kind: ReplicaKind) -> None:
    """Go: TestControllerBurstReplicas (the first round) — a diff of 10 with burstReplicas 5
    sends 5 creates and expects 5."""
    env, m, fake, pods, obj = setup(kind, kind.new(10), burst=5)
    kind.sync(env, m, key_of(obj))
    validate_sync_replication(fake, 5, 0, 0)
    exp, exists = m.expectations.get_expectations(key_of(obj))
    assert exists and exp.get_expectations() == (5, 0)
