"""The rolling-update tables of the deployment controller, ported with the Go names as ids.

Go: pkg/controller/deployment/rolling_test.go (the fake clientset is the embedded API server:
the replica sets are stored first, and the updates the controller sends are read back from
the store's change listener).
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from kschedlearn.api.v1 import Container, ObjectMeta, PodSpec, PodTemplateSpec
from kschedlearn.api.v1.others import ReplicaSet, ReplicaSetSpec, ReplicaSetStatus
from kschedlearn.apimachinery.apis.meta.v1.types import LabelSelector
from kschedlearn.apis.extensions.v1beta1.types import (
    Deployment,
    DeploymentSpec,
    DeploymentStrategy,
    RollingUpdateDeployment,
)
from kschedlearn.controller.deployment.deployment_controller import DeploymentController
from controller_harness import new_env, returned_error


@attrs.define(eq=False)
class FakeRecorder:
    """Go: ``record.FakeRecorder`` (the events, as text)."""

    events: list[str] = attrs.field(factory=list)

    def eventf(self, obj: Any, event_type: str, reason: str, fmt: str, *args: Any) -> None:
        from kschedlearn.trace.gofmt import sprintf

        self.events.append(f"{event_type} {reason} {sprintf(fmt, *args)}")

    def event(self, obj: Any, event_type: str, reason: str, message: str) -> None:
        self.events.append(f"{event_type} {reason} {message}")


def rs(name: str, replicas: int, selector: dict[str, str] | None, available: int = 0) -> ReplicaSet:
    """Go: ``rs`` (deployment_controller_test.go) with ``status.availableReplicas``."""
    return ReplicaSet(metadata=ObjectMeta(name=name, namespace="default"),
                      spec=ReplicaSetSpec(replicas=replicas, selector=LabelSelector(match_labels=selector or {}),
                                          template=PodTemplateSpec()),
                      status=ReplicaSetStatus(available_replicas=available))


def new_deployment(name: str, replicas: int, max_surge: Any, max_unavailable: Any,
                   selector: dict[str, str] | None) -> Deployment:
    """Go: ``newDeployment`` (deployment_controller_test.go)."""
    return Deployment(
        metadata=ObjectMeta(uid="d-uid", name=name, namespace="default", annotations={}),
        spec=DeploymentSpec(
            strategy=DeploymentStrategy(type="RollingUpdate", rolling_update=RollingUpdateDeployment(
                max_unavailable=max_unavailable, max_surge=max_surge)),
            replicas=replicas, selector=LabelSelector(match_labels=selector or {}),
            template=PodTemplateSpec(metadata=ObjectMeta(labels=selector or {}),
                                     spec=PodSpec(containers=(Container(name="", image="foo/bar"),)))),
    )


def controller_with(*rss: ReplicaSet) -> tuple[Any, DeploymentController, list[ReplicaSet], list[Any]]:
    """A DeploymentController on a fresh server holding ``rss``; returns the stored copies and
    the list the server's change listener fills with the updated replica sets."""
    env = new_env()
    stored = [env.api.create("replicasets", "default", r) for r in rss]
    stored = [attrs.evolve(s, status=r.status) for s, r in zip(stored, rss)]
    updates: list[Any] = []
    env.api.storage.listeners.append(
        lambda resource, entry: updates.append(entry.object) if resource == "replicasets" and entry.type == "MODIFIED"
        else None)
    dc = DeploymentController(client=env.client, event_recorder=FakeRecorder(), queue=None)
    return env, dc, stored, updates


@pytest.mark.parametrize(("deployment_replicas", "max_surge", "old_replicas", "new_replicas", "scale_expected",
                          "expected_new_replicas"), [
    (10, 0, 10, 0, False, None),
    (10, 2, 10, 0, True, 2),
    (10, 2, 5, 0, True, 7),
    (10, 2, 10, 2, False, None),
    (10, 2, 2, 11, True, 10),
], ids=[f"TestDeploymentController_reconcileNewReplicaSet#{i}" for i in range(5)])
def test_reconcile_new_replica_set(deployment_replicas: int, max_surge: int, old_replicas: int, new_replicas: int,
                                   scale_expected: bool, expected_new_replicas: int | None) -> None:
    env, dc, (new_rs, old_rs), updates = controller_with(rs("foo-v2", new_replicas, None),
                                                         rs("foo-v1", old_replicas, None))
    d = new_deployment("foo", deployment_replicas, max_surge, 0, {"foo": "bar"})
    scaled = env.run(lambda: dc.reconcile_new_replica_set([new_rs, old_rs], new_rs, d))
    if not scale_expected:
        assert not scaled and not updates
        return
    assert scaled and len(updates) == 1
    assert updates[0].spec.replicas == expected_new_replicas


