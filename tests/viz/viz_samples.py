"""Hand-built snapshots and decision events shared by the viz tests and make_goldens.py."""

from __future__ import annotations

from typing import Any

from kschedlearn.trace.cache_view import (
    CacheDebugState, NodeDebugState, PodDebugState, ResourceSnapshot,
)
from kschedlearn.trace.core import Frame
from kschedlearn.trace.snapshot import (
    ApiServerView, BackoffEntryView, EventView, GoroutineView, LeaderRecordView, LeaderView,
    NodeView, PodView, ProcessView, QueueItemView, QueueView, Snapshot,
)
from kschedlearn.viz import decision_from_events

GI = 1 << 30
ALLOC = ResourceSnapshot(4000, 8 * GI, 0)


def _node(name: str, cpu: int, mem: int, pods: tuple[str, ...], gen: int = 1) -> NodeDebugState:
    req = ResourceSnapshot(cpu, mem, 0)
    return NodeDebugState(name, True, req, req, ALLOC, 110, pods, gen)


def empty() -> Snapshot:
    return Snapshot(seq=0, time=0.0)


def startup_mid() -> Snapshot:
    return Snapshot(
        seq=7, time=0.0, stage="NewConfigFactory", goroutine="main",
        stages_seen=("main", "NewSchedulerServer", "createClient", "createRecorder",
                     "NewSharedInformerFactory", "createScheduler", "NewConfigFactory"),
        goroutines=(GoroutineView(1, "main", "kube-scheduler", "running"),
                    GoroutineView(2, "recorder.StartLogging", "kube-scheduler", "blocked", "chan recv")),
        processes=(ProcessView("apiserver"), ProcessView("kube-scheduler")),
        stack=(Frame("main", "kschedlearn.cmd.kube_scheduler.scheduler", 20),
               Frame("run", "kschedlearn.cmd.kube_scheduler.app.server", 80),
               Frame("create_scheduler", "kschedlearn.cmd.kube_scheduler.app.server", 120),
               Frame("new_config_factory", "kschedlearn.scheduler.factory.factory", 90)),
    )


def startup_prev() -> Snapshot:
    s = startup_mid()
    return Snapshot(seq=5, time=0.0, stage="createRecorder", goroutine="main",
                    stages_seen=s.stages_seen[:4], goroutines=s.goroutines[:1], processes=s.processes)


def busy(seq: int = 40, time: float = 12.5) -> Snapshot:
    fifo = QueueView("FIFO", ("default/web-2", "default/web-3"),
                     (QueueItemView("default/web-2"), QueueItemView("default/web-3")), True, 0, False)
    dfifo = QueueView("DeltaFIFO", ("default/web-1",),
                      (QueueItemView("default/web-1", ("Added",), "node-2"),), True, 0, False)
    cache = CacheDebugState(30.0, (
        _node("node-1", 500, GI, ("default/db-0",)),
        _node("node-2", 1100, 2 * GI, ("default/db-1", "default/web-1"), 4),
        _node("node-3", 0, 0, ()),
    ), (
        PodDebugState("default/db-0", "node-1", False, None, False),
        PodDebugState("default/db-1", "node-2", False, None, False),
        PodDebugState("default/web-1", "node-2", True, 40.0, True),
    ))
    api = ApiServerView(
        pods=tuple(PodView(k, n, ph, (("PodScheduled", "True"),) if n else ()) for k, n, ph in (
            ("default/db-0", "node-1", "Running"), ("default/db-1", "node-2", "Running"),
            ("default/web-1", "node-2", "Pending"), ("default/web-2", "", "Pending"),
            ("default/web-3", "", "Pending"))),
        nodes=(NodeView("node-1"), NodeView("node-2"), NodeView("node-3", unschedulable=True)),
        events=(EventView("default/web-1", "Scheduled", "Successfully assigned web-1 to node-2", "Normal", 1, 10.0),),
        leader_record=LeaderRecordView("kube-system/kube-scheduler", "sched-a", 15, 1.0, 11.0, 1),
    )
    return Snapshot(
        seq=seq, time=time, stage="handler.addPodToCache", goroutine="processLoop",
        queues={"podQueue": fifo, "scheduledPodPopulator": dfifo},
        stores={"nodes": ("node-1", "node-2", "node-3")},
        cache=cache, backoff=(BackoffEntryView("default/web-3", 2.0, 11.0, False),), apiserver=api,
        goroutines=(GoroutineView(1, "main", "sched-a", "blocked", "scheduleOne"),),
        processes=(ProcessView("apiserver"), ProcessView("sched-a"), ProcessView("sched-b", False, "crashed")),
        leader=LeaderView("sched-a", 15.0, 1.0, 11.0, 1, ("sched-a", "sched-b")),
        stages_seen=("main", "Scheduler.Run", "scheduleOne.pop", "assume", "bind", "handler.addPodToCache"),
    )


