"""Port of balanced_resource_allocation_test.go (TestBalancedResourceAllocation), v1.6.1.

Go: plugin/pkg/scheduler/algorithm/priorities/balanced_resource_allocation_test.go
"""

from __future__ import annotations

import pytest

from kschedlearn.scheduler.algorithm.priorities.balanced_resource_allocation import balanced_resource_allocation_map
from kschedlearn.scheduler.algorithm.priorities.test_util import make_node, priority_function
from kschedlearn.scheduler.schedulercache.util import create_node_name_to_info_map
from resource_fixtures import (
    CPU_AND_MEMORY, CPU_ONLY, CPU_ONLY2, LABELS1, LABELS2, MACHINE1_SPEC, MACHINE2_SPEC, NO_RESOURCES, _pod, hp,
)


CASES = [
    # (pod, pods, nodes, expected, test)
    (_pod(NO_RESOURCES), [], [make_node("machine1", 4000, 10000), make_node("machine2", 4000, 10000)],
     [hp("machine1", 10), hp("machine2", 10)], "nothing scheduled, nothing requested"),
    # fractions 0.75 and 0.5 -> int(10 - 2.5) = 7; machine2 0.5 and 0.5 -> 10
    (_pod(CPU_AND_MEMORY), [], [make_node("machine1", 4000, 10000), make_node("machine2", 6000, 10000)],
     [hp("machine1", 7), hp("machine2", 10)], "nothing scheduled, resources requested, differently sized machines"),
    (_pod(NO_RESOURCES),
     [_pod(MACHINE1_SPEC, LABELS2), _pod(MACHINE1_SPEC, LABELS1), _pod(MACHINE2_SPEC, LABELS1), _pod(MACHINE2_SPEC, LABELS1)],
     [make_node("machine1", 4000, 10000), make_node("machine2", 4000, 10000)],
     [hp("machine1", 10), hp("machine2", 10)], "no resources requested, pods scheduled"),
    (_pod(NO_RESOURCES),
     [_pod(CPU_ONLY, LABELS2), _pod(CPU_ONLY, LABELS1), _pod(CPU_ONLY2, LABELS1), _pod(CPU_AND_MEMORY, LABELS1)],
     [make_node("machine1", 10000, 20000), make_node("machine2", 10000, 20000)],
     [hp("machine1", 4), hp("machine2", 6)], "no resources requested, pods scheduled with resources"),
    (_pod(CPU_AND_MEMORY), [_pod(CPU_ONLY), _pod(CPU_AND_MEMORY)],
     [make_node("machine1", 10000, 20000), make_node("machine2", 10000, 20000)],
     [hp("machine1", 6), hp("machine2", 9)], "resources requested, pods scheduled with resources"),
    (_pod(CPU_AND_MEMORY), [_pod(CPU_ONLY), _pod(CPU_AND_MEMORY)],
     [make_node("machine1", 10000, 20000), make_node("machine2", 10000, 50000)],
     [hp("machine1", 6), hp("machine2", 6)], "resources requested, pods scheduled with resources, differently sized machines"),
    (_pod(CPU_ONLY), [_pod(CPU_ONLY), _pod(CPU_AND_MEMORY)],
     [make_node("machine1", 4000, 10000), make_node("machine2", 4000, 10000)],
     [hp("machine1", 0), hp("machine2", 0)], "requested resources exceed node capacity"),
    (_pod(NO_RESOURCES), [_pod(CPU_ONLY), _pod(CPU_AND_MEMORY)],
     [make_node("machine1", 0, 0), make_node("machine2", 0, 0)],
     [hp("machine1", 0), hp("machine2", 0)], "zero node resources, pods scheduled with resources"),
]


@pytest.mark.parametrize(("pod", "pods", "nodes", "expected", "test"), CASES, ids=[c[-1] for c in CASES])
def test_balanced_resource_allocation(pod, pods, nodes, expected, test):
    node_name_to_info = create_node_name_to_info_map(pods, nodes)
    result = priority_function(balanced_resource_allocation_map, None)(pod, node_name_to_info, nodes)
    assert result == expected, test


def test_node_without_object_raises_node_not_found():
    node_name_to_info = create_node_name_to_info_map([_pod(CPU_ONLY)], [])
    with pytest.raises(Exception, match="node not found"):
        balanced_resource_allocation_map(_pod(NO_RESOURCES), None, node_name_to_info["machine1"])
