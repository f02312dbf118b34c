"""FIFO: a queue of object keys where each key is processed once, with its newest version.

Go: staging/src/k8s.io/client-go/tools/cache/fifo.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/fifo.go#L26-L358

The v1.6.1 scheduler's pending-pod queue (``podQueue``) is a FIFO: the unassigned-pod reflector
adds, updates and deletes pods, ``scheduleOne`` pops them. Adding a key that is already queued
keeps its place in line and only replaces the stored object; deleting removes the object but
leaves a "ghost" key in the line that ``pop`` skips. 1.6 quirk: if the key is added again before
the ghost reaches the head, the key is appended a second time, yet the *first* (older) copy finds
the new object - the re-added item pops at its old place and the later copy is the ghost.

Differs from Go: Go guards ``closed`` with a second mutex (``closedLock``); on the cooperative
runtime nothing can interleave with the check, so one lock suffices. Go's ``sync.RWMutex`` is a
``sim.Mutex`` (readers take it exclusively - nothing observable changes). Map iteration is
insertion order, not Go's random order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Protocol

import attrs

from kschedlearn import sim
from kschedlearn.apimachinery.util.runtime import PANICS
from kschedlearn.client_go.tools.cache.store import KeyFunc, _key_for

PopProcessFunc = Callable[[Any], None]
"""Go: ``type PopProcessFunc func(interface{}) error`` - returns normally or raises
(``ErrRequeue`` to put the item back)."""

_CLOSED_MESSAGE = "DeltaFIFO: manipulating with closed queue"


class FIFOClosedError(Exception):
    """``pop`` on a closed, empty queue. Its text is Go's, ``DeltaFIFO`` prefix included.

    Go: fifo.go ``var FIFOClosedError error`` (used by FIFO and DeltaFIFO alike)
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/fifo.go#L37-L37

    Differs from Go: an exception class instead of a sentinel error value; ``except
    FIFOClosedError`` plays the role of ``err == FIFOClosedError``.
    """

    def __init__(self, message: str = _CLOSED_MESSAGE) -> None:
        super().__init__(message)


class ErrRequeue(Exception):
    """Raised by a process function to put the popped item back (``err`` may be ``None``).

    Go: fifo.go ``type ErrRequeue struct{ Err error }`` and its ``Error()``
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/fifo.go#L30-L35
    """

    def __init__(self, err: BaseException | None = None) -> None:
        super().__init__(err)
        self.err = err

    def __str__(self) -> str:
        if self.err is None:
            return "the popped item should be requeued without returning an error"
        return str(self.err)


class ProcessError(Exception):
    """``pop`` took ``item`` out of the queue but its process function failed with ``err``.

    Go: none - Go's ``Pop`` returns ``(item, err)`` together; Python raises this to hand the
    caller both. ``requeued`` is True when the failure was an ``ErrRequeue`` (the item is back
    in the queue, ``err`` is the ``ErrRequeue``'s inner error). ``str()`` is ``err``'s text, as
    Go's caller would print it.

    Differs from Go: kschedlearn-only. A popped item is never lost silently: ``ErrRequeue``
    puts it back, any other exception surfaces here with the item attached.
    """

    def __init__(self, item: Any, err: BaseException, *, requeued: bool) -> None:
        super().__init__(item, err)
        self.item = item
        self.err = err
        self.requeued = requeued

    def __str__(self) -> str:
        return str(self.err)


class Queue(Protocol):
    """A Store with ``pop``.

    Go: fifo.go ``type Queue interface``
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/fifo.go#L46-L67

    Differs from Go: the Store methods (``store.Store``) are not repeated here.
    """

    def pop(self, process: PopProcessFunc) -> Any: ...
    def add_if_not_present(self, obj: Any) -> None: ...
    def has_synced(self) -> bool: ...
    def close(self) -> None: ...


def pop(queue: Queue) -> Any:
    """Pop one item with a process function that just captures it (test helper).

    Go: fifo.go ``func Pop(queue Queue) interface{}``
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/fifo.go#L69-L79

    Like Go, the error is ignored: a closed queue yields ``None``.
    """
    result: list[Any] = [None]

    def capture(obj: Any) -> None:
        result[0] = obj

    try:
        queue.pop(capture)
    except FIFOClosedError:
        pass  # Go's Pop discards the error and returns nil
    return result[0]


@attrs.define(eq=False, slots=False)
class FIFO:
    """The producer/consumer queue described in the module docstring.

    Go: fifo.go ``type FIFO struct``
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/fifo.go#L81-L115

    ``_items`` (key -> newest object) and ``_queue`` (keys in line) are Go's ``items`` and
    ``queue``. Build one with ``new_fifo(key_func)``.
    """

    _key_func: KeyFunc
    _lock: sim.Mutex = attrs.field(init=False, factory=sim.Mutex)
    _cond: sim.Cond = attrs.field(init=False)
    _items: dict[str, Any] = attrs.field(init=False, factory=dict)
    _queue: list[str] = attrs.field(init=False, factory=list)
    _populated: bool = attrs.field(init=False, default=False)
    _initial_population_count: int = attrs.field(init=False, default=0)
    _closed: bool = attrs.field(init=False, default=False)

    @_cond.default
    def _cond_default(self) -> sim.Cond:
        # Go: f.cond.L = &f.lock - waiters release the queue lock while they sleep.
        return sim.Cond(self._lock)

    def close(self) -> None:
        """Mark the queue closed and wake every blocked ``pop``. Go: ``(*FIFO).Close``."""
        with self._lock:
            self._closed = True
            self._cond.broadcast()

    def has_synced(self) -> bool:
        """True once a first Add/Update/Delete happened, or every item of the first
        ``replace`` has been popped. Go: ``(*FIFO).HasSynced``.
        """
        with self._lock:
            return self._populated and self._initial_population_count == 0

    def add(self, obj: Any) -> None:
        """Store ``obj``; append its key to the line only if the key has no item yet.

        Go: ``(*FIFO).Add``.
        """
        id_ = _key_for(self._key_func, obj)
        with self._lock:
            self._populated = True
            if id_ not in self._items:
                self._queue.append(id_)
            self._items[id_] = obj
            self._cond.broadcast()

    def add_if_not_present(self, obj: Any) -> None:
        """Store and enqueue ``obj`` only if its key has no item (a consumer's safe retry).

        Go: ``(*FIFO).AddIfNotPresent``.
        """
        id_ = _key_for(self._key_func, obj)
        with self._lock:
            self._add_if_not_present(id_, obj)

    def _add_if_not_present(self, id_: str, obj: Any) -> None:
        """Lock held. Go: ``(*FIFO).addIfNotPresent``."""
        self._populated = True
        if id_ in self._items:
            return
        self._queue.append(id_)
        self._items[id_] = obj
        self._cond.broadcast()

    def update(self, obj: Any) -> None:
        """Same as ``add``. Go: ``(*FIFO).Update``.

        https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/fifo.go#L185-L188
        """
        self.add(obj)

    def delete(self, obj: Any) -> None:
        """Forget the item; its key stays in the line as a ghost that ``pop`` skips (see the
        module docstring for what a later re-add does with it).

        Go: ``(*FIFO).Delete``.
        """
        id_ = _key_for(self._key_func, obj)
        with self._lock:
            self._populated = True
            self._items.pop(id_, None)

    def list(self) -> list[Any]:
        """Every stored object. Go: ``(*FIFO).List``. Differs from Go: insertion order."""
        with self._lock:
            return list(self._items.values())

    def list_keys(self) -> list[str]:
        """Every key with an item. Go: ``(*FIFO).ListKeys``. Differs from Go: insertion order."""
        with self._lock:
            return list(self._items.keys())

    def get(self, obj: Any) -> tuple[Any, bool]:
        """``(item, exists)`` for ``obj``'s key. Go: ``(*FIFO).Get``."""
        key = _key_for(self._key_func, obj)
        return self.get_by_key(key)

    def get_by_key(self, key: str) -> tuple[Any, bool]:
        """``(item, exists)``. Go: ``(*FIFO).GetByKey``."""
        with self._lock:
            if key in self._items:
                return self._items[key], True
            return None, False

    def pop(self, process: PopProcessFunc) -> Any:
        """Block until an item is queued, remove it, run ``process(item)`` under the lock,
        and return the item.

        Go: ``(*FIFO).Pop``
        https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/fifo.go#L255-L293

        Raises ``FIFOClosedError`` if the queue is empty and closed; ``sim.WouldBlockError`` if
        it is empty and the caller is not a goroutine. If ``process`` raises ``ErrRequeue`` the
        item is put back (unless its key was re-added meanwhile) and, when the ErrRequeue
        carries an error, ``ProcessError(requeued=True)`` is raised; any other exception
        becomes ``ProcessError(requeued=False)``.

        Differs from Go: Go returns ``(item, err)``; Python returns the item or raises
        ``ProcessError`` carrying both.
        """
        with self._lock:
            while True:
                while len(self._queue) == 0:
                    # Close() broadcasts, so a waiting popper re-checks and leaves here.
                    if self._closed:
                        raise FIFOClosedError()
                    self._cond.wait()
                id_ = self._queue.pop(0)
                if self._initial_population_count > 0:
                    self._initial_population_count -= 1
                if id_ not in self._items:
                    # A ghost: the item was deleted after its key was queued.
                    continue
                item = self._items.pop(id_)
                _run_process(process, item, lambda: self._add_if_not_present(id_, item))
                return item

    def replace(self, items: Iterable[Any], resource_version: str) -> None:
        """Make ``items`` the whole content and reset the line to their keys.

        Go: ``(*FIFO).Replace``. Pending keys not in ``items`` are dropped; the first call
        ever records how many items must be popped before ``has_synced``.
        Differs from Go: the new line follows the order of ``items`` (Go: random map order).
        """
        keyed: dict[str, Any] = {}
        for item in items:
            key = _key_for(self._key_func, item)
            keyed[key] = item
        with self._lock:
            if not self._populated:
                self._populated = True
                self._initial_population_count = len(keyed)
            self._items = keyed
            self._queue.clear()
            self._queue.extend(keyed.keys())
            if len(self._queue) > 0:
                self._cond.broadcast()

    def resync(self) -> None:
        """Append to the line every item key that is not already in it. Go: ``(*FIFO).Resync``."""
        with self._lock:
            in_queue = set(self._queue)
            for id_ in self._items:
                if id_ not in in_queue:
                    self._queue.append(id_)
            if len(self._queue) > 0:
                self._cond.broadcast()


def _run_process(process: PopProcessFunc, item: Any, requeue: Callable[[], None]) -> None:
    """Call ``process(item)`` and turn its failure into Go's Pop result.

    Go: the tail of ``Pop`` in fifo.go and delta_fifo.go (``err := process(item); if e, ok :=
    err.(ErrRequeue); ok { f.addIfNotPresent(id, item); err = e.Err }``).
    Differs from Go: shared by FIFO and DeltaFIFO; errors are raised (see ``ProcessError``).
    ``sim.WouldBlockError``, a Go panic (``runtime.PANICS``) and ``BaseException``s (goroutine
    kill, ``glog.fatalf``) pass through unwrapped, as a Go panic passes through ``Pop``.
    """
    try:
        process(item)
    except ErrRequeue as e:
        requeue()
        if e.err is not None:
            raise ProcessError(item, e.err, requeued=True) from e.err
    except sim.WouldBlockError:
        raise  # the runtime telling the caller it cannot block here: not the item's fault
    except PANICS:
        raise  # a Go panic in process passes through Pop: it is no returned error
    except Exception as err:  # anything else: the item is handed back to the caller
        raise ProcessError(item, err, requeued=False) from err


def new_fifo(key_func: KeyFunc) -> FIFO:
    """Go: fifo.go ``NewFIFO``
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/fifo.go#L348-L358
    """
    return FIFO(key_func)
