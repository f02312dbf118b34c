"""Helpers shared by the priority functions (non-zero requests, ...).

Go: plugin/pkg/scheduler/algorithm/priorities/util
https://github.com/kubernetes/kubernetes/tree/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/util
"""

from kschedlearn.scheduler.algorithm.priorities.util.non_zero import (
    DEFAULT_MEMORY_REQUEST,
    DEFAULT_MILLI_CPU_REQUEST,
    get_nonzero_requests,
)

__all__ = ["DEFAULT_MEMORY_REQUEST", "DEFAULT_MILLI_CPU_REQUEST", "get_nonzero_requests"]
