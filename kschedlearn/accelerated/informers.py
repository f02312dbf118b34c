"""The informers' side of the accelerated engine: a key line whose front leaves in O(1).

kschedlearn-only, put in place from outside (``observe/replica.py``, for ``engine="accelerated"``);
nothing in ``client_go`` knows about it. A DeltaFIFO keeps its keys in ``_queue`` and ``Pop``
takes the first (Go: ``f.queue = f.queue[1:]``, O(1) — a slice of the same array). The mirror's
``self._queue.pop(0)`` on a Python list moves every key left behind it: an informer's first list
of 150,000 bound pods queued 150,000 keys at once and then paid ~75,000 moves per pop, about
11 billion in all, a quarter of that informer's whole first sync. :class:`FrontLine` is the same
line with Go's cost: a deque that answers the list operations the mirror's queues make.

The same informer's pops also get ``observe/first_list.py``'s fast pops (:func:`accelerate_informers`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import Any


class FrontLine(deque):  # type: ignore[type-arg]
    """A FIFO's / DeltaFIFO's key line: ``pop(0)`` in O(1) (``popleft``); otherwise the
    list operations the queues make (``append``, ``extend``, ``clear``, ``len``, iteration,
    ``in``, indexing at both ends)."""

    __slots__ = ()

    def pop(self, index: int = -1) -> Any:  # type: ignore[override]
        """``list.pop(index)``: the front in O(1), the back in O(1), anything else by index."""
        if index == 0:
            return self.popleft()
        if index == -1:
            return super().pop()
        value = self[index]
        del self[index]
        return value


def front_line(keys: Iterable[Any]) -> FrontLine:
    """A :class:`FrontLine` holding ``keys`` in order."""
    return FrontLine(keys)


def accelerate_queue(queue: Any) -> Any:
    """Give one FIFO or DeltaFIFO a :class:`FrontLine` holding its current keys; returns it.

    A line already replaced (a :class:`FrontLine`, or a view's own line type put there by
    ``observe/indexes.py``) is left as it is."""
    line = queue._queue
    if type(line) is list:
        queue._queue = front_line(line)
    return queue


def accelerate_informers(config_factory: Any) -> None:
    """The scheduler's assigned-pod informer (its first list holds every bound pod) with a
    :class:`FrontLine` and the fast pops of ``observe/first_list.py``."""
    populator = getattr(config_factory, "scheduled_pod_populator", None)
    queue = getattr(getattr(populator, "config", None), "queue", None)
    if queue is not None and hasattr(queue, "_queue"):
        accelerate_queue(queue)
        from kschedlearn.observe.first_list import first_list

        first_list(queue)


__all__ = ["FrontLine", "accelerate_informers", "accelerate_queue", "front_line"]
