"""Task 7.2: the ``BalancedResourceAllocation`` map function.

Go: plugin/pkg/scheduler/algorithm/priorities/balanced_resource_allocation.go and its test
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/balanced_resource_allocation.go
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kschedlearn.exercises import framework as fw
from kschedlearn.exercises.registry import Task
from kschedlearn.exercises.tasks import _priority_cases
from kschedlearn.exercises.tasks._common import GO, compare
from kschedlearn.exercises.tasks.t07_1_least_requested import live_map_priority_patch, map_priority_patch, spread_experiment
from kschedlearn.scheduler.algorithm.priorities.balanced_resource_allocation import balanced_resource_allocation_map
from kschedlearn.scheduler.api.types import HostPriority

TASK_ID = "7.2"
NAME = "balanced_resource_allocation_map"
_REAL = balanced_resource_allocation_map
_PRIO = "BalancedResourceAllocation"
_EXPECTED = dict(zip([row[0] for row in _priority_cases.TABLE],
                     [(10, 10), (7, 10), (10, 10), (4, 6), (6, 9), (6, 6), (0, 0), (0, 0)]))


def _cases() -> list[fw.Case]:
    return _priority_cases.cases(_EXPECTED, (
        "fraction = (node's non-zero requests + the pod's) / capacity per resource (1 if capacity is 0); "
        "0 if either fraction >= 1, else int(10 - abs(cpu_fraction - memory_fraction) * 10)."))


def _plug_in(fn: Callable[..., Any], simulation: Any = None) -> fw.PlugInReport:
    return compare(TASK_ID, "the generic scheduler's priorities", fn, _REAL, spread_experiment, HostPriority, NAME,
                   note="Six pods onto nodes (2 cpu, 4Gi), (4 cpu, 4Gi), (4 cpu, 16Gi) with your "
                        "function as the only priority; each choice is assumed before the next pod.")


TASK = Task(
    id=TASK_ID, title="BalancedResourceAllocation", slug="balanced-resource-allocation", function_name=NAME,
    stub_imports=("from typing import Any\n"
                  "from kschedlearn.api.v1 import Pod\n"
                  "from kschedlearn.scheduler.algorithm.priorities.balanced_resource_allocation import get_non_zero_requests\n"
                  "from kschedlearn.scheduler.api.types import HostPriority\n"
                  "from kschedlearn.scheduler.schedulercache.node_info import NodeInfo"),
    intro=("`BalancedResourceAllocation` prefers nodes whose cpu and memory would be used in similar "
           "proportions after the pod lands, so that neither runs out while the other idles. It is "
           "always paired with `LeastRequestedPriority`.\n\nWrite `balanced_resource_allocation_map`."),
    go_links=(("balanced_resource_allocation.go", GO + "plugin/pkg/scheduler/algorithm/priorities/balanced_resource_allocation.go#L51-L116"),),
    hints=("Compute the used fraction of cpu and of memory (counting the pod); the closer they are, the "
           "higher the score. A fraction of 1 or more scores 0.",
           "Go's `calculateBalancedResourceAllocation` (balanced_resource_allocation.go L51-L92) and "
           "`fractionOfCapacity` (L94-L99; 1 when capacity is 0); `diff := math.Abs(cpuFraction - "
           "memoryFraction)`; `score = int(10 - diff*10)`.",
           "Totals as in LeastRequested (`get_non_zero_requests(pod)` + `node_info.nonzero_request()`); "
           "`f = total / capacity if capacity else 1.0`; `score = 0 if cpu_f >= 1 or mem_f >= 1 else "
           "int(10 - abs(cpu_f - mem_f) * 10)`; return a `HostPriority`."),
    protected=("pod", "meta", "node_info"),
    returns=HostPriority, cases=_cases, patch=lambda fn: map_priority_patch(_PRIO, fn),
    plug_in=_plug_in, solution="nb07:balanced_resource_allocation_map",
    live=lambda fn, log, simulation: live_map_priority_patch(_PRIO, fn, log, simulation),
)
