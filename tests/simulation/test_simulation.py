"""The Simulation API on the bundled scenarios: the seed's pod flow, the assume TTL, rewinding,
determinism (also across processes with different hash seeds) and forking the history."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.hypothesis_budget import examples

from kschedlearn import Simulation
from kschedlearn.api.errors import ManifestError
from kschedlearn.simulation.simulation import SimulationError
from kschedlearn.trace import TraceEvent

POD = "default/web-1"


def _run(name: str, seed: int = 1, **kwargs) -> Simulation:
    sim = Simulation.from_scenario(name, seed=seed, **kwargs)
    sim.run_until(lambda e: False)
    return sim


def _first(trace: list[TraceEvent], stage: str, **data) -> TraceEvent:
    for ev in trace:
        if ev.stage == stage and all(ev.data.get(k) == v for k, v in data.items()):
            return ev
    raise AssertionError(f"no {stage} event with {data}")


@pytest.fixture(scope="module")
def three_nodes() -> Simulation:
    return _run("three-nodes")


@pytest.fixture(scope="module")
def assume_expiry() -> Simulation:
    return _run("assume-expiry")


def test_three_nodes_pod_flow_in_seed_order(three_nodes):
    trace = three_nodes.trace
    create = next(e for e in trace if e.stage == "workload" and e.message == f"create Pod {POD}")
    flow = [
        create,
        _first(trace, "fifo.add", queue="podQueue", key=POD),
        _first(trace, "scheduleOne.pop", pod=POD),
        _first(trace, "assume", pod=POD),
        _first(trace, "bind", pod=POD),
        _first(trace, "finishBinding", pod=POD),
        _first(trace, "delta_fifo.add", queue="assignedPods", key=POD),
        _first(trace, "delta_fifo.pop", queue="assignedPods", key=POD),
        _first(trace, "handler.OnAdd", key=POD),
        _first(trace, "cache.addPod", pod=POD),
    ]
    seqs = [e.seq for e in flow]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs), [(e.stage, e.seq) for e in flow]
    assume = flow[3]
    assert assume.data["node"] == flow[9].data["node"] == "node-3"
    assert flow[6].data["deltas"] == ["Added"]
    assert flow[9].data["was_assumed"] is True  # the confirmation of the assumed pod
    assert flow[5].data["deadline"] == flow[5].time + 30.0


def test_cleanup_assumed_pods_runs_every_second(three_nodes):
    times = [e.time for e in three_nodes.trace if e.stage == "cleanupAssumedPods"]
    assert times[0] == 0.0
    assert times == [float(t) for t in range(len(times))]
    assert times[-1] >= three_nodes.scenario.duration - 1


def test_assume_expiry_expires_after_ttl_then_late_add_readds(assume_expiry):
    trace = assume_expiry.trace
    finish = _first(trace, "finishBinding", pod=POD)
    expire = _first(trace, "expirePod", pod=POD)
    adds = [e for e in trace if e.stage == "cache.addPod" and e.data.get("pod") == POD]
    assert expire.time >= finish.time + 30.0
    assert expire.time <= finish.time + 31.0  # found by the next once-a-second sweep
    assert expire.data["deadline"] == finish.time + 30.0
    assert len(adds) == 1 and adds[0].seq > expire.seq
    assert adds[0].data["was_assumed"] is False
    assert adds[0].time == pytest.approx(49.0)  # when the 45 s stall started at t=4 ends
    # the pod was bound once, before it expired
    binds = [e for e in trace if e.stage == "apiserver.bind" and e.data.get("pod") == POD]
    assert len(binds) == 1 and binds[0].seq < finish.seq


# -- rewinding -------------------------------------------------------------------------------

OPS = st.lists(
    st.one_of(
        st.tuples(st.just("step"), st.sampled_from(["stage", "event"])),
        st.tuples(st.just("back"), st.integers(1, 4)),
        st.tuples(st.just("goto"), st.integers(0, 160)),
    ),
    min_size=1, max_size=12,
)


@settings(max_examples=examples(15), deadline=None)
@given(ops=OPS)
def test_back_then_step_returns_the_identical_snapshot(ops):
    sim = Simulation.from_scenario("three-nodes", seed=1)
    sim.start()
    for op, arg in ops:
        if op == "step":
            sim.step(arg)
        elif op == "back":
            sim.back(arg, granularity="event")
        else:
            try:
                sim.goto(arg)
            except SimulationError:  # past the end of the scenario: the cursor stays
                assert arg >= len(sim.trace)
        ev = sim.event
        if ev is None or ev.stage == "log" or sim.cursor == 0:
            continue
        before = (sim.cursor, sim.snapshot.to_json())
        sim.back(granularity="event")
        assert sim.cursor < before[0]
        again = sim.step("event")
        assert again is ev
        assert (sim.cursor, sim.snapshot.to_json()) == before


def test_goto_into_the_future_runs_forward_and_back_is_bounded():
    sim = Simulation.from_scenario("three-nodes", seed=1)
    ev = sim.goto(99)
    assert ev.seq == 99 and sim.cursor == 99
    assert sim.back(1000).seq == 0
    with pytest.raises(SimulationError, match="start at 0"):
        sim.goto(-1)
    with pytest.raises(SimulationError, match="granularity"):
        sim.step("nope")


# -- determinism -----------------------------------------------------------------------------

def test_same_scenario_and_seed_export_identical_json():
    a = _run("bind-failure", seed=7).export_json()
    b = _run("bind-failure", seed=7).export_json()
    assert a == b


_CHILD = """
import hashlib, sys
from kschedlearn import Simulation
for name in sys.argv[1:]:
    sim = Simulation.from_scenario(name, seed=3)
    sim.run_until(lambda e: False)
    print(name, hashlib.sha256(sim.export_json().encode()).hexdigest())
