"""ThreadSafeStore: the key -> object map with indices that backs every Store and Indexer.

Go: staging/src/k8s.io/client-go/tools/cache/thread_safe_store.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/thread_safe_store.go#L26-L288

Differs from Go: no lock. Go guards the map with a ``sync.RWMutex``; on kschedlearn's
cooperative runtime none of these methods can be interrupted (they never block), so the lock
would change nothing. Iteration follows insertion order (Go's map order is random), and index
sets are always read in sorted order so that a run never depends on Python's per-process
string hashing.
"""

from __future__ import annotations

from typing import Any, Protocol

import attrs

from kschedlearn.client_go.tools.cache.index import Index, Indexers, Indices


class ThreadSafeStore(Protocol):
    """The interface ``Cache`` delegates to, addressed by key instead of by object.

    Go: thread_safe_store.go ``type ThreadSafeStore interface``
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/thread_safe_store.go#L26-L54
    """

    def add(self, key: str, obj: Any) -> None: ...
    def update(self, key: str, obj: Any) -> None: ...
    def delete(self, key: str) -> None: ...
    def get(self, key: str) -> tuple[Any, bool]: ...
    def list(self) -> list[Any]: ...
    def list_keys(self) -> list[str]: ...
    def replace(self, items: dict[str, Any], resource_version: str) -> None: ...
    def index(self, index_name: str, obj: Any) -> list[Any]: ...
    def index_keys(self, index_name: str, index_key: str) -> list[str]: ...
    def list_index_func_values(self, index_name: str) -> list[str]: ...
    def by_index(self, index_name: str, index_key: str) -> list[Any]: ...
    def get_indexers(self) -> Indexers: ...
    def add_indexers(self, new_indexers: Indexers) -> None: ...
    def resync(self) -> None: ...


def _no_such_index(index_name: str) -> ValueError:
    return ValueError(f"Index with name {index_name} does not exist")


