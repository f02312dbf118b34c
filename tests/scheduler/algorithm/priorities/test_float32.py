"""The cheap float32 rounding of SelectorSpread equals the plain ``struct`` round trip.

kschedlearn-only (no Go twin): ``selector_spreading._f32`` skips the ``struct`` round trip for
integral values up to 2**24 (already float32 values), and the spread count's ``count + 1.0``
skips rounding below 2**24; both must give bit-identical results to the emulation they replace.
"""

from __future__ import annotations

import math
import struct

from hypothesis import given, strategies as st

from kschedlearn.scheduler.algorithm.priorities import selector_spreading as ss


def _reference(x: float) -> float:
    """The emulation the fast path replaced: pack to a C float and back."""
    return struct.unpack("f", struct.pack("f", x))[0]


def _bits(x: float) -> bytes:
    return struct.pack("d", x)


finite_f32_range = st.floats(min_value=-3.4e38, max_value=3.4e38, allow_nan=False)


@given(finite_f32_range)
def test_f32_equals_struct_round_trip(x: float) -> None:
    assert _bits(ss._f32(x)) == _bits(_reference(x))


@given(st.integers(min_value=-(2**25), max_value=2**25))
def test_f32_on_integers_around_two_to_the_24(n: int) -> None:
    assert _bits(ss._f32(float(n))) == _bits(_reference(float(n)))


@given(st.integers(min_value=0, max_value=2**24 + 3), st.integers(min_value=1, max_value=20))
def test_count_increment_equals_rounded_increment(start: int, steps: int) -> None:
    fast = slow = _reference(float(start))
    for _ in range(steps):
        fast = fast + 1.0 if fast < ss._F32_EXACT else ss._f32(fast + 1)
        slow = _reference(slow + 1)
    assert _bits(fast) == _bits(slow)


@given(st.integers(min_value=0, max_value=200), st.integers(min_value=1, max_value=200),
       st.integers(min_value=0, max_value=200), st.integers(min_value=1, max_value=200))
def test_spread_score_formula_equals_reference(count: int, max_count: int, zone: int, max_zone: int) -> None:
    """The whole per-node score of CalculateSpreadPriority, fast vs reference rounding."""
    def score(f32) -> int:  # noqa: ANN001 - the rounding function under test
        mx, c = f32(float(max(count, max_count))), f32(float(count))
        share = f32((mx - c) / mx)
        f = f32(f32(10.0) * share)
        mz, z = f32(float(max(zone, max_zone))), f32(float(zone))
        zs = f32(f32(10.0) * f32((mz - z) / mz))
        f = f32(f32(f * f32(1.0 / 3.0)) + f32(f32(2.0 / 3.0) * zs))
        return ss._go_int(f)
    assert score(ss._f32) == score(_reference)


def test_f32_special_values() -> None:
    for x in (0.0, -0.0, math.inf, -math.inf, 1e39, -1e39, 2.0**24, 2.0**24 + 1, 0.1, 1 / 3):
        assert _bits(ss._f32(x)) == _bits(_reference(x))
    assert math.isnan(ss._f32(math.nan))


@given(st.lists(st.one_of(finite_f32_range, st.just(0.0), st.just(-0.0), st.just(math.nan),
                          st.integers(min_value=0, max_value=40).map(lambda n: n / 3)), max_size=20))
def test_f32_memo_gives_the_round_trip_every_time(xs: list[float]) -> None:
    """Repeated values come from the memo; zeros keep their sign, NaN stays NaN."""
    for x in xs + xs:
        got, want = ss._f32(x), _reference(x)
        assert _bits(got) == _bits(want) or (math.isnan(got) and math.isnan(want))


@given(st.one_of(st.floats(), st.just(2.0**63), st.just(-(2.0**63)), st.just(math.nan), st.just(math.inf)))
def test_go_int_equals_the_checked_conversion(x: float) -> None:
    """``_go_int``'s single range test gives what the NaN/Inf/range checks gave."""
    want = -(2**63) if math.isnan(x) or math.isinf(x) or not (-(2.0**63) <= x < 2.0**63) else int(x)
    assert ss._go_int(x) == want
