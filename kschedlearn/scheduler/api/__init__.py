"""The scheduler's own API types (priorities' HostPriority, and later the Policy types).

Go: plugin/pkg/scheduler/api
https://github.com/kubernetes/kubernetes/tree/v1.6.1/plugin/pkg/scheduler/api
"""

from kschedlearn.scheduler.api.types import HostPriority, HostPriorityList

__all__ = ["HostPriority", "HostPriorityList"]
