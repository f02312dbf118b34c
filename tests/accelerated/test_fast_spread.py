"""The SelectorSpread fast path gives the mirror's scores, and stands down where it must.

kschedlearn-only (``kschedlearn/accelerated/fast_spread.py``): a Hypothesis
property against the mirror on random clusters — zoned and unzoned nodes, pods in two
namespaces, some being deleted, Service / RC / ReplicaSet selectors (equality-only and
``NotIn``/``Exists`` ones) — plus the stand-down cases.
"""

from __future__ import annotations

import cProfile
import inspect
import pstats

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.hypothesis_budget import examples

from kschedlearn.api.v1.meta import ObjectMeta
from kschedlearn.api.v1.node import Node
from kschedlearn.api.v1.others import (
    ReplicaSet,
    ReplicaSetSpec,
    ReplicationController,
    ReplicationControllerSpec,
    Service,
    ServiceSpec,
)
from kschedlearn.api.v1.pod import Pod, PodSpec
from kschedlearn.apimachinery.apis.meta.v1 import LabelSelector, LabelSelectorRequirement
from kschedlearn.accelerated import fast_paths, fast_selector
from kschedlearn.apimachinery.labels.selector import Requirement
from kschedlearn.accelerated import fast_spread
from kschedlearn.scheduler.algorithm.priorities.selector_spreading import (
    LABEL_ZONE_FAILURE_DOMAIN,
    LABEL_ZONE_REGION,
    SelectorSpread,
)
from kschedlearn.scheduler.schedulercache.util import create_node_name_to_info_map
from kschedlearn.scheduler.testing import (
    FakeControllerLister,
    FakeReplicaSetLister,
    FakeServiceLister,
    FakeStatefulSetLister,
)

KEYS = st.sampled_from(["app", "tier", "name"])
VALUES = st.sampled_from(["a", "b", ""])
LABELS = st.dictionaries(KEYS, VALUES, max_size=3)
NAMESPACES = st.sampled_from(["default", "other"])


@pytest.fixture(autouse=True, scope="module")
def _fast_paths_in_place():
    """The fast paths are put in place by whoever wants them (a world, a benchmark): here."""
    lease = fast_paths.acquire()
    yield
    lease.release()


@st.composite
def clusters(draw: st.DrawFn) -> tuple[Pod, list[Node], list[Pod], SelectorSpread]:
    n_nodes = draw(st.integers(1, 6))
    nodes = []
    for i in range(n_nodes):
        zone = draw(st.sampled_from([None, "z1", "z2"]))
        labels = {} if zone is None else {LABEL_ZONE_REGION: "r", LABEL_ZONE_FAILURE_DOMAIN: zone}
        nodes.append(Node(metadata=ObjectMeta(name=f"n{i}", labels=labels)))
    names = [n.metadata.name for n in nodes] + ["gone"]  # a pod on a node that is not a candidate
    pods = []
    for j in range(draw(st.integers(0, 14))):
        deleted = draw(st.booleans()) and draw(st.booleans())
        pods.append(Pod(metadata=ObjectMeta(name=f"p{j}", namespace=draw(NAMESPACES), labels=draw(LABELS),
                                            deletion_timestamp=1.0 if deleted else None),
                        spec=PodSpec(node_name=draw(st.sampled_from(names)))))
    ns = draw(NAMESPACES)
    services = [Service(metadata=ObjectMeta(name=f"s{k}", namespace=ns), spec=ServiceSpec(selector=sel))
                for k, sel in enumerate(draw(st.lists(st.dictionaries(KEYS, VALUES, min_size=1, max_size=2),
                                                      max_size=2)))]
    rcs = [ReplicationController(metadata=ObjectMeta(name=f"rc{k}", namespace=ns),
                                 spec=ReplicationControllerSpec(selector=sel))
           for k, sel in enumerate(draw(st.lists(st.dictionaries(KEYS, VALUES, min_size=1, max_size=2),
                                                 max_size=1)))]
    rss = []
    if draw(st.booleans()):
        op = draw(st.sampled_from(["NotIn", "Exists", "DoesNotExist", "In"]))
        values = () if op in ("Exists", "DoesNotExist") else ("a",)
        rss.append(ReplicaSet(metadata=ObjectMeta(name="rs", namespace=ns), spec=ReplicaSetSpec(
            selector=LabelSelector(match_expressions=(LabelSelectorRequirement(key="app", operator=op,
                                                                               values=values),)))))
    pod = Pod(metadata=ObjectMeta(name="new", namespace=ns, labels=draw(LABELS)))
    spread = SelectorSpread(service_lister=FakeServiceLister(services), controller_lister=FakeControllerLister(rcs),
                            replica_set_lister=FakeReplicaSetLister(rss), stateful_set_lister=FakeStatefulSetLister([]))
    return pod, nodes, pods, spread


