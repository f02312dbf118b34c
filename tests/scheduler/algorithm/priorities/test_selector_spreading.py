"""Port of selector_spreading_test.go, v1.6.1: TestSelectorSpreadPriority,
TestZoneSelectorSpreadPriority, TestZoneSpreadPriority (ServiceAntiAffinity),
TestGetNodeClassificationByLabels; plus the 1.6 NaN-with-zones bug and float32 checks.

Go: plugin/pkg/scheduler/algorithm/priorities/selector_spreading_test.go
"""

from __future__ import annotations

import pytest

from kschedlearn.api.v1.meta import ObjectMeta
from kschedlearn.api.v1.node import Node
from kschedlearn.api.v1.others import (
    ReplicaSet,
    ReplicaSetSpec,
    ReplicationController,
    ReplicationControllerSpec,
    Service,
    ServiceSpec,
    StatefulSet,
    StatefulSetSpec,
)
from kschedlearn.api.v1.pod import Pod, PodSpec
from kschedlearn.apimachinery.apis.meta.v1 import LabelSelector
from kschedlearn.scheduler.algorithm.priorities.selector_spreading import (
    LABEL_ZONE_FAILURE_DOMAIN,
    SelectorSpread,
    ServiceAntiAffinity,
    _f32,
    _go_int,
    get_zone_key,
    new_selector_spread_priority,
)
from kschedlearn.scheduler.api.types import HostPriority
from kschedlearn.scheduler.schedulercache.util import create_node_name_to_info_map
from kschedlearn.scheduler.testing import (
    FakeControllerLister,
    FakePodLister,
    FakeReplicaSetLister,
    FakeServiceLister,
    FakeStatefulSetLister,
)

LABELS1 = {"foo": "bar", "baz": "blah"}
LABELS2 = {"bar": "foo", "baz": "blah"}


def hp(host: str, score: int) -> HostPriority:
    return HostPriority(host=host, score=score)


def pod(node: str = "", labels: dict | None = None, namespace: str = "") -> Pod:
    return Pod(metadata=ObjectMeta(labels=dict(labels or {}), namespace=namespace), spec=PodSpec(node_name=node))


def svc(selector: dict, namespace: str = "") -> Service:
    return Service(metadata=ObjectMeta(namespace=namespace), spec=ServiceSpec(selector=dict(selector)))


def rc(selector: dict) -> ReplicationController:
    return ReplicationController(spec=ReplicationControllerSpec(selector=dict(selector)))


def rs(match_labels: dict) -> ReplicaSet:
    return ReplicaSet(spec=ReplicaSetSpec(selector=LabelSelector(match_labels=dict(match_labels))))


def ss(match_labels: dict) -> StatefulSet:
    return StatefulSet(spec=StatefulSetSpec(selector=LabelSelector(match_labels=dict(match_labels))))


def make_node_list(names: list[str]) -> list[Node]:
    """Go: makeNodeList"""
    return [Node(metadata=ObjectMeta(name=n)) for n in names]


def make_labeled_node_list(node_map: dict[str, dict[str, str]]) -> list[Node]:
    """Go: makeLabeledNodeList (Go's map order is random; the tests sort, so order is irrelevant)."""
    return [Node(metadata=ObjectMeta(name=n, labels=dict(lbls))) for n, lbls in node_map.items()]


def sort_list(result: list[HostPriority]) -> list[HostPriority]:
    """Go: sort.Sort(HostPriorityList) -- by score, then host."""
    return sorted(result, key=lambda h: (h.score, h.host))


M12 = ["machine1", "machine2"]
Z1, Z2 = "machine1", "machine2"  # zone1Spec / zone2Spec node names in TestSelectorSpreadPriority

