"""Pod/node builders shared by the schedulercache tests (Go: makeBasePod in cache_test.go).

Imported by sibling test modules (pytest prepend import mode puts this directory on sys.path).
"""

from __future__ import annotations

from kschedlearn.api.resource import must_parse
from kschedlearn.api.v1.meta import ObjectMeta
from kschedlearn.api.v1.node import Node, NodeCondition, NodeSpec, NodeStatus, Taint
from kschedlearn.api.v1.pod import Container, ContainerPort, Pod, PodSpec, ResourceRequirements

OIR_PREFIX = "pod.alpha.kubernetes.io/opaque-int-resource-"


def make_base_pod(
    node_name: str,
    obj_name: str,
    cpu: str,
    mem: str,
    oir: str = "",
    ports: tuple[ContainerPort, ...] = (),
    *,
    namespace: str = "node_info_cache_test",
    labels: dict[str, str] | None = None,
) -> Pod:
    """Go: makeBasePod(t, nodeName, objName, cpu, mem, oir, ports) -- one container.

    ``cpu == ""`` means no requests at all; ``oir`` is ``"name:qty"`` (prefixed unless the name
    is ``random-invalid-oir-key``, which stays unprefixed and must be ignored).
    """
    req = {}
    if cpu != "":
        req = {"cpu": must_parse(cpu), "memory": must_parse(mem)}
        if oir != "":
            parts = oir.split(":")
            assert len(parts) == 2, "Invalid OIR string"
            name = parts[0] if parts[0] == "random-invalid-oir-key" else OIR_PREFIX + parts[0]
            req[name] = must_parse(parts[1])
    return Pod(
        metadata=ObjectMeta(namespace=namespace, name=obj_name, labels=labels or {}),
        spec=PodSpec(
            containers=(Container(resources=ResourceRequirements(requests=req), ports=ports),),
            node_name=node_name,
        ),
    )


def make_node(
    name: str,
    allocatable: dict[str, str] | None = None,
    *,
    taints: tuple[Taint, ...] = (),
    conditions: dict[str, str] | None = None,
) -> Node:
    """A node with the given allocatable quantities, taints and condition statuses."""
    return Node(
        metadata=ObjectMeta(name=name),
        spec=NodeSpec(taints=taints),
        status=NodeStatus(
            allocatable={k: must_parse(v) for k, v in (allocatable or {}).items()},
            conditions=tuple(
                NodeCondition(type=t, status=s) for t, s in (conditions or {}).items()
            ),
        ),
    )
