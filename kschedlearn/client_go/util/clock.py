"""Clocks: the runtime's clock, a fake clock for tests, and an interval clock.

Go: ``k8s.io/client-go/util/clock`` (clock.go)
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/util/clock/clock.go#L24-L327

Times are float seconds. Differs from Go: :class:`RealClock` reads the simulation's virtual
clock, not the wall clock (nothing in kschedlearn reads the wall clock), so "real" here means
"the clock the simulated process lives by".
"""

from __future__ import annotations

from typing import Protocol

import attrs

from kschedlearn import sim
from kschedlearn.sim import Chan


class Clock(Protocol):
    """Go's ``clock.Clock`` interface.

    Go: clock.Clock — clock.go.
    """

    def now(self) -> float: ...
    def since(self, t: float) -> float: ...
    def after(self, d: float) -> Chan: ...
    def sleep(self, d: float) -> None: ...


class Timer(Protocol):
    """Go's ``clock.Timer`` interface: ``c``, ``stop``, ``reset``.

    Go: clock.Timer — clock.go.
    """

    c: Chan

    def stop(self) -> bool: ...
    def reset(self, d: float) -> bool: ...


@attrs.define(eq=False)
class RealClock:
    """Go's ``RealClock``, on the current goroutine's runtime (see module docstring).

    Go: clock.RealClock — clock.go. Differs from Go: reads the virtual clock.
    """

    def now(self) -> float:
        return sim.now()

    def since(self, t: float) -> float:
        return self.now() - t

    def after(self, d: float) -> Chan:
        return sim.after(d)

    def new_timer(self, d: float) -> sim.Timer:
        return sim.new_timer(d)

    def tick(self, d: float) -> Chan:
        """``time.Tick``: a channel receiving every ``d`` seconds (ticks dropped when full)."""
        rt = sim.current_runtime()
        ch = Chan(1, name="tick")

        def fire() -> None:
            ch.try_send(rt.now)
            rt.call_at(rt.now + d, fire)

        rt.call_at(rt.now + d, fire)
        return ch

    def sleep(self, d: float) -> None:
        sim.sleep(d)


@attrs.define(eq=False)
class _FakeClockWaiter:
    target_time: float
    step_interval: float
    skip_if_blocked: bool
    dest_chan: Chan


@attrs.define(eq=False)
class FakeClock:
    """Go's ``FakeClock``: time moves only when the test calls :meth:`step` or :meth:`set_time`.

    Go: clock.FakeClock — clock.go.
    """

    time: float = 0.0
    waiters: list[_FakeClockWaiter] = attrs.field(factory=list)

    def now(self) -> float:
        return self.time

    def since(self, t: float) -> float:
        return self.time - t

    def after(self, d: float) -> Chan:
        """Go: FakeClock.After — a channel that gets the time once ``d`` has passed."""
        ch = Chan(1, name="fake-after")
        self.waiters.append(_FakeClockWaiter(self.time + d, 0.0, False, ch))
        return ch

    def new_timer(self, d: float) -> FakeTimer:
        """Go: FakeClock.NewTimer — a timer that fires when the clock reaches now + ``d``."""
        ch = Chan(1, name="fake-timer")
        waiter = _FakeClockWaiter(self.time + d, 0.0, False, ch)
        self.waiters.append(waiter)
        return FakeTimer(self, waiter)

    def tick(self, d: float) -> Chan:
        """Go: FakeClock.Tick — a channel that gets the time every ``d`` (dropped if full)."""
        ch = Chan(1, name="fake-tick")
        self.waiters.append(_FakeClockWaiter(self.time + d, d, True, ch))
        return ch

    def step(self, d: float) -> None:
        """Move time forward by ``d`` and fire every waiter that is now due."""
        self.set_time(self.time + d)

    def set_time(self, t: float) -> None:
        """Go: FakeClock.SetTime — jump to ``t`` and fire every waiter now due."""
        self.time = t
        keep: list[_FakeClockWaiter] = []
        for w in self.waiters:
            if w.target_time > t:
                keep.append(w)
                continue
            if w.skip_if_blocked:
                w.dest_chan.try_send(t)
            else:
                w.dest_chan.send(t)  # buffered (1): never blocks for a fresh waiter
            if w.step_interval > 0:
                while w.target_time <= t:
                    w.target_time += w.step_interval
                keep.append(w)
        self.waiters = keep

    def has_waiters(self) -> bool:
        return bool(self.waiters)

    def sleep(self, d: float) -> None:
        self.step(d)


@attrs.define(eq=False)
class FakeTimer:
    """Go's ``fakeTimer``.

    Go: clock.fakeTimer — clock.go.
    """

    fake_clock: FakeClock
    waiter: _FakeClockWaiter

    @property
    def c(self) -> Chan:
        return self.waiter.dest_chan

    def stop(self) -> bool:
        """Go: fakeTimer.Stop — cancel; True if the timer was still pending."""
        active = self.waiter in self.fake_clock.waiters
        if active:
            self.fake_clock.waiters.remove(self.waiter)
        return active

    def reset(self, d: float) -> bool:
        """Go: fakeTimer.Reset — re-arm for now + ``d``; True if it was pending."""
        active = self.stop()
        self.waiter.target_time = self.fake_clock.time + d
        self.fake_clock.waiters.append(self.waiter)
        return active


@attrs.define(eq=False)
class IntervalClock:
    """Go's ``IntervalClock``: every ``now()`` advances by ``duration``; timers panic.

    Go: clock.IntervalClock — clock.go.
    """

    time: float
    duration: float

    def now(self) -> float:
        """Go: IntervalClock.Now — each call advances the clock by ``duration``."""
        self.time += self.duration
        return self.time

    def since(self, t: float) -> float:
        return self.now() - t

    def after(self, d: float) -> Chan:
        raise NotImplementedError("IntervalClock doesn't implement After")

    def new_timer(self, d: float) -> Chan:
        raise NotImplementedError("IntervalClock doesn't implement NewTimer")

    def tick(self, d: float) -> Chan:
        raise NotImplementedError("IntervalClock doesn't implement Tick")

    def sleep(self, d: float) -> None:
        raise NotImplementedError("IntervalClock doesn't implement Sleep")
