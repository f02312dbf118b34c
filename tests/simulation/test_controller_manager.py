"""The scenario's kube-controller-manager: started on request, deterministic, a process that can crash,
and its trace points.

Go: none — kschedlearn-only (kschedlearn/simulation/controller_manager.py, the scenario key
``controller_manager``, kschedlearn/observe/controllers.py).
"""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from kschedlearn.scenarios.scenario import ControllerManagerSpec, ScenarioError, load_scenario, parse_scenario
from kschedlearn.simulation.world import build_world


def _node(n: str) -> dict[str, Any]:
    alloc = {"cpu": "2", "memory": "4Gi", "pods": "110"}
    return {"kind": "Node", "apiVersion": "v1", "metadata": {"name": n, "labels": {"kubernetes.io/hostname": n}},
            "status": {"capacity": alloc, "allocatable": alloc, "conditions": [{"type": "Ready", "status": "True"}]}}


POD_SPEC = {"containers": [{"name": "c", "image": "nginx", "resources": {"requests": {"cpu": "100m"}}}]}
SCENARIO: dict[str, Any] = {
    "name": "cm", "duration": 30, "controller_manager": True, "objects": [_node("node-1"), _node("node-2")],
    "timeline": [
        {"at": 1, "create": {"apiVersion": "v1", "kind": "ReplicationController", "metadata": {"name": "web"},
                             "spec": {"replicas": 3, "template": {"metadata": {"labels": {"app": "web"}},
                                                                  "spec": POD_SPEC}}}},
        {"at": 2, "create": {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "stray", "labels": {"app": "x"}},
                             "spec": POD_SPEC}},
        {"at": 3, "create": {"apiVersion": "extensions/v1beta1", "kind": "ReplicaSet", "metadata": {"name": "x"},
                             "spec": {"replicas": 1, "template": {"metadata": {"labels": {"app": "x"}},
                                                                  "spec": POD_SPEC}}}},
        {"at": 5, "create": {"apiVersion": "extensions/v1beta1", "kind": "DaemonSet", "metadata": {"name": "agent"},
                             "spec": {"template": {"metadata": {"labels": {"app": "agent"}}, "spec": POD_SPEC}}}},
        {"at": 10, "scale": "replicationcontroller default/web 1"},
        {"at": 15, "kill": "kube-controller-manager"},
        {"at": 16, "scale": "replicationcontroller default/web 4"},
    ],
}


def _world(seed: int = 0, doc: dict[str, Any] | None = None) -> Any:
    return build_world(parse_scenario(yaml.safe_dump(doc or SCENARIO)), seed, snapshots=False, capture_stacks=False)


@pytest.fixture(scope="module")
def ran() -> Any:
    w = _world()
    w.run(None)
    return w


def _owned_pods(w: Any, kind: str) -> list[Any]:
    return [p for p in w.api.storage.items("pods") if p.metadata.deletion_timestamp is None
            and any(o.kind == kind for o in p.metadata.owner_references)]


def test_controllers_keep_counts_until_the_manager_crashes(ran: Any) -> None:
    cm = ran.controller_manager
    assert cm is not None and not cm.process.alive and cm.process.exit_reason == "killed by the scenario"
    # scaled to 1 at t=10 while it ran; the scale to 4 at t=16 came after the crash: nothing acts on it
    assert len(_owned_pods(ran, "ReplicationController")) == 1
    rc = ran.api.get("replicationcontrollers", "default", "web")
    assert rc.spec.replicas == 4 and rc.status.replicas == 1
    # the ReplicaSet adopted the matching orphan instead of creating a pod
    assert [p.metadata.name for p in _owned_pods(ran, "ReplicaSet")] == ["stray"]
    # one DaemonSet pod per node, placed by the controller itself
    assert sorted(p.spec.node_name for p in _owned_pods(ran, "DaemonSet")) == ["node-1", "node-2"]


