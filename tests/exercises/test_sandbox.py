"""The learner sandbox: whatever the learner's function does - loop for ever while catching
BaseException, sys.exit, os._exit, raise KeyboardInterrupt, crash below Python, print 10 MB,
change its inputs - ``check`` / ``plug_in`` / ``plug_in_scenario`` report it clearly within the
budget and this process (the notebook kernel) keeps running."""

from __future__ import annotations

import os
import signal
import sys
import time

import pytest

from kschedlearn.exercises import check, get_task, plug_in, plug_in_scenario
from kschedlearn.exercises.framework import CHANGED_INPUT, ERROR, PASS, TIMEOUT
from kschedlearn.exercises.limits import time_limit
from kschedlearn.exercises.sandbox import fork_available

pytestmark = pytest.mark.skipif(not fork_available(), reason="the sandbox needs os.fork")


def _still_alive() -> None:
    """This process still runs the real code correctly after the learner's function ran."""
    assert os.getpid() > 0
    assert check("8.1", get_task("8.1").load_solution()).passed


def test_a_loop_that_catches_base_exception_is_stopped_within_the_budget():
    def get_backoff(entry, max_duration):
        while True:
            try:
                while True:
                    pass
            except BaseException:  # noqa: BLE001 - the learner's point: swallow everything
                continue

    start = time.monotonic()
    report = check("8.1", get_backoff, time_limit=0.5)
    assert time.monotonic() - start < 0.5 + 2.0  # the budget is per check, not per case
    first, *rest = report.results
    assert first.status == TIMEOUT and "time limit of 0.5 s reached" in first.message
    assert all(r.status == TIMEOUT and r.message.startswith("Not run:") for r in rest)
    _still_alive()


def test_os_exit_ends_only_the_child_and_is_named():
    def get_backoff(entry, max_duration):
        os._exit(7)

    report = check("8.1", get_backoff, time_limit=5)
    assert {r.status for r in report.results} == {ERROR}
    assert "os._exit(7)" in report.results[0].message
    _still_alive()


def test_sys_exit_is_reported_as_the_learners_exception():
    def get_backoff(entry, max_duration):
        sys.exit(3)

    report = check("8.1", get_backoff, time_limit=5)
    assert {r.status for r in report.results} == {ERROR}
    assert "SystemExit: 3" in report.results[0].message
    assert "sys.exit(3)" in report.results[0].message  # the learner's own line
    _still_alive()


def test_keyboard_interrupt_raised_by_the_learner_is_reported():
    def get_backoff(entry, max_duration):
        raise KeyboardInterrupt

    report = check("8.1", get_backoff, time_limit=5)
    assert {r.status for r in report.results} == {ERROR}
    assert "KeyboardInterrupt" in report.results[0].message
    _still_alive()


def test_a_crash_below_python_is_named_by_its_signal():
    def get_backoff(entry, max_duration):
        os.kill(os.getpid(), signal.SIGSEGV)

    report = check("8.1", get_backoff, time_limit=5)
    assert {r.status for r in report.results} == {ERROR}
    assert "SIGSEGV" in report.results[0].message
    _still_alive()


def test_ten_megabytes_of_output_are_capped(capsys):
    def get_backoff(entry, max_duration):
        for _ in range(10_000):
            print("x" * 1000)
        return entry.backoff

    start = time.monotonic()
    report = check("8.1", get_backoff, time_limit=20)
    assert time.monotonic() - start < 20
    assert report.results  # the check ran to the end and reported
    shown = capsys.readouterr().out
    assert len(shown) < 100_000
    assert "more characters of output were dropped" in shown
    _still_alive()


def test_printing_for_debugging_still_shows(capsys):
    solution = get_task("8.1").load_solution()

    def get_backoff(entry, max_duration):
        print("debug: called")
        return solution(entry, max_duration)

    assert check("8.1", get_backoff).passed
    assert "debug: called" in capsys.readouterr().out


def test_changing_a_read_only_input_fails_and_names_the_change():
    solution = get_task("6.1").load_solution()

    def pod_fits_resources(pod, meta, node_info):
        pod.metadata.labels["touched"] = "yes"
        return solution(pod, meta, node_info)

    report = check("6.1", pod_fits_resources)
    changed = [r for r in report.results if r.status == CHANGED_INPUT]
    assert changed, str(report)
    assert "changed its input 'pod'" in changed[0].message
    assert "pod.metadata.labels['touched'] was added" in changed[0].message


def test_changing_the_node_info_fails():
    solution = get_task("7.1").load_solution()

    def least_requested_priority_map(pod, meta, node_info):
        node_info.generation += 1
        return solution(pod, meta, node_info)

    report = check("7.1", least_requested_priority_map)
    assert {r.status for r in report.results} == {CHANGED_INPUT}
    assert "node_info.generation changed from" in report.results[0].message


def test_the_solutions_do_not_trip_the_input_check():
    for task_id in ("5.1", "6.1", "6.2", "7.1", "7.2"):
        report = check(task_id, get_task(task_id).load_solution())
        assert {r.status for r in report.results} == {PASS}, str(report)


