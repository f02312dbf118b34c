"""Every generated stub fails its own task's checks - all of them, with NotImplementedError -
and passes nothing; the stub carries the task id in its TODO; the committed notebooks are the
generator's current output."""

from __future__ import annotations

import contextlib
import importlib.util
from pathlib import Path

import nbformat
import pytest

from kschedlearn.exercises import all_tasks, check, plug_in
from kschedlearn.exercises.framework import NOT_IMPLEMENTED
from kschedlearn.exercises.stubs import load_stub, stub_source

ROOT = Path(__file__).resolve().parents[2]
TASKS = all_tasks()


def _param(task):
    return pytest.param(task, id=task.id, marks=getattr(pytest.mark, task.marker))


@pytest.mark.parametrize("task", [_param(t) for t in TASKS])
def test_stub_fails_only_with_not_implemented(task):
    report = check(task.id, load_stub(task))
    assert report.counts[0] == 0
    assert {r.status for r in report.results} == {NOT_IMPLEMENTED}
    assert all("NotImplementedError" in r.message for r in report.results)


@pytest.mark.parametrize("task", [_param(t) for t in TASKS])
def test_stub_names_its_task(task):
    src = stub_source(task)
    assert f"# TODO(task {task.id})" in src
    assert f"def {task.function_name}(" in src
    # a plain stub raises at once; a scaffold with blanks (8.2a) stops while any ___ is left
    assert "raise NotImplementedError" in src or "no_blanks_left()" in src


@pytest.mark.parametrize("task", [_param(t) for t in TASKS])
def test_plugged_in_stub_is_undone_on_exit(task):
    """The patch of a stub is scoped: afterwards the real code (and every solution) works again."""
    from kschedlearn.exercises import patched

    with contextlib.suppress(NotImplementedError):  # 10.1's patch runs the stub on entry
        with patched(task.id, load_stub(task)):
            pass
    assert check(task.id, task.load_solution()).passed
    assert plug_in(task.id, task.load_solution()).changed == ()


def test_committed_notebooks_are_up_to_date():
    spec = importlib.util.spec_from_file_location("make_exercises", ROOT / "tools" / "make_exercises.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main(["--check"]) == 0
    for task in TASKS:
        nb = nbformat.read(ROOT / "exercises" / task.notebook, as_version=4)
        assert nb.cells[0].source.startswith(f"# Exercise {task.id}:")
        stubs = [c for c in nb.cells if "stub" in c.metadata.get("tags", [])]
        assert len(stubs) == 1 and f"TODO(task {task.id})" in stubs[0].source


def test_every_exercise_notebook_links_back_to_its_lesson():
    spec = importlib.util.spec_from_file_location("make_exercises", ROOT / "tools" / "make_exercises.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert set(module.LESSONS) == {t.id for t in TASKS}
    for task in TASKS:
        notebook, _ = module.LESSONS[task.id]
        assert (ROOT / "notebooks" / notebook).exists(), notebook
        nb = nbformat.read(ROOT / "exercises" / task.notebook, as_version=4)
        assert f"](../notebooks/{notebook})" in nb.cells[0].source
