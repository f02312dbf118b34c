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
    ACTIVE, FOLLOW_BG, IDLE_FG, MAX_ROWS, VISITED_BG, esc, mark, new_digraph,
)
from kschedlearn.viz.controllers import add_startup_box
from kschedlearn.viz.dot import same_rank

# (label, Go file, stages that mean "reached", Python function names on the stack); the Go file is
# in the v1.6.1 tree, written without its plugin/cmd/kube-scheduler/, plugin/pkg/scheduler/, pkg/ or
# staging/src/k8s.io/ prefix (main keeps its full path: two files are called scheduler.go)
CHAIN: tuple[tuple[str, str, tuple[str, ...], tuple[str, ...]], ...] = (
    ("main", "plugin/cmd/kube-scheduler/scheduler.go", ("main",), ("main",)),
    ("NewSchedulerServer", "app/options/options.go", ("NewSchedulerServer",), ("new_scheduler_server",)),
    # main's four set-up calls share one row: flags parsed, logs routed, --version honoured
    ("AddFlags · InitFlags · InitLogs", "plugin/cmd/kube-scheduler/scheduler.go",
     ("main.AddFlags", "main.InitFlags", "main.InitLogs", "main.PrintAndExitIfRequested"),
     ("add_flags", "init_flags", "init_logs", "print_and_exit_if_requested")),
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
    ("NewFromConfigurator", "scheduler.go", ("NewFromConfigurator",), ("new_from_configurator",)),
    ("schedulerConfigurator.Create", "app/configurator.go", ("schedulerConfigurator.Create",), ()),
    ("CreateFromProvider", "factory/factory.go", ("CreateFromProvider",), ("create_from_provider",)),
    ("CreateFromKeys", "factory/factory.go", ("CreateFromKeys",), ("create_from_keys",)),
    ("ConfigFactory.Run", "factory/factory.go", ("ConfigFactory.Run",), ()),
    # ConfigFactory.Run starts the assigned-pod and node informers: each controller.Run makes
    # its Reflector (controller.go L97-L122)
    ("controller.Run · NewReflector", "client-go/tools/cache/controller.go", ("controller.Run", "NewReflector"), ()),
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


def _goroutine_rows(snap: Snapshot, prev: Snapshot | None) -> list[tuple[str, dict[str, str]]]:
    """One small box per goroutine: the running one gold, the ones new since the previous
    snapshot outlined (only those are lit, never the whole list)."""
    gs = snap.goroutines or ()
    before = {g.gid for g in prev.goroutines} if prev is not None and prev.goroutines else None
    limit = MAX_ROWS * 3
    rows = []
    for g in gs[:limit]:
        is_new = before is not None and g.gid not in before
        current = g.name == snap.goroutine
        state = g.state + (f": {g.waiting_on}" if g.waiting_on else "")
        state = state if len(state) <= 32 else state[:31] + "…"
        style = {"shape": "box", "fontsize": "9", "height": "0.25", "margin": "0.06,0.02", "color": "#bbbbbb"}
        if current:
            style.update(style="filled", fillcolor=FOLLOW_BG)
        if is_new:
            style.update(color=ACTIVE, penwidth="2")
        rows.append((mark(f"{g.process}/{g.name}  ·  {state}", new=is_new, follow=current), style))
    if len(gs) > limit:
        rows.append((f"… and {len(gs) - limit} more goroutines", {"shape": "plaintext", "fontsize": "9"}))
    return rows


def _stack_rows(snap: Snapshot) -> list[tuple[str, dict[str, str]]]:
    frames = snap.stack or ()
    style = {"shape": "box", "fontsize": "9", "height": "0.25", "margin": "0.06,0.02", "color": "#bbbbbb"}
    return [(esc(f"{f.function}  ·  {f.module}:{f.line}"), style) for f in frames[-MAX_ROWS:]]


def _columns(g: graphviz.Digraph, prefix: str, title: str, rows: list[tuple[str, dict[str, str]]],
             empty: str, height: int) -> list[list[str]]:
    """Titled columns of boxes, top to bottom, at most ``height`` boxes each (a long list wraps
    into the next column instead of making the picture tall); returns each column's node ids
    (the first column starts with the title, the others with an empty spacer)."""
    rows = rows or [(empty, {"shape": "plaintext", "fontsize": "9", "fontcolor": IDLE_FG})]
    out = []
    for k in range(0, len(rows), height):
        head = f"{prefix}_title" if k == 0 else f"{prefix}_top{k}"
        g.node(head, title if k == 0 else " ", shape="plaintext", fontsize="10")
        ids = [head]
        for i, (label, style) in enumerate(rows[k:k + height], start=k):
            ids.append(f"{prefix}{i}")
            g.node(ids[-1], label, **style)
        for a, b in zip(ids, ids[1:]):
            g.edge(a, b, style="invis", weight="10")
        out.append(ids)
    return out


def startup(snapshot: Snapshot, previous_snapshot: Snapshot | None = None, *,
            follow_pod: str | None = None) -> graphviz.Digraph:
    """Draw the startup call chain of ``snapshot`` (see the module docstring)."""
    snap = snapshot
    g = new_digraph("startup", rankdir="TB",
                    label=f"startup — t={snap.time:.3f}s  event #{snap.seq}" + (f"  [{snap.stage}]" if snap.stage else ""))
    # Three columns whose rows share ranks (chain frame i, goroutine i, stack frame i): no table
    # is taller than a rank, so the chain has no gaps, and the picture stays about as wide as tall.
    g.attr(labeljust="l", nodesep="0.12", ranksep="0.12", newrank="true")
    states = _frame_states(snap)
    prev_states = _frame_states(previous_snapshot) if previous_snapshot is not None else None
    chain = ["chain_title"]
    g.node("chain_title", "call chain", shape="plaintext", fontsize="10")
    for i, ((label, where, _, _), state) in enumerate(zip(CHAIN, states)):
        style: dict[str, str] = {"shape": "box", "style": "rounded", "fontsize": "9", "height": "0.25",
                                 "margin": "0.06,0.02"}
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
        g.node(f"f{i}", f"{label}  ·  {where}", **style)
        chain.append(f"f{i}")
    g.edge("chain_title", "f0", style="invis")
    for i in range(len(CHAIN) - 1):
        g.edge(f"f{i}", f"f{i + 1}", color=IDLE_FG if states[i + 1] == "ahead" else "black",
               arrowsize="0.5", weight="10")
    gs = snap.goroutines or ()
    goroutines = _columns(g, "g", f"goroutines started so far ({len(gs)})", _goroutine_rows(snap, previous_snapshot),
                          "(none yet)", len(CHAIN))
    stack = _columns(g, "s", f"call stack of {snap.goroutine or '—'} (innermost last)", _stack_rows(snap),
                     "(no stack recorded)", len(CHAIN))
    columns = [chain, *goroutines, *stack]
    for level in range(max(len(col) for col in columns)):
        same = [col[level] for col in columns if level < len(col)]
        if len(same) > 1:
            same_rank(g, same)
    add_startup_box(g, snap)  # kube-controller-manager, when the world runs it (viz/controllers.py)
    return g
