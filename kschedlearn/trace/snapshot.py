"""The immutable snapshot stored on every trace event, and the builder that takes it.

Go: none — kschedlearn-only (DESIGN §6). A :class:`Snapshot` is plain data: frozen attrs values,
tuples, strings and numbers, never a live object, so stepping back through history shows exactly
what was there at that moment and a trace can be exported to JSON and read back.

Shape (every part is ``None`` when that component does not exist in the run)::

    Snapshot
      seq, time                  event number and virtual time
      stage, goroutine           the stage and goroutine of the event this snapshot belongs to
      queues: {name: QueueView}  FIFO / DeltaFIFO: key line in order + per-key item summary
                                 ("podQueue" is the scheduler's FIFO; "scheduledPodPopulator"
                                 the assigned-pod informer's DeltaFIFO; others by informer)
      stores: {name: (keys...)}  informer stores, sorted keys
      cache: CacheDebugState     schedulercache.cache: nodes (requested/allocatable/pods),
                                 pod states (assumed, deadline, binding_finished), ttl
      backoff: (BackoffEntryView...)
      apiserver: ApiServerView   pods, nodes, recent events, the leader-election record
      goroutines: (GoroutineView...), processes: (ProcessView...)
      stack: (Frame...)          the emitting goroutine's mirrored-code frames, outermost first
      leader: LeaderView         holder, lease, renew time, transitions, candidates
      stages_seen: (str...)      distinct stages seen so far, in first-seen order
      holders: (PodHolderView...) pods in a goroutine's hands, in no queue or table: scheduleOne
                                 between Pop and AssumePod (with its phase), the bind goroutine
                                 while the Binding is in flight
      thinned: (str...)          parts NOT refreshed for this event ("cache", "queues.<name>"),
      thinned_as_of, thinned_why which show the state at event ``thinned_as_of`` (an informer's
                                 initial list at cluster scale: ``SnapshotBuilder.thin_initial_list``);
                                 left out of the JSON when empty

:class:`SnapshotBuilder` holds references to live components and builds a Snapshot when called;
plug it into ``Tracer.snapshot_fn`` and ``Tracer.listeners`` (``builder.observe``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import attrs

from kschedlearn.trace.attrs_json import decode, encode

from kschedlearn.trace.cache_view import CacheDebugSource, CacheDebugState
from kschedlearn.trace.chunks import Chunks, SortedChunks
from kschedlearn.trace.core import Frame, TraceEvent, capture_stack
from kschedlearn.trace.holders import HolderTable, PodHolderView, next_holders
from kschedlearn.trace.sharing import Reuse, holds, same_objects, shared_items
from kschedlearn.trace.snapshot_text import snapshot_text
from kschedlearn.trace.thinning import queue_targets, thinned_queue, thinned_texts

LEADER_ANNOTATION = "control-plane.alpha.kubernetes.io/leader"
"""Go: resourcelock.LeaderElectionRecordAnnotationKey (the Endpoints annotation holding the lease)."""


# --- parts -----------------------------------------------------------------------------------


@attrs.frozen
class QueueItemView:
    """One keyed item of a queue: for a DeltaFIFO the delta types oldest first; ``node_name``
    of the newest object (empty for an unassigned pod)."""

    key: str
    deltas: tuple[str, ...] = ()
    node_name: str = ""


@attrs.frozen
class QueueView:
    """A FIFO or DeltaFIFO as plain data (from its ``debug_state()``).

    ``line`` is the key line exactly as stored (a key without an item is a "ghost", see the FIFO
    docstring); ``items`` in insertion order.
    """

    kind: str  # "FIFO" | "DeltaFIFO"
    line: tuple[str, ...] | Chunks[str] = ()
    # a tuple, or Chunks when kept from the queue's changes (observe/indexes.py)
    items: tuple[QueueItemView, ...] | Chunks[QueueItemView] = ()
    populated: bool = False
    initial_population_count: int = 0
    closed: bool = False

    @classmethod
    def of(cls, state: Any, kind: str, memo: dict[str, tuple[Any, QueueItemView]] | None = None) -> QueueView:
        """Summarise a ``QueueDebugState`` (FIFO items are objects, DeltaFIFO items ``Deltas``).

        ``memo`` (key -> (item, its view)) shares item views between snapshots: queue items are
        replaced, never changed in place (API objects, ``Deltas`` tuples), so the same item gives
        the same view. It is refilled with the current items only.
        """
        items = shared_items(state.items, {} if memo is None else memo, lambda key, item: _item_view(key, item, kind))
        return cls(
            kind=kind, line=tuple(state.queue), items=tuple(items), populated=bool(state.populated),
            initial_population_count=int(state.initial_population_count), closed=bool(state.closed),
        )


@attrs.frozen
class BackoffEntryView:
    """One ``PodBackoff`` entry: next delay, last update, whether a retry is in flight."""

    pod: str
    backoff: float
    last_update: float
    in_flight: bool


@attrs.frozen
class PodView:
    """A pod as the API server stores it, reduced to what the diagrams show."""

    key: str
    node_name: str = ""
    phase: str = ""
    conditions: tuple[tuple[str, str], ...] = ()  # (type, status)
    deletion_timestamp: float | None = None
    scheduler_name: str = ""


@attrs.frozen
class NodeView:
    """A node as the API server stores it."""

    name: str
    unschedulable: bool = False
    conditions: tuple[tuple[str, str], ...] = ()


@attrs.frozen
class EventView:
    """A recorded Kubernetes Event (``Scheduled``, ``FailedScheduling``, ...)."""

    involved: str
    reason: str
    message: str
    type: str = ""
    count: int = 1
    time: float | None = None


@attrs.frozen
class LeaderRecordView:
    """The leader-election record kept in an Endpoints annotation (Go: LeaderElectionRecord)."""

    endpoints: str
    holder_identity: str = ""
    lease_duration_seconds: int = 0
    acquire_time: float | None = None
    renew_time: float | None = None
    leader_transitions: int = 0


@attrs.frozen
class ApiServerView:
    """The API server's objects as plain data (built by :func:`api_server_view`)."""

    # tuples, or Chunks when kept from the storage's changes (trace/api_view.py)
    pods: tuple[PodView, ...] | Chunks[PodView] = ()
    nodes: tuple[NodeView, ...] | Chunks[NodeView] = ()
    events: tuple[EventView, ...] = ()
    leader_record: LeaderRecordView | None = None


