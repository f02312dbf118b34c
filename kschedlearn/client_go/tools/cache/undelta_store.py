"""A Store that hands the whole current list to a push function after every change.

Go: staging/src/k8s.io/client-go/tools/cache/undelta_store.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/undelta_store.go#L19-L83

No 1.6 scheduler code uses it (the kubelet's config sources do); it is mirrored so the
tools/cache package is complete.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import attrs

from kschedlearn.client_go.tools.cache.store import Cache, KeyFunc, new_store


@attrs.define(eq=False)
class UndeltaStore:
    """A Store whose every Add, Update, Delete and Replace is followed by
    ``push_func(store.list())``; reads do not push.

    Go: type UndeltaStore struct { Store; PushFunc }
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/undelta_store.go#L19-L29
    Differs from Go: Go embeds the Store; here the reads are forwarded explicitly. As in Go, the
    store's lock is released between the change and the List, so two concurrent changes can
    push the same state twice — never an intermediate state that is skipped.
    """

    store: Cache
    push_func: Callable[[list[Any]], None]

    def add(self, obj: Any) -> None:
        """Go: UndeltaStore.Add — https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/undelta_store.go#L45-L51"""
        self.store.add(obj)
        self.push_func(self.store.list())

    def update(self, obj: Any) -> None:
        """Go: UndeltaStore.Update — https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/undelta_store.go#L53-L59"""
        self.store.update(obj)
        self.push_func(self.store.list())

    def delete(self, obj: Any) -> None:
        """Go: UndeltaStore.Delete — https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/undelta_store.go#L61-L67"""
        self.store.delete(obj)
        self.push_func(self.store.list())

    def replace(self, items: Iterable[Any], resource_version: str) -> None:
        """Go: UndeltaStore.Replace — https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/undelta_store.go#L69-L75"""
        self.store.replace(items, resource_version)
        self.push_func(self.store.list())

    # The embedded Store's other methods (Go promotes them): no push.
    def list(self) -> list[Any]:
        """Go: the embedded Store's List."""
        return self.store.list()

    def list_keys(self) -> list[str]:
        """Go: the embedded Store's ListKeys."""
        return self.store.list_keys()

    def get(self, obj: Any) -> tuple[Any, bool]:
        """Go: the embedded Store's Get."""
        return self.store.get(obj)

    def get_by_key(self, key: str) -> tuple[Any, bool]:
        """Go: the embedded Store's GetByKey."""
        return self.store.get_by_key(key)

    def resync(self) -> None:
        """Go: the embedded Store's Resync."""
        self.store.resync()


def new_undelta_store(push_func: Callable[[list[Any]], None], key_func: KeyFunc) -> UndeltaStore:
    """Go: NewUndeltaStore — https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/undelta_store.go#L77-L83"""
    return UndeltaStore(store=new_store(key_func), push_func=push_func)
