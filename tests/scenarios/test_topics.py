"""The "beyond the happy path" scenarios (notebook 12) each show what their description promises.

several-schedulers, node-conditions, why-assume (with the kschedlearn-only assume switch),
deleted-while-binding, extender and unfenced-leader: every assertion reads the simulator's own
trace and API-server state — nothing is compared with a number written down by hand that the
scenario file does not itself set up.
"""

from __future__ import annotations

import inspect
from collections import Counter
from typing import Any

import pytest

from kschedlearn import Simulation
from kschedlearn.scenarios import example_extender
from kschedlearn.scenarios.scenario import ScenarioError, load_scenario, parse_scenario
from kschedlearn.scheduler import scheduler as mirrored_scheduler
from kschedlearn.scheduler.factory.factory import get_node_condition_predicate


def _run(name: str, seed: int = 1, **kwargs: Any) -> Simulation:
    sim = Simulation.from_scenario(name, seed=seed, **kwargs)
    sim.run_until(lambda e: False)
    assert sim.finished
    return sim


def _stage(sim: Simulation, stage: str, pod: str | None = None, process: str | None = None) -> list:
    return [e for e in sim.trace if e.stage == stage and (pod is None or e.data.get("pod") == pod)
            and (process is None or e.process == process)]


def _bound(sim: Simulation) -> dict[str, str]:
    return {f"{p.metadata.namespace}/{p.metadata.name}": p.spec.node_name
            for p in sim.world.api.storage.items("pods")}


def _events(sim: Simulation, pod: str) -> list[tuple[str, str]]:
    ns, name = pod.split("/")
    return [(e.reason, e.message) for e in sim.world.api.storage.items("events")
            if e.involved_object.name == name and e.involved_object.namespace == ns]


# --- several schedulers ---------------------------------------------------------------------


def test_other_schedulers_pod_is_untouched_by_default_scheduler():
    sim = _run("several-schedulers")
    bound = _bound(sim)
    binds = {e.data["pod"]: e.process for e in _stage(sim, "apiserver.bind")}
    assert binds == {"default/web-1": "default-scheduler", "default/custom-1": "my-scheduler"}
    assert bound["default/web-1"] and bound["default/custom-1"]
    for pod in ("default/custom-1", "default/orphan-1"):
        # both factories queue every unassigned pod; getNextPod drops those of other schedulers
        assert _stage(sim, "fifo.add", None, "default-scheduler") and any(
            e.data.get("key") == pod for e in _stage(sim, "fifo.add", None, "default-scheduler"))
        assert not _stage(sim, "schedule.start", pod, "default-scheduler")
        assert not _stage(sim, "assume", pod, "default-scheduler")
    assert not _stage(sim, "schedule.start", "default/web-1", "my-scheduler")
    assert bound["default/orphan-1"] == "" and _events(sim, "default/orphan-1") == []


def test_empty_scheduler_name_is_defaulted_by_the_api_server():
    sim = _run("several-schedulers")
    pods = {p.metadata.name: p.spec.scheduler_name for p in sim.world.api.storage.items("pods")}
    assert pods == {"web-1": "default-scheduler", "custom-1": "my-scheduler", "orphan-1": "nobody-scheduler"}


# --- the node-condition filter ----------------------------------------------------------------


def test_condition_filtered_nodes_never_reach_the_predicates():
    sim = _run("node-conditions")
    nodes = {n.metadata.name: n for n in sim.world.api.storage.items("nodes")}
    listed = {name for name, n in nodes.items() if get_node_condition_predicate()(n)}
    assert listed == {"ready-1"}  # the scenario's four unhealthy nodes are filtered
    evaluated = {e.data["node"] for e in sim.trace if e.stage == "schedule.predicate_node"}
    assert evaluated == {"ready-1"}
    first = next(e for e in sim.trace if e.stage == "schedule.start")
    ignored = {e.message.split()[2] for e in sim.trace[: first.seq] if e.stage == "log"
               and e.message.startswith("Ignoring node ")}  # factory.go's V(4) line
    assert ignored == set(nodes) - listed
    (decision,) = sim.decision("default/web-1")
    assert [v.node for v in decision.verdicts] == ["ready-1"] and decision.host == "ready-1"


