"""The ``pipeline`` view: a pod's trip through the scheduler's queues and caches.

Go: none — kschedlearn-only (DESIGN §8, the seed article's "multi-queue cache"). It draws the
loop API server → Reflector → podQueue (FIFO) → scheduleOne (NextPod, predicates, priorities,
selectHost) → AssumePod into the scheduler cache → bind goroutine → API server → assigned-pod
Reflector → DeltaFIFO → processLoop (handlers: addPodToCache …) → cache confirm, plus
cleanupAssumedPods expiring assumed pods and the error path through podBackoff — and the lane that
fills the cache's nodes: the shared node informer's Reflector → DeltaFIFO → processLoop →
addNodeToCache / updateNodeInCache / deleteNodeFromCache.

The followed pod is a *token*: wherever it is at the cursor — a queue row, scheduleOne's hands
(with the phase it is in), the bind goroutine, the processLoop, a cache row (assumed / binding
finished / confirmed / expired) — that row or box is filled gold and the caption says it in
words ("scheduleOne holds default/web-1 — phase: predicates"). Rows the step just taken changed
are outlined blue, the edge of that step is blue; a legend explains the marks. Row bands are
painted by the renderer from :data:`~kschedlearn.viz._common.ROWS_ATTR`; ``▶`` / ``✚`` text marks
stay in the cells, so a plain Graphviz still shows them.
"""

from __future__ import annotations

import attrs
import graphviz

from kschedlearn.trace.snapshot import PodHolderView, QueueView, Snapshot
from kschedlearn.viz._common import (
    ACTIVE, IDLE_FG, MAX_ROWS, ROW_CHANGED, ROW_FOLLOW, ROWS_ATTR, cap, esc, fmt_time, mark,
    new_digraph, record_table, thinned_caption,
)
from kschedlearn.viz.controllers import add_pod_source
from kschedlearn.viz.dot import same_rank
from kschedlearn.viz.pod_states import pod_state

POD_QUEUE = "podQueue"
"""Snapshot queue name of the scheduler's FIFO of unassigned pods (ConfigFactory.PodQueue)."""
ASSIGNED_QUEUE = "scheduledPodPopulator"
"""Snapshot queue name of the assigned-pod informer's DeltaFIFO (ConfigFactory.scheduledPodPopulator)."""
NODE_QUEUE = "nodeInformer"
"""Snapshot queue name of the shared node informer's DeltaFIFO (its handlers keep the cache's nodes)."""

SCHEDULE_ONE_STEPS = (
    ("NextPod", ("fifo.pop", "scheduleOne.pop")),
    ("predicates", ("schedule.start", "schedule.predicate_node", "schedule.predicates")),
    ("priorities", ("schedule.priorities",)),
    ("selectHost", ("selectHost",)),
)
"""scheduleOne's phases as drawn (Go: scheduleOne → Schedule → findNodesThatFit,
PrioritizeNodes, selectHost) and the stages that put the pod in each."""
BIND_STEPS = (("POST binding", ("bind",)), ("API server stored it", ("apiserver.bind",)))
PROCESS_LOOP_STEPS = (
    ("Pop", ("delta_fifo.pop", "controller.process_loop")),
    ("handler", ("handler.OnAdd", "handler.OnUpdate", "handler.OnDelete")),
    ("cache.AddPod", ("cache.addPod",)),
)
_PHASE_WORDS = {
    "fifo.pop": "NextPod: popped from podQueue", "scheduleOne.pop": "NextPod returned it",
    "schedule.start": "Schedule: about to run the predicates",
    "schedule.predicate_node": "predicates: checking the nodes", "schedule.predicates": "predicates done",
    "schedule.priorities": "priorities: scoring the nodes that fit", "selectHost": "selectHost",
    "bind": "POST binding in flight", "apiserver.bind": "the API server stored the binding",
    "delta_fifo.pop": "popped its deltas", "controller.process_loop": "processing its deltas",
    "handler.OnAdd": "handler OnAdd (addPodToCache)", "handler.OnUpdate": "handler OnUpdate",
    "handler.OnDelete": "handler OnDelete", "cache.addPod": "calling cache.AddPod",
}

