"""Every bundled scenario runs to its end without a crash (except where it means one) and shows
what its description promises."""

from __future__ import annotations

import pytest

from kschedlearn import Simulation
from kschedlearn.scenarios.scenario import bundled_names


def _run(name: str, seed: int = 1) -> Simulation:
    sim = Simulation.from_scenario(name, seed=seed)
    sim.run_until(lambda e: False)
    assert sim.finished
    return sim


def _bound(sim: Simulation) -> dict[str, str]:
    pods = sim.world.api.storage.items("pods")
    return {f"{p.metadata.namespace}/{p.metadata.name}": p.spec.node_name for p in pods}


def _stage(sim: Simulation, stage: str, pod: str | None = None) -> list:
    return [e for e in sim.trace if e.stage == stage and (pod is None or e.data.get("pod") == pod)]


#: scenarios whose point is a crash (each has its own test of that crash)
CRASH_ON_PURPOSE = {"bad-policy"}


@pytest.mark.parametrize("name", [n for n in bundled_names() if n not in CRASH_ON_PURPOSE])
def test_runs_to_completion_without_crash(name):
    sim = _run(name)
    if name == "unfenced-leader":  # the crash it means: the stale leader's glog.Fatalf("lost master")
        assert [(c.process, c.message) for c in sim.world.runtime.crashes] == [("scheduler-a", "FatalError: lost master")]
        assert [e.process for e in sim.trace if e.stage == "process.crash"] == ["scheduler-a"]
        assert sim.world.replicas["scheduler-b"].process.alive
        return
    assert sim.world.runtime.crashes == []
    assert not [e for e in sim.trace if e.stage == "process.crash"]
    for replica in sim.world.replicas.values():
        if name == "ha-failover" and replica.name == "scheduler-a":
            assert not replica.process.alive and replica.process.exit_reason == "killed by the scenario"
        else:
            assert replica.process.alive, replica.name


def test_unschedulable_then_fits():
    sim = _run("unschedulable-then-fits")
    pod = "default/big-1"
    backoffs = [(e.time, e.data["backoff"]) for e in _stage(sim, "error.backoff", pod)]
    waits = [b for _, b in backoffs]
    assert waits[:2] == [1.0, 2.0]  # the first failure, then the condition update's immediate retry
    assert backoffs[0][0] == backoffs[1][0] == 1.0  # ... both at t=1
    assert [b for b in waits[2:]] == [2.0, 4.0, 8.0]  # doubling
    requeues = [e.time for e in _stage(sim, "error.requeue", pod)]
    assert requeues[:3] == [2.0, 4.0, 8.0]
    events = sim.world.api.storage.items("events")
    assert any(e.reason == "FailedScheduling" and "Insufficient cpu" in e.message for e in events)
    node_added = next(e for e in sim.trace if e.stage == "workload" and e.message == "create Node big-node")
    assert node_added.time == 12.0
    (bind,) = _stage(sim, "apiserver.bind", pod)
    assert bind.seq > node_added.seq and bind.data["node"] == "big-node"
    assert _bound(sim)[pod] == "big-node"


def test_bind_failure_forgets_then_succeeds():
    sim = _run("bind-failure")
    pod = "default/web-1"
    assumes = _stage(sim, "assume", pod)
    (forget,) = _stage(sim, "forgetPod", pod)
    (backoff, *_) = _stage(sim, "error.backoff", pod)
    assert len(assumes) == 2 and assumes[0].seq < forget.seq < backoff.seq < assumes[1].seq
    adds = [e for e in sim.trace if e.stage == "fifo.add" and e.data.get("key") == pod]
    assert len(adds) == 2 and adds[1].seq > forget.seq  # requeued (the condition update)
    events = sim.world.api.storage.items("events")
    assert any(e.reason == "FailedScheduling" and e.message.startswith("Binding rejected") for e in events)
    assert len(_stage(sim, "apiserver.bind", pod)) == 1
    assert _bound(sim)[pod]


