"""The pod QoS class (BestEffort / Burstable / Guaranteed), used by CheckNodeMemoryPressure.

Go: pkg/kubelet/qos/qos.go GetPodQOS
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/kubelet/qos/qos.go#L46-L110

Differs from Go: lives under the predicates package (private) because kschedlearn has no
kubelet mirror; quantities are compared through ``milli_value()``.
"""

from __future__ import annotations

from typing import Any


def _positive(q: Any) -> bool:
    return q.milli_value() > 0


def get_pod_qos(pod: Any) -> str:
    """``BestEffort``, ``Guaranteed`` or ``Burstable`` from the regular containers' cpu/memory.

    Go: qos.GetPodQOS
    """
    requests: dict[str, int] = {}
    limits: dict[str, int] = {}
    is_guaranteed = True
    for container in pod.spec.containers:
        for name, q in container.resources.requests.items():
            if name in ("cpu", "memory") and _positive(q):
                requests[name] = requests.get(name, 0) + q.milli_value()
        qos_limits_found = set()
        for name, q in container.resources.limits.items():
            if name in ("cpu", "memory") and _positive(q):
                qos_limits_found.add(name)
                limits[name] = limits.get(name, 0) + q.milli_value()
        if qos_limits_found != {"cpu", "memory"}:
            is_guaranteed = False
    if not requests and not limits:
        return "BestEffort"
    if is_guaranteed:
        for name, req in requests.items():
            if limits.get(name) != req:
                is_guaranteed = False
                break
    if is_guaranteed and len(requests) == len(limits):
        return "Guaranteed"
    return "Burstable"
