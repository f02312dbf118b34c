"""What the assigned-pod informer's fast pops (``observe/first_list.py``) do for those who look on.

Go: none — kschedlearn-only. A fast pop stands in for the mirror's Pop, Process, OnAdd (or
OnUpdate) and AddPod (or UpdatePod) and for the hooks around them. Besides the mirror's state
changes (``first_list.py``) those hooks count the calls for the snapshots' watches
(``observe/sharing.py``: the queue's Pop, the cache's AddPod / UpdatePod, their followers'
keys) and record the ``cache.addPod`` event; here is what a fast pop does in their place, and
when it may: the event recorded deferred while nobody looks at events as they come, else at once
with its snapshot when only the snapshot builder looks (teach4, issue 25: teaching mode's first
list was the mirror's, ~4.5 CPU-s at 1,000 nodes), with the stack the mirror's frames would show
(:func:`_inner_frames`).
"""

from __future__ import annotations

import dis
import functools
from collections.abc import Callable
from typing import Any

from kschedlearn.client_go.tools.cache import controller as informer_controller
from kschedlearn.client_go.tools.cache import fifo
from kschedlearn.client_go.tools.cache.controller import ResourceEventHandlerFuncs
from kschedlearn.client_go.tools.cache.delta_fifo import DeltaFIFO, Deltas
from kschedlearn.observe import scheduler as observe_scheduler
from kschedlearn.observe.points import observed_in
from kschedlearn.observe.sharing import _Watch
from kschedlearn.observe.wrap import Call, is_probe, site_of
from kschedlearn.scheduler.factory.factory import ConfigFactory
from kschedlearn.trace.events import Frame
from kschedlearn.trace.snapshot import SnapshotBuilder

#: the stages of the hooks a fast pop stands in for that would record an event of their own
_OWN_EVENTS = ("delta_fifo.pop", "controller.process_loop", "handler.OnAdd")
_STAGE = "cache.addPod"
#: the informer's Process function (a closure) and the handler's add function a fast pop stands in for
_PROCESS = site_of(informer_controller._informer_process, "process")
_ADD_POD_TO_CACHE = ConfigFactory.add_pod_to_cache


def _call_line(code: Any, module: str, name: str, last: bool = False) -> Frame:
    """The Frame a capture makes for a frame of ``code`` while it calls ``name`` (its first — or
    ``last`` — use of the name there: a global, an attribute or a local)."""
    lines = [i.positions.lineno for i in dis.get_instructions(code) if i.argval == name and i.positions is not None
             and i.positions.lineno is not None]
    if not lines:
        raise LookupError(f"{code.co_qualname} does not use {name}")
    return Frame(code.co_qualname, module, lines[-1] if last else lines[0])


@functools.cache
def _inner_frames() -> tuple[Frame, ...]:
    """The mirrored frames between ``processLoop``'s call of Pop and the cache's AddPod when the
    informer adds a pod: Pop calling the Process function, ``process`` calling OnAdd, OnAdd
    calling addPodToCache, which calls AddPod (what every such ``cache.addPod`` event's stack
    ends with)."""
    on_add = ResourceEventHandlerFuncs.__dict__["on_add"]
    on_add = on_add.original if is_probe(on_add) else on_add
    return (_call_line(DeltaFIFO.pop.__code__, DeltaFIFO.pop.__module__, "_run_process"),
            _call_line(fifo._run_process.__code__, fifo.__name__, "process"),
            _call_line(_PROCESS, informer_controller.__name__, "on_add"),
            _call_line(on_add.__code__, on_add.__module__, "add_func", last=True),
            _call_line(_ADD_POD_TO_CACHE.__code__, _ADD_POD_TO_CACHE.__module__, "add_pod"))


def _handing(queue: Any, front: tuple[str, Deltas], watch: _Watch | None, popping: tuple[Call, list[Any] | None],
             process: Callable[..., None], *args: Any) -> None:
    """The queue's front item (key, item) taken and handed to the Process function — here
    ``process(*args)`` — with what the queue's watch does around the mirror's Pop
    (``sharing.py``): the Pop entered, unless the popper waited in it (``popping``: the Pop's
    call and, when it waited, the flights its watch gave it then); the key noted; the running
    goroutine processing the item; the Pop left unless it waited."""
    if watch is None:
        _take_front(queue, front[0])
        process(*args)
        return
    call, flights = popping
    entered = flights is None
    if entered:
        flights = watch.pop_entered(call)
    try:
        _take_front(queue, front[0])
        outer = watch.pop_handed(flights, call, front[1])  # type: ignore[arg-type]
        try:
            process(*args)
        finally:
            watch.processing = outer
    finally:
        if entered:
            watch.pop_left(flights)  # type: ignore[arg-type]


def _record(tracer: Any, rt: Any, g: Any, point: observe_scheduler.LaterPoint, args: tuple[Any, ...],
            stack: tuple[Frame, ...] | None) -> None:
    """The ``cache.addPod`` event of ``point``: deferred when nobody looks at events as they
    come, else recorded now with its snapshot (:func:`_quiet` allowed it)."""
    if tracer.can_defer():
        tracer.record_described_later(rt, g, _STAGE, point.describe, args, observed_in(rt, point.described), stack)
    else:
        message, data = point.describe(*args)
        tracer.record_at(rt, g, _STAGE, message, data, observed_in(rt, point.described), stack)


def _take_front(queue: Any, key: str) -> None:
    """What DeltaFIFO.Pop does to the queue when it takes its front item ``key`` (the lock held)."""
    queue._queue.pop(0)
    if queue._initial_population_count > 0:
        queue._initial_population_count -= 1
    del queue._items[key]


def _quiet(tracer: Any) -> bool | None:
    """None when a hook a fast pop stands in for would record an event of its own (or the
    ``cache.addPod`` event could be neither recorded deferred nor at once); else whether that
    event is recorded."""
    if tracer is None:
        return False
    if any(map(tracer.wants, _OWN_EVENTS)):
        return None
    record = tracer.wants(_STAGE)
    return None if record and not (tracer.can_defer() or _at_once(tracer)) else record


def _at_once(tracer: Any) -> bool:
    """Whether the ``cache.addPod`` event may be recorded at once by a fast pop: nothing pauses
    at it (no breakpoint), and whoever looks at it as it comes sees what it would see from the
    mirror's frames — the snapshot builder (its parts read the live state, which a fast pop
    leaves as the mirror's hooks do at that point, watches included; its stack is the event's)
    and its ``observe`` listener; any other listener or snapshot function could look at the
    Python frames, which differ: the mirror pops then."""
    fn = tracer.snapshot_fn
    if tracer.breakpoint is not None or (fn is not None and type(fn) is not SnapshotBuilder):
        return False
    return all(getattr(listener, "__func__", None) is SnapshotBuilder.observe and listener.__self__ is fn
               for listener in tracer.listeners)