def busy_prev() -> Snapshot:
    """``busy`` one step earlier: web-1 not yet in the DeltaFIFO, web-3 not queued, older lease."""
    b = busy(seq=39, time=12.0)
    fifo = QueueView("FIFO", ("default/web-2",), (QueueItemView("default/web-2"),), True, 0, False)
    dfifo = QueueView("DeltaFIFO", (), (), True, 0, False)
    assert b.cache is not None
    cache = CacheDebugState(30.0, (b.cache.nodes[0], _node("node-2", 1000, 2 * GI, ("default/db-1",), 3)),
                            (b.cache.pod_states[0], b.cache.pod_states[1]))
    return Snapshot(seq=39, time=12.0, stage="bind", queues={"podQueue": fifo, "scheduledPodPopulator": dfifo},
                    cache=cache, apiserver=b.apiserver, processes=b.processes,
                    leader=LeaderView("sched-a", 15.0, 1.0, 9.0, 1, ("sched-a", "sched-b")))


def big(n_nodes: int = 1000) -> Snapshot:
    nodes = tuple(_node(f"node-{i:04d}", 100 * (i % 10), GI * (i % 4), (f"default/p-{i}",) if i % 3 == 0 else ())
                  for i in range(n_nodes))
    states = tuple(PodDebugState(f"default/p-{i}", f"node-{i:04d}", False, None, False)
                   for i in range(0, n_nodes, 3))
    return Snapshot(seq=1, time=1.0, cache=CacheDebugState(30.0, nodes, states))


def decision_events() -> list[dict[str, Any]]:
    pod = "default/web-1"
    verdicts = {
        "node-1": {"PodFitsResources": ["Insufficient cpu"], "MatchNodeSelector": []},
        "node-2": {"PodFitsResources": [], "MatchNodeSelector": []},
        "node-3": {"PodFitsResources": [], "MatchNodeSelector": ["MatchNodeSelector"]},
    }
    events: list[dict[str, Any]] = [
        {"stage": "schedule.predicate_node",
         "data": {"pod": pod, "node": n, "fits": not any(v.values()), "predicates": v}}
        for n, v in verdicts.items()
    ]
    events.append({"stage": "schedule.priorities", "data": {
        "pod": pod, "nodes": ["node-2"], "scores": [[7], [9]], "weights": [1, 1],
        "names": ["LeastRequestedPriority", "BalancedResourceAllocation"], "extenders": {},
        "totals": {"node-2": 16}}})
    events.append({"stage": "selectHost", "data": {
        "pod": pod, "ranked": [["node-2", 16]], "ties": 1, "host": "node-2"}})
    return events


# name -> (view name, snapshot factory, previous factory or None, follow_pod, extra kwargs factory)
GOLDENS: dict[str, tuple[str, Any, Any, str | None, Any]] = {
    "pipeline_empty": ("pipeline", empty, None, None, dict),
    "pipeline_busy": ("pipeline", busy, busy_prev, "default/web-1", dict),
    "startup_empty": ("startup", empty, None, None, dict),
    "startup_mid": ("startup", startup_mid, startup_prev, None, dict),
    "cache_busy": ("cache", busy, busy_prev, "default/web-1", dict),
    "decision_web1": ("decision", busy, None, "default/web-1",
                      lambda: {"record": decision_from_events(decision_events(), "default/web-1")}),
    "pod_states_follow": ("pod_states", busy, busy_prev, "default/web-1", dict),
    "pod_states_all": ("pod_states", busy, None, None, dict),
    "leader_election_busy": ("leader_election", busy, busy_prev, None, dict),
}


def build_golden(name: str) -> str:
    """The DOT text of golden ``name``."""
    from kschedlearn.viz import VIEWS

    view, snap, prev, follow, extra = GOLDENS[name]
    graph = VIEWS[view](snap(), prev() if prev else None, follow_pod=follow, **extra())
    return graph.source
