"""Snapshots on demand: ``Simulation(snapshots="on-demand")``.

Go: none — kschedlearn-only (DESIGN §7). Teaching mode takes a snapshot at every event as it is
recorded, and at cluster scale that costs more than the run itself (``benchmarks/README.md``: a
1,000-node replay runs ~8x the bare algorithm with a snapshot at every event, ~3.5x without).
A replay is mostly run to its end and then looked at in a few places. So in this mode the
simulation records its events without snapshots, and the state at an event is built when it is
first asked for, by a *twin*: a second world of the same scenario, seed, engine and record
level that does take a snapshot at every event, run — with the same hand-made changes re-applied
where they were made (``history.replay``) — only as far as somebody has looked.

The run is deterministic, so the twin records the very events the simulation recorded, and its
snapshot of event ``i`` is the one teaching mode would have stored on event ``i``
(``tests/simulation/test_on_demand.py`` compares every event of several scenarios). Each looked-at
event's stage, time and message are compared with the simulation's own, so a twin that went
another way (something changed the live world behind the history's back) is an error, never a
wrong picture.

What it costs: looking at event ``i`` for the first time runs the twin from where it stands to
``i`` at teaching mode's pace; every event before the furthest one looked at is then answered
at once. A fork of the simulation's history (a change made in the past) discards the twin.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from kschedlearn.simulation import lifetime
from kschedlearn.simulation.checks import SimulationError
from kschedlearn.simulation.history import Injection, replay

if TYPE_CHECKING:
    from kschedlearn.simulation.simulation import Simulation
    from kschedlearn.simulation.world import World
    from kschedlearn.trace.snapshot import Snapshot

#: ``Simulation(snapshots=ON_DEMAND)``
ON_DEMAND = "on-demand"


@attrs.define(eq=False)
class Twin:
    """The world that takes the snapshots of an on-demand simulation (see the module docstring).

    ``applied``: how many of the simulation's injections it has re-applied so far.
    """

    world: World
    applied: int = 0

    def reach(self, injections: list[Injection], target: int) -> None:
        """Run on until event ``target`` is recorded, re-applying the injections made before it."""
        events = self.world.tracer.events
        if events and events[-1].seq >= target:
            return
        _, done = replay(self.world, injections, target, applied=self.applied)
        self.applied = len(done)

    def snapshot(self, seq: int) -> Snapshot | None:
        events = self.world.tracer.events
        return events[seq].snapshot if seq < len(events) else None

    def close(self) -> None:
        self.world.close()
        lifetime.abandon(self.world.runtime)


def snapshot_at(sim: Simulation, seq: int) -> Snapshot | None:
    """The snapshot of event ``seq`` of ``sim`` (on demand): built by the twin, which runs on to
    it if it has not got there yet."""
    trace = sim.trace
    if not 0 <= seq < len(trace):
        return None
    twin = sim._twin
    if twin is None:
        twin = sim._twin = Twin(lifetime.new_world(sim, snapshots=True))
    twin.reach(sim._injections, seq)
    mine, theirs = trace[seq], twin.world.tracer.events
    if seq >= len(theirs) or not _same_event(mine, theirs[seq]):
        got = theirs[seq] if seq < len(theirs) else None
        raise SimulationError(
            f"snapshot of event {seq}: the twin world that builds on-demand snapshots recorded "
            + (f"{got.stage} at t={got.time:g}s ({got.message!r})" if got is not None else "no such event")
            + f" where this simulation recorded {mine.stage} at t={mine.time:g}s ({mine.message!r}); was the "
            "live world changed outside sim.inject / apply_external? Use snapshots=True to record them as it runs")
    return twin.snapshot(seq)


def own_snapshot(sim: Simulation, seq: int) -> Snapshot | None:
    """The snapshot of event ``seq`` itself: the one stored on it (teaching mode; None between
    two with ``snapshot_every`` > 1, or without snapshots), or built for it (on demand)."""
    if sim.snapshots == ON_DEMAND:
        return snapshot_at(sim, seq)
    trace = sim.trace
    return trace[seq].snapshot if 0 <= seq < len(trace) else None


def _same_event(a: Any, b: Any) -> bool:
    return a.seq == b.seq and a.stage == b.stage and a.time == b.time and a.message == b.message


def forget(sim: Simulation) -> None:
    """The simulation's history forked: the twin ran a past that is gone."""
    twin, sim._twin = sim._twin, None
    if twin is not None:
        twin.close()


__all__ = ["ON_DEMAND", "Twin", "snapshot_at", "own_snapshot", "forget"]
