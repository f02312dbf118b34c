"""The scheduler's own API types: priorities' HostPriority and the Policy types.

Go: plugin/pkg/scheduler/api
https://github.com/kubernetes/kubernetes/tree/v1.6.1/plugin/pkg/scheduler/api

Policy files are read with ``kschedlearn.scheduler.api.latest.load_policy`` and checked with
``kschedlearn.scheduler.api.validation.validate_policy``.
"""

from kschedlearn.scheduler.api.types import (
    ExtenderArgs,
    ExtenderConfig,
    ExtenderFilterResult,
    HostPriority,
    HostPriorityList,
    LabelPreference,
    LabelsPresence,
    Policy,
    PredicateArgument,
    PredicatePolicy,
    PriorityArgument,
    PriorityPolicy,
    ServiceAffinity,
    ServiceAntiAffinity,
    TLSClientConfig,
)

__all__ = [
    "ExtenderArgs",
    "ExtenderConfig",
    "ExtenderFilterResult",
    "HostPriority",
    "HostPriorityList",
    "LabelPreference",
    "LabelsPresence",
    "Policy",
    "PredicateArgument",
    "PredicatePolicy",
    "PriorityArgument",
    "PriorityPolicy",
    "ServiceAffinity",
    "ServiceAntiAffinity",
    "TLSClientConfig",
]
