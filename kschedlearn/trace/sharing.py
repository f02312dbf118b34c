"""Cheap snapshots: know from outside when a live component changed, reuse what was built.

Go: none — kschedlearn-only (DESIGN §6). A snapshot at every trace event (the teaching mode)
must not rebuild what did not change since the previous event. The snapshot builder
(``trace/snapshot.py``) asks each source whether it moved, at O(1) where a generation number
says so, and otherwise rebuilds only the parts that changed:

- the scheduler cache: :func:`watch_cache` wraps the cache *instance's* mutating methods from
  outside (like ``scheduler/instrument.py``) so that each call bumps a generation, and its
  ``debug_state`` so that it returns the previous picture while that generation stands still.
  Inside a mutating call (a trace event emitted by an inner wrapper, another goroutine taking
  a snapshot while this one waits for the cache's lock) the picture is always rebuilt; the
  cache's own per-NodeInfo memo still shares every unchanged node's part.
- the goroutines: ``Runtime.version`` moves on every goroutine start and state change.
- the FIFO / DeltaFIFO queues: :func:`watch_queue`, the same way.
- the API server, backoff, processes: see :class:`Reuse` and the builder.

Every change to a watched cache or queue goes through its methods (as in Go, where the cache is
only changed through its ``Cache`` interface and a queue through its ``Queue`` one); a test that
pokes their private fields directly must not expect a watched object's ``debug_state`` to see it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any, Generic, TypeVar

import attrs

from kschedlearn.trace.instrument import wrap_instance

T = TypeVar("T")
V = TypeVar("V")

#: the cache methods that change what ``debug_state`` shows (the Cache interface, Go's
#: cache.go, plus the expiry sweep's entry points, which the cleanup goroutine calls)
CACHE_MUTATORS = ("assume_pod", "finish_binding", "_finish_binding", "forget_pod", "add_pod",
                  "update_pod", "remove_pod", "add_node", "update_node", "remove_node",
                  "_cleanup_expired_assumed_pods", "_cleanup_assumed_pods", "_expire_pod")

WATCH_TAG = "snapshot-watch"


#: the FIFO / DeltaFIFO methods that change what ``debug_state`` shows. A popper blocked in
#: ``pop`` counts as "inside": the line may lose ghost keys there, so it is never reused then.
QUEUE_MUTATORS = ("add", "update", "delete", "pop", "replace", "resync", "add_if_not_present", "close")


@attrs.define(eq=False)
class _Watch:
    """Generation of one watched object, how many mutating calls are running, the last picture."""

    generation: int = 0
    depth: int = 0
    seen: int = -1
    last: Any = None


def _mutator(original: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(original)
    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        watch = type(self)._kschedlearn_watch
        watch.generation += 1
        watch.depth += 1
        try:
            return original(self, *args, **kwargs)
        finally:
            watch.depth -= 1
            watch.generation += 1

    return wrapper


def _debug_state(original: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(original)
    def wrapper(self: Any) -> Any:
        watch = type(self)._kschedlearn_watch
        if watch.depth == 0 and watch.seen == watch.generation and watch.last is not None:
            return watch.last
        state = original(self)
        if watch.depth == 0:
            watch.seen, watch.last = watch.generation, state
        return state

    return wrapper


def _watch(obj: Any, mutators: tuple[str, ...]) -> Any:
    cls = type(obj)
    if obj is None or WATCH_TAG in getattr(cls, "_kschedlearn_tags", ()):
        return obj
    if not all(callable(getattr(cls, name, None)) for name in (*mutators, "debug_state")):
        return obj  # not that kind of object (e.g. a proxy for "the focused replica's" one)
    wrappers: dict[str, Callable[[Callable[..., Any]], Callable[..., Any]]] = dict.fromkeys(mutators, _mutator)
    wrappers["debug_state"] = _debug_state
    wrap_instance(obj, wrappers, tag=WATCH_TAG)
    type(obj)._kschedlearn_watch = _Watch()  # the generated class is this instance's own
    return obj


def watch_cache(cache: Any) -> Any:
    """Make this scheduler cache instance's ``debug_state`` O(1) while it does not change.

    Idempotent; anything that is not a scheduler cache is returned untouched. Returns ``cache``.
    """
    return _watch(cache, CACHE_MUTATORS)


def watch_queue(queue: Any) -> Any:
    """The same for a FIFO or DeltaFIFO instance (``debug_state`` reused while no call runs)."""
    return _watch(queue, QUEUE_MUTATORS)


def type_name(obj: Any) -> str:
    """The name of ``obj``'s class as it was before :func:`_watch` gave it its own subclass."""
    cls = type(obj)
    while "_kschedlearn_watch" in cls.__dict__:
        cls = cls.__mro__[1]
    return cls.__name__


def is_watched(obj: Any) -> bool:
    """Whether :func:`watch_cache` / :func:`watch_queue` was applied to this instance."""
    return WATCH_TAG in getattr(type(obj), "_kschedlearn_tags", ())


@attrs.define(eq=False)
class Reuse(Generic[T]):
    """The last value built and the signature it was built from: ``get(signature, build)``
    returns the last value while the signature compares equal, else builds and keeps a new one.

    A rebuilt value equal to the last one is dropped for the last one (its parts are shared, so
    that compares identities). Signatures are compared with ``==`` (identity first, element by element, in C for tuples,
    lists and dicts), so a signature of live objects that are replaced on change (API objects,
    ``Deltas``) costs a few pointer comparisons.
    """

    signature: Any = None
    value: T | None = None
    filled: bool = False

    def get(self, signature: Any, build: Callable[[], T]) -> T:
        if self.filled and (self.signature is signature or self.signature == signature):
            return self.value  # type: ignore[return-value]
        value = build()
        if not (self.filled and value == self.value):  # moved and back (runnable -> running -> ...)
            self.value = value
        self.signature, self.filled = signature, True
        return self.value  # type: ignore[return-value]


def shared_items(items: Mapping[str, Any], memo: dict[str, tuple[Any, V]], make: Callable[[str, Any], V]) -> list[V]:
    """``make(key, item)`` for each item, in order, reusing the view of an item seen last time.

    ``memo`` (key -> (item, its view)) is refilled with the current items only. Items must be
    replaced, never changed in place (API objects, ``Deltas`` tuples), so the same item gives
    the same view.
    """
    previous = dict(memo)
    memo.clear()
    views = []
    for key, item in items.items():
        known = previous.get(key)
        view = known[1] if known is not None and known[0] is item else make(key, item)
        memo[key] = (item, view)
        views.append(view)
    return views