@attrs.define(eq=False)
class ThreadSafeMap:
    """A dict of objects plus, for each index function, value -> set of keys.

    Go: thread_safe_store.go ``type threadSafeMap struct`` (unexported)
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/thread_safe_store.go#L56-L65

    Differs from Go: exported as ``ThreadSafeMap``; no RW lock (see module docstring).
    """

    _items: dict[str, Any]
    _indexers: Indexers
    _indices: Indices

    def add(self, key: str, obj: Any) -> None:
        """Store ``obj`` under ``key`` and re-index it. Go: ``(*threadSafeMap).Add``."""
        old_object = self._items.get(key)
        self._items[key] = obj
        self._update_indices(old_object, obj, key)

    def update(self, key: str, obj: Any) -> None:
        """Identical to ``add``. Go: ``(*threadSafeMap).Update``."""
        old_object = self._items.get(key)
        self._items[key] = obj
        self._update_indices(old_object, obj, key)

    def delete(self, key: str) -> None:
        """Drop ``key`` and its index entries; no-op if absent. Go: ``(*threadSafeMap).Delete``."""
        if key in self._items:
            obj = self._items[key]
            self._delete_from_indices(obj, key)
            del self._items[key]

    def get(self, key: str) -> tuple[Any, bool]:
        """``(item, exists)``. Go: ``(*threadSafeMap).Get``."""
        if key in self._items:
            return self._items[key], True
        return None, False

    def list(self) -> list[Any]:
        """All objects. Go: ``(*threadSafeMap).List``. Differs from Go: insertion order."""
        return list(self._items.values())

    def list_keys(self) -> list[str]:
        """All keys. Go: ``(*threadSafeMap).ListKeys``. Differs from Go: insertion order."""
        return list(self._items.keys())

    def replace(self, items: dict[str, Any], resource_version: str) -> None:
        """Take ``items`` as the new content and rebuild every index from scratch.

        Go: ``(*threadSafeMap).Replace`` (``resource_version`` is unused, as in Go).
        """
        self._items = items
        self._indices = {}
        for key, item in self._items.items():
            self._update_indices(None, item, key)

    def index(self, index_name: str, obj: Any) -> list[Any]:
        """Objects that share at least one value of index ``index_name`` with ``obj``.

        Go: ``(*threadSafeMap).Index``. Differs from Go: the result is ordered by key
        (Go returns it in map order).
        """
        index_func = self._indexers.get(index_name)
        if index_func is None:
            raise _no_such_index(index_name)
        index_keys = index_func(obj)
        index = self._indices.get(index_name, {})
        # Several index values can name the same object: collect keys as a set first.
        return_key_set: set[str] = set()
        for index_key in index_keys:
            return_key_set.update(index.get(index_key, ()))
        return [self._items[key] for key in sorted(return_key_set)]

    def by_index(self, index_name: str, index_key: str) -> list[Any]:
        """Objects whose index ``index_name`` produced ``index_key``, ordered by key.

        Go: ``(*threadSafeMap).ByIndex`` (Go also sorts, via ``sets.String.List``).
        """
        if index_name not in self._indexers:
            raise _no_such_index(index_name)
        index = self._indices.get(index_name, {})
        keys = index.get(index_key, set())
        return [self._items[key] for key in sorted(keys)]

    def index_keys(self, index_name: str, index_key: str) -> list[str]:
        """Sorted keys stored under ``index_key``. Go: ``(*threadSafeMap).IndexKeys``."""
        if index_name not in self._indexers:
            raise _no_such_index(index_name)
        index = self._indices.get(index_name, {})
        return sorted(index.get(index_key, set()))

    def list_index_func_values(self, index_name: str) -> list[str]:
        """Every value index ``index_name`` has seen, including values whose key set is now
        empty (Go never prunes them). Go: ``(*threadSafeMap).ListIndexFuncValues``.
        """
        index = self._indices.get(index_name, {})
        return list(index.keys())

    def get_indexers(self) -> Indexers:
        """Go: ``(*threadSafeMap).GetIndexers``. Differs from Go: returns a copy."""
        return dict(self._indexers)

    def add_indexers(self, new_indexers: Indexers) -> None:
        """Register more index functions; only allowed while the store is empty.

        Go: ``(*threadSafeMap).AddIndexers``. Raises ``ValueError("cannot add indexers to
        running index")`` or ``ValueError("indexer conflict: map[name:{}]")``.
        """
        if len(self._items) > 0:
            raise ValueError("cannot add indexers to running index")
        conflict = sorted(set(self._indexers) & set(new_indexers))
        if conflict:
            # Go formats the conflicting sets.String with %v, i.e. as a Go map.
            shown = " ".join(f"{name}:{{}}" for name in conflict)
            raise ValueError(f"indexer conflict: map[{shown}]")
        self._indexers.update(new_indexers)

    def _update_indices(self, old_obj: Any, new_obj: Any, key: str) -> None:
        """Move ``key`` from ``old_obj``'s index values to ``new_obj``'s.

        Go: ``(*threadSafeMap).updateIndices``. Differs from Go: an index function that fails
        raises (naming the key and the index); Go returns the error and every caller drops it.
        """
        # An update must first forget where the previous version was indexed.
        if old_obj is not None:
            self._delete_from_indices(old_obj, key)
        for name, index_func in self._indexers.items():
            index_values = _apply_index_func(index_func, new_obj, key, name)
            index: Index = self._indices.setdefault(name, {})
            for index_value in index_values:
                index.setdefault(index_value, set()).add(key)

    def _delete_from_indices(self, obj: Any, key: str) -> None:
        """Remove ``key`` from the sets of ``obj``'s index values, leaving empty sets in place.

        Go: ``(*threadSafeMap).deleteFromIndices``.
        """
        for name, index_func in self._indexers.items():
            index_values = _apply_index_func(index_func, obj, key, name)
            index = self._indices.get(name)
            if index is None:
                continue
            for index_value in index_values:
                keys = index.get(index_value)
                if keys is not None:
                    keys.discard(key)

    def resync(self) -> None:
        """No-op. Go: ``(*threadSafeMap).Resync``."""


def _apply_index_func(index_func: Any, obj: Any, key: str, name: str) -> list[str]:
    """Run an index function, naming the key and the index if it fails.

    Go: the ``indexFunc(obj)`` calls inside updateIndices/deleteFromIndices.
    """
    try:
        return index_func(obj)
    except Exception as err:
        raise ValueError(
            f"unable to calculate an index entry for key {key!r} on index {name!r}: {err}"
        ) from err


def new_thread_safe_store(indexers: Indexers, indices: Indices) -> ThreadSafeMap:
    """Go: thread_safe_store.go ``NewThreadSafeStore``
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/thread_safe_store.go#L282-L288
    """
    return ThreadSafeMap({}, indexers, indices)
