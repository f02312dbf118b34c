"""The versioned in-memory store behind the API server, and its bounded event history.

Go: plays the part of etcd3 storage plus the apiserver watch cache:
``staging/src/k8s.io/apiserver/pkg/storage/etcd3/store.go`` (one revision counter for every
key, Create/GuaranteedUpdate/Delete), ``staging/src/k8s.io/apiserver/pkg/storage/watch_cache.go``
(a bounded window of recent events per resource, ``too old resource version``) and
``cacher.go`` (``cacheWatcher.sendWatchCacheEvent``: a change that makes an object stop or start
matching a watch's filter is sent as DELETED or ADDED),
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apiserver/pkg/storage/cacher.go

Differs from Go: everything lives in one Python object; no serialization. Resource versions
are ints here and strings on objects, as on the wire.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections import deque
from collections.abc import Callable, Iterator
from typing import Any

import attrs

from kschedlearn.apimachinery.watch import ADDED, DELETED, MODIFIED, Event

Key = tuple[str, str]  # (namespace, name); namespace is "" for cluster-scoped kinds

DEFAULT_WATCH_WINDOW = 1000


@attrs.frozen
class HistoryEntry:
    """One stored change: its resourceVersion, type, the object after, the object before."""

    rv: int
    type: str
    object: Any
    prev_object: Any | None


@attrs.define(eq=False)
class ResourceHistory:
    """The recent-events window of one resource.

    Go: watchCache (its ring buffer ``cache`` with ``capacity``, and
    GetAllEventsSinceThreadUnsafe).
    """

    capacity: int = DEFAULT_WATCH_WINDOW
    entries: deque[HistoryEntry] = attrs.field(factory=deque)
    last_dropped_rv: int = 0

    def append(self, entry: HistoryEntry) -> None:
        self.entries.append(entry)
        self.trim()

    def trim(self) -> None:
        while len(self.entries) > self.capacity:
            self.last_dropped_rv = self.entries.popleft().rv

    def too_old_message(self, rv: int) -> str | None:
        """The 410 message if events after ``rv`` have already left the window, else None."""
        if self.last_dropped_rv == 0:
            return None
        oldest = self.entries[0].rv if self.entries else self.last_dropped_rv + 1
        if rv < oldest - 1:
            return f"too old resource version: {rv} ({oldest - 1})"
        return None

    def since(self, rv: int) -> list[HistoryEntry]:
        return [e for e in self.entries if e.rv > rv]


def _stamp(obj: Any, rv: int) -> Any:
    return attrs.evolve(obj, metadata=attrs.evolve(obj.metadata, resource_version=str(rv)))


@attrs.define(eq=False)
class Storage:
    """Objects of every resource under one resourceVersion counter, plus event histories.

    ``listeners`` are called with ``(resource, entry)`` after every write (the server fans
    the entry out to its watches).

    The counter starts at 1, as a fresh etcd3's revision does, so the first write gets "2" and
    even a list of an empty server returns a version ("1") that a watch can start from
    ("0" would mean "from now" and could miss a write made between the list and the watch).
    """

    watch_window: int = DEFAULT_WATCH_WINDOW
    resource_version: int = 1
    objects: dict[str, dict[Key, Any]] = attrs.field(factory=dict)
    histories: dict[str, ResourceHistory] = attrs.field(factory=dict)
    listeners: list[Callable[[str, HistoryEntry], None]] = attrs.field(factory=list)
    #: resource -> its keys, sorted, once a list asked for them (kept by create and delete: a
    #: list of 160,000 pods sorted their keys anew at every call, three lists per replay)
    _order: dict[str, list[Key]] = attrs.field(factory=dict, init=False, repr=False)

    def _bucket(self, resource: str) -> dict[Key, Any]:
        return self.objects.setdefault(resource, {})

    def history(self, resource: str) -> ResourceHistory:
        if resource not in self.histories:
            self.histories[resource] = ResourceHistory(capacity=self.watch_window)
        return self.histories[resource]

    def get(self, resource: str, key: Key) -> Any | None:
        return self.objects.get(resource, {}).get(key)

    def items(self, resource: str) -> Iterator[Any]:
        bucket = self.objects.get(resource, {})  # a read leaves the store as it was
        order = self._order.get(resource)
        if order is None or len(order) != len(bucket):
            order = sorted(bucket)
            if bucket:
                self._order[resource] = order
        for key in tuple(order):  # (the keys at the call: writes while a caller iterates are not seen)
            yield bucket[key]

    def _record(self, resource: str, type_: str, obj: Any, prev: Any | None) -> Any:
        self.resource_version += 1
        obj = _stamp(obj, self.resource_version)
        entry = HistoryEntry(self.resource_version, type_, obj, prev)
        self.history(resource).append(entry)
        for listener in list(self.listeners):
            listener(resource, entry)
        return obj

    def create(self, resource: str, key: Key, obj: Any) -> Any:
        """Store a new object (the caller checked it is absent); returns it with its RV."""
        obj = self._record(resource, ADDED, obj, None)
        bucket = self._bucket(resource)
        new = key not in bucket
        bucket[key] = obj
        order = self._order.get(resource)
        if order is not None and new:
            insort(order, key)
        return obj

    def update(self, resource: str, key: Key, obj: Any) -> Any:
        """Replace a stored object; returns it with its new RV."""
        prev = self._bucket(resource)[key]
        obj = self._record(resource, MODIFIED, obj, prev)
        self._bucket(resource)[key] = obj
        return obj

    def delete(self, resource: str, key: Key) -> Any:
        """Remove an object; the DELETED event carries its last state stamped with a new RV."""
        prev = self._bucket(resource).pop(key)
        order = self._order.get(resource)
        if order is not None:
            i = bisect_left(order, key)
            if i < len(order) and order[i] == key:
                del order[i]
            else:  # (not where it should be: sorted anew at the next list)
                del self._order[resource]
        return self._record(resource, DELETED, prev, prev)

    def changes_since(self, rv: int, resources: tuple[str, ...]) -> list[tuple[str, HistoryEntry]] | None:
        """The writes to ``resources`` after revision ``rv``, oldest first, as (resource, entry);
        None when some have already left a window (kschedlearn-only: the snapshots' API part,
        ``trace/api_view.py``)."""
        out: list[tuple[str, HistoryEntry]] = []
        for resource in resources:
            h = self.histories.get(resource)
            if h is None:
                continue
            if h.too_old_message(rv) is not None:
                return None
            newer = []
            for entry in reversed(h.entries):
                if entry.rv <= rv:
                    break
                newer.append((resource, entry))
            out.extend(reversed(newer))
        out.sort(key=lambda pair: pair[1].rv)
        return out

    def set_watch_window(self, n: int, resource: str | None = None) -> None:
        """Shrink (or grow) the event window; dropped events make old RVs "too old"."""
        targets = [resource] if resource is not None else list(self.histories)
        if resource is None:
            self.watch_window = n
        for r in targets:
            h = self.history(r)
            h.capacity = n
            h.trim()


@attrs.define(eq=False)
class WatchFilter:
    """What one watch wants: a namespace ("" = all) and label/field predicates.

    Go: storage.SelectionPredicate plus the namespace scoping of cacher.Watch.
    """

    namespace: str
    matches_labels: Callable[[Any], bool]
    matches_fields: Callable[[Any], bool]

    def matches(self, obj: Any | None) -> bool:
        if obj is None:
            return False
        if self.namespace and obj.metadata.namespace != self.namespace:
            return False
        return self.matches_labels(obj) and self.matches_fields(obj)

    def translate(self, entry: HistoryEntry) -> Event | None:
        """The event this watch sees for a stored change (None: not for this watch).

        Go: cacheWatcher.sendWatchCacheEvent — new and old state are both tested; a change
        that leaves the filter is DELETED, one that enters it is ADDED, each carrying the new
        object state.
        """
        cur = entry.type != DELETED and self.matches(entry.object)
        old = self.matches(entry.prev_object)
        if entry.type == DELETED:
            return Event(DELETED, entry.object) if old else None
        if cur and old:
            return Event(MODIFIED, entry.object)
        if cur:
            return Event(ADDED, entry.object)
        if old:
            return Event(DELETED, entry.object)
        return None
