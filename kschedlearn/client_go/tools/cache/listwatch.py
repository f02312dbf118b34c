"""ListWatch: the pair of calls (list everything, then watch for changes) a Reflector makes.

Go: staging/src/k8s.io/client-go/tools/cache/listwatch.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/listwatch.go#L30-L96

A ``ListerWatcher`` hides where the objects come from: the embedded API server's clientset in a
simulation, or a fake in tests. The reflector only ever calls ``list(options)`` and
``watch(options)``.

Differs from Go: Go's ``NewListWatchFromClient`` builds raw REST requests with a
``cache.Getter`` (a RESTClient); here it calls the typed clientset (``core_v1().pods(ns)``,
...) that the embedded API server offers, passing the same options as keyword arguments.
``ListOptions`` mirrors ``metav1.ListOptions`` with only the fields the reflector uses.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

import attrs


@attrs.frozen(kw_only=True)
class ListOptions:
    """The query of a list or watch call.

    Go: metav1.ListOptions (LabelSelector, FieldSelector, Watch, ResourceVersion,
    TimeoutSeconds)
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/types.go#L269-L296

    ``resource_version="0"`` asks for whatever the server has cached (the reflector's list);
    a watch starts *after* ``resource_version``. ``timeout_seconds`` ends a watch server-side.
    """

    label_selector: str = ""
    field_selector: str = ""
    watch: bool = False
    resource_version: str = ""
    timeout_seconds: int | None = None


class WatchInterface(Protocol):
    """What a watch call returns: a channel of events and a way to stop.

    Go: k8s.io/apimachinery/pkg/watch ``Interface`` (``Stop()``, ``ResultChan()``). Each event
    has ``type`` (``ADDED``, ``MODIFIED``, ``DELETED``, ``ERROR``) and ``object``.
    """

    def stop(self) -> None: ...
    def result_chan(self) -> Any: ...


class ListerWatcher(Protocol):
    """Anything that can list and watch one kind of object.

    Go: listwatch.go ``type ListerWatcher interface``
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/listwatch.go#L30-L37

    ``list`` returns an object with ``items`` and ``metadata.resource_version`` (a ``PodList``
    and friends); both calls raise on error (Go's ``(T, error)``).
    """

    def list(self, options: ListOptions) -> Any: ...
    def watch(self, options: ListOptions) -> WatchInterface: ...


ListFunc = Callable[[ListOptions], Any]
"""Go: listwatch.go ``type ListFunc func(options metav1.ListOptions) (runtime.Object, error)``."""

WatchFunc = Callable[[ListOptions], WatchInterface]
"""Go: listwatch.go ``type WatchFunc func(options metav1.ListOptions) (watch.Interface, error)``."""


@attrs.define(eq=False, slots=False)
class ListWatch:
    """A ListerWatcher made of two functions.

    Go: listwatch.go ``type ListWatch struct{ListFunc, WatchFunc}`` and its methods
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/listwatch.go#L45-L51
    """

    list_func: ListFunc
    watch_func: WatchFunc

    def list(self, options: ListOptions) -> Any:
        """Go: ``(*ListWatch).List`` - calls ``list_func``."""
        return self.list_func(options)

    def watch(self, options: ListOptions) -> WatchInterface:
        """Go: ``(*ListWatch).Watch`` - calls ``watch_func``.

        https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/listwatch.go#L93-L96
        """
        return self.watch_func(options)


_KNOWN_RESOURCES = frozenset({
    "pods", "services", "replicationcontrollers", "persistentvolumeclaims", "endpoints",
    "events", "nodes", "persistentvolumes", "replicasets", "statefulsets",
})


def _resource_client(client: Any, resource: str, namespace: str) -> Any:
    """The typed client for ``resource`` in ``namespace`` (cluster-scoped ones ignore it).

    Go: none - stands in for ``c.Get().Namespace(ns).Resource(resource)``.
    """
    core = client.core_v1()
    namespaced: dict[str, Callable[[str], Any]] = {
        "pods": core.pods,
        "services": core.services,
        "replicationcontrollers": core.replication_controllers,
        "persistentvolumeclaims": core.persistent_volume_claims,
        "endpoints": core.endpoints,
        "events": core.events,
    }
    cluster: dict[str, Callable[[], Any]] = {
        "nodes": core.nodes,
        "persistentvolumes": core.persistent_volumes,
    }
    if resource in namespaced:
        return namespaced[resource](namespace)
    if resource in cluster:
        return cluster[resource]()
    if resource == "replicasets":
        return client.extensions_v1beta1().replica_sets(namespace)
    if resource == "statefulsets":
        return client.apps_v1beta1().stateful_sets(namespace)
    raise ValueError(f"new_list_watch_from_client: unknown resource {resource!r}")


def call_list(resource_client: Any, options: ListOptions) -> Any:
    """``resource_client.list(...)`` with ``options`` spelled as keyword arguments.

    Go: none - the typed clientset's ``List(options)``; kschedlearn's clientset takes keywords.
    """
    return resource_client.list(
        label_selector=options.label_selector,
        field_selector=options.field_selector,
        resource_version=options.resource_version,
    )


def call_watch(resource_client: Any, options: ListOptions) -> WatchInterface:
    """``resource_client.watch(...)`` with ``options`` spelled as keyword arguments.

    Go: none - the typed clientset's ``Watch(options)``.
    """
    return resource_client.watch(
        label_selector=options.label_selector,
        field_selector=options.field_selector,
        resource_version=options.resource_version,
        timeout_seconds=options.timeout_seconds,
    )


def new_list_watch_from_client(
    client: Any, resource: str, namespace: str, field_selector: Any
) -> ListWatch:
    """A ListWatch over ``resource`` in ``namespace`` restricted by ``field_selector``.

    Go: listwatch.go ``NewListWatchFromClient``
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/listwatch.go#L58-L79

    ``field_selector`` is a ``fields.Selector`` or its string form; it replaces any field
    selector in the options (Go's ``FieldsSelectorParam``). The scheduler builds its two pod
    feeds with this (spec §2.3).

    Differs from Go: takes the typed clientset rather than a RESTClient (module docstring).
    """
    if resource not in _KNOWN_RESOURCES:
        raise ValueError(f"new_list_watch_from_client: unknown resource {resource!r} "
                         f"(known: {', '.join(sorted(_KNOWN_RESOURCES))})")
    selector_text = str(field_selector) if field_selector is not None else ""

    def list_func(options: ListOptions) -> Any:
        opts = attrs.evolve(options, field_selector=selector_text)
        return call_list(_resource_client(client, resource, namespace), opts)

    def watch_func(options: ListOptions) -> WatchInterface:
        opts = attrs.evolve(options, watch=True, field_selector=selector_text)
        return call_watch(_resource_client(client, resource, namespace), opts)

    return ListWatch(list_func, watch_func)


__all__ = [
    "ListFunc", "ListOptions", "ListWatch", "ListerWatcher", "WatchFunc", "WatchInterface",
    "call_list", "call_watch", "new_list_watch_from_client",
]
