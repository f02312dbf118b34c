"""Closing a runtime: unwinding a discarded simulation's suspended goroutines.

Go: none — kschedlearn-only (DESIGN §4). greenlet never garbage-collects a suspended greenlet,
and a goroutine's frames hold its runtime — and so the whole simulation (API server, caches,
trace). Without :func:`close_runtime` every finished or discarded simulation would stay in
memory until the process ends. Called from outside any goroutine of that runtime.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import greenlet

from kschedlearn.sim.runtime import GoroutineExit, _GoGreenlet

if TYPE_CHECKING:
    from kschedlearn.sim.runtime import Runtime


def close_runtime(rt: Runtime) -> None:
    """Unwind every goroutine of ``rt`` still suspended (their ``finally`` blocks run), then
    its hub; afterwards ``rt`` runs nothing (``Runtime.run`` returns at once)."""
    if rt.closed:
        return
    here = greenlet.getcurrent()
    if isinstance(here, _GoGreenlet) and here.goroutine is not None and here.goroutine.runtime is rt:
        raise RuntimeError("Runtime.close() must be called from outside the runtime's goroutines")
    rt.closed = True
    rt._paused = None
    rt._ready.clear()
    rt._timers.clear()
    for g in [*rt.goroutines, *(x for p in rt.processes for x in p.goroutines)]:
        if g.alive:
            rt._kill(g)
    while rt._to_unwind:
        g = rt._to_unwind.popleft()
        glet = g.glet
        if glet is None or glet.dead or not glet:  # (never started: nothing to unwind)
            continue
        try:
            glet.parent = here  # (it returns here, not to the hub, once unwound)
        except ValueError:  # its greenlets live in another thread: only that thread can unwind them
            return
        rt.current = g
        try:
            glet.throw(GoroutineExit)
        except BaseException:  # noqa: BLE001 - a finally block that raised: it is gone all the same
            pass
        rt.current = None
    hub = rt._hub
    if hub is not None and hub and not hub.dead:
        try:
            hub.parent = here
        except ValueError:  # (another thread's, as above)
            return
        hub.throw(greenlet.GreenletExit)
    rt._hub = rt._driver = None