@pytest.mark.parametrize(("deployment_replicas", "max_unavailable", "old_replicas", "new_replicas", "ready_old",
                          "ready_new", "scale_expected"), [
    (10, 0, 10, 0, 10, 0, True),
    (10, 2, 10, 0, 10, 0, True),
    (10, 2, 10, 0, 8, 0, True),
    (10, 2, 10, 0, 9, 0, True),
    (10, 2, 8, 2, 8, 0, False),
], ids=[f"TestDeploymentController_reconcileOldReplicaSets#{i}" for i in range(5)])
def test_reconcile_old_replica_sets(deployment_replicas: int, max_unavailable: int, old_replicas: int,
                                    new_replicas: int, ready_old: int, ready_new: int, scale_expected: bool) -> None:
    env, dc, (old_rs, new_rs), _ = controller_with(rs("foo-old", old_replicas, {"foo": "old"}, ready_old),
                                                   rs("foo-new", new_replicas, {"foo": "new"}, ready_new))
    d = new_deployment("foo", deployment_replicas, 0, max_unavailable, {"foo": "new"})
    scaled = env.run(lambda: dc.reconcile_old_replica_sets([old_rs, new_rs], [old_rs], new_rs, d))
    assert scaled is scale_expected


@pytest.mark.parametrize(("old_replicas", "ready_pods", "max_cleanup_count", "cleanup_count_expected"), [
    (10, 8, 1, 1), (10, 8, 3, 2), (10, 8, 0, 0), (10, 10, 3, 0),
], ids=[f"TestDeploymentController_cleanupUnhealthyReplicas#{i}" for i in range(4)])
def test_cleanup_unhealthy_replicas(old_replicas: int, ready_pods: int, max_cleanup_count: int,
                                    cleanup_count_expected: int) -> None:
    env, dc, (old_rs,), _ = controller_with(rs("foo-v2", old_replicas, None, ready_pods))
    d = new_deployment("foo", 10, 2, 2, None)
    _, count = env.run(lambda: dc.cleanup_unhealthy_replicas([old_rs], d, max_cleanup_count))
    assert count == cleanup_count_expected


@pytest.mark.parametrize(("deployment_replicas", "max_unavailable", "ready_pods", "old_replicas", "scale_expected",
                          "expected_old_replicas"), [
    (10, 0, 10, 10, True, 9),
    (10, 2, 10, 10, True, 8),
    (10, 2, 8, 10, False, None),
    (10, 2, 10, 0, False, None),
    (10, 2, 1, 10, False, None),
], ids=[f"TestDeploymentController_scaleDownOldReplicaSetsForRollingUpdate#{i}" for i in range(5)])
def test_scale_down_old_replica_sets_for_rolling_update(deployment_replicas: int, max_unavailable: int,
                                                        ready_pods: int, old_replicas: int, scale_expected: bool,
                                                        expected_old_replicas: int | None) -> None:
    env, dc, (old_rs,), updates = controller_with(rs("foo-v2", old_replicas, None, ready_pods))
    d = new_deployment("foo", deployment_replicas, 0, max_unavailable, {"foo": "bar"})
    scaled = env.run(lambda: dc.scale_down_old_replica_sets_for_rolling_update([old_rs], [old_rs], d))
    if not scale_expected:
        assert scaled == 0
        return
    assert scaled != 0 and len(updates) == 1, "expected only 1 update action"
    assert updates[0].spec.replicas == expected_old_replicas


def test_reconcile_errors_are_returned() -> None:
    """``reconcile_new_replica_set`` on a replica set the server does not hold: the update's
    NotFound is the returned error (Go: ``return false, err``)."""
    env = new_env()
    dc = DeploymentController(client=env.client, event_recorder=FakeRecorder(), queue=None)
    ghost = rs("ghost", 0, None)
    d = new_deployment("foo", 3, 1, 0, {"foo": "bar"})
    err = env.run(lambda: returned_error(dc.reconcile_new_replica_set, [ghost], ghost, d))
    assert err is not None and "not found" in str(err)
