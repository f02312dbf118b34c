"""Port of least_requested_test.go (TestLeastRequested), v1.6.1.

Go: plugin/pkg/scheduler/algorithm/priorities/least_requested_test.go
"""

from __future__ import annotations

import pytest

from kschedlearn.scheduler.algorithm.priorities.least_requested import least_requested_priority_map
from kschedlearn.scheduler.algorithm.priorities.test_util import make_node, priority_function
from kschedlearn.scheduler.schedulercache.util import create_node_name_to_info_map
from resource_fixtures import (
    CPU_AND_MEMORY, CPU_ONLY, CPU_ONLY2, LABELS1, LABELS2, MACHINE1_SPEC, MACHINE2_SPEC, NO_RESOURCES, _pod, hp,
)


CASES = [
    # (pod, pods, nodes, expected, test)
    (_pod(NO_RESOURCES), [], [make_node("machine1", 4000, 10000), make_node("machine2", 4000, 10000)],
     [hp("machine1", 10), hp("machine2", 10)], "nothing scheduled, nothing requested"),
    # cpu (4000-3000)*10//4000 = 2, mem 5 -> 3; machine2 5 and 5 -> 5
    (_pod(CPU_AND_MEMORY), [], [make_node("machine1", 4000, 10000), make_node("machine2", 6000, 10000)],
     [hp("machine1", 3), hp("machine2", 5)], "nothing scheduled, resources requested, differently sized machines"),
    (_pod(NO_RESOURCES),
     [_pod(MACHINE1_SPEC, LABELS2), _pod(MACHINE1_SPEC, LABELS1), _pod(MACHINE2_SPEC, LABELS1), _pod(MACHINE2_SPEC, LABELS1)],
     [make_node("machine1", 4000, 10000), make_node("machine2", 4000, 10000)],
     [hp("machine1", 10), hp("machine2", 10)], "no resources requested, pods scheduled"),
    (_pod(NO_RESOURCES),
     [_pod(CPU_ONLY, LABELS2), _pod(CPU_ONLY, LABELS1), _pod(CPU_ONLY2, LABELS1), _pod(CPU_AND_MEMORY, LABELS1)],
     [make_node("machine1", 10000, 20000), make_node("machine2", 10000, 20000)],
     [hp("machine1", 7), hp("machine2", 5)], "no resources requested, pods scheduled with resources"),
    (_pod(CPU_AND_MEMORY), [_pod(CPU_ONLY), _pod(CPU_AND_MEMORY)],
     [make_node("machine1", 10000, 20000), make_node("machine2", 10000, 20000)],
     [hp("machine1", 5), hp("machine2", 4)], "resources requested, pods scheduled with resources"),
    (_pod(CPU_AND_MEMORY), [_pod(CPU_ONLY), _pod(CPU_AND_MEMORY)],
     [make_node("machine1", 10000, 20000), make_node("machine2", 10000, 50000)],
     [hp("machine1", 5), hp("machine2", 6)], "resources requested, pods scheduled with resources, differently sized machines"),
    (_pod(CPU_ONLY), [_pod(CPU_ONLY), _pod(CPU_AND_MEMORY)],
     [make_node("machine1", 4000, 10000), make_node("machine2", 4000, 10000)],
     [hp("machine1", 5), hp("machine2", 2)], "requested resources exceed node capacity"),
    (_pod(NO_RESOURCES), [_pod(CPU_ONLY), _pod(CPU_AND_MEMORY)],
     [make_node("machine1", 0, 0), make_node("machine2", 0, 0)],
     [hp("machine1", 0), hp("machine2", 0)], "zero node resources, pods scheduled with resources"),
]


@pytest.mark.parametrize(("pod", "pods", "nodes", "expected", "test"), CASES, ids=[c[-1] for c in CASES])
def test_least_requested(pod, pods, nodes, expected, test):
    node_name_to_info = create_node_name_to_info_map(pods, nodes)
    result = priority_function(least_requested_priority_map, None)(pod, node_name_to_info, nodes)
    assert result == expected, test


def test_node_without_object_raises_node_not_found():
    node_name_to_info = create_node_name_to_info_map([_pod(CPU_ONLY)], [])
    with pytest.raises(Exception, match="node not found"):
        least_requested_priority_map(_pod(NO_RESOURCES), None, node_name_to_info["machine1"])


def test_unused_score_wraps_and_truncates_as_go_int64():
    """``(capacity - requested) * 10`` is int64 in Go: with a capacity near MaxInt64 it wraps
    negative and Go's ``/`` truncates toward zero."""
    from kschedlearn.scheduler.algorithm.priorities.least_requested import _calculate_unused_score

    capacity = 2**62
    # (2^62 * 10) mod 2^64 = 2^63 (as int64: MinInt64); MinInt64 / 2^62 = -2
    assert _calculate_unused_score(0, capacity, "n") == -2
    # (2^62 - 1) * 10 = 2^65 + 2^63 - 10 wraps to 2^63 - 10 (positive); / 2^62 truncates to 1
    assert _calculate_unused_score(1, capacity, "n") == 1
    # capacity 9 * 2^59: 90 * 2^59 wraps to -6 * 2^59; -6/9 truncates to 0 (Python's // gives -1)
    assert _calculate_unused_score(0, 9 * 2**59, "n") == 0
