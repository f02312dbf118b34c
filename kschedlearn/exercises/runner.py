"""``check`` and the plug-in experiments, run in the sandbox (``sandbox.run_in_child``).

Go: none (kschedlearn-only, DESIGN §10). One child process runs all of a task's cases and sends
each ``CaseResult`` back as soon as it has it; the parent gives the whole check one wall-clock
budget. When the child is stopped (the budget) or ends itself (``os._exit``, a crash), the case
it was running gets that cause as its message; after a crash the remaining cases run in a fresh
child with what is left of the budget, after the budget nothing more runs. The child's printed
output is shown afterwards (capped). Without fork everything runs in-process under the SIGALRM
limit (``framework.time_limit``), one budget per case.
"""

from __future__ import annotations

import inspect
import sys
import time
from collections.abc import Callable
from typing import Any

import attrs

from kschedlearn.exercises import framework as fw
from kschedlearn.exercises import sandbox
from kschedlearn.exercises.mirror_state import MirrorState, restored_note
from kschedlearn.exercises.registry import Task


def _params(task: Task) -> tuple[str, ...]:
    """The parameter names of the reference solution (what ``Task.protected`` refers to)."""
    try:
        return tuple(inspect.signature(task.load_solution()).parameters)
    except (ValueError, TypeError, ImportError, AttributeError):
        return ()


def check_task(task: Task, fn: Callable[..., Any], budget: float) -> fw.CheckReport:
    """All of ``task``'s cases on ``fn``; at most ``budget`` seconds of wall time in all."""
    cases = task.cases()
    kw = {"protected": task.protected, "params": _params(task) if task.protected else ()}
    if not sandbox.fork_available():  # in-process: what the learner's code changes is put back
        state = MirrorState.take()
        try:
            results = tuple(fw.run_case(c, fn, task.returns, task.function_name, budget, **kw) for c in cases)
        finally:
            changed = state.restore()
        return fw.CheckReport(task.id, task.title, results, (restored_note(changed),) if changed else ())
    results: list[fw.CaseResult] = []
    printed = dropped = left = 0
    deadline = time.monotonic() + budget
    while len(results) < len(cases):
        start = len(results)

        def work(send: Callable[[Any], None], start: int = start) -> None:
            for case in cases[start:]:
                send(fw.run_case(case, fn, task.returns, task.function_name, None,
                                 interruptible=False, **kw))
                sys.stdout.flush()

        run = sandbox.run_in_child(work, max(deadline - time.monotonic(), 0.0))
        run.replay()
        printed += len(run.output) + run.dropped
        dropped += run.dropped
        left += run.left_running
        results += run.items
        if len(results) >= len(cases):
            break
        current = cases[len(results)]
        if run.timed_out:
            results.append(fw.timed_out(current, task.function_name, budget))
            reason = f"the time limit of {budget:g} s for this check was reached in case {current.name!r}"
            results += [fw.not_run(c, fw.TIMEOUT, reason) for c in cases[len(results):]]
            break
        results.append(fw.CaseResult(current.name, fw.ERROR, (
            f"Given {current.given}, your {task.function_name}() did not return: {run.ending}. "
            "The check goes on with the next case in a fresh process.")))
    return fw.CheckReport(task.id, task.title, tuple(results), sandbox.notes_for(printed, dropped, left))


def plug_in_task(task: Task, fn: Callable[..., Any], simulation: Any, budget: float) -> fw.PlugInReport:
    """``task.plug_in(fn, simulation)``: the small experiment (no simulation) in the sandbox; with
    a simulation, rehearsed in a child and then run in-process under a per-call guard (``live``)."""
    if simulation is not None:
        from kschedlearn.exercises.live import plug_into_simulation  # noqa: PLC0415

        return plug_into_simulation(task, fn, simulation, budget, _params(task) if task.protected else ())
    if not sandbox.fork_available():
        counted = fw.counting(fn)
        return attrs.evolve(task.plug_in(counted, None), calls=counted.calls, function=task.function_name)

    def work(send: Callable[[Any], None]) -> None:
        counted = fw.counting(fn)
        report = task.plug_in(counted, None)
        send(attrs.evolve(report, calls=counted.calls, function=task.function_name))

    run = sandbox.run_in_child(work, budget)
    run.replay()
    if run.items:
        return attrs.evolve(run.items[0], notes=run.items[0].notes + run.notes())
    why = run.ending
    return fw.PlugInReport(task.id, task.title, (("your function", "returns", f"stopped: {why}"),),
                           note=f"The experiment did not finish: {why}.", notes=run.notes())
