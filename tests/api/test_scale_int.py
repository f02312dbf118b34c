"""Port of apimachinery resource/scale_int_test.go at v1.6.1 (``scaledValue``).

Go: https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/api/resource/scale_int_test.go

Go's ``*big.Int`` argument is a Python int (immutable, so Go's "the input is not modified"
check holds by construction). The ``(kschedlearn)`` rows pin the fast path's edge: Go compares
the unscaled value with MaxInt64 as a signed number, so MinInt64 and -MaxInt64 divide with
truncation and then step up by one, like every other int64.
"""

from __future__ import annotations

import pytest

from kschedlearn.api.resource import _scaled_value

MAX_INT64 = (1 << 63) - 1
MIN_INT64 = -(1 << 63)


@pytest.mark.parametrize(("unscaled", "scale", "new_scale", "want"), [
    # keep the scale
    pytest.param(1000, 0, 0, 1000, id="TestScaledValueInternal/0-remain"),
    # scale down
    pytest.param(1000, 0, -3, 1, id="TestScaledValueInternal/1-down"),
    pytest.param(1000, 3, 0, 1, id="TestScaledValueInternal/2-down"),
    pytest.param(0, 3, 0, 0, id="TestScaledValueInternal/3-down-zero"),
    # scaling down always rounds up
    pytest.param(999, 3, 0, 1, id="TestScaledValueInternal/4-round-up"),
    pytest.param(500, 3, 0, 1, id="TestScaledValueInternal/5-round-up"),
    pytest.param(499, 3, 0, 1, id="TestScaledValueInternal/6-round-up"),
    pytest.param(1, 3, 0, 1, id="TestScaledValueInternal/7-round-up"),
    pytest.param(MAX_INT64 - 1, 1, 0, (MAX_INT64 - 1) // 10 + 1, id="TestScaledValueInternal/8-large-no-precision-loss"),
    pytest.param(10**100, 100, 0, 1, id="TestScaledValueInternal/9-large-intermediate"),
    # scale up
    pytest.param(0, 0, 3, 0, id="TestScaledValueInternal/10-up-zero"),
    pytest.param(1, 0, 3, 1000, id="TestScaledValueInternal/11-up"),
    pytest.param(1, -3, 0, 1000, id="TestScaledValueInternal/12-up"),
    pytest.param(1000, -3, 2, 100000000, id="TestScaledValueInternal/13-up"),
    pytest.param(MAX_INT64 // 1000, 0, 3, (MAX_INT64 // 1000) * 1000, id="TestScaledValueInternal/14-up-large"),
    # (kschedlearn) the signed fast-path test of Go: truncate toward zero, then +1
    pytest.param(-MAX_INT64, 1, 0, -922337203685477579, id="(kschedlearn)/-MaxInt64-fast-path"),
    pytest.param(MIN_INT64, 1, 0, -922337203685477579, id="(kschedlearn)/MinInt64-fast-path"),
    pytest.param(-1000000001, 9, 0, 0, id="(kschedlearn)/negative-fraction-steps-past-zero"),
])
def test_scaled_value_internal(unscaled: int, scale: int, new_scale: int, want: int) -> None:
    assert _scaled_value(unscaled, scale, new_scale) == want
