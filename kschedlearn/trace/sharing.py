"""Structure sharing between snapshots: reuse what was built while its signature stands still.

Go: none — kschedlearn-only (DESIGN §6). A snapshot at every trace event (the teaching mode)
must not rebuild what did not change since the previous event: the snapshot builder
(``trace/snapshot.py``) keeps each part with the signature it was built from (:class:`Reuse`)
and the views of queue items it saw (:func:`shared_items`). Knowing *whether* a live scheduler
cache or queue changed is the observation layer's (``kschedlearn/observe/sharing.py``); the
goroutines follow ``Runtime.version``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Generic, TypeVar

import attrs

T = TypeVar("T")
V = TypeVar("V")


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

    def current(self, signature: Any) -> bool:
        """Whether the last value was built from ``signature`` (what ``get`` would return unbuilt)."""
        return self.filled and (self.signature is signature or self.signature == signature)

    def get(self, signature: Any, build: Callable[[], T]) -> T:
        if self.current(signature):
            return self.value  # type: ignore[return-value]
        value = build()
        if not (self.filled and value == self.value):  # moved and back (runnable -> running -> ...)
            self.value = value
        self.signature, self.filled = signature, True
        return self.value  # type: ignore[return-value]


def same_objects(new: Mapping[Any, Any], last: Mapping[Any, Any]) -> bool:
    """Whether ``new`` holds, key for key, the very objects ``last`` holds (a loop rather than
    ``all()`` over a generator: asked at every snapshot)."""
    if len(new) != len(last):
        return False
    for key, value in new.items():
        if value is not last.get(key):
            return False
    return True


def holds(items: Any, obj: Any) -> bool:
    """Whether ``obj`` itself (identity, not equality) is one of ``items``."""
    for item in items:
        if item is obj:
            return True
    return False


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
