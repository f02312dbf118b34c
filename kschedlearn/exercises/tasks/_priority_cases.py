"""The shared case table of the LeastRequested and BalancedResourceAllocation exercises.

Go: least_requested_test.go and balanced_resource_allocation_test.go share one table of pods
and nodes (only the expected scores differ); copied here as plain data.
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/least_requested_test.go
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kschedlearn.api.resource import BINARY_SI, DECIMAL_SI, new_milli_quantity, new_quantity
from kschedlearn.exercises import framework as fw
from kschedlearn.exercises.tasks._common import node, pod
from kschedlearn.scheduler.schedulercache.util import create_node_name_to_info_map

# pod kinds of the Go table: (name, [(cpu m, memory)] per container, node)
_KINDS: dict[str, list[tuple[int, int]]] = {
    "noResources": [], "cpuOnly": [(1000, 0), (2000, 0)], "cpuAndMemory": [(1000, 2000), (2000, 3000)],
}
_DEFAULT_NODE = {"cpuOnly": "machine1", "cpuAndMemory": "machine2"}

# (Go test name, pending pod kind, existing pods [(kind, node or None)], nodes [(cpu, mem)] x2)
TABLE: list[tuple[str, str, list[tuple[str, str | None]], list[tuple[int, int]]]] = [
    ("nothing scheduled, nothing requested", "noResources", [], [(4000, 10000), (4000, 10000)]),
    ("nothing scheduled, resources requested, differently sized machines", "cpuAndMemory", [],
     [(4000, 10000), (6000, 10000)]),
    ("no resources requested, pods scheduled", "noResources",
     [("noResources", "machine1"), ("noResources", "machine1"), ("noResources", "machine2"),
      ("noResources", "machine2")], [(4000, 10000), (4000, 10000)]),
    ("no resources requested, pods scheduled with resources", "noResources",
     [("cpuOnly", "machine1"), ("cpuOnly", "machine1"), ("cpuOnly", "machine2"), ("cpuAndMemory", None)],
     [(10000, 20000), (10000, 20000)]),
    ("resources requested, pods scheduled with resources", "cpuAndMemory",
     [("cpuOnly", None), ("cpuAndMemory", None)], [(10000, 20000), (10000, 20000)]),
    ("resources requested, pods scheduled with resources, differently sized machines", "cpuAndMemory",
     [("cpuOnly", None), ("cpuAndMemory", None)], [(10000, 20000), (10000, 50000)]),
    ("requested resources exceed node capacity", "cpuOnly",
     [("cpuOnly", None), ("cpuAndMemory", None)], [(4000, 10000), (4000, 10000)]),
    ("zero node resources, pods scheduled with resources", "noResources",
     [("cpuOnly", None), ("cpuAndMemory", None)], [(0, 0), (0, 0)]),
]


def _pod(kind: str, name: str, node_name: str = "") -> Any:
    # Go's table writes "0" requests explicitly: an explicit zero gets no non-zero default
    reqs = ({"cpu": new_milli_quantity(c, DECIMAL_SI), "memory": new_quantity(m, BINARY_SI)} for c, m in _KINDS[kind])
    return pod(name, *reqs, node=node_name)


def cases(expected: dict[str, tuple[int, int]], rule: str) -> list[fw.Case]:
    out = []
    for name, kind, existing, sizes in TABLE:
        def run(fn: Callable[..., Any], kind: str = kind, existing: Any = existing, sizes: Any = sizes) -> Any:
            nodes = [node(f"machine{i + 1}", c, m) for i, (c, m) in enumerate(sizes)]
            pods = [_pod(k, f"p{j}", n or _DEFAULT_NODE[k]) for j, (k, n) in enumerate(existing)]
            infos = create_node_name_to_info_map(pods, nodes)
            results = [fn(_pod(kind, "pending"), None, infos[n.metadata.name]) for n in nodes]
            return [(hp.host, hp.score) for hp in results]
        given = (f"a {kind} pod; nodes (cpu m, memory) {sizes}; existing pods "
                 f"{[(k, n or _DEFAULT_NODE[k]) for k, n in existing] or 'none'}")
        m1, m2 = expected[name]
        out.append(fw.Case(name, given, [("machine1", m1), ("machine2", m2)], run, why=rule))
    return out