def test_no_listed_node_is_not_a_predicate_failure():
    sim = _run("node-conditions")
    cordon = next(e for e in sim.trace if e.stage == "workload" and e.message == "cordon ready-1")
    uncordon = next(e for e in sim.trace if e.stage == "workload" and e.message == "uncordon ready-1")
    messages = [m for r, m in _events(sim, "default/web-2") if r == "FailedScheduling"]
    assert messages and set(messages) == {"no nodes available to schedule pods"}
    assert not [e for e in sim.trace if e.stage == "schedule.predicate_node"
                and e.data.get("pod") == "default/web-2" and e.time < uncordon.time]
    (bind,) = _stage(sim, "apiserver.bind", "default/web-2")
    assert bind.time > uncordon.time > cordon.time and bind.data["node"] == "ready-1"


@pytest.mark.parametrize("conditions, unschedulable, listed", [
    ([("Ready", "True")], False, True),
    ([("Ready", "False")], False, False),
    ([("Ready", "Unknown")], False, False),
    ([("Ready", "True"), ("OutOfDisk", "True")], False, False),
    ([("Ready", "True"), ("OutOfDisk", "Unknown")], False, False),
    ([("Ready", "True"), ("NetworkUnavailable", "True")], False, False),
    ([("Ready", "True"), ("NetworkUnavailable", "Unknown")], False, False),
    ([("Ready", "True")], True, False),
    ([], False, True),
    ([("OutOfDisk", "False"), ("NetworkUnavailable", "False")], False, True),
], ids=["ready", "not-ready", "ready-unknown", "out-of-disk", "out-of-disk-unknown",
        "network-unavailable", "network-unavailable-unknown", "unschedulable",
        "no-conditions-reported", "no-ready-condition"])
def test_node_condition_predicate_table(conditions, unschedulable, listed):
    text = ("name: x\nobjects:\n  - kind: Node\n    metadata: {name: n}\n"
            f"    spec: {{unschedulable: {str(unschedulable).lower()}}}\n"
            "    status: {conditions: [" + ", ".join(f"{{type: {t}, status: \"{s}\"}}" for t, s in conditions) + "]}\n")
    (node,) = parse_scenario(text).objects
    assert get_node_condition_predicate()(node) is listed


# --- why assume? ------------------------------------------------------------------------------


def _over_capacity(sim: Simulation) -> dict[str, tuple[int, int]]:
    """node → (requested milli-CPU, allocatable milli-CPU) for nodes booked past allocatable."""
    alloc = {n.metadata.name: n.status.allocatable["cpu"].milli_value()
             for n in sim.world.api.storage.items("nodes")}
    used: Counter[str] = Counter()
    for pod in sim.world.api.storage.items("pods"):
        if pod.spec.node_name:
            used[pod.spec.node_name] += sum(c.resources.requests["cpu"].milli_value()
                                            for c in pod.spec.containers)
    return {n: (used[n], alloc[n]) for n in alloc if used[n] > alloc[n]}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_with_assume_no_node_is_over_capacity(seed):
    sim = _run("why-assume", seed)
    assert _over_capacity(sim) == {}
    bound = _bound(sim)
    assert sum(1 for n in bound.values() if n) == 2
    for pod, node in bound.items():
        if not node:
            assert any("Insufficient cpu" in m for r, m in _events(sim, pod) if r == "FailedScheduling")
    assert _stage(sim, "assume") and not _stage(sim, "assume.skipped")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_without_assume_a_node_is_double_booked(seed):
    sim = _run("why-assume", seed, assume=False)
    over = _over_capacity(sim)
    assert over, "assume off: expected a node booked past its allocatable CPU"
    assert all(used > alloc for used, alloc in over.values())
    assert all(_bound(sim).values())
    assert not _stage(sim, "assume") and len(_stage(sim, "assume.skipped")) == 4
    assert sim.world.runtime.crashes == []


def test_views_render_at_every_stop_with_assume_off():
    from kschedlearn.viz import VIEWS

    sim = Simulation.from_scenario("why-assume", seed=1, assume=False)
    stops = []
    ev = sim.start()
    while ev is not None:
        stops.append(ev.stage)
        for view in VIEWS:
            assert sim.show(view, renderer="text").svg()
        ev = sim.step()
    assert stops.count("assume.skipped") == 4 and "assume" not in stops


