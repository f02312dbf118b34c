"""Every checked activity: answered right it passes, wrong it fails, and its truth comes from a run.

Go: none — kschedlearn-only (issue 22 item 2: each former "Try this" is an ``ask`` or a code task
checked by ``check``, with feedback drawn from a simulation run, never a hard-coded answer). For
each activity: ``ask(key, None)`` computes and records nothing; the simulator's truth answered
back is right and recorded as passed; a different answer is wrong and recorded as not passed; an
answer of the wrong shape is refused with a sentence and records nothing. A few truths are
re-derived here by an independent run.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kschedlearn import Simulation
from kschedlearn.curriculum import activities_cache as AC, activities_companion as ACO, activities_intro as AI, activities_more as AM
from kschedlearn.curriculum import activity as A
from kschedlearn.curriculum import catalog, progress
from kschedlearn.exercises import check

ACTIVITIES = [a for m in (AI, AC, AM, ACO) for a in m.ACTIVITIES]


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(progress.ENV_VAR, str(tmp_path))
    return tmp_path


def _answers(a: A.Activity, truth: A.Truth) -> tuple[Any, Any]:
    """(a right answer, a wrong answer) in the form the learner writes, derived from the truth."""
    value, parse = truth.value, a.parse
    if hasattr(parse, "options"):
        return value, next(o for o in parse.options if o != value)
    if parse is A.integer:
        return value, value * 3 + 7
    if parse is A.seconds:
        return value, value + 100.0
    if parse in (A.names, A.score_list):
        return list(value), [*reversed(value), 99 if parse is A.score_list else "x"]
    if parse is A.stage_list:
        return list(value), [*value, "Sync"]
    if parse is A.reasons_answer:
        return sorted(value), ["Insufficient pods"]
    if parse is A.text:
        return (next(iter(value)) if isinstance(value, frozenset) else value), "NoSuchReason"
    if parse is A.stage_name:
        return value, "bind" if value != "bind" else "assume"
    if parse is A.function:
        return (lambda obj: [obj.metadata.labels.get("app", "")]), (lambda obj: [obj.metadata.namespace])
    raise AssertionError(f"{a.key}: no test answers for its parser {parse}")


def test_every_activity_belongs_to_an_objective_of_its_unit() -> None:
    listed = {act for u in catalog.units() for act in u.activities}
    for a in ACTIVITIES:
        unit = a.key.split("/")[0]
        assert a.key in catalog.unit(unit).activities, f"{a.key} is not named by an objective of unit {unit}"
    assert {a.key for a in ACTIVITIES} <= listed
    assert A.keys() == tuple(sorted(a.key for a in ACTIVITIES))


@pytest.mark.parametrize("a", ACTIVITIES, ids=[a.key for a in ACTIVITIES])
def test_right_wrong_and_unanswered(a: A.Activity, data_dir: Path) -> None:
    run = A.check_code if a.kind == "check" else A.ask
    shown = run(a.key, None) if a.kind == "prediction" else A.ask(a.key, None)
    assert shown.truth is None and not (data_dir / "progress.json").exists()  # nothing computed or recorded
    truth = a.truth()
    assert truth.explanation  # built from the run
    right, wrong = _answers(a, truth)
    got = run(a.key, right)
    assert got.correct, str(got)
    assert "✓" in got._repr_html_() and "`" not in got._repr_html_()  # rendered Markdown, no raw backticks
    assert progress.store().get(a.kind, a.key).passed
    bad = run(a.key, wrong)
    assert bad.correct is False, str(bad)
    rec = progress.store().get(a.kind, a.key)
    assert rec.passed and not rec.last_passed and rec.attempts == 2  # the earlier pass is kept


def test_a_wrong_shape_is_refused_with_a_sentence_and_records_nothing(data_dir: Path) -> None:
    for key, answer in (("05/expire-time", "soon"), ("00/bigger-node", "node-9"), ("03/sync-after-delete", ["Gone"]),
                        ("02/app-index", 42), ("00b/confirmed-at", "asume")):
        result = A.check_code(key, answer) if key == "02/app-index" else A.ask(key, answer)
        assert result.message and not result.answered, (key, str(result))
    assert "did you mean 'assume'" in A.ask("00b/confirmed-at", "asume").message
    assert not (data_dir / "progress.json").exists()
    assert "no activity" in A.ask("05/expire-tme", 3).message and "05/expire-time" in A.ask("05/expire-tme", 3).message


def test_check_routes_a_notebook_code_task_and_a_failing_function_is_recorded(data_dir: Path) -> None:
    ok = check("02/app-index", lambda obj: [obj.metadata.labels.get("app", "")])
    assert ok.correct and progress.store().get("check", "02/app-index").passed
    broken = check("02/app-index", lambda obj: obj.no_such_field)
    assert broken.correct is False and "your function raised" in str(broken.answer)
    assert "no_such_field" in str(broken.answer) and not progress.store().get("check", "02/app-index").last_passed


def test_a_code_task_that_never_returns_is_stopped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(A, "CODE_TASK_SECONDS", 1.0)

    def forever(obj):
        while True:
            pass

    result = check("02/app-index", forever)
    assert result.correct is False and "time limit of 1 s reached" in str(result.answer)


def test_independent_truths() -> None:
    """Three truths re-derived by their own runs, not through the activity code."""
    sim = Simulation.from_scenario("three-nodes", seed=1)
    sim.run_until("Scheduler.Run")
    sim.inject.add_node("node-4", cpu="16", memory="32Gi")
    assert A.get("00/bigger-node").truth().value == sim.run_until("selectHost").data["host"]
    t = Simulation.from_scenario("assume-expiry", seed=1)
    t.run_until(lambda e: e.time >= 10)
    done = next(e for e in t.trace if e.stage == "finishBinding")
    assert A.get("05/deadline").truth().value == pytest.approx(done.time + 30.0)
    burst = Simulation.from_scenario("burst-100-pods", seed=1)
    burst.run_until(lambda e: e.time > 1.0)
    assert A.get("08b/qps").truth().value == sum(e.stage == "apiserver.bind" and e.time == 1.0 for e in burst.trace)
