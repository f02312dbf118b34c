"""Exercise 1.1 (Parsons): the right order passes; each wrong order fails with the consequence
that the simulation observed (numbers, replica and pod names come from the run, not a table)."""

from __future__ import annotations

import pytest
from wrong_answers import WRONG_ANSWERS

from kschedlearn import Simulation
from kschedlearn.exercises import check, get_task, plug_in
from kschedlearn.exercises.startup_observation import SAME, explain, observe
from kschedlearn.exercises.startup_wiring import STEPS, wired
from kschedlearn.exercises.trace_compare import first_divergence, steps_of

pytestmark = pytest.mark.task_1_1


def _sim(scenario, order=None):
    sim = Simulation.from_scenario(scenario, seed=1, snapshots=False)
    if order is None:
        sim.run()
    else:
        with wired(tuple(order)):
            sim.run()
    return sim


def _wrong(misconception):
    return next(w for w in WRONG_ANSWERS if w.misconception == misconception).build()


@pytest.mark.parametrize("scenario", ["three-nodes", "ha-failover"])
def test_go_order_reproduces_the_real_start_up_stage_for_stage(scenario):
    real, mine = _sim(scenario), _sim(scenario, STEPS)
    assert first_divergence(steps_of(real.trace), steps_of(mine.trace)) is None
    assert explain(observe(real), observe(mine)) == SAME


def test_right_order_passes():
    assert check("1.1", get_task("1.1").load_solution()).passed


def test_informers_before_create_scheduler_leave_the_cache_empty():
    report = check("1.1", _wrong("informers started before the scheduler asked for them"))
    msg = next(r.message for r in report.results if r.name == "three-nodes")
    sim = _sim("three-nodes", ["createClient", "createRecorder", "NewSharedInformerFactory", "informerFactory.Start",
                               "createScheduler", "go startHTTP", "leaderelection", "sched.Run"])
    obs = observe(sim)
    assert obs.replicas[0].informers == () and obs.replicas[0].cache_nodes == 0
    assert f"knew 0 of {obs.api_nodes} nodes" in msg and obs.api_nodes == 3
    assert "no nodes available to schedule pods" in msg and "default/web-1" in msg


def test_sched_run_before_leader_election_lets_two_replicas_schedule():
    report = check("1.1", _wrong("leader election is only about who is in charge of logging"))
    assert next(r for r in report.results if r.name == "three-nodes").passed  # no leader election there
    msg = next(r.message for r in report.results if r.name == "ha-failover")
    obs = observe(_sim("ha-failover", ["createClient", "createRecorder", "NewSharedInformerFactory", "createScheduler",
                                       "go startHTTP", "informerFactory.Start", "sched.Run", "leaderelection"]))
    binders = {b[0] for b in obs.non_leader_binds}
    assert binders == {"scheduler-a", "scheduler-b"}
    assert f"{len(obs.non_leader_binds)} binding(s) were POSTed by a replica that did not hold the lease" in msg
    assert "two replicas scheduled at the same time" in msg


def test_start_http_after_sched_run_is_never_reached():
    report = check("1.1", _wrong("the HTTP endpoints can come last"))
    msg = next(r.message for r in report.results if r.name == "three-nodes")
    assert "scheduler-0 never served /healthz" in msg and "select {}" in msg


def test_a_fourth_wrong_order_crashes_and_the_crash_is_reported_as_observed():
    order = ["createClient", "NewSharedInformerFactory", "createScheduler", "go startHTTP", "informerFactory.Start",
             "createRecorder", "leaderelection", "sched.Run"]
    real, mine = observe(_sim("three-nodes")), observe(_sim("three-nodes", order))
    text = explain(real, mine)
    assert mine.replicas[0].crash and mine.replicas[0].crash in text
    assert "'NoneType' object has no attribute 'eventf'" in text and "after [finishBinding]" in text


def test_not_a_permutation_is_refused_clearly():
    report = check("1.1", lambda steps: steps[:3])
    assert not report.passed and "each exactly once" in report.results[0].message


def test_plug_in_rows_name_what_each_replica_did():
    report = plug_in("1.1", _wrong("the HTTP endpoints can come last"))
    assert "three-nodes: scheduler-0 /healthz from" in report.changed