def test_plug_in_survives_os_exit():
    def select_host(g, priority_list):
        os._exit(9)

    report = plug_in("7.3", select_host, seconds=5)
    assert "os._exit(9)" in report.note
    assert plug_in("7.3", get_task("7.3").load_solution()).changed == ()


def test_plug_in_scenario_names_the_time_limit():
    def least_requested_priority_map(pod, meta, node_info):
        while True:
            try:
                pass
            except BaseException:  # noqa: BLE001
                pass

    start = time.monotonic()
    result = plug_in_scenario("7.1", least_requested_priority_map, seconds=1.0)
    assert time.monotonic() - start < 1.0 + 20  # the reference run plus the budget
    assert result.error.startswith("time limit of 1 s reached")
    assert "time limit of 1 s reached" in result.summary()


def test_bad_budgets_are_rejected_clearly():
    fn = get_task("8.1").load_solution()
    for bad in (0, -1, float("nan"), "2", True):
        with pytest.raises(ValueError, match=r"time_limit must be a number of seconds > 0, got"):
            check("8.1", fn, time_limit=bad)
    with pytest.raises(ValueError, match=r"seconds must be a number of seconds > 0, got -3"):
        plug_in_scenario("8.1", fn, seconds=-3)


def test_the_in_process_limit_keeps_an_earlier_alarm():
    """pytest-timeout's alarm (or any earlier one) survives the in-process time limit."""
    outer_handler = signal.getsignal(signal.SIGALRM)
    outer_left, _ = signal.getitimer(signal.ITIMER_REAL)  # pytest-timeout's, when it uses signals
    outer_deadline = time.monotonic() + outer_left
    fired = []
    signal.signal(signal.SIGALRM, lambda s, f: fired.append(s))
    try:
        signal.setitimer(signal.ITIMER_REAL, 30.0)
        with time_limit(0.05):
            pass
        left, _ = signal.getitimer(signal.ITIMER_REAL)
        assert 25.0 < left <= 30.0  # the earlier timer is re-armed with what was left of it
        signal.setitimer(signal.ITIMER_REAL, 0.05)
        with time_limit(5.0):  # the earlier deadline comes first: its owner's handler runs
            time.sleep(0.3)
        assert fired == [signal.SIGALRM]
    finally:  # hand pytest-timeout its alarm back
        signal.signal(signal.SIGALRM, outer_handler)
        if outer_left > 0:
            signal.setitimer(signal.ITIMER_REAL, max(outer_deadline - time.monotonic(), 0.01))
        else:
            signal.setitimer(signal.ITIMER_REAL, 0)


@pytest.mark.notebooks
@pytest.mark.slow
def test_a_jupyter_kernel_survives_every_escape(tmp_path):
    """In a real ipykernel: the functions live in ``__main__``; after a loop that swallows
    BaseException, os._exit, sys.exit and 10 MB of output the kernel still answers."""
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    cells = [
        "import os, sys\nfrom kschedlearn.exercises import check\nfrom kschedlearn.exercises.framework import TIMEOUT, ERROR",
        "def get_backoff(entry, max_duration):\n    while True:\n        try:\n            pass\n"
        "        except BaseException:\n            pass\n"
        "r = check('8.1', get_backoff, time_limit=1)\nassert r.results[0].status == TIMEOUT, str(r)",
        "def get_backoff(entry, max_duration):\n    os._exit(3)\n"
        "r = check('8.1', get_backoff, time_limit=5)\nassert 'os._exit(3)' in r.results[0].message, str(r)",
        "def get_backoff(entry, max_duration):\n    sys.exit(4)\n"
        "r = check('8.1', get_backoff, time_limit=5)\nassert 'SystemExit: 4' in r.results[0].message, str(r)",
        "def get_backoff(entry, max_duration):\n    print('x' * 10_000_000)\n    return 1.0\n"
        "r = check('8.1', get_backoff, time_limit=20)\nassert r.results",
        "print('kernel alive', os.getpid())",
    ]
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    client = nbclient.NotebookClient(nb, timeout=60, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    last = "".join(o.get("text", "") for o in nb.cells[-1].outputs)
    assert "kernel alive" in last
    printed = "".join(o.get("text", "") for o in nb.cells[4].outputs)
    assert "more characters of output were dropped" in printed and len(printed) < 100_000


def test_without_fork_the_checks_run_in_process_under_the_alarm(monkeypatch):
    """Where os.fork is missing (Windows): in-process, SIGALRM per case; the report is the same."""
    from kschedlearn.exercises import sandbox

    monkeypatch.setattr(sandbox, "fork_available", lambda: False)

    def get_backoff(entry, max_duration):
        while True:
            pass

    report = check("8.1", get_backoff, time_limit=0.2)
    assert {r.status for r in report.results} == {TIMEOUT}
    assert "time limit of 0.2 s reached" in report.results[0].message
    assert check("8.1", get_task("8.1").load_solution()).passed
