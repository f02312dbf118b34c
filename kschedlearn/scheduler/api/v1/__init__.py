"""Version v1 of the scheduler API: the JSON form of the Policy file.

Go: plugin/pkg/scheduler/api/v1 (types.go, register.go)
https://github.com/kubernetes/kubernetes/tree/v1.6.1/plugin/pkg/scheduler/api/v1

Differs from Go: there is no runtime.Scheme; register.go's group/version (``""``/``v1``) and the
one registered kind (``Policy``) are the constants ``GROUP``, ``VERSION``, ``KIND_POLICY``.
"""

from kschedlearn.scheduler.api.v1.types import (
    GROUP,
    KIND_POLICY,
    VERSION,
    PolicyError,
    load_policy,
    policy_from_dict,
    policy_to_dict,
)

__all__ = ["GROUP", "KIND_POLICY", "VERSION", "PolicyError", "load_policy", "policy_from_dict", "policy_to_dict"]
