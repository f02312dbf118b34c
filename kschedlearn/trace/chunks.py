"""Long parts of a snapshot that consecutive snapshots share chunk by chunk.

Go: none — kschedlearn-only (DESIGN §6). At cluster scale a snapshot's long parts (the scheduler
cache's 30,000 pod states, the API server's pods, a queue's items) change by one or two entries
between two events. A plain tuple would have to be copied whole at every change — O(cluster)
time, and O(cluster) memory held by every snapshot that differs. A :class:`Chunks` is an
immutable sequence stored as a tuple of short tuples: a new snapshot's part reuses every chunk
that did not change (the very same tuple objects), so it costs O(what changed + length / CHUNK).

It behaves as the tuple of its elements: iteration, ``len``, indexing, ``in``, and ``==`` /
``hash`` against a tuple with the same elements (so a part built from a full rebuild — plain
tuples — compares equal to the shared one); JSON encodes it as a list.

:class:`OrderedChunks` keeps such a sequence for a live ``dict`` in the dict's own order,
brought up to date from the keys that may have changed since it last looked
(:meth:`OrderedChunks.sync`); :class:`SortedChunks` keeps one sorted by key (the API server's
pods and nodes).
"""

from __future__ import annotations

import bisect
import itertools
import math
from collections.abc import Callable, Collection, Hashable, Iterable, Iterator, Mapping, Sequence
from typing import Any, Generic, TypeVar, overload

import attrs

T = TypeVar("T")
K = TypeVar("K", bound=Hashable)

#: elements per chunk at least: a change copies one chunk; a new sequence copies len / CHUNK references
CHUNK = 64


def chunk_size(n: int) -> int:
    """Elements per chunk for a sequence of about ``n``: √n (at least CHUNK), which makes the
    references a changed sequence copies — one chunk plus the list of chunks — about 2√n."""
    return max(CHUNK, math.isqrt(n))


@attrs.frozen(eq=False, repr=False)
class Chunks(Sequence[T]):
    """An immutable sequence made of chunks (tuples); equal to the tuple of its elements."""

    chunks: tuple[tuple[T, ...], ...] = ()
    #: the number of elements (given by a builder that knows it, else counted)
    length: int = attrs.field(default=attrs.Factory(lambda self: sum(map(len, self.chunks)), takes_self=True))

    def __len__(self) -> int:
        return self.length

    def __iter__(self) -> Iterator[T]:
        return itertools.chain.from_iterable(self.chunks)

    def __reversed__(self) -> Iterator[T]:
        return itertools.chain.from_iterable(map(reversed, reversed(self.chunks)))

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[T, ...]: ...

    def __getitem__(self, index: int | slice) -> T | tuple[T, ...]:
        if isinstance(index, slice):
            return tuple(self)[index]
        i = index + self.length if index < 0 else index
        if not 0 <= i < self.length:
            raise IndexError("Chunks index out of range")
        for chunk in self.chunks:
            if i < len(chunk):
                return chunk[i]
            i -= len(chunk)
        raise IndexError("Chunks index out of range")  # pragma: no cover - lengths add up

    def __contains__(self, value: object) -> bool:
        return any(value in chunk for chunk in self.chunks)

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if isinstance(other, Chunks):
            if self.length != other.length:
                return False
            if self.chunks is other.chunks or self.chunks == other.chunks:  # same chunks: C speed
                return True
            if list(map(len, self.chunks)) == list(map(len, other.chunks)):
                return False  # same boundaries, a chunk differs
            if self.length and not _same(next(iter(self)), next(iter(other))):
                return False  # (a key line that lost its front and gained an end: no flattening)
            return tuple(self) == tuple(other)
        if isinstance(other, tuple):
            return self.length == len(other) and tuple(self) == other
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self) -> int:
        return hash(tuple(self))  # equal to a tuple with the same elements: the same hash

    def __repr__(self) -> str:
        return f"Chunks({tuple(self)!r})"

    @classmethod
    def of(cls, items: Iterable[T]) -> Chunks[T]:
        """The elements of ``items`` cut into chunks of CHUNK."""
        flat = tuple(items)
        return cls(tuple(flat[i:i + CHUNK] for i in range(0, len(flat), CHUNK)))


