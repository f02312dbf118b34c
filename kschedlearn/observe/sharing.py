"""Cheap snapshots: know from outside when a scheduler cache or a queue changed.

Go: none — kschedlearn-only (DESIGN §6). A snapshot at every trace event (the teaching mode)
must not rebuild what did not change since the previous event. :func:`watch` puts probes on the
methods of one cache or queue instance that change what its view shows: each call bumps a
generation (on entry and on return) and counts as "inside" while it runs. :func:`watched_state`
then returns the previous view while the generation stands still and no such call runs — inside
one (a trace event emitted by an inner trace point, another goroutine taking a snapshot while this
one waits for the cache's lock) the view is always rebuilt; the cache's own per-NodeInfo memo
(``observe/views.py``) still shares every unchanged node's part.

Every change to a watched cache or queue goes through its methods (as in Go, where the cache is
only changed through its ``Cache`` interface and a queue through its ``Queue`` one); a test that
pokes their private fields directly must not expect a watched object's view to see it.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any, TypeVar

import attrs

from kschedlearn.observe.wrap import Call, on_method
from kschedlearn.sim.runtime import current_goroutine

T = TypeVar("T")

#: the cache methods that change what its view shows (the Cache interface, Go's cache.go, plus
#: the expiry sweep's entry points, which the cleanup goroutine calls)
CACHE_MUTATORS = ("assume_pod", "finish_binding", "_finish_binding", "forget_pod", "add_pod",
                  "update_pod", "remove_pod", "add_node", "update_node", "remove_node",
                  "_cleanup_expired_assumed_pods", "_cleanup_assumed_pods", "_expire_pod")

#: the FIFO / DeltaFIFO methods that change what its view shows. A popper blocked in ``pop``
#: counts as "inside": the line may lose ghost keys there, so it is never reused then.
QUEUE_MUTATORS = ("add", "update", "delete", "pop", "replace", "resync", "add_if_not_present", "close")


@attrs.define(eq=False)
class _Watch:
    """Generation of one watched object, how many mutating calls are running, the last view;
    ``follower``: which keys those calls may have changed, once a view asked for it
    (``observe/indexes.py``: the views kept up to date from the changes)."""

    generation: int = 0
    depth: int = 0
    popping: int = 0  # of those calls, how many are Pops (a blocked popper has changed nothing yet)
    seen: int = -1
    last: Any = None
    follower: Any = None
    #: the goroutine running ``process`` on an item this queue's Pop handed over (None when no
    #: item is being processed), and how many items the last ``Replace`` listed: what the
    #: snapshot builder asks to know an informer's initial list (``trace/snapshot.py``, thinning)
    processing: Any = None
    listed: int = 0

    def around_for(self, name: str) -> Callable[[Callable[..., Any], Call], Any]:
        """The around hook of the mutator ``name``."""
        if name == "pop":
            return self._around_pop

        def around(proceed: Callable[..., Any], call: Call) -> Any:
            flight = self.entered(name, call)
            try:
                return proceed(*call.args, **call.kwargs)
            finally:
                self.left(flight)

        if name == "replace":
            return self._around_replace(around)
        return around

    def _around_replace(self, around: Callable[[Callable[..., Any], Call], Any]
                        ) -> Callable[[Callable[..., Any], Call], Any]:
        """``around`` for ``Replace``, which also notes how many items the list queued (a
        DeltaFIFO's initial population count right after it; 0 for a FIFO)."""

        def replace(proceed: Callable[..., Any], call: Call) -> Any:
            try:
                return around(proceed, call)
            finally:
                self.listed = int(getattr(call.receiver, "_initial_population_count", 0) or 0)

        return replace

    def entered(self, name: str, call: Call) -> Any:
        """A mutator's call ``name`` enters (its around hook; a fast path standing in for the
        call, ``observe/first_list.py``): returns its flight for :meth:`left` (None: no follower)."""
        self.generation += 1
        self.depth += 1
        follower = self.follower
        return follower.enter(name, call) if follower is not None else None

    def left(self, flight: Any) -> None:
        """The call :meth:`entered` returned ``flight`` for returns."""
        self.depth -= 1
        self.generation += 1
        if flight is not None:
            self.follower.leave(flight)
        elif self.follower is not None:  # a call that began before the follower
            self.follower.untracked_left()

    def _around_pop(self, proceed: Callable[..., Any], call: Call) -> Any:
        """Around ``Pop(process)``: the popped item's key is noted as Pop hands it to
        ``process`` (just after removing it) — also for a Pop that began, blocked, before the
        follower was switched on."""
        flights = self.pop_entered(call)
        try:
            if not call.args:
                return proceed(*call.args, **call.kwargs)
            process = call.args[0]

            def handed(item: Any) -> Any:
                outer = self.pop_handed(flights, call, item)
                try:
                    return process(item)
                finally:
                    self.processing = outer

            return proceed(handed, *call.args[1:], **call.kwargs)
        finally:
            self.pop_left(flights)

    # (the three steps of ``_around_pop``, also taken by the informer's fast pops in its place)

    def pop_entered(self, call: Call) -> list[Any]:
        """A Pop enters (also a popper about to block): its flights (none without a follower)."""
        self.generation += 1
        self.depth += 1
        self.popping += 1
        follower = self.follower
        return [follower.enter("pop", call)] if follower is not None else []

    def pop_handed(self, flights: list[Any], call: Call, item: Any) -> Any:
        """Pop hands ``item`` (just removed) to ``process``, which the running goroutine runs
        now: its key noted; returns who was processing before (for ``processing`` after)."""
        now = self.follower
        if now is not None:
            if not flights:
                flights.append(now.enter("pop", call))
            now.popped(flights[0], call.receiver, item)
        outer, self.processing = self.processing, current_goroutine()
        return outer

    def pop_left(self, flights: list[Any]) -> None:
        """The Pop of ``flights`` returns."""
        self.depth -= 1
        self.popping -= 1
        self.generation += 1
        if flights:
            self.follower.leave(flights[0])
        elif self.follower is not None:  # handed its item before the follower: a requeue is unseen
            self.follower.untracked_left(counted=False)


_WATCHES: weakref.WeakKeyDictionary[Any, _Watch] = weakref.WeakKeyDictionary()


def watch(obj: Any, mutators: tuple[str, ...]) -> Any:
    """Count the changes of this one instance (idempotent); returns ``obj``."""
    if obj in _WATCHES:
        return obj
    w = _WATCHES[obj] = _Watch()
    for name in mutators:
        if callable(getattr(type(obj), name, None)):
            on_method(obj, name, around=w.around_for(name))
    return obj


def watch_of(obj: Any) -> _Watch | None:
    """The watch of ``obj`` (None when it is not watched)."""
    return _WATCHES.get(obj)


def watch_cache(cache: Any) -> Any:
    """:func:`watch` a scheduler cache."""
    return watch(cache, CACHE_MUTATORS)


def watch_queue(queue: Any) -> Any:
    """:func:`watch` a FIFO or DeltaFIFO."""
    return watch(queue, QUEUE_MUTATORS)


def takes_snapshots(runtime: Any) -> bool:
    """Whether ``runtime``'s tracer is set to take snapshots (a snapshot function, a non-zero
    interval): only then are a replica's cache and queues watched (``observe/replica.py``). A
    watch's hooks run around every call of the cache's and queues' mutators — for a traced run
    without snapshots that was work whose counts nobody read. Asked once, as the parts are
    observed (the simulation's start): a watch installed later could not know a call already in
    flight. A snapshot builder pointed at an unwatched cache or queue builds its part whole each
    time — the same view, just not shared (``watched_state``, ``observe/indexes.py``)."""
    tracer = getattr(runtime, "tracer", None) if runtime is not None else None
    return tracer is not None and tracer.snapshot_fn is not None and bool(tracer.snapshot_every)


def is_watched(obj: Any) -> bool:
    """Whether :func:`watch` was applied to this instance."""
    return obj in _WATCHES


def watched_state(obj: Any, build: Callable[[Any], T]) -> T:
    """``build(obj)``, or the view built last time while ``obj`` is watched and unchanged."""
    w = _WATCHES.get(obj)
    return build(obj) if w is None else _state(w, obj, build)


def _state(w: _Watch, obj: Any, build: Callable[[Any], T]) -> T:
    """:func:`watched_state` of ``obj``, whose watch is ``w``."""
    if w.depth == 0 and w.seen == w.generation and w.last is not None:
        return w.last  # type: ignore[no-any-return]
    state = build(obj)
    if w.depth == 0:
        w.seen, w.last = w.generation, state
    return state


__all__ = ["CACHE_MUTATORS", "QUEUE_MUTATORS", "is_watched", "takes_snapshots", "watch", "watch_cache", "watch_of",
           "watch_queue", "watched_state"]


@attrs.define(eq=False)
class Source:
    """What the snapshot builder reads a part from: ``debug_state()`` is the view of whatever
    ``target()`` gives now (a replica's cache, "the focused replica's" queue), reused while that
    object is watched and unchanged; ``kind`` names a queue's kind (``FIFO`` / ``DeltaFIFO``)."""

    target: Callable[[], Any]
    build: Callable[[Any], Any]
    kind: str = ""
    #: optional, ``quiet_view(obj, watch, kind)``: what ``build(obj)`` gives when nothing it looks
    #: at moved since its last build (None: build). Asked while a call is inside the watched
    #: object (a popper blocked in Pop keeps its queue "inside" at every snapshot), where the
    #: generation alone cannot tell (``observe/indexes.py``: ``quiet_queue_view``)
    quiet_view: Callable[[Any, _Watch, str], Any] | None = None
    #: (the last target, its watch): asked at every snapshot, the same object nearly always
    _watched: tuple[Any, _Watch] | None = attrs.field(default=None, init=False, repr=False)

    def debug_state(self) -> Any:
        obj = self.target()
        if obj is None:
            self._watched = None
            return None
        known = self._watched
        if known is not None and known[0] is obj:
            w = known[1]
        else:
            found = _WATCHES.get(obj)
            if found is None:  # not watched (yet): built every time
                self._watched = None
                return self.build(obj)
            w = found
            self._watched = (obj, w)
        if w.depth and self.quiet_view is not None:
            view = self.quiet_view(obj, w, self.kind)
            if view is not None:
                return view
        return _state(w, obj, self.build)

    @property
    def known_watch(self) -> tuple[Any, _Watch] | None:
        """(the target, its watch) as the last ``debug_state`` or ``watched`` found them."""
        return self._watched

    def watched(self) -> tuple[Any, _Watch] | None:
        """(the target now, its watch), None when there is none or it is not watched."""
        obj = self.target()
        if obj is None:
            return None
        known = self._watched
        if known is not None and known[0] is obj:
            return known
        w = _WATCHES.get(obj)
        if w is None:
            return None
        self._watched = (obj, w)
        return self._watched


def queue_source(queue: Any) -> Source:
    """A snapshot source for one FIFO or DeltaFIFO (watched)."""
    from kschedlearn.observe.views import queue_state

    watch_queue(queue)
    return Source(lambda: queue, queue_state, type(queue).__name__)


def cache_source(cache: Any) -> Source:
    """A snapshot source for one scheduler cache (watched)."""
    from kschedlearn.observe.views import cache_state

    watch_cache(cache)
    return Source(lambda: cache, cache_state)


def backoff_source(backoff: Any) -> Source:
    """A snapshot source for one PodBackoff."""
    from kschedlearn.observe.views import backoff_state

    return Source(lambda: backoff, backoff_state)
