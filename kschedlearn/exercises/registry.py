"""The task registry: every exercise, its checks, hints, plug-in experiment and solution.

Go: none (kschedlearn-only, DESIGN §10). Task ids are ``"<notebook>.<exercise>"`` and follow the
curriculum: 01 the start-up chain, 02 label selectors, 03 FIFO/DeltaFIFO, 04 the informer, 05 the scheduler cache, 06 predicates, 07 priorities and
selectHost, 08 backoff and scheduleOne, 09 leader election, 10 policy files, 11 1.6's quirks, 15 the controllers that create the pods. The registry is a fixed tuple of task modules (no
mutable module state): each module under ``kschedlearn.exercises.tasks`` defines ``TASK``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

import attrs

from kschedlearn.exercises import framework as fw

_TASK_MODULES = (
    "t01_1_startup_chain",
    "t02_1_requirement_matches",
    "t03_1_fifo_pop",
    "t03_2_dedup_deltas",
    "t04_1_informer_process",
    "t04_2_reflector_watch_handler",
    "t05_1_calculate_resource",
    "t05_2_cleanup_assumed_pods",
    "t05_3_add_pod",
    "t06_1_pod_fits_resources",
    "t06_2_pod_fits_host_ports",
    "t07_1_least_requested",
    "t07_2_balanced_resource_allocation",
    "t07_3_select_host",
    "t07_4_selector_spread",
    "t08_1_backoff",
    "t08_2a_schedule_one_blanks",
    "t08_2_schedule_one",
    "t08_2b_schedule_one_spec",
    "t09_1_try_acquire_or_renew",
    "t10_1_custom_policy",
    "t11_1_find_the_bug",
    "t15_1_manage_replicas",
)


@attrs.frozen
class Task:
    """One exercise.

    - ``function_name``: what the learner writes; the stub's ``def`` line and docstring are
      generated from the solution function (``stubs.stub_source``).
    - ``stub_imports``: import lines the stub cell needs.
    - ``intro``: Markdown shown at the top of the notebook; ``go_links``: (label, URL) pairs.
    - ``hints``: three layers - the concept, the Go function and line, almost the answer.
    - ``returns``: the type(s) a result must have (None: anything).
    - ``cases()``: fresh ``Case`` objects (built lazily: they construct API objects).
    - ``patch(fn)``: a context manager that swaps ``fn`` into the real mirrored code.
    - ``plug_in(fn, simulation)``: the experiment behind ``plug_in(task_id, fn)``.
    - ``solution``: ``"module:function"`` under ``kschedlearn.exercises.solutions``.
    - ``quiz``: the quiz kind of ``kschedlearn.exercises.quiz`` shown in the notebook, if any.
    - ``scenario_plugin(fn, scenario, seed=, seconds=)``: the task's own whole-scenario check
      behind ``plug_in_scenario`` (None: the generic placement/event comparison).
    - ``changes_outcome``: the solution is a bug fix, meant to change the scenario's outcome.
    - ``time_limit``: seconds of wall time one ``check`` (all cases) may take.
    - ``protected``: parameters (names as in the solution) the learner's function must only
      read; changing them fails the case.
    - ``stub``: the learner stub's whole source, when it is not the solution's ``def`` line and
      docstring over a TODO (a scaffold with blanks, a bare specification); None otherwise.
    - ``call_view``: how the plug-ins describe and compare each call (``calls.CallView``; None:
      the default, for functions that only read their inputs).
    - ``live(fn, log, simulation)``: the patch for a simulation already running, where ``patch``
      alone does not reach what its scheduler already built (a priority taken from the plugin
      registry when the scheduler was configured); records like ``recording`` (None:
      ``recorded_patch``).
    - ``baseline``: what the learner's run must match - ``"real"``, the real scheduler's run, or
      ``"reference"``, the run with the reference solution (a fix of a 1.6 bug, plugins the
      real scheduler does not have).
    - ``recording(fn, log)``: for a task whose function is called once to *produce* what the
      run uses (an order, plugins, a fix), a context manager like ``patch`` that records each
      use of that product in ``log`` (None: ``patch`` with each call of ``fn`` recorded).
    """

    id: str
    title: str
    slug: str
    function_name: str
    stub_imports: str
    intro: str
    go_links: tuple[tuple[str, str], ...]
    hints: tuple[str, str, str]
    returns: Any
    cases: Callable[[], list[fw.Case]]
    patch: Callable[[Callable[..., Any]], AbstractContextManager[None]]
    plug_in: Callable[..., fw.PlugInReport]
    solution: str
    quiz: str | None = None
    time_limit: float = fw.DEFAULT_TIME_LIMIT
    scenario_plugin: Callable[..., Any] | None = None
    changes_outcome: bool = False
    protected: tuple[str, ...] = ()
    stub: str | None = None
    call_view: Any = None
    baseline: str = "real"
    live: Callable[[Callable[..., Any], Any, Any], AbstractContextManager[None]] | None = None
    recording: Callable[[Callable[..., Any], Any], AbstractContextManager[None]] | None = None

    def recorded_patch(self, fn: Callable[..., Any], log: Any) -> AbstractContextManager[None]:
        """``patch`` with every call of ``fn`` (or use of what it made) recorded in ``log``."""
        if self.recording is not None:
            return self.recording(fn, log)
        from kschedlearn.exercises.calls import DEFAULT_VIEW  # noqa: PLC0415

        return self.patch(log.wrap(fn, self.call_view or DEFAULT_VIEW))

    @property
    def marker(self) -> str:
        """The pytest marker name of this task, e.g. ``task_3_1``."""
        return "task_" + self.id.replace(".", "_")

    @property
    def notebook(self) -> str:
        """The learner notebook's file name, e.g. ``03-1-fifo-pop.ipynb`` (``08-2a-...`` for 8.2a)."""
        major, minor = self.id.split(".")
        return f"{int(major):02d}-{minor}-{self.slug}.ipynb"

    def load_solution(self) -> Callable[..., Any]:
        module, _, name = self.solution.partition(":")
        return getattr(importlib.import_module(f"kschedlearn.exercises.solutions.{module}"), name)


def all_tasks() -> tuple[Task, ...]:
    """Every task, in curriculum order."""
    return tuple(
        importlib.import_module(f"kschedlearn.exercises.tasks.{m}").TASK for m in _TASK_MODULES
    )


def get_task(task_id: str) -> Task:
    """The task with id ``task_id`` (``"3.1"``); a clear error naming the known ids otherwise."""
    key = str(task_id).strip()
    for module in _TASK_MODULES:
        if _module_id(module) == key:
            return importlib.import_module(f"kschedlearn.exercises.tasks.{module}").TASK
    known = ", ".join(_module_id(m) for m in _TASK_MODULES)
    raise KeyError(f"no exercise {task_id!r}; the exercises are {known}")


def _module_id(module: str) -> str:
    """``t03_1_fifo_pop`` -> ``3.1``; ``t08_2a_schedule_one_blanks`` -> ``8.2a`` (a letter marks a
    variant of the same exercise: 8.2a with blanks, 8.2b from the bare specification)."""
    major, minor = module[1:].split("_")[:2]
    number = minor.rstrip("abcdefghijklmnopqrstuvwxyz")
    return f"{int(major)}.{int(number)}{minor[len(number):]}"


def task_ids() -> tuple[str, ...]:
    """Every task id, in curriculum order, without importing the task modules."""
    return tuple(_module_id(m) for m in _TASK_MODULES)
