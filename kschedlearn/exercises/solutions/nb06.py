"""Solutions for notebook 06: predicates.

Go: plugin/pkg/scheduler/algorithm/predicates/predicates.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/predicates/predicates.go
"""

from __future__ import annotations

from typing import Any

from kschedlearn.api.v1 import Pod
from kschedlearn.scheduler.algorithm.predicates.error import (
    ERR_POD_NOT_FITS_HOST_PORTS,
    new_insufficient_resource_error,
)
from kschedlearn.scheduler.algorithm.predicates.predicates import (
    PredicateError,
    PredicateMetadata,
    get_resource_request,
    get_used_ports,
)
from kschedlearn.scheduler.schedulercache.node_info import NodeInfo


def pod_fits_resources(pod: Pod, meta: Any, node_info: NodeInfo) -> tuple[bool, list[Any]]:
    """Does the pod fit the node's free resources? Return ``(fits, reasons)``.

    Go: PodFitsResources, predicates.go#L546-L592. Raise ``PredicateError("node not found")``
    without a node. First the pod count (``allowed_pod_number()``), then - unless the pod
    requests nothing - cpu, memory, GPU and each opaque resource: it fails when allocatable
    < request + already requested. Each failure is
    ``new_insufficient_resource_error(name, requested, used, capacity)``, in that order. The
    pod's request is ``meta.pod_request`` or ``get_resource_request(pod)``.
    """
    node = node_info.node()
    if node is None:
        raise PredicateError("node not found")
    fails: list[Any] = []
    allowed = node_info.allowed_pod_number()
    if len(node_info.pods()) + 1 > allowed:
        fails.append(new_insufficient_resource_error("pods", 1, len(node_info.pods()), allowed))
    req = meta.pod_request if isinstance(meta, PredicateMetadata) else get_resource_request(pod)
    if req.milli_cpu == 0 and req.memory == 0 and req.nvidia_gpu == 0 and not req.opaque_int_resources:
        return len(fails) == 0, fails
    alloc = node_info.allocatable_resource()
    used = node_info.requested_resource()
    if alloc.milli_cpu < req.milli_cpu + used.milli_cpu:
        fails.append(new_insufficient_resource_error("cpu", req.milli_cpu, used.milli_cpu, alloc.milli_cpu))
    if alloc.memory < req.memory + used.memory:
        fails.append(new_insufficient_resource_error("memory", req.memory, used.memory, alloc.memory))
    if alloc.nvidia_gpu < req.nvidia_gpu + used.nvidia_gpu:
        fails.append(new_insufficient_resource_error(
            "alpha.kubernetes.io/nvidia-gpu", req.nvidia_gpu, used.nvidia_gpu, alloc.nvidia_gpu))
    for name, amount in req.opaque_int_resources.items():
        have = alloc.opaque_int_resources.get(name, 0)
        taken = used.opaque_int_resources.get(name, 0)
        if have < amount + taken:
            fails.append(new_insufficient_resource_error(name, amount, taken, have))
    return len(fails) == 0, fails


def pod_fits_host_ports(pod: Pod, meta: Any, node_info: NodeInfo) -> tuple[bool, list[Any]]:
    """Fail with ``ERR_POD_NOT_FITS_HOST_PORTS`` if a host port the pod wants is taken.

    Go: PodFitsHostPorts, predicates.go#L827-L847. The wanted ports are ``meta.pod_ports`` or
    ``get_used_ports(pod)``; the taken ones ``get_used_ports(*node_info.pods())`` (both map
    port -> True). Port 0 means "no host port" and never conflicts.
    """
    want = meta.pod_ports if isinstance(meta, PredicateMetadata) else get_used_ports(pod)
    if not want:
        return True, []
    taken = get_used_ports(*node_info.pods())
    for port in want:
        if port != 0 and taken.get(port, False):
            return False, [ERR_POD_NOT_FITS_HOST_PORTS]
    return True, []
