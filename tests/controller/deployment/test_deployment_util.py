"""The table tests of the deployment controller's helpers, ported with the Go names as ids.

Go: pkg/controller/deployment/util/deployment_util_test.go
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
    DeploymentCondition,
    DeploymentSpec,
    DeploymentStatus,
    DeploymentStrategy,
    RollingUpdateDeployment,
)
from kschedlearn.controller.deployment.util import deployment_util as du


def generate_deployment(image: str, replicas: int = 1) -> Deployment:
    """Go: ``generateDeployment`` (deployment_util_test.go)."""
    labels = {"name": image}
    return Deployment(
        metadata=ObjectMeta(name=image, namespace="default", annotations={}),
        spec=DeploymentSpec(replicas=replicas, selector=LabelSelector(match_labels=labels),
                            template=PodTemplateSpec(metadata=ObjectMeta(labels=labels),
                                                     spec=PodSpec(containers=(Container(name=image, image=image),))),
                            strategy=DeploymentStrategy(type="RollingUpdate")),
    )


def generate_rs(d: Deployment, replicas: int = 0, status_replicas: int = 0) -> ReplicaSet:
    """Go: ``generateRS`` — a replica set carrying the deployment's template."""
    return ReplicaSet(metadata=ObjectMeta(name=d.metadata.name + "-rs", namespace="default",
                                          labels=dict(d.spec.template.metadata.labels)),
                      spec=ReplicaSetSpec(replicas=replicas, selector=d.spec.selector, template=d.spec.template),
                      status=ReplicaSetStatus(replicas=status_replicas))


@pytest.mark.parametrize(("max_surge", "max_unavailable", "desired", "expect", "expect_error"), [
    ("0%", "0%", 0, (0, 1), ""),
    ("39%", "39%", 10, (4, 3), ""),
    ("oops", "39%", 10, None, 'invalid value for IntOrString: invalid value "oops": strconv.ParseInt: parsing "oops": '
                             "invalid syntax"),
    ("55%", "urg", 10, None, 'invalid value for IntOrString: invalid value "urg": strconv.ParseInt: parsing "urg": '
                            "invalid syntax"),
], ids=["TestResolveFenceposts#0", "TestResolveFenceposts#1", "TestResolveFenceposts#2", "TestResolveFenceposts#3"])
def test_resolve_fenceposts(max_surge: str, max_unavailable: str, desired: int, expect: Any, expect_error: str) -> None:
    if expect_error:
        with pytest.raises(Exception) as err:
            du.resolve_fenceposts(max_surge, max_unavailable, desired)
        assert str(err.value) == expect_error
    else:
        assert du.resolve_fenceposts(max_surge, max_unavailable, desired) == expect


@pytest.mark.parametrize(("strategy", "dep_replicas", "new_rs_replicas", "max_surge", "expected"), [
    ("RollingUpdate", 1, 5, 1, 5),
    ("RollingUpdate", 6, 2, 10, 6),
    ("Recreate", 3, 1, 1, 3),
], ids=["TestNewRSNewReplicas/can not scale up - to newRSReplicas", "TestNewRSNewReplicas/scale up - to depReplicas",
        "TestNewRSNewReplicas/recreate - to depReplicas"])
def test_new_rs_new_replicas(strategy: str, dep_replicas: int, new_rs_replicas: int, max_surge: int,
                             expected: int) -> None:
    d = generate_deployment("nginx", dep_replicas)
    d = attrs.evolve(d, spec=attrs.evolve(d.spec, strategy=DeploymentStrategy(
        type=strategy, rolling_update=RollingUpdateDeployment(max_unavailable=1, max_surge=max_surge))))
    rs5 = generate_rs(d, replicas=5)
    new_rs = generate_rs(d, replicas=new_rs_replicas)
    assert du.new_rs_new_replicas(d, [rs5], new_rs) == expected


