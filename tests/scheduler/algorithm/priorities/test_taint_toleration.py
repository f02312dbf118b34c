"""Port of taint_toleration_test.go (TestTaintAndToleration), v1.6.1.

Go: plugin/pkg/scheduler/algorithm/priorities/taint_toleration_test.go
"""

from __future__ import annotations

import pytest

from kschedlearn.api.v1.meta import ObjectMeta
from kschedlearn.api.v1.node import Node, NodeSpec, Taint
from kschedlearn.api.v1.pod import Pod, PodSpec, Toleration
from kschedlearn.scheduler.algorithm.priorities.metadata import priority_metadata
from kschedlearn.scheduler.algorithm.priorities.taint_toleration import (
    compute_taint_toleration_priority_map,
    compute_taint_toleration_priority_reduce,
    get_all_toleration_prefer_no_schedule,
)
from kschedlearn.scheduler.algorithm.priorities.test_util import priority_function
from kschedlearn.scheduler.api.types import HostPriority
from kschedlearn.scheduler.schedulercache.util import create_node_name_to_info_map

PNS = "PreferNoSchedule"
NS = "NoSchedule"


def node_with_taints(name: str, taints: list[Taint]) -> Node:
    """Go: nodeWithTaints"""
    return Node(metadata=ObjectMeta(name=name), spec=NodeSpec(taints=tuple(taints)))


def pod_with_tolerations(tolerations: list[Toleration]) -> Pod:
    """Go: podWithTolerations"""
    return Pod(spec=PodSpec(tolerations=tuple(tolerations)))


def tol(key: str, value: str, effect: str) -> Toleration:
    return Toleration(key=key, operator="Equal", value=value, effect=effect)


def taint(key: str, value: str, effect: str) -> Taint:
    return Taint(key=key, value=value, effect=effect)


def hp(host: str, score: int) -> HostPriority:
    return HostPriority(host=host, score=score)


CASES = [
    (pod_with_tolerations([tol("foo", "bar", PNS)]),
     [node_with_taints("nodeA", [taint("foo", "bar", PNS)]), node_with_taints("nodeB", [taint("foo", "blah", PNS)])],
     [hp("nodeA", 10), hp("nodeB", 0)],
     "node with taints tolerated by the pod, gets a higher score than those node with intolerable taints"),
    (pod_with_tolerations([tol("cpu-type", "arm64", PNS), tol("disk-type", "ssd", PNS)]),
     [node_with_taints("nodeA", []), node_with_taints("nodeB", [taint("cpu-type", "arm64", PNS)]),
      node_with_taints("nodeC", [taint("cpu-type", "arm64", PNS), taint("disk-type", "ssd", PNS)])],
     [hp("nodeA", 10), hp("nodeB", 10), hp("nodeC", 10)],
     "the nodes that all of their taints are tolerated by the pod, get the same score, no matter how many tolerable "
     "taints a node has"),
    (pod_with_tolerations([tol("foo", "bar", PNS)]),
     [node_with_taints("nodeA", []), node_with_taints("nodeB", [taint("cpu-type", "arm64", PNS)]),
      node_with_taints("nodeC", [taint("cpu-type", "arm64", PNS), taint("disk-type", "ssd", PNS)])],
     [hp("nodeA", 10), hp("nodeB", 5), hp("nodeC", 0)],
     "the more intolerable taints a node has, the lower score it gets."),
    (pod_with_tolerations([tol("cpu-type", "arm64", NS), tol("disk-type", "ssd", NS)]),
     [node_with_taints("nodeA", []), node_with_taints("nodeB", [taint("cpu-type", "arm64", NS)]),
      node_with_taints("nodeC", [taint("cpu-type", "arm64", PNS), taint("disk-type", "ssd", PNS)])],
     [hp("nodeA", 10), hp("nodeB", 10), hp("nodeC", 0)],
     "only taints and tolerations that have effect PreferNoSchedule are checked by taints-tolerations priority function"),
]


@pytest.mark.parametrize(("pod", "nodes", "expected", "test"), CASES, ids=[c[-1] for c in CASES])
def test_taint_and_toleration(pod, nodes, expected, test):
    node_name_to_info = create_node_name_to_info_map([], nodes)
    ttp = priority_function(compute_taint_toleration_priority_map, compute_taint_toleration_priority_reduce)
    assert ttp(pod, node_name_to_info, nodes) == expected, test


def test_all_nodes_ten_when_no_intolerable_taints():
    """Spec 13.11: maxCount 0 → every node gets 10 (not 0)."""
    nodes = [node_with_taints("nodeA", []), node_with_taints("nodeB", [taint("k", "v", NS)])]
    ttp = priority_function(compute_taint_toleration_priority_map, compute_taint_toleration_priority_reduce)
    assert ttp(Pod(), create_node_name_to_info_map([], nodes), nodes) == [hp("nodeA", 10), hp("nodeB", 10)]


def test_metadata_keeps_only_prefer_no_schedule_or_empty_effect():
    tolerations = [tol("a", "1", PNS), tol("b", "2", NS), Toleration(key="c", operator="Exists")]
    assert get_all_toleration_prefer_no_schedule(tolerations) == [tolerations[0], tolerations[2]]
    meta = priority_metadata(pod_with_tolerations(tolerations), {})
    assert meta.pod_tolerations == (tolerations[0], tolerations[2])
    info = create_node_name_to_info_map([], [node_with_taints("n", [taint("b", "2", PNS)])])["n"]
    # NoSchedule toleration does not cover a PreferNoSchedule taint.
    assert compute_taint_toleration_priority_map(pod_with_tolerations(tolerations), meta, info).score == 1
