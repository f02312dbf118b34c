"""Solutions for notebook 07: priorities and selectHost.

Go: plugin/pkg/scheduler/algorithm/priorities/{least_requested,balanced_resource_allocation,selector_spreading}.go,
plugin/pkg/scheduler/core/generic_scheduler.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/core/generic_scheduler.go
"""

from __future__ import annotations

import math
from typing import Any

from kschedlearn.api.v1 import Pod
from kschedlearn.scheduler.algorithm.priorities.selector_spreading import MAX_PRIORITY, ZONE_WEIGHTING
from kschedlearn.scheduler.algorithm.priorities.selector_spreading import _f32 as f32
from kschedlearn.scheduler.algorithm.priorities.selector_spreading import _go_int as go_int
from kschedlearn.scheduler.algorithm.priorities.balanced_resource_allocation import get_non_zero_requests
from kschedlearn.scheduler.api.types import HostPriority
from kschedlearn.scheduler.core.generic_scheduler import GenericScheduler, SchedulingError
from kschedlearn.scheduler.schedulercache.node_info import NodeInfo


def _unused_score(requested: int, capacity: int) -> int:
    if capacity == 0 or requested > capacity:
        return 0
    return ((capacity - requested) * 10) // capacity


def least_requested_priority_map(pod: Pod, meta: Any, node_info: NodeInfo) -> HostPriority:
    """Score 0-10: how much cpu and memory would stay free, averaged.

    Go: LeastRequestedPriorityMap / calculateUnusedPriority, https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/least_requested.go#L29-L91.
    total = the pod's non-zero request (``get_non_zero_requests(pod)``) + the node's
    ``nonzero_request()``; per resource ``(capacity - total) * 10 // capacity`` (0 if the
    capacity is 0 or exceeded), capacity = ``allocatable_resource()``; the score is
    ``(cpu_score + memory_score) // 2``. Raise if the NodeInfo has no node.
    """
    node = node_info.node()
    if node is None:
        raise RuntimeError("node not found")
    req = get_non_zero_requests(pod)
    alloc = node_info.allocatable_resource()
    cpu = req.milli_cpu + node_info.nonzero_request().milli_cpu
    mem = req.memory + node_info.nonzero_request().memory
    score = (_unused_score(cpu, alloc.milli_cpu) + _unused_score(mem, alloc.memory)) // 2
    return HostPriority(host=node.metadata.name, score=score)


def _fraction(requested: int, capacity: int) -> float:
    if capacity == 0:
        return 1.0
    return requested / capacity


def balanced_resource_allocation_map(pod: Pod, meta: Any, node_info: NodeInfo) -> HostPriority:
    """Score 0-10: nodes whose cpu and memory fractions stay close to each other score high.

    Go: BalancedResourceAllocationMap / calculateBalancedResourceAllocation,
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/balanced_resource_allocation.go#L51-L116. With the same totals as LeastRequested, each
    fraction is total / capacity (1 when the capacity is 0); if either fraction is >= 1 the
    score is 0, else ``int(10 - abs(cpu_fraction - memory_fraction) * 10)``.
    """
    node = node_info.node()
    if node is None:
        raise RuntimeError("node not found")
    req = get_non_zero_requests(pod)
    alloc = node_info.allocatable_resource()
    cpu = req.milli_cpu + node_info.nonzero_request().milli_cpu
    mem = req.memory + node_info.nonzero_request().memory
    cpu_fraction = _fraction(cpu, alloc.milli_cpu)
    mem_fraction = _fraction(mem, alloc.memory)
    if cpu_fraction >= 1 or mem_fraction >= 1:
        score = 0
    else:
        score = int(10 - abs(cpu_fraction - mem_fraction) * 10)
    return HostPriority(host=node.metadata.name, score=score)


def select_host(g: GenericScheduler, priority_list: list[HostPriority]) -> str:
    """Pick the host with the highest score; round-robin among ties.

    Go: (*genericScheduler).selectHost, generic_scheduler.go#L133-L150. Raise
    ``SchedulingError("empty priorityList")`` for an empty list. Sort by (score, host)
    descending; the ties are the leading entries with the top score; pick index
    ``g.last_node_index % number_of_ties`` and then increase ``g.last_node_index`` by one.
    """
    if len(priority_list) == 0:
        raise SchedulingError("empty priorityList")
    ranked = sorted(priority_list, key=lambda hp: (hp.score, hp.host), reverse=True)
    ties = sum(1 for hp in ranked if hp.score == ranked[0].score)
    ix = g.last_node_index % ties
    g.last_node_index += 1
    return ranked[ix].host


def selector_spread_reduce(nodes: list[tuple[str, str]], counts: dict[str, int]) -> list[int]:
    """SelectorSpreadPriority's scores from the matching-pod counts, zones included (float32).

    Go: (*SelectorSpread).CalculateSpreadPriority (the part after counting, from line 153)
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/selector_spreading.go#L96-L192. ``nodes`` are ``(name, zone)`` in order (zone "" = no zone
    labels); ``counts`` maps every node to its number of matching pods when the pod has
    selectors, and is empty when it has none. Go computes in float32: round every operation
    with ``f32``; ``MAX_PRIORITY`` (10) and ``ZONE_WEIGHTING`` (2/3) are float32 already, and
    ``1 - zoneWeighting`` is an exact constant: ``f32(1 / 3)``. Per node:
    ``f = 10 * (maxNode - count) / maxNode`` (10 if maxNode is 0); if any node has a zone and
    this one does: ``f = f * 1/3 + 2/3 * 10 * (maxZone - zoneCount) / maxZone``; the score is
    ``go_int(f)`` - Go's int(), where 0/0 = NaN becomes the minimum int64 (the 1.6 bug).
    """
    counts_by_zone: dict[str, float] = {}
    max_node = f32(0.0)
    for name, zone in nodes:
        count = f32(float(counts.get(name, 0)))
        max_node = max(max_node, count)
        if counts and zone != "":
            counts_by_zone[zone] = f32(counts_by_zone.get(zone, 0.0) + count)
    max_zone = max(counts_by_zone.values(), default=f32(0.0))
    scores = []
    for name, zone in nodes:
        f = MAX_PRIORITY
        if max_node > 0:
            f = f32(MAX_PRIORITY * f32((max_node - counts.get(name, 0)) / max_node))
        if counts_by_zone and zone != "":
            share = f32((max_zone - counts_by_zone[zone]) / max_zone) if max_zone > 0 else math.nan
            f = f32(f32(f * f32(1.0 / 3.0)) + f32(ZONE_WEIGHTING * f32(MAX_PRIORITY * share)))
        scores.append(go_int(f))
    return scores
