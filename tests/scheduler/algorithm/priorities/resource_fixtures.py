"""Pods and specs shared by the resource-priority test tables (least/most requested, balanced).

Go: least_requested_test.go, most_requested_test.go and balanced_resource_allocation_test.go
build the same pods in each file; here they are built once.
"""

from __future__ import annotations

import attrs

from kschedlearn.api.resource import must_parse
from kschedlearn.api.v1.meta import ObjectMeta
from kschedlearn.api.v1.pod import Container, Pod, PodSpec, ResourceRequirements
from kschedlearn.scheduler.api.types import HostPriority

LABELS1 = {"foo": "bar", "baz": "blah"}
LABELS2 = {"bar": "foo", "baz": "blah"}


def _container(cpu: str, memory: str) -> Container:
    return Container(resources=ResourceRequirements(requests={"cpu": must_parse(cpu), "memory": must_parse(memory)}))


MACHINE1_SPEC = PodSpec(node_name="machine1")
MACHINE2_SPEC = PodSpec(node_name="machine2")
NO_RESOURCES = PodSpec(containers=())
CPU_ONLY = PodSpec(node_name="machine1", containers=(_container("1000m", "0"), _container("2000m", "0")))
CPU_ONLY2 = attrs.evolve(CPU_ONLY, node_name="machine2")
CPU_AND_MEMORY = PodSpec(node_name="machine2", containers=(_container("1000m", "2000"), _container("2000m", "3000")))


def _pod(spec: PodSpec, labels: dict[str, str] | None = None) -> Pod:
    return Pod(metadata=ObjectMeta(labels=dict(labels or {})), spec=spec)


def hp(host: str, score: int) -> HostPriority:
    return HostPriority(host=host, score=score)
