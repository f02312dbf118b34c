"""MatchInterPodAffinity: the 1.6 loop-variable pointer quirk (spec §13.19) and basic cases.

Go: predicates.go getMatchingAntiAffinityTerms / PodAffinityChecker.getMatchingAntiAffinityTerms
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/predicates/predicates.go#L1041-L1122
"""

from __future__ import annotations

import pytest

from kschedlearn.api.v1.meta import ObjectMeta
from kschedlearn.api.v1.node import Node
from kschedlearn.api.v1.pod import Affinity, Pod, PodAffinityTerm, PodAntiAffinity, PodSpec
from kschedlearn.apimachinery.apis.meta.v1 import LabelSelector
from kschedlearn.scheduler.algorithm.predicates import predicates as p
from kschedlearn.scheduler.algorithm.predicates.metadata import predicate_metadata
from kschedlearn.scheduler.schedulercache.node_info import new_node_info
from kschedlearn.scheduler.testing.fake_lister import FakeNodeListInfo, FakePodLister


def _term(key: str, topology_key: str) -> PodAffinityTerm:
    return PodAffinityTerm(label_selector=LabelSelector(match_labels={key: "x"}), topology_key=topology_key)


# The existing pod has two required anti-affinity terms: the first (matching the incoming pod's
# label "app") is per-zone; the second (matching nothing) is per-hostname. Correct code would
# forbid the whole zone; 1.6 records the first match through &term, which ends up as the LAST
# term (hostname), so only the existing pod's own host is forbidden.
EXISTING = Pod(
    metadata=ObjectMeta(name="existing", namespace="default", labels={}),
    spec=PodSpec(
        node_name="n1",
        affinity=Affinity(
            pod_anti_affinity=PodAntiAffinity(
                required_during_scheduling_ignored_during_execution=(
                    _term("app", "zone"),
                    _term("nomatch", "kubernetes.io/hostname"),
                )
            )
        ),
    ),
)
INCOMING = Pod(metadata=ObjectMeta(name="incoming", namespace="default", labels={"app": "x"}))
N1 = Node(metadata=ObjectMeta(name="n1", labels={"zone": "z1", "kubernetes.io/hostname": "n1"}))
N2 = Node(metadata=ObjectMeta(name="n2", labels={"zone": "z1", "kubernetes.io/hostname": "n2"}))


def _infos():
    ni1 = new_node_info(EXISTING)
    ni1.set_node(N1)
    ni2 = new_node_info()
    ni2.set_node(N2)
    return {"n1": ni1, "n2": ni2}


def test_metadata_records_last_term_for_each_match():
    terms = p.get_matching_anti_affinity_terms(INCOMING, _infos())
    assert len(terms) == 1
    assert terms[0].term.topology_key == "kubernetes.io/hostname"  # the quirk
    assert terms[0].node is N1


@pytest.mark.parametrize("use_meta", [True, False], ids=["metadata_path", "slow_path"])
def test_quirk_lets_pod_into_same_zone(use_meta):
    infos = _infos()
    pred = p.new_pod_affinity_predicate(FakeNodeListInfo([N1, N2]), FakePodLister([EXISTING]), [])
    meta = predicate_metadata(INCOMING, infos) if use_meta else None
    # n1: same hostname as the existing pod -> rejected.
    assert pred(INCOMING, meta, infos["n1"]) == (False, [p.errs.ERR_POD_AFFINITY_NOT_MATCH])
    # n2: same zone; correct code would reject, 1.6 lets it in.
    assert pred(INCOMING, meta, infos["n2"]) == (True, [])


def test_metadata_is_none_when_a_node_object_is_missing():
    infos = _infos()
    infos["ghost"] = new_node_info()
    assert predicate_metadata(INCOMING, infos) is None


def test_pod_affinity_first_pod_of_group_may_schedule():
    pod = Pod(
        metadata=ObjectMeta(name="a", namespace="default", labels={"app": "x"}),
        spec=PodSpec(affinity=Affinity(pod_affinity=__import__("kschedlearn.api.v1.pod", fromlist=["PodAffinity"]).PodAffinity(
            required_during_scheduling_ignored_during_execution=(_term("app", "zone"),)))),
    )
    ni = new_node_info()
    ni.set_node(N2)
    pred = p.new_pod_affinity_predicate(FakeNodeListInfo([N1, N2]), FakePodLister([]), [])
    assert pred(pod, None, ni) == (True, [])
