"""Store: a keyed object cache, and the key functions every cache and queue uses.

Go: staging/src/k8s.io/client-go/tools/cache/store.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/store.go#L26-L240

A ``Store`` maps a string key (usually ``namespace/name``) to the newest version of an object.
The informers keep their local copy of the cluster in one; the scheduler's listers read it.

Differs from Go: Go's ``(T, error)`` results become ``T`` plus a raised exception; ``get`` and
``get_by_key`` return ``(item, exists)`` like Go minus the (always nil) error.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any, Protocol

import attrs

from kschedlearn.client_go.tools.cache.index import Indexers, IndexFunc
from kschedlearn.client_go.tools.cache.thread_safe_store import (
    ThreadSafeStore,
    new_thread_safe_store,
)

KeyFunc = Callable[[Any], str]
"""Go: ``type KeyFunc func(obj interface{}) (string, error)`` - raises instead of returning an error."""

_GO_URL = "https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/"


class Store(Protocol):
    """The storage interface shared by caches and queues.

    Go: store.go ``type Store interface``
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/store.go#L26-L48
    """

    def add(self, obj: Any) -> None: ...
    def update(self, obj: Any) -> None: ...
    def delete(self, obj: Any) -> None: ...
    def list(self) -> list[Any]: ...
    def list_keys(self) -> list[str]: ...
    def get(self, obj: Any) -> tuple[Any, bool]: ...
    def get_by_key(self, key: str) -> tuple[Any, bool]: ...
    def replace(self, items: Iterable[Any], resource_version: str) -> None: ...
    def resync(self) -> None: ...


class KeyFuncError(Exception):
    """A key function failed for ``obj``.

    Go: store.go ``type KeyError struct{Obj, Err}``, message ``couldn't create key for object %+v: %v``
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/store.go#L53-L58

    Differs from Go: named ``KeyFuncError`` so it does not shadow Python's builtin ``KeyError``;
    the object is shown with ``repr`` where Go uses ``%+v``.
    """

    def __init__(self, obj: Any, err: BaseException) -> None:
        super().__init__(obj, err)
        self.obj = obj
        self.err = err

    def __str__(self) -> str:
        return f"couldn't create key for object {self.obj!r}: {self.err}"


class ExplicitKey(str):
    """A string that *is* its own key: ``meta_namespace_key_func`` returns it unchanged.

    Go: store.go ``type ExplicitKey string``
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/store.go#L65-L67
    """

    __slots__ = ()


def meta_namespace_key_func(obj: Any) -> str:
    """Return ``namespace/name`` for a namespaced object, ``name`` for a cluster-scoped one.

    Go: store.go ``MetaNamespaceKeyFunc``
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/store.go#L69-L88

    Raises ``ValueError("object has no meta: ...")`` for an object without ``.metadata``.
    Differs from Go: "has meta" means "has a ``metadata`` attribute with ``namespace`` and
    ``name``" (Go asks ``meta.Accessor`` whether the type implements ``metav1.Object``).
    """
    if isinstance(obj, ExplicitKey):
        return str(obj)
    meta = getattr(obj, "metadata", None)
    if meta is None or not hasattr(meta, "name") or not hasattr(meta, "namespace"):
        raise ValueError(
            f"object has no meta: {type(obj).__name__} does not have "
            "metadata.namespace and metadata.name"
        )
    if len(meta.namespace) > 0:
        return meta.namespace + "/" + meta.name
    return meta.name


def split_meta_namespace_key(key: str) -> tuple[str, str]:
    """Split a ``meta_namespace_key_func`` key into ``(namespace, name)``.

    Go: store.go ``SplitMetaNamespaceKey``
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/store.go#L90-L107

    Raises ``ValueError('unexpected key format: "a/b/c"')`` for more than two parts.
    Differs from Go: the key is quoted with JSON string rules, which equal Go's ``%q`` for
    printable text.
    """
    parts = key.split("/")
    if len(parts) == 1:
        # A cluster-scoped object: the key is just its name.
        return "", parts[0]
    if len(parts) == 2:
        return parts[0], parts[1]
    raise ValueError(f"unexpected key format: {json.dumps(key, ensure_ascii=False)}")


def _key_for(key_func: KeyFunc, obj: Any) -> str:
    """Apply ``key_func``, wrapping any failure in ``KeyFuncError`` as Go wraps it in ``KeyError``.

    Go: the repeated ``key, err := c.keyFunc(obj); if err != nil { return KeyError{obj, err} }``
    of store.go, fifo.go and delta_fifo.go.
    Differs from Go: a helper instead of the inlined three lines.
    """
    try:
        return key_func(obj)
    except Exception as err:  # any failure of a user key func is a key error, as in Go
        raise KeyFuncError(obj, err) from err


@attrs.define(eq=False)
class Cache:
    """A ``Store``/``Indexer`` that computes keys with ``key_func`` and keeps objects in a
    ``ThreadSafeStore``.

    Go: store.go ``type cache struct`` (unexported; built by ``NewStore``/``NewIndexer``)
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/store.go#L109-L118

    Differs from Go: the Go type is the unexported ``cache``; Python exports it as ``Cache``
    so a learner can find it by name.
    """

    _cache_storage: ThreadSafeStore
    _key_func: KeyFunc

    def add(self, obj: Any) -> None:
        """Insert or overwrite ``obj`` under its key. Go: ``(*cache).Add``."""
        key = _key_for(self._key_func, obj)
        self._cache_storage.add(key, obj)

    def update(self, obj: Any) -> None:
        """Same as ``add``. Go: ``(*cache).Update``."""
        key = _key_for(self._key_func, obj)
        self._cache_storage.update(key, obj)

    def delete(self, obj: Any) -> None:
        """Remove the object with ``obj``'s key (no-op if absent). Go: ``(*cache).Delete``."""
        key = _key_for(self._key_func, obj)
        self._cache_storage.delete(key)

    def list(self) -> list[Any]:
        """All stored objects. Go: ``(*cache).List``.

        Differs from Go: insertion order (Go's map order is random).
        """
        return self._cache_storage.list()

    def list_keys(self) -> list[str]:
        """All keys. Go: ``(*cache).ListKeys``. Differs from Go: insertion order."""
        return self._cache_storage.list_keys()

    def get_indexers(self) -> Indexers:
        """The index functions by name. Go: ``(*cache).GetIndexers``."""
        return self._cache_storage.get_indexers()

    def index(self, index_name: str, obj: Any) -> list[Any]:
        """Objects sharing any index value with ``obj``. Go: ``(*cache).Index``."""
        return self._cache_storage.index(index_name, obj)

    def index_keys(self, index_name: str, index_key: str) -> list[str]:
        """Sorted keys stored under ``index_key``. Go: ``(*cache).IndexKeys``."""
        return self._cache_storage.index_keys(index_name, index_key)

    def list_index_func_values(self, index_name: str) -> list[str]:
        """All values the index has seen. Go: ``(*cache).ListIndexFuncValues``."""
        return self._cache_storage.list_index_func_values(index_name)

    def by_index(self, index_name: str, index_key: str) -> list[Any]:
        """Objects stored under ``index_key`` (sorted by key). Go: ``(*cache).ByIndex``."""
        return self._cache_storage.by_index(index_name, index_key)

    def add_indexers(self, new_indexers: Indexers) -> None:
        """Add index functions before any item is stored. Go: ``(*cache).AddIndexers``."""
        self._cache_storage.add_indexers(new_indexers)

    def get(self, obj: Any) -> tuple[Any, bool]:
        """``(item, exists)`` for ``obj``'s key. Go: ``(*cache).Get``."""
        key = _key_for(self._key_func, obj)
        return self.get_by_key(key)

    def get_by_key(self, key: str) -> tuple[Any, bool]:
        """``(item, exists)`` for ``key``. Go: ``(*cache).GetByKey``."""
        return self._cache_storage.get(key)

    def replace(self, items: Iterable[Any], resource_version: str) -> None:
        """Swap the whole content for ``items`` (``resource_version`` is ignored).

        Go: ``(*cache).Replace``. A key error aborts before anything changes.
        """
        keyed: dict[str, Any] = {}
        for item in items:
            key = _key_for(self._key_func, item)
            keyed[key] = item
        self._cache_storage.replace(keyed, resource_version)

    def resync(self) -> None:
        """No-op: a plain store has nothing to resync. Go: ``(*cache).Resync``."""
        self._cache_storage.resync()


def new_store(key_func: KeyFunc) -> Cache:
    """A Store without indices. Go: store.go ``NewStore``
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/store.go#L226-L232
    """
    return Cache(new_thread_safe_store({}, {}), key_func)


def new_indexer(key_func: KeyFunc, indexers: dict[str, IndexFunc]) -> Cache:
    """A Store with the given index functions. Go: store.go ``NewIndexer``
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/store.go#L234-L240
    """
    return Cache(new_thread_safe_store(dict(indexers), {}), key_func)
