"""Exercises: re-implement a real piece of the v1.6.1 scheduler and check it (DESIGN §10).

Go: none (kschedlearn-only). In a notebook::

    from kschedlearn.exercises import check, hint, plug_in
    check("3.1", fifo_pop)      # pass/fail table, each failure explained in words
    hint("3.1", 1)              # hints in layers: 1 concept, 2 Go source, 3 almost the answer
    plug_in("3.1", fifo_pop)    # run the real code with your function swapped in

The learner's function runs in a forked child process with one wall-clock budget per check
(``sandbox``; in-process under a SIGALRM limit where fork is missing); its exceptions, wrong
return types, changes to its read-only inputs, exits and crashes are reported, never re-raised.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

from kschedlearn.exercises import framework, runner
from kschedlearn.exercises.framework import CheckReport, Hint, PlugInReport
from kschedlearn.exercises.registry import Task, all_tasks, get_task
# Loaded eagerly so that the ``quiz`` *function* below stays the package attribute (a first
# import of the submodule would otherwise rebind ``kschedlearn.exercises.quiz`` to the module).
from kschedlearn.exercises import quiz as _quiz_module

__all__ = [
    "CheckReport", "Hint", "PlugInReport", "Task", "all_tasks", "check", "get_task", "hint",
    "patched", "plug_in", "plug_in_scenario", "quiz",
]


def check(task_id: str, fn: Callable[..., Any], *, time_limit: float | None = None) -> Any:
    """Run task ``task_id``'s checks on ``fn`` and return the pass/fail table.

    The checks run in a forked child process (``kschedlearn.exercises.sandbox``), so an endless
    loop, ``sys.exit``, ``os._exit`` or a crash in ``fn`` is reported and never reaches the
    kernel. ``time_limit`` (seconds for the whole check, not per case) defaults to the task's.
    The result is recorded in the learner's progress (kind ``exercise``; it counts as passed
    when every case passed).

    A notebook's code task has a key with a slash (``check("02/app-index", fn)``): it is judged
    by :func:`kschedlearn.curriculum.activity.check_code` (kind ``check``).
    """
    if isinstance(task_id, str) and "/" in task_id:
        from kschedlearn.curriculum.activity import check_code

        return check_code(task_id, fn)
    task = get_task(task_id)
    if not callable(fn):
        raise TypeError(f"check({task_id!r}, fn): fn must be your function, got {type(fn).__name__}")
    budget = _budget("check", task_id, "time_limit", task.time_limit if time_limit is None else time_limit)
    report = runner.check_task(task, fn, budget)
    from kschedlearn.curriculum import progress

    ok, total = report.counts
    progress.record("exercise", task.id, report.passed, detail=f"{ok}/{total} cases")
    return report


def _budget(where: str, task_id: str, field: str, value: Any) -> float:
    """A time budget in seconds: a finite number > 0, else a clear ValueError."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
        raise ValueError(f"{where}({task_id!r}, fn, {field}=...): {field} must be a number of seconds "
                         f"> 0, got {value!r}")
    return float(value)


def hint(task_id: str, level: int = 1) -> Hint:
    """Hint ``level`` (1 = the concept, 2 = the Go function and line, 3 = almost the answer)."""
    task = get_task(task_id)
    if not isinstance(level, int) or not 1 <= level <= len(task.hints):
        raise ValueError(f"hint({task_id!r}, level): level must be 1..{len(task.hints)}, got {level!r}")
    return Hint(task.id, level, len(task.hints), task.hints[level - 1])


def patched(task_id: str, fn: Callable[..., Any]) -> AbstractContextManager[None]:
    """A context manager with ``fn`` swapped into the real mirrored code (restored on exit)."""
    return get_task(task_id).patch(fn)


def plug_in(task_id: str, fn: Callable[..., Any], simulation: Any = None, *,
            seconds: float | None = None) -> PlugInReport:
    """Run the scheduler's code with ``fn`` in place of the real function; show what changed.

    Without ``simulation`` a small deterministic experiment runs in a sandboxed child process
    (at most ``seconds``, default 10). With a simulation object, ``simulation.run()`` runs on
    with ``fn`` patched in: first rehearsed in a sandboxed child (at most ``seconds``, default
    60: an endless loop or ``os._exit`` there leaves your simulation unchanged), then for real
    in-process, where each call of ``fn`` is guarded - an exception it raises (``sys.exit``
    included) kills the simulated process that called it and is recorded in the trace with your
    line; the simulation's own views then show the effect (see ``kschedlearn.exercises.live``).
    """
    task = get_task(task_id)
    if not callable(fn):
        raise TypeError(f"plug_in({task_id!r}, fn): fn must be your function, got {type(fn).__name__}")
    if seconds is None:
        seconds = 60.0 if simulation is not None else framework.DEFAULT_TIME_LIMIT
    return runner.plug_in_task(task, fn, simulation, _budget("plug_in", task_id, "seconds", seconds))


def plug_in_scenario(task_id: str, fn: Callable[..., Any], scenario: str | None = None, *,
                     seed: int = 1, seconds: float = 60.0) -> Any:
    """Run a whole scenario with and without ``fn`` in the real scheduler; show what changed.

    The learner's run is sandboxed and stopped after ``seconds`` of wall time. See
    :mod:`kschedlearn.exercises.scenario_plugin` (the task's scenario is the default).
    """
    from kschedlearn.exercises.scenario_plugin import plug_in_scenario as run

    get_task(task_id)
    if not callable(fn):
        raise TypeError(f"plug_in_scenario({task_id!r}, fn): fn must be your function, got {type(fn).__name__}")
    if scenario is not None and (not isinstance(scenario, str) or not scenario.strip()):
        raise TypeError(f"plug_in_scenario({task_id!r}, fn, scenario): scenario must be a scenario's name or a "
                        f"YAML file's path, got {scenario!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not -(2**63) <= seed < 2**63:
        raise ValueError(f"plug_in_scenario({task_id!r}, fn, seed=...): seed must be a whole number that fits "
                         f"64 bits, got {seed!r}")
    return run(task_id, fn, scenario, seed=seed,
               seconds=_budget("plug_in_scenario", task_id, "seconds", seconds))


def quiz(kind: str, seed: int = 0) -> Any:
    """A predict-the-next-state question (see the module ``kschedlearn.exercises.quiz``)."""
    return _quiz_module.make_question(kind, seed)