# (from, to, label, stages that light the edge up); ports: "node:port"
_EDGES: tuple[tuple[str, str, str, tuple[str, ...]], ...] = (
    ("apiserver", "podQueue", "Reflector nodeName==\"\"\n→ Add / Update",
     ("reflector.list", "reflector.watch_event", "fifo.add", "fifo.update")),
    ("podQueue", "scheduleOne", "Pop (NextPod)", ("fifo.pop", "scheduleOne.pop")),
    ("scheduleOne", "cache", "AssumePod", ("assume",)),
    ("scheduleOne", "bind", "go bind()", ("bind",)),
    ("bind", "apiserver", "POST namespaces/{ns}/bindings", ("apiserver.bind",)),
    ("bind", "cache", "FinishBinding\n/ ForgetPod", ("finishBinding", "forgetPod")),
    ("apiserver", "deltaFIFO", "Reflector nodeName!=\"\"\n→ Added / Updated / …",
     ("delta_fifo.add", "delta_fifo.update", "delta_fifo.delete")),
    ("deltaFIFO", "processLoop", "Pop", ("delta_fifo.pop", "controller.process_loop", "processLoop")),
    ("processLoop", "cache", "AddPod (confirm)\n/ Update / Remove",
     ("handler.addPodToCache", "cache.addPod", "cache.updatePod", "cache.removePod")),
    ("cleanup", "cache", "expire", ("cleanupAssumedPods", "expirePod")),
    ("apiserver", "nodeQueue", "node Reflector\n→ Added / Updated / …", ()),
    ("nodeQueue", "cache", "HandleDeltas → addNodeToCache\n/ updateNodeInCache / deleteNodeFromCache", ()),
    ("scheduleOne", "backoff", "error → backoff", ("error.backoff",)),
    ("backoff", "podQueue", "AddIfNotPresent", ("error.requeue",)),
)
_DASHED = {"cleanup", "backoff"}
RANKDIR = "TB"


@attrs.frozen
class PodPlace:
    """One place the followed pod is at the cursor: ``place`` is a node of this view
    (``apiserver``, ``podQueue``, ``scheduleOne``, ``bind``, ``deltaFIFO``, ``processLoop``,
    ``cache``, ``backoff``), ``detail`` says how (phase, cache state …) in words."""

    place: str
    detail: str


def pod_places(snapshot: Snapshot, pod: str, previous_snapshot: Snapshot | None = None) -> tuple[PodPlace, ...]:
    """Where ``pod`` is in ``snapshot``, the most recent step of its journey first.

    The API server is listed only when the pod is nowhere in the scheduler (it always *has* the
    object; the token is about the scheduler's side of the trip).
    """
    snap, out = snapshot, []
    holders = {h.holder: h for h in (snap.holders or ()) if h.pod == pod}
    for role in ("processLoop", "bind", "scheduleOne"):
        h = holders.get(role)
        if h is not None:
            out.append(PodPlace(role, _holder_words(h)))
    for node, name, kind in (("deltaFIFO", ASSIGNED_QUEUE, "DeltaFIFO"), ("podQueue", POD_QUEUE, "FIFO")):
        _, q = _find_queue(snap, name, kind)
        if q is not None and pod in q.line:
            out.append(PodPlace(node, f"in line at position {q.line.index(pod) + 1} of {len(q.line)}"))
    for e in snap.backoff or ():
        if e.pod == pod:
            out.append(PodPlace("backoff", f"backing off {e.backoff:g}s"))
    state = _cache_words(snap, pod, previous_snapshot)
    if state:
        out.append(PodPlace("cache", state))
    if not out and snap.apiserver is not None:
        p = next((p for p in snap.apiserver.pods if p.key == pod), None)
        if p is not None:
            bound = p.node_name or '""'
            out.append(PodPlace("apiserver", f"stored, spec.nodeName={bound}, phase {p.phase or '-'}"))
    return tuple(out)


def _holder_words(h: PodHolderView) -> str:
    words = _PHASE_WORDS.get(h.phase, h.phase)
    return words + (f" → {h.node}" if h.node else "")


def _cache_words(snap: Snapshot, pod: str, prev: Snapshot | None) -> str:
    ps = next((p for p in snap.cache.pod_states if p.key == pod), None) if snap.cache else None
    if ps is not None:
        return _cache_state(ps, snap)
    was = prev is not None and prev.cache is not None and any(p.key == pod for p in prev.cache.pod_states)
    if not was:
        return ""
    state = pod_state(snap, pod, prev)
    return {"Expired": "expired: dropped from the cache (never confirmed in time)",
            "Deleted": "removed from the cache (pod deleted)"}.get(state, "forgotten: taken out of the cache again")


