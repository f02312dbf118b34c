"""Port of interpod_affinity_test.go, v1.6.1: TestInterPodAffinityPriority,
TestHardPodAffinitySymmetricWeight, TestSoftPodAntiAffinityWithFailureDomains.

Go: plugin/pkg/scheduler/algorithm/priorities/interpod_affinity_test.go
The annotation-based twins of these tests (alpha gate AffinityInAnnotations) are not ported.
"""

from __future__ import annotations

import pytest

from kschedlearn.api.v1.meta import ObjectMeta
from kschedlearn.api.v1.node import Node
from kschedlearn.api.v1.pod import (
    Affinity,
    Pod,
    PodAffinity,
    PodAffinityTerm,
    PodAntiAffinity,
    PodSpec,
    WeightedPodAffinityTerm,
)
from kschedlearn.apimachinery.apis.meta.v1 import LabelSelector, LabelSelectorRequirement
from kschedlearn.scheduler.algorithm.priorities.interpod_affinity import InterPodAffinity, new_inter_pod_affinity_priority
from kschedlearn.scheduler.algorithm.priorities.util.topologies import Topologies
from kschedlearn.scheduler.api.types import HostPriority
from kschedlearn.scheduler.schedulercache.util import create_node_name_to_info_map
from kschedlearn.scheduler.testing import FakeNodeLister, FakeNodeListInfo, FakePodLister

DEFAULT_HARD_POD_AFFINITY_SYMMETRIC_WEIGHT = 1  # Go: v1.DefaultHardPodAffinitySymmetricWeight
DEFAULT_FAILURE_DOMAINS = (
    "kubernetes.io/hostname",
    "failure-domain.beta.kubernetes.io/zone",
    "failure-domain.beta.kubernetes.io/region",
)  # Go: strings.Split(v1.DefaultFailureDomains, ",")

RG_CHINA = {"region": "China"}
RG_INDIA = {"region": "India"}
AZ1 = {"az": "az1"}
AZ2 = {"az": "az2"}
RG_CHINA_AZ1 = {"region": "China", "az": "az1"}
S1 = {"security": "S1"}
S2 = {"security": "S2"}


def req(key: str, op: str, *values: str) -> LabelSelectorRequirement:
    return LabelSelectorRequirement(key=key, operator=op, values=tuple(values))


def term(topology_key: str, *reqs: LabelSelectorRequirement) -> PodAffinityTerm:
    return PodAffinityTerm(label_selector=LabelSelector(match_expressions=tuple(reqs)), topology_key=topology_key)


def weighted(weight: int, t: PodAffinityTerm) -> WeightedPodAffinityTerm:
    return WeightedPodAffinityTerm(weight=weight, pod_affinity_term=t)


STAY_WITH_S1_IN_REGION = Affinity(pod_affinity=PodAffinity(
    preferred_during_scheduling_ignored_during_execution=(weighted(5, term("region", req("security", "In", "S1"))),)))
STAY_WITH_S2_IN_REGION = Affinity(pod_affinity=PodAffinity(
    preferred_during_scheduling_ignored_during_execution=(weighted(6, term("region", req("security", "In", "S2"))),)))
AFFINITY3 = Affinity(pod_affinity=PodAffinity(preferred_during_scheduling_ignored_during_execution=(
    weighted(8, term("region", req("security", "NotIn", "S1"), req("security", "In", "S2"))),
    weighted(2, term("region", req("security", "Exists"), req("wrongkey", "DoesNotExist"))),
)))
HARD_AFFINITY = Affinity(pod_affinity=PodAffinity(required_during_scheduling_ignored_during_execution=(
    term("region", req("security", "In", "S1", "value2")),
    term("region", req("security", "Exists"), req("wrongkey", "DoesNotExist")),
)))
AWAY_FROM_S1_IN_AZ = Affinity(pod_anti_affinity=PodAntiAffinity(
    preferred_during_scheduling_ignored_during_execution=(weighted(5, term("az", req("security", "In", "S1"))),)))
AWAY_FROM_S2_IN_AZ = Affinity(pod_anti_affinity=PodAntiAffinity(
    preferred_during_scheduling_ignored_during_execution=(weighted(5, term("az", req("security", "In", "S2"))),)))
