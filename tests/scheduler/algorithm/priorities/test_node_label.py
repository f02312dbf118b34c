"""Port of node_label_test.go (TestNewNodeLabelPriority), v1.6.1.

Go: plugin/pkg/scheduler/algorithm/priorities/node_label_test.go
"""

from __future__ import annotations

import pytest

from kschedlearn.api.v1.meta import ObjectMeta
from kschedlearn.api.v1.node import Node
from kschedlearn.scheduler.algorithm.priorities.node_label import new_node_label_priority
from kschedlearn.scheduler.algorithm.priorities.test_util import priority_function
from kschedlearn.scheduler.api.types import HostPriority
from kschedlearn.scheduler.schedulercache.util import create_node_name_to_info_map

NODES = [
    Node(metadata=ObjectMeta(name="machine1", labels={"foo": "bar"})),
    Node(metadata=ObjectMeta(name="machine2", labels={"bar": "foo"})),
    Node(metadata=ObjectMeta(name="machine3", labels={"bar": "baz"})),
]


def scores(a: int, b: int, c: int) -> list[HostPriority]:
    return [HostPriority(host="machine1", score=a), HostPriority(host="machine2", score=b),
            HostPriority(host="machine3", score=c)]


CASES = [
    ("baz", True, scores(0, 0, 0), "no match found, presence true"),
    ("baz", False, scores(10, 10, 10), "no match found, presence false"),
    ("foo", True, scores(10, 0, 0), "one match found, presence true"),
    ("foo", False, scores(0, 10, 10), "one match found, presence false"),
    ("bar", True, scores(0, 10, 10), "two matches found, presence true"),
    ("bar", False, scores(10, 0, 0), "two matches found, presence false"),
]


@pytest.mark.parametrize(("label", "presence", "expected", "test"), CASES, ids=[c[-1] for c in CASES])
def test_new_node_label_priority(label, presence, expected, test):
    node_name_to_info = create_node_name_to_info_map([], NODES)
    map_fn, reduce_fn = new_node_label_priority(label, presence)
    assert reduce_fn is None
    assert priority_function(map_fn, reduce_fn)(None, node_name_to_info, NODES) == expected, test