def _cache_state(ps: object, snap: Snapshot) -> str:
    if not ps.assumed:
        return f"added on {ps.node_name}: the informer confirmed it (AddPod)"
    if not ps.binding_finished:
        return f"assumed on {ps.node_name} — binding not finished, no expiry yet"
    left = fmt_time(ps.deadline - snap.time) if ps.deadline is not None else "-"
    return f"assumed on {ps.node_name} — binding finished, expires in {left}"


def _find_queue(snapshot: Snapshot, name: str, kind: str) -> tuple[str, QueueView | None]:
    queues = snapshot.queues or {}
    if name in queues:
        return name, queues[name]
    for other, q in queues.items():
        if q.kind == kind:
            return other, q
    return name, None


def _row_mark(follow: bool, changed: bool) -> str:
    return "+".join(m for m, on in ((ROW_FOLLOW, follow), (ROW_CHANGED, changed)) if on)


def _as_at(snap: Snapshot, part: str) -> str:
    """A box title's note when ``part`` of a thinned snapshot shows an earlier event ("" if not)."""
    return f" (thinned: as at event #{snap.thinned_as_of})" if part in snap.thinned else ""


def _queue_node(g: graphviz.Digraph, node: str, title: str, q: QueueView | None,
                prev_q: QueueView | None, follow: str | None, stale: str = "") -> None:
    if q is None:
        g.node(node, **record_table(title, [], [], empty="(not created yet)", rankdir=RANKDIR), fontcolor=IDLE_FG)
        return
    before = {i.key for i in prev_q.items} if prev_q is not None else None
    items = {i.key: i for i in q.items}
    keys, hidden = cap(list(q.line), MAX_ROWS, follow)
    rows, marks = [], []
    for pos, key in enumerate(keys):
        item = items.get(key)
        detail = "ghost (no item)" if item is None else (
            ", ".join(item.deltas) if item.deltas else (f"node={item.node_name}" if item.node_name else "unassigned"))
        is_new = before is not None and key not in before
        rows.append([mark(pos + 1), mark(key, new=is_new, follow=key == follow), esc(detail)])
        marks.append(_row_mark(key == follow, is_new))
    footer = [f"… and {hidden} more keys"] if hidden > 0 else []
    if not q.populated or q.closed:
        footer.append(f"populated={q.populated}" + (" CLOSED" if q.closed else ""))
    g.node(node, **record_table(f"{title} — {len(q.line)} in line{stale}", ["#", "key", "item"], rows,
                                footer=footer, rankdir=RANKDIR, row_marks=marks))


def _apiserver_node(g: graphviz.Digraph, snap: Snapshot, prev: Snapshot | None, follow: str | None,
                    token_here: bool) -> None:
    api = snap.apiserver
    if api is None:
        g.node("apiserver", **record_table("API server (pods)", [], [], empty="(no API server in this run)", rankdir=RANKDIR))
        return
    before = {p.key: (p.node_name, p.phase) for p in prev.apiserver.pods} if prev and prev.apiserver else None
    pods = {p.key: p for p in api.pods}
    keys, hidden = cap(sorted(pods), MAX_ROWS, follow)
    rows, marks = [], []
    for key in keys:
        p = pods[key]
        changed = before is not None and before.get(key) != (p.node_name, p.phase)
        status = (p.phase or "-") + (" (deleting)" if p.deletion_timestamp is not None else "")
        rows.append([mark(key, new=changed, follow=key == follow), esc(p.node_name or "—unassigned—"), esc(status)])
        marks.append(_row_mark(token_here and key == follow, changed))
    footer = [f"… and {hidden} more pods"] if hidden > 0 else []
    g.node("apiserver", **record_table("API server (pods)", ["pod", "spec.nodeName", "phase"], rows,
                                       footer=footer, empty="(no pods)", rankdir=RANKDIR, row_marks=marks))


