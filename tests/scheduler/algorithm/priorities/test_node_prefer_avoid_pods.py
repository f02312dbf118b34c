"""Port of node_prefer_avoid_pods_test.go (TestNodePreferAvoidPriority), v1.6.1.

Go: plugin/pkg/scheduler/algorithm/priorities/node_prefer_avoid_pods_test.go
"""

from __future__ import annotations

import json

import pytest

from kschedlearn.api.v1.meta import ObjectMeta, OwnerReference
from kschedlearn.api.v1.node import Node
from kschedlearn.api.v1.pod import Pod
from kschedlearn.scheduler.algorithm.priorities.node_prefer_avoid_pods import (
    calculate_node_prefer_avoid_pods_priority_map,
)
from kschedlearn.scheduler.algorithm.priorities.test_util import priority_function
from kschedlearn.scheduler.api.types import HostPriority
from kschedlearn.scheduler.schedulercache.util import create_node_name_to_info_map

KEY = "scheduler.alpha.kubernetes.io/preferAvoidPods"


def _annotation(kind: str, uid: str) -> dict[str, str]:
    doc = {"preferAvoidPods": [{"podSignature": {"podController": {
        "apiVersion": "v1", "kind": kind, "name": "foo", "uid": uid, "controller": True}},
        "reason": "some reason", "message": "some message"}]}
    return {KEY: json.dumps(doc, indent=4)}


TEST_NODES = [
    Node(metadata=ObjectMeta(name="machine1", annotations=_annotation("ReplicationController", "abcdef123456"))),
    Node(metadata=ObjectMeta(name="machine2", annotations=_annotation("ReplicaSet", "qwert12345"))),
    Node(metadata=ObjectMeta(name="machine3")),
]


def owned(kind: str, uid: str, controller: bool | None) -> Pod:
    ref = OwnerReference(kind=kind, name="foo", uid=uid, controller=controller)
    return Pod(metadata=ObjectMeta(namespace="default", owner_references=(ref,)))


def hp(host: str, score: int) -> HostPriority:
    return HostPriority(host=host, score=score)


CASES = [
    (owned("ReplicationController", "abcdef123456", True), [hp("machine1", 0), hp("machine2", 10), hp("machine3", 10)],
     "pod managed by ReplicationController should avoid a node, this node get lowest priority score"),
    (owned("RandomController", "abcdef123456", True), [hp("machine1", 10), hp("machine2", 10), hp("machine3", 10)],
     "ownership by random controller should be ignored"),
    (owned("ReplicationController", "abcdef123456", None), [hp("machine1", 10), hp("machine2", 10), hp("machine3", 10)],
     "owner without Controller field set should be ignored"),
    (owned("ReplicaSet", "qwert12345", True), [hp("machine1", 10), hp("machine2", 0), hp("machine3", 10)],
     "pod managed by ReplicaSet should avoid a node, this node get lowest priority score"),
]


@pytest.mark.parametrize(("pod", "expected", "test"), CASES, ids=[c[-1] for c in CASES])
def test_node_prefer_avoid_priority(pod, expected, test):
    node_name_to_info = create_node_name_to_info_map([], TEST_NODES)
    result = priority_function(calculate_node_prefer_avoid_pods_priority_map, None)(pod, node_name_to_info, TEST_NODES)
    assert result == expected, test


def test_unparsable_annotation_scores_ten():
    bad = Node(metadata=ObjectMeta(name="bad", annotations={KEY: "{not json"}))
    info = create_node_name_to_info_map([], [bad])["bad"]
    assert calculate_node_prefer_avoid_pods_priority_map(
        owned("ReplicaSet", "qwert12345", True), None, info) == hp("bad", 10)
