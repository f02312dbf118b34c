"""The ``cache`` view: the scheduler cache's nodes, their pods and resource use.

Go: none — kschedlearn-only (DESIGN §8); draws the scheduler cache's view (``observe.views.cache_state``)
(schedulercache/cache.go's ``nodes`` map of NodeInfo and ``podStates`` / ``assumedPods``).
Each node shows requested vs allocatable CPU, memory and pod count as text bars; assumed pods
are marked with their TTL countdown (``deadline - now``, which only starts at FinishBinding).
At most ``MAX_NODES`` nodes are drawn; the rest are summarised in one box.
"""

from __future__ import annotations

import graphviz

from kschedlearn.trace.cache_view import NodeDebugState, PodDebugState
from kschedlearn.trace.snapshot import Snapshot
from kschedlearn.viz._common import (
    IDLE_FG, MAX_NODES, MAX_ROWS, NEW_FG, cap, esc, fmt_mem, fmt_time, mark, new_digraph, node_id,
    record_table, text_bar, thinned_caption,
)


def _pod_line(key: str, ps: PodDebugState | None, now: float) -> str:
    if ps is None or not ps.assumed:
        return key
    if ps.binding_finished and ps.deadline is not None:
        return f"{key}  ⏳ assumed, bound, expires in {fmt_time(ps.deadline - now)}"
    return f"{key}  ⏳ assumed (binding…)"


def _node_attrs(n: NodeDebugState, prev: NodeDebugState | None, states: dict[str, PodDebugState],
                now: float, follow: str | None) -> dict[str, str]:
    req, alloc = n.requested, n.allocatable
    cpu_changed = prev is not None and prev.requested.milli_cpu != req.milli_cpu
    mem_changed = prev is not None and prev.requested.memory != req.memory
    rows = [
        [esc("cpu"), mark(f"{text_bar(req.milli_cpu, alloc.milli_cpu)} {req.milli_cpu}m / {alloc.milli_cpu}m",
                          new=cpu_changed)],
        [esc("memory"), mark(f"{text_bar(req.memory, alloc.memory)} {fmt_mem(req.memory)} / {fmt_mem(alloc.memory)}",
                             new=mem_changed)],
        [esc("pods"), esc(f"{text_bar(len(n.pods), n.allowed_pod_number)} {len(n.pods)} / {n.allowed_pod_number}")],
    ]
    if req.nvidia_gpu or alloc.nvidia_gpu:
        rows.append([esc("gpu"), esc(f"{req.nvidia_gpu} / {alloc.nvidia_gpu}")])
    before = set(prev.pods) if prev is not None else None
    shown, hidden = cap(list(n.pods), MAX_ROWS, follow)
    for key in shown:
        rows.append([esc("pod"), mark(_pod_line(key, states.get(key), now),
                                      new=before is not None and key not in before, follow=key == follow)])
    footer = ([f"… and {hidden} more pods"] if hidden > 0 else []) + [f"generation {n.generation}"]
    title = n.name + ("" if n.has_node else "  (node object gone)")
    return record_table(title, [], rows, footer=footer, rankdir="LR")


def cache(snapshot: Snapshot, previous_snapshot: Snapshot | None = None, *,
          follow_pod: str | None = None) -> graphviz.Digraph:
    """Draw the scheduler cache of ``snapshot`` (see the module docstring)."""
    snap, follow = snapshot, follow_pod
    g = new_digraph("cache", rankdir="LR", label=f"scheduler cache — t={snap.time:.3f}s  event #{snap.seq}"
                    + thinned_caption(snap, ("cache",)))
    c = snap.cache
    if c is None:
        g.node("empty", "the scheduler cache has not been created yet", shape="note", fontcolor=IDLE_FG)
        return g
    prev_nodes = ({n.name: n for n in previous_snapshot.cache.nodes}
                  if previous_snapshot is not None and previous_snapshot.cache is not None else {})
    states = {p.key: p for p in c.pod_states}
    g.node("summary", f"ttl {fmt_time(c.ttl)}  |  {len(c.nodes)} nodes  |  {len(c.pod_states)} pods, "
           f"{len(c.assumed_pods)} assumed", shape="note")
    nodes = list(c.nodes)
    if follow is not None:  # keep the followed pod's node visible even past the cap
        host = next((i for i, n in enumerate(nodes) if follow in n.pods), None)
        if host is not None and host >= MAX_NODES:
            nodes.insert(0, nodes.pop(host))
    for n in nodes[:MAX_NODES]:
        is_new = previous_snapshot is not None and n.name not in prev_nodes
        attrs = _node_attrs(n, prev_nodes.get(n.name), states, snap.time, follow)
        if is_new:
            attrs.update(color=NEW_FG, penwidth="3")
        g.node(node_id("node", n.name), **attrs)
    if len(nodes) > MAX_NODES:
        g.node("more", f"… and {len(nodes) - MAX_NODES} more nodes", shape="box", style="dashed")
    placed = {k for n in c.nodes for k in n.pods}
    orphans = [p.key for p in c.pod_states if p.key not in placed]
    if orphans:
        g.node("orphans", "pod states without a NodeInfo:\n" + "\n".join(orphans[:MAX_ROWS]),
               shape="box", color=NEW_FG)
    return g