def test_trace_points_of_the_controllers(ran: Any) -> None:
    stages = [e.stage for e in ran.tracer.events]
    for stage in ("controller.expect", "controller.observed", "controller.adopt", "daemonset.bind"):
        assert stage in stages, stage
    expect = next(e for e in ran.tracer.events if e.stage == "controller.expect")
    assert expect.process == "kube-controller-manager" and expect.data["count"] == 3
    assert expect.message == "ReplicationController default/web: expects 3 pod creations (a batch of creations goes out)"
    binds = [e for e in ran.tracer.events if e.stage == "daemonset.bind"]
    assert sorted(e.data["node"] for e in binds) == ["node-1", "node-2"]
    # kube-scheduler never saw the DaemonSet's pods: none of them was scheduled by it
    scheduled = {e.data.get("pod") for e in ran.tracer.events if e.stage == "apiserver.bind"}
    assert any(str(name).startswith("default/web-") for name in scheduled)  # the RC's pods were
    assert not any(str(name).startswith("default/agent") for name in scheduled)


def test_deterministic_with_the_controller_manager() -> None:
    def trace(w: Any) -> list[tuple[Any, ...]]:
        w.run(None, until=12)
        return [(e.time, e.process, e.goroutine, e.stage, e.message) for e in w.tracer.events]

    first, second = trace(_world(3)), trace(_world(3))
    assert first == second and len(first) > 500


def test_scenario_key() -> None:
    base = {"name": "x", "objects": [_node("n1")]}
    assert parse_scenario(yaml.safe_dump(base)).controller_manager is None
    assert parse_scenario(yaml.safe_dump({**base, "controller_manager": False})).controller_manager == \
        ControllerManagerSpec(enabled=False)
    spec = parse_scenario(yaml.safe_dump({**base, "controller_manager": {"flags": ["--v=2"]}})).controller_manager
    assert spec == ControllerManagerSpec(enabled=True, flags=("--v=2",))
    with pytest.raises(ScenarioError, match=r"controller_manager: expected true, false or a mapping with flags"):
        parse_scenario(yaml.safe_dump({**base, "controller_manager": "yes"}))
    with pytest.raises(ScenarioError, match=r"controller_manager.workers: unknown field"):
        parse_scenario(yaml.safe_dump({**base, "controller_manager": {"workers": 3}}))
    with pytest.raises(ScenarioError, match=r"does not run kube-controller-manager"):
        parse_scenario(yaml.safe_dump({**base, "timeline": [{"at": 1, "kill": "kube-controller-manager"}]}))
    with pytest.raises(ScenarioError, match=r"timeline\[0\].scale: expected 'KIND NAMESPACE/NAME REPLICAS'"):
        parse_scenario(yaml.safe_dump({**base, "timeline": [{"at": 1, "scale": "pod default/x 3"}]}))


def test_a_bad_workload_is_refused_with_1_6s_message() -> None:
    doc = {"name": "x", "objects": [{"apiVersion": "extensions/v1beta1", "kind": "Deployment",
                                     "metadata": {"name": "d"}, "spec": {"replicas": -1, "template": {
                                         "metadata": {"labels": {"app": "d"}}, "spec": POD_SPEC}}}]}
    with pytest.raises(ScenarioError) as err:
        parse_scenario(yaml.safe_dump(doc))
    assert str(err.value) == ('<scenario>: objects[0]: Deployment.apps "d" is invalid: spec.replicas: Invalid '
                              'value: -1: must be greater than or equal to 0')


def test_bundled_scenarios_do_not_ask_for_it() -> None:
    """The scheduler-only scenarios keep their traces: none of them runs the controller manager."""
    from kschedlearn.scenarios.scenario import bundled_names

    for name in bundled_names():
        spec = load_scenario(name).controller_manager
        assert spec is None or spec.enabled, name  # only explicit opt-ins may start it
        if spec is None:
            assert _world_has_no_cm(name), name


def _world_has_no_cm(name: str) -> bool:
    w = build_world(load_scenario(name), 0, snapshots=False, capture_stacks=False)
    return w.controller_manager is None and not w.api.enable_garbage_collection


