"""``sim.show(view)``: the Graphviz views for the snapshot at the simulation's cursor.

Go: none — kschedlearn-only. Chooses the previous snapshot (for change highlighting) and the
followed pod, and for the ``decision`` view the latest scheduling attempt of that pod.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kschedlearn import viz
from kschedlearn.simulation import arguments as args

if TYPE_CHECKING:
    from kschedlearn.simulation.simulation import Simulation


def previous_snapshot(sim: Simulation) -> Any:
    """The last snapshot recorded strictly before the cursor's."""
    current = sim.snapshot
    for i in range(sim.cursor - 1, -1, -1):
        snap = sim.snapshot_at(i)
        if snap is not None and snap is not current:
            return snap
        if snap is None:  # (none recorded before this one either)
            return None
    return None


def show_view(sim: Simulation, view: str, *, renderer: str = "auto", pod: str | None = None, **kwargs: Any) -> viz.View:
    """Build ``view`` for the current snapshot, following ``pod`` (default: the scenario's)."""
    from kschedlearn.viz.render import RENDERERS

    # checked here, not when Jupyter first draws the view (an error in a repr is shown as a warning)
    args.one_of("show", "view", view, sorted(viz.VIEWS))
    args.one_of("show", "renderer", renderer, RENDERERS)
    follow = pod or sim.follow or None
    snap = sim.snapshot
    if snap is None:
        raise ValueError("no snapshot yet: call sim.start() (or run with snapshots=True)")
    if view == "decision":
        decisions = sim.decision(follow) if follow else []
        kwargs.setdefault("record", decisions[-1] if decisions else None)
    return viz.show(view, snap, previous_snapshot(sim), follow_pod=follow, renderer=renderer, **kwargs)
