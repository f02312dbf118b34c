"""Suite-wide plumbing: the process ends right after pytest has finished.

After the summary line a CPython process still tears down every module and frees, one by one,
every object the run left behind — with a whole suite's worth of simulations that took about a
minute of CPU. Nothing is lost by skipping only that part: the cleanup below runs after every
other cleanup of pytest's (``pytest_unconfigure`` hooks, the unraisable-exception check, the
plugins' cleanups); it then waits for non-daemon threads as the interpreter would, runs every
``atexit`` handler (logging's flush, temporary-directory pruning, kernels' and browsers'
shutdowns, ...), flushes the standard streams and ends the process with pytest's exit status.

It stands aside (an ordinary exit) in pytest-xdist workers, when the session did not reach its
end or ends in a usage error (printed after the cleanups), when coverage is
measuring (it saves its data from the interpreter's own shutdown), or when
``KSCHEDLEARN_TEST_NORMAL_EXIT=1`` is set.

The learner's progress file goes to a temporary folder, never the user's (issue 22 item 4):
``check``, predict cells, ``ask`` and the mastery check record what a learner passed in
``$KSCHEDLEARN_DATA_DIR/progress.json``; the suite points that variable at a fresh temporary
folder before anything is collected, so no test (nor a notebook kernel or subprocess a test
starts, which inherit the environment) writes to the real one. Tests of the progress file itself
set their own folder with ``monkeypatch``.
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import sys
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings
from tests.hypothesis_budget import FAST_LOOP, examples

from kschedlearn.curriculum.progress import ENV_VAR

if FAST_LOOP:
    # property tests that name no count of their own try Hypothesis's default 100 in `make test`
    settings.register_profile("fast-loop", max_examples=examples(100))
    settings.load_profile("fast-loop")

_SESSION: list[pytest.Session] = []
_MADE: list[str] = []  # the progress folders this process made


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            pass


def _end_process(config: pytest.Config) -> None:
    if not _SESSION or os.environ.get("KSCHEDLEARN_TEST_NORMAL_EXIT") == "1" or "coverage" in sys.modules:
        return
    if hasattr(config, "workerinput"):
        return  # a pytest-xdist worker: its last reports may still be on their way to the controller
    status = int(_SESSION[-1].exitstatus)
    if status == pytest.ExitCode.USAGE_ERROR:
        return  # pytest prints the usage error after this cleanup
    _flush()
    main = threading.main_thread()
    for thread in threading.enumerate():
        if thread is not main and not thread.daemon:
            thread.join()  # as the interpreter's shutdown does
    atexit._run_exitfuncs()
    _flush()
    os._exit(status)


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    # the first cleanup registered is the last one run
    config.add_cleanup(lambda: _end_process(config))
    folder = tempfile.mkdtemp(prefix="kschedlearn-test-progress-")
    _MADE.append(folder)
    os.environ[ENV_VAR] = folder


def pytest_unconfigure(config: pytest.Config) -> None:
    for folder in _MADE:
        shutil.rmtree(folder, ignore_errors=True)


ReplayDump = Callable[..., Path]


@pytest.fixture(scope="session")
def replay_dump(tmp_path_factory: pytest.TempPathFactory) -> ReplayDump:
    """``replay_dump(name, nodes, bound, pending, edit=None)``: ``benchmarks/bench_replay.py``'s
    generated cluster dump (``make_dump``), changed in place by ``edit`` when given, written to
    a new temporary folder named ``name``; its path."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    try:
        from bench_replay import make_dump
    finally:
        sys.path.pop(0)

    def write(name: str, nodes: int, bound: int, pending: int,
              edit: Callable[[dict[str, Any]], None] | None = None) -> Path:
        doc = make_dump(nodes, bound, pending)
        if edit is not None:
            edit(doc)
        path = tmp_path_factory.mktemp(name) / "dump.json"
        path.write_text(json.dumps(doc), encoding="utf-8")
        return path

    return write


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    _SESSION.append(session)  # the session reached its end (its summary is printed)