STAY_WITH_S1_IN_REGION_AWAY_FROM_S2_IN_AZ = Affinity(
    pod_affinity=PodAffinity(preferred_during_scheduling_ignored_during_execution=(
        weighted(8, term("region", req("security", "In", "S1"))),)),
    pod_anti_affinity=PodAntiAffinity(preferred_during_scheduling_ignored_during_execution=(
        weighted(5, term("az", req("security", "In", "S2"))),)),
)


def pod(node: str = "", labels: dict | None = None, affinity: Affinity | None = None) -> Pod:
    return Pod(metadata=ObjectMeta(labels=dict(labels or {})), spec=PodSpec(node_name=node, affinity=affinity))


def node(name: str, labels: dict) -> Node:
    return Node(metadata=ObjectMeta(name=name, labels=dict(labels)))


def hp(host: str, score: int) -> HostPriority:
    return HostPriority(host=host, score=score)


def scores(*values: int) -> list[HostPriority]:
    return [hp(f"machine{i + 1}", v) for i, v in enumerate(values)]


NODES_CHINA_INDIA_AZ1 = [node("machine1", RG_CHINA), node("machine2", RG_INDIA), node("machine3", AZ1)]

# (pod, pods, nodes, expected, test)
CASES = [
    (pod(labels=S1), [], NODES_CHINA_INDIA_AZ1, scores(0, 0, 0), "all machines are same priority as Affinity is nil"),
    (pod(labels=S1, affinity=STAY_WITH_S1_IN_REGION), [pod("machine1", S1), pod("machine2", S2), pod("machine3", S1)],
     NODES_CHINA_INDIA_AZ1, scores(10, 0, 0),
     "Affinity: pod that matches topology key & pods in nodes will get high score comparing to others"
     "which doesn't match either pods in nodes or in topology key"),
    (pod(affinity=STAY_WITH_S1_IN_REGION), [pod("machine1", S1)],
     [node("machine1", RG_CHINA), node("machine2", RG_CHINA_AZ1), node("machine3", RG_INDIA)], scores(10, 10, 0),
     "All the nodes that have the same topology key & label value with one of them has an existing pod that match the "
     "affinity rules, have the same score"),
    (pod(labels=S1, affinity=STAY_WITH_S2_IN_REGION),
     [pod("machine1", S2), pod("machine1", S2), pod("machine2", S2), pod("machine3", S2), pod("machine4", S2),
      pod("machine5", S2)],
     [node("machine1", RG_CHINA), node("machine2", RG_INDIA), node("machine3", RG_CHINA), node("machine4", RG_CHINA),
      node("machine5", RG_INDIA)], scores(10, 5, 10, 10, 5),
     "Affinity: nodes in one region has more matching pods comparing to other reqion, so the region which has more "
     "macthes will get high score"),
    (pod(labels=S1, affinity=AFFINITY3), [pod("machine1", S1), pod("machine2", S2), pod("machine3", S1)],
     NODES_CHINA_INDIA_AZ1, scores(2, 10, 0),
     "Affinity: different Label operators and values for pod affinity scheduling preference, including some match failures "),
    (pod(labels=S2), [pod("machine1", S1, STAY_WITH_S1_IN_REGION), pod("machine2", S2, STAY_WITH_S2_IN_REGION)],
     NODES_CHINA_INDIA_AZ1, scores(0, 10, 0),
     "Affinity symmetry: considred only the preferredDuringSchedulingIgnoredDuringExecution in pod affinity symmetry"),
    (pod(labels=S1), [pod("machine1", S1, HARD_AFFINITY), pod("machine2", S2, HARD_AFFINITY)],
     NODES_CHINA_INDIA_AZ1, scores(10, 10, 0),
     "Affinity symmetry: considred RequiredDuringSchedulingIgnoredDuringExecution in pod affinity symmetry"),
    (pod(labels=S1, affinity=AWAY_FROM_S1_IN_AZ), [pod("machine1", S1), pod("machine2", S2)],
     [node("machine1", AZ1), node("machine2", RG_CHINA)], scores(0, 10),
     "Anti Affinity: pod that doesnot match existing pods in node will get high score "),
    (pod(labels=S1, affinity=AWAY_FROM_S1_IN_AZ), [pod("machine1", S1), pod("machine2", S1)],
     [node("machine1", AZ1), node("machine2", RG_CHINA)], scores(0, 10),
     "Anti Affinity: pod that does not matches topology key & matches the pods in nodes will get higher score comparing to others "),
    (pod(labels=S1, affinity=AWAY_FROM_S1_IN_AZ), [pod("machine1", S1), pod("machine1", S1), pod("machine2", S2)],
     [node("machine1", AZ1), node("machine2", RG_INDIA)], scores(0, 10),
     "Anti Affinity: one node has more matching pods comparing to other node, so the node which has more unmacthes will get high score"),
    (pod(labels=S2), [pod("machine1", S1, AWAY_FROM_S2_IN_AZ), pod("machine2", S2, AWAY_FROM_S1_IN_AZ)],
     [node("machine1", AZ1), node("machine2", AZ2)], scores(0, 10),
     "Anti Affinity symmetry: the existing pods in node which has anti affinity match will get high score"),
    (pod(labels=S1, affinity=STAY_WITH_S1_IN_REGION_AWAY_FROM_S2_IN_AZ), [pod("machine1", S1), pod("machine2", S1)],
     [node("machine1", RG_CHINA), node("machine2", AZ1)], scores(10, 0),
     "Affinity and Anti Affinity: considered only preferredDuringSchedulingIgnoredDuringExecution in both pod affinity & anti affinity"),
    (pod(labels=S1, affinity=STAY_WITH_S1_IN_REGION_AWAY_FROM_S2_IN_AZ),
     [pod("machine1", S1), pod("machine1", S1), pod("machine2", S1), pod("machine3", S1), pod("machine3", S1),
      pod("machine4", S1), pod("machine5", S1)],
     [node("machine1", RG_CHINA_AZ1), node("machine2", RG_INDIA), node("machine3", RG_CHINA), node("machine4", RG_CHINA),
      node("machine5", RG_INDIA)], scores(10, 4, 10, 10, 4),
     "Affinity and Anti Affinity: considering both affinity and anti-affinity, the pod to schedule and existing pods have the same labels"),
    (pod(labels=S1, affinity=STAY_WITH_S1_IN_REGION_AWAY_FROM_S2_IN_AZ),
     [pod("machine1", S1), pod("machine2", S2), pod("machine3", affinity=STAY_WITH_S1_IN_REGION_AWAY_FROM_S2_IN_AZ),
      pod("machine4", affinity=AWAY_FROM_S1_IN_AZ)],
     [node("machine1", RG_CHINA), node("machine2", AZ1), node("machine3", RG_INDIA), node("machine4", AZ2)],
     scores(10, 0, 10, 0),
     "Affinity and Anti Affinity and symmetry: considered only preferredDuringSchedulingIgnoredDuringExecution in both "
     "pod affinity & anti affinity & symmetry"),
]