@settings(max_examples=examples(150), deadline=None)
@given(clusters())
def test_fast_spread_scores_as_the_mirror(cluster: tuple[Pod, list[Node], list[Pod], SelectorSpread]) -> None:
    pod, nodes, pods, spread = cluster
    infos = create_node_name_to_info_map(pods, nodes)
    assert fast_spread.installed()
    want = fast_spread.MIRROR_CALCULATE_SPREAD_PRIORITY(spread, pod, infos, nodes)
    assert fast_spread.fast_calculate_spread_priority(spread, pod, infos, nodes) == want
    assert spread.calculate_spread_priority(pod, infos, nodes) == want


def test_the_mirror_stays_readable_through_the_slot() -> None:
    # exercise 11.1 and the trace layer read the mirror's own lines through the slot
    source = inspect.getsource(SelectorSpread.calculate_spread_priority)
    assert "for selector in selectors:" in source
    assert inspect.unwrap(SelectorSpread.calculate_spread_priority) is fast_spread.MIRROR_CALCULATE_SPREAD_PRIORITY


def _one_node_cluster() -> tuple[Pod, list[Node], dict, SelectorSpread]:
    nodes = [Node(metadata=ObjectMeta(name="n0")), Node(metadata=ObjectMeta(name="n1"))]
    pods = [Pod(metadata=ObjectMeta(name="p", namespace="default", labels={"app": "a"}),
                spec=PodSpec(node_name="n0"))]
    spread = SelectorSpread(
        service_lister=FakeServiceLister([Service(metadata=ObjectMeta(name="s", namespace="default"),
                                                  spec=ServiceSpec(selector={"app": "a"}))]),
        controller_lister=FakeControllerLister([]), replica_set_lister=FakeReplicaSetLister([]),
        stateful_set_lister=FakeStatefulSetLister([]))
    pod = Pod(metadata=ObjectMeta(name="new", namespace="default", labels={"app": "a"}))
    return pod, nodes, create_node_name_to_info_map(pods, nodes), spread


def test_a_learners_requirement_matches_is_asked_by_the_mirror() -> None:
    pod, nodes, infos, spread = _one_node_cluster()
    asked = []

    def learner_matches(self: Requirement, labels: dict) -> bool:
        asked.append(dict(labels))
        return fast_selector.MIRROR_REQUIREMENT_MATCHES(self, labels)

    Requirement.matches = learner_matches  # type: ignore[method-assign]
    try:
        result = spread.calculate_spread_priority(pod, infos, nodes)
        through_slot = list(asked)
        asked.clear()
        fast_spread.MIRROR_CALCULATE_SPREAD_PRIORITY(spread, pod, infos, nodes)
    finally:
        Requirement.matches = fast_selector.MIRROR_REQUIREMENT_MATCHES  # type: ignore[method-assign]
    # the Service lister asks for the new pod, the walk for the one bound pod: as the mirror does
    assert through_slot == asked == [{"app": "a"}, {"app": "a"}]
    assert [h.score for h in result] == [0, 10]


def test_under_a_profiler_the_mirror_makes_its_matches_calls() -> None:
    pod, nodes, infos, spread = _one_node_cluster()
    prof = cProfile.Profile()
    prof.enable()
    try:
        spread.calculate_spread_priority(pod, infos, nodes)
    finally:
        prof.disable()
    stats = pstats.Stats(prof).stats  # type: ignore[attr-defined]
    matches = [v for k, v in stats.items() if k[2] == "fast_matches"]
    # asked once by the Service lister (the new pod) and once by the mirror's walk (the bound pod)
    assert matches and matches[0][1] == 2
    assert {c[2] for c in matches[0][4]} == {"get_pod_services", "calculate_spread_priority"}
