"""The ``pipeline`` view: a pod's trip through the scheduler's queues and caches.

Go: none — kschedlearn-only (DESIGN §8, the seed article's "multi-queue cache"). It draws the
loop API server → reflector → podQueue (FIFO) → scheduleOne → assume → scheduler cache
(assumedPods) → bind goroutine → API server → assigned-pod reflector → DeltaFIFO → processLoop →
handlers (addPodToCache) → cache confirm, plus cleanupAssumedPods expiring assumed pods.
Each queue is a table of its items; the followed pod is marked ``▶`` (and its table filled gold)
wherever it sits; items new since the previous snapshot are marked ``✚`` (red border); the edge
of the step that just happened is blue.
"""

from __future__ import annotations

import graphviz

from kschedlearn.trace.snapshot import QueueView, Snapshot
from kschedlearn.viz._common import (
    ACTIVE, IDLE_FG, MAX_ROWS, cap, esc, fmt_time, mark, new_digraph, record_table,
)

POD_QUEUE = "podQueue"
"""Snapshot queue name of the scheduler's FIFO of unassigned pods (ConfigFactory.PodQueue)."""
ASSIGNED_QUEUE = "scheduledPodPopulator"
"""Snapshot queue name of the assigned-pod informer's DeltaFIFO (ConfigFactory.scheduledPodPopulator)."""

# (from, to, label, stages that light the edge up)
_EDGES: tuple[tuple[str, str, str, tuple[str, ...]], ...] = (
    ("apiserver", "reflector_unassigned", "list/watch spec.nodeName==\"\"", ("reflector.list", "reflector.watch_event")),
    ("reflector_unassigned", "podQueue", "Add / Update", ("fifo.add",)),
    ("podQueue", "scheduleOne", "Pop (NextPod)", ("fifo.pop", "scheduleOne.pop")),
    ("scheduleOne", "assume", "Schedule → host", ("schedule.predicates", "schedule.priorities", "selectHost")),
    ("assume", "cache", "AssumePod", ("assume",)),
    ("assume", "bind", "go func(){ Bind }", ("bind",)),
    ("bind", "apiserver", "POST namespaces/{ns}/bindings", ("bind",)),
    ("bind", "cache", "FinishBinding", ("finishBinding",)),
    ("apiserver", "reflector_assigned", "list/watch spec.nodeName!=\"\"", ()),
    ("reflector_assigned", "deltaFIFO", "Added / Updated / Deleted", ("delta_fifo.add",)),
    ("deltaFIFO", "processLoop", "Pop", ("delta_fifo.pop", "processLoop")),
    ("processLoop", "handlers", "OnAdd / OnUpdate / OnDelete", ("processLoop",)),
    ("handlers", "cache", "AddPod (confirm)", ("handler.addPodToCache", "cache.addPod")),
    ("cleanup", "cache", "expire assumed pods past deadline", ("cleanupAssumedPods", "expirePod")),
    ("scheduleOne", "backoff", "error → backoff, requeue", ("error.backoff", "error.requeue")),
    ("backoff", "podQueue", "AddIfNotPresent", ("error.requeue",)),
)


def _find_queue(snapshot: Snapshot, name: str, kind: str) -> tuple[str, QueueView | None]:
    queues = snapshot.queues or {}
    if name in queues:
        return name, queues[name]
    for other, q in queues.items():
        if q.kind == kind:
            return other, q
    return name, None


def _queue_node(g: graphviz.Digraph, node: str, title: str, q: QueueView | None,
                prev_q: QueueView | None, follow: str | None) -> None:
    if q is None:
        g.node(node, **record_table(title, [], [], empty="(not created yet)"), fontcolor=IDLE_FG)
        return
    before = {i.key for i in prev_q.items} if prev_q is not None else None
    items = {i.key: i for i in q.items}
    keys, hidden = cap(list(q.line), MAX_ROWS, follow)
    rows = []
    for pos, key in enumerate(keys):
        item = items.get(key)
        detail = "ghost (no item)" if item is None else (
            ", ".join(item.deltas) if item.deltas else (f"node={item.node_name}" if item.node_name else "unassigned"))
        is_new = before is not None and key not in before
        rows.append([mark(pos), mark(key, new=is_new, follow=key == follow), esc(detail)])
    footer = [f"… and {hidden} more keys"] if hidden > 0 else []
    footer.append(f"populated={q.populated}" + (" CLOSED" if q.closed else ""))
    g.node(node, **record_table(f"{title} — {len(q.line)} in line", ["#", "key", "item"], rows, footer=footer))


