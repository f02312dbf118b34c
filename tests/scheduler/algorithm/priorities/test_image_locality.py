"""Port of image_locality_test.go (TestImageLocalityPriority), v1.6.1.

Go: plugin/pkg/scheduler/algorithm/priorities/image_locality_test.go
"""

from __future__ import annotations

import pytest

from kschedlearn.api.v1.meta import ObjectMeta
from kschedlearn.api.v1.node import ContainerImage, Node, NodeStatus
from kschedlearn.api.v1.pod import Container, Pod, PodSpec
from kschedlearn.scheduler.algorithm.priorities.balanced_resource_allocation import MAX_IMG_SIZE, MB, MIN_IMG_SIZE
from kschedlearn.scheduler.algorithm.priorities.image_locality import (
    _calculate_score_from_size,
    image_locality_priority_map,
)
from kschedlearn.scheduler.algorithm.priorities.test_util import priority_function
from kschedlearn.scheduler.api.types import HostPriority
from kschedlearn.scheduler.schedulercache.util import create_node_name_to_info_map


def spec(*images: str) -> PodSpec:
    return PodSpec(containers=tuple(Container(image=i) for i in images))


NODE_40_140_2000 = NodeStatus(images=(
    ContainerImage(names=("gcr.io/40", "gcr.io/40:v1", "gcr.io/40:v1"), size_bytes=40 * MB),
    ContainerImage(names=("gcr.io/140", "gcr.io/140:v1"), size_bytes=140 * MB),
    ContainerImage(names=("gcr.io/2000",), size_bytes=2000 * MB),
))
NODE_250_10 = NodeStatus(images=(
    ContainerImage(names=("gcr.io/250",), size_bytes=250 * MB),
    ContainerImage(names=("gcr.io/10", "gcr.io/10:v1"), size_bytes=10 * MB),
))


def make_image_node(name: str, status: NodeStatus) -> Node:
    """Go: makeImageNode"""
    return Node(metadata=ObjectMeta(name=name), status=status)


def hp(host: str, score: int) -> HostPriority:
    return HostPriority(host=host, score=score)


NODES = [make_image_node("machine1", NODE_40_140_2000), make_image_node("machine2", NODE_250_10)]
CASES = [
    (spec("gcr.io/40", "gcr.io/250"), [hp("machine1", 1), hp("machine2", 3)],
     "two images spread on two nodes, prefer the larger image one"),
    (spec("gcr.io/40", "gcr.io/140"), [hp("machine1", 2), hp("machine2", 0)], "two images on one node, prefer this node"),
    (spec("gcr.io/10", "gcr.io/2000"), [hp("machine1", 10), hp("machine2", 0)], "if exceed limit, use limit"),
]


@pytest.mark.parametrize(("pod_spec", "expected", "test"), CASES, ids=[c[-1] for c in CASES])
def test_image_locality_priority(pod_spec, expected, test):
    node_name_to_info = create_node_name_to_info_map([], NODES)
    result = priority_function(image_locality_priority_map, None)(Pod(spec=pod_spec), node_name_to_info, NODES)
    key = lambda h: (h.score, h.host)  # noqa: E731 - Go sorts both lists before comparing
    assert sorted(result, key=key) == sorted(expected, key=key), test


def test_score_from_size_boundaries():
    assert _calculate_score_from_size(0) == 0
    assert _calculate_score_from_size(MIN_IMG_SIZE - 1) == 0
    assert _calculate_score_from_size(MIN_IMG_SIZE) == 1
    assert _calculate_score_from_size(MAX_IMG_SIZE - 1) == 10
    assert _calculate_score_from_size(MAX_IMG_SIZE) == 10
