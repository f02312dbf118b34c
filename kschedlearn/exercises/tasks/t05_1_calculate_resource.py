"""Task 5.1: NodeInfo pod accounting - ``calculateResource`` and the non-zero requests.

Go: plugin/pkg/scheduler/schedulercache/node_info.go (addPod, removePod, calculateResource)
and priorities/util/non_zero.go (GetNonzeroRequests)
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/node_info.go#L262-L311
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from kschedlearn.exercises import framework as fw
from kschedlearn.exercises.registry import Task
from kschedlearn.exercises.tasks._common import GO, compare, node, pod, requests, swap_attr
from kschedlearn.scheduler.schedulercache import node_info as ni

TASK_ID = "5.1"
NAME = "calculate_resource"
_REAL = ni.calculate_resource
MI = 1024 * 1024
OPAQUE = "pod.alpha.kubernetes.io/opaque-int-resource-foo"
GPU = "alpha.kubernetes.io/nvidia-gpu"


def _summary(result: tuple[Any, int, int]) -> tuple[Any, ...]:
    res, cpu, mem = result
    return (res.milli_cpu, res.memory, res.nvidia_gpu, dict(res.opaque_int_resources), cpu, mem)


def _show(v: Any) -> str:
    if isinstance(v, tuple) and len(v) == 6:
        return (f"requests(cpu={v[0]}m, memory={v[1]}, gpu={v[2]}, opaque={v[3]}), "
                f"non-zero(cpu={v[4]}m, memory={v[5]})")
    return repr(v)


def _direct(p: Any) -> Callable[[Callable[..., Any]], Any]:
    return lambda fn: _summary(fn(p))


def _node_info(ops: list[tuple[str, Any]]) -> Callable[[Callable[..., Any]], Any]:
    def run(fn: Callable[..., Any]) -> Any:
        with _patch(fn):
            info = ni.new_node_info()
            for op, p in ops:
                getattr(info, op)(p)
            r, n = info.requested_resource(), info.nonzero_request()
            return (r.milli_cpu, r.memory, r.nvidia_gpu, dict(r.opaque_int_resources), n.milli_cpu, n.memory)
    return run


def _cases() -> list[fw.Case]:
    empty = pod("empty", requests())
    cpu_only = pod("cpu-only", requests(100, 0))
    two = pod("two", requests(100, 500), requests(200, 1024))
    gpu = pod("gpu", {**requests(300, 1000), GPU: requests(**{GPU: 2})[GPU], OPAQUE: requests(**{OPAQUE: 3})[OPAQUE]})
    return [
        fw.Case("no requests", "a pod with one container and no requests",
                (0, 0, 0, {}, 100, 200 * MI), _direct(empty), show=_show,
                why="Requests sum to zero, but the non-zero sums use the defaults 100m cpu and 200Mi."),
        fw.Case("cpu only", "one container requesting cpu 100m", (100, 0, 0, {}, 100, 200 * MI),
                _direct(cpu_only), show=_show,
                why="A missing memory request counts as 200Mi in the non-zero sum only."),
        fw.Case("TestNewNodeInfo pods", "containers (100m, 500) and (200m, 1Ki)",
                (300, 1524, 0, {}, 300, 1524), _direct(two), show=_show,
                why="Requests of all regular containers add up."),
        fw.Case("gpu and opaque", "cpu 300m, memory 1000, 2 GPUs, 3 opaque-int-resource-foo",
                (300, 1000, 2, {OPAQUE: 3}, 300, 1000), _direct(gpu), show=_show,
                why="GPUs and opaque integer resources are counted with value(), without defaults."),
        fw.Case("NodeInfo add_pod", "new_node_info(); add_pod(two); add_pod(empty)",
                (300, 1524, 0, {}, 400, 1524 + 200 * MI),
                _node_info([("add_pod", two), ("add_pod", empty)]), show=_show,
                why="add_pod adds calculateResource's sums to requested and non-zero totals."),
        fw.Case("NodeInfo remove_pod", "add_pod(two); add_pod(cpu-only); remove_pod(two)",
                (100, 0, 0, {}, 100, 200 * MI),
                _node_info([("add_pod", two), ("add_pod", cpu_only), ("remove_pod", two)]), show=_show,
                why="remove_pod subtracts the same sums again."),
    ]


@contextmanager
def _patch(fn: Callable[..., Any]) -> Iterator[None]:
    with swap_attr(ni, "calculate_resource", fn):
        yield


def _experiment(calc: Callable[..., Any], rows: list[tuple[str, str]]) -> None:
    with _patch(calc):
        info = ni.new_node_info()
        info.set_node(node("machine1", 4000, 8 * 1024 * MI))
        for p in (pod("web-1", requests(500, 256 * MI)), pod("batch-1", requests()),
                  pod("db-1", requests(1000, 2048 * MI), requests(250, 0))):
            info.add_pod(p)
            r, n = info.requested_resource(), info.nonzero_request()
            rows.append((f"after add_pod({p.metadata.name})",
                         f"requested {r.milli_cpu}m/{r.memory // MI}Mi, non-zero {n.milli_cpu}m/{n.memory // MI}Mi"))


def _plug_in(fn: Callable[..., Any], simulation: Any = None) -> fw.PlugInReport:
    return compare(TASK_ID, "NodeInfo accounting", fn, _REAL, _experiment, tuple, NAME,
                   note="A 4-cpu node receives three pods; the predicates read 'requested', the "
                        "priorities read 'non-zero'.")


TASK = Task(
    id=TASK_ID, title="NodeInfo calculateResource", slug="nodeinfo-accounting", function_name=NAME,
    stub_imports=("from kschedlearn.api.v1 import Pod\n"
                  "from kschedlearn.scheduler.algorithm.priorities.util import get_nonzero_requests\n"
                  "from kschedlearn.scheduler.schedulercache.node_info import Resource"),
    intro=("Every `NodeInfo` in the scheduler cache keeps running sums of its pods' requests. "
           "`addPod` / `removePod` add or subtract what `calculateResource(pod)` returns: the real "
           "requests (used by the predicates) and the *non-zero* requests, where a container without "
           "a cpu / memory request counts as 100m / 200Mi (used by the priorities, so empty pods spread).\n\n"
           "Write `calculate_resource(pod)`."),
    go_links=(("node_info.go calculateResource", GO + "plugin/pkg/scheduler/schedulercache/node_info.go#L313-L336"),
              ("node_info.go addPod", GO + "plugin/pkg/scheduler/schedulercache/node_info.go#L241-L260"),
              ("non_zero.go", GO + "plugin/pkg/scheduler/algorithm/priorities/util/non_zero.go")),
    hints=("Loop over `pod.spec.containers`; each has `resources.requests`, a dict of resource name to "
           "Quantity. Keep two kinds of sum: the exact requests, and the non-zero ones.",
           "Go's `calculateResource` (node_info.go L313-L336): a `switch rName` over cpu (`MilliValue`), "
           "memory, nvidia-gpu (`Value`) and opaque int resources, then "
           "`priorityutil.GetNonzeroRequests(&c.Resources.Requests)` per container.",
           "`res = Resource()`; for each container: for name, q in requests: cpu → `res.milli_cpu += "
           "q.milli_value()`, memory → `res.memory += q.value()`, GPU → `res.nvidia_gpu += q.value()`, "
           "opaque prefix → `res.add_opaque(name, q.value())`; then `c, m = get_nonzero_requests(requests)`, "
           "add to the two non-zero sums; `return res, non0_cpu, non0_mem`."),
    returns=tuple, cases=_cases, patch=_patch, plug_in=_plug_in, solution="nb05:calculate_resource",
    protected=("pod",),
)