# (pod, pods, nodes, rcs, rss, services, sss, expected, test)
SPREAD_CASES = [
    (Pod(), [], M12, [], [], [], [], [hp(Z1, 10), hp(Z2, 10)], "nothing scheduled"),
    (pod(labels=LABELS1), [pod(Z1)], M12, [], [], [], [], [hp(Z1, 10), hp(Z2, 10)], "no services"),
    (pod(labels=LABELS1), [pod(Z1, LABELS2)], M12, [], [], [svc({"key": "value"})], [],
     [hp(Z1, 10), hp(Z2, 10)], "different services"),
    (pod(labels=LABELS1), [pod(Z1, LABELS2), pod(Z2, LABELS1)], M12, [], [], [svc(LABELS1)], [],
     [hp(Z1, 10), hp(Z2, 0)], "two pods, one service pod"),
    (pod(labels=LABELS1),
     [pod(Z1, LABELS2), pod(Z1, LABELS1, "default"), pod(Z1, LABELS1, "ns1"), pod(Z2, LABELS1), pod(Z2, LABELS2)],
     M12, [], [], [svc(LABELS1)], [], [hp(Z1, 10), hp(Z2, 0)], "five pods, one service pod in no namespace"),
    (pod(labels=LABELS1, namespace="default"),
     [pod(Z1, LABELS1), pod(Z1, LABELS1, "ns1"), pod(Z2, LABELS1, "default"), pod(Z2, LABELS2)],
     M12, [], [], [svc(LABELS1, "default")], [], [hp(Z1, 10), hp(Z2, 0)], "four pods, one service pod in default namespace"),
    (pod(labels=LABELS1, namespace="ns1"),
     [pod(Z1, LABELS1), pod(Z1, LABELS1, "default"), pod(Z1, LABELS1, "ns2"), pod(Z2, LABELS1, "ns1"), pod(Z2, LABELS2)],
     M12, [], [], [svc(LABELS1, "ns1")], [], [hp(Z1, 10), hp(Z2, 0)], "five pods, one service pod in specific namespace"),
    (pod(labels=LABELS1), [pod(Z1, LABELS2), pod(Z1, LABELS1), pod(Z2, LABELS1)], M12, [], [], [svc(LABELS1)], [],
     [hp(Z1, 0), hp(Z2, 0)], "three pods, two service pods on different machines"),
    (pod(labels=LABELS1), [pod(Z1, LABELS2), pod(Z1, LABELS1), pod(Z2, LABELS1), pod(Z2, LABELS1)], M12, [], [],
     [svc(LABELS1)], [], [hp(Z1, 5), hp(Z2, 0)], "four pods, three service pods"),
    (pod(labels=LABELS1), [pod(Z1, LABELS2), pod(Z1, LABELS1), pod(Z2, LABELS1)], M12, [], [],
     [svc({"baz": "blah"})], [], [hp(Z1, 0), hp(Z2, 5)], "service with partial pod label matches"),
    (pod(labels=LABELS1), [pod(Z1, LABELS2), pod(Z1, LABELS1), pod(Z2, LABELS1)], M12, [rc({"foo": "bar"})], [],
     [svc({"baz": "blah"})], [], [hp(Z1, 0), hp(Z2, 5)],
     "service with partial pod label matches with service and replication controller"),
    (pod(labels=LABELS1), [pod(Z1, LABELS2), pod(Z1, LABELS1), pod(Z2, LABELS1)], M12, [], [rs({"foo": "bar"})],
     [svc({"baz": "blah"})], [], [hp(Z1, 0), hp(Z2, 5)], "service with partial pod label matches with service and replica set"),
    (pod(labels=LABELS1), [pod(Z1, LABELS2), pod(Z1, LABELS1), pod(Z2, LABELS1)], M12, [], [],
     [svc({"baz": "blah"})], [ss({"foo": "bar"})], [hp(Z1, 0), hp(Z2, 5)],
     "service with partial pod label matches with service and stateful set"),
    (pod(labels={"foo": "bar", "bar": "foo"}), [pod(Z1, LABELS2), pod(Z1, LABELS1), pod(Z2, LABELS1)], M12,
     [rc({"foo": "bar"})], [], [svc({"bar": "foo"})], [], [hp(Z1, 0), hp(Z2, 5)],
     "disjoined service and replication controller should be treated equally"),
    (pod(labels={"foo": "bar", "bar": "foo"}), [pod(Z1, LABELS2), pod(Z1, LABELS1), pod(Z2, LABELS1)], M12,
     [], [rs({"foo": "bar"})], [svc({"bar": "foo"})], [], [hp(Z1, 0), hp(Z2, 5)],
     "disjoined service and replica set should be treated equally"),
    (pod(labels={"foo": "bar", "bar": "foo"}), [pod(Z1, LABELS2), pod(Z1, LABELS1), pod(Z2, LABELS1)], M12,
     [], [], [svc({"bar": "foo"})], [ss({"foo": "bar"})], [hp(Z1, 0), hp(Z2, 5)],
     "disjoined service and stateful set should be treated equally"),
    (pod(labels=LABELS1), [pod(Z1, LABELS2), pod(Z1, LABELS1), pod(Z2, LABELS1)], M12, [rc({"foo": "bar"})], [], [], [],
     [hp(Z1, 0), hp(Z2, 0)], "Replication controller with partial pod label matches"),
    (pod(labels=LABELS1), [pod(Z1, LABELS2), pod(Z1, LABELS1), pod(Z2, LABELS1)], M12, [], [rs({"foo": "bar"})], [], [],
     [hp(Z1, 0), hp(Z2, 0)], "Replica set with partial pod label matches"),
    (pod(labels=LABELS1), [pod(Z1, LABELS2), pod(Z1, LABELS1), pod(Z2, LABELS1)], M12, [], [], [], [ss({"foo": "bar"})],
     [hp(Z1, 0), hp(Z2, 0)], "StatefulSet with partial pod label matches"),
    (pod(labels=LABELS1), [pod(Z1, LABELS2), pod(Z1, LABELS1), pod(Z2, LABELS1)], M12, [rc({"baz": "blah"})], [], [], [],
     [hp(Z1, 0), hp(Z2, 5)], "Another replication controller with partial pod label matches"),
    (pod(labels=LABELS1), [pod(Z1, LABELS2), pod(Z1, LABELS1), pod(Z2, LABELS1)], M12, [], [rs({"baz": "blah"})], [], [],
     [hp(Z1, 0), hp(Z2, 5)], "Another replication set with partial pod label matches"),
    (pod(labels=LABELS1), [pod(Z1, LABELS2), pod(Z1, LABELS1), pod(Z2, LABELS1)], M12, [], [], [], [ss({"baz": "blah"})],
     [hp(Z1, 0), hp(Z2, 5)], "Another stateful set with partial pod label matches"),
]


