"""The deterministic simulated runtime that the mirrored Go code runs on.

Code inside a goroutine reaches its runtime implicitly (as Go code reaches the Go scheduler):
``sim.go(f)``, ``sim.sleep(d)``, ``sim.now()``, ``sim.after(d)``. Outside any goroutine, use the
:class:`Runtime` object directly. See ``docs/contracts.md`` for the full contract.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kschedlearn.sim.chan import Chan, ChanClosedError, select
from kschedlearn.sim.runtime import (
    Crash,
    Goroutine,
    GoroutineExit,
    Process,
    Runtime,
    WouldBlockError,
    current_goroutine,
)
from kschedlearn.sim.sync import Cond, Mutex, RWMutex, Timer, WaitGroup
from kschedlearn.sim.sync import new_timer as _new_timer

__all__ = [
    "Chan", "ChanClosedError", "Cond", "Crash", "Goroutine", "GoroutineExit", "Mutex",
    "Process", "RWMutex", "Runtime", "Timer", "WaitGroup", "WouldBlockError", "after",
    "current_goroutine", "current_runtime", "go", "new_timer", "now", "select", "sleep",
    "yield_now",
]


def current_runtime() -> Runtime:
    """The runtime of the running goroutine; raises outside any goroutine."""
    g = current_goroutine()
    if g is None:
        raise WouldBlockError("no runtime: not inside a goroutine (use Runtime methods directly)")
    return g.runtime


def go(fn: Callable[..., Any], *args: Any, name: str | None = None) -> Goroutine:
    """Go's ``go fn(args...)``: start a goroutine in the current goroutine's process."""
    return current_runtime().go(fn, *args, name=name)


def now() -> float:
    """The virtual clock, in seconds (Go's ``time.Now()``)."""
    return current_runtime().now


def sleep(d: float) -> None:
    """Go's ``time.Sleep(d)`` in virtual seconds."""
    current_runtime().sleep(d)


def yield_now() -> None:
    """Go's ``runtime.Gosched()``."""
    g = current_goroutine()
    if g is not None:
        g.runtime.yield_now()


def new_timer(d: float) -> Timer:
    """Go's ``time.NewTimer(d)``."""
    return _new_timer(current_runtime(), d)


def after(d: float) -> Chan:
    """Go's ``time.After(d)``: a channel that receives once, ``d`` seconds from now."""
    return new_timer(d).c
