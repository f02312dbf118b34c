"""``capture_stack`` remembers lines by instruction offset: the stacks are those of a frame-by-frame walk.

kschedlearn-only (issue 25, replay6). The capture's memos compare a frame's ``f_lasti`` and read
the line of an offset once per code object (CPython decodes the line table at every ``f_lineno``
read); while a trace function runs it reads ``f_lineno`` as before (a debugger may set it). These
tests compare every event's stack with the stack walked frame by frame (``f_lineno`` read at
each frame) at the moment it was recorded — with and without a trace function in place — and
check that two calls on one line share one Frame.
"""

from __future__ import annotations

import sys
from typing import Any

import pytest

from kschedlearn import Simulation, sim, trace
from kschedlearn.trace import core as trace_core
from kschedlearn.trace.core import Frame, _is_mirrored_frame_module

EVENTS = 400


def _walked(limit: int = 40) -> tuple[Frame, ...]:
    """The mirrored frames of the running goroutine, each line read from ``f_lineno``."""
    frames: list[Frame] = []
    f = sys._getframe(1)
    while f is not None:
        mod = f.f_globals.get("__name__", "")
        if _is_mirrored_frame_module(mod):
            frames.append(Frame(f.f_code.co_qualname, mod, f.f_lineno))
        f = f.f_back
    stack = tuple(reversed(frames))[-limit:]
    in_frame = (trace_core._in_frame,) if trace_core._in_frame is not None else ()
    return (*stack, *in_frame)


def _run(name: str, tracing: bool) -> list[tuple[Any, tuple[Frame, ...]]]:
    """(event, walked stack) for the first :data:`EVENTS` events of a bundled scenario; a listener
    walks the stack when each event is recorded (its own frames are not mirrored ones)."""
    s = Simulation.from_scenario(name, seed=1)
    seen: list[tuple[Any, tuple[Frame, ...]]] = []

    def listener(event: Any) -> None:
        if event.goroutine:
            seen.append((event, _walked()))

    s.world.tracer.listeners.append(listener)

    def tracer(frame: Any, event: str, arg: Any) -> Any:
        return tracer

    old = sys.gettrace()
    if tracing:
        sys.settrace(tracer)
    try:
        s.run_until(lambda e: e.seq >= EVENTS)
    finally:
        sys.settrace(old)
    assert len(seen) > EVENTS // 2
    return seen


@pytest.mark.parametrize("name", ["burst-100-pods", "ha-failover"])
def test_every_stack_is_the_walked_one(name: str) -> None:
    for event, walked in _run(name, tracing=False):
        assert event.stack == walked, f"{name}: event {event.seq} ({event.stage})"


def test_with_a_trace_function_the_lines_are_read_as_before() -> None:
    """The step-aside case: a trace function in place (as a debugger's), ``f_lineno`` read each time."""
    for event, walked in _run("burst-100-pods", tracing=True):
        assert event.stack == walked, f"event {event.seq} ({event.stage})"


def test_two_calls_on_one_line_share_one_frame() -> None:
    """Two offsets of one line give the one Frame of that line (stacks stay shared)."""
    rt = sim.Runtime()
    rt.tracer = trace.Tracer()
    mirrored = trace_core._CODE_MODULES
    caught: list[tuple[Frame, ...]] = []

    def point() -> None:
        caught.append(trace_core.capture_stack())

    def body() -> None:
        point(); point()  # noqa: E702 - two calls, one line

    code = body.__code__
    mirrored[id(code)] = (code, body.__globals__, "kschedlearn.scheduler.fake", {}, [0, 0], {})
    try:
        rt.go(body)
        rt.run()
    finally:
        mirrored.pop(id(code), None)
    assert len(caught) == 2
    assert caught[0] == caught[1] and caught[0][-1] is caught[1][-1]
    assert caught[0][-1].line == code.co_firstlineno + 1