def test_assume_switch_is_outside_the_mirror():
    source = inspect.getsource(mirrored_scheduler)
    assert "no_assume" not in source and "assume.skipped" not in source
    assert "self.config.scheduler_cache.assume_pod(assumed)" in source
    sim = Simulation.from_scenario("why-assume", seed=1, assume=False)
    assert sim.scenario.assume is False and load_scenario("why-assume").assume is True


def test_assume_field_must_be_a_boolean():
    with pytest.raises(ScenarioError, match=r"bad.yaml: assume: expected true or false, got 'no'"):
        parse_scenario("name: x\nassume: 'no'\n", source="bad.yaml")
    assert parse_scenario("name: x\nassume: false\n").assume is False


def test_assume_off_replays_deterministically():
    sim = _run("why-assume", 2, assume=False)
    seq = next(e.seq for e in sim.trace if e.stage == "assume.skipped")
    sim.goto(seq)
    sim.inject.cordon("node-a")  # forks: the world is rebuilt from scenario + seed
    assert not sim.world.scenario.assume
    again = _run("why-assume", 2, assume=False)
    assert [(e.stage, e.message) for e in again.trace[: seq + 1]] == \
        [(e.stage, e.message) for e in sim.trace[: seq + 1]]


# --- deleted while binding --------------------------------------------------------------------


def test_pod_deleted_while_its_binding_is_in_flight_ends_as_in_1_6():
    sim = _run("deleted-while-binding")
    pod = "default/web-1"
    (bind,) = _stage(sim, "bind", pod)
    delete = next(e for e in sim.trace if e.stage == "apiserver.delete" and e.data.get("key") == pod)
    (forget,) = _stage(sim, "forgetPod", pod)
    assert bind.seq < delete.seq < forget.seq  # the POST was sent, then the pod went, then 404
    assert not _stage(sim, "apiserver.bind", pod)  # the binding never succeeded
    assert pod not in _bound(sim)
    assert _events(sim, pod) == [("FailedScheduling", 'Binding rejected: pods "web-1" not found')]
    logs = [e.message for e in sim.trace if e.stage == "log"]
    assert f"A pod {pod} no longer exists" in logs  # the error func's re-read: no requeue
    assert not _stage(sim, "error.requeue", pod)
    cache = sim.snapshot.cache
    assert all(p.key != pod for p in cache.pod_states) and all(pod not in n.pods for n in cache.nodes)
    for queue in sim.snapshot.queues.values():
        assert pod not in queue.line and all(item.key != pod for item in queue.items)


# --- an HTTP extender -------------------------------------------------------------------------


def _labels(sim: Simulation) -> dict[str, dict[str, str]]:
    return {n.metadata.name: dict(n.metadata.labels) for n in sim.world.api.storage.items("nodes")}


def test_extender_filters_and_scores_with_its_weight():
    sim = _run("extender")
    labels = _labels(sim)
    rejected = {n for n, lb in labels.items() if example_extender.REJECT_LABEL in lb}
    assert rejected == {"node-2"}
    policy = dict(sim.scenario.files)["policy.json"]
    import json
    (ext_cfg,) = json.loads(policy)["extenders"]
    (decision,) = sim.decision("default/web-1")
    assert all(v.fits for v in decision.verdicts)  # node-2 passes every built-in predicate ...
    assert rejected.isdisjoint(decision.scored_nodes) and decision.scored_nodes  # ... the extender drops it
    builtin = {n: sum(s[j] * w for s, w in zip(decision.scores, decision.weights))
               for j, n in enumerate(decision.scored_nodes)}
    extender = {n: ext_cfg["weight"] * example_extender.score_of(labels[n]) for n in decision.scored_nodes}
    assert dict(decision.extenders) == extender
    assert dict(decision.totals) == {n: builtin[n] + extender[n] for n in decision.scored_nodes}
    best_builtin = max(builtin, key=builtin.get)
    assert decision.host == max(dict(decision.totals), key=dict(decision.totals).get) != best_builtin
    assert _bound(sim)["default/web-1"] == decision.host


