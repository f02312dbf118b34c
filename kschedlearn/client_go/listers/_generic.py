"""The shape every generated lister shares: ``list(selector)``, ``<kind>s(ns).list/get``.

Go: the generated files ``pkg/client/listers/<group>/<version>/<kind>.go`` (e.g. pod.go)
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/client/listers/core/v1/pod.go#L29-L95

Differs from Go: Go generates one near-identical file per kind; here two small classes are
parametrised by the resource name used in NotFound errors (``pod "x" not found``).
"""

from __future__ import annotations

from typing import Any

import attrs

from kschedlearn.apimachinery.api import errors as apierrors
from kschedlearn.client_go.tools.cache.listers import list_all, list_all_by_namespace


@attrs.define(eq=False)
class NamespaceLister:
    """Objects of one kind in one namespace. Go: e.g. ``podNamespaceLister``."""

    indexer: Any
    namespace: str
    resource: str  # singular, as in Go's v1.Resource("pod")
    group: str = ""

    def list(self, selector: Any) -> list[Any]:
        """Go: ``List(selector)`` via ``cache.ListAllByNamespace``."""
        ret: list[Any] = []
        list_all_by_namespace(self.indexer, self.namespace, selector, ret.append)
        return ret

    def get(self, name: str) -> Any:
        """Go: ``Get(name)``; raises NotFound (``pod "x" not found``) if absent."""
        obj, exists = self.indexer.get_by_key(f"{self.namespace}/{name}")
        if not exists:
            raise apierrors.new_not_found(apierrors.GroupResource(self.group, self.resource), name)
        return obj


@attrs.define(eq=False)
class Lister:
    """All objects of one kind. Go: e.g. ``podLister`` (``List`` + ``Pods(namespace)``)."""

    indexer: Any
    resource: str
    group: str = ""
    namespaced: bool = True

    def list(self, selector: Any) -> list[Any]:
        """Go: ``List(selector)`` via ``cache.ListAll``."""
        ret: list[Any] = []
        list_all(self.indexer, selector, ret.append)
        return ret

    def namespace_lister(self, namespace: str) -> NamespaceLister:
        return NamespaceLister(self.indexer, namespace, self.resource, self.group)

    def get(self, name: str) -> Any:
        """Cluster-scoped kinds only: Go's ``Get(name)`` = GetByKey(name)."""
        obj, exists = self.indexer.get_by_key(name)
        if not exists:
            raise apierrors.new_not_found(apierrors.GroupResource(self.group, self.resource), name)
        return obj