def _cache_node(g: graphviz.Digraph, snap: Snapshot, prev: Snapshot | None, follow: str | None) -> None:
    cache = snap.cache
    if cache is None:
        g.node("cache", **record_table("schedulerCache", [], [], empty="(not created yet)", rankdir=RANKDIR))
        return
    before = {p.key: (p.assumed, p.binding_finished) for p in prev.cache.pod_states} if prev and prev.cache else None
    states = {p.key: p for p in cache.pod_states}
    keys, hidden = cap(list(states), MAX_ROWS, follow)
    rows, marks = [], []
    for key in keys:
        p = states[key]
        changed = before is not None and before.get(key) != (p.assumed, p.binding_finished)
        state = ("assumed" + (", binding finished" if p.binding_finished else "")) if p.assumed else "added (confirmed)"
        ttl = (fmt_time(p.deadline - snap.time) if p.deadline is not None and p.binding_finished
               else ("not started" if p.assumed else ""))
        rows.append([mark(key, new=changed, follow=key == follow), esc(p.node_name), esc(state), esc(ttl)])
        marks.append(_row_mark(key == follow, changed))
    if follow and follow not in states:
        gone = _cache_words(snap, follow, prev)
        if gone:  # the token's last place: a ghost row saying why it left
            node = next((p.node_name for p in prev.cache.pod_states if p.key == follow), "") if prev and prev.cache else ""
            rows.append([mark(follow, follow=True), esc(node), esc(gone.split(":")[0]), " "])
            marks.append(_row_mark(True, True))
    footer = [f"… and {hidden} more pods"] if hidden > 0 else []
    footer.append(f"{len(cache.nodes)} nodes, {len(cache.assumed_pods)} assumed, ttl {fmt_time(cache.ttl)}")
    g.node("cache", **record_table("schedulerCache (podStates / assumedPods)" + _as_at(snap, "cache"),
                                   ["pod", "node", "state", "expires in"], rows, footer=footer,
                                   empty="(no pods)", rankdir=RANKDIR, row_marks=marks))


def _backoff_node(g: graphviz.Digraph, snap: Snapshot, follow: str | None) -> None:
    entries = snap.backoff or ()
    rows = [[mark(e.pod, follow=e.pod == follow), esc(f"next {e.backoff:g}s" + (" (in flight)" if e.in_flight else ""))]
            for e in entries[:MAX_ROWS]]
    marks = [_row_mark(e.pod == follow, False) for e in entries[:MAX_ROWS]]
    footer = [f"… and {len(entries) - MAX_ROWS} more entries"] if len(entries) > MAX_ROWS else []
    g.node("backoff", **record_table("podBackoff", ["pod", "delay"], rows, footer=footer, rankdir=RANKDIR,
                                     row_marks=marks))


def _holder_node(g: graphviz.Digraph, node: str, title: str, idle: str, holders: list[PodHolderView],
                 steps: tuple[tuple[str, tuple[str, ...]], ...], follow: str | None) -> None:
    """A goroutine box: what it holds, and its steps with the current one lit (record fields:
    0 title, 1 holding line, 2… steps)."""
    mine = next((h for h in holders if h.pod == follow), holders[0] if holders else None)
    if mine is None:
        holding = idle
    else:
        holding = (FOLLOW_WORD if mine.pod == follow else "holds ") + mine.pod + (f" → {mine.node}" if mine.node else "")
        if len(holders) > 1:
            holding += f"  (+{len(holders) - 1} more)"
    fields = [esc(title), esc(holding), "{" + "|".join(esc(name) for name, _ in steps) + "}"]
    label = "|".join(fields)
    attrs_ = {"label": "{" + label + "}" if RANKDIR == "TB" else label, "shape": "record", "style": "rounded"}
    lit = []
    if mine is not None:
        here = ROW_FOLLOW if mine.pod == follow else ROW_CHANGED
        step = next((i for i, (_, stages) in enumerate(steps) if mine.phase in stages), None)
        lit.append(f"{here}:1")
        if step is not None:
            lit.append(f"{here}:{2 + step}")
    else:
        attrs_["fontcolor"] = IDLE_FG
    if lit:
        attrs_[ROWS_ATTR] = ";".join(lit)
    g.node(node, **attrs_)


FOLLOW_WORD = "▶ holds "


def _legend(g: graphviz.Digraph) -> None:
    fields = ["legend", "▶ gold: where the followed pod is", "blue outline: changed by this step",
              "✚ new since the previous step", "blue arrow: the step just taken", "dashed: periodic / retry path"]
    label = "|".join(esc(f) for f in fields)
    g.node("legend", label="{" + label + "}" if RANKDIR == "TB" else label, shape="record", fontsize="9",
           **{ROWS_ATTR: f"{ROW_FOLLOW}:1;{ROW_CHANGED}:2"})


