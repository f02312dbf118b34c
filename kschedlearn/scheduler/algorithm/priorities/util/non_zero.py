"""Default ("non-zero") resource requests used when spreading pods by their requests.

Go: plugin/pkg/scheduler/algorithm/priorities/util/non_zero.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/util/non_zero.go#L21-L50

A container that states no cpu (or no memory) request would look free to the priority functions,
so every node would score the same for it and such pods would pile onto one node. The priorities
and ``NodeInfo.nonzero_request()`` therefore count a missing request as a small default. The
predicates never use these defaults (spec 13.5).
"""

from __future__ import annotations

from collections.abc import Mapping

from kschedlearn.api.resource import Quantity

#: Go: DefaultMilliCpuRequest -- 0.1 core, counted for a container without a ``cpu`` request.
DEFAULT_MILLI_CPU_REQUEST: int = 100
#: Go: DefaultMemoryRequest -- 200 MiB (209715200 bytes; Go's comment calls it "200 MB").
DEFAULT_MEMORY_REQUEST: int = 200 * 1024 * 1024

_RESOURCE_CPU = "cpu"
_RESOURCE_MEMORY = "memory"


def get_nonzero_requests(requests: Mapping[str, Quantity]) -> tuple[int, int]:
    """Return ``(milli_cpu, memory_bytes)`` of one container's requests, defaulting absent keys.

    Only the *absence* of a key triggers the default: an explicit ``cpu: 0`` stays 0.

    Go: func GetNonzeroRequests(requests *v1.ResourceList) (int64, int64)
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/util/non_zero.go#L32-L50
    Differs from Go: takes the mapping itself instead of a pointer to it.
    """
    if _RESOURCE_CPU not in requests:
        out_milli_cpu = DEFAULT_MILLI_CPU_REQUEST
    else:
        out_milli_cpu = requests[_RESOURCE_CPU].milli_value()
    if _RESOURCE_MEMORY not in requests:
        out_memory = DEFAULT_MEMORY_REQUEST
    else:
        out_memory = requests[_RESOURCE_MEMORY].value()
    return out_milli_cpu, out_memory
