"""A node the lister has but the scheduler cache does not yet is Go's nil ``*NodeInfo``.

Go: NodeInfo's accessors check ``n == nil`` (node_info.go: ``Node()`` nil, ``Pods()`` nil,
``MemoryPressureCondition()``/``DiskPressureCondition()`` Unknown, ``AllowedPodNumber()`` 0, the
resources empty), so a predicate or priority map function handed nil returns a value or its
"node not found" error — never a nil-pointer panic:
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/node_info.go#L127-L201
"""

from __future__ import annotations

import pytest

from kschedlearn.api.v1.pod import Container, Pod, PodSpec
from kschedlearn.api.v1.meta import ObjectMeta
from kschedlearn.scheduler.algorithm.predicates import predicates
from kschedlearn.scheduler.algorithm.priorities import (
    balanced_resource_allocation, image_locality, least_requested, most_requested, node_affinity,
    node_prefer_avoid_pods, taint_toleration,
)

POD = Pod(metadata=ObjectMeta(name="p", namespace="default"), spec=PodSpec(containers=(Container(name="c"),)))


@pytest.mark.parametrize(("fn", "fits"), [
    pytest.param(predicates.check_node_memory_pressure_predicate, True, id="CheckNodeMemoryPressure"),
    pytest.param(predicates.check_node_disk_pressure_predicate, True, id="CheckNodeDiskPressure"),
    pytest.param(predicates.pod_tolerates_node_taints, True, id="PodToleratesNodeTaints"),
    pytest.param(predicates.no_disk_conflict, True, id="NoDiskConflict"),
    pytest.param(predicates.pod_fits_host, True, id="HostName-pod-without-nodeName"),
])
def test_predicates_answer_on_a_nil_node_info(fn, fits) -> None:
    assert fn(POD, None, None)[0] is fits


@pytest.mark.parametrize("fn", [
    pytest.param(predicates.general_predicates, id="GeneralPredicates"),
    pytest.param(predicates.pod_fits_resources, id="PodFitsResources"),
    pytest.param(predicates.pod_selector_matches, id="MatchNodeSelector"),
])
def test_predicates_return_node_not_found_on_a_nil_node_info(fn) -> None:
    with pytest.raises(Exception, match="node not found"):
        fn(POD, None, None)


@pytest.mark.parametrize("fn", [
    pytest.param(least_requested.least_requested_priority_map, id="LeastRequestedPriority"),
    pytest.param(most_requested.most_requested_priority_map, id="MostRequestedPriority"),
    pytest.param(balanced_resource_allocation.balanced_resource_allocation_map, id="BalancedResourceAllocation"),
    pytest.param(image_locality.image_locality_priority_map, id="ImageLocalityPriority"),
    pytest.param(node_affinity.calculate_node_affinity_priority_map, id="NodeAffinityPriority"),
    pytest.param(node_prefer_avoid_pods.calculate_node_prefer_avoid_pods_priority_map, id="NodePreferAvoidPodsPriority"),
    pytest.param(taint_toleration.compute_taint_toleration_priority_map, id="TaintTolerationPriority"),
])
def test_priority_maps_return_node_not_found_on_a_nil_node_info(fn) -> None:
    with pytest.raises(Exception, match="node not found"):
        fn(POD, None, None)