#: markers whose tests are slow end-to-end tests by definition (pyproject's ``slow`` marker):
#: ``make test-fast`` skips them too
SLOW_BY_NATURE = ("browser", "notebooks")

#: Test files that are end-to-end by nature: each test runs whole simulations (often several,
#: forked or at every step), an exercise check in a sandbox child, a server and a real client, or
#: a notebook's cells. ``make test`` runs them all; ``make test-fast`` (issue 25: "≤ 1 minute", the
#: inner loop) leaves them out and keeps the unit tests, the ported Go tables and the properties.
#: Measured on an idle 2-core machine (2026-12-02): these files were 262 of the 304 test-seconds
#: of the old fast set (``--durations=0``, summed per file). Six more on 2026-12-03 (exercise
#: notebooks run headless, whole replays and traced runs compared twice, the mastery check's
#: simulations): 160 of the fast set's ~500 test-seconds in a run under load ~5. Five more in
#: session 10: the first-list fast pops' tests, with and without snapshots (each replays a dump
#: twice, fast and mirrored), the HA tests (two replicas' whole runs per test), the stubs' and
#: the Parsons exercise's checks (each in a sandbox child).
END_TO_END_FILES = frozenset(
    {
        "accelerated/test_differential.py",
        "accelerated/test_engine_option.py",
        "accelerated/test_first_list.py",
        "accelerated/test_first_list_snapshots.py",
        "cmd/kube_scheduler/test_ha.py",
        "curriculum/test_activities.py",
        "curriculum/test_mastery.py",
        "exercises/test_capstone.py",
        "exercises/test_live_plug_in.py",
        "exercises/test_notebooks.py",
        "exercises/test_sandbox.py",
        "exercises/test_sandbox_leftovers.py",
        "exercises/test_scenario_plugin.py",
        "exercises/test_solutions.py",
        "exercises/test_startup_parsons.py",
        "exercises/test_stubs.py",
        "exercises/test_verdicts.py",
        "exercises/test_wrong_answers.py",
        "notebooks/test_predict_cells.py",
        "observe/test_trace_sharing.py",
        "observe/test_unrecorded_points.py",
        "scenarios/test_bundled.py",
        "scheduler/factory/test_precomputations_per_simulation.py",
        "scheduler/test_e2e_properties.py",
        "simulation/test_controller_manager.py",
        "simulation/test_questions.py",
        "simulation/test_questions_topics.py",
        "simulation/test_scale.py",
        "simulation/test_serve.py",
        "simulation/test_views.py",
        "simulation/test_where.py",
        "test_bad_input_corpus_http2.py",
        "test_bad_input_corpus_sandbox.py",
        "test_bench_replay.py",
        "test_kubectl.py",
        "test_kubectl_writes.py",
        "trace/test_cheap_snapshots.py",
        "trace/test_event_dump.py",
        "trace/test_snapshot_cuts.py",
        "trace/test_thinned_snapshots.py",
        "widgets/test_explorer.py",
    }
)
_TESTS = os.path.dirname(os.path.abspath(__file__))


def _end_to_end(item: pytest.Item) -> bool:
    return _relative(item) in END_TO_END_FILES


