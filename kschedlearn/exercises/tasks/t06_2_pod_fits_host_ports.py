"""Task 6.2: the ``PodFitsHostPorts`` predicate.

Go: plugin/pkg/scheduler/algorithm/predicates/predicates.go (PodFitsHostPorts, GetUsedPorts)
and predicates_test.go (TestPodFitsHostPorts)
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/predicates/predicates.go#L827-L847
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from kschedlearn.exercises import framework as fw
from kschedlearn.exercises.registry import Task
from kschedlearn.exercises.tasks._common import GO, compare, node, pod, schedule_pods
from kschedlearn.exercises.tasks.t06_1_pod_fits_resources import _equal
from kschedlearn.scheduler.algorithm.predicates import predicates as preds
from kschedlearn.scheduler.algorithm.predicates.metadata import predicate_metadata
from kschedlearn.scheduler.factory import plugins
from kschedlearn.scheduler.schedulercache.node_info import new_node_info

TASK_ID = "6.2"
NAME = "pod_fits_host_ports"
_REAL = preds.pod_fits_host_ports


def _run(want: tuple[int, ...], existing: list[tuple[int, ...]]) -> Callable[[Callable[..., Any]], Any]:
    def run(fn: Callable[..., Any]) -> Any:
        p = pod("new", host_ports=want, node="m1") if want else pod("new")
        info = new_node_info(*(pod(f"old-{i}", host_ports=ports, node="m1") for i, ports in enumerate(existing)))
        fits, reasons = fn(p, predicate_metadata(p, None), info)
        return fits, [r.get_reason() for r in reasons]
    return run


def _cases() -> list[fw.Case]:
    table = [  # Go's TestPodFitsHostPorts, plus the hostPort 0 rule
        ((), [], True, "nothing running"),
        ((8080,), [(9090,)], True, "other port"),
        ((8080,), [(8080,)], False, "same port"),
        ((8000, 8080), [(8080,)], False, "second port"),
        ((8000, 8080), [(8001, 8080)], False, "second port (2)"),
        ((0,), [(0,)], True, "host port 0 means none"),
    ]
    return [fw.Case(name, f"the pod wants host ports {list(want)}; the node's pods use {existing}",
                    (fits, [] if fits else ["PodFitsHostPorts"]), _run(want, existing),
                    why="A wanted host port conflicts when any pod on the node already uses it; port 0 "
                        "is 'no host port'. The single failure reason is ERR_POD_NOT_FITS_HOST_PORTS.")
            for want, existing, fits, name in table]


@contextmanager
def _patch(fn: Callable[..., Any]) -> Iterator[None]:
    """Put ``fn`` where the scheduler looks for PodFitsHostPorts (restored after): the registry
    (``PodFitsHostPorts`` and its alias ``PodFitsPorts``) and the module function that
    ``GeneralPredicates`` calls."""
    registry = plugins.default_registry()
    old = dict(registry.fit_predicate_map)
    real = preds.pod_fits_host_ports
    plugins.register_fit_predicate("PodFitsHostPorts", fn)
    plugins.register_fit_predicate("PodFitsPorts", fn)
    preds.pod_fits_host_ports = fn
    try:
        yield
    finally:
        preds.pod_fits_host_ports = real
        registry.fit_predicate_map.clear()
        registry.fit_predicate_map.update(old)


def _experiment(pred: Callable[..., Any], rows: list[tuple[str, str]]) -> None:
    nodes = [node(f"machine{i}", 4000, 1 << 30) for i in (1, 2, 3)]
    pending = [pod(f"ingress-{i}", host_ports=(80, 443)) for i in range(4)]
    schedule_pods({"PodFitsHostPorts": pred}, _equal(), nodes, pending, rows)


def _plug_in(fn: Callable[..., Any], simulation: Any = None) -> fw.PlugInReport:
    return compare(TASK_ID, "the generic scheduler's predicates", fn, _REAL, _experiment, tuple, NAME,
                   note="Four ingress pods wanting host ports 80 and 443 onto three nodes: the "
                        "fourth has nowhere to go.")


TASK = Task(
    id=TASK_ID, title="PodFitsHostPorts", slug="pod-fits-host-ports", function_name=NAME,
    stub_imports=("from typing import Any\n"
                  "from kschedlearn.api.v1 import Pod\n"
                  "from kschedlearn.scheduler.algorithm.predicates.error import ERR_POD_NOT_FITS_HOST_PORTS\n"
                  "from kschedlearn.scheduler.algorithm.predicates.predicates import PredicateMetadata, get_used_ports\n"
                  "from kschedlearn.scheduler.schedulercache.node_info import NodeInfo"),
    intro=("Two pods cannot bind the same host port on one node. In v1.6.1 `PodFitsHostPorts` compares "
           "port numbers only (protocol and host IP are ignored).\n\nWrite `pod_fits_host_ports`."),
    go_links=(("predicates.go PodFitsHostPorts", GO + "plugin/pkg/scheduler/algorithm/predicates/predicates.go#L827-L847"),
              ("predicates.go GetUsedPorts", GO + "plugin/pkg/scheduler/algorithm/predicates/predicates.go#L849-L865")),
    hints=("Collect the host ports the pod wants and the ones the node's pods already use; any overlap "
           "(other than 0) means the pod does not fit.",
           "Go's `PodFitsHostPorts` (predicates.go L827-L847): `wantPorts` from the metadata or "
           "`GetUsedPorts(pod)`, `existingPorts := GetUsedPorts(nodeInfo.Pods()...)`, then a loop "
           "`if wport != 0 && existingPorts[wport]` returning `ErrPodNotFitsHostPorts`.",
           "`want = meta.pod_ports if isinstance(meta, PredicateMetadata) else get_used_ports(pod)`; "
           "`taken = get_used_ports(*node_info.pods())`; `for port in want: if port != 0 and "
           "taken.get(port): return False, [ERR_POD_NOT_FITS_HOST_PORTS]`; `return True, []`."),
    returns=tuple, cases=_cases, patch=_patch, plug_in=_plug_in, solution="nb06:pod_fits_host_ports",
    protected=("pod", "meta", "node_info"),
)