EMPTY: Chunks[Any] = Chunks(())


def _same(a: object, b: object) -> bool:
    """``a == b``, by identity first (as a tuple compares its elements)."""
    return a is b or bool(a == b)


def _same_or(previous: Chunks[T] | None, new: Chunks[T]) -> Chunks[T]:
    """``previous`` when it equals ``new`` (changed and back, or rebuilt): the same object."""
    # (lengths first: a sequence that grew or shrank, the common change, is not compared)
    return previous if previous is not None and previous.length == new.length and previous == new else new


@attrs.define(eq=False)
class OrderedChunks(Generic[K, T]):
    """Key -> view in a live dict's insertion order, frozen into :class:`Chunks` on demand.

    Chunks are dicts (key -> view) in order; a key's chunk is found through ``_where``. Setting
    a known key replaces its view in place (the dict keeps its position, as the live dict does);
    a new key goes at the end; deleting leaves a hole that the chunk closes (an empty chunk is
    dropped). :meth:`freeze` copies only the chunks changed since the last freeze.
    """

    _chunks: dict[int, dict[K, T]] = attrs.field(factory=dict)
    _where: dict[K, int] = attrs.field(factory=dict)
    #: each chunk's tuple, in the chunks' order (stale for the ids in ``_dirty``)
    _frozen: dict[int, tuple[T, ...]] = attrs.field(factory=dict)
    _dirty: set[int] = attrs.field(factory=set)
    _next: int = 0
    _last: Chunks[T] | None = None
    _previous: Chunks[T] | None = None  # the last one frozen (kept across a reset)
    _size: int = CHUNK  # elements per chunk (chosen at each reset)
    #: since the last freeze: a key added or deleted (``_moved``); a key's view replaced by
    #: :meth:`sync` with another object — by its contract, an unequal view (``_unequal``): then
    #: the sequence differs from the last one frozen without comparing them
    _moved: bool = False
    _unequal: bool = False

    def __len__(self) -> int:
        return len(self._where)

    def __contains__(self, key: object) -> bool:
        return key in self._where

    def get(self, key: K) -> T | None:
        cid = self._where.get(key)
        return None if cid is None else self._chunks[cid][key]

    def keys(self) -> list[K]:
        """Every key, in order."""
        return [k for chunk in self._chunks.values() for k in chunk]

    def set(self, key: K, view: T) -> None:
        """Replace ``key``'s view in place, or append ``key`` at the end."""
        cid = self._where.get(key)
        if cid is None:
            tail = self._next - 1
            chunk = self._chunks.get(tail)
            if chunk is None or len(chunk) >= self._size:
                tail, chunk = self._next, {}
                self._chunks[tail] = chunk
                self._frozen[tail] = ()  # its place in the order; filled at the next freeze
                self._next += 1
            chunk[key] = view
            self._where[key] = tail
            self._changed(tail)
            self._moved = True
            return
        chunk = self._chunks[cid]
        if chunk[key] is not view:
            chunk[key] = view
            self._changed(cid)

    def delete(self, key: K) -> None:
        """Forget ``key`` (nothing if unknown)."""
        cid = self._where.pop(key, None)
        if cid is None:
            return
        chunk = self._chunks[cid]
        del chunk[key]
        self._changed(cid)
        self._moved = True
        if not chunk:
            del self._chunks[cid], self._frozen[cid]
            self._dirty.discard(cid)

    def _last_keys(self, count: int) -> list[K]:
        """The last ``count`` keys, in order (fewer if there are fewer)."""
        out: list[K] = []
        for cid in reversed(self._chunks):
            for key in reversed(self._chunks[cid]):
                if len(out) == count:
                    return out[::-1]
                out.append(key)
        return out[::-1]

    def reset(self, items: Iterable[tuple[K, T]]) -> None:
        """Hold exactly ``items`` (key, view), in that order."""
        items = list(items)
        self._chunks, self._where, self._frozen, self._dirty, self._last, self._next = {}, {}, {}, set(), None, 0
        self._size = chunk_size(len(items))
        self._moved = True
        for key, view in items:
            self.set(key, view)

    def _changed(self, cid: int) -> None:
        self._dirty.add(cid)
        self._last = None

    def freeze(self) -> Chunks[T]:
        """The views in order; the same object while nothing changed, unchanged chunks shared."""
        if self._last is not None:
            return self._last
        n = len(self._where)
        if len(self._chunks) > 2 * (n // self._size) + 8 or chunk_size(n) > 2 * self._size:  # holes, or grown: re-pack
            self.reset([(k, v) for chunk in self._chunks.values() for k, v in chunk.items()])
        frozen, chunks = self._frozen, self._chunks
        for cid in self._dirty:
            frozen[cid] = tuple(chunks[cid].values())
        self._dirty.clear()
        new = Chunks(tuple(frozen.values()), n)
        self._last = new if (self._unequal and not self._moved) else _same_or(self._previous, new)
        self._moved = self._unequal = False
        self._previous = self._last
        return self._last

    def sync(self, live: Mapping[K, Any], touched: Collection[K], view: Callable[[K, Any, T | None], T]) -> bool:
        """Follow ``live`` (a dict) after changes to at most the keys ``touched``; False (and
        nothing done) when that cannot be exact — the caller then :meth:`reset` it.

        ``view(key, value, old_view)`` gives a key's view (``old_view`` itself when unchanged).
        A dict keeps insertion order, and every key (re-)inserted since the last sync is a
        touched one, so those keys are the end of ``live`` after its last untouched key: the
        keys before keep their relative order here (a deleted one only leaves), the keys of that
        end are put at the end in ``live``'s order. O(touched + that end).
        """
        if not touched:
            return True
        tail: list[K] = []
        for key in reversed(live):  # type: ignore[call-overload]
            if key not in touched:
                break
            tail.append(key)
        tail.reverse()
        for key in touched:
            if key not in live:
                self.delete(key)
        if tail and self._last_keys(len(tail)) == tail:
            tail = []  # already the end here, in that order: changed in place, if at all
        at_end = set(tail)
        for key in touched:
            if key in at_end or key not in live:
                self.delete(key)
            elif key in self._where:
                old = self.get(key)
                new = view(key, live[key], old)
                if new is not old:
                    self._unequal = True
                self.set(key, new)
            else:
                return False  # a new key before an untouched one: something changed unseen
        for key in tail:
            self.set(key, view(key, live[key], None))
        return True


@attrs.define(eq=False)
class SortedChunks(Generic[K, T]):
    """Key -> view sorted by key, frozen into :class:`Chunks` on demand (the API server's pods
    and nodes: ``api_server_view`` sorts them by key).

    Chunks are parallel sorted key / view lists; ``_firsts`` (each chunk's first key) finds a
    key's chunk by bisection. A chunk past twice the chunk size splits; an empty one is dropped.
    """

    _keys: list[list[K]] = attrs.field(factory=list)
    _views: list[list[T]] = attrs.field(factory=list)
    _frozen: list[tuple[T, ...] | None] = attrs.field(factory=list)
    _firsts: list[K] = attrs.field(factory=list)
    _last: Chunks[T] | None = None
    _previous: Chunks[T] | None = None
    _size: int = CHUNK  # elements per chunk (chosen at each reset; a chunk splits past twice that)
    _count: int = 0
    _dirty: set[int] | None = None  # chunks to freeze again (None: look at every chunk)
    #: the keys whose view was replaced in place since the last freeze by one its caller says
    #: differs (``set(..., unequal=True)``), each once; None after any other change. While it
    #: is a non-empty set the new sequence differs from the last one frozen: not compared
    _replaced: set[K] | None = attrs.field(factory=set)

    def reset(self, items: Iterable[tuple[K, T]]) -> None:
        """Hold exactly ``items`` (key, view), any order, keys distinct."""
        ordered = sorted(items, key=lambda kv: kv[0])
        size = self._size = chunk_size(len(ordered))
        self._keys = [[k for k, _ in ordered[i:i + size]] for i in range(0, len(ordered), size)]
        self._views = [[v for _, v in ordered[i:i + size]] for i in range(0, len(ordered), size)]
        self._frozen = [None] * len(self._keys)
        self._firsts = [keys[0] for keys in self._keys]
        self._last, self._count, self._dirty, self._replaced = None, len(ordered), None, None

    def _chunk_of(self, key: K) -> int:
        return max(bisect.bisect_right(self._firsts, key) - 1, 0)  # type: ignore[type-var]

    def set(self, key: K, view: T, unequal: bool = False) -> None:
        """Put ``key``'s view (replacing it, or inserting the key in order); ``unequal``: the
        caller knows ``view`` differs from the view ``key`` has now, if any."""
        self._last = None
        if not self._keys:
            self._keys, self._views, self._frozen, self._firsts = [[key]], [[view]], [None], [key]
            self._count, self._dirty, self._replaced = 1, None, None
            return
        c = self._chunk_of(key)
        keys, views = self._keys[c], self._views[c]
        i = bisect.bisect_left(keys, key)  # type: ignore[type-var]
        self._frozen[c] = None
        if self._dirty is not None:
            self._dirty.add(c)
        if i < len(keys) and keys[i] == key:
            views[i] = view
            replaced = self._replaced
            if replaced is not None:
                if unequal and key not in replaced:
                    replaced.add(key)
                else:
                    self._replaced = None
            return
        self._replaced = None
        keys.insert(i, key)
        views.insert(i, view)
        self._count += 1
        self._firsts[c] = keys[0]
        if len(keys) > 2 * self._size:
            self._dirty = None
            if len(self._keys) > 4 * chunk_size(self._count):  # grown a lot: re-pack
                self.reset([kv for ks, vs in zip(self._keys, self._views) for kv in zip(ks, vs)])
                return
            half = self._size
            self._keys[c + 1:c + 1] = [keys[half:]]
            self._views[c + 1:c + 1] = [views[half:]]
            self._frozen[c + 1:c + 1] = [None]
            self._firsts[c + 1:c + 1] = [keys[half]]
            del keys[half:], views[half:]

    def delete(self, key: K) -> None:
        """Forget ``key`` (nothing if unknown)."""
        if not self._keys:
            return
        c = self._chunk_of(key)
        keys = self._keys[c]
        i = bisect.bisect_left(keys, key)  # type: ignore[type-var]
        if i == len(keys) or keys[i] != key:
            return
        self._last = None
        self._replaced = None
        self._count -= 1
        del keys[i], self._views[c][i]
        if keys:
            self._frozen[c] = None
            self._firsts[c] = keys[0]
            if self._dirty is not None:
                self._dirty.add(c)
        else:
            del self._keys[c], self._views[c], self._frozen[c], self._firsts[c]
            self._dirty = None

    def freeze(self) -> Chunks[T]:
        """The views sorted by key; the same object while nothing changed, unchanged chunks shared."""
        if self._last is None:
            frozen, views = self._frozen, self._views
            for c in (range(len(frozen)) if self._dirty is None else self._dirty):
                if frozen[c] is None:
                    frozen[c] = tuple(views[c])
            self._dirty = set()
            new = Chunks(tuple(frozen), self._count)  # type: ignore[arg-type]
            # replaced in place, each key once, each by a differing view: differs from the last
            self._last = new if self._replaced else _same_or(self._previous, new)
            self._previous, self._replaced = self._last, set()
        return self._last


@attrs.define(eq=False)
class LineChunks(Generic[T]):
    """A live list that only loses elements at its front and gains them at its end (a FIFO's
    key line), frozen into :class:`Chunks` cut at fixed absolute positions: the chunks between
    the first and the last are the same tuples from one freeze to the next.

    :meth:`sync` finds how many elements left the front since the last look — the first ``p``
    at which the copy kept here, from ``p`` on, is the start of the live list (checked element
    by element, at C speed, nothing kept) — so any other change is seen and answered with a
    rebuild (:meth:`reset`), never with a wrong line.
    """

    _copy: list[T] = attrs.field(factory=list)  # the live list as it was at the last sync
    _base: int = 0  # the absolute position of _copy[0]
    _size: int = CHUNK
    _spine: list[tuple[T, ...]] = attrs.field(factory=list)  # complete chunks, from number _spine_start on
    _spine_start: int = 0
    _last: Chunks[T] | None = None
    _previous: Chunks[T] | None = None

    def reset(self, live: Sequence[T]) -> None:
        """Hold exactly ``live``."""
        self._copy, self._base, self._spine, self._last = list(live), 0, [], None
        self._size = chunk_size(len(live))

    def sync(self, live: Sequence[T]) -> bool:
        """Follow ``live``; False (nothing done) when it is not "the old one, less a front,
        plus an end"."""
        old = self._copy
        if len(live) == len(old) and (live == old):
            return True
        if not live:
            dropped, added = len(old), []
        else:
            first = live[0]
            dropped = -1
            for p in range(max(len(old) - len(live), 0), len(old) + 1):
                if p == len(old) or old[p] is first or old[p] == first:
                    kept = len(old) - p
                    if kept <= len(live) and live[:kept] == old[p:]:
                        dropped = p
                        break
            if dropped < 0:
                return False
            added = live[len(old) - dropped:]
        if dropped == len(old) and chunk_size(len(added)) > self._size:
            self.reset(live)  # a new line altogether (a Replace): chunks sized for it
            return True
        if dropped:
            del old[:dropped]
            self._base += dropped
        old.extend(added)
        self._last = None
        return True

    def follow(self, live: Sequence[T], dropped: int) -> bool:
        """Follow ``live`` knowing that exactly ``dropped`` elements left its front since the
        last look (and whatever else happened, happened at its end): O(what changed). False
        when the lengths or the ends do not agree (the caller then :meth:`reset` it)."""
        old = self._copy
        kept = max(len(old) - dropped, 0)
        if len(live) < kept:
            return False
        if dropped == 0 and kept == len(live):
            return True
        if dropped:
            del old[:dropped]
            self._base += dropped
        old.extend(live[kept:])
        self._last = None
        return len(old) == len(live) and (not live or (old[0] is live[0] and old[-1] is live[-1]))

    def freeze(self) -> Chunks[T]:
        """The line; unchanged full chunks shared with the previous freeze."""
        if self._last is not None:
            return self._last
        copy, base, size = self._copy, self._base, self._size
        end = base + len(copy)
        parts: list[tuple[T, ...]] = []
        if copy:
            first, last = base // size, (end - 1) // size
            parts.append(tuple(copy[:min((first + 1) * size, end) - base]))
            if last > first:
                parts.extend(self._middle(first + 1, last))
                parts.append(tuple(copy[last * size - base:]))
        self._last = _same_or(self._previous, Chunks(tuple(parts), len(copy)))
        self._previous = self._last
        return self._last

    def _middle(self, lo: int, hi: int) -> list[tuple[T, ...]]:
        """The complete chunks ``lo`` .. ``hi - 1`` (kept in ``_spine`` from one freeze to the next)."""
        spine, start = self._spine, self._spine_start
        if not spine or start > lo or start + len(spine) < lo:
            spine, start = [], lo
        elif start < lo:
            del spine[:lo - start]
            start = lo
        del spine[max(hi - start, 0):]
        copy, base, size = self._copy, self._base, self._size
        for c in range(start + len(spine), hi):
            spine.append(tuple(copy[c * size - base:(c + 1) * size - base]))
        self._spine, self._spine_start = spine, start
        return spine


__all__ = ["CHUNK", "Chunks", "EMPTY", "LineChunks", "OrderedChunks", "SortedChunks", "chunk_size"]