@attrs.frozen
class GoroutineView:
    """One goroutine: state is runnable | running | blocked | sleeping | paused | done | killed."""

    gid: int
    name: str
    process: str
    state: str
    waiting_on: str = ""


@attrs.frozen
class ProcessView:
    """One simulated process (API server, a kube-scheduler replica, the kubelet sim)."""

    name: str
    alive: bool = True
    exit_reason: str | None = None


@attrs.frozen
class LeaderView:
    """Leader election as the diagrams show it: who holds the lease and who competes."""

    holder: str = ""
    lease_duration: float = 0.0
    acquire_time: float | None = None
    renew_time: float | None = None
    transitions: int = 0
    candidates: tuple[str, ...] = ()


@attrs.frozen
class Snapshot:
    """Everything observable at one trace event (see the module docstring for the shape)."""

    seq: int
    time: float
    stage: str = ""
    goroutine: str = ""
    queues: dict[str, QueueView] | None = None
    stores: dict[str, tuple[str, ...]] | None = None
    cache: CacheDebugState | None = None
    backoff: tuple[BackoffEntryView, ...] | None = None
    apiserver: ApiServerView | None = None
    goroutines: tuple[GoroutineView, ...] | Chunks[GoroutineView] | None = None
    processes: tuple[ProcessView, ...] | None = None
    stack: tuple[Frame, ...] | None = None
    leader: LeaderView | None = None
    stages_seen: tuple[str, ...] = ()
    holders: tuple[PodHolderView, ...] | Chunks[PodHolderView] | None = None
    #: the parts *not* refreshed for this event ("cache", "queues.<name>"): they show the state
    #: at event ``thinned_as_of`` (a thinned snapshot, see ``SnapshotBuilder.thin_initial_list``);
    #: ``thinned_why`` says when that happens. Every other part is the state at this event.
    thinned: tuple[str, ...] = ()
    thinned_as_of: int = -1
    thinned_why: str = ""

    def to_json(self) -> dict[str, Any]:
        """Plain JSON-able data; mapping keys sorted so equal snapshots dump identically (the
        three ``thinned`` fields only when the snapshot is thinned)."""
        data = encode(self)
        if not self.thinned:
            for name in _THINNED_FIELDS:
                del data[name]
        return data

    def dumps(self, leave_out: tuple[str, ...] = ()) -> str:
        """The JSON text of :meth:`to_json` but ``leave_out`` (sorted keys, compact; ``snapshot_text``)."""
        names = [n for n in attrs.fields_dict(Snapshot) if (self.thinned or n not in _THINNED_FIELDS) and n not in leave_out]
        return snapshot_text(self, names)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Snapshot:
        """Rebuild a snapshot from :meth:`to_json` output; raises ``ValueError`` naming the field."""
        if not isinstance(data, Mapping):
            raise ValueError(f"Snapshot.from_json: expected an object, got {type(data).__name__}")
        return decode(cls, data, "snapshot")


