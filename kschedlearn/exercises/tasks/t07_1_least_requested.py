"""Task 7.1: the ``LeastRequestedPriority`` map function.

Go: plugin/pkg/scheduler/algorithm/priorities/least_requested.go and least_requested_test.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/least_requested.go#L29-L91
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from typing import Any

from kschedlearn.exercises import framework as fw
from kschedlearn.exercises.registry import Task
from kschedlearn.exercises.tasks import _priority_cases
from kschedlearn.exercises.tasks._common import GO, compare, in_running_algorithms, node, pod, requests, schedule_pods
from kschedlearn.scheduler.algorithm.priorities.least_requested import least_requested_priority_map
from kschedlearn.scheduler.algorithm.types import PriorityConfig
from kschedlearn.scheduler.api.types import HostPriority
from kschedlearn.scheduler.factory import plugins

TASK_ID = "7.1"
NAME = "least_requested_priority_map"
_REAL = least_requested_priority_map
_EXPECTED = dict(zip([row[0] for row in _priority_cases.TABLE],
                     [(10, 10), (3, 5), (10, 10), (7, 5), (5, 4), (5, 6), (5, 2), (0, 0)]))


def _cases() -> list[fw.Case]:
    return _priority_cases.cases(_EXPECTED, (
        "Per resource: (capacity - (node's non-zero requests + the pod's)) * 10 // capacity, 0 when the "
        "capacity is 0 or exceeded; the score is (cpu + memory) // 2 with integer division."))


@contextmanager
def map_priority_patch(name: str, fn: Callable[..., Any], registry: Any = None) -> Iterator[None]:
    """Re-register the map priority ``name`` with ``fn`` (same weight) in ``registry`` (the
    default registry), restored after."""
    registry = registry if registry is not None else plugins.default_registry()
    old = dict(registry.priority_function_map)
    weight = old[name].weight if name in old else 1
    plugins.register_priority_function2(name, fn, None, weight, registry=registry)
    try:
        yield
    finally:
        registry.priority_function_map.clear()
        registry.priority_function_map.update(old)


@contextmanager
def live_map_priority_patch(name: str, fn: Callable[..., Any], log: Any, simulation: Any) -> Iterator[None]:
    """For a running simulation: ``fn`` (each call recorded) in the plugin registry the
    simulation configures its schedulers from (a copy taken when its world was first built), and
    in the map priority ``name`` of every scheduler it already configured."""
    recorded = log.wrap(fn)
    own = getattr(simulation, "_registry", None)
    with map_priority_patch(name, recorded), map_priority_patch(name, recorded, own) if own is not None \
            else nullcontext(), in_running_algorithms(simulation, {}, {name: recorded}):
        yield


def spread_experiment(prio: Callable[..., Any], rows: list[tuple[str, str]]) -> None:
    """Six pods of mixed shapes onto three differently sized nodes, one priority only."""
    nodes = [node("machine1", 2000, 4 << 30), node("machine2", 4000, 4 << 30), node("machine3", 4000, 16 << 30)]
    shapes = [(500, 1 << 30), (1000, 256 << 20), (0, 0), (250, 2 << 30), (1000, 1 << 30), (500, 512 << 20)]
    pending = [pod(f"pod-{i}", requests(c, m)) for i, (c, m) in enumerate(shapes)]
    schedule_pods({}, [PriorityConfig(map_fn=prio, weight=1)], nodes, pending, rows)


def _plug_in(fn: Callable[..., Any], simulation: Any = None) -> fw.PlugInReport:
    return compare(TASK_ID, "the generic scheduler's priorities", fn, _REAL, spread_experiment, HostPriority, NAME,
                   note="Six pods onto nodes (2 cpu, 4Gi), (4 cpu, 4Gi), (4 cpu, 16Gi) with your "
                        "function as the only priority; each choice is assumed before the next pod.")


TASK = Task(
    id=TASK_ID, title="LeastRequestedPriority", slug="least-requested", function_name=NAME,
    stub_imports=("from typing import Any\n"
                  "from kschedlearn.api.v1 import Pod\n"
                  "from kschedlearn.scheduler.algorithm.priorities.balanced_resource_allocation import get_non_zero_requests\n"
                  "from kschedlearn.scheduler.api.types import HostPriority\n"
                  "from kschedlearn.scheduler.schedulercache.node_info import NodeInfo"),
    intro=("A *priority map function* scores one node 0-10 for a pod: `(pod, meta, node_info) -> "
           "HostPriority(host, score)`. `LeastRequestedPriority` favours the node with the most cpu and "
           "memory left after the pod lands, counting the *non-zero* requests.\n\n"
           "Write `least_requested_priority_map`."),
    go_links=(("least_requested.go", GO + "plugin/pkg/scheduler/algorithm/priorities/least_requested.go#L29-L91"),),
    hints=("Score each resource by the fraction that stays free, scaled to 0..10, then average cpu and "
           "memory. Use integer arithmetic throughout, like Go's int64.",
           "Go's `calculateUnusedScore` (least_requested.go L44-L57): `(capacity - requested) * 10 / "
           "capacity`, 0 if capacity is 0 or requested > capacity; `calculateUnusedPriority` adds "
           "`nodeInfo.NonZeroRequest()` to the pod's non-zero request and averages the two scores.",
           "`req = get_non_zero_requests(pod)`; `cpu = req.milli_cpu + node_info.nonzero_request().milli_cpu` "
           "(same for memory); capacity from `node_info.allocatable_resource()`; `score = (s(cpu, "
           "cap_cpu) + s(mem, cap_mem)) // 2`; `return HostPriority(host=node_info.node().metadata.name, score=score)`."),
    protected=("pod", "meta", "node_info"),
    returns=HostPriority, cases=_cases, patch=lambda fn: map_priority_patch("LeastRequestedPriority", fn),
    plug_in=_plug_in, solution="nb07:least_requested_priority_map",
    live=lambda fn, log, simulation: live_map_priority_patch("LeastRequestedPriority", fn, log, simulation),
)
