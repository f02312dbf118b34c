"""``sim.decision`` brought up to date from the new events is the whole trace's reading.

kschedlearn-only (issue 25): ``asking.TraceDecisions`` keeps each asked pod's attempts
(``viz.decision.AttemptParse``) and reads only the events recorded since the last look. At every
stop of scenarios with failed and repeated attempts, after going back, jumping, and forking the
history by an injection in the past, it equals ``decisions_from_events`` over the events up to
the cursor.
"""

from __future__ import annotations

import pytest

from kschedlearn import Simulation
from kschedlearn.viz.decision import decisions_from_events


def _both(sim: Simulation, pod: str) -> None:
    assert sim.decision(pod) == decisions_from_events(sim.trace[: sim.cursor + 1], pod), (pod, sim.cursor)


@pytest.mark.parametrize("name, pods", [
    ("unschedulable-then-fits", ("default/big-1",)),
    ("spread-and-affinity", ("default/web-1", "default/web-2")),
    ("three-nodes", ("default/web-1",)),
])
def test_at_every_stop_back_and_forth(name: str, pods: tuple[str, ...]) -> None:
    sim = Simulation.from_scenario(name, seed=1)
    ev = sim.start()
    stops = 0
    while ev is not None:
        for pod in pods:
            _both(sim, pod)
        stops += 1
        ev = sim.step()
    assert stops > 10 and any(sim.decision(pod) for pod in pods)
    for seq in (len(sim.trace) // 2, 3, len(sim.trace) - 1, 0, len(sim.trace) // 3):
        sim.goto(seq)
        for pod in pods:
            _both(sim, pod)
    sim.back()
    _both(sim, pods[0])


def test_a_fork_of_the_history_is_read_again() -> None:
    sim = Simulation.from_scenario("three-nodes", seed=1)
    sim.run_until(lambda e: False)
    _both(sim, "default/web-1")
    first = next(e.seq for e in sim.trace if e.stage == "schedule.start")
    sim.goto(first)
    sim.inject.fail_next_bind()  # the old future is gone: new events from here
    sim.run_until(lambda e: False)
    _both(sim, "default/web-1")
    assert sim.decision("default/web-1")