@pytest.mark.parametrize(
    ("pod_", "pods", "nodes", "rcs", "rss", "services", "sss", "expected", "test"),
    SPREAD_CASES,
    ids=[c[-1] for c in SPREAD_CASES],
)
def test_selector_spread_priority(pod_, pods, nodes, rcs, rss, services, sss, expected, test):
    node_name_to_info = create_node_name_to_info_map(pods, [])
    selector_spread = SelectorSpread(
        service_lister=FakeServiceLister(services),
        controller_lister=FakeControllerLister(rcs),
        replica_set_lister=FakeReplicaSetLister(rss),
        stateful_set_lister=FakeStatefulSetLister(sss),
    )
    result = selector_spread.calculate_spread_priority(pod_, node_name_to_info, make_node_list(nodes))
    assert result == expected, test


LABELS_Z1 = {"label1": "l1", "baz": "blah"}
LABELS_Z2 = {"label2": "l2", "baz": "blah"}
M1Z1, M1Z2, M2Z2 = "machine1.zone1", "machine1.zone2", "machine2.zone2"
M1Z3, M2Z3, M3Z3 = "machine1.zone3", "machine2.zone3", "machine3.zone3"
ZONED_NODES = {
    M1Z1: {LABEL_ZONE_FAILURE_DOMAIN: "zone1"},
    M1Z2: {LABEL_ZONE_FAILURE_DOMAIN: "zone2"},
    M2Z2: {LABEL_ZONE_FAILURE_DOMAIN: "zone2"},
    M1Z3: {LABEL_ZONE_FAILURE_DOMAIN: "zone3"},
    M2Z3: {LABEL_ZONE_FAILURE_DOMAIN: "zone3"},
    M3Z3: {LABEL_ZONE_FAILURE_DOMAIN: "zone3"},
}


def zl(*scores: int) -> list[HostPriority]:
    return [hp(n, s) for n, s in zip([M1Z1, M1Z2, M2Z2, M1Z3, M2Z3, M3Z3], scores)]


