"""The kube-scheduler start-up chain as the trace shows it: stage order, call stacks, goroutines.

Go: plugin/cmd/kube-scheduler/scheduler.go (main) and app/server.go (Run), spec §1.1–§1.4:
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/cmd/kube-scheduler/app/server.go#L65-L140

Each test runs a small inline scenario (one scheduler, three nodes, one pod arriving at t=2 s)
through ``Simulation.step("event")`` and reads what the trace recorded.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from kschedlearn import Simulation
from kschedlearn.scenarios.scenario import parse_scenario
from kschedlearn.trace import TraceEvent

REPLICA = "scheduler-0"

SCENARIO = """
name: startup-chain
duration: {duration}
schedulers:
  - name: scheduler-0
    flags: {flags}
objects:
  - kind: Node
    apiVersion: v1
    metadata: {{name: node-1, labels: {{kubernetes.io/hostname: node-1}}}}
    status:
      allocatable: {{cpu: "2", memory: 4Gi, pods: "110"}}
      conditions: [{{type: Ready, status: "True"}}]
  - kind: Node
    apiVersion: v1
    metadata: {{name: node-2, labels: {{kubernetes.io/hostname: node-2}}}}
    status:
      allocatable: {{cpu: "4", memory: 8Gi, pods: "110"}}
      conditions: [{{type: Ready, status: "True"}}]
timeline:
  - at: 2
    create:
      kind: Pod
      apiVersion: v1
      metadata: {{name: web-1, namespace: default}}
      spec:
        containers: [{{name: web, image: nginx, resources: {{requests: {{cpu: 500m, memory: 512Mi}}}}}}]
