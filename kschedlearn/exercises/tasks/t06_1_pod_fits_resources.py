"""Task 6.1: the ``PodFitsResources`` predicate.

Go: plugin/pkg/scheduler/algorithm/predicates/predicates.go (PodFitsResources) and
predicates_test.go (TestPodFitsResources: enoughPodsTests, notEnoughPodsTests)
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/predicates/predicates.go#L546-L592
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import attrs

from kschedlearn.api.resource import BINARY_SI, DECIMAL_SI, new_milli_quantity, new_quantity
from kschedlearn.api.v1.node import Node, NodeStatus
from kschedlearn.api.v1.pod import Container, Pod, PodSpec, ResourceRequirements
from kschedlearn.exercises import framework as fw
from kschedlearn.exercises.registry import Task
from kschedlearn.exercises.tasks._common import GO, compare, node, pod, requests, schedule_pods
from kschedlearn.scheduler.algorithm.predicates import predicates as preds
from kschedlearn.scheduler.algorithm.predicates.metadata import predicate_metadata
from kschedlearn.scheduler.factory import plugins
from kschedlearn.scheduler.schedulercache.node_info import new_node_info

TASK_ID = "6.1"
NAME = "pod_fits_resources"
_REAL = preds.pod_fits_resources
OPAQUE_A = "pod.alpha.kubernetes.io/opaque-int-resource-AAA"
OPAQUE_B = "pod.alpha.kubernetes.io/opaque-int-resource-BBB"


def _alloc(milli_cpu: int, memory: int, gpus: int, pods: int, opaque_a: int) -> dict[str, Any]:
    """Go: makeAllocatableResources."""
    return {"cpu": new_milli_quantity(milli_cpu, DECIMAL_SI), "memory": new_quantity(memory, BINARY_SI),
            "pods": new_quantity(pods, DECIMAL_SI), "alpha.kubernetes.io/nvidia-gpu": new_quantity(gpus, DECIMAL_SI),
            OPAQUE_A: new_quantity(opaque_a, DECIMAL_SI)}


def _res(milli_cpu: int = 0, memory: int = 0, opaque: dict[str, int] | None = None) -> dict[str, Any]:
    out = {"cpu": new_milli_quantity(milli_cpu, DECIMAL_SI), "memory": new_quantity(memory, BINARY_SI)}
    for name, v in (opaque or {}).items():
        out[name] = new_quantity(v, DECIMAL_SI)
    return out


def _rpod(*usage: dict[str, Any]) -> Pod:
    return Pod(spec=PodSpec(containers=tuple(Container(resources=ResourceRequirements(requests=u)) for u in usage)))


def _init(p: Pod, *usage: dict[str, Any]) -> Pod:
    return attrs.evolve(p, spec=attrs.evolve(p.spec, init_containers=_rpod(*usage).spec.containers))


def _show(v: Any) -> str:
    if isinstance(v, tuple) and len(v) == 2 and isinstance(v[1], list):
        reasons = ", ".join(f"{name}: requested {r}, used {u}, capacity {c}" for name, r, u, c in v[1])
        return f"fits={v[0]}" + (f" with reasons [{reasons}]" if v[1] else "")
    return repr(v)


def _run(p: Pod, existing: list[dict[str, Any]], alloc: dict[str, Any]) -> Callable[[Callable[..., Any]], Any]:
    def run(fn: Callable[..., Any]) -> Any:
        info = new_node_info(*(_rpod(u) for u in existing))
        info.set_node(Node(status=NodeStatus(allocatable=alloc)))
        fits, reasons = fn(p, predicate_metadata(p, None), info)
        return fits, [(r.resource_name, r.requested, r.used, r.capacity) for r in reasons]
    return run


def _cases() -> list[fw.Case]:
    enough = _alloc(10, 20, 0, 32, 5)
    few = _alloc(10, 20, 0, 1, 0)
    table = [  # (pod, existing, fits, Go test name, reasons) - Go's enoughPodsTests
        (Pod(), [_res(10, 20)], True, "no resources requested always fits", []),
        (_rpod(_res(1, 1)), [_res(10, 20)], False, "too many resources fails",
         [("cpu", 1, 10, 10), ("memory", 1, 20, 20)]),
        (_init(_rpod(_res(1, 1)), _res(3, 1)), [_res(8, 19)], False,
         "too many resources fails due to init container cpu", [("cpu", 3, 8, 10)]),
        (_init(_rpod(_res(1, 1)), _res(1, 1), _res(1, 1)), [_res(9, 19)], True,
         "multiple init containers fit because it's the max, not sum, of containers and init containers", []),
        (_rpod(_res(2, 1)), [_res(9, 5)], False, "one resource memory fits", [("cpu", 2, 9, 10)]),
        (_rpod(_res(1, 2)), [_res(5, 19)], False, "one resource cpu fits", [("memory", 2, 19, 20)]),
        (_rpod(_res(5, 1)), [_res(5, 19)], True, "equal edge case", []),
        (_rpod(_res(1, 1, {OPAQUE_A: 10})), [_res(0, 0, {OPAQUE_A: 0})], False,
         "opaque resource capacity enforced", [(OPAQUE_A, 10, 0, 5)]),
        (_rpod(_res(1, 1, {OPAQUE_B: 1})), [_res(0, 0)], False,
         "opaque resource allocatable enforced for unknown resource", [(OPAQUE_B, 1, 0, 0)]),
    ]
    cases = [fw.Case(name, f"a node with allocatable cpu 10m, memory 20, 32 pods, 5 {OPAQUE_A[-3:]}; "
                           f"existing requests {[(u['cpu'].milli_value(), u['memory'].value()) for u in ex]}",
                     (fits, reasons), _run(p, ex, enough), show=_show,
                     why="A resource fails when allocatable < pod request + requested; an init "
                         "container counts by its maximum, not the sum (get_resource_request).")
             for p, ex, fits, name, reasons in table]
    cases.append(fw.Case(
        "even for equal edge case predicate fails when there's no space for additional pod",
        "a node that allows 1 pod and already runs one; the pod requests (5m, 1)",
        (False, [("pods", 1, 1, 1)]), _run(_rpod(_res(5, 1)), [_res(5, 19)], few), show=_show,
        why="The pod count is checked first: len(pods) + 1 > allowed_pod_number()."))
    cases.append(fw.Case("node not found", "a NodeInfo without a node object", None,
                         lambda fn: fn(Pod(), None, new_node_info()), expect_raises=preds.PredicateError,
                         why='Go returns the error "node not found"; raise PredicateError("node not found").'))
    return cases


@contextmanager
def _patch(fn: Callable[..., Any]) -> Iterator[None]:
    """Put ``fn`` where the scheduler looks for PodFitsResources (restored after).

    Policies and providers naming ``PodFitsResources`` get ``fn`` from the default registry,
    and ``GeneralPredicates`` (which the DefaultProvider uses) calls ``fn`` too: it looks the
    module's ``pod_fits_resources`` up at every call.
    """
    registry = plugins.default_registry()
    old = dict(registry.fit_predicate_map)
    real = preds.pod_fits_resources
    plugins.register_fit_predicate("PodFitsResources", fn)
    preds.pod_fits_resources = fn
    try:
        yield
    finally:
        preds.pod_fits_resources = real
        registry.fit_predicate_map.clear()
        registry.fit_predicate_map.update(old)


def _experiment(pred: Callable[..., Any], rows: list[tuple[str, str]]) -> None:
    nodes = [node("small", 1000, 1 << 30, pods=2), node("medium", 2000, 2 << 30), node("large", 4000, 4 << 30)]
    pending = [pod(f"job-{i}", requests(900, 256 << 20)) for i in range(8)]
    schedule_pods({"PodFitsResources": pred}, _equal(), nodes, pending, rows)


def _equal() -> list[Any]:
    from kschedlearn.scheduler.algorithm.types import PriorityConfig  # noqa: PLC0415
    from kschedlearn.scheduler.core.generic_scheduler import equal_priority_map  # noqa: PLC0415

    return [PriorityConfig(map_fn=equal_priority_map, weight=1)]


def _plug_in(fn: Callable[..., Any], simulation: Any = None) -> fw.PlugInReport:
    return compare(TASK_ID, "the generic scheduler's predicates", fn, _REAL, _experiment, tuple, NAME,
                   note="Eight 900m pods onto nodes of 1, 2 and 4 cpus (the small one allows 2 pods), "
                        "with your function as the only predicate and equal priorities.")


TASK = Task(
    id=TASK_ID, title="PodFitsResources", slug="pod-fits-resources", function_name=NAME,
    stub_imports=("from typing import Any\n"
                  "from kschedlearn.api.v1 import Pod\n"
                  "from kschedlearn.scheduler.algorithm.predicates.error import new_insufficient_resource_error\n"
                  "from kschedlearn.scheduler.algorithm.predicates.predicates import (\n"
                  "    PredicateError, PredicateMetadata, get_resource_request)\n"
                  "from kschedlearn.scheduler.schedulercache.node_info import NodeInfo"),
    intro=("A *predicate* filters nodes: `(pod, meta, node_info) -> (fits, reasons)`. `PodFitsResources` "
           "checks the pod count and the free cpu, memory, GPUs and opaque integer resources of the node, "
           "collecting one `InsufficientResourceError` per shortage.\n\nWrite `pod_fits_resources`."),
    go_links=(("predicates.go PodFitsResources", GO + "plugin/pkg/scheduler/algorithm/predicates/predicates.go#L546-L592"),
              ("predicates.go GetResourceRequest", GO + "plugin/pkg/scheduler/algorithm/predicates/predicates.go#L471-L540")),
    hints=("Fits means: for every resource, already requested on the node + requested by the pod <= "
           "allocatable. The pod count is a resource too, checked first.",
           "Go's `PodFitsResources` (predicates.go L546-L592): `allowedPodNumber`, then `podRequest` from the "
           "metadata (or `GetResourceRequest`), an early return when it is all zero, then four `if "
           "allocatable.X < podRequest.X+nodeInfo.RequestedResource().X` checks and the opaque loop.",
           "Use `node_info.allowed_pod_number()`, `node_info.pods()`, `node_info.allocatable_resource()`, "
           "`node_info.requested_resource()`; append `new_insufficient_resource_error(name, requested, "
           "used, capacity)` for 'pods', 'cpu', 'memory', 'alpha.kubernetes.io/nvidia-gpu' and each opaque "
           "name; `return len(fails) == 0, fails`."),
    returns=tuple, cases=_cases, patch=_patch, plug_in=_plug_in, solution="nb06:pod_fits_resources",
    protected=("pod", "meta", "node_info"),
)
