"""Port of plugin/pkg/scheduler/api/validation/validation_test.go (v1.6.1), plus exact texts.

Go: https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/api/validation/validation_test.go
"""

from __future__ import annotations

import pytest

from kschedlearn.apimachinery.util.errors import Aggregate
from kschedlearn.scheduler.api import ExtenderConfig, Policy, PriorityPolicy
from kschedlearn.scheduler.api.validation import validate_policy

_EXT = "http://127.0.0.1:8081/extender"

CASES = [
    ("TestValidatePriorityWithNoWeight", Policy(priorities=(PriorityPolicy(name="NoWeightPriority"),)),
     "Priority NoWeightPriority should have a positive weight applied to it"),
    ("TestValidatePriorityWithZeroWeight", Policy(priorities=(PriorityPolicy(name="NoWeightPriority", weight=0),)),
     "Priority NoWeightPriority should have a positive weight applied to it"),
    ("TestValidatePriorityWithNonZeroWeight", Policy(priorities=(PriorityPolicy(name="WeightPriority", weight=2),)),
     None),
    ("TestValidatePriorityWithNegativeWeight", Policy(priorities=(PriorityPolicy(name="WeightPriority", weight=-2),)),
     "Priority WeightPriority should have a positive weight applied to it"),
    ("TestValidateExtenderWithNonNegativeWeight",
     Policy(extender_configs=(ExtenderConfig(url_prefix=_EXT, filter_verb="filter", weight=2),)), None),
    ("TestValidateExtenderWithZeroWeight",
     Policy(extender_configs=(ExtenderConfig(url_prefix=_EXT, filter_verb="filter", weight=0),)), None),
    ("TestValidateExtenderWithNegativeWeight",
     Policy(extender_configs=(ExtenderConfig(url_prefix=_EXT, filter_verb="filter", weight=-2),)),
     f"Priority for extender {_EXT} should have a non negative weight applied to it"),
]


@pytest.mark.parametrize(("policy", "message"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_validate_policy(policy, message):
    if message is None:
        assert validate_policy(policy) is None
        return
    with pytest.raises(Aggregate) as info:
        validate_policy(policy)
    assert str(info.value) == message


def test_errors_are_aggregated_in_order():
    policy = Policy(
        priorities=(PriorityPolicy(name="A", weight=0), PriorityPolicy(name="B", weight=1), PriorityPolicy(name="C", weight=-1)),
        extender_configs=(ExtenderConfig(url_prefix="http://x", weight=-1),),
    )
    with pytest.raises(Aggregate) as info:
        validate_policy(policy)
    assert [str(e) for e in info.value.errs] == [
        "Priority A should have a positive weight applied to it",
        "Priority C should have a positive weight applied to it",
        "Priority for extender http://x should have a non negative weight applied to it",
    ]
    assert str(info.value).startswith("[Priority A should") and str(info.value).endswith("applied to it]")


def test_empty_policy_is_valid():
    assert validate_policy(Policy()) is None
