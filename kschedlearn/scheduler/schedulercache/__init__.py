"""The scheduler cache: per-node aggregates of assumed and confirmed pods.

Go: plugin/pkg/scheduler/schedulercache
https://github.com/kubernetes/kubernetes/tree/v1.6.1/plugin/pkg/scheduler/schedulercache

Modules mirror the Go files: ``interface`` (the Cache interface and pod state machine),
``cache`` (``new(ttl, stop)`` and ``SchedulerCache``), ``node_info`` (``NodeInfo``, ``Resource``),
``util`` (``create_node_name_to_info_map``), ``reconcile_affinity``. The cache module is not
imported here so that NodeInfo users (predicates, priorities) do not pull in the runtime.
"""

from kschedlearn.scheduler.schedulercache.interface import Cache
from kschedlearn.scheduler.schedulercache.node_info import (
    CacheError,
    GoPanic,
    NilPointerDereference,
    NodeInfo,
    Resource,
    calculate_resource,
    get_pod_key,
    new_node_info,
)
from kschedlearn.scheduler.schedulercache.reconcile_affinity import reconcile_affinity
from kschedlearn.scheduler.schedulercache.util import create_node_name_to_info_map

__all__ = [
    "Cache",
    "CacheError",
    "GoPanic",
    "NilPointerDereference",
    "NodeInfo",
    "Resource",
    "calculate_resource",
    "create_node_name_to_info_map",
    "get_pod_key",
    "new_node_info",
    "reconcile_affinity",
]
