"""``plug_in(task, fn, simulation)``: the learner's function inside a live simulation.

Whatever the function does - loop for ever while catching BaseException, sys.exit, os._exit,
raise KeyboardInterrupt, change its read-only inputs, print 10 MB - the report names the cause
within the budget, this process (the notebook kernel) keeps running, the recorded history is
intact and the simulation keeps stepping (``kschedlearn.exercises.live``).
"""

from __future__ import annotations

import os
import sys
import time
import warnings

import pytest

from kschedlearn import Simulation
from kschedlearn.exercises import get_task, plug_in
from kschedlearn.exercises.sandbox import fork_available
from kschedlearn.simulation.checks import SimulatedProcessCrashed

pytestmark = pytest.mark.skipif(not fork_available(), reason="the rehearsal needs os.fork")

SOLUTION = get_task("6.1").load_solution()


def _started() -> Simulation:
    """A simulation stepped a little way in (the cursor is not at the start)."""
    sim = Simulation.from_scenario("three-nodes", seed=1)
    for _ in range(3):
        sim.step()
    return sim


def _plug(fn, sim, **kw):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        report = plug_in("6.1", fn, sim, **kw)
    return report, [str(w.message) for w in caught if issubclass(w.category, SimulatedProcessCrashed)]


def _history(sim: Simulation) -> list[tuple[int, str, str]]:
    return [(ev.seq, ev.stage, ev.message) for ev in sim.trace]


def _steppable(sim: Simulation) -> None:
    """The session works: back, goto and step move the cursor through the history."""
    sim.goto(0)
    assert sim.cursor == 0
    assert sim.step(granularity="event") is not None and sim.cursor > 0
    sim.back()
    assert sim.cursor == 0


def _unchanged_and_steppable(sim: Simulation, history: list, cursor: int) -> None:
    assert _history(sim) == history and sim.cursor == cursor
    assert sim.step() is not None  # the world still runs on from where it stood
    _steppable(sim)


def _crash_event(sim: Simulation):
    crashes = [ev for ev in sim.trace if ev.stage == "process.crash"]
    assert len(crashes) == 1, crashes
    return crashes[0]


def test_the_solution_plugged_in_runs_like_the_reference():
    reference = Simulation.from_scenario("three-nodes", seed=1)
    reference.run()
    sim = _started()
    report, crashes = _plug(SOLUTION, sim)
    assert not crashes and report.changed == (), str(report)
    assert _history(sim) == _history(reference)


def test_a_loop_catching_base_exception_is_stopped_and_the_simulation_is_untouched():
    def pod_fits_resources(pod, meta, node_info):
        while True:
            try:
                while True:
                    pass
            except BaseException:  # noqa: BLE001 - the learner's point: swallow everything
                continue

    sim = _started()
    history, cursor = _history(sim), sim.cursor
    start = time.monotonic()
    report, _ = _plug(pod_fits_resources, sim, seconds=1.0)
    assert time.monotonic() - start < 1.0 + 5.0
    assert "time limit of 1 s reached" in report.note
    assert "Your simulation was not changed" in report.note
    _unchanged_and_steppable(sim, history, cursor)


def test_os_exit_ends_only_the_rehearsal():
    def pod_fits_resources(pod, meta, node_info):
        os._exit(7)

    sim = _started()
    history, cursor = _history(sim), sim.cursor
    report, _ = _plug(pod_fits_resources, sim, seconds=20)
    assert "os._exit(7)" in report.note and "not changed" in report.note
    _unchanged_and_steppable(sim, history, cursor)


def test_sys_exit_kills_the_simulated_process_and_names_the_line():
    def pod_fits_resources(pod, meta, node_info):
        sys.exit(3)

    sim = _started()
    before = _history(sim)[: sim.cursor + 1]
    report, crashes = _plug(pod_fits_resources, sim, seconds=20)
    assert len(crashes) == 1 and "scheduler-0 crashed" in crashes[0]
    crash = _crash_event(sim)
    for text in (crash.message, report.note):
        assert "your pod_fits_resources() raised SystemExit: 3" in text
        assert "sys.exit(3)" in text  # the learner's own line
    assert _history(sim)[: len(before)] == before  # the history recorded before is intact
    _steppable(sim)


def test_a_keyboard_interrupt_the_learner_raises_is_their_error():
    def pod_fits_resources(pod, meta, node_info):
        raise KeyboardInterrupt

    sim = _started()
    report, crashes = _plug(pod_fits_resources, sim, seconds=20)
    assert "raised KeyboardInterrupt" in _crash_event(sim).message
    assert "raise KeyboardInterrupt" in report.note and crashes
    _steppable(sim)


def test_changing_the_pod_kills_the_process_and_names_the_change():
    def pod_fits_resources(pod, meta, node_info):
        pod.metadata.labels["touched"] = "yes"
        return SOLUTION(pod, meta, node_info)

    sim = _started()
    report, crashes = _plug(pod_fits_resources, sim, seconds=20)
    message = _crash_event(sim).message
    assert "InputChangedError" in message and "changed its input 'pod'" in message
    assert "pod.metadata.labels['touched'] was added" in message
    assert crashes and "changed its input" in report.note
    # the write went to a copy: the API server's pods are as the scenario made them
    assert all("touched" not in p.metadata.labels for p in sim.world.api.storage.items("pods"))
    _steppable(sim)