# (pod, pods, rcs, services, expected, test)
ZONE_CASES = [
    (Pod(), [], [], [], zl(10, 10, 10, 10, 10, 10), "nothing scheduled"),
    (pod(labels=LABELS_Z1), [pod(M1Z1)], [], [], zl(10, 10, 10, 10, 10, 10), "no services"),
    (pod(labels=LABELS_Z1), [pod(M1Z1, LABELS_Z2)], [], [svc({"key": "value"})], zl(10, 10, 10, 10, 10, 10),
     "different services"),
    (pod(labels=LABELS_Z1), [pod(M1Z1, LABELS_Z2), pod(M1Z2, LABELS_Z1)], [], [svc(LABELS_Z1)],
     zl(10, 0, 3, 10, 10, 10), "two pods, 1 matching (in z2)"),
    (pod(labels=LABELS_Z1),
     [pod(M1Z1, LABELS_Z2), pod(M1Z2, LABELS_Z1), pod(M2Z2, LABELS_Z1), pod(M1Z3, LABELS_Z2), pod(M2Z3, LABELS_Z1)],
     [], [svc(LABELS_Z1)], zl(10, 0, 0, 6, 3, 6), "five pods, 3 matching (z2=2, z3=1)"),
    (pod(labels=LABELS_Z1), [pod(M1Z1, LABELS_Z1), pod(M1Z2, LABELS_Z1), pod(M2Z2, LABELS_Z2), pod(M1Z3, LABELS_Z1)],
     [], [svc(LABELS_Z1)], zl(0, 0, 3, 0, 3, 3), "four pods, 3 matching (z1=1, z2=1, z3=1)"),
    (pod(labels=LABELS_Z1), [pod(M1Z1, LABELS_Z1), pod(M1Z2, LABELS_Z1), pod(M1Z3, LABELS_Z1), pod(M2Z2, LABELS_Z2)],
     [], [svc(LABELS_Z1)], zl(0, 0, 3, 0, 3, 3), "four pods, 3 matching (z1=1, z2=1, z3=1), other order"),
    (pod(labels=LABELS_Z1), [pod(M1Z3, LABELS_Z1), pod(M1Z2, LABELS_Z1), pod(M1Z3, LABELS_Z1)],
     [rc(LABELS_Z1)], [], zl(10, 5, 6, 0, 3, 3), "Replication controller spreading (z1=0, z2=1, z3=2)"),
]


@pytest.mark.parametrize(("pod_", "pods", "rcs", "services", "expected", "test"), ZONE_CASES, ids=[c[-1] for c in ZONE_CASES])
def test_zone_selector_spread_priority(pod_, pods, rcs, services, expected, test):
    node_name_to_info = create_node_name_to_info_map(pods, [])
    spread = new_selector_spread_priority(
        FakeServiceLister(services), FakeControllerLister(rcs), FakeReplicaSetLister([]), FakeStatefulSetLister([])
    )
    result = spread(pod_, node_name_to_info, make_labeled_node_list(ZONED_NODES))
    assert sort_list(result) == sort_list(expected), test


def test_result_follows_node_order():
    """PrioritizeNodes adds results by position, so SelectorSpread must keep ``nodes`` order."""
    nodes = make_labeled_node_list(ZONED_NODES)
    spread = new_selector_spread_priority(FakeServiceLister([svc(LABELS_Z1)]), FakeControllerLister([]),
                                          FakeReplicaSetLister([]), FakeStatefulSetLister([]))
    result = spread(pod(labels=LABELS_Z1), create_node_name_to_info_map([pod(M1Z2, LABELS_Z1)], []), nodes)
    assert [h.host for h in result] == [n.metadata.name for n in nodes]


def test_nan_bug_with_zones_and_no_matching_pods():
    """1.6 bug (spec 8.5): selectors exist, nothing matches, nodes are zoned → 0/0 = NaN →
    Go's int(NaN) on amd64 = minimum int64 for every zoned node; un-zoned nodes keep 10."""
    nodes = make_labeled_node_list({"zoned-a": {LABEL_ZONE_FAILURE_DOMAIN: "z1"}, "plain": {}})
    spread = new_selector_spread_priority(FakeServiceLister([svc(LABELS_Z1)]), FakeControllerLister([]),
                                          FakeReplicaSetLister([]), FakeStatefulSetLister([]))
    result = spread(pod(labels=LABELS_Z1), create_node_name_to_info_map([], []), nodes)
    assert result == [hp("zoned-a", -(2**63)), hp("plain", 10)]


def test_get_zone_key():
    node = Node(metadata=ObjectMeta(name="n", labels={"failure-domain.beta.kubernetes.io/region": "r",
                                                        LABEL_ZONE_FAILURE_DOMAIN: "z"}))
    assert get_zone_key(node) == "r:\x00:z"
    assert get_zone_key(Node(metadata=ObjectMeta(name="n"))) == ""


