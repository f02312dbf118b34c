"""Every reference solution passes all of its own task's checks (DESIGN §10)."""

from __future__ import annotations

import pytest

from kschedlearn.exercises import all_tasks, check, plug_in
from kschedlearn.exercises.registry import task_ids

TASKS = all_tasks()


def _param(task):
    return pytest.param(task, id=task.id, marks=getattr(pytest.mark, task.marker))


def test_at_least_ten_tasks_with_curriculum_ids():
    assert len(TASKS) >= 10
    assert [t.id for t in TASKS] == list(task_ids())
    # every notebook of the journey that teaches a piece of code has an exercise
    assert {"3", "5", "6", "7", "8", "10"} <= {t.id.split(".")[0] for t in TASKS}


@pytest.mark.parametrize("task", [_param(t) for t in TASKS])
def test_solution_passes_its_checks(task):
    report = check(task.id, task.load_solution())
    assert report.passed, str(report)
    assert report.counts[1] >= 3
    assert "all" in report.summary() and "<table>" in report._repr_html_()


@pytest.mark.parametrize("task", [_param(t) for t in TASKS])
def test_solution_plugged_in_changes_nothing(task):
    report = plug_in(task.id, task.load_solution())
    assert report.rows and report.changed == (), str(report)


@pytest.mark.parametrize("task", [_param(t) for t in TASKS])
def test_three_hint_layers(task):
    from kschedlearn.exercises import hint

    texts = [hint(task.id, level).text for level in (1, 2, 3)]
    assert len(set(texts)) == 3
    with pytest.raises(ValueError, match="level must be 1..3"):
        hint(task.id, 4)


def test_unknown_task_id_names_the_known_ones():
    with pytest.raises(KeyError, match="3.1"):
        check("4.9", lambda: None)
