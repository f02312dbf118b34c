"""Indexer: a Store that can also look objects up by secondary index values.

Go: staging/src/k8s.io/client-go/tools/cache/index.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/index.go#L26-L85

An index function maps an object to a list of index values (``meta_namespace_index_func``
maps a pod to ``[namespace]``); the indexer keeps, per index name, a map from each value to
the set of object keys that produced it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

IndexFunc = Callable[[Any], list[str]]
"""Go: ``type IndexFunc func(obj interface{}) ([]string, error)`` - raises instead of an error."""

Index = dict[str, set[str]]
"""Go: ``type Index map[string]sets.String`` - index value -> keys of the objects having it."""

Indexers = dict[str, IndexFunc]
"""Go: ``type Indexers map[string]IndexFunc`` - index name -> index function."""

Indices = dict[str, Index]
"""Go: ``type Indices map[string]Index`` - index name -> index."""

NAMESPACE_INDEX = "namespace"
"""Go: index.go ``const NamespaceIndex string = "namespace"``."""


class Indexer(Protocol):
    """A Store with secondary indices.

    Go: index.go ``type Indexer interface``
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/index.go#L26-L41

    Differs from Go: the Store methods are not repeated here (Python protocols do not embed);
    every Indexer in this package is also a ``store.Store``.
    """

    def index(self, index_name: str, obj: Any) -> list[Any]: ...
    def index_keys(self, index_name: str, index_key: str) -> list[str]: ...
    def list_index_func_values(self, index_name: str) -> list[str]: ...
    def by_index(self, index_name: str, index_key: str) -> list[Any]: ...
    def get_indexers(self) -> Indexers: ...
    def add_indexers(self, new_indexers: Indexers) -> None: ...


def index_func_to_key_func_adapter(index_func: IndexFunc) -> Callable[[Any], str]:
    """Turn an index function that yields exactly one value into a key function.

    Go: index.go ``IndexFuncToKeyFuncAdapter``
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/index.go#L46-L63

    The key function raises ``ValueError("too many keys: [a b]")`` or
    ``ValueError("unexpected empty indexKeys")``.
    """

    def key_func(obj: Any) -> str:
        index_keys = index_func(obj)
        if len(index_keys) > 1:
            # Go prints a []string with %v: space-separated inside brackets.
            raise ValueError(f"too many keys: [{' '.join(index_keys)}]")
        if len(index_keys) == 0:
            raise ValueError("unexpected empty indexKeys")
        return index_keys[0]

    return key_func


def meta_namespace_index_func(obj: Any) -> list[str]:
    """Index an object by its namespace: returns ``[obj.metadata.namespace]``.

    Go: index.go ``MetaNamespaceIndexFunc``
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/index.go#L69-L76

    Differs from Go: Go returns ``[""]`` together with the "object has no meta" error; Python
    can only raise, so the ``[""]`` is lost.
    """
    meta = getattr(obj, "metadata", None)
    if meta is None or not hasattr(meta, "namespace"):
        raise ValueError(
            f"object has no meta: {type(obj).__name__} does not have metadata.namespace"
        )
    return [meta.namespace]