def _complete(desired: int, current: int, updated: int, available: int, max_unavailable: int,
              max_surge: int) -> Deployment:
    return Deployment(spec=DeploymentSpec(replicas=desired, strategy=DeploymentStrategy(
        type="RollingUpdate", rolling_update=RollingUpdateDeployment(max_unavailable=max_unavailable,
                                                                     max_surge=max_surge))),
        status=DeploymentStatus(replicas=current, updated_replicas=updated, available_replicas=available))


@pytest.mark.parametrize(("d", "expected"), [
    (_complete(5, 5, 5, 4, 1, 0), True),
    (_complete(5, 5, 5, 3, 1, 0), False),
    (_complete(5, 5, 5, 5, 0, 0), True),
    (_complete(5, 5, 4, 5, 0, 0), False),
    (_complete(1, 2, 1, 1, 0, 1), False),
], ids=["TestDeploymentComplete/complete", "TestDeploymentComplete/not complete", "TestDeploymentComplete/complete #2",
        "TestDeploymentComplete/not complete #2", "TestDeploymentComplete/not complete #3"])
def test_deployment_complete(d: Deployment, expected: bool) -> None:
    assert du.deployment_complete(d, d.status) is expected


@pytest.mark.parametrize(("old", "new", "expected"), [
    ((10, 4), (10, 6), True), ((10, 4), (10, 4), False), ((10, 4), (8, 4), True),
    ((10, 7), (10, 6), False), ((10, 4), (8, 8), True), ((10, 7), (10, 7), False),
], ids=["TestDeploymentProgressing/progressing", "TestDeploymentProgressing/not progressing",
        "TestDeploymentProgressing/progressing #2", "TestDeploymentProgressing/not progressing #2",
        "TestDeploymentProgressing/progressing #3", "TestDeploymentProgressing/not progressing #2 (second)"])
def test_deployment_progressing(old: tuple[int, int], new: tuple[int, int], expected: bool) -> None:
    d = Deployment(status=DeploymentStatus(replicas=old[0], updated_replicas=old[1]))
    assert du.deployment_progressing(d, DeploymentStatus(replicas=new[0], updated_replicas=new[1])) is expected


_T = 1451606400.0  # 2016-01-01T00:00:00Z, the Go test's timeFn(0, 0)


@pytest.mark.parametrize(("pds", "from_", "now", "expected"), [
    (None, _T + 69, _T + 80, False),
    (10, _T + 69, _T + 80, True),
    (10, _T + 71, _T + 80, False),
], ids=["TestDeploymentTimedOut/no progressDeadlineSeconds specified - no timeout",
        "TestDeploymentTimedOut/progressDeadlineSeconds: 10s, now - started => 00:01:20 - 00:01:09 => 11s",
        "TestDeploymentTimedOut/progressDeadlineSeconds: 10s, now - started => 00:01:20 - 00:01:11 => 9s"])
def test_deployment_timed_out(pds: int | None, from_: float, now: float, expected: bool,
                              monkeypatch: pytest.MonkeyPatch) -> None:
    d = Deployment(spec=DeploymentSpec(progress_deadline_seconds=pds), status=DeploymentStatus(conditions=(
        DeploymentCondition(type="Progressing", status="True", last_update_time=from_),)))
    monkeypatch.setattr(du, "now_fn", lambda: now)  # Go: nowFn = test.nowFn
    assert du.deployment_timed_out(d, d.status) is expected


@pytest.mark.parametrize(("sets", "expected_count", "expected_actual"), [
    (("foo",), 1, 2), (("foo", "bar"), 3, 5),
], ids=["TestGetReplicaCountForReplicaSets/1:2 Replicas", "TestGetReplicaCountForReplicaSets/3:5 Replicas"])
def test_get_replica_count_for_replica_sets(sets: tuple[str, ...], expected_count: int, expected_actual: int) -> None:
    rss = {"foo": generate_rs(generate_deployment("foo"), replicas=1, status_replicas=2),
           "bar": generate_rs(generate_deployment("bar"), replicas=2, status_replicas=3)}
    chosen = [rss[s] for s in sets]
    assert du.get_replica_count_for_replica_sets(chosen) == expected_count
    assert du.get_actual_replica_count_for_replica_sets(chosen) == expected_actual


