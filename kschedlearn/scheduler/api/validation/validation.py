"""Checks a Policy before the scheduler is built from it.

Go: plugin/pkg/scheduler/api/validation/validation.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/api/validation/validation.go
"""

from __future__ import annotations

from kschedlearn.apimachinery.util.errors import new_aggregate
from kschedlearn.scheduler.api.types import Policy


class PolicyValidationError(ValueError):
    """One problem found by :func:`validate_policy` (Go: a ``fmt.Errorf`` error)."""


def validate_policy(policy: Policy) -> None:
    """Every priority needs a weight > 0 and every extender a weight >= 0.

    All problems are collected, then reported together as one ``Aggregate`` error.

    Go: func ValidatePolicy(policy schedulerapi.Policy) error
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/api/validation/validation.go#L26-L43
    Differs from Go: the aggregate is raised instead of returned (None means valid).
    """
    validation_errors: list[BaseException] = []
    for priority in policy.priorities:
        if priority.weight <= 0:
            validation_errors.append(
                PolicyValidationError(f"Priority {priority.name} should have a positive weight applied to it")
            )
    for extender in policy.extender_configs:
        if extender.weight < 0:
            validation_errors.append(
                PolicyValidationError(
                    f"Priority for extender {extender.url_prefix} should have a non negative weight applied to it"
                )
            )
    aggregate = new_aggregate(validation_errors)
    if aggregate is not None:
        raise aggregate