_THINNED_FIELDS = ("thinned", "thinned_as_of", "thinned_why")

#: thin the snapshots of an informer's initial list from this many listed items on (see
#: ``SnapshotBuilder.thin_initial_list``; 0: never). Teaching scenarios list far fewer.
THIN_INITIAL_LIST = 1000


# --- builders from live objects --------------------------------------------------------------


def _item_view(key: str, item: Any, kind: str) -> QueueItemView:
    if kind == "DeltaFIFO":
        return QueueItemView(key, tuple(str(d.type) for d in item), _node_name(item[-1].object if len(item) else None))
    return QueueItemView(key, (), _node_name(item))


def _node_name(obj: Any) -> str:
    spec = getattr(obj, "spec", None)
    if spec is None and hasattr(obj, "obj"):  # a DeletedFinalStateUnknown tombstone
        spec = getattr(obj.obj, "spec", None)
    return str(getattr(spec, "node_name", "") or "")


def api_server_view(objects: Iterable[Any], *, max_events: int = 20,
                    memo: dict[int, tuple[Any, Any]] | None = None) -> ApiServerView:
    """:func:`kschedlearn.trace.api_view.api_server_view` (the API part's builders live there)."""
    from kschedlearn.trace.api_view import api_server_view as build

    return build(objects, max_events=max_events, memo=memo)