def test_equal_ignore_hash() -> None:
    """Go: TestEqualIgnoreHash — templates equal but for the pod-template-hash label are equal."""
    d = generate_deployment("nginx")
    t1 = d.spec.template
    hashed = attrs.evolve(t1, metadata=attrs.evolve(t1.metadata, labels={**t1.metadata.labels,
                                                                         "pod-template-hash": "123"}))
    other = attrs.evolve(t1, metadata=attrs.evolve(t1.metadata, labels={"name": "other"}))
    assert du.equal_ignore_hash(t1, hashed) and du.equal_ignore_hash(hashed, t1)
    assert not du.equal_ignore_hash(t1, other)


def _rs(name: str, uid: str, container: str, hash_: str, created: float) -> ReplicaSet:
    """Go: ``generateRS`` with the test's edits (its labels, template labels and selector are one
    map in Go, so setting the hash label on one sets it on all three)."""
    labels = {"name": "nginx", "pod-template-hash": hash_}
    template = PodTemplateSpec(metadata=ObjectMeta(labels=labels),
                               spec=PodSpec(containers=(Container(name=container, image="nginx"),)))
    return ReplicaSet(metadata=ObjectMeta(name=name, uid=uid, labels=labels, creation_timestamp=created),
                      spec=ReplicaSetSpec(replicas=0, selector=LabelSelector(match_labels=labels), template=template))


def _pod_from(rs: ReplicaSet) -> Any:
    """Go: ``generatePodFromRS``."""
    from kschedlearn.api.v1 import Pod

    return Pod(metadata=ObjectMeta(labels=dict(rs.metadata.labels)), spec=rs.spec.template.spec)


_NOW = 1000.0
_NEW = _rs("new", "u-new", "nginx", "hash", _NOW + 60)
_NEW_DUP = _rs("new-dup", "u-dup", "nginx", "different-hash", _NOW)
_OLD = _rs("old", "u-old", "nginx-old-1", "old-hash", _NOW - 60)


@pytest.mark.parametrize(("rs_list", "pods", "expected"), [
    ([_NEW, _OLD], [_NEW, _OLD], [_OLD]),
    ([_OLD], [_OLD], [_OLD]),
    ([_OLD, _NEW, _NEW_DUP], [_NEW, _OLD], [_OLD, _NEW]),
    ([_NEW], [_NEW], []),
], ids=["TestFindOldReplicaSets/Get old ReplicaSets", "TestFindOldReplicaSets/Get old ReplicaSets with no new ReplicaSet",
        "TestFindOldReplicaSets/Get old ReplicaSets with two new ReplicaSets, only the oldest new ReplicaSet is seen as "
        "new ReplicaSet", "TestFindOldReplicaSets/Get empty old ReplicaSets"])
def test_find_old_replica_sets(rs_list: list[ReplicaSet], pods: list[ReplicaSet], expected: list[ReplicaSet]) -> None:
    d = generate_deployment("nginx")
    old, _ = du.find_old_replica_sets(d, list(rs_list), [_pod_from(rs) for rs in pods])
    by_time = sorted(old, key=lambda rs: rs.metadata.creation_timestamp)
    assert [rs.metadata.name for rs in by_time] == [rs.metadata.name for rs in expected]


@pytest.mark.parametrize(("rs_list", "expected"), [
    ([_NEW, _OLD], "new"), ([_NEW, _OLD, _NEW_DUP], "new-dup"), ([_OLD], None),
], ids=["TestFindNewReplicaSet/Get new ReplicaSet with the same template as Deployment spec but different pod-template-hash value",
        "TestFindNewReplicaSet/Get the oldest new ReplicaSet when there are more than one ReplicaSet with the same template",
        "TestFindNewReplicaSet/Get nil new ReplicaSet"])
def test_find_new_replica_set(rs_list: list[ReplicaSet], expected: str | None) -> None:
    got = du.find_new_replica_set(generate_deployment("nginx"), list(rs_list))
    assert (got.metadata.name if got is not None else None) == expected
