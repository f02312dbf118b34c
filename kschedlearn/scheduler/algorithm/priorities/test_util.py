"""Helpers the Go package ships for its own tests: a sized node and map/reduce → function glue.

Go: plugin/pkg/scheduler/algorithm/priorities/test_util.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/test_util.go

In Go this is an ordinary (non-``_test``) file of the package, so it is mirrored here; the
ported test tables under ``tests/scheduler/algorithm/priorities`` use it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from kschedlearn.api.resource import BINARY_SI, DECIMAL_SI, new_milli_quantity, new_quantity
from kschedlearn.api.v1.meta import ObjectMeta
from kschedlearn.api.v1.node import Node, NodeStatus

if TYPE_CHECKING:
    from kschedlearn.api.v1.pod import Pod
    from kschedlearn.scheduler.algorithm.types import PriorityFunction, PriorityMapFunction, PriorityReduceFunction
    from kschedlearn.scheduler.api.types import HostPriority
    from kschedlearn.scheduler.schedulercache.node_info import NodeInfo


def make_node(node: str, milli_cpu: int, memory: int) -> Node:
    """A node named ``node`` whose capacity and allocatable are ``milli_cpu`` millicores and ``memory`` bytes.

    Go: func makeNode(node string, milliCPU, memory int64) *v1.Node
    """
    resources = {
        "cpu": new_milli_quantity(milli_cpu, DECIMAL_SI),
        "memory": new_quantity(memory, BINARY_SI),
    }
    return Node(
        metadata=ObjectMeta(name=node),
        status=NodeStatus(capacity=dict(resources), allocatable=dict(resources)),
    )


def priority_function(
    map_fn: "PriorityMapFunction", reduce_fn: "Optional[PriorityReduceFunction]"
) -> "PriorityFunction":
    """Turn a map (+ optional reduce) pair into an old-style whole-list priority function.

    The map runs on every node in order (without metadata), then the reduce, if any, rewrites
    the list in place.

    Go: func priorityFunction(mapFn algorithm.PriorityMapFunction, reduceFn algorithm.PriorityReduceFunction) algorithm.PriorityFunction
    """

    def run(pod: "Optional[Pod]", node_name_to_info: "dict[str, NodeInfo]", nodes: "list[Node]") -> "list[HostPriority]":
        result = []
        for node in nodes:
            result.append(map_fn(pod, None, node_name_to_info[node.metadata.name]))
        if reduce_fn is not None:
            reduce_fn(pod, None, node_name_to_info, result)
        return result

    return run
