"""util/clock: fake clock stepping, timers, ticks, interval clock (ports clock_test.go)."""

from __future__ import annotations

import pytest

from kschedlearn import sim
from kschedlearn.client_go.util.clock import FakeClock, IntervalClock, RealClock


def test_fake_clock_now_since_step() -> None:
    c = FakeClock(time=100.0)
    assert c.now() == 100.0
    c.step(5)
    assert c.now() == 105.0 and c.since(100.0) == 5.0
    c.set_time(200.0)
    assert c.since(105.0) == 95.0


def test_fake_after_fires_only_when_stepped_past() -> None:
    c = FakeClock()
    ch = c.after(10)
    assert c.has_waiters()
    c.step(9)
    assert len(ch) == 0
    c.step(1)
    assert ch.recv() == (10.0, True)
    assert not c.has_waiters()


def test_fake_timer_stop_and_reset() -> None:
    c = FakeClock()
    t = c.new_timer(5)
    assert t.stop() is True and t.stop() is False
    c.step(10)
    assert len(t.c) == 0
    assert t.reset(3) is False
    c.step(3)
    assert t.c.recv() == (13.0, True)


def test_fake_tick_is_periodic_and_skips_when_full() -> None:
    c = FakeClock()
    tick = c.tick(1)
    c.step(1)
    assert tick.recv() == (1.0, True)
    c.step(1)
    c.step(1)  # the channel still holds the 2.0 tick: this one is dropped
    assert tick.recv() == (2.0, True)
    assert len(tick) == 0
    assert c.has_waiters()


def test_interval_clock_advances_each_call_and_refuses_timers() -> None:
    c = IntervalClock(time=0.0, duration=2.0)
    assert c.now() == 2.0 and c.now() == 4.0
    with pytest.raises(NotImplementedError, match="IntervalClock doesn't implement After"):
        c.after(1)
    with pytest.raises(NotImplementedError, match="doesn't implement Sleep"):
        c.sleep(1)


def test_real_clock_follows_the_runtime() -> None:
    rt = sim.Runtime()

    def body() -> tuple[float, float]:
        clock = RealClock()
        start = clock.now()
        clock.sleep(3)
        _, v, _ = sim.select(("recv", clock.after(2)))
        return start, clock.since(start)

    assert rt.run_fn(body) == (0.0, 5.0)
