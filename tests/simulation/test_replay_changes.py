"""A fork replays the history's changes made by hand exactly where they were made
(``history.replay``), whatever the world was doing then: paused at an event (twice at one),
stopped at a time by ``run_for``, or not run at all yet.

Three fixed bugs (session 17): the replay re-applied the second of two changes made at one
paused event an event late (the first change's own "inject" event made it run on); a change
made after ``run_for`` after the next event instead of at that time (it ran on to an event);
and a change made before anything ran after the goroutines' first statements."""

from __future__ import annotations

import warnings
from collections.abc import Callable

import pytest

from kschedlearn import Simulation
from kschedlearn.simulation.on_demand import ON_DEMAND

EXTRA = {"metadata": {"name": "extra-1"}, "spec": {"containers": [{"name": "c", "image": "x"}]}}


def _two_at_one_event(sim: Simulation) -> None:
    for _ in range(12):
        sim.step("event")
    sim.inject.add_pod(EXTRA)
    sim.inject.cordon("node-2")  # (the world still paused at the same event)
    for _ in range(30):
        sim.step("event")


def _after_run_for(sim: Simulation) -> None:
    sim.run_for(3.0)
    assert sim.world.runtime.paused is None
    sim.inject.cordon("node-2")
    sim.run_for(2.0)


def _before_anything_ran(sim: Simulation) -> None:
    sim.inject.cordon("node-2")
    for _ in range(40):
        sim.step("event")


SESSIONS: dict[str, Callable[[Simulation], None]] = {
    "two-changes-at-one-paused-event": _two_at_one_event,
    "a-change-after-run_for": _after_run_for,
    "a-change-before-anything-ran": _before_anything_ran,
}


def _events(sim: Simulation) -> list[tuple[int, str, float, str]]:
    return [(e.seq, e.stage, e.time, e.message) for e in sim.trace]


@pytest.mark.parametrize("session", SESSIONS)
def test_a_fork_keeps_the_past_it_replays(session: str) -> None:
    sim = Simulation.from_scenario("three-nodes", seed=2, snapshots=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        SESSIONS[session](sim)
    history = _events(sim)
    sim.goto(len(history) - 3)
    sim.inject.cordon("node-1")  # a change in the past: the world is replayed up to the cursor
    assert _events(sim)[:len(history) - 2] == history[:-2]


@pytest.mark.parametrize("session", SESSIONS)
def test_the_on_demand_twin_replays_the_changes_as_made(session: str) -> None:
    eager, lazy = (Simulation.from_scenario("three-nodes", seed=2, snapshots=mode) for mode in (True, ON_DEMAND))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for sim in (eager, lazy):
            SESSIONS[session](sim)
    assert _events(lazy) == _events(eager)
    for i in range(len(eager.trace) - 1, -1, -1):
        want = eager.trace[i].snapshot
        got = lazy.snapshot_at(i)
        assert (got is None) == (want is None) and (got is None or got.to_json() == want.to_json()), i
