"""util/wait on virtual time: until, jitter_until (sliding and not), poll, backoff.

Ports the behaviours of wait_test.go (TestUntil, TestNonSlidingUntil, TestUntilReturnsImmediately,
TestJitterUntil, TestJitterUntilNegativeFactor, TestJitterUntilRecoversPanic, TestPoll,
TestPollForever, TestPollUntil, TestExponentialBackoff) with exact virtual times instead of
Go's wall-clock tolerances.
"""

from __future__ import annotations

import pytest

from kschedlearn import sim
from kschedlearn.apimachinery.util import wait


def _runtime() -> sim.Runtime:
    return sim.Runtime(seed=7)


def test_until_calls_f_every_period_after_it_returns_and_stops() -> None:
    rt = _runtime()
    stop = sim.Chan()
    calls: list[float] = []

    def f() -> None:
        calls.append(sim.now())
        sim.sleep(0.25)  # f takes time: the sliding period starts after it returns

    def stopper() -> None:
        sim.sleep(4)
        stop.close()

    rt.go(wait.until, f, 1.0, stop)
    rt.go(stopper)
    rt.run()
    assert calls == [0.0, 1.25, 2.5, 3.75]


def test_non_sliding_until_period_includes_the_work() -> None:
    rt = _runtime()
    stop = sim.Chan()
    calls: list[float] = []

    def f() -> None:
        calls.append(sim.now())
        sim.sleep(0.25)

    def stopper() -> None:
        sim.sleep(3.5)
        stop.close()

    rt.go(wait.non_sliding_until, f, 1.0, stop)
    rt.go(stopper)
    rt.run()
    assert calls == [0.0, 1.0, 2.0, 3.0]


def test_until_returns_immediately_when_already_stopped() -> None:
    rt = _runtime()
    stop = sim.Chan()
    stop.close()
    calls: list[float] = []
    rt.run_fn(wait.until, lambda: calls.append(sim.now()), 1.0, stop)
    assert calls == []


def test_until_with_period_zero_reruns_at_once() -> None:
    rt = _runtime()
    stop = sim.Chan()
    calls: list[float] = []

    def f() -> None:
        calls.append(sim.now())
        if len(calls) == 5:
            stop.close()

    rt.run_fn(wait.until, f, 0.0, stop)
    assert calls == [0.0] * 5


def test_jitter_until_periods_within_bounds_and_seeded() -> None:
    def run(seed: int) -> list[float]:
        rt = sim.Runtime(seed=seed)
        stop = sim.Chan()
        calls: list[float] = []

        def f() -> None:
            calls.append(sim.now())
            if len(calls) == 6:
                stop.close()

        rt.run_fn(wait.jitter_until, f, 2.0, 0.5, True, stop)
        return calls

    calls = run(3)
    gaps = [b - a for a, b in zip(calls, calls[1:])]
    assert all(2.0 <= g < 3.0 for g in gaps)
    assert len(set(gaps)) > 1
    assert run(3) == calls
    assert run(4) != calls


def test_jitter_negative_factor_means_factor_one() -> None:
    rt = _runtime()
    values = rt.run_fn(lambda: [wait.jitter(1.0, -1.0) for _ in range(20)])
    assert all(1.0 <= v < 2.0 for v in values)


def test_panic_in_until_kills_the_process() -> None:
    rt = _runtime()
    proc = rt.new_process("p")

    def f() -> None:
        raise RuntimeError("test panic")

    rt.go(wait.until, f, 1.0, wait.NEVER_STOP, process=proc)
    rt.run()
    assert not proc.alive and "test panic" in rt.crashes[0].message


def test_poll_waits_one_interval_before_the_first_check() -> None:
    rt = _runtime()
    checks: list[float] = []

    def cond() -> bool:
        checks.append(sim.now())
        return len(checks) == 3

    rt.run_fn(wait.poll, 1.0, 10.0, cond)
    assert checks == [1.0, 2.0, 3.0]


def test_poll_times_out_with_a_last_check() -> None:
    rt = _runtime()
    checks: list[float] = []

    def cond() -> bool:
        checks.append(sim.now())
        return False

    with pytest.raises(wait.ErrWaitTimeout, match="timed out waiting for the condition"):
        rt.run_fn(wait.poll, 1.0, 3.5, cond)
    assert checks == [1.0, 2.0, 3.0, 3.5]


def test_poll_immediate_checks_first() -> None:
    rt = _runtime()
    checks: list[float] = []
    rt.run_fn(wait.poll_immediate, 1.0, 5.0, lambda: checks.append(sim.now()) or True)
    assert checks == [0.0]


def test_poll_condition_error_propagates() -> None:
    rt = _runtime()

    def cond() -> bool:
        raise ValueError("boom")

    with pytest.raises(ValueError, match="boom"):
        rt.run_fn(wait.poll, 1.0, 5.0, cond)


def test_poll_until_stops_when_stop_closes() -> None:
    rt = _runtime()
    stop = sim.Chan()
    checks: list[float] = []

    def stopper() -> None:
        sim.sleep(2.5)
        stop.close()

    rt.go(stopper)
    with pytest.raises(wait.ErrWaitTimeout):
        rt.run_fn(wait.poll_until, 1.0, lambda: checks.append(sim.now()) or False, stop)
    assert checks[:2] == [1.0, 2.0]
    assert rt.now == 2.5


def test_exponential_backoff_sleeps_between_checks() -> None:
    rt = _runtime()
    checks: list[float] = []
    backoff = wait.Backoff(duration=1.0, factor=2.0, steps=4)

    with pytest.raises(wait.ErrWaitTimeout):
        rt.run_fn(wait.exponential_backoff, backoff, lambda: checks.append(sim.now()) or False)
    assert checks == [0.0, 1.0, 3.0, 7.0]
    checks.clear()
    rt2 = _runtime()
    rt2.run_fn(wait.exponential_backoff, backoff, lambda: checks.append(sim.now()) or len(checks) == 2)
    assert checks == [0.0, 1.0]
