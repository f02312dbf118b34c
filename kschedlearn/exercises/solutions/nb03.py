"""Solutions for notebook 03: FIFO and DeltaFIFO.

Go: staging/src/k8s.io/client-go/tools/cache/fifo.go, delta_fifo.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/fifo.go
"""

from __future__ import annotations

from typing import Any

from kschedlearn.client_go.tools.cache.delta_fifo import DELETED, DeletedFinalStateUnknown, Deltas
from kschedlearn.client_go.tools.cache.fifo import FIFO, ErrRequeue, FIFOClosedError, ProcessError


def fifo_pop(f: FIFO, process: Any) -> Any:
    """Take the oldest live item out of the FIFO ``f``, call ``process(item)``, return the item.

    Go: (*FIFO).Pop, https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/fifo.go#L255-L293. The key line is ``f._queue`` (a list of keys), the
    items are ``f._items`` (key -> newest object). Skip keys whose item was deleted (ghosts);
    count down ``f._initial_population_count`` for every key taken off the line; when nothing
    is left, raise ``FIFOClosedError()`` if ``f._closed`` else wait with ``f._cond.wait()``. If
    ``process`` raises ``ErrRequeue``, put the item back with ``f._add_if_not_present(key, item)``.
    """
    with f._lock:
        while True:
            while len(f._queue) == 0:
                if f._closed:
                    raise FIFOClosedError()
                f._cond.wait()
            key = f._queue.pop(0)
            if f._initial_population_count > 0:
                f._initial_population_count -= 1
            if key not in f._items:
                continue  # a ghost: deleted after it was queued
            item = f._items.pop(key)
            try:
                process(item)
            except ErrRequeue as e:
                f._add_if_not_present(key, item)
                if e.err is not None:
                    raise ProcessError(item, e.err, requeued=True) from e.err
            return item


def dedup_deltas(deltas: Deltas) -> Deltas:
    """If the two newest deltas are both deletions, keep only the more informative one.

    Go: dedupDeltas / isDup / isDeletionDup, https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/delta_fifo.go#L262-L299. Of two ``DELETED``
    deltas keep the older one, unless the older one carries a ``DeletedFinalStateUnknown``
    tombstone - then keep the newer. Any other pair (and fewer than two deltas) is returned
    unchanged. Return a ``Deltas``.
    """
    n = len(deltas)
    if n < 2:
        return deltas
    newer, older = deltas[n - 1], deltas[n - 2]
    if newer.type != DELETED or older.type != DELETED:
        return deltas
    keep = newer if isinstance(older.object, DeletedFinalStateUnknown) else older
    return Deltas((*deltas[: n - 2], keep))