def test_float32_helpers():
    assert _f32(2.0 / 3.0) == 0.6666666865348816
    assert _f32(0.1) != 0.1
    assert _go_int(9.99) == 9
    assert _go_int(float("nan")) == -(2**63)


ZONE1 = {"zone": "zone1"}
ZONE2 = {"zone": "zone2"}
NOZONE = {"name": "value"}
SPREAD_LABELED_NODES = {
    "machine01": NOZONE, "machine02": NOZONE,
    "machine11": ZONE1, "machine12": ZONE1,
    "machine21": ZONE2, "machine22": ZONE2,
}


def zs(z1: int, z2: int) -> list[HostPriority]:
    return [hp("machine11", z1), hp("machine12", z1), hp("machine21", z2), hp("machine22", z2),
            hp("machine01", 0), hp("machine02", 0)]


# (pod, pods, services, expected, test)
ANTI_AFFINITY_CASES = [
    (Pod(), [], [], zs(10, 10), "nothing scheduled"),
    (pod(labels=LABELS1), [pod("machine11")], [], zs(10, 10), "no services"),
    (pod(labels=LABELS1), [pod("machine11", LABELS2)], [svc({"key": "value"})], zs(10, 10), "different services"),
    (pod(labels=LABELS1), [pod("machine01", LABELS2), pod("machine11", LABELS2), pod("machine21", LABELS1)],
     [svc(LABELS1)], zs(10, 0), "three pods, one service pod"),
    (pod(labels=LABELS1), [pod("machine11", LABELS2), pod("machine11", LABELS1), pod("machine21", LABELS1)],
     [svc(LABELS1)], zs(5, 5), "three pods, two service pods on different machines"),
    (pod(labels=LABELS1, namespace="default"),
     [pod("machine11", LABELS1), pod("machine11", LABELS1, "default"), pod("machine21", LABELS1),
      pod("machine21", LABELS1, "ns1")],
     [svc(LABELS1, "default")], zs(0, 10), "three service label match pods in different namespaces"),
    (pod(labels=LABELS1),
     [pod("machine11", LABELS2), pod("machine11", LABELS1), pod("machine21", LABELS1), pod("machine21", LABELS1)],
     [svc(LABELS1)], zs(6, 3), "four pods, three service pods"),
    (pod(labels=LABELS1), [pod("machine11", LABELS2), pod("machine11", LABELS1), pod("machine21", LABELS1)],
     [svc({"baz": "blah"})], zs(3, 6), "service with partial pod label matches"),
    (pod(labels=LABELS1),
     [pod("machine01", LABELS1), pod("machine11", LABELS1), pod("machine21", LABELS1), pod("machine21", LABELS1)],
     [svc(LABELS1)], zs(7, 5), "service pod on non-zoned node"),
]


@pytest.mark.parametrize(("pod_", "pods", "services", "expected", "test"), ANTI_AFFINITY_CASES,
                         ids=[c[-1] for c in ANTI_AFFINITY_CASES])
def test_zone_spread_priority(pod_, pods, services, expected, test):
    node_name_to_info = create_node_name_to_info_map(pods, [])
    zone_spread = ServiceAntiAffinity(pod_lister=FakePodLister(pods), service_lister=FakeServiceLister(services), label="zone")
    result = zone_spread.calculate_anti_affinity_priority(pod_, node_name_to_info, make_labeled_node_list(SPREAD_LABELED_NODES))
    assert sort_list(result) == sort_list(expected), test


def test_service_anti_affinity_lists_labeled_nodes_first():
    """Ordering quirk (spec 8.10): labeled nodes first, then unlabeled, not ``nodes`` order."""
    nodes = make_labeled_node_list({"plain": NOZONE, "machine11": ZONE1})
    zone_spread = ServiceAntiAffinity(pod_lister=FakePodLister([]), service_lister=FakeServiceLister([]), label="zone")
    result = zone_spread.calculate_anti_affinity_priority(Pod(), {}, nodes)
    assert result == [hp("machine11", 10), hp("plain", 0)]


def test_get_node_classification_by_labels():
    service_affinity = ServiceAntiAffinity(pod_lister=FakePodLister([]), service_lister=FakeServiceLister([]), label="zone")
    labeled, non_labeled = service_affinity._get_node_classification_by_labels(
        make_labeled_node_list({"machine01": {"zone": "zoneA"}}) + make_node_list(["machine02"])
    )
    assert labeled == {"machine01": "zoneA"}
    assert non_labeled == ["machine02"]
