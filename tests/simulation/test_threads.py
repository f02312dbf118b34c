"""The notebook API is confined to the thread that created the simulation (issue #26).

A simulation's goroutines are greenlets, which only ever run on the thread that made them; a
call from another thread used to surface greenlet's raw ``ValueError`` and leave the session
broken. Now every call that runs or changes the world checks the thread first: a clear error
naming both threads, and nothing changed - the session steps and forks afterwards.
"""

from __future__ import annotations

import threading

import pytest

from kschedlearn import Simulation
from kschedlearn.simulation.checks import WrongThreadError


def _in_thread(fn):
    """Run ``fn`` on a second thread; what it raised (or None)."""
    raised: list[BaseException | None] = [None]

    def body():
        try:
            fn()
        except BaseException as err:  # noqa: BLE001 - handed back to the test
            raised[0] = err

    t = threading.Thread(target=body, name="worker-thread")
    t.start()
    t.join(30)
    assert not t.is_alive()
    return raised[0]


@pytest.fixture(scope="module")
def started():
    sim = Simulation.from_scenario("three-nodes", seed=1)
    sim.step()
    sim.step()
    return sim


@pytest.mark.parametrize("call", [
    lambda sim: sim.inject.fail_next_bind(),
    lambda sim: sim.step(),
    lambda sim: sim.run(),
    lambda sim: sim.run_until("assume"),
    lambda sim: sim.goto(0),
    lambda sim: sim.back(),
    lambda sim: sim.run_for(5),
    lambda sim: sim.inject.add_pod({"metadata": {"name": "late", "namespace": "default"},
                                    "spec": {"containers": [{"name": "c", "image": "nginx"}]}}),
    lambda sim: sim.add_breakpoint("assume"),
], ids=["inject.fail_next_bind", "step", "run", "run_until", "goto", "back", "run_for", "inject.add_pod",
        "add_breakpoint"])
def test_a_second_thread_gets_a_clear_error_and_changes_nothing(started, call):
    history = [(e.seq, e.stage, e.message) for e in started.trace]
    cursor, breakpoints = started.cursor, list(started.breakpoints)
    err = _in_thread(lambda: call(started))
    assert isinstance(err, WrongThreadError), repr(err)
    text = str(err)
    assert "called from thread 'worker-thread'" in text
    assert f"belongs to thread {threading.current_thread().name!r}" in text and "Nothing was changed." in text
    assert [(e.seq, e.stage, e.message) for e in started.trace] == history
    assert started.cursor == cursor and started.breakpoints == breakpoints


def test_after_wrong_thread_calls_the_session_still_steps_and_forks():
    sim = Simulation.from_scenario("three-nodes", seed=1)
    sim.start()
    assert isinstance(_in_thread(lambda: sim.inject.fail_next_bind()), WrongThreadError)
    assert isinstance(_in_thread(lambda: sim.step()), WrongThreadError)
    before = sim.cursor
    assert sim.step() is not None and sim.cursor > before  # steps on this thread
    sim.run_until("assume")
    at = sim.cursor
    sim.back(3)
    sim.inject.fail_next_bind()  # changing the past forks the history
    assert sim.cursor < at
    sim.run()
    assert any(e.stage == "inject" for e in sim.trace)
    assert any(e.stage == "bind" for e in sim.trace)


def test_a_simulation_built_on_a_thread_that_ended_passes_to_the_caller():
    made: list[Simulation] = []
    assert _in_thread(lambda: made.append(Simulation.from_scenario("three-nodes", seed=1))) is None
    sim = made[0]  # its creating thread has ended and nothing was built yet
    assert sim.start() is not None  # so this thread takes it over


def test_a_simulation_run_on_a_thread_that_ended_names_it():
    made: list[Simulation] = []

    def build_and_start():
        sim = Simulation.from_scenario("three-nodes", seed=1)
        sim.start()
        made.append(sim)

    assert _in_thread(build_and_start) is None
    with pytest.raises(WrongThreadError, match=r"belongs to thread 'worker-thread', which has ended"):
        made[0].step()