def test_assume_expiry_readds_after_expiring():
    sim = _run("assume-expiry")
    pod = "default/web-1"
    (finish,) = _stage(sim, "finishBinding", pod)
    (expire,) = _stage(sim, "expirePod", pod)
    (add,) = _stage(sim, "cache.addPod", pod)
    assert finish.time + 30 <= expire.time < add.time and add.data["was_assumed"] is False
    assert _bound(sim)[pod] == "node-1"


def test_ha_failover_takeover_after_the_lease_expires():
    sim = _run("ha-failover")
    trace = sim.trace
    kill = next(e for e in trace if e.stage == "workload" and e.message == "kill scheduler-a")
    acquired = [e for e in trace if e.stage == "leaderelection.acquire" and "successfully acquired" in e.message]
    assert [e.process for e in acquired] == ["scheduler-a", "scheduler-b"]
    renews = [e.time for e in trace if e.stage == "leaderelection.renew" and e.process == "scheduler-a"]
    assert max(renews) < kill.time == 20.0
    takeover = acquired[1]
    assert takeover.time >= max(renews) + 15.0  # the lease had to run out first
    binds = {e.data["pod"]: (e.time, e.process) for e in trace if e.stage == "apiserver.bind"}
    bound = _bound(sim)
    assert all(bound.values()), bound
    for name, (time, process) in binds.items():
        assert process == ("scheduler-a" if time < kill.time else "scheduler-b"), name
    late = [n for n, (t, _) in binds.items() if t >= kill.time]
    assert late == ["default/app-5", "default/app-6", "default/app-7"]
    assert all(binds[n][0] >= takeover.time for n in late)


def test_policy_file_lands_pods_only_on_labelled_nodes():
    sim = _run("policy-file")
    assert [e.stage for e in sim.trace if e.stage in ("CreateFromConfig", "CreateFromProvider")] == ["CreateFromConfig"]
    bound = _bound(sim)
    assert sorted(bound.values()) == ["ssd-1", "ssd-1", "ssd-fast", "ssd-fast", "ssd-fast", "ssd-fast"]
    decision = sim.decision("default/db-1")[-1]
    reasons = {v.node: dict(v.predicates)["RequireSSD"] for v in decision.verdicts}
    assert reasons == {"plain-1": ("CheckNodeLabelPresence",), "plain-2": ("CheckNodeLabelPresence",),
                       "ssd-1": (), "ssd-fast": ()}


def test_spread_and_affinity():
    sim = _run("spread-and-affinity")
    bound = _bound(sim)
    zone = {"a-1": "a", "a-2": "a", "b-1": "b", "b-2": "b", "c-1": "c", "gpu-1": "c"}
    web_zones = sorted(zone[bound[f"default/web-{i}"]] for i in range(1, 7))
    assert web_zones == ["a", "a", "b", "b", "c", "c"]  # SelectorSpread: two per zone
    assert all(bound[f"default/web-{i}"] != "gpu-1" for i in range(1, 7))  # tainted
    assert zone[bound["default/cache-2"]] != zone[bound["default/cache-1"]]  # anti-affinity per zone
    assert bound["default/ssd-db"] == "b-2"  # node affinity
    assert bound["default/gpu-job"] == "gpu-1"  # toleration
    assert bound["default/gpu-job-untolerated"] == ""
    assert len(_stage(sim, "error.backoff", "default/gpu-job-untolerated")) >= 3


def test_burst_100_binds_all_with_the_qps_ceiling():
    sim = _run("burst-100-pods")
    binds = sorted(e.time for e in sim.trace if e.stage == "apiserver.bind")
    assert len(binds) == 100 and all(_bound(sim).values())
    assert binds.count(1.0) == 50  # the burst of 100 tokens: 50 binds + their 50 events
    later = binds[50:]
    gaps = {round(b - a, 6) for a, b in zip(later, later[1:])}
    assert gaps == {0.02}  # then 50 requests per second
    assert later[-1] == pytest.approx(2.0)
