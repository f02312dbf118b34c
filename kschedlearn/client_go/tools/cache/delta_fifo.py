"""DeltaFIFO: a FIFO that keeps, per key, every change (delta) since the key was last popped.

Go: staging/src/k8s.io/client-go/tools/cache/delta_fifo.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/delta_fifo.go#L29-L681

Every informer sits on one: the reflector pushes Added/Updated/Deleted (watch) and Sync
(relist, resync) deltas; the controller pops a key's whole ``Deltas`` and applies them to the
informer's store and handlers. With ``known_objects`` (the informer's store) a relist can tell
which objects vanished while the watch was down and queues ``DeletedFinalStateUnknown``
tombstones for them.

Differs from Go: see ``fifo`` (one lock instead of two, insertion-ordered maps). Go's logging
goes to ``kschedlearn.trace.glog``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Protocol

import attrs

from kschedlearn import sim
from kschedlearn.apimachinery.util.runtime import PANICS, NilPointerDereference
from kschedlearn.client_go.tools.cache.fifo import (
    FIFOClosedError,
    PopProcessFunc,
    _run_process,
)
from kschedlearn.client_go.tools.cache.store import KeyFunc, KeyFuncError, meta_namespace_key_func
from kschedlearn.trace import glog

ADDED = "Added"
UPDATED = "Updated"
DELETED = "Deleted"
SYNC = "Sync"
"""Go: delta_fifo.go ``type DeltaType string`` constants ``Added``, ``Updated``, ``Deleted``,
``Sync`` (a Sync delta comes from a relist or a periodic resync)."""

DeltaType = str


class ErrZeroLengthDeltasObject(Exception):
    """An empty ``Deltas`` has no key.

    Go: delta_fifo.go ``var ErrZeroLengthDeltasObject`` (``0 length Deltas object; can't get key``)
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/delta_fifo.go#L134-L138

    Differs from Go: an exception class instead of a sentinel error value.
    """

    def __init__(self, message: str = "0 length Deltas object; can't get key") -> None:
        super().__init__(message)


@attrs.frozen
class Delta:
    """One change: its type and the object's state after it (for a deletion, the last known
    state). Go: delta_fifo.go ``type Delta struct{Type, Object}``
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/delta_fifo.go#L633-L641
    """

    type: DeltaType
    object: Any


class Deltas(tuple[Delta, ...]):
    """The changes to one object, oldest first.

    Go: delta_fifo.go ``type Deltas []Delta`` with ``Oldest()``/``Newest()``
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/delta_fifo.go#L643-L645

    Differs from Go: an immutable tuple, so Go's ``copyDeltas`` (copy before handing a slice
    out) is unnecessary; appending builds a new ``Deltas``.
    """

    __slots__ = ()

    def oldest(self) -> Delta | None:
        """The first delta, or None if empty. Go: ``Deltas.Oldest``."""
        return self[0] if len(self) > 0 else None

    def newest(self) -> Delta | None:
        """The last delta, or None if empty. Go: ``Deltas.Newest``."""
        return self[-1] if len(self) > 0 else None

    def __repr__(self) -> str:
        return f"Deltas([{', '.join(repr(d) for d in self)}])"


@attrs.frozen
class DeletedFinalStateUnknown:
    """A tombstone: ``key`` was deleted while nobody watched; ``obj`` is its last known
    (possibly stale, possibly None) state.

    Go: delta_fifo.go ``type DeletedFinalStateUnknown struct{Key, Obj}``
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/delta_fifo.go#L674-L681
    """

    key: str
    obj: Any


def deletion_handling_meta_namespace_key_func(obj: Any) -> str:
    """``meta_namespace_key_func`` that also accepts tombstones (their ``key`` is the key).

    Go: controller.go ``DeletionHandlingMetaNamespaceKeyFunc``
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/controller.go#L210-L218

    Differs from Go: lives beside ``DeletedFinalStateUnknown`` (Go: controller.go) so that the
    store layer does not depend on the controller module.
    """
    if isinstance(obj, DeletedFinalStateUnknown):
        return obj.key
    return meta_namespace_key_func(obj)


class KeyListerGetter(Protocol):
    """What DeltaFIFO needs from the consumer's store: its keys and a lookup.

    Go: delta_fifo.go ``KeyListerGetter`` (= ``KeyLister`` + ``KeyGetter``)
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/delta_fifo.go#L586-L590
    """

    def list_keys(self) -> list[str]: ...
    def get_by_key(self, key: str) -> tuple[Any, bool]: ...


class DeltaCompressor(Protocol):
    """Rewrites a key's Deltas after each append (may drop some or all).

    Go: delta_fifo.go ``type DeltaCompressor interface``
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/delta_fifo.go#L602-L605
    """

    def compress(self, deltas: Deltas) -> Deltas: ...


@attrs.frozen
class DeltaCompressorFunc:
    """Adapt a plain function to ``DeltaCompressor``.

    Go: delta_fifo.go ``type DeltaCompressorFunc`` and its ``Compress``
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/delta_fifo.go#L607-L612
    """

    fn: Callable[[Deltas], Iterable[Delta]]

    def compress(self, deltas: Deltas) -> Deltas:
        return Deltas(self.fn(deltas))


def _dedup_deltas(deltas: Deltas) -> Deltas:
    """Collapse the two newest deltas into one if they describe the same event.

    Go: delta_fifo.go ``dedupDeltas``
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/delta_fifo.go#L262-L276
    """
    n = len(deltas)
    if n < 2:
        return deltas
    a = deltas[n - 1]
    b = deltas[n - 2]
    out = _is_dup(a, b)
    if out is not None:
        return Deltas((*deltas[: n - 2], out))
    return deltas


def _is_dup(a: Delta, b: Delta) -> Delta | None:
    """The delta to keep if ``a`` (newer) and ``b`` (older) are the same event, else None.
    Only double deletions count in v1.6.1. Go: delta_fifo.go ``isDup``.
    """
    out = _is_deletion_dup(a, b)
    if out is not None:
        return out
    return None


def _is_deletion_dup(a: Delta, b: Delta) -> Delta | None:
    """For two deletions keep the one with more information: the older one, unless the older
    is a tombstone. Go: delta_fifo.go ``isDeletionDup``.
    """
    if b.type != DELETED or a.type != DELETED:
        return None
    if isinstance(b.object, DeletedFinalStateUnknown):
        return a
    return b


@attrs.define(eq=False, slots=False)
class DeltaFIFO:
    """The delta queue described in the module docstring.

    Go: delta_fifo.go ``type DeltaFIFO struct``
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/delta_fifo.go#L63-L127

    ``_items`` maps key -> non-empty ``Deltas``; ``_queue`` is the key line (it may hold ghost
    keys with no item, which ``pop`` skips). Build one with ``new_delta_fifo``.
    """

    _key_func: KeyFunc
    _delta_compressor: DeltaCompressor | None = None
    _known_objects: KeyListerGetter | None = None
    _lock: sim.Mutex = attrs.field(init=False, factory=sim.Mutex)
    _cond: sim.Cond = attrs.field(init=False)
    _items: dict[str, Deltas] = attrs.field(init=False, factory=dict)
    _queue: list[str] = attrs.field(init=False, factory=list)
    _populated: bool = attrs.field(init=False, default=False)
    _initial_population_count: int = attrs.field(init=False, default=0)
    _closed: bool = attrs.field(init=False, default=False)

    @_cond.default
    def _cond_default(self) -> sim.Cond:
        return sim.Cond(self._lock)

    def close(self) -> None:
        """Mark closed and wake every blocked ``pop``. Go: ``(*DeltaFIFO).Close``."""
        with self._lock:
            self._closed = True
            self._cond.broadcast()

    def key_of(self, obj: Any) -> str:
        """The key of ``obj``; a ``Deltas`` is keyed by its newest object, a tombstone by its
        ``key``. Go: ``(*DeltaFIFO).KeyOf``.
        """
        if isinstance(obj, Deltas):
            if len(obj) == 0:
                raise KeyFuncError(obj, ErrZeroLengthDeltasObject())
            obj = obj.newest().object  # type: ignore[union-attr]
        if isinstance(obj, DeletedFinalStateUnknown):
            return obj.key
        return self._key_func(obj)

    def _key_of_or_raise(self, obj: Any) -> str:
        """``key_of`` with its failure wrapped in ``KeyFuncError`` (Go: ``KeyError{obj, err}``)."""
        try:
            return self.key_of(obj)
        except Exception as err:
            raise KeyFuncError(obj, err) from err

    def has_synced(self) -> bool:
        """Go: ``(*DeltaFIFO).HasSynced`` - see ``FIFO.has_synced``."""
        with self._lock:
            return self._populated and self._initial_population_count == 0

    def add(self, obj: Any) -> None:
        """Queue an ``Added`` delta. Go: ``(*DeltaFIFO).Add``."""
        with self._lock:
            self._populated = True
            self._queue_action_locked(ADDED, obj)

    def update(self, obj: Any) -> None:
        """Queue an ``Updated`` delta. Go: ``(*DeltaFIFO).Update``."""
        with self._lock:
            self._populated = True
            self._queue_action_locked(UPDATED, obj)

    def delete(self, obj: Any) -> None:
        """Queue a ``Deleted`` delta, unless the deletion is already known to be reported.

        Go: ``(*DeltaFIFO).Delete``. Without known objects the delete is dropped if the key has
        nothing queued; with them, only if the key is neither known nor queued.
        """
        id_ = self._key_of_or_raise(obj)
        with self._lock:
            self._populated = True
            if self._known_objects is None:
                if id_ not in self._items:
                    # Probably already reported by a relist's tombstone.
                    return
            else:
                err: Exception | None = None
                exists = False
                try:
                    _, exists = self._known_objects.get_by_key(id_)
                except Exception as e:  # Go: a lookup error means "do queue the deletion"
                    err = e
                items_exist = id_ in self._items
                if err is None and not exists and not items_exist:
                    return
            self._queue_action_locked(DELETED, obj)

    def add_if_not_present(self, obj: Any) -> None:
        """Put back a popped ``Deltas`` unless its key got new deltas meanwhile.

        Go: ``(*DeltaFIFO).AddIfNotPresent``. Raises ``TypeError`` if ``obj`` is not a Deltas.
        Differs from Go: an empty Deltas raises ``KeyFuncError`` (Go dereferences nil and panics).
        """
        if not isinstance(obj, Deltas):
            raise TypeError(f"object must be of type deltas, but got: {obj!r}")
        newest = obj.newest()
        if newest is None:
            raise KeyFuncError(obj, ErrZeroLengthDeltasObject())
        id_ = self._key_of_or_raise(newest.object)
        with self._lock:
            self._add_if_not_present(id_, obj)

    def _add_if_not_present(self, id_: str, deltas: Deltas) -> None:
        """Lock held. Go: ``(*DeltaFIFO).addIfNotPresent``."""
        self._populated = True
        if id_ in self._items:
            return
        self._queue.append(id_)
        self._items[id_] = deltas
        self._cond.broadcast()

    def _will_object_be_deleted_locked(self, id_: str) -> bool:
        """True if the newest queued delta of ``id_`` is a deletion.
        Go: ``(*DeltaFIFO).willObjectBeDeletedLocked``.
        """
        deltas = self._items.get(id_, Deltas())
        return len(deltas) > 0 and deltas[-1].type == DELETED

    def _queue_action_locked(self, action_type: DeltaType, obj: Any) -> None:
        """Append a delta for ``obj``'s key, dedup and compress, and enqueue the key if new.

        Go: ``(*DeltaFIFO).queueActionLocked``
        https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/delta_fifo.go#L308-L344
        """
        id_ = self._key_of_or_raise(obj)
        # A Sync after a queued Deleted would resurrect the object: drop it.
        if action_type == SYNC and self._will_object_be_deleted_locked(id_):
            return
        new_deltas = Deltas((*self._items.get(id_, ()), Delta(action_type, obj)))
        new_deltas = _dedup_deltas(new_deltas)
        if self._delta_compressor is not None:
            new_deltas = Deltas(self._delta_compressor.compress(new_deltas))
        exists = id_ in self._items
        if len(new_deltas) > 0:
            if not exists:
                self._queue.append(id_)
            self._items[id_] = new_deltas
            self._cond.broadcast()
        elif exists:
            # The compressor dropped everything: forget the item; its key stays as a ghost.
            del self._items[id_]

    def list(self) -> list[Any]:
        """The newest object of every queued key. Go: ``(*DeltaFIFO).List``.
        Differs from Go: insertion order.
        """
        with self._lock:
            return self._list_locked()

    def _list_locked(self) -> list[Any]:
        """Go: ``(*DeltaFIFO).listLocked``."""
        return [item.newest().object for item in self._items.values()]  # type: ignore[union-attr]

    def list_keys(self) -> list[str]:
        """Every key with queued deltas. Go: ``(*DeltaFIFO).ListKeys``. Differs: insertion order."""
        with self._lock:
            return list(self._items.keys())

    def get(self, obj: Any) -> tuple[Deltas | None, bool]:
        """``(deltas, exists)`` for ``obj``'s key. Go: ``(*DeltaFIFO).Get``."""
        key = self._key_of_or_raise(obj)
        return self.get_by_key(key)

    def get_by_key(self, key: str) -> tuple[Deltas | None, bool]:
        """``(deltas, exists)``. Go: ``(*DeltaFIFO).GetByKey``."""
        with self._lock:
            if key in self._items:
                return self._items[key], True
            return None, False

    def pop(self, process: PopProcessFunc) -> Deltas:
        """Block until a key is queued, remove its Deltas, run ``process(deltas)`` under the
        lock, and return the Deltas.

        Go: ``(*DeltaFIFO).Pop``
        https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/delta_fifo.go#L414-L460

        Errors as ``FIFO.pop`` (``FIFOClosedError``, ``ProcessError``, ``sim.WouldBlockError``).
        """
        with self._lock:
            while True:
                while len(self._queue) == 0:
                    if self._closed:
                        raise FIFOClosedError()
                    self._cond.wait()
                id_ = self._queue.pop(0)
                item = self._items.get(id_)
                if self._initial_population_count > 0:
                    self._initial_population_count -= 1
                if item is None:
                    # A ghost: the compressor emptied this key after it was queued.
                    continue
                del self._items[id_]
                _run_process(process, item, lambda: self._add_if_not_present(id_, item))
                return item

    def replace(self, items: Iterable[Any], resource_version: str) -> None:
        """Queue a ``Sync`` for every listed object, then a tombstone deletion for every key
        that is gone.

        Go: ``(*DeltaFIFO).Replace``
        https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/delta_fifo.go#L462-L535

        Without known objects "gone" means "queued here but not listed"; with them, "known but
        not listed". Differs from Go: tombstones are queued in insertion / ``list_keys`` order
        (Go: random map order).
        """
        items = list(items)
        with self._lock:
            keys: set[str] = set()
            for item in items:
                key = self._key_of_or_raise(item)
                keys.add(key)
                try:
                    self._queue_action_locked(SYNC, item)
                except Exception as err:
                    raise RuntimeError(f"couldn't enqueue object: {err}") from err

            if self._known_objects is None:
                self._replace_detect_deletions_from_items(keys)
                if not self._populated:
                    self._populated = True
                    self._initial_population_count = len(items)
                return

            queued_deletions = self._replace_detect_deletions_from_known(keys)
            if not self._populated:
                self._populated = True
                self._initial_population_count = len(items) + queued_deletions

    def _replace_detect_deletions_from_items(self, keys: set[str]) -> None:
        """Tombstone every queued key that the relist did not return.

        Go: the ``knownObjects == nil`` branch of ``Replace``.
        Differs from Go: a helper; iterates a snapshot of the items (a compressor may remove
        entries while we go).
        """
        for k, old_item in list(self._items.items()):
            if k in keys:
                continue
            deleted_obj = None
            newest = old_item.newest()
            if newest is not None:
                deleted_obj = newest.object
            self._queue_action_locked(DELETED, DeletedFinalStateUnknown(k, deleted_obj))

    def _replace_detect_deletions_from_known(self, keys: set[str]) -> int:
        """Tombstone every known key that the relist did not return; returns how many.

        Go: the ``knownObjects`` branch of ``Replace``. Differs from Go: a helper.
        """
        assert self._known_objects is not None
        known_keys = self._known_objects.list_keys()
        queued_deletions = 0
        for k in known_keys:
            if k in keys:
                continue
            deleted_obj: Any = None
            try:
                deleted_obj, exists = self._known_objects.get_by_key(k)
            except Exception as err:
                deleted_obj = None
                glog.errorf(
                    "Unexpected error %v during lookup of key %v, placing "
                    "DeleteFinalStateUnknown marker without object", err, k,
                )
            else:
                if not exists:
                    deleted_obj = None
                    glog.infof(
                        "Key %v does not exist in known objects store, placing "
                        "DeleteFinalStateUnknown marker without object", k,
                    )
            queued_deletions += 1
            self._queue_action_locked(DELETED, DeletedFinalStateUnknown(k, deleted_obj))
        return queued_deletions

    def resync(self) -> None:
        """Queue a ``Sync`` for every known object that has nothing queued.

        Go: ``(*DeltaFIFO).Resync``
        https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/delta_fifo.go#L537-L549

        The lock is held for the whole loop, as Go's deferred unlock holds it: no Add, Update
        or Pop slips in between two keys. Without known objects Go calls ``ListKeys`` on a nil
        interface and panics: raised as ``NilPointerDereference`` (the lock is released on the
        way out, as Go's deferred unlock runs while panicking).
        """
        with self._lock:
            if self._known_objects is None:
                raise NilPointerDereference()
            keys = self._known_objects.list_keys()
            for k in keys:
                self._sync_key_locked(k)

    def _sync_key(self, key: str) -> None:
        """Go: ``(*DeltaFIFO).syncKey`` — ``syncKeyLocked`` under the lock."""
        with self._lock:
            self._sync_key_locked(key)

    def _sync_key_locked(self, key: str) -> None:
        """Queue ``Sync(known object)`` for ``key`` unless it already has deltas queued.

        Go: ``(*DeltaFIFO).syncKeyLocked``. Queuing it anyway would race: the known object may
        be older than the queued delta, since queued deltas are not yet applied to the store.
        """
        assert self._known_objects is not None
        try:
            obj, exists = self._known_objects.get_by_key(key)
        except PANICS:
            raise
        except Exception as err:
            glog.errorf(
                "Unexpected error %v during lookup of key %v, unable to queue object for sync",
                err, key,
            )
            return
        if not exists:
            glog.infof(
                "Key %v does not exist in known objects store, unable to queue object for sync",
                key,
            )
            return
        id_ = self._key_of_or_raise(obj)
        if len(self._items.get(id_, ())) > 0:
            return
        try:
            self._queue_action_locked(SYNC, obj)
        except Exception as err:
            raise RuntimeError(f"couldn't queue object: {err}") from err


def new_delta_fifo(
    key_func: KeyFunc,
    compressor: DeltaCompressor | None,
    known_objects: KeyListerGetter | None,
) -> DeltaFIFO:
    """Go: delta_fifo.go ``NewDeltaFIFO(keyFunc, compressor, knownObjects)``
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/delta_fifo.go#L29-L61
    """
    return DeltaFIFO(key_func, compressor, known_objects)

