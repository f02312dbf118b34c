"""The ``startup`` view: the call chain from ``main`` to ``scheduleOne``.

Go: none — kschedlearn-only (DESIGN §8, the seed article's startup walk). Frames whose stage was
seen are filled green; frames passed without a trace point of their own (a later frame was seen)
are dashed; the frame of the current event (``snapshot.stage`` or a function on the paused
goroutine's ``stack``) is blue. The goroutines started so far are listed beside the chain.
"""

from __future__ import annotations

import graphviz

from kschedlearn.trace.snapshot import Snapshot
from kschedlearn.viz._common import (
    ACTIVE, IDLE_FG, MAX_ROWS, VISITED_BG, esc, mark, new_digraph, record_table,
)

# (label, Go file, stages that mean "reached", Python function names on the stack); the Go file is
# in the v1.6.1 tree, written without its plugin/cmd/kube-scheduler/, plugin/pkg/scheduler/, pkg/ or
# staging/src/k8s.io/ prefix (main keeps its full path: two files are called scheduler.go)
CHAIN: tuple[tuple[str, str, tuple[str, ...], tuple[str, ...]], ...] = (
    ("main", "plugin/cmd/kube-scheduler/scheduler.go", ("main",), ("main",)),
    ("NewSchedulerServer", "app/options/options.go", ("NewSchedulerServer",), ("new_scheduler_server",)),
    ("app.Run", "app/server.go", ("Run",), ("run",)),
    ("createClient", "app/configurator.go", ("createClient",), ("create_client",)),
    ("createRecorder", "app/configurator.go", ("createRecorder",), ("create_recorder",)),
    ("NewSharedInformerFactory", "client/informers/informers_generated/externalversions/factory.go", ("NewSharedInformerFactory",),
     ("new_shared_informer_factory",)),
    ("createScheduler", "app/configurator.go", ("createScheduler",), ("create_scheduler",)),
    ("NewConfigFactory", "factory/factory.go", ("NewConfigFactory",), ("new_config_factory",)),
    ("schedulercache.New", "schedulercache/cache.go", ("schedulercache.New",), ("new",)),
    ("NewIndexerInformer", "client-go/tools/cache/controller.go", ("NewIndexerInformer",),
     ("new_indexer_informer",)),
    ("CreateFromProvider", "factory/factory.go", ("CreateFromProvider",), ("create_from_provider",)),
    ("CreateFromKeys", "factory/factory.go", ("CreateFromKeys",), ("create_from_keys",)),
    ("ConfigFactory.Run", "factory/factory.go", ("ConfigFactory.Run",), ()),
    ("startHTTP", "app/server.go", ("startHTTP",), ("start_http",)),
    ("informerFactory.Start", "client/informers/informers_generated/externalversions/factory.go", ("informerFactory.Start",), ()),
    ("leader election", "client/leaderelection/leaderelection.go",
     ("leaderelection.start", "leaderelection.acquire", "leaderelection.renew"), ("acquire", "run_leader_election")),
    ("Scheduler.Run", "scheduler.go", ("Scheduler.Run",), ()),
    ("scheduleOne", "scheduler.go",
     ("scheduleOne.pop", "schedule.predicates", "schedule.predicate_node", "schedule.priorities",
      "selectHost", "assume", "bind"), ("schedule_one",)),
)


def _frame_states(snap: Snapshot) -> list[str]:
    """Per CHAIN entry: "current", "visited", "passed" or "ahead"."""
    seen = set(snap.stages_seen)
    on_stack = {f.function.rsplit(".", 1)[-1] for f in (snap.stack or ())}
    reached = [bool(seen.intersection(stages)) for _, _, stages, _ in CHAIN]
    last = max((i for i, r in enumerate(reached) if r), default=-1)
    current = next((i for i in range(len(CHAIN) - 1, -1, -1) if snap.stage in CHAIN[i][2]), None)
    if current is None and on_stack:
        current = next((i for i in range(len(CHAIN) - 1, -1, -1)
                        if on_stack.intersection(CHAIN[i][3]) and (reached[i] or i <= last + 1)), None)
    states = []
    for i in range(len(CHAIN)):
        if i == current:
            states.append("current")
        elif reached[i]:
            states.append("visited")
        elif i < last:
            states.append("passed")
        else:
            states.append("ahead")
    return states


def _goroutines_attrs(snap: Snapshot, prev: Snapshot | None) -> dict[str, str]:
    gs = snap.goroutines or ()
    before = {g.gid for g in prev.goroutines} if prev is not None and prev.goroutines else None
    limit = MAX_ROWS * 3
    rows = []
    for g in gs[:limit]:
        is_new = before is not None and g.gid not in before
        state = g.state + (f": {g.waiting_on}" if g.waiting_on else "")
        rows.append([mark(f"{g.process}/{g.name}", new=is_new, follow=g.name == snap.goroutine), esc(state)])
    footer = [f"… and {len(gs) - limit} more goroutines"] if len(gs) > limit else []
    return record_table(f"goroutines started so far ({len(gs)})", ["process/goroutine", "state"], rows,
                        footer=footer, empty="(none yet)")


def _stack_attrs(snap: Snapshot) -> dict[str, str]:
    frames = snap.stack or ()
    rows = [[esc(f.function), esc(f"{f.module}:{f.line}")] for f in frames[-MAX_ROWS:]]
    return record_table(f"call stack of {snap.goroutine or '—'} (innermost last)", ["function", "where"], rows,
                        empty="(no stack recorded)")


def startup(snapshot: Snapshot, previous_snapshot: Snapshot | None = None, *,
            follow_pod: str | None = None) -> graphviz.Digraph:
    """Draw the startup call chain of ``snapshot`` (see the module docstring)."""
    snap = snapshot
    g = new_digraph("startup", rankdir="TB",
                    label=f"startup — t={snap.time:.3f}s  event #{snap.seq}" + (f"  [{snap.stage}]" if snap.stage else ""))
    states = _frame_states(snap)
    prev_states = _frame_states(previous_snapshot) if previous_snapshot is not None else None
    with g.subgraph(name="cluster_chain") as c:
        c.attr(label="call chain", style="rounded", color="#bbbbbb")
        for i, ((label, where, _, _), state) in enumerate(zip(CHAIN, states)):
            style: dict[str, str] = {"shape": "box", "style": "rounded"}
            if state == "current":
                style.update(style="rounded,filled,bold", fillcolor=ACTIVE, fontcolor="white", penwidth="2")
            elif state == "visited":
                style.update(style="rounded,filled", fillcolor=VISITED_BG)
            elif state == "passed":
                style.update(style="rounded,dashed")
            else:
                style.update(fontcolor=IDLE_FG, color=IDLE_FG)
            if prev_states is not None and prev_states[i] == "ahead" and state != "ahead":
                style["penwidth"] = "3"  # newly reached since the previous snapshot
            c.node(f"f{i}", f"{label}\n{where}", **style)
        for i in range(len(CHAIN) - 1):
            c.edge(f"f{i}", f"f{i + 1}", color=IDLE_FG if states[i + 1] == "ahead" else "black")
    g.node("goroutines", **_goroutines_attrs(snap, previous_snapshot))
    g.node("stack", **_stack_attrs(snap))
    g.edge("goroutines", "stack", style="invis")
    return g
