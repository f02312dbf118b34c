"""Validation of a decoded scheduler Policy.

Go: plugin/pkg/scheduler/api/validation
https://github.com/kubernetes/kubernetes/tree/v1.6.1/plugin/pkg/scheduler/api/validation
"""

from kschedlearn.scheduler.api.validation.validation import validate_policy

__all__ = ["validate_policy"]
