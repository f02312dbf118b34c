"""Priority metadata (Go: priorities/metadata.go) and the fast/slow path agreement it promises.

1.6 ships no metadata_test.go; these tests check the spec (8.1): non-zero requests, the
PreferNoSchedule tolerations, the reconciled affinity, and ``None`` for a nil pod.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.hypothesis_budget import examples

from kschedlearn.api.resource import must_parse
from kschedlearn.api.v1.meta import ObjectMeta
from kschedlearn.api.v1.pod import Affinity, Container, Pod, PodAffinity, PodSpec, ResourceRequirements
from kschedlearn.scheduler.algorithm.priorities.balanced_resource_allocation import (
    balanced_resource_allocation_map,
    get_non_zero_requests,
)
from kschedlearn.scheduler.algorithm.priorities.least_requested import least_requested_priority_map
from kschedlearn.scheduler.algorithm.priorities.metadata import PriorityMetadata, priority_metadata
from kschedlearn.scheduler.algorithm.priorities.most_requested import most_requested_priority_map
from kschedlearn.scheduler.algorithm.priorities.test_util import make_node
from kschedlearn.scheduler.algorithm.priorities.util.non_zero import DEFAULT_MEMORY_REQUEST, DEFAULT_MILLI_CPU_REQUEST
from kschedlearn.scheduler.schedulercache.util import create_node_name_to_info_map


def test_nil_pod_gives_no_metadata():
    assert priority_metadata(None, {}) is None


def test_metadata_fields():
    aff = Affinity(pod_affinity=PodAffinity())
    pod = Pod(spec=PodSpec(affinity=aff, containers=(
        Container(),
        Container(resources=ResourceRequirements(requests={"cpu": must_parse("0"), "memory": must_parse("1Ki")})),
    )))
    meta = priority_metadata(pod, {})
    assert isinstance(meta, PriorityMetadata)
    assert meta.affinity == aff
    assert meta.non_zero_request.milli_cpu == DEFAULT_MILLI_CPU_REQUEST + 0  # explicit 0 stays 0
    assert meta.non_zero_request.memory == DEFAULT_MEMORY_REQUEST + 1024


def test_pod_without_containers_requests_nothing():
    r = get_non_zero_requests(Pod())
    assert (r.milli_cpu, r.memory) == (0, 0)


@settings(max_examples=examples(60), deadline=None)
@given(
    cpus=st.lists(st.one_of(st.none(), st.integers(0, 5000)), max_size=3),
    node_cpu=st.integers(0, 8000),
    node_mem=st.integers(0, 2 * DEFAULT_MEMORY_REQUEST),
)
def test_map_functions_agree_with_and_without_metadata(cpus, node_cpu, node_mem):
    containers = tuple(
        Container() if c is None else Container(resources=ResourceRequirements(requests={"cpu": must_parse(f"{c}m")}))
        for c in cpus
    )
    pod = Pod(metadata=ObjectMeta(name="p"), spec=PodSpec(containers=containers))
    infos = create_node_name_to_info_map([], [make_node("n", node_cpu, node_mem)])
    meta = priority_metadata(pod, infos)
    for fn in (least_requested_priority_map, most_requested_priority_map, balanced_resource_allocation_map):
        fast = fn(pod, meta, infos["n"])
        slow = fn(pod, None, infos["n"])
        assert fast == slow
        assert 0 <= fast.score <= 10


@pytest.mark.parametrize("fn", [least_requested_priority_map, most_requested_priority_map, balanced_resource_allocation_map])
def test_metadata_is_not_mutated_by_map(fn):
    pod = Pod(spec=PodSpec(containers=(Container(),)))
    infos = create_node_name_to_info_map([], [make_node("n", 4000, 10**10)])
    meta = priority_metadata(pod, infos)
    before = (meta.non_zero_request.milli_cpu, meta.non_zero_request.memory)
    fn(pod, meta, infos["n"])
    assert (meta.non_zero_request.milli_cpu, meta.non_zero_request.memory) == before