def _ipa(nodes, pods, hard_weight, failure_domains=Topologies()) -> InterPodAffinity:
    return InterPodAffinity(
        info=FakeNodeListInfo(nodes),
        node_lister=FakeNodeLister(nodes),
        pod_lister=FakePodLister(pods),
        hard_pod_affinity_weight=hard_weight,
        failure_domains=failure_domains,
    )


@pytest.mark.parametrize(("pod_", "pods", "nodes", "expected", "test"), CASES, ids=[c[-1] for c in CASES])
def test_inter_pod_affinity_priority(pod_, pods, nodes, expected, test):
    node_name_to_info = create_node_name_to_info_map(pods, nodes)
    ipa = _ipa(nodes, pods, DEFAULT_HARD_POD_AFFINITY_SYMMETRIC_WEIGHT)
    assert ipa.calculate_inter_pod_affinity_priority(pod_, node_name_to_info, nodes) == expected, test


SERVICE_S1 = {"service": "S1"}
HARD_POD_AFFINITY = Affinity(pod_affinity=PodAffinity(
    required_during_scheduling_ignored_during_execution=(term("region", req("service", "In", "S1")),)))

HARD_CASES = [
    (DEFAULT_HARD_POD_AFFINITY_SYMMETRIC_WEIGHT, scores(10, 10, 0),
     "Hard Pod Affinity symmetry: hard pod affinity symmetry weights 1 by default, then nodes that match the hard pod "
     "affinity symmetry rules, get a high score"),
    (0, scores(0, 0, 0),
     "Hard Pod Affinity symmetry: hard pod affinity symmetry is closed(weights 0), then nodes that match the hard pod "
     "affinity symmetry rules, get same score with those not match"),
]


