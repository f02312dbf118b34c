"""What every trace point of the observation layer does when it fires.

Go: none — kschedlearn-only. A trace point stands at a call the Go code makes; its event is
recorded with the calling goroutine's stack (whose innermost mirrored frame is the calling line)
and an :class:`~kschedlearn.trace.ObservedCall` naming the function called and whether the event
stands before the call (``"calling"``) or right after it returned (``"returned"``).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any

import attrs

from kschedlearn.sim.runtime import current_goroutine
from kschedlearn.trace import ObservedCall, TraceEvent, emit


@functools.cache
def callee(fn: Callable[..., Any], phase: str) -> ObservedCall:
    """The :class:`ObservedCall` of a trace point before (``"calling"``) or after
    (``"returned"``) a call of ``fn``."""
    fn = inspect.unwrap(fn)
    return ObservedCall(getattr(fn, "__qualname__", repr(fn)), getattr(fn, "__module__", ""), 0, phase)


def point(stage: str, message: str, data: dict[str, Any] | None, fn: Callable[..., Any] | None,
          phase: str = "returned") -> TraceEvent | None:
    """Record ``stage`` (and maybe pause there), naming ``fn`` as the call it stands at."""
    return emit(stage, message, data=data, observed=observed(fn, phase))


def deferring_here(stage: str) -> tuple[Any, Any, bool] | None:
    """The running goroutine, its tracer and whether that defers an event of ``stage``
    (``Tracer.deferring``: nobody watches events as they are recorded), or None when no event of
    ``stage`` is recorded here (no goroutine, no tracer, or a history that does not keep it)."""
    g = current_goroutine()
    tracer = g.runtime.tracer if g is not None else None
    deferring = tracer.deferring(stage) if tracer is not None else None
    return None if deferring is None else (g, tracer, deferring)


def unrecorded(stage: str) -> bool:
    """Whether an event of ``stage`` would not be recorded here (no tracer, or a thinned history
    that does not keep the stage): a trace point then skips building its message and data, doing
    only what :func:`point` would have done for it — forget the fast paths that ran since the last
    trace point (:func:`observed`: the unrecorded event would have taken them)."""
    g = current_goroutine()
    if g is None:
        return True  # emit() records nothing outside a goroutine unless given a runtime
    rt = g.runtime
    tracer = rt.tracer
    if tracer is not None and tracer.wants(stage):
        return False
    observation = rt.observation
    if observation is not None and observation.fast_paths_ran:
        observation.fast_paths_ran.clear()
    return True


def observed(fn: Callable[..., Any] | None, phase: str = "returned") -> ObservedCall | None:
    """The event's :class:`ObservedCall`: the call it stands at, and the fast paths that ran in
    the mirror's place since the calling simulation's last trace point."""
    described = callee(fn, phase) if fn is not None else None
    g = current_goroutine()
    return observed_in(g.runtime if g is not None else None, described)


def observed_in(rt: Any, described: ObservedCall | None) -> ObservedCall | None:
    """:func:`observed` on runtime ``rt`` of the call ``described`` (``callee(fn, phase)``)."""
    observation = rt.observation if rt is not None else None
    if observation is None or not observation.fast_paths_ran:
        return described
    ran = tuple(dict.fromkeys(observation.fast_paths_ran))
    observation.fast_paths_ran.clear()
    if described is None:
        return ObservedCall("", "", 0, "running", fast_paths=ran)
    return attrs.evolve(described, fast_paths=ran)


def pod_key(pod: Any) -> str:
    """``namespace/name``, as the events name a pod."""
    return f"{pod.metadata.namespace}/{pod.metadata.name}"


__all__ = ["callee", "deferring_here", "observed", "observed_in", "pod_key", "point", "unrecorded"]
