"""The 8.2 capstone: a correct scheduleOne reproduces the guided tour, bind-failure and
assume-expiry stage for stage; a scheduleOne that binds synchronously is caught and the first
divergent stage is named (with the pipeline view of both runs at that point)."""

from __future__ import annotations

import pytest
from wrong_answers import WRONG_ANSWERS

from kschedlearn.exercises import get_task, plug_in_scenario
from kschedlearn.exercises.capstone import CapstoneReport
from kschedlearn.exercises.tasks.t08_2_schedule_one import SCENARIOS
from kschedlearn.exercises.trace_compare import first_divergence, steps_of


def _wrong(misconception: str):
    return next(w for w in WRONG_ANSWERS if w.misconception == misconception).build()


@pytest.mark.task_8_2
def test_correct_schedule_one_reproduces_every_stage_of_the_three_scenarios():
    report = plug_in_scenario("8.2", get_task("8.2").load_solution())
    assert isinstance(report, CapstoneReport)
    assert [s.trace.scenario for s in report.scenarios] == list(SCENARIOS)
    for s in report.scenarios:
        assert s.trace.divergence is None and s.trace.reference_stages == s.trace.learner_stages > 50
        assert s.same and s.reference.placements
    assert report.same and "stage for stage" in report.summary()


@pytest.mark.task_8_2
def test_synchronous_bind_is_caught_at_the_bind_stage():
    report = plug_in_scenario("8.2", _wrong("binds synchronously"))
    assert not report.same
    for s in report.scenarios:
        d = s.trace.divergence
        assert d is not None and d.stage == "bind"
        assert d.expected.stage == d.got.stage == "bind"
        assert not d.expected.on_loop and d.got.on_loop
        assert "wrong goroutine" in d.explain() and "[bind]" in d.explain()
        assert d.reference_snapshot is not None and d.learner_snapshot is not None
    text, page = str(report), report._repr_html_()
    assert "first divergence at stage" in text and "[bind]" in text
    assert "pipeline at the first divergence [bind]" in page and "<svg" in page


@pytest.mark.task_8_2
def test_missing_forget_diverges_only_in_bind_failure():
    report = plug_in_scenario("8.2", _wrong("a failed bind needs no cache cleanup"))
    by_name = {s.trace.scenario: s for s in report.scenarios}
    assert by_name["three-nodes"].same and by_name["assume-expiry"].same
    d = by_name["bind-failure"].trace.divergence
    assert d.expected.stage == "forgetPod" and d.got.stage != "forgetPod"


@pytest.mark.task_8_2
def test_first_divergence_of_equal_and_truncated_runs():
    from kschedlearn import Simulation

    sim = Simulation.from_scenario("three-nodes", seed=1, snapshots=False)
    sim.run()
    steps = steps_of(sim.trace)
    assert first_divergence(steps, steps) is None
    assert first_divergence(steps, steps[:10]) == 10
    assert all(s.stage != "log" for s in steps)


@pytest.mark.task_8_2
def test_single_scenario_and_broken_function():
    def schedule_one(sched):
        raise RuntimeError("boom")

    report = plug_in_scenario("8.2", schedule_one, "bind-failure")
    assert len(report.scenarios) == 1 and not report.same
    assert report.learner.crashes and "boom" in report.learner.crashes[0]
    assert report.first_divergence.got.stage == "process.crash"


@pytest.mark.task_4_1
def test_informer_process_plugged_into_three_nodes_confirms_the_assumed_pod():
    """4.1 in the assigned-pod informer: the same stages, and cache.addPod confirms web-1."""
    report = plug_in_scenario("4.1", get_task("4.1").load_solution())
    assert report.same, str(report)
    sim_report = report.scenarios[0]
    assert sim_report.trace.scenario == "three-nodes" and sim_report.trace.divergence is None
    assert sim_report.trace.confirmed[0] == sim_report.trace.confirmed[1] >= 1



@pytest.mark.task_4_1
def test_informer_process_stub_leaves_the_assumed_pod_unconfirmed():
    from kschedlearn.exercises.stubs import load_stub

    report = plug_in_scenario("4.1", load_stub(get_task("4.1")))
    s = report.scenarios[0]
    assert not report.same and s.trace.divergence.expected.stage == "handler.OnAdd"
    assert s.trace.confirmed[0] >= 1 and s.trace.confirmed[1] == 0
    assert "confirmed 1 assumed pod(s) in the real run, 0 in yours" in str(report)


@pytest.mark.task_9_1
def test_try_acquire_or_renew_in_ha_failover_takes_over_at_the_same_time():
    from kschedlearn.exercises.tasks.t09_1_try_acquire_or_renew import _patch
    from kschedlearn.exercises.trace_compare import compare_scenario

    def takeover(sim):
        return next(e.time for e in sim.trace if e.stage == "leaderelection.acquire"
                    and e.process == "scheduler-b" and "successfully acquired" in e.message)

    trace, reference, learner = compare_scenario("ha-failover", lambda: _patch(get_task("9.1").load_solution()))
    assert trace.same and takeover(learner) == takeover(reference) > 20.0
    wrong, _, mine = compare_scenario("ha-failover", lambda: _patch(_wrong("renew without checking the holder")))
    assert not wrong.same and wrong.divergence.expected.stage == "leaderelection.acquire"