@pytest.mark.parametrize(("hard_weight", "expected", "test"), HARD_CASES, ids=[c[-1] for c in HARD_CASES])
def test_hard_pod_affinity_symmetric_weight(hard_weight, expected, test):
    pods = [pod("machine1", affinity=HARD_POD_AFFINITY), pod("machine2", affinity=HARD_POD_AFFINITY)]
    node_name_to_info = create_node_name_to_info_map(pods, NODES_CHINA_INDIA_AZ1)
    ipa = _ipa(NODES_CHINA_INDIA_AZ1, pods, hard_weight)
    result = ipa.calculate_inter_pod_affinity_priority(pod(labels=SERVICE_S1), node_name_to_info, NODES_CHINA_INDIA_AZ1)
    assert result == expected, test


ANTI_AFFINITY_EMPTY_KEY = Affinity(pod_anti_affinity=PodAntiAffinity(
    preferred_during_scheduling_ignored_during_execution=(weighted(5, term("", req("security", "In", "S1"))),)))
FAILURE_DOMAIN_CASES = [
    (Topologies(default_keys=DEFAULT_FAILURE_DOMAINS, affinity_in_annotations=True), scores(0, 10),
     "Soft Pod Anti Affinity: when the topologyKey is emtpy, match among topologyKeys indicated by failure domains."),
    (Topologies(affinity_in_annotations=True), scores(0, 0),
     "Soft Pod Anti Affinity: when the topologyKey is emtpy, and no failure domains indicated, regard as topologyKey not match."),
]


@pytest.mark.parametrize(("failure_domains", "expected", "test"), FAILURE_DOMAIN_CASES,
                         ids=[c[-1] for c in FAILURE_DOMAIN_CASES])
def test_soft_pod_anti_affinity_with_failure_domains(failure_domains, expected, test):
    nodes = [node("machine1", {"failure-domain.beta.kubernetes.io/zone": "az1"}), node("machine2", AZ1)]
    pods = [pod("machine1", S1), pod("machine2", S1)]
    node_name_to_info = create_node_name_to_info_map(pods, nodes)
    ipa = _ipa(nodes, pods, DEFAULT_HARD_POD_AFFINITY_SYMMETRIC_WEIGHT, failure_domains)
    result = ipa.calculate_inter_pod_affinity_priority(pod(labels=S1, affinity=ANTI_AFFINITY_EMPTY_KEY), node_name_to_info, nodes)
    assert result == expected, test


def test_empty_topology_key_never_matches_with_gate_off():
    """With the alpha gate off (the 1.6 default) an empty key matches nothing, even with failure domains."""
    priority = new_inter_pod_affinity_priority(None, None, None, 1, DEFAULT_FAILURE_DOMAINS)
    nodes = [node("machine1", {"failure-domain.beta.kubernetes.io/zone": "az1"}), node("machine2", AZ1)]
    pods = [pod("machine1", S1), pod("machine2", S1)]
    ipa = _ipa(nodes, pods, 1, Topologies(default_keys=DEFAULT_FAILURE_DOMAINS))
    result = ipa.calculate_inter_pod_affinity_priority(
        pod(labels=S1, affinity=ANTI_AFFINITY_EMPTY_KEY), create_node_name_to_info_map(pods, nodes), nodes)
    assert result == scores(0, 0)
    assert callable(priority)


def test_only_negative_counts_normalise_with_zero_in_range():
    """Spec 13.10: min/max start at 0, so one node at -5 and one at 0 give 0 and 10."""
    nodes = [node("machine1", AZ1), node("machine2", AZ2)]
    pods = [pod("machine1", S1)]
    ipa = _ipa(nodes, pods, 1)
    result = ipa.calculate_inter_pod_affinity_priority(
        pod(labels=S1, affinity=AWAY_FROM_S1_IN_AZ), create_node_name_to_info_map(pods, nodes), nodes)
    assert result == scores(0, 10)


def test_unknown_node_of_existing_pod_raises():
    """The node of an existing pod is looked up through ``info``; a failure aborts the priority."""
    nodes = [node("machine1", AZ1)]
    pods = [pod("machine1", S1)]
    ipa = _ipa([], pods, 1)
    with pytest.raises(Exception):
        ipa.calculate_inter_pod_affinity_priority(
            pod(labels=S1, affinity=AWAY_FROM_S1_IN_AZ), create_node_name_to_info_map(pods, nodes), nodes)