def _caption(snap: Snapshot, places: tuple[PodPlace, ...], follow: str | None) -> str:
    title = (f"pipeline — t={snap.time:.3f}s  event #{snap.seq}" + (f"  [{snap.stage}]" if snap.stage else "")
             + thinned_caption(snap))
    if not follow:
        return title
    if not places:
        return f"{title}\\l▶ {follow}: not in the API server or the scheduler (yet)\\l"
    words = {"scheduleOne": "scheduleOne holds {pod} — {d}", "bind": "the bind goroutine holds {pod} — {d}",
             "processLoop": "the assigned-pod processLoop holds {pod} — {d}", "podQueue": "{pod} waits in podQueue — {d}",
             "deltaFIFO": "{pod}'s deltas wait in the DeltaFIFO — {d}", "backoff": "{pod} is in podBackoff — {d}",
             "cache": "schedulerCache: {pod} {d}", "apiserver": "{pod} is only in the API server — {d}"}
    lines = [words[p.place].format(pod=follow, d=p.detail) for p in places]
    # "\l" ends a left-justified line in a Graphviz label: the sentences read as a paragraph
    return title + "\\l▶ " + lines[0] + "".join(f"\\l    also {line}" for line in lines[1:]) + "\\l"


def pipeline(snapshot: Snapshot, previous_snapshot: Snapshot | None = None, *,
             follow_pod: str | None = None) -> graphviz.Digraph:
    """Draw the multi-queue pod flow of ``snapshot`` (see the module docstring)."""
    snap, prev, follow = snapshot, previous_snapshot, follow_pod
    places = pod_places(snap, follow, prev) if follow else ()
    g = new_digraph("pipeline", rankdir=RANKDIR, label=_caption(snap, places, follow))
    g.attr(fontsize="13", labeljust="l", nodesep="0.25", ranksep="0.35", newrank="true")
    _apiserver_node(g, snap, prev, follow, token_here=any(p.place == "apiserver" for p in places))
    qname, q = _find_queue(snap, POD_QUEUE, "FIFO")
    prev_q = (prev.queues or {}).get(qname) if prev else None
    _queue_node(g, "podQueue", "podQueue (FIFO)", q, prev_q, follow, _as_at(snap, f"queues.{qname}"))
    dname, d = _find_queue(snap, ASSIGNED_QUEUE, "DeltaFIFO")
    prev_d = (prev.queues or {}).get(dname) if prev else None
    _queue_node(g, "deltaFIFO", "DeltaFIFO (assigned pods)", d, prev_d, follow, _as_at(snap, f"queues.{dname}"))
    nq = (snap.queues or {}).get(NODE_QUEUE)
    prev_n = (prev.queues or {}).get(NODE_QUEUE) if prev else None
    _queue_node(g, "nodeQueue", "DeltaFIFO (node informer)", nq, prev_n, None, _as_at(snap, f"queues.{NODE_QUEUE}"))
    _cache_node(g, snap, prev, follow)
    _backoff_node(g, snap, follow)
    holders: dict[str, list[PodHolderView]] = {}
    for h in snap.holders or ():
        holders.setdefault(h.holder, []).append(h)
    _holder_node(g, "scheduleOne", "scheduleOne (sched.Run loop)", "waiting in NextPod (Pop)",
                 holders.get("scheduleOne", []), SCHEDULE_ONE_STEPS, follow)
    _holder_node(g, "bind", "bind goroutine (go func)", "no binding in flight",
                 holders.get("bind", []), BIND_STEPS, follow)
    _holder_node(g, "processLoop", "processLoop (assigned-pod informer)", "waiting in Pop",
                 holders.get("processLoop", []), PROCESS_LOOP_STEPS, follow)
    g.node("cleanup", "cleanupAssumedPods\n(every 1s)", shape="box", style="rounded,dashed")
    add_pod_source(g, snap)  # kube-controller-manager, when the world runs it (viz/controllers.py)
    _legend(g)
    for group in (("apiserver", "legend"), ("backoff", "podQueue", "deltaFIFO", "nodeQueue"),
                  ("scheduleOne", "processLoop", "cleanup"), ("bind", "cache")):
        same_rank(g, group)
    for src, dst, label, stages in _EDGES:
        active = snap.stage in stages
        style = {"color": ACTIVE, "penwidth": "3", "fontcolor": ACTIVE} if active else {}
        if src in _DASHED or dst in _DASHED:
            style.setdefault("style", "dashed")
        if (src, dst) == ("bind", "apiserver"):
            style["constraint"] = "false"
        g.edge(src, dst, label=label, **style)
    return g
