"""Solutions for notebook 05: the scheduler cache.

Go: plugin/pkg/scheduler/schedulercache/node_info.go, cache.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/cache.go
"""

from __future__ import annotations

from kschedlearn.api.v1 import Pod
from kschedlearn.scheduler.algorithm.priorities.util import get_nonzero_requests
from kschedlearn.scheduler.schedulercache.cache import SchedulerCache
from kschedlearn.scheduler.schedulercache.node_info import Resource

_GPU = "alpha.kubernetes.io/nvidia-gpu"
_OPAQUE_PREFIX = "pod.alpha.kubernetes.io/opaque-int-resource-"


def calculate_resource(pod: Pod) -> tuple[Resource, int, int]:
    """Sum the requests of the pod's (regular) containers: ``(Resource, non0_cpu, non0_mem)``.

    Go: calculateResource, https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/node_info.go#L313-L336. cpu counts in millicores
    (``q.milli_value()``), memory, GPUs and opaque integer resources in units (``q.value()``,
    opaque ones via ``res.add_opaque(name, n)``). The non-zero sums use
    ``get_nonzero_requests(requests)``, which gives a container without a cpu or memory
    request 100m / 200Mi so that empty pods still spread. Init containers are ignored here.
    """
    res = Resource()
    non0_cpu = 0
    non0_mem = 0
    for c in pod.spec.containers:
        reqs = c.resources.requests
        for name, q in reqs.items():
            if name == "cpu":
                res.milli_cpu += q.milli_value()
            elif name == "memory":
                res.memory += q.value()
            elif name == _GPU:
                res.nvidia_gpu += q.value()
            elif name.startswith(_OPAQUE_PREFIX):
                res.add_opaque(name, q.value())
        cpu, mem = get_nonzero_requests(reqs)
        non0_cpu += cpu
        non0_mem += mem
    return res, non0_cpu, non0_mem


def cleanup_assumed_pods(cache: SchedulerCache, now: float) -> None:
    """Expire every assumed pod whose binding finished and whose deadline is before ``now``.

    Go: (*schedulerCache).cleanupAssumedPods, cache.go#L354-L377. Walk the keys of
    ``cache._assumed_pods``; look each up in ``cache._pod_states`` (a ``_PodState`` with
    ``pod``, ``deadline``, ``binding_finished``); skip pods still binding; expire the others
    when ``now`` is strictly after the deadline, with ``cache._expire_pod(key, state)``.
    """
    with cache._mu:
        for key in list(cache._assumed_pods):
            ps = cache._pod_states[key]
            if not ps.binding_finished:
                continue  # Go logs "Binding is still in progress" and checks again later
            if ps.deadline is not None and now > ps.deadline:
                cache._expire_pod(key, ps)
