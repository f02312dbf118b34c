"""Port of client-go util/clock/clock_test.go (v1.6.1), plus facts of the fake clock's timers,
the interval clock and the real clock on the runtime.

Go: https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/util/clock/clock_test.go
(the same file as vendor/k8s.io/client-go/util/clock/clock_test.go at cluster-capacity commit
f271bd0a9394ad63384802cf75294f6ecab36ac2).

The Go tests are the ``test_<Go name>`` functions; Go's ``time.Now()`` start becomes 0.0
(seconds), so Go's nanosecond steps (999 ms + 1 ms) land exactly on the waiters' times.
"""

from __future__ import annotations

import pytest

from kschedlearn import sim
from kschedlearn.client_go.util.clock import FakeClock, IntervalClock, RealClock


def _ready(*chans: sim.Chan) -> int:
    """Go's ``select { case <-a: ... case <-b: ... default: }``: the index that fired, -1 none."""
    def body() -> int:
        index, _, _ = sim.select(*(("recv", ch) for ch in chans), default=True)
        return index

    return sim.Runtime().run_fn(body)


def test_FakeClock() -> None:
    start_time = 0.0
    tc = FakeClock(time=start_time)
    tc.step(1.0)
    assert tc.now() - start_time == 1.0
    tt = tc.now()
    tc.set_time(tt + 3600.0)
    assert tc.now() - tt == 3600.0


def test_FakeClockSleep() -> None:
    start_time = 0.0
    tc = FakeClock(time=start_time)
    tc.sleep(3600.0)
    assert tc.now() - start_time == 3600.0, "fake sleep must advance the time by one hour"


def test_FakeAfter() -> None:
    _fake_after_or_tick("after")


def test_FakeTick() -> None:
    _fake_after_or_tick("tick")


def _fake_after_or_tick(kind: str) -> None:
    """TestFakeAfter and TestFakeTick share their first half: nothing fires early, each
    channel fires once at its time and never twice; a ticker then keeps at most one tick."""
    tc = FakeClock(time=0.0)
    make = tc.after if kind == "after" else tc.tick
    assert not tc.has_waiters(), "unexpected waiter"
    one_sec = make(1.0)
    assert tc.has_waiters(), "unexpected lack of waiter"
    one_oh_one_sec = make(1.001)
    two_sec = make(2.0)
    chans = (one_sec, one_oh_one_sec, two_sec)
    assert _ready(*chans) == -1
    tc.step(0.999)
    assert _ready(*chans) == -1
    tc.step(0.001)  # t = 1.000
    assert _ready(*chans) == 0
    tc.step(0.001)  # t = 1.001: one_sec must not fire twice
    assert _ready(*chans) == 1
    if kind == "tick":
        for _ in range(4):  # t = 2.001 ... 5.001
            tc.step(1.0)
        # the one-second ticker does not pile up ticks
        accumulated_ticks = 0
        while _ready(one_sec) == 0:
            accumulated_ticks += 1
        assert accumulated_ticks == 1


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
