"""Exercises: re-implement a real piece of the v1.6.1 scheduler and check it (DESIGN §10).

Go: none (kschedlearn-only). In a notebook::

    from kschedlearn.exercises import check, hint, plug_in
    check("3.1", fifo_pop)      # pass/fail table, each failure explained in words
    hint("3.1", 1)              # hints in layers: 1 concept, 2 Go source, 3 almost the answer
    plug_in("3.1", fifo_pop)    # run the real code with your function swapped in

The learner's function runs under a time limit (SIGALRM; main thread only - off the main thread
there is no limit) and its exceptions or wrong return types are reported, never re-raised.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

from kschedlearn.exercises import framework
from kschedlearn.exercises.framework import CheckReport, Hint, PlugInReport
from kschedlearn.exercises.registry import Task, all_tasks, get_task
# Loaded eagerly so that the ``quiz`` *function* below stays the package attribute (a first
# import of the submodule would otherwise rebind ``kschedlearn.exercises.quiz`` to the module).
from kschedlearn.exercises import quiz as _quiz_module

__all__ = [
    "CheckReport", "Hint", "PlugInReport", "Task", "all_tasks", "check", "get_task", "hint",
    "patched", "plug_in", "plug_in_scenario", "quiz",
]


def check(task_id: str, fn: Callable[..., Any], *, time_limit: float | None = None) -> CheckReport:
    """Run task ``task_id``'s checks on ``fn`` in-process and return the pass/fail table.

    ``time_limit`` (seconds per case) defaults to the task's own limit.
    """
    task = get_task(task_id)
    if not callable(fn):
        raise TypeError(f"check({task_id!r}, fn): fn must be your function, got {type(fn).__name__}")
    limit = task.time_limit if time_limit is None else time_limit
    results = tuple(
        framework.run_case(case, fn, task.returns, task.function_name, limit) for case in task.cases()
    )
    return CheckReport(task.id, task.title, results)


def hint(task_id: str, level: int = 1) -> Hint:
    """Hint ``level`` (1 = the concept, 2 = the Go function and line, 3 = almost the answer)."""
    task = get_task(task_id)
    if not isinstance(level, int) or not 1 <= level <= len(task.hints):
        raise ValueError(f"hint({task_id!r}, level): level must be 1..{len(task.hints)}, got {level!r}")
    return Hint(task.id, level, len(task.hints), task.hints[level - 1])


def patched(task_id: str, fn: Callable[..., Any]) -> AbstractContextManager[None]:
    """A context manager with ``fn`` swapped into the real mirrored code (restored on exit)."""
    return get_task(task_id).patch(fn)


def plug_in(task_id: str, fn: Callable[..., Any], simulation: Any = None) -> PlugInReport:
    """Run the scheduler's code with ``fn`` in place of the real function; show what changed.

    Without ``simulation`` a small deterministic experiment runs in-process. With a
    simulation object, ``simulation.run()`` is called while ``fn`` is patched in (the full
    scenario plug-in; the simulation's own views then show the effect).
    """
    task = get_task(task_id)
    return task.plug_in(fn, simulation)


def plug_in_scenario(task_id: str, fn: Callable[..., Any], scenario: str | None = None, *,
                     seed: int = 1) -> Any:
    """Run a whole scenario with and without ``fn`` in the real scheduler; show what changed.

    See :mod:`kschedlearn.exercises.scenario_plugin` (the task's scenario is the default).
    """
    from kschedlearn.exercises.scenario_plugin import plug_in_scenario as run

    return run(task_id, fn, scenario, seed=seed)


def quiz(kind: str, seed: int = 0) -> Any:
    """A predict-the-next-state question (see the module ``kschedlearn.exercises.quiz``)."""
    return _quiz_module.make_question(kind, seed)
