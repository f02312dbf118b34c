"""Question factories that read only the trace run without snapshots: the same questions.

kschedlearn-only (issue 25): ``questions._run`` and ``questions_topics._finished`` take snapshots
only for the factories that read them (where a pod is, the lock record's holder). Each other
factory's question is compared here with the one it poses from a run with snapshots — and the
events of such runs are compared whole; the factories that read snapshots still get them.
"""

from __future__ import annotations

import warnings

import attrs
import pytest

from kschedlearn import Simulation
from kschedlearn.simulation import questions as Q
from kschedlearn.simulation import questions_topics as T

TRACE_ONLY = [
    (Q, "winner_question"), (Q, "failing_predicate_question"), (Q, "next_stage_question"),
    (Q, "backoff_question"), (Q, "binder_question"), (Q, "registered_question"),
    *((T, name) for name in T.__all__ if name.endswith("_question")),
]


def _with_snapshots(monkeypatch: pytest.MonkeyPatch) -> None:
    run, finished = Q._run, T._finished
    monkeypatch.setattr(Q, "_run", lambda scenario, seed, *, snapshots=False: run(scenario, seed, snapshots=True))
    monkeypatch.setattr(T, "_finished", lambda scenario, seed, **kw: finished(scenario, seed, snapshots=True, **kw))


@pytest.mark.parametrize("module,name", TRACE_ONLY, ids=[name for _, name in TRACE_ONLY])
def test_the_same_question_as_with_snapshots(module, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    factory = getattr(module, name)
    without = factory(2)
    _with_snapshots(monkeypatch)
    assert factory(2) == without


@pytest.mark.parametrize("scenario", ["ha-failover", "unfenced-leader"])
def test_a_run_without_snapshots_records_the_same_events(scenario: str) -> None:
    runs = []
    for snapshots in (True, False):
        sim = Simulation.from_scenario(scenario, seed=2, snapshots=snapshots)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # (the lost lease's crash)
            sim.run_until(lambda e: False)
        runs.append([attrs.evolve(e, snapshot=None) for e in sim.trace])
    assert runs[0] == runs[1] and len(runs[0]) > 500


def test_the_factories_that_read_snapshots_get_them(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[bool] = []
    run = Q._run

    def spy(scenario: str, seed: int, *, snapshots: bool = False) -> Simulation:
        asked.append(snapshots)
        return run(scenario, seed, snapshots=snapshots)

    monkeypatch.setattr(Q, "_run", spy)
    for factory in (Q.pod_location_question, Q.cache_state_question, Q.leader_question):
        factory(1)
    assert asked == [True, True, True]