@attrs.define(eq=False)
class SnapshotBuilder:
    """Holds references to live components; ``builder()`` returns a fresh :class:`Snapshot`.

    ``queues``: name -> a source whose ``debug_state()`` is a queue's view and ``kind`` its kind;
    ``cache`` / ``backoff``: sources of those views (``kschedlearn.observe.sharing.Source``: the
    observation layer reads the live objects); ``stores``: name -> anything with ``list_keys()``;
    ``api_objects``: returns the API server's objects (``api_version``, optional: its revision
    counter — while it stands still the last API view is reused); ``leader_candidates``: identities
    of the scheduler replicas. Register ``observe`` as a tracer listener so ``stages_seen`` grows.
    Differs from the ideal: ``Tracer.record`` calls ``snapshot_fn()`` before the event exists, so ``stage``
    is the previous event's unless the caller passes ``stage=`` (``holders``: ``data=``).
    """

    runtime: Any = None
    queues: dict[str, Any] = attrs.field(factory=dict)
    stores: dict[str, Any] = attrs.field(factory=dict)
    cache: CacheDebugSource | None = None
    backoff: Any = None
    api_objects: Callable[[], Iterable[Any]] | None = None
    api_version: Callable[[], Any] | None = None
    #: optional: the API writes since a revision, oldest first, None if unknown (api_view.py)
    api_changes: Callable[[Any], Iterable[tuple[str, Any]] | None] | None = None
    leader_candidates: tuple[str, ...] = ()
    capture_stacks: bool = True
    #: keep the goroutine views from the runtime's change log (``Runtime.goroutine_logs``)
    #: instead of walking every goroutine when one changed, and the holders in one table changed
    #: in place (``holders.HolderTable``) instead of a copied mapping (cluster scale)
    incremental: bool = False
    #: thinning (0: never). While a goroutine processes an item of a followed DeltaFIFO's initial
    #: list (a ``Replace`` of at least this many items; the informer's first list, at cluster
    #: scale 30,000 bound pods: about half of all events), the snapshots of the events it emits
    #: keep the cache part and that queue's part of the last snapshot that built them — the
    #: parts its handler changes at every one of those events — and name them in
    #: ``Snapshot.thinned``. Every other event, and every other part, is built as usual, and the
    #: first snapshot after the list is exact again (the indexes follow every change meanwhile).
    #: (default: the module's THIN_INITIAL_LIST when the builder is made — a world rebuilt for a
    #: replay makes a new builder: set the module constant to change it for every world)
    thin_initial_list: int = attrs.field(factory=lambda: THIN_INITIAL_LIST)
    _stages: list[str] = attrs.field(factory=list, init=False)
    _seen: set[str] = attrs.field(factory=set, init=False)
    _last_stage: str = attrs.field(default="", init=False)
    _holders: Mapping[int, PodHolderView] = attrs.field(factory=dict, init=False)
    _api_memo: dict[int, tuple[Any, Any]] = attrs.field(factory=dict, init=False, repr=False)
    _api_index: Any = attrs.field(default=None, init=False, repr=False)
    _goroutine_memo: dict[tuple[Any, ...], GoroutineView] = attrs.field(factory=dict, init=False, repr=False)
    _holders_memo: tuple[Any, ...] | None = attrs.field(default=None, init=False, repr=False)
    _goroutine_log: dict[int, Any] | None = attrs.field(default=None, init=False, repr=False)
    _goroutine_index: SortedChunks[int, GoroutineView] | None = attrs.field(default=None, init=False, repr=False)
    _goroutine_views: dict[int, GoroutineView] = attrs.field(factory=dict, init=False, repr=False)
    #: (the runtime's version, the goroutines part built at it) when ``incremental``
    _goroutines_at: tuple[int, Any] | None = attrs.field(default=None, init=False, repr=False)
    _ended: list[int] = attrs.field(factory=list, init=False, repr=False)  # gids ended since the holders looked
    # structure sharing (trace/sharing.py): each part is rebuilt only when its signature moved
    _reuse: dict[str, Reuse[Any]] = attrs.field(factory=lambda: defaultdict(Reuse), init=False, repr=False)
    _item_memo: dict[str, dict[str, tuple[Any, QueueItemView]]] = attrs.field(
        factory=lambda: defaultdict(dict), init=False, repr=False)
    #: (seq, cache part, queue parts, the queues' targets) of the last snapshot that built the
    #: cache and queue parts (what a thinned snapshot shows)
    _fresh: tuple[int, Any, dict[str, QueueView], dict[str, Any]] | None = attrs.field(
        default=None, init=False, repr=False)
    #: the number of the build under way (0: none; a nested build gets its own): nothing moves
    #: during one, so a source may keep what it found for that build (``simulation/world.py``)
    building: int = attrs.field(default=0, init=False, repr=False)
    _thin_memo: dict[tuple[str, int], tuple[tuple[str, ...], str]] = attrs.field(factory=dict, init=False, repr=False)
    _builds: int = attrs.field(default=0, init=False, repr=False)

    def observe(self, event: TraceEvent) -> None:
        """Tracer listener: remember the event's stage and who holds which pod after it."""
        self._note(event.stage)
        self._holders = self._holders_after(event.stage, event.data)

    def _holders_after(self, stage: str, data: Mapping[str, Any] | None) -> Mapping[int, PodHolderView]:
        if self.incremental:
            return self._table_after(stage, data)
        g = getattr(self.runtime, "current", None)
        if g is None or not data:
            return self._alive(self._holders)
        m, base, version = self._holders_memo, self._holders, self.runtime.version  # an event's snapshot, then
        if m is None or not (m[0] == stage and m[1] is data and m[2] is g and m[3] is base and m[4] == version):
            after = self._alive(next_holders(base, stage, data, g.gid, g.name, g.process.name))
            m = self._holders_memo = (stage, data, g, base, version, after)  # its observe: asked once
        return m[5]

    def _table_after(self, stage: str, data: Mapping[str, Any] | None) -> HolderTable:
        """The holder table after the event (``incremental``): the event applied once — the
        snapshot asks before it is recorded, the listener after — and dead goroutines' holders
        dropped."""
        table = self._holder_table()
        g = getattr(self.runtime, "current", None)
        if g is not None and data:
            m = self._holders_memo
            if m is None or not (m[0] == stage and m[1] is data and m[2] is g):
                table.apply(stage, data, g.gid, g.name, g.process.name)
                self._holders_memo = (stage, data, g)
        return self._alive(table)  # type: ignore[return-value]

    def _holder_table(self) -> HolderTable:
        table = self._holders
        if not isinstance(table, HolderTable):
            table = HolderTable()
            for gid, view in self._holders.items():
                table.set(gid, view)
            self._holders = table
        return table

    def _alive(self, holders: Mapping[int, PodHolderView]) -> Mapping[int, PodHolderView]:
        """Drop holders whose goroutine has ended (killed process, finished bind goroutine)."""
        if isinstance(holders, HolderTable):
            if self.runtime is not None:
                self._goroutines()  # brings the goroutine views (and the list of the ended) up to date
            for gid in self._ended:
                holders.delete(gid)
            self._ended.clear()
            return holders
        rt = self.runtime
        if rt is None or not holders:
            return holders
        alive = self._reuse["alive"].get(rt.version, lambda: {g.gid for g in rt.goroutines if g.alive})
        if alive.issuperset(holders):
            return holders
        return {k: h for k, h in holders.items() if k in alive}

    def _note(self, stage: str) -> None:
        self._last_stage = stage
        if stage and stage not in self._seen:
            self._seen.add(stage)
            self._stages.append(stage)

    def __call__(self, stage: str | None = None, data: Mapping[str, Any] | None = None) -> Snapshot:
        outer, self._builds = self.building, self._builds + 1
        self.building = self._builds
        try:
            return self._build(stage, data)
        finally:
            self.building = outer

    def _build(self, stage: str | None, data: Mapping[str, Any] | None) -> Snapshot:
        if stage is not None:
            self._note(stage)
        holders = self._holders_after(stage, data) if stage is not None else self._alive(self._holders)
        rt = self.runtime
        tracer = getattr(rt, "tracer", None)
        current = getattr(rt, "current", None)
        apiserver = self._apiserver()
        reuse = self._reuse
        seq = len(tracer.events) if tracer is not None else 0
        thin = self._thinning(current)
        if thin is None:
            queues, cache = self._queues() if self.queues else None, self._cache()
            self._fresh = (seq, cache, queues or {}, queue_targets(self.queues))
            thinned: tuple[str, ...] = ()
            as_of, why = -1, ""
        else:
            name, listed = thin
            fresh = self._fresh
            assert fresh is not None  # (_thinning asks for it)
            queues, cache = self._queues(carry=(name, fresh[2][name])), fresh[1]
            as_of = fresh[0]
            thinned, why = thinned_texts(self._thin_memo, name, listed)
        return Snapshot(
            seq=seq,
            time=float(rt.now) if rt is not None else 0.0,
            stage=self._last_stage,
            goroutine=current.name if current is not None else "",
            queues=queues,
            stores={n: tuple(sorted(s.list_keys())) for n, s in self.stores.items()} if self.stores else None,
            cache=cache,
            backoff=self._backoff(),
            apiserver=apiserver,
            goroutines=self._goroutines(),
            processes=reuse["processes"].get(
                [(p, p.alive, p.exit_reason) for p in rt.processes],
                lambda: tuple(ProcessView(p.name, p.alive, p.exit_reason) for p in rt.processes))
            if rt is not None else None,
            stack=capture_stack() if (self.capture_stacks and current is not None) else None,
            leader=reuse["leader"].get((apiserver.leader_record if apiserver is not None else None,
                                        self.leader_candidates), lambda: self._leader(apiserver)),
            stages_seen=reuse["stages"].get(len(self._stages), lambda: tuple(self._stages)),
            holders=(holders.freeze() if isinstance(holders, HolderTable)
                     else reuse["holders"].get(holders, lambda: tuple(holders[k] for k in sorted(holders))))
            if rt is not None else None,
            thinned=thinned, thinned_as_of=as_of, thinned_why=why,
        )

    def _thinning(self, current: Any) -> tuple[str, int] | None:
        """(the queue's name, its list's size) when this event's snapshot is thinned (thinning.py)."""
        if not self.thin_initial_list or current is None or self._fresh is None:
            return None
        return thinned_queue(self.queues, current, self.thin_initial_list, self._fresh[3], self._fresh[2])

    def _cache(self) -> Any:
        return self.cache.debug_state() if self.cache is not None else None

    def _backoff(self) -> tuple[BackoffEntryView, ...] | None:
        if self.backoff is None:
            return None
        entries = self.backoff.debug_state() or ()
        return self._reuse["backoff"].get(entries, lambda: tuple(BackoffEntryView(*e) for e in entries))

    def _queues(self, carry: tuple[str, QueueView] | None = None) -> dict[str, QueueView]:
        """The queue parts; ``carry``: (name, view) a thinned snapshot shows for that queue
        instead of its view now (which is then not asked for)."""
        out = {}
        reuse = self._reuse
        for name, q in self.queues.items():
            if carry is not None and name == carry[0]:
                out[name] = carry[1]
                continue
            state = q.debug_state()  # the same object while a watched queue stands still
            if state is not None:
                kind = q.kind
                part = reuse["queue:" + name]
                if isinstance(state, QueueView):
                    # a source may give the view itself (kept from the queue's changes:
                    # observe/indexes.py, the same object while equal): the last one while it
                    # is, else it (or the last one, equal to it: another replica's queue)
                    if not (part.filled and (part.value is state or part.value == state)):
                        part.signature, part.value, part.filled = (kind, state), state, True
                    out[name] = part.value
                else:
                    out[name] = part.get((kind, state), lambda: QueueView.of(state, kind, self._item_memo[name]))
        last = reuse["queues"]
        if last.filled and same_objects(out, last.value):  # type: ignore[arg-type]
            return last.value  # type: ignore[return-value]
        # another part than the last snapshot's: each part above is the last one itself while
        # equal (a carried one is the last full snapshot's), so the mapping differs — kept
        # without comparing it (a changed queue view was compared once, above)
        last.signature, last.value, last.filled = None, out, True
        return out

    def _apiserver(self) -> ApiServerView | None:
        if self.api_objects is None:
            return None
        version = self.api_version() if self.api_version is not None else None  # reuse while unchanged
        last = self._reuse["api"]
        if version is not None and last.current(version):
            return last.value  # (asked before the builders below are made)
        build = lambda: api_server_view(self.api_objects(), memo=self._api_memo)  # noqa: E731
        if version is not None and self.api_changes is not None:
            from kschedlearn.trace.api_view import indexed_view

            build = lambda: indexed_view(self, version)  # noqa: E731
        return build() if version is None else last.get(version, build)

    def _goroutines(self) -> tuple[GoroutineView, ...] | Chunks[GoroutineView] | None:
        """The goroutines alive now (finished ones are not shown); rebuilt when one changed."""
        rt = self.runtime
        if rt is None:
            return None
        if self.incremental:  # (the followed views are the last ones themselves while equal)
            at = self._goroutines_at
            if at is None or at[0] != rt.version:
                index = self._goroutine_index
                view: Any = self._followed_goroutines()
                if at is not None and index is not self._goroutine_index and view == at[1]:
                    view = at[1]  # a new index (the log was lost), equal: the last part itself
                at = self._goroutines_at = (rt.version, view)
            return at[1]
        return self._reuse["goroutines"].get(rt.version, self._build_goroutines)

    def _build_goroutines(self) -> tuple[GoroutineView, ...] | Chunks[GoroutineView]:
        if self.incremental:
            return self._followed_goroutines()
        previous, self._goroutine_memo = self._goroutine_memo, {}
        for g in self.runtime.goroutines:
            if g.alive:
                key = (g.gid, g.name, g.process.name, g.state, g.waiting_on)
                self._goroutine_memo[key] = previous.get(key) or GoroutineView(*key)
        return tuple(self._goroutine_memo.values())

    def _followed_goroutines(self) -> Chunks[GoroutineView]:
        """The goroutine views kept from the runtime's log of changed goroutines (by gid, the
        order of ``Runtime.goroutines``): O(goroutines that changed) instead of O(goroutines)
        (thousands of bind goroutines wait for the client's rate limiter at cluster scale)."""
        rt = self.runtime
        log, index, views = self._goroutine_log, self._goroutine_index, self._goroutine_views
        shared = self._goroutine_memo
        if log is None or index is None or not holds(rt.goroutine_logs, log):
            log = self._goroutine_log = {}
            rt.goroutine_logs.append(log)
            index = self._goroutine_index = SortedChunks()
            views.clear()
            changed = [g for g in rt.goroutines if g.alive]
            alive = {g.gid for g in changed}
            self._ended.extend(gid for gid in self._holders if gid not in alive)
        else:
            changed = list(log.values())
        log.clear()
        for g in changed:
            if not g.alive:
                if views.pop(g.gid, None) is not None:
                    index.delete(g.gid)
                self._ended.append(g.gid)
                continue
            old = views.get(g.gid)
            if old is not None and (old.name, old.process, old.state, old.waiting_on) == (
                    g.name, g.process.name, g.state, g.waiting_on):
                continue
            key = (g.gid, g.name, g.process.name, g.state, g.waiting_on)
            view = shared.get(key)  # a goroutine goes round a few states: one view each
            if view is None:
                if len(shared) >= 1 << 16:
                    shared.clear()
                view = shared[key] = GoroutineView(*key)
            views[g.gid] = view
            index.set(g.gid, view, unequal=True)  # (a field differs from ``old``'s, above)
        return index.freeze()

    def _leader(self, apiserver: ApiServerView | None) -> LeaderView | None:
        rec = apiserver.leader_record if apiserver is not None else None
        if rec is None and not self.leader_candidates:
            return None
        if rec is None:
            return LeaderView(candidates=self.leader_candidates)
        return LeaderView(
            holder=rec.holder_identity, lease_duration=float(rec.lease_duration_seconds),
            acquire_time=rec.acquire_time, renew_time=rec.renew_time,
            transitions=rec.leader_transitions, candidates=self.leader_candidates,
        )


