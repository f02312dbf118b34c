"""The whole-scenario plug-in: a solution changes nothing, a stub changes the outcome (or fails
the run with a clear message), and the notebook process survives either way."""

from __future__ import annotations

import pytest

from kschedlearn.exercises import all_tasks, plug_in_scenario
from kschedlearn.exercises.capstone import CapstoneReport
from kschedlearn.exercises.scenario_plugin import DEFAULT_SCENARIOS, ScenarioComparison
from kschedlearn.exercises.stubs import load_stub

TASKS = all_tasks()


def _param(task):
    return pytest.param(task, id=task.id, marks=getattr(pytest.mark, task.marker))


def test_every_task_has_a_scenario():
    assert {t.id for t in TASKS} == set(DEFAULT_SCENARIOS)


@pytest.mark.parametrize("task", [_param(t) for t in TASKS])
def test_solution_gives_the_real_schedulers_outcome(task):
    """On each task's default scenario (tests/exercises/test_verdicts.py runs the smallest ones)."""
    result = plug_in_scenario(task.id, task.load_solution())
    assert isinstance(result, (ScenarioComparison, CapstoneReport))
    assert result.same, str(result)
    assert result.reference.placements  # the scenario did place pods
    assert "same outcome" in result.summary()
    if task.changes_outcome:  # a bug fix (11.1): same as upstream's fix, and unlike 1.6 itself
        assert "same outcome as the reference solution's run" in result.summary()
        assert "against 1.6 itself: 1 pod(s) placed differently" in str(result)


@pytest.mark.parametrize("task", [_param(t) for t in TASKS])
def test_stub_changes_the_outcome_and_says_so(task):
    from test_verdicts import SCENARIO  # the smallest scenario that reaches each task's function

    result = plug_in_scenario(task.id, load_stub(task), SCENARIO[task.id])
    assert not result.same
    if isinstance(result, CapstoneReport):  # compared stage for stage: the stub's run diverges
        if result.error:  # the stub ran when the patch was entered (1.1 asks for the order up front)
            assert "NotImplementedError" in result.error
        else:
            assert result.first_divergence is not None and "first divergence" in str(result)
    elif result.error:
        assert "NotImplementedError" in result.error
    else:
        assert result.changed_pods, str(result)
        assert "changed" in str(result)
    assert "<table>" in result._repr_html_()


def test_a_learner_function_that_loops_is_stopped_and_reported():
    def forever(*args, **kwargs):
        while True:
            pass

    from kschedlearn.exercises.scenario_plugin import plug_in_scenario as run

    result = run("7.1", forever, seconds=1.0)
    assert not result.same
    # the sandbox stops the whole run and names the time limit (not "a scheduler process crashed")
    assert result.error.startswith("time limit of 1 s reached"), result.error
    assert not result.learner.crashes
