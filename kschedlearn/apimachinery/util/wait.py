"""Polling and periodic helpers: ``until``, ``jitter_until``, ``poll``, ``exponential_backoff``.

Go: ``k8s.io/apimachinery/pkg/util/wait`` (wait.go)
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/util/wait/wait.go#L36-L332

Differs from Go: time is the simulation's virtual clock and jitter draws from the runtime's
seeded RNG, so the same seed always gives the same periods. A stop channel is a
:class:`kschedlearn.sim.Chan` that is closed to stop.
"""

from __future__ import annotations

from collections.abc import Callable

import attrs

from kschedlearn import sim
from kschedlearn.apimachinery.util.runtime import handle_crash
from kschedlearn.sim import Chan

ERR_WAIT_TIMEOUT_TEXT = "timed out waiting for the condition"


class ErrWaitTimeout(Exception):
    """Go: wait.ErrWaitTimeout (wait.go). Differs from Go: an exception, not an error value."""

    def __init__(self) -> None:
        super().__init__(ERR_WAIT_TIMEOUT_TEXT)


#: How long a test waits for something that must happen (Go's ``wait.ForeverTestTimeout``,
#: 30 s; here virtual seconds).
FOREVER_TEST_TIMEOUT = 30.0

#: A channel that is never closed (Go's ``wait.NeverStop``).
NEVER_STOP = Chan(name="NeverStop")

ConditionFunc = Callable[[], bool]


def forever(f: Callable[[], None], period: float) -> None:
    """Go: wait.Forever (wait.go): ``until(f, period, NEVER_STOP)``."""
    until(f, period, NEVER_STOP)


def until(f: Callable[[], None], period: float, stop_ch: Chan) -> None:
    """``wait.Until``: call ``f`` every ``period`` (measured after f returns) until stop closes.

    Go: wait.go#L46-L53 (Until = JitterUntil with jitter 0 and sliding true)
    """
    jitter_until(f, period, 0.0, True, stop_ch)


def non_sliding_until(f: Callable[[], None], period: float, stop_ch: Chan) -> None:
    """Go: wait.NonSlidingUntil (wait.go): the period starts before ``f`` runs."""
    jitter_until(f, period, 0.0, False, stop_ch)


def _closed(stop_ch: Chan) -> bool:
    index, _, _ = sim.select(("recv", stop_ch), default=True)
    return index == 0


def jitter_until(
    f: Callable[[], None], period: float, jitter_factor: float, sliding: bool, stop_ch: Chan
) -> None:
    """``wait.JitterUntil``: the loop every periodic goroutine of the scheduler runs.

    Go: wait.go#L65-L114. The stop channel is checked first, so ``f`` never runs once
    stopped; a panic in ``f`` is re-raised (``HandleCrash`` with ``ReallyCrash = true``), which
    kills the process. With ``period == 0`` (the scheduleOne loop) ``f`` runs again at once.
    """
    while True:
        if _closed(stop_ch):
            return
        jittered = period
        if jitter_factor > 0.0:
            jittered = jitter(period, jitter_factor)
        t = None
        if not sliding:
            t = sim.new_timer(jittered)
        with handle_crash():  # Go: func() { defer runtime.HandleCrash(); f() }()
            f()  # HandleCrash logs a panic and re-panics: it kills the process
        if sliding:
            t = sim.new_timer(jittered)
        assert t is not None
        index, _, _ = sim.select(("recv", stop_ch), ("recv", t.c))
        if index == 0:
            t.stop()
            return


def jitter(duration: float, max_factor: float) -> float:
    """Go: wait.Jitter: ``duration + rand[0,1) * max_factor * duration`` (factor ≤ 0 → 1)."""
    if max_factor <= 0.0:
        max_factor = 1.0
    return duration + sim.current_runtime().rand.random() * max_factor * duration


@attrs.frozen
class Backoff:
    """Go: wait.Backoff (wait.go): Duration, Factor, Jitter, Steps."""

    duration: float
    factor: float = 1.0
    jitter: float = 0.0
    steps: int = 1


