"""Port of node_affinity_test.go (TestNodeAffinityPriority), v1.6.1.

Go: plugin/pkg/scheduler/algorithm/priorities/node_affinity_test.go
(The annotation twin, TestNodeAffinityAnnotationsPriority, needs the alpha gate and is not ported.)
"""

from __future__ import annotations

import pytest

from kschedlearn.api.v1.meta import ObjectMeta
from kschedlearn.api.v1.node import Node
from kschedlearn.api.v1.pod import (
    Affinity,
    NodeAffinity,
    NodeSelectorRequirement,
    NodeSelectorTerm,
    Pod,
    PodSpec,
    PreferredSchedulingTerm,
)
from kschedlearn.scheduler.algorithm.priorities.metadata import priority_metadata
from kschedlearn.scheduler.algorithm.priorities.node_affinity import (
    calculate_node_affinity_priority_map,
    calculate_node_affinity_priority_reduce,
)
from kschedlearn.scheduler.algorithm.priorities.test_util import priority_function
from kschedlearn.scheduler.api.types import HostPriority
from kschedlearn.scheduler.schedulercache.util import create_node_name_to_info_map

LABEL1 = {"foo": "bar"}
LABEL2 = {"key": "value"}
LABEL3 = {"az": "az1"}
LABEL4 = {"abc": "az11", "def": "az22"}
LABEL5 = {"foo": "bar", "key": "value", "az": "az1"}


def expr(key: str, *values: str) -> NodeSelectorRequirement:
    return NodeSelectorRequirement(key=key, operator="In", values=tuple(values))


def preferred(weight: int, *exprs: NodeSelectorRequirement) -> PreferredSchedulingTerm:
    return PreferredSchedulingTerm(weight=weight, preference=NodeSelectorTerm(match_expressions=tuple(exprs)))


AFFINITY1 = Affinity(node_affinity=NodeAffinity(preferred_during_scheduling_ignored_during_execution=(
    preferred(2, expr("foo", "bar")),)))
AFFINITY2 = Affinity(node_affinity=NodeAffinity(preferred_during_scheduling_ignored_during_execution=(
    preferred(2, expr("foo", "bar")),
    preferred(4, expr("key", "value")),
    preferred(5, expr("foo", "bar"), expr("key", "value"), expr("az", "az1")),
)))


def node(name: str, labels: dict) -> Node:
    return Node(metadata=ObjectMeta(name=name, labels=dict(labels)))


def hp(host: str, score: int) -> HostPriority:
    return HostPriority(host=host, score=score)


CASES = [
    (Pod(metadata=ObjectMeta(annotations={})), [node("machine1", LABEL1), node("machine2", LABEL2), node("machine3", LABEL3)],
     [hp("machine1", 0), hp("machine2", 0), hp("machine3", 0)], "all machines are same priority as NodeAffinity is nil"),
    (Pod(spec=PodSpec(affinity=AFFINITY1)), [node("machine1", LABEL4), node("machine2", LABEL2), node("machine3", LABEL3)],
     [hp("machine1", 0), hp("machine2", 0), hp("machine3", 0)],
     "no machine macthes preferred scheduling requirements in NodeAffinity of pod so all machines' priority is zero"),
    (Pod(spec=PodSpec(affinity=AFFINITY1)), [node("machine1", LABEL1), node("machine2", LABEL2), node("machine3", LABEL3)],
     [hp("machine1", 10), hp("machine2", 0), hp("machine3", 0)],
     "only machine1 matches the preferred scheduling requirements of pod"),
    # raw 2, 11, 4 -> int(10*2/11)=1, 10, int(10*4/11)=3
    (Pod(spec=PodSpec(affinity=AFFINITY2)), [node("machine1", LABEL1), node("machine5", LABEL5), node("machine2", LABEL2)],
     [hp("machine1", 1), hp("machine5", 10), hp("machine2", 3)],
     "all machines matches the preferred scheduling requirements of pod but with different priorities "),
]


@pytest.mark.parametrize(("pod", "nodes", "expected", "test"), CASES, ids=[c[-1] for c in CASES])
def test_node_affinity_priority(pod, nodes, expected, test):
    node_name_to_info = create_node_name_to_info_map([], nodes)
    nap = priority_function(calculate_node_affinity_priority_map, calculate_node_affinity_priority_reduce)
    assert nap(pod, node_name_to_info, nodes) == expected, test


def test_map_with_metadata_matches_slow_path():
    nodes = [node("machine1", LABEL1), node("machine5", LABEL5)]
    pod = Pod(spec=PodSpec(affinity=AFFINITY2))
    infos = create_node_name_to_info_map([], nodes)
    meta = priority_metadata(pod, infos)
    for n in nodes:
        info = infos[n.metadata.name]
        assert calculate_node_affinity_priority_map(pod, meta, info) == calculate_node_affinity_priority_map(pod, None, info)
    assert calculate_node_affinity_priority_map(pod, meta, infos["machine5"]).score == 11


def test_zero_weight_and_empty_expressions_do_not_count():
    aff = Affinity(node_affinity=NodeAffinity(preferred_during_scheduling_ignored_during_execution=(
        preferred(0, expr("foo", "bar")), preferred(3))))
    infos = create_node_name_to_info_map([], [node("machine1", LABEL1)])
    assert calculate_node_affinity_priority_map(Pod(spec=PodSpec(affinity=aff)), None, infos["machine1"]).score == 0


def test_weight_sum_wraps_as_go_int32():
    """Go keeps the sum in ``var count int32``: two weights of 2^30 wrap to MinInt32 (the API
    server of 1.6 does not bound the weight at create time in this project)."""
    aff = Affinity(node_affinity=NodeAffinity(preferred_during_scheduling_ignored_during_execution=(
        preferred(2**30, expr("foo", "bar")), preferred(2**30, expr("foo", "bar")))))
    infos = create_node_name_to_info_map([], [node("machine1", LABEL1)])
    assert calculate_node_affinity_priority_map(Pod(spec=PodSpec(affinity=aff)), None, infos["machine1"]).score == -(2**31)