def _apiserver_node(g: graphviz.Digraph, snap: Snapshot, prev: Snapshot | None, follow: str | None) -> None:
    api = snap.apiserver
    if api is None:
        g.node("apiserver", **record_table("API server (pods)", [], [], empty="(no API server in this run)"))
        return
    before = {p.key: p.node_name for p in prev.apiserver.pods} if prev and prev.apiserver else None
    pods = {p.key: p for p in api.pods}
    keys, hidden = cap(sorted(pods), MAX_ROWS, follow)
    rows = []
    for key in keys:
        p = pods[key]
        changed = before is not None and before.get(key, None) != p.node_name
        status = (p.phase or "-") + (" (deleting)" if p.deletion_timestamp is not None else "")
        rows.append([mark(key, new=changed, follow=key == follow), esc(p.node_name or "—unassigned—"), esc(status)])
    footer = [f"… and {hidden} more pods"] if hidden > 0 else []
    g.node("apiserver", **record_table("API server (pods)", ["pod", "spec.nodeName", "phase"], rows,
                                       footer=footer, empty="(no pods)"))


def _cache_node(g: graphviz.Digraph, snap: Snapshot, prev: Snapshot | None, follow: str | None) -> None:
    cache = snap.cache
    if cache is None:
        g.node("cache", **record_table("schedulerCache", [], [], empty="(not created yet)"))
        return
    before = {p.key: p.assumed for p in prev.cache.pod_states} if prev and prev.cache else None
    states = {p.key: p for p in cache.pod_states}
    keys, hidden = cap(list(states), MAX_ROWS, follow)
    rows = []
    for key in keys:
        p = states[key]
        changed = before is not None and before.get(key) != p.assumed
        state = ("assumed" + (", binding finished" if p.binding_finished else "")) if p.assumed else "added"
        ttl = (fmt_time(p.deadline - snap.time) if p.deadline is not None and p.binding_finished
               else ("not started" if p.assumed else ""))
        rows.append([mark(key, new=changed, follow=key == follow), esc(p.node_name), esc(state), esc(ttl)])
    footer = [f"… and {hidden} more pods"] if hidden > 0 else []
    footer.append(f"{len(cache.nodes)} nodes, {len(cache.assumed_pods)} assumed, ttl {fmt_time(cache.ttl)}")
    g.node("cache", **record_table("schedulerCache (podStates / assumedPods)",
                                   ["pod", "node", "state", "expires in"], rows, footer=footer,
                                   empty="(no pods)"))


def _backoff_node(g: graphviz.Digraph, snap: Snapshot, follow: str | None) -> None:
    entries = snap.backoff or ()
    rows = [[mark(e.pod, follow=e.pod == follow), esc(f"next {e.backoff:g}s" + (" (in flight)" if e.in_flight else ""))]
            for e in entries[:MAX_ROWS]]
    footer = [f"… and {len(entries) - MAX_ROWS} more entries"] if len(entries) > MAX_ROWS else []
    g.node("backoff", **record_table("podBackoff", ["pod", "delay"], rows, footer=footer))


def pipeline(snapshot: Snapshot, previous_snapshot: Snapshot | None = None, *,
             follow_pod: str | None = None) -> graphviz.Digraph:
    """Draw the multi-queue pod flow of ``snapshot`` (see the module docstring)."""
    snap, prev, follow = snapshot, previous_snapshot, follow_pod
    title = f"pipeline — t={snap.time:.3f}s  event #{snap.seq}" + (f"  [{snap.stage}]" if snap.stage else "")
    g = new_digraph("pipeline", rankdir="TB", label=title)
    _apiserver_node(g, snap, prev, follow)
    qname, q = _find_queue(snap, POD_QUEUE, "FIFO")
    prev_q = (prev.queues or {}).get(qname) if prev else None
    _queue_node(g, "podQueue", f"podQueue (FIFO) “{qname}”", q, prev_q, follow)
    dname, d = _find_queue(snap, ASSIGNED_QUEUE, "DeltaFIFO")
    prev_d = (prev.queues or {}).get(dname) if prev else None
    _queue_node(g, "deltaFIFO", f"DeltaFIFO “{dname}”", d, prev_d, follow)
    _cache_node(g, snap, prev, follow)
    _backoff_node(g, snap, follow)
    for node, label in (
        ("reflector_unassigned", "Reflector\n(unassigned pods)"), ("scheduleOne", "scheduleOne\n(sched.Run loop)"),
        ("assume", "assume"), ("bind", "bind goroutine"),
        ("reflector_assigned", "Reflector\n(assigned pods)"), ("processLoop", "processLoop"),
        ("handlers", "handlers\naddPodToCache / updatePodInCache / deletePodFromCache"),
        ("cleanup", "cleanupAssumedPods\n(every 1s)"),
    ):
        g.node(node, label, shape="box", style="rounded")
    with g.subgraph(name="same_rank") as s:
        s.attr(rank="same")
        s.node("podQueue")
        s.node("deltaFIFO")
    for src, dst, label, stages in _EDGES:
        active = snap.stage in stages
        style = {"color": ACTIVE, "penwidth": "2.5", "fontcolor": ACTIVE} if active else {}
        if src == "cleanup" or src == "backoff" or (src == "scheduleOne" and dst == "backoff"):
            style.setdefault("style", "dashed")
        g.edge(src, dst, label=label, **style)
    return g