"""


@pytest.mark.slow
def test_traces_identical_across_processes_with_different_hash_seeds():
    names = ["spread-and-affinity", "ha-failover"]
    outputs = []
    for hash_seed in ("1", "4242"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        proc = subprocess.run([sys.executable, "-c", _CHILD, *names], env=env, capture_output=True,
                              text=True, timeout=120, check=True)
        outputs.append(proc.stdout)
    assert outputs[0] == outputs[1]
    here = "".join(f"{n} {hashlib.sha256(_run(n, seed=3).export_json().encode()).hexdigest()}\n" for n in names)
    assert outputs[0] == here


# -- forking the history ---------------------------------------------------------------------

def test_injecting_in_the_past_forks_and_matches_a_fresh_replay():
    old = _run("three-nodes")
    old_events = [(e.stage, e.message) for e in old.trace]
    assume = _first(old.trace, "assume", pod=POD).seq
    old.goto(assume)
    old.inject.fail_next_bind()
    after = old.cursor
    assert old.trace[after].stage == "inject"
    assert len(old.trace) == after + 1  # the old future is gone
    old.run_until(lambda e: False)

    fresh = Simulation.from_scenario("three-nodes", seed=1)
    fresh.goto(assume)
    fresh.inject.fail_next_bind()
    fresh.run_until(lambda e: False)

    assert old.export_json() == fresh.export_json()
    new_events = [(e.stage, e.message) for e in old.trace]
    assert new_events[:after] == old_events[:after]
    assert new_events[after:] != old_events[after:]
    assert any(e.stage == "forgetPod" for e in old.trace[after:])
    assert not any(e.stage == "forgetPod" for e in Simulation.from_scenario("three-nodes", seed=1).trace)


def test_injection_at_the_end_keeps_the_past_and_adds_a_node():
    sim = Simulation.from_scenario("three-nodes", seed=1)
    sim.goto(99)
    before = [e.to_json() for e in sim.trace]
    ev = sim.inject.add_node("node-4")
    assert ev.stage == "inject" and ev.message == "create Node node-4"
    assert [e.to_json() for e in sim.trace[: len(before)]] == before
    sim.run_until(lambda e: False)
    assert any(e.stage == "handler.OnAdd" and e.data.get("key") == "node-4" for e in sim.trace)


def test_failed_injection_with_bad_input_keeps_the_history():
    sim = _run("three-nodes")
    sim.goto(50)
    text = sim.export_json()
    bad_pod = {"metadata": {"name": "x", "namespace": "default"},
               "spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "12Q"}}}]}}
    with pytest.raises(ManifestError, match=r"spec\.containers\[0\]\.resources\.requests\.cpu"):
        sim.inject.add_pod(bad_pod)
    with pytest.raises(KeyError, match="no scheduler replica 'nope'"):
        sim.inject.kill_scheduler("nope")
    with pytest.raises(TypeError, match="add_node"):
        sim.inject.add_node(42)  # type: ignore[arg-type]
    assert sim.cursor == 50
    assert sim.export_json() == text
