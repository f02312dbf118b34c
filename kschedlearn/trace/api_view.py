"""The snapshots' API-server part: built from the objects, or kept up to date from the storage's change log.

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
import json
import operator
from collections.abc import Callable, Iterable
from typing import Any

import attrs

from kschedlearn.trace.chunks import SortedChunks
from kschedlearn.trace.snapshot import (
    LEADER_ANNOTATION, ApiServerView, EventView, LeaderRecordView, NodeView, PodView,
)


def _meta_key(obj: Any) -> str:
    meta = obj.metadata
    return f"{meta.namespace}/{meta.name}" if meta.namespace else meta.name


def _conditions(status: Any) -> tuple[tuple[str, str], ...]:
    return tuple((c.type, c.status) for c in getattr(status, "conditions", ()))


def _leader_record(endpoints: Any) -> LeaderRecordView | None:
    raw = endpoints.metadata.annotations.get(LEADER_ANNOTATION)
    if not raw:
        return None
    try:
        rec = json.loads(raw)
    except ValueError as err:
        raise ValueError(f"Endpoints {_meta_key(endpoints)}: annotation {LEADER_ANNOTATION}: {err}") from err
    return LeaderRecordView(
        endpoints=_meta_key(endpoints),
        holder_identity=str(rec.get("holderIdentity", "")),
        lease_duration_seconds=int(rec.get("leaseDurationSeconds", 0)),
        acquire_time=_time(rec.get("acquireTime")),
        renew_time=_time(rec.get("renewTime")),
        leader_transitions=int(rec.get("leaderTransitions", 0)),
    )


def _time(value: Any) -> float | None:
    if value in (None, ""):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    from kschedlearn.api.v1.times import parse_time

    return parse_time(value)


def api_server_view(objects: Iterable[Any], *, max_events: int = 20,
                    memo: dict[int, tuple[Any, Any]] | None = None) -> ApiServerView:
    """Reduce API objects (any order) to an :class:`ApiServerView`; keeps the newest events.

    ``memo`` (id of an object -> (object, its view)) shares structure between snapshots: an API
    object is immutable and replaced on every change, so the same object gives the same view
    object. It is refilled with the current objects only (nothing dead is kept alive).
    """
    pods: list[PodView] = []
    nodes: list[NodeView] = []
    events: list[EventView] = []
    leader: LeaderRecordView | None = None
    memo = {} if memo is None else memo
    previous = dict(memo)
    memo.clear()
    for obj in objects:
        kind = getattr(obj, "kind", "")
        if kind in ("Pod", "Node"):
            known = previous.get(id(obj))
            view = known[1] if known is not None and known[0] is obj else None
            if view is None:
                view = _pod_view(obj) if kind == "Pod" else NodeView(
                    obj.metadata.name, bool(obj.spec.unschedulable), _conditions(obj.status))
            memo[id(obj)] = (obj, view)
            (pods if kind == "Pod" else nodes).append(view)
        elif kind == "Event":
            events.append(event_view(obj))
        elif kind == "Endpoints" and leader is None:
            leader = _leader_record(obj)
    events.sort(key=lambda e: (e.time if e.time is not None else float("-inf")))
    return ApiServerView(
        pods=tuple(sorted(pods, key=lambda p: p.key)),
        nodes=tuple(sorted(nodes, key=lambda n: n.name)),
        events=tuple(events[-max_events:]) if max_events else (),
        leader_record=leader,
    )


def event_view(obj: Any) -> EventView:
    """The view of one stored Event."""
    ref = obj.involved_object
    involved = f"{ref.namespace}/{ref.name}" if ref.namespace else ref.name
    return EventView(involved, obj.reason, obj.message, obj.type, obj.count or 1,
                     obj.last_timestamp or obj.first_timestamp)


def _pod_view(obj: Any) -> PodView:
    return PodView(
        key=_meta_key(obj), node_name=obj.spec.node_name, phase=obj.status.phase,
        conditions=_conditions(obj.status),
        deletion_timestamp=obj.metadata.deletion_timestamp,
        scheduler_name=obj.spec.scheduler_name,
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
    """Sorted views of the pods, nodes, events and Endpoints of one API server.

    The pods and nodes are kept in :class:`~kschedlearn.trace.chunks.SortedChunks`: a view's
    ``pods`` / ``nodes`` share every chunk no write touched with the previous view, so a view
    after one write costs O(log n + CHUNK + n / CHUNK), not a copy of every pod.
    """

    max_events: int = 20
    version: Any = None
    pods: dict[str, PodView] = attrs.field(factory=dict)
    pod_chunks: SortedChunks[str, PodView] = attrs.field(factory=SortedChunks)
    nodes: dict[str, NodeView] = attrs.field(factory=dict)
    node_chunks: SortedChunks[str, NodeView] = attrs.field(factory=SortedChunks)
    events: dict[tuple[str, str], EventView] = attrs.field(factory=dict)
    event_keys: list[tuple[float, tuple[str, str]]] = attrs.field(factory=list)
    endpoints: dict[tuple[str, str], Any] = attrs.field(factory=dict)
    ready: bool = False
    #: the last view's events part (None after any change to the events: ``reset``, ``apply``)
    #: and leader record with the Endpoints objects it was read from: most writes touch
    #: neither, and the record was decoded from its JSON annotation at every write (stored
    #: objects are replaced, never changed in place, so the same objects give the same record)
    _events_part: tuple[EventView, ...] | None = attrs.field(default=None, init=False, repr=False)
    _leader_part: tuple[list[Any], LeaderRecordView | None] | None = attrs.field(default=None, init=False, repr=False)

    def reset(self, objects: Iterable[Any], version: Any) -> None:
        old_pods, old_nodes = self.pods, self.nodes
        self.pods, self.nodes, self.events, self.endpoints = {}, {}, {}, {}
        for obj in objects:
            self._put(_KIND_OF_OBJ.get(getattr(obj, "kind", ""), ""), obj)
        for views, old in ((self.pods, old_pods), (self.nodes, old_nodes)):
            for key, view in views.items():  # keep the views that did not change (shared with the last view)
                if old.get(key) == view:
                    views[key] = old[key]
        self.pod_chunks = SortedChunks()
        self.pod_chunks.reset(self.pods.items())
        self.node_chunks = SortedChunks()
        self.node_chunks.reset(self.nodes.items())
        self.event_keys = sorted(_event_order(v, k) for k, v in self.events.items())
        self.version, self.ready, self._events_part = version, True, None

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
                self._update(self.pods, self.pod_chunks, _meta_key(obj), entry.type,
                             lambda: _pod_view(obj))
            elif resource == "nodes":
                self._update(self.nodes, self.node_chunks, obj.metadata.name, entry.type,
                             lambda: NodeView(obj.metadata.name, bool(obj.spec.unschedulable), _conditions(obj.status)))
            elif resource == "events":
                self._events_part = None
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
    def _update(views: dict[str, Any], chunks: SortedChunks[str, Any], key: str, kind: str,
                make: Callable[[], Any]) -> None:
        if kind == "DELETED":
            if views.pop(key, None) is not None:
                chunks.delete(key)
            return
        old, view = views.get(key), make()
        if old is not None and old == view:
            return  # the same view: shared with the last picture
        views[key] = view
        chunks.set(key, view, unequal=True)  # (unequal to ``old``, the view it had)

    def view(self) -> ApiServerView:
        """The :class:`ApiServerView` of what the index holds (api_server_view's result)."""
        return ApiServerView(
            pods=self.pod_chunks.freeze(),
            nodes=self.node_chunks.freeze(),
            events=self._events(),
            leader_record=self._leader(),
        )

    def _events(self) -> tuple[EventView, ...]:
        """The newest ``max_events`` events, oldest first (the last part while no event changed)."""
        part = self._events_part
        if part is None:
            newest = self.event_keys[-self.max_events:] if self.max_events else []
            part = self._events_part = tuple(self.events[key] for _, key in newest)
        return part

    def _leader(self) -> LeaderRecordView | None:
        """The first Endpoints' leader record, by key (the last one while the Endpoints are the
        same objects)."""
        ordered = [self.endpoints[key] for key in sorted(self.endpoints)]
        last = self._leader_part
        if last is not None and len(last[0]) == len(ordered) and all(map(operator.is_, last[0], ordered)):
            return last[1]
        leader = None
        for obj in ordered:  # the first Endpoints that holds a record
            leader = _leader_record(obj)
            if leader is not None:
                break
        self._leader_part = (ordered, leader)
        return leader


_KIND_OF_OBJ = {kind: resource for resource, kind in _KIND_OF.items()}


def indexed_view(builder: Any, version: Any) -> ApiServerView:
    """``builder``'s API part from its :class:`ApiIndex`: the writes since the last picture
    applied, or a rebuild from every object when they are no longer known."""
    index = builder._api_index
    if index is None:
        index = builder._api_index = ApiIndex()
    changes = builder.api_changes(index.version) if index.ready else None
    if changes is None:
        index.reset(builder.api_objects(), version)
    else:
        index.apply(changes, version)
    return index.view()
