"""Generate the learner notebooks ``exercises/NN-M-<slug>.ipynb`` from the task modules.

Go: none (kschedlearn-only). Usage: ``python tools/make_exercises.py [--check]``. Each notebook
has a heading with the task id, the explanation and Go links, the stub cell (generated from the
reference solution, tagged ``stub``), a check cell, three hint cells, a plug-in cell and, where
the task has one, a predict-the-next-state quiz. ``--check`` exits 1 if a notebook is stale.
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat

from kschedlearn.exercises.registry import Task, all_tasks
from kschedlearn.exercises.stubs import stub_source

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "exercises"

#: where each exercise's topic is taught: (curriculum notebook, section heading) - the back link
LESSONS: dict[str, tuple[str, str]] = {
    "1.1": ("01-startup-chain.ipynb", "`startHTTP`, `informerFactory.Start`, `Scheduler.Run`"),
    "2.1": ("02-api-objects-store-indexer.ipynb", "Label and field selectors"),
    "3.1": ("03-fifo-and-deltafifo.ipynb", "Pop blocks, and skips ghosts"),
    "3.2": ("03-fifo-and-deltafifo.ipynb", "DeltaFIFO: every change, in order"),
    "4.1": ("04-reflector-controller-informers.ipynb", "The informer's processLoop and its handlers"),
    "4.2": ("04-reflector-controller-informers.ipynb", "A closed watch: re-watch, no relist"),
    "5.1": ("05-scheduler-cache.ipynb", "NodeInfo accounting"),
    "5.2": ("05-scheduler-cache.ipynb", "Expire: the confirmation comes too late (`assume-expiry`)"),
    "5.3": ("05-scheduler-cache.ipynb", "Assume, FinishBinding, confirm — the normal path (`three-nodes`)"),
    "6.1": ("06-predicates.ipynb", "Running predicates by hand"),
    "6.2": ("06-predicates.ipynb", "Running predicates by hand"),
    "7.1": ("07-priorities-and-selecthost.ipynb", "LeastRequested and BalancedResourceAllocation by hand"),
    "7.2": ("07-priorities-and-selecthost.ipynb", "LeastRequested and BalancedResourceAllocation by hand"),
    "7.3": ("07-priorities-and-selecthost.ipynb", "selectHost: score descending, name descending, round robin"),
    "7.4": ("07-priorities-and-selecthost.ipynb", "SelectorSpread and InterPodAffinity: whole-list functions"),
    "8.1": ("08-scheduleone-binding-errors-backoff.ipynb", "The error path: unschedulable, backoff, requeue"),
    "8.2a": ("08-scheduleone-binding-errors-backoff.ipynb", "The happy path, step by step"),
    "8.2": ("08-scheduleone-binding-errors-backoff.ipynb", "The happy path, step by step"),
    "8.2b": ("08-scheduleone-binding-errors-backoff.ipynb", "The happy path, step by step"),
    "9.1": ("09-leader-election-and-ha.ipynb", "Who gets the lock"),
    "10.1": ("10-policy-files-and-custom-algorithms.ipynb", "Your own predicate and priority"),
    "11.1": ("11-quirks-of-1.6.ipynb", "4. SelectorSpread's NaN with zones"),
    "15.1": ("15-who-creates-the-pods.ipynb", "2. Scaled from 3 to 50"),
}
#: exercises to do *before* their section, because the section gives the answer away
SOLVE_FIRST = {"11.1"}


_SCENARIO_OUTCOME = ("### In a whole scenario\n\nThe scenario runs three times with the same seed: the real "
                     "scheduler, the reference solution plugged in, and yours plugged in the same way (in a "
                     "separate process). Your function is compared with the reference call by call - each "
                     "verdict, score or returned value at the same inputs - and the outcomes: where the pods "
                     "ended up, which events were recorded, did a scheduler process crash? \"Same outcome\" "
                     "needs both; otherwise the report names the first call that differs (its inputs, yours "
                     "vs the real one).")
_SCENARIO_TRACE = ("### In whole scenarios, stage for stage\n\nEach scenario runs three times with the same "
                   "seed: the real scheduler, the reference solution plugged in, and yours plugged in the same "
                   "way (in a separate process). Every recorded trace stage is compared - time, process, stage, "
                   "message, and on which goroutine it ran - and so is every call of your function with the "
                   "reference's at the same inputs. The report names the first stage that differs (expected vs "
                   "got) and draws the pipeline view of both runs there, and the first call that differs.")


def lesson_link(task: Task) -> str:
    """The sentence that sends the learner back to where the topic is taught."""
    notebook, section = LESSONS[task.id]
    where = f"[notebook {notebook[:2]}](../notebooks/{notebook}), section “{section}”"
    if task.id in SOLVE_FIRST:
        return (f"This exercise belongs to {where} - do it **before** you read that section, which gives "
                f"the answer away; read it when you are done.")
    return f"This exercise belongs to {where} - read that first, or go back there when you are done."


def build_notebook(task: Task) -> nbformat.NotebookNode:
    md, code = nbformat.v4.new_markdown_cell, nbformat.v4.new_code_cell
    links = "\n".join(f"- [{label}]({url})" for label, url in task.go_links)
    cells = [
        md(f"# Exercise {task.id}: {task.title}\n\n{lesson_link(task)}\n\n{task.intro}\n\nGo source (v1.6.1):\n{links}"),
        code("from kschedlearn.exercises import check, hint, plug_in, plug_in_scenario, quiz"),
        md(f"## Your code\n\nReplace the `TODO(task {task.id})` below, then run the check."),
        code(stub_source(task).rstrip("\n"), metadata={"tags": ["stub"]}),
        md("## Check"),
        code(f'report = check("{task.id}", {task.function_name})\nreport', metadata={"tags": ["check"]}),
        md("## Hints (run one at a time)"),
        *(code(f'hint("{task.id}", {level})') for level in (1, 2, 3)),
        md("## Plug it in\n\nRun the scheduler's own code with your function in place of the real one."),
        code(f'plug_in("{task.id}", {task.function_name})'),
        md(_SCENARIO_TRACE if task.scenario_plugin is not None else _SCENARIO_OUTCOME),
        code(f'plug_in_scenario("{task.id}", {task.function_name})'),
    ]
    if task.quiz:
        cells += [
            md("## Predict the next state\n\nChange the seed for a new question."),
            code(f'q = quiz("{task.quiz}", seed=1)\nq'),
            code("my_guess = None  # write your prediction here\nprint(q.answer(my_guess))"),
        ]
    nb = nbformat.v4.new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.metadata["kschedlearn"] = {"task": task.id, "marker": task.marker}
    for i, cell in enumerate(nb.cells):  # stable ids keep regenerated files byte-identical
        cell["id"] = f"task-{task.marker}-{i}"
    return nb


def main(argv: list[str]) -> int:
    check_only = "--check" in argv
    OUT.mkdir(exist_ok=True)
    stale = []
    for task in all_tasks():
        text = nbformat.writes(build_notebook(task)) + "\n"
        path = OUT / task.notebook
        if check_only:
            if not path.exists() or path.read_text() != text:
                stale.append(path.name)
        else:
            path.write_text(text)
    if stale:
        print("stale exercise notebooks:", ", ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
