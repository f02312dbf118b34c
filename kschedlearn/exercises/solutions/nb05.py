"""Solutions for notebook 05: the scheduler cache.

Go: plugin/pkg/scheduler/schedulercache/node_info.go, cache.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/cache.go
"""

from __future__ import annotations

from kschedlearn.api.v1 import Pod
from kschedlearn.scheduler.algorithm.priorities.util import get_nonzero_requests
from kschedlearn.scheduler.schedulercache.cache import SchedulerCache, _PodState
from kschedlearn.scheduler.schedulercache.node_info import CacheError, Resource, get_pod_key

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


def add_pod(cache: SchedulerCache, pod: Pod) -> None:
    """The assigned-pod informer saw ``pod`` bound: confirm it, add it back, or add it.

    Go: (*schedulerCache).AddPod, cache.go#L214-L246. Under ``cache._mu``, look the pod's key
    (``get_pod_key(pod)``) up in ``cache._pod_states``:

    - known and assumed (``cache._assumed_pods``): if it was assumed on another node than
      ``pod.spec.node_name``, move it (``cache._remove_pod(state.pod)``, ignoring a
      ``CacheError``, then ``cache._add_pod(pod)``); then it is no longer assumed and its
      deadline is cleared;
    - unknown (it expired, or another scheduler placed it): ``cache._add_pod(pod)`` and store a
      new ``_PodState(pod=pod)``;
    - known and not assumed: raise ``CacheError("pod was already in added state. Pod key: <key>")``.
    """
    key = get_pod_key(pod)
    with cache._mu:
        curr_state = cache._pod_states.get(key)
        if curr_state is not None and cache._assumed_pods.get(key, False):
            if curr_state.pod.spec.node_name != pod.spec.node_name:
                try:
                    cache._remove_pod(curr_state.pod)
                except CacheError:
                    pass
                cache._add_pod(pod)
            del cache._assumed_pods[key]
            cache._pod_states[key].deadline = None
        elif curr_state is None:
            cache._add_pod(pod)
            cache._pod_states[key] = _PodState(pod=pod)
        else:
            raise CacheError(f"pod was already in added state. Pod key: {key}")
