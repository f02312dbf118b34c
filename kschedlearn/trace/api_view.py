"""The snapshots' API-server part, kept up to date from the storage's change log.

Go: none — kschedlearn-only (DESIGN §6). :func:`~kschedlearn.trace.snapshot.api_server_view`
walks every stored pod, node, event and Endpoints object; a snapshot at every event of a
30,000-pod replay did that after each of thousands of writes. :class:`ApiIndex` applies only the
writes made since the last picture (``Storage.changes_since``: the watch cache's window of
recent changes) to sorted indexes, and builds the same :class:`ApiServerView` — the same views,
in the same order — from them. A gap longer than the window (or anything it cannot follow)
rebuilds it from the objects.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable
from typing import Any

import attrs

from kschedlearn.trace.snapshot import (
    ApiServerView, EventView, NodeView, PodView, _conditions, _leader_record, _meta_key, _pod_view, event_view,
)

#: the resources the API part shows (``World.objects``)
RESOURCES = ("pods", "nodes", "events", "endpoints")
_KIND_OF = {"pods": "Pod", "nodes": "Node", "events": "Event", "endpoints": "Endpoints"}


def _storage_key(obj: Any) -> tuple[str, str]:
    return (obj.metadata.namespace or "", obj.metadata.name)


def _event_order(view: EventView, key: tuple[str, str]) -> tuple[float, tuple[str, str]]:
    # api_server_view sorts events by time (stably, over the storage's key order)
    return (view.time if view.time is not None else float("-inf"), key)


@attrs.define(eq=False)
class ApiIndex:
    """Sorted views of the pods, nodes, events and Endpoints of one API server."""

    max_events: int = 20
    version: Any = None
    pods: dict[str, PodView] = attrs.field(factory=dict)
    pod_keys: list[str] = attrs.field(factory=list)
    nodes: dict[str, NodeView] = attrs.field(factory=dict)
    node_keys: list[str] = attrs.field(factory=list)
    events: dict[tuple[str, str], EventView] = attrs.field(factory=dict)
    event_keys: list[tuple[float, tuple[str, str]]] = attrs.field(factory=list)
    endpoints: dict[tuple[str, str], Any] = attrs.field(factory=dict)
    ready: bool = False

    def reset(self, objects: Iterable[Any], version: Any) -> None:
        self.pods, self.nodes, self.events, self.endpoints = {}, {}, {}, {}
        for obj in objects:
            self._put(_KIND_OF_OBJ.get(getattr(obj, "kind", ""), ""), obj)
        self.pod_keys = sorted(self.pods)
        self.node_keys = sorted(self.nodes)
        self.event_keys = sorted(_event_order(v, k) for k, v in self.events.items())
        self.version, self.ready = version, True

    def _put(self, resource: str, obj: Any) -> None:
        if resource == "pods":
            self.pods[_meta_key(obj)] = _pod_view(obj)
        elif resource == "nodes":
            self.nodes[obj.metadata.name] = NodeView(obj.metadata.name, bool(obj.spec.unschedulable),
                                                     _conditions(obj.status))
        elif resource == "events":
            self.events[_storage_key(obj)] = event_view(obj)
        elif resource == "endpoints":
            self.endpoints[_storage_key(obj)] = obj

    def apply(self, changes: Iterable[tuple[str, Any]], version: Any) -> None:
        """Apply stored changes (resource, entry with ``type`` and ``object``), oldest first."""
        for resource, entry in changes:
            obj = entry.object
            if resource == "pods":
                self._update(self.pods, self.pod_keys, _meta_key(obj), entry.type,
                             lambda: _pod_view(obj))
            elif resource == "nodes":
                self._update(self.nodes, self.node_keys, obj.metadata.name, entry.type,
                             lambda: NodeView(obj.metadata.name, bool(obj.spec.unschedulable), _conditions(obj.status)))
            elif resource == "events":
                key = _storage_key(obj)
                old = self.events.pop(key, None)
                if old is not None:
                    del self.event_keys[bisect.bisect_left(self.event_keys, _event_order(old, key))]
                if entry.type != "DELETED":
                    view = self.events[key] = event_view(obj)
                    bisect.insort(self.event_keys, _event_order(view, key))
            elif resource == "endpoints":
                key = _storage_key(obj)
                if entry.type == "DELETED":
                    self.endpoints.pop(key, None)
                else:
                    self.endpoints[key] = obj
        self.version = version

    @staticmethod
    def _update(views: dict[str, Any], keys: list[str], key: str, kind: str, make: Callable[[], Any]) -> None:
        if kind == "DELETED":
            if views.pop(key, None) is not None:
                del keys[bisect.bisect_left(keys, key)]
            return
        if key not in views:
            bisect.insort(keys, key)
        views[key] = make()

    def view(self) -> ApiServerView:
        """The :class:`ApiServerView` of what the index holds (api_server_view's result)."""
        leader = None
        for key in sorted(self.endpoints):
            if leader is None:
                leader = _leader_record(self.endpoints[key])
        newest = self.event_keys[-self.max_events:] if self.max_events else []
        return ApiServerView(
            pods=tuple(map(self.pods.__getitem__, self.pod_keys)),
            nodes=tuple(map(self.nodes.__getitem__, self.node_keys)),
            events=tuple(self.events[key] for _, key in newest),
            leader_record=leader,
        )


_KIND_OF_OBJ = {kind: resource for resource, kind in _KIND_OF.items()}
