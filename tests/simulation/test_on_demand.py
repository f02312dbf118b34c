"""``Simulation(snapshots="on-demand")``: every event's snapshot, built when first asked for by a
twin world, is the one teaching mode stores on that event (``simulation/on_demand.py``)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import attrs
import pytest

from kschedlearn import Simulation
from kschedlearn.viz import VIEWS
from kschedlearn.simulation import SimulationError
from kschedlearn.simulation.on_demand import ON_DEMAND

SCENARIOS = sorted(p.stem for p in (Path(__file__).parents[2] / "kschedlearn/scenarios/data").glob("*.yaml")
                   if p.stem != "bad-policy")


#: events compared per scenario, in a seeded random order (burst-100-pods has 5,236: all of them
#: take ~9 s, most of it in to_json; the others have at most ~800)
LOOKS = 800


def _dump(snap: Any) -> Any:
    return None if snap is None else snap.to_json()


def _compare(eager: Simulation, lazy: Simulation, order: list[int]) -> None:
    """Ask ``lazy`` for the snapshots in ``order``: each equals the one ``eager`` stored."""
    assert [(e.seq, e.stage, e.time, e.message) for e in lazy.trace] == \
        [(e.seq, e.stage, e.time, e.message) for e in eager.trace]
    assert all(e.snapshot is None for e in lazy.trace)  # (nothing was built while it ran)
    for i in order:
        assert _dump(lazy.snapshot_at(i)) == _dump(eager.trace[i].snapshot), f"event {i} ({eager.trace[i].stage})"


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_every_event_s_snapshot_built_on_demand_is_the_one_teaching_mode_stores(scenario: str) -> None:
    eager = Simulation.from_scenario(scenario, seed=7, snapshot_every=1)  # (on demand: each its own)
    eager.run()
    lazy = Simulation.from_scenario(scenario, seed=7, snapshots=ON_DEMAND)
    lazy.run()
    order = list(range(len(eager.trace)))
    random.Random(scenario).shuffle(order)  # (backwards and forwards: the twin only runs on)
    _compare(eager, lazy, order[:LOOKS])


def test_the_bad_policy_scenario_too_whose_scheduler_exits() -> None:
    eager = Simulation.from_scenario("bad-policy", seed=1)
    eager.run()
    lazy = Simulation.from_scenario("bad-policy", seed=1, snapshots=ON_DEMAND)
    lazy.run()
    _compare(eager, lazy, list(range(len(eager.trace) - 1, -1, -1)))


def _drive(sim: Simulation, look: bool) -> None:
    """The same session on both: steps, changes made at the end of the history and in its past
    (a fork), two made while paused at one event, and, for the lazy one, looks in between."""
    for _ in range(12):
        sim.step("event")
        if look:
            sim.snapshot_at(sim.cursor // 2)
    sim.inject.add_pod({"metadata": {"name": "extra-1"}, "spec": {"containers": [{"name": "c", "image": "x"}]}})
    sim.inject.cordon("node-2")  # (the world still paused at the same event)
    for _ in range(30):
        sim.step("event")
    if look:
        assert sim.snapshot is not None
    sim.goto(20)
    sim.inject.add_pod({"metadata": {"name": "extra-2"}, "spec": {"containers": [{"name": "c", "image": "x"}]}})
    sim.run()


def test_snapshots_on_demand_follow_injections_and_forks() -> None:
    eager = Simulation.from_scenario("three-nodes", seed=2)
    _drive(eager, look=False)
    lazy = Simulation.from_scenario("three-nodes", seed=2, snapshots=ON_DEMAND)
    _drive(lazy, look=True)
    assert any(e.stage == "inject" for e in lazy.trace)
    order = list(range(len(eager.trace)))
    random.Random(5).shuffle(order)
    _compare(eager, lazy, order)


def test_the_views_and_the_export_read_on_demand_snapshots() -> None:
    eager = Simulation.from_scenario("three-nodes", seed=4)
    lazy = Simulation.from_scenario("three-nodes", seed=4, snapshots=ON_DEMAND)
    for sim in (eager, lazy):
        sim.run_until("assume")
    for view in sorted(VIEWS):
        assert lazy.show(view).dot() == eager.show(view).dot()
    assert lazy.thinning_note() == eager.thinning_note()
    for sim in (eager, lazy):
        sim.run()
    assert lazy.export_json() == eager.export_json()


def test_a_twin_that_went_another_way_is_an_error_naming_the_event() -> None:
    lazy = Simulation.from_scenario("three-nodes", seed=1, snapshots=ON_DEMAND)
    lazy.run()
    lazy.snapshot_at(10)
    twin_events = lazy._twin.world.tracer.events
    twin_events[10] = attrs.evolve(twin_events[10], message="something else")
    with pytest.raises(SimulationError, match=r"snapshot of event 10: the twin world .* recorded .*something else"):
        lazy.snapshot_at(10)
    assert lazy.snapshot_at(11) is not None  # (the session goes on)


@pytest.mark.parametrize(("value", "expected"), [
    ("on_demand", r"snapshots must be True, False or 'on-demand', got 'on_demand' \(str\).*on-demand"),
    ("yes", r"snapshots must be True, False or 'on-demand', got 'yes' \(str\)"),
    (1, r"snapshots must be True, False or 'on-demand', got 1 \(int\)"),
])
def test_a_snapshot_mode_it_does_not_know_is_an_error_naming_it(value: Any, expected: str) -> None:
    with pytest.raises(SimulationError, match=expected):
        Simulation.from_scenario("three-nodes", snapshots=value)


def test_snapshot_at_outside_the_history_is_none_and_a_bad_number_an_error() -> None:
    for mode in (True, ON_DEMAND):
        sim = Simulation.from_scenario("three-nodes", seed=1, snapshots=mode)
        sim.step("event")
        assert sim.snapshot_at(len(sim.trace)) is None
        assert sim.snapshot_at(-1) is None
        with pytest.raises(SimulationError, match=r"snapshot_at: seq must be a whole number, got 'x'"):
            sim.snapshot_at("x")  # type: ignore[arg-type]
