"""Generic listing helpers over a store or indexer, used by every generated lister.

Go: staging/src/k8s.io/client-go/tools/cache/listers.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/listers.go#L30-L160

Differs from Go: only ``ListAll``, ``ListAllByNamespace`` and the generic lister are mirrored;
the legacy ``StoreTo*Lister`` types that v1.6.1 still ships are replaced by the generated
listers of ``kschedlearn.client_go.listers`` (which is what the 1.6 scheduler uses).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from kschedlearn.client_go.tools.cache.index import NAMESPACE_INDEX
from kschedlearn.trace import glog

AppendFunc = Callable[[Any], None]
"""Go: listers.go ``type AppendFunc func(interface{})``."""

NAMESPACE_ALL = ""
"""Go: metav1.NamespaceAll."""


@attrs.frozen
class _NamespaceProbe:
    """A bare object with only a namespace, fed to the namespace index function (Go passes
    ``&metav1.ObjectMeta{Namespace: namespace}``)."""

    metadata: Any


@attrs.frozen
class _Meta:
    namespace: str
    name: str = ""


def _labels_of(obj: Any) -> Any:
    try:
        return obj.metadata.labels
    except AttributeError as err:
        raise TypeError(f"object has no meta: {obj!r}") from err


def list_all(store: Any, selector: Any, append_fn: AppendFunc) -> None:
    """Append every stored object whose labels match ``selector``.

    Go: listers.go ``ListAll``
    """
    for m in store.list():
        if selector.matches(_labels_of(m)):
            append_fn(m)


def list_all_by_namespace(indexer: Any, namespace: str, selector: Any,
                          append_fn: AppendFunc) -> None:
    """Like ``list_all`` but only in ``namespace`` (all namespaces for ``""``), via the
    namespace index when there is one.

    Go: listers.go ``ListAllByNamespace``
    """
    if namespace == NAMESPACE_ALL:
        for m in indexer.list():
            if selector.matches(_labels_of(m)):
                append_fn(m)
        return
    try:
        items = indexer.index(NAMESPACE_INDEX, _NamespaceProbe(_Meta(namespace)))
    except Exception as err:  # noqa: BLE001 - Go falls back to a full scan
        glog.warningf("can not retrieve list of objects using index : %v", err)
        for m in indexer.list():
            if m.metadata.namespace == namespace and selector.matches(_labels_of(m)):
                append_fn(m)
        return
    for m in items:
        if selector.matches(_labels_of(m)):
            append_fn(m)


__all__ = ["AppendFunc", "NAMESPACE_ALL", "list_all", "list_all_by_namespace"]
