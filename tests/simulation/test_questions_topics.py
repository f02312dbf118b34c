"""Notebook 12's question factories: well formed, re-rolled by the seed, and answered as an
independent run of the same scenario says.

Go: none — kschedlearn-only. Each truth below is re-derived from a fresh ``Simulation`` (its
trace and API server), not from the factory's own bookkeeping.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from typing import Any

import pytest

from kschedlearn import Simulation
from kschedlearn.simulation import questions as Q
from kschedlearn.simulation import questions_topics as T
from kschedlearn.widgets.predict import PredictCell

SEEDS = (1, 2, 3)
ALL = [f for fs in T.FACTORIES.values() for f in fs]


@functools.cache
def _asked(factory: Any, seed: int) -> Q.Question:
    """``factory(seed)``, asked once per module: a question is a frozen value, and several tests
    check the same one (the determinism check below calls the factory again, fresh)."""
    return factory(seed)


def _fresh(q: Q.Question, **kwargs: object) -> Simulation:
    # the truths read the trace, the API server and decisions, never a snapshot: a run without
    # them records the same events (tests/simulation/test_questions_without_snapshots.py)
    kwargs.setdefault("snapshots", False)
    sim = Simulation.from_scenario(q.scenario, seed=q.seed, **kwargs)  # type: ignore[arg-type]
    sim.run_until(lambda e: False)
    return sim


@pytest.mark.parametrize("factory", ALL, ids=[f.__name__ for f in ALL])
def test_question_is_well_formed_deterministic_and_checked(factory) -> None:
    for seed in SEEDS:
        q = _asked(factory, seed)
        assert q.answer in q.choices and len(q.choices) >= 2 and q.seed == seed
        assert q.scenario in T.FACTORIES and factory in T.FACTORIES[q.scenario]
        assert factory(seed) == q  # same scenario + seed ⇒ same question
        assert Q.check_answer(q, q.answer).correct
        wrong = next(c for c in q.choices if c != q.answer)
        assert not Q.check_answer(q, wrong).correct
        with pytest.raises(Q.QuestionError, match="not a choice"):
            Q.check_answer(q, "no such choice")


@pytest.mark.parametrize("factory", ALL, ids=[f.__name__ for f in ALL])
def test_new_seed_rerolls_something(factory) -> None:
    prompts = {re.sub(r"seed \d+", "seed N", _asked(factory, seed).prompt) for seed in range(1, 5)}
    assert len(prompts) > 1


@pytest.mark.parametrize("factory", ALL, ids=[f.__name__ for f in ALL])
def test_predict_cell_over_the_factory_answers_right_and_wrong(factory) -> None:
    cell = PredictCell(factory, seed=1)
    assert cell.answer(cell.question.answer).correct
    wrong = next(c for c in cell.question.choices if c != cell.question.answer)
    assert not cell.answer(wrong).correct
    assert cell.new_question().seed == 2


def test_scheduler_name_truth_is_the_binding_process() -> None:
    for seed in SEEDS:
        q = _asked(T.scheduler_name_question, seed)
        pod = q.prompt.split("`")[1]
        binds = [e.process for e in _fresh(q).trace if e.stage == "apiserver.bind" and e.data["pod"] == pod]
        assert q.answer == (binds[0] if binds else T._NOBODY)


def test_node_condition_truth_is_whether_the_node_was_evaluated() -> None:
    for seed in range(1, 6):
        q = _asked(T.node_condition_question, seed)
        node = q.prompt.split("`")[1]
        seen = {e.data["node"] for e in _fresh(q).trace if e.stage == "schedule.predicate_node"}
        assert q.answer == (T.REACHES if node in seen else T.DROPPED)


def test_assume_truth_is_the_number_bound_and_differs_with_the_switch() -> None:
    answers = {}
    for seed in (1, 2):
        q = _asked(T.assume_question, seed)
        assume = "assume on" in q.prompt
        bound = sum(1 for p in _fresh(q, assume=assume).world.api.storage.items("pods") if p.spec.node_name)
        assert q.answer == str(bound)
        answers[assume] = q.answer
    assert answers[True] != answers[False]


def test_unfenced_truths() -> None:
    q = _asked(T.leaders_at_question, 2)  # the moment inside the window
    assert q.answer == "both scheduler-a and scheduler-b"
    t = float(q.prompt.split("At t=")[1].split("s,")[0])
    sim = _fresh(q)
    scheduling = {e.process for e in sim.trace if e.stage in ("schedule.start", "bind") and abs(e.time - t) < 5}
    assert scheduling == {"scheduler-a", "scheduler-b"}
    for seed in SEEDS:
        q = _asked(T.double_bind_question, seed)
        pod = q.prompt.split("`")[1]
        ok = Counter(e.data["pod"] for e in _fresh(q).trace if e.stage == "apiserver.bind")[pod]
        assert q.answer == f"{ok} time" + ("" if ok == 1 else "s")


def test_extender_total_is_the_decision_total() -> None:
    for seed in (1, 2):
        q = _asked(T.extender_total_question, seed)
        node = q.prompt.split("`")[3]
        (decision,) = _fresh(q).decision("default/web-1")
        assert q.answer == str(dict(decision.totals)[node])


def test_deleted_in_flight_truths() -> None:
    q1, q2 = _asked(T.deleted_in_flight_question, 1), _asked(T.deleted_in_flight_question, 2)
    assert q1.prompt != q2.prompt
    sim = _fresh(q1)
    assert not [e for e in sim.trace if e.stage == "apiserver.bind"]
    assert q1.answer.startswith("404") and any('pods "web-1" not found' in e.message for e in sim.trace)
    assert not [e for e in sim.trace if e.stage == "error.requeue"] and "dropped" in q2.answer