#: The files that take longest, longest first (their summed test-seconds in a full run of
#: 2026-12-03, ``--junitxml``, two workers: 231, 210, 92, 84, 84, 75, 71, 64, 63, 61, 51, 48, 47,
#: 43, 43, 42, 41, 39, 36, 35 s under load ~5). ``make test``'s pytest processes claim whole
#: files in collection order (``tools/run_tests.py``, ``tests/file_claims.py``); pytest-xdist's
#: own order (most tests first), used before, sent the two longest files, which hold 2 and 5 tests,
#: last, and one worker ran them alone for minutes after the other had finished. Longest first,
#: the processes end together.
#:
#: The files whose tests fork sandbox children (the exercise checks: two forks each) come right
#: after the first: a fork copies the page tables of the whole worker and the child's exit tears
#: them down again, so its cost grows with the worker's size, and a worker only grows as it runs
#: tests (module-level caches, worlds built and freed into a fragmented heap: a worker ends a full
#: run at 1.2–1.3 GB). Run while the workers are still small (170–550 MB), these files' system
#: time (the worker's and its children's) fell from 129 to 67 CPU-s in a full run (per-test
#: ``getrusage``, 2026-12-03 session 11, load 4–7 in both runs).
FORKING_EARLY = (
    "exercises/test_verdicts.py",
    "exercises/test_stubs.py",
    "exercises/test_sandbox_leftovers.py",
    "exercises/test_live_plug_in.py",
    "exercises/test_scenario_plugin.py",
    "exercises/test_solutions.py",
    "test_bad_input_corpus_sandbox.py",
    "exercises/test_wrong_answers.py",
    "exercises/test_sandbox.py",
    "exercises/test_capstone.py",
    "exercises/test_startup_parsons.py",
)
#: The files whose tests walk the whole heap on purpose (``gc.collect()`` to see what is freed,
#: ``gc.get_freeze_count()``, which in CPython 3.11 walks every frozen object, to see what is
#: frozen): their cost is the worker's size, not their own work. Alone they take 0.3–2.5 CPU-s
#: each; late in a full run, in a worker of 1.2 GB, 4.9, 7.7 and 8.7 (the lead's full run of
#: 2026-12-03 session 13). They go first on the worker that does not start with the packaging
#: test, before the forking files, while it holds little more than its imports.
HEAP_WALKING_EARLY = (
    "sim/test_frozen_heap.py",
    "sim/test_no_world_kept.py",
    "sim/test_gc_policy.py",
)
LONGEST_FIRST = (
    "test_packaging.py",
    *HEAP_WALKING_EARLY,
    *FORKING_EARLY,
    "test_fault_campaign.py",
    "accelerated/test_differential.py",
    "simulation/test_views.py",
    "notebooks/test_notebooks.py",
    "notebooks/test_predict_cells.py",
    "trace/test_event_dump.py",
    "browser/test_learning_loop.py",
    "simulation/test_where.py",
    "trace/test_cheap_snapshots.py",
    "exercises/test_notebooks.py",
    "simulation/test_questions_topics.py",
    "browser/test_lab.py",
    "simulation/test_questions.py",
    "browser/test_step_click.py",
    "simulation/test_simulation.py",
    "accelerated/test_plans.py",
    "browser/test_fit.py",
)
_RANK = {name: rank for rank, name in enumerate(LONGEST_FIRST)}


def _relative_path(path: Path) -> str:
    """``path`` relative to tests/, with forward slashes (as the lists above name files)."""
    return os.path.relpath(str(path), _TESTS).replace(os.sep, "/")


def _relative(item: pytest.Item) -> str:
    return _relative_path(item.path)


#: folders whose every test is slow by nature (their files mark themselves ``browser``)
SLOW_FOLDERS = ("browser",)


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """``make test-fast`` (``-m "not slow"``) does not import the end-to-end files at all: it
    would deselect every one of their tests, and importing them (notebook readers, browser
    helpers, their module-level tables) was several seconds of each worker's collection."""
    if config.getoption("markexpr", "") != "not slow":
        return None
    relative = _relative_path(collection_path)
    if relative in END_TO_END_FILES or relative.split("/")[0] in SLOW_FOLDERS:
        return True
    return None


@pytest.hookimpl(tryfirst=True)  # before ``-m`` deselects
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        by_nature = any(item.get_closest_marker(name) is not None for name in SLOW_BY_NATURE)
        if (by_nature or _end_to_end(item)) and item.get_closest_marker("slow") is None:
            item.add_marker(pytest.mark.slow)
    # a stable sort: the listed files first, in the list's order; every file keeps its own order
    items.sort(key=lambda item: _RANK.get(_relative(item), len(LONGEST_FIRST)))
