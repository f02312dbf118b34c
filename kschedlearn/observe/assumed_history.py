"""The assumed keys an ``assume`` event shows, kept as a log of changes instead of a copy per event.

Go: none — kschedlearn-only (issue 25). Each ``assume`` event's data holds ``sorted(assumedPods)``
at its call. In a replay the scheduler assumes pods faster than the 50-QPS binder confirms them, so
up to 10,000 keys are assumed at once, and copying them at each of 10,000 assumes was quadratic:
~50 M references kept by the trace at 5,000 nodes, and the collector walking them. The kept order
(``observe.scheduler.AssumedOrder``) logs each change of its sorted list here; an event keeps only
an :class:`AssumedAt` (the log and a position), and the list is rebuilt — equal to the copy it
replaces — when the event's data is first read: from the nearest mark (a copy of the list taken
every ``MARK_EVERY`` changes) plus the changes after it.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right, insort

#: changes between two marks: a read replays at most this many; a mark copies the whole list
MARK_EVERY = 32


class AssumedHistory:
    """The changes of one sorted key list, in order, with marks to rebuild it at any position."""

    __slots__ = ("changes", "mark_at", "marks")

    def __init__(self) -> None:
        #: (True, key) inserted, (False, key) deleted, (None, keys) replaced by ``keys`` (a tuple)
        self.changes: list[tuple[bool | None, object]] = []
        #: positions of ``marks``, ascending (for ``bisect``)
        self.mark_at: list[int] = [0]
        #: the list as it was at each position of ``mark_at``
        self.marks: list[tuple[str, ...]] = [()]

    def inserted(self, key: str, keys: list[str]) -> None:
        """``key`` was inserted into ``keys`` (the list after the change)."""
        self.changes.append((True, key))
        self._mark(keys)

    def deleted(self, key: str, keys: list[str]) -> None:
        """``key`` was deleted from ``keys`` (the list after the change)."""
        self.changes.append((False, key))
        self._mark(keys)

    def replaced(self, keys: list[str]) -> None:
        """The list became ``keys`` (sorted anew)."""
        self.changes.append((None, tuple(keys)))
        self._mark(keys)

    def _mark(self, keys: list[str]) -> None:
        at = len(self.changes)
        if at - self.mark_at[-1] >= MARK_EVERY:
            self.mark_at.append(at)
            self.marks.append(tuple(keys))

    def now(self) -> AssumedAt:
        """The list as it is now, to be rebuilt later."""
        return AssumedAt(self, len(self.changes))

    def keys_at(self, at: int) -> list[str]:
        """The list as it was after the first ``at`` changes (a new list)."""
        i = bisect_right(self.mark_at, at) - 1
        keys = list(self.marks[i])
        for inserted, key in self.changes[self.mark_at[i]:at]:
            if inserted is None:
                keys = list(key)  # type: ignore[call-overload]
            elif inserted:
                insort(keys, key)  # type: ignore[type-var]
            else:
                del keys[bisect_left(keys, key)]  # type: ignore[type-var]
        return keys


class AssumedAt:
    """One position of an :class:`AssumedHistory`: what an event keeps instead of the list."""

    __slots__ = ("history", "at")

    def __init__(self, history: AssumedHistory, at: int) -> None:
        self.history = history
        self.at = at

    def keys(self) -> list[str]:
        """The sorted keys at this position (a new list)."""
        return self.history.keys_at(self.at)


__all__ = ["AssumedAt", "AssumedHistory", "MARK_EVERY"]