def test_a_wrong_return_type_is_named():
    def pod_fits_resources(pod, meta, node_info):
        return "yes"

    sim = _started()
    _plug(pod_fits_resources, sim, seconds=20)
    assert "returned a str ('yes'), but it must return a tuple" in _crash_event(sim).message
    _steppable(sim)


def test_ten_megabytes_of_output_are_capped(capsys):
    def pod_fits_resources(pod, meta, node_info):
        for _ in range(1000):
            print("x" * 10_000)
        return SOLUTION(pod, meta, node_info)

    sim = _started()
    capsys.readouterr()
    report, crashes = _plug(pod_fits_resources, sim, seconds=60)
    shown = capsys.readouterr().out
    assert len(shown) < 100_000 and "more characters of output were dropped" in shown
    assert not crashes and report.changed == (), str(report)
    _steppable(sim)


def test_a_bad_simulation_argument_is_a_clear_error():
    with pytest.raises(TypeError, match=r"plug_in\('6.1', fn, simulation\): the simulation has no run\(\) method"):
        plug_in("6.1", SOLUTION, object())
    with pytest.raises(ValueError, match=r"seconds must be a number of seconds > 0, got 0"):
        plug_in("6.1", SOLUTION, _started(), seconds=0)


# -- the verdict is what happened (issue #21 item 4) ----------------------------------------------
def _counting(task_id: str):
    solution = get_task(task_id).load_solution()
    calls = [0]

    def counted(*args, **kwargs):
        calls[0] += 1
        return solution(*args, **kwargs)

    counted.__name__ = solution.__name__
    return counted, calls


#: after the scheduler was created: what each task's plug-in does there
_AFTER_START = [
    pytest.param("1.1", "refused", id="1.1"),   # the start-up chain has run: nothing uses the order again
    pytest.param("4.1", "refused", id="4.1"),   # the informer made its Process function when it was created
    pytest.param("3.1", "same", id="3.1"),
    pytest.param("5.2", "same", id="5.2"),
    pytest.param("5.3", "same", id="5.3"),
    pytest.param("7.1", "same", id="7.1"),      # the configured priority is swapped in the running algorithm
    pytest.param("7.4", "same", id="7.4"),      # the configured bound method looks the class up at call time
    pytest.param("11.1", "same", id="11.1"),
]
_SCENARIO = {"7.4": "spread-and-affinity", "5.2": "assume-expiry",
             "11.1": "kschedlearn/exercises/data/quirk-selector-spread-nan.yaml"}


@pytest.mark.parametrize(("task_id", "expected"), _AFTER_START)
def test_plug_in_after_the_scheduler_started_runs_the_function_or_refuses(task_id, expected):
    sim = Simulation.from_scenario(_SCENARIO.get(task_id, "three-nodes"), seed=1)
    sim.run_until(stage="Scheduler.Run")
    history, cursor = _history(sim), sim.cursor
    fn, calls = _counting(task_id)
    report, _ = _plug_with(task_id, fn, sim)
    assert "patched" not in str(report)
    if expected == "refused":
        assert not report.same and report.refused and calls == [0], str(report)
        assert "never called your" in report.summary() and "Your simulation was not changed" in report.summary()
        _unchanged_and_steppable(sim, history, cursor)
        return
    assert report.same and report.calls >= 1 and report.calls == calls[0], str(report)


def test_issue_5_3_after_cache_add_pod_the_learners_add_pod_is_called():
    """The issue's case: burst-100-pods stopped at the first cache.addPod; 99 more follow."""
    sim = Simulation.from_scenario("burst-100-pods", seed=1)
    sim.run_until(stage="cache.addPod")
    fn, calls = _counting("5.3")
    report, _ = _plug_with("5.3", fn, sim)
    assert "patched" not in str(report)
    assert report.calls >= 1 and calls[0] == report.calls and report.same, str(report)


def test_a_finished_simulation_is_refused_and_left_as_it_was():
    sim = Simulation.from_scenario("three-nodes", seed=1)
    sim.run()
    history, cursor = _history(sim), sim.cursor
    fn, calls = _counting("6.1")
    report, _ = _plug_with("6.1", fn, sim)
    assert report.refused and not report.same and calls == [0]
    assert "has already run to its end" in report.summary() and "patched" not in str(report)
    assert _history(sim) == history and sim.cursor == cursor


def test_a_cursor_in_the_past_forks_the_history_and_runs_the_function():
    sim = Simulation.from_scenario("three-nodes", seed=1)
    sim.run()
    sim.goto(5)
    fn, calls = _counting("6.1")
    report, _ = _plug_with("6.1", fn, sim)
    assert report.same and report.calls == calls[0] >= 1, str(report)
    assert "The recorded history after event 5 was discarded" in str(report)


def test_a_wrong_priority_is_caught_call_by_call_though_the_placements_match():
    """The issue's 7.1 example: a LeastRequested map that always answers 5."""
    solution = get_task("7.1").load_solution()

    def least_requested_priority_map(pod, meta, node_info):
        return type(solution(pod, meta, node_info))(host=node_info.node().metadata.name, score=5)

    sim = Simulation.from_scenario("spread-and-affinity", seed=1)
    sim.start()
    report, _ = _plug_with("7.1", least_requested_priority_map, sim)
    assert not report.same and report.difference.startswith("call 1 (pod ")
    assert "yours " in report.difference and "=5" in report.difference


def _plug_with(task_id, fn, sim):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        report = plug_in(task_id, fn, sim)
    return report, [str(w.message) for w in caught if issubclass(w.category, SimulatedProcessCrashed)]