"""


def _sim(flags: list[str], *, seed: int = 1, duration: float = 4) -> Simulation:
    text = SCENARIO.format(flags="[" + ", ".join(f'"{f}"' for f in flags) + "]", duration=duration)
    return Simulation(scenario=parse_scenario(text, source="startup-chain.yaml"), seed=seed)


def _run_to_first_schedule_one(sim: Simulation) -> list[TraceEvent]:
    """Step event by event until the replica's first scheduleOne; return the replica's events."""
    while True:
        ev = sim.step("event")
        assert ev is not None, "the scenario ended before the first scheduleOne"
        if ev.process == REPLICA and ev.stage == "scheduleOne.pop":
            break
    return [e for e in sim.trace if e.process == REPLICA]


# (label, matcher): the start-up chain of spec §1.4, in source order
Matcher = Callable[[TraceEvent], bool]


def _stage(name: str) -> Matcher:
    return lambda ev: ev.stage == name


ACQUIRED: Matcher = lambda ev: (ev.stage == "leaderelection.acquire" and ev.data.get("result") == "acquired"
                                and "successfully acquired lease kube-system/kube-scheduler" in ev.message)
CHAIN_BEFORE_ELECTION = [
    "main", "NewSchedulerServer", "Run", "createClient", "createRecorder", "NewSharedInformerFactory",
    "createScheduler", "NewConfigFactory", "schedulercache.New", "NewIndexerInformer", "CreateFromProvider",
    "CreateFromKeys", "ConfigFactory.Run", "startHTTP", "informerFactory.Start",
]
CHAIN_AFTER_ELECTION = ["Scheduler.Run", "scheduleOne.pop"]


def _first_index(events: list[TraceEvent], match: Matcher, label: str) -> int:
    for i, ev in enumerate(events):
        if match(ev):
            return i
    raise AssertionError(f"no {label} event in the replica's trace: {[e.stage for e in events]}")


def _assert_in_order(events: list[TraceEvent], chain: list[tuple[str, Matcher]]) -> None:
    firsts = [(label, _first_index(events, match, label)) for label, match in chain]
    order = [label for label, _ in sorted(firsts, key=lambda p: p[1])]
    assert order == [label for label, _ in chain]


def test_default_start_order_with_leader_election() -> None:
    """No flags at all: 1.6 forces --leader-elect=true, so the lease is acquired before sched.Run."""
    events = _run_to_first_schedule_one(_sim([]))
    chain = ([(s, _stage(s)) for s in CHAIN_BEFORE_ELECTION] + [("leader election acquired", ACQUIRED)]
             + [(s, _stage(s)) for s in CHAIN_AFTER_ELECTION])
    _assert_in_order(events, chain)
    # the election starts after the informers and before any lease is held
    _assert_in_order(events, [("informerFactory.Start", _stage("informerFactory.Start")),
                              ("leaderelection.start", _stage("leaderelection.start")), ("acquired", ACQUIRED)])
    acquired = events[_first_index(events, ACQUIRED, "acquired")]
    assert acquired.data["holder"] == REPLICA and acquired.data["attempt"] == 1
    assert acquired.data["leader_transitions"] == 0
    # NewSchedulerServer reports leader election forced on (the v1alpha1 default is off)
    assert events[_first_index(events, _stage("NewSchedulerServer"), "")].data["leader_elect"] is True


def test_leader_elect_false_skips_the_election() -> None:
    events = _run_to_first_schedule_one(_sim(["--leader-elect=false"]))
    _assert_in_order(events, [(s, _stage(s)) for s in CHAIN_BEFORE_ELECTION + CHAIN_AFTER_ELECTION])
    assert not [e.stage for e in events if e.stage.startswith("leaderelection.")]
    # informerFactory.Start → run(nil) straight away
    stages = [e.stage for e in events if e.goroutine == f"{REPLICA} main" and e.stage != "log"]
    assert stages[stages.index("informerFactory.Start") + 1] == "Scheduler.Run"


def test_leader_elect_false_creates_no_lock_object() -> None:
    sim = _sim(["--leader-elect=false"])
    while sim.step("event") is not None:
        pass
    assert sim.world.api.storage.get("endpoints", ("kube-system", "kube-scheduler")) is None
    assert sim.snapshot.leader is None or not sim.snapshot.leader.holder
    pod = sim.world.api.get("pods", "default", "web-1")
    assert pod.spec.node_name in ("node-1", "node-2")


def test_leader_election_creates_the_endpoints_lock() -> None:
    sim = _sim([])
    _run_to_first_schedule_one(sim)
    endpoints = sim.world.api.storage.get("endpoints", ("kube-system", "kube-scheduler"))
    assert endpoints is not None
    assert '"holderIdentity":"scheduler-0"' in endpoints.metadata.annotations[
        "control-plane.alpha.kubernetes.io/leader"].replace(" ", "")
    assert sim.snapshot.leader.holder == REPLICA


def test_startup_is_deterministic_per_seed() -> None:
    a = [(e.stage, e.message, e.time) for e in _run_to_first_schedule_one(_sim([], seed=3))]
    b = [(e.stage, e.message, e.time) for e in _run_to_first_schedule_one(_sim([], seed=3))]
    assert a == b


# -- call stacks -------------------------------------------------------------------------

# stage → functions that must appear on the running goroutine's stack, outermost first, followed
# by the function its trace point stands at the call of (issue 21: a stage is attached from outside
# at a call the Go code makes; the stack ends at the calling Go-twin line)
EXPECTED_STACKS = {
    "main": ["main"],
    "Run": ["main", "run"],
    "createClient": ["main", "run", "create_client"],
    "createRecorder": ["main", "run", "create_recorder"],
    "createScheduler": ["main", "run", "create_scheduler"],
    "NewConfigFactory": ["main", "run", "create_scheduler", "new_config_factory"],
    "schedulercache.New": ["run", "create_scheduler", "new_config_factory", "new"],
    "NewIndexerInformer": ["create_scheduler", "new_config_factory", "new_indexer_informer"],
    "CreateFromProvider": ["create_scheduler", "new_from_configurator", "SchedulerConfigurator.create"],
    "CreateFromKeys": ["SchedulerConfigurator.create", "ConfigFactory.create_from_provider",
                       "ConfigFactory.create_from_keys"],
    "ConfigFactory.Run": ["ConfigFactory.create_from_keys", "ConfigFactory.run"],
    "startHTTP": ["main", "run"],
    "informerFactory.Start": ["main", "run", "SharedInformerFactory.start"],
    "leaderelection.acquire": ["main", "run", "LeaderElector.run", "LeaderElector._acquire"],
    "Scheduler.Run": ["run.<locals>.run_"],
    "scheduleOne.pop": ["Scheduler.schedule_one"],
}


def _is_subsequence(needle: list[str], hay: list[str]) -> bool:
    it = iter(hay)
    return all(any(x == y for y in it) for x in needle)


@pytest.fixture(scope="module")
def default_start() -> tuple[Simulation, list[TraceEvent]]:
    sim = _sim([])
    return sim, _run_to_first_schedule_one(sim)


@pytest.mark.parametrize("stage", sorted(EXPECTED_STACKS))
def test_event_carries_the_goroutine_call_stack(default_start: tuple[Simulation, list[TraceEvent]],
                                                stage: str) -> None:
    _, events = default_start
    ev = next(e for e in events if e.stage == stage)
    functions = [f.function for f in ev.stack] + _called(ev)
    assert _is_subsequence(EXPECTED_STACKS[stage], functions), functions
    # frames are mirrored code: kschedlearn modules, never the runtime or the tracer
    assert all(f.module.startswith("kschedlearn.") for f in ev.stack)
    assert not any(f.module.startswith(("kschedlearn.sim.", "kschedlearn.trace.")) for f in ev.stack)
    assert all(f.line > 0 for f in ev.stack)
    # the snapshot holds the same stack, for the startup view
    assert ev.snapshot is not None and tuple(ev.snapshot.stack) == tuple(ev.stack)
    assert ev.snapshot.goroutine == ev.goroutine


def _called(ev: TraceEvent) -> list[str]:
    """The function a "calling" / "returned" trace point stands at the call of."""
    observed = ev.observed
    return [observed.function] if observed is not None and observed.phase in ("calling", "returned") else []


def test_stack_modules_name_the_mirrored_go_files(default_start: tuple[Simulation, list[TraceEvent]]) -> None:
    _, events = default_start
    by_stage = {e.stage: e for e in reversed(events)}
    assert by_stage["main"].stack[0].module == "kschedlearn.cmd.kube_scheduler.scheduler"
    # the innermost frame makes the observed call; the function called is named by the event
    assert by_stage["Run"].stack[-1].module == "kschedlearn.cmd.kube_scheduler.scheduler"
    assert by_stage["Run"].observed.module == "kschedlearn.cmd.kube_scheduler.app.server"
    assert by_stage["createClient"].stack[-1].module == "kschedlearn.cmd.kube_scheduler.app.server"
    assert by_stage["createClient"].observed.module == "kschedlearn.cmd.kube_scheduler.app.configurator"
    assert by_stage["NewConfigFactory"].observed.module == "kschedlearn.scheduler.factory.factory"
    assert by_stage["schedulercache.New"].stack[-1].module == "kschedlearn.scheduler.factory.factory"
    assert by_stage["schedulercache.New"].observed.module == "kschedlearn.scheduler.schedulercache.cache"
    assert by_stage["leaderelection.acquire"].stack[-1].module == "kschedlearn.client.leaderelection.leaderelection"


def test_trace_json_carries_the_stack(default_start: tuple[Simulation, list[TraceEvent]]) -> None:
    _, events = default_start
    ev = next(e for e in events if e.stage == "NewConfigFactory")
    frames = ev.to_json()["stack"]
    assert [f["function"] for f in frames] == [f.function for f in ev.stack]
    assert set(frames[0]) == {"function", "module", "line"}


# -- the startup view lights up the current frame ---------------------------------------------

# chain stage → the startup view's frame label
VIEW_FRAMES = {
    "main": "main", "NewSchedulerServer": "NewSchedulerServer", "Run": "app.Run", "createClient": "createClient",
    "createRecorder": "createRecorder", "NewSharedInformerFactory": "NewSharedInformerFactory",
    "createScheduler": "createScheduler", "NewConfigFactory": "NewConfigFactory",
    "schedulercache.New": "schedulercache.New", "NewIndexerInformer": "NewIndexerInformer",
    "CreateFromProvider": "CreateFromProvider", "CreateFromKeys": "CreateFromKeys",
    "ConfigFactory.Run": "ConfigFactory.Run", "startHTTP": "startHTTP",
    "informerFactory.Start": "informerFactory.Start", "leaderelection.acquire": "leader election",
    "Scheduler.Run": "Scheduler.Run", "scheduleOne.pop": "scheduleOne",
}


@pytest.mark.parametrize("stage", list(VIEW_FRAMES))
def test_startup_view_lights_the_current_frame(default_start: tuple[Simulation, list[TraceEvent]],
                                               stage: str) -> None:
    from kschedlearn.viz.startup import CHAIN, _frame_states

    _, events = default_start
    ev = next(e for e in events if e.stage == stage)
    states = _frame_states(ev.snapshot)
    current = [CHAIN[i][0] for i, s in enumerate(states) if s == "current"]
    assert current == [VIEW_FRAMES[stage]]


# -- goroutines started so far -----------------------------------------------------------------

def _replica_goroutines(ev: TraceEvent) -> dict[str, str]:
    return {g.name: f"{g.state}: {g.waiting_on}" for g in ev.snapshot.goroutines if g.process == REPLICA}


def test_goroutines_listed_after_startup(default_start: tuple[Simulation, list[TraceEvent]]) -> None:
    sim, events = default_start
    first_schedule = events[-1]
    assert first_schedule.stage == "scheduleOne.pop"
    gs = _replica_goroutines(first_schedule)
    names = set(gs)
    # one reflector per pod list-watch and per started informer
    for reflector in ("reflector unassigned-pods (podQueue)", "reflector assigned-pods (scheduler cache)",
                      "reflector informers/Node", "reflector informers/PersistentVolume",
                      "reflector informers/PersistentVolumeClaim", "reflector informers/Service",
                      "reflector informers/ReplicationController", "reflector informers/ReplicaSet",
                      "reflector informers/StatefulSet"):
        assert reflector in names
    # processLoop of the assigned-pod informer and of each shared informer
    assert "scheduledPodPopulator.Run" in names
    assert "informer Node" in names
    assert "schedulercache.cleanupExpiredAssumedPods" in names
    assert gs["scheduler.scheduleOne loop"].startswith("running")
    assert gs["startHTTP"] == "blocked: chan receive ListenAndServe"
    # leader-election renew: RunOrDie keeps main in renew's wait.Poll; OnStartedLeading runs sched.Run
    assert "poller" in gs[f"{REPLICA} main"]
    assert "wait.poller" in names
    assert gs["OnStartedLeading"] == "blocked: chan receive select{}"
    # the snapshot lists only live goroutines
    assert all(g.state != "done" for g in first_schedule.snapshot.goroutines)


def test_goroutines_appear_as_the_chain_goes(default_start: tuple[Simulation, list[TraceEvent]]) -> None:
    _, events = default_start
    at = {e.stage: _replica_goroutines(e) for e in reversed(events)}
    assert set(at["main"]) == {f"{REPLICA} main"}
    # the cache's cleanup loop starts in schedulercache.New; the pod reflectors in ConfigFactory.Run
    assert "schedulercache.cleanupExpiredAssumedPods" not in at["NewConfigFactory"]
    assert "schedulercache.cleanupExpiredAssumedPods" in at["NewIndexerInformer"]
    assert "reflector unassigned-pods (podQueue)" not in at["CreateFromKeys"]
    assert "reflector unassigned-pods (podQueue)" in at["startHTTP"]
    assert "startHTTP" not in at["startHTTP"]  # the trace point is at the `go` statement
    assert "startHTTP" in at["informerFactory.Start"]
    assert "informer Node" not in at["startHTTP"]
    assert "informer Node" in at["leaderelection.acquire"]  # started by informerFactory.Start
    assert "scheduler.scheduleOne loop" not in at["leaderelection.acquire"]


def test_leader_elect_false_goroutines_have_no_elector() -> None:
    sim = _sim(["--leader-elect=false"])
    events = _run_to_first_schedule_one(sim)
    gs = _replica_goroutines(events[-1])
    assert "OnStartedLeading" not in gs and "wait.poller" not in gs
    assert gs[f"{REPLICA} main"] == "blocked: chan receive select{}"
    assert "startHTTP" in gs and "scheduler.scheduleOne loop" in gs
    assert sim.world.replicas[REPLICA].handles.elector is None