def exponential_backoff(backoff: Backoff, condition: ConditionFunc) -> None:
    """Go: wait.ExponentialBackoff: up to ``steps`` checks, sleeping before all but the first.

    Raises :class:`ErrWaitTimeout` if the condition never holds; exceptions from the
    condition propagate (Go's returned error).
    """
    duration = backoff.duration
    for i in range(backoff.steps):
        if i != 0:
            adjusted = duration
            if backoff.jitter > 0.0:
                adjusted = jitter(duration, backoff.jitter)
            sim.sleep(adjusted)
            duration = duration * backoff.factor
        if condition():
            return
    raise ErrWaitTimeout()


def poll(interval: float, timeout: float, condition: ConditionFunc) -> None:
    """Go: wait.Poll: wait ``interval`` before the first check; ErrWaitTimeout after timeout."""
    _poll_internal(poller(interval, timeout), condition)


def poll_immediate(interval: float, timeout: float, condition: ConditionFunc) -> None:
    """Go: wait.PollImmediate (wait.go): check once at once, then like :func:`poll`."""
    _poll_immediate_internal(poller(interval, timeout), condition)


def _poll_immediate_internal(wait_func: Callable[[Chan], Chan], condition: ConditionFunc) -> None:
    """Check ``condition`` before asking ``wait_func`` for any tick.

    Go: https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/util/wait/wait.go#L204-L213
    Differs from Go: the condition's error is an exception that propagates, so Go's
    ``if err != nil { return err }`` has no statement here.
    """
    if condition():
        return
    _poll_internal(wait_func, condition)


def poll_infinite(interval: float, condition: ConditionFunc) -> None:
    """Go: wait.PollInfinite (wait.go): poll_until on a channel closed when it returns."""
    done = Chan(name="poll-infinite-done")
    try:
        poll_until(interval, condition, done)
    finally:
        done.close()  # Go: defer close(done)


def poll_until(interval: float, condition: ConditionFunc, stop_ch: Chan) -> None:
    """``wait.PollUntil``: like poll_infinite, but closing ``stop_ch`` ends it (ErrWaitTimeout).

    Go: https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/util/wait/wait.go#L244-L251
    — the poller watches ``stop_ch`` itself, so (as in Go) its goroutine lives on until
    ``stop_ch`` closes even when the condition came true first.
    """
    wait_for(poller(interval, 0.0), condition, stop_ch)


def _poll_internal(wait_func: Callable[[Chan], Chan], condition: ConditionFunc) -> None:
    """``WaitFor`` on ``NeverStop``: the poller of a Poll ends only at its own timeout.

    Go: https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/util/wait/wait.go#L186-L188
    — a 1.6 quirk: after the condition comes true the poller goroutine goes on ticking (into a
    channel nobody reads) until the timeout; leader election's renew leaves one per renewal.
    """
    wait_for(wait_func, condition, NEVER_STOP)


def poller(interval: float, timeout: float) -> Callable[[Chan], Chan]:
    """Go: wait.poller: a goroutine that ticks every ``interval`` until ``timeout`` (0 = never).

    Ticks are sent without blocking and dropped if the checker is busy, as Go does; after the
    timeout the tick channel is closed.
    """

    def wait_func(done: Chan) -> Chan:
        ch = Chan(name="poller")

        def run() -> None:
            rt = sim.current_runtime()
            deadline = rt.now + timeout if timeout != 0 else None
            next_tick = rt.now + interval
            try:
                while True:
                    if deadline is not None and deadline <= next_tick:
                        wait_for_end = sim.new_timer(deadline - rt.now)
                        index, _, _ = sim.select(("recv", done), ("recv", wait_for_end.c))
                        return
                    tick = sim.new_timer(next_tick - rt.now)
                    index, _, _ = sim.select(("recv", done), ("recv", tick.c))
                    if index == 0:
                        return
                    next_tick += interval
                    index, _, _ = sim.select(("send", ch, None), ("recv", done), default=True)
                    if index == 1:
                        return
            finally:
                ch.close()

        sim.go(run, name="wait.poller")
        return ch

    return wait_func


def wait_for(wait_func: Callable[[Chan], Chan], condition: ConditionFunc, done: Chan) -> None:
    """Go: wait.WaitFor (wait.go): check ``condition`` on every tick until true, error or close."""
    c = wait_func(done)
    while True:
        _, ok = c.recv()
        if condition():
            return
        if not ok:
            break
    raise ErrWaitTimeout()
