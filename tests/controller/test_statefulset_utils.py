"""The StatefulSet helpers' Go tests, ported with the Go names as ids.

Go: pkg/controller/statefulset/stateful_set_utils_test.go (``newStatefulSet``: a set "foo" with a
"datadir" volume claim template and a "home" volume).
"""

from __future__ import annotations

import random

import attrs

from kschedlearn.api.v1 import (
    CONDITION_TRUE,
    POD_READY,
    POD_RUNNING,
    Container,
    ObjectMeta,
    PersistentVolumeClaim,
    PodCondition,
    PodSpec,
    PodTemplateSpec,
    StatefulSet,
    Volume,
)
from kschedlearn.api.v1.others import StatefulSetSpec
from kschedlearn.apimachinery._gosort import sort_by_less
from kschedlearn.apimachinery.apis.meta.v1.types import LabelSelector
from kschedlearn.controller.controller_ref_manager import get_controller_of
from kschedlearn.controller.statefulset import stateful_set_utils as u


def new_stateful_set(replicas: int, name: str = "foo") -> StatefulSet:
    """Go: ``newStatefulSet`` / ``newStatefulSetWithVolumes``."""
    template = PodTemplateSpec(metadata=ObjectMeta(labels={"foo": "bar"}), spec=PodSpec(
        containers=(Container(name="nginx", image="nginx"),), volumes=(Volume(name="home"),)))
    return StatefulSet(
        metadata=ObjectMeta(name=name, namespace="default", uid="test"),
        spec=StatefulSetSpec(replicas=replicas, selector=LabelSelector(match_labels={"foo": "bar"}),
                             template=template, service_name="governingsvc",
                             volume_claim_templates=(PersistentVolumeClaim(metadata=ObjectMeta(name="datadir")),)),
    )


def test_get_parent_name_and_ordinal() -> None:
    """Go: TestGetParentNameAndOrdinal."""
    s = new_stateful_set(3)
    pod = u.new_stateful_set_pod(s, 1)
    assert u.get_parent_name_and_ordinal(pod) == ("foo", 1)
    pod = attrs.evolve(pod, metadata=attrs.evolve(pod.metadata, name="1-bar"))
    assert u.get_parent_name_and_ordinal(pod) == ("", -1)


def test_is_member_of() -> None:
    """Go: TestIsMemberOf."""
    s, s2 = new_stateful_set(3), new_stateful_set(3, "foo2")
    pod = u.new_stateful_set_pod(s, 1)
    assert u.is_member_of(s, pod) and not u.is_member_of(s2, pod)


def test_identity_matches_and_update_identity() -> None:
    """Go: TestIdentityMatches and TestUpdateIdentity — name, namespace, hostname and subdomain."""
    s = new_stateful_set(3)
    pod = u.new_stateful_set_pod(s, 1)
    assert u.identity_matches(s, pod)
    for broken in (attrs.evolve(pod, metadata=attrs.evolve(pod.metadata, name="foo")),
                   attrs.evolve(pod, metadata=attrs.evolve(pod.metadata, namespace="")),
                   attrs.evolve(pod, metadata=attrs.evolve(pod.metadata, annotations={
                       k: v for k, v in pod.metadata.annotations.items() if k != u.POD_HOSTNAME_ANNOTATION})),
                   attrs.evolve(pod, metadata=attrs.evolve(pod.metadata, annotations={
                       k: v for k, v in pod.metadata.annotations.items() if k != u.POD_SUBDOMAIN_ANNOTATION}))):
        assert not u.identity_matches(s, broken)
        if broken.metadata.name == pod.metadata.name:
            assert u.identity_matches(s, u.update_identity(s, broken))


def test_storage_matches_and_update_storage() -> None:
    """Go: TestStorageMatches and TestUpdateStorage — each claim template mounted by its claim name."""
    s = new_stateful_set(3)
    pod = u.new_stateful_set_pod(s, 1)
    assert u.storage_matches(s, pod)
    no_volumes = attrs.evolve(pod, spec=attrs.evolve(pod.spec, volumes=()))
    assert not u.storage_matches(s, no_volumes)
    assert u.storage_matches(s, u.update_storage(s, no_volumes))
    renamed = attrs.evolve(pod, metadata=attrs.evolve(pod.metadata, name="bar"))
    assert not u.storage_matches(s, renamed)
    claim_names = [v.persistent_volume_claim.claim_name for v in pod.spec.volumes if v.persistent_volume_claim]
    assert claim_names == ["datadir-foo-1"]


def test_is_running_and_ready() -> None:
    """Go: TestIsRunningAndReady — phase, the Ready condition and the init annotation."""
    s = new_stateful_set(3)
    pod = u.new_stateful_set_pod(s, 1)
    assert not u.is_running_and_ready(pod)
    pod = attrs.evolve(pod, status=attrs.evolve(pod.status, phase=POD_RUNNING))
    assert not u.is_running_and_ready(pod)
    pod = attrs.evolve(pod, status=attrs.evolve(pod.status, conditions=(
        PodCondition(type=POD_READY, status=CONDITION_TRUE),)))
    assert u.is_running_and_ready(pod)

    def init(value: str) -> object:
        return attrs.evolve(pod, metadata=attrs.evolve(pod.metadata, annotations={
            **pod.metadata.annotations, u.STATEFUL_SET_INIT_ANNOTATION: value}))

    assert u.is_running_and_ready(init("true"))
    assert not u.is_running_and_ready(init("false"))
    assert u.is_running_and_ready(init("blah"))


def test_ascending_ordinal() -> None:
    """Go: TestAscendingOrdinal."""
    s = new_stateful_set(10)
    order = list(range(10))
    random.Random(3).shuffle(order)
    pods = [u.new_stateful_set_pod(s, i) for i in order]
    sort_by_less(pods, u.ascending_ordinal_less)
    assert [u.get_ordinal(p) for p in pods] == list(range(10))


def test_overlapping_stateful_sets() -> None:
    """Go: TestOverlappingStatefulSets — by creation time, then by name."""
    order = list(range(10))
    random.Random(4).shuffle(order)
    sets = [attrs.evolve(new_stateful_set(10), metadata=attrs.evolve(new_stateful_set(10).metadata,
                                                                        creation_timestamp=float(v))) for v in order]
    sort_by_less(sets, u.overlapping_stateful_sets_less)
    assert [s.metadata.creation_timestamp for s in sets] == [float(v) for v in range(10)]
    sets = [attrs.evolve(new_stateful_set(10), metadata=attrs.evolve(new_stateful_set(10).metadata, name=str(v)))
            for v in order]
    sort_by_less(sets, u.overlapping_stateful_sets_less)
    assert [s.metadata.name for s in sets] == [str(v) for v in range(10)]


def test_new_pod_controller_ref() -> None:
    """Go: TestNewPodControllerRef."""
    s = new_stateful_set(1)
    ref = get_controller_of(u.new_stateful_set_pod(s, 0))
    assert ref is not None
    assert (ref.api_version, ref.kind, ref.name, ref.uid, ref.controller) == ("apps/v1beta1", "StatefulSet", "foo",
                                                                             "test", True)