def test_a_panic_in_a_controller_ends_the_controller_manager(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Go panic in a controller's worker kills kube-controller-manager's process (HandleCrash
    logs and re-panics), and nothing else: kube-scheduler and the API server go on."""
    from kschedlearn.apimachinery.util.runtime import GoPanic
    from kschedlearn.controller.replication.replication_controller import ReplicationManager

    def boom(self: Any, key: str) -> None:
        raise GoPanic("runtime error: invalid memory address or nil pointer dereference")

    monkeypatch.setattr(ReplicationManager, "sync_replication_controller", boom)
    w = _world()
    w.run(None, until=3)
    assert not w.controller_manager.process.alive
    assert any(c.process == "kube-controller-manager" and "nil pointer" in c.message for c in w.runtime.crashes)
    assert all(r.process.alive for r in w.replicas.values()) and w.api.process.alive


def test_views_show_the_controller_manager_as_the_source_of_pods() -> None:
    """The pipeline view gains the controller manager feeding the API server (the DaemonSet's
    edge dashed: its pods skip podQueue); the startup view lists its goroutines."""
    from kschedlearn.simulation import questions_controllers as QC
    from kschedlearn.viz.pipeline import pipeline
    from kschedlearn.viz.startup import startup

    sim = QC.simulation(seed=1)
    ev = sim.run_until("controller.expect")
    assert ev is not None
    dot = pipeline(sim.snapshot).source
    assert "kube-controller-manager" in dot and "never in podQueue" in dot
    create_edge = dot.split('controllers -> apiserver [label="POST pods')[1].split("controllers -> apiserver")[0]
    assert "penwidth=3" in create_edge  # the step just taken: a batch of creations
    start = startup(sim.snapshot).source
    assert "kube-controller-manager (a process of its own)" in start and "replicationmanager worker" in start
    from kschedlearn import Simulation

    three = Simulation.from_scenario("three-nodes", seed=1)  # a scheduler-only world draws no such node
    three.run_until("scheduleOne.pop")
    assert "kube-controller-manager" not in pipeline(three.snapshot).source


def test_the_world_learns_the_controller_manager_through_its_observation(ran: Any) -> None:
    """The mirrored ``app.Run`` has no handles parameter: the trace points at its calls fill the
    process's ControllerManagerHandles, and the scheduler replicas' handles stay theirs."""
    h = ran.controller_manager.handles
    assert h is ran.observation.controller_managers[ran.controller_manager.process]
    assert sorted(h.controllers) == ["daemonset", "deployment", "garbagecollector", "replicaset",
                                     "replicationcontroller", "statefuleset"]
    assert h.s is not None and not h.s.leader_election.leader_elect  # the scenario's default flags
    assert h.kube_client is not None and h.informer_factory is not None and h.http is not None
    assert h.elector is None and h.stop is not None
    # the factory the ReplicationManager's informers come from is the one the handles hold
    rm = h.controllers["replicationcontroller"]
    assert rm.rc_lister is not None and h.informer_factory.started_informers
    assert [p.name for p in ran.observation.replicas] == ["scheduler-0"]  # no stray scheduler handles
    elected = _world(doc={**SCENARIO, "controller_manager": {"flags": []}, "timeline": []})
    elected.run(None, until=1)
    assert elected.controller_manager.handles.elector is not None  # 1.6's default: --leader-elect=true


def test_where_stands_at_the_go_twin_statement_of_each_controller_trace_point() -> None:
    from kschedlearn.simulation import questions_controllers as QC

    sim = QC.simulation(seed=0)
    for stage, function, calls, go_symbol in [
        ("controller.expect", "ReplicationManager.manage_replicas", "UIDTrackingControllerExpectations.expect_creations",
         "ReplicationManager.manageReplicas"),
        ("controller.observed", "ReplicationManager.add_pod", "UIDTrackingControllerExpectations.creation_observed",
         "ReplicationManager.addPod"),
        ("daemonset.bind", "DaemonSetsController.sync_nodes.<locals>.create", "RealPodControl.CreatePodsOnNode",
         "DaemonSetsController.syncNodes"),
    ]:
        assert sim.run_until(stage) is not None, stage
        w = sim.where()
        assert w is not None and w.phase == "returned", stage
        assert (w.python_function, w.calls, w.go_symbol) == (function, calls, go_symbol), stage
        assert w.go_line > 0 and "kschedlearn/controller/" in w.python_file, stage