def test_extender_failed_nodes_become_the_failure_reasons():
    sim = _run("extender")
    messages = [m for r, m in _events(sim, "default/picky-1") if r == "FailedScheduling"]
    assert messages and all("rejected by the example extender: maintenance-window (1)" in m for m in messages)
    assert _bound(sim)["default/picky-1"] == ""


def test_extender_scenario_is_deterministic_within_a_process():
    a = Simulation.from_scenario("extender", seed=3)
    b = Simulation.from_scenario("extender", seed=3)
    a.run_until(lambda e: False)
    b.run_until(lambda e: False)
    assert a.export_json(with_snapshots=False) == b.export_json(with_snapshots=False)
    assert example_extender.extender_url().startswith("http://127.0.0.1:")


def test_example_extender_replies():
    def node(name: str, **labels: str) -> dict[str, Any]:
        return {"metadata": {"name": name, "labels": labels}}

    args = {"Pod": {}, "Nodes": {"items": [node("a"), node("b", **{example_extender.REJECT_LABEL: "why"}),
                                           node("c", **{example_extender.SCORE_LABEL: "7"}),
                                           node("d", **{example_extender.SCORE_LABEL: "11"})]}}
    reply = example_extender.filter_reply(args)
    assert [n["metadata"]["name"] for n in reply["nodes"]["items"]] == ["a", "c", "d"]
    assert reply["failedNodes"] == {"b": "rejected by the example extender: why"}
    assert example_extender.prioritize_reply(args) == [
        {"host": "a", "score": 0}, {"host": "b", "score": 0}, {"host": "c", "score": 7}, {"host": "d", "score": 0}]


# --- 1.6's unfenced leader election -----------------------------------------------------------


def test_unfenced_window_two_leaders_overlap_and_no_pod_is_bound_twice():
    sim = _run("unfenced-leader")
    acquired = [e for e in _stage(sim, "leaderelection.acquire") if e.data.get("result") == "acquired"]
    assert [e.process for e in acquired] == ["scheduler-a", "scheduler-b"]
    (lost,) = _stage(sim, "leaderelection.lost")
    assert lost.process == "scheduler-a"
    window = (acquired[1].time, lost.time)
    assert window[1] - window[0] >= 2.0  # seconds with two leaders
    # both replicas schedule inside the window
    for replica in ("scheduler-a", "scheduler-b"):
        assert [e for e in _stage(sim, "bind", process=replica) if window[0] <= e.time <= window[1]], replica
    successes = Counter(e.data["pod"] for e in _stage(sim, "apiserver.bind"))
    assert successes and max(successes.values()) == 1  # no pod bound twice
    assert set(successes) == set(_bound(sim)) and all(_bound(sim).values())
    posts = Counter(e.data["pod"] for e in _stage(sim, "bind"))
    doubled = {p for p, n in posts.items() if n == 2}
    assert doubled  # both leaders POSTed a binding for the same pod ...
    for pod in doubled:  # ... and the second was refused with 409 Conflict
        name = pod.split("/")[1]
        # the recorder's log line: the Event object itself may not be stored — its name
        # (pod name + timestamp) can collide with the winner's "Scheduled" event created at the
        # same virtual instant
        rejected = [e for e in sim.trace if e.stage == "log" and e.message.startswith(f"Event({name}): ")
                    and "FailedScheduling" in e.message and "Binding rejected: Operation cannot be fulfilled on "
                    f'pods/binding "{name}": pod {name} is already assigned to node' in e.message]
        assert len(rejected) == 1
        assert len(_stage(sim, "forgetPod", pod)) == 1
    replica_a = sim.world.replicas["scheduler-a"]
    assert not replica_a.process.alive and replica_a.process.exit_reason == "FatalError: lost master"


def test_unfenced_renewal_is_the_blocked_lock_update():
    sim = _run("unfenced-leader")
    fault = next(e for e in sim.trace if e.stage == "workload" and "delay_next" in e.message)
    renews = [e.time for e in _stage(sim, "leaderelection.renew", process="scheduler-a")]
    (lost,) = _stage(sim, "leaderelection.lost")
    last = max(renews)
    assert last < fault.time + 2.0  # no renewal after the blocked Update ...
    assert lost.time >= last + 10.0  # ... and the renew deadline is only checked after it returns
