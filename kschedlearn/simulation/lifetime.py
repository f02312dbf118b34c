"""A Simulation's worlds: built with the recording it asked for, closed when no longer used,
and what a thinned recording leaves out of its views.

Go: none — kschedlearn-only (DESIGN §7).

greenlet never frees a suspended greenlet, and a goroutine's frames hold its whole world (API
server, caches, trace): without closing, every Simulation a notebook or a test suite builds,
and every fork, would stay in memory until the process exits. A world is closed
(``Runtime.close``: its goroutines unwound) when its Simulation forks away from it or is freed.
"""

from __future__ import annotations

import sys
import weakref
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kschedlearn.simulation.simulation import Simulation
    from kschedlearn.simulation.world import World

#: runtimes of discarded worlds waiting to be closed at a safe point
_ABANDONED: list[Any] = []


def new_world(sim: Simulation, *, snapshots: bool | None = None) -> World:
    """A fresh world for ``sim`` (closed when ``sim`` is freed). ``snapshots``: whether it takes
    a snapshot at every event (default: when ``sim.snapshots`` is True; the twin of an
    on-demand simulation asks for them, ``on_demand.py``)."""
    # The plugin registry is copied once, when the first world is built: replays (forks)
    # then schedule with exactly the same predicates and priorities as the original run.
    if sim._registry is None:
        from kschedlearn.scheduler.factory.plugins import copy_registry

        sim._registry = copy_registry()
    from kschedlearn.sim.gc_policy import no_collections
    from kschedlearn.simulation.world import build_world

    close_abandoned()
    # no collections while the world is filled: its objects are all kept, a collection could only
    # walk them (150,000 pods: sim/gc_policy.py)
    with no_collections():
        world = build_world(sim.scenario, sim.seed, snapshots=(sim.snapshots is True) if snapshots is None else snapshots,
                            snapshot_every=sim.snapshot_every if snapshots is None else 1,
                            log_verbosity=sim.log_verbosity, registry=sim._registry, engine=sim.engine,
                            record=sim.record)
    closing = weakref.finalize(sim, abandon, world.runtime)
    closing.atexit = False  # (at exit the process's memory goes anyway: no unwinding then)
    return world


def abandon(runtime: Any) -> None:
    """Close a discarded world's runtime — at once from the main greenlet, else (a collection
    that ran inside some goroutine, or inside an import) at the next :func:`close_abandoned`."""
    import greenlet

    _ABANDONED.append(runtime)
    if greenlet.getcurrent().parent is None and not _importing(sys._getframe(1)):
        close_abandoned()


def _importing(frame: Any) -> bool:
    """Whether ``frame`` runs inside the import machinery: a collection can free a Simulation at
    any allocation, an import's too, and unwinding its goroutines there runs their ``finally``
    blocks, whose own imports would take the import system's per-thread lock bookkeeping inside
    the one in progress (CPython 3.11: ``KeyError`` in ``_ModuleLock.acquire``)."""
    while frame is not None:
        if frame.f_code.co_filename.startswith("<frozen importlib."):
            return True
        frame = frame.f_back
    return False


def close_abandoned() -> None:
    """Close the runtimes of worlds no Simulation uses any more (from the main greenlet only)."""
    import greenlet

    if not _ABANDONED or greenlet.getcurrent().parent is not None:
        return
    from kschedlearn.trace.core import forget_frames

    while _ABANDONED:
        _ABANDONED.pop().close()
    forget_frames()


def action_problem(action: Any) -> str:
    """``world.action_problem`` (imported when first needed)."""
    from kschedlearn.simulation.world import action_problem as problem

    return problem(action)


def thinned(record: str, engine: str) -> str:
    """"" when every event is recorded; else a sentence saying which ones are not."""
    if record == "event":
        return ""
    return (f"recorded at {record} granularity: per-node verdicts, log lines and queue/watch events are not "
            f"kept, so a step by event moves over the {record}-level events only"
            + ("; the accelerated engine's score tables and rankings keep the best nodes"
               if engine == "accelerated" else ""))


def thinning_note(sim: Simulation) -> str:
    """What the views at ``sim``'s cursor leave out ("" when nothing): a thinned history, or a
    snapshot taken before the cursor (``snapshot_every`` > 1: the views show that event's state)."""
    from kschedlearn.simulation.on_demand import ON_DEMAND

    thin = thinned(sim.record, sim.engine)
    notes = [thin] if thin else []
    if sim.snapshots == ON_DEMAND and sim.cursor >= 0:  # (every event's own: never an earlier one)
        snap = sim.snapshot
        if snap is not None and snap.thinned:
            notes.append(_thinned_parts(snap))
    elif sim.snapshots and sim.cursor >= 0:
        for i in range(sim.cursor, -1, -1):
            snap = sim.trace[i].snapshot
            if snap is not None:
                if i != sim.cursor:
                    notes.append(f"the views show the state at event {i} (a snapshot every {sim.snapshot_every} events)")
                if snap.thinned:
                    notes.append(_thinned_parts(snap))
                break
    return "; ".join(notes)


def _thinned_parts(snap: Any) -> str:
    """A thinned snapshot's parts, which event they show and why (``Snapshot.thinned``)."""
    names = [("the cache" if p == "cache" else f"the {p.split('.', 1)[1]} queue") for p in snap.thinned]
    return f"{' and '.join(names)} show the state at event {snap.thinned_as_of}, {snap.thinned_why}"


__all__ = ["new_world", "abandon", "close_abandoned", "action_problem", "thinned", "thinning_note"]
