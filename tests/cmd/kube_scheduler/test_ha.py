"""Two kube-scheduler replicas with leader election: one leader at a time, fail-over on a kill.

Go: plugin/cmd/kube-scheduler/app/server.go#L118-L139 (RunOrDie with the EndpointsLock) and
pkg/client/leaderelection/leaderelection.go (spec §1.6):
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/client/leaderelection/leaderelection.go#L74-L288

An inline scenario runs scheduler-a and scheduler-b with the 1.6 defaults (lease 15 s, renew
deadline 10 s, retry period 2 s, jitter factor 1.2), creates pods before and after the leader
is killed, and a tracer listener checks the invariants after every single trace event.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from kschedlearn import Simulation
from kschedlearn.client.leaderelection.resourcelock.interface import LeaderElectionRecord
from kschedlearn.scenarios.scenario import parse_scenario
from kschedlearn.trace import TraceEvent

LEASE, RETRY, JITTER = 15.0, 2.0, 1.2
MAX_RETRY_GAP = RETRY * (1 + JITTER)  # wait.JitterUntil: RetryPeriod .. RetryPeriod*(1+1.2)
ANNOTATION = "control-plane.alpha.kubernetes.io/leader"

NODES = "\n".join(f"""  - kind: Node
    apiVersion: v1
    metadata: {{name: node-{i}, labels: {{kubernetes.io/hostname: node-{i}}}}}
    status:
      allocatable: {{cpu: "4", memory: 8Gi, pods: "110"}}
      conditions: [{{type: Ready, status: "True"}}]""" for i in (1, 2, 3))


def _pod(at: float, name: str, scheduler_name: str | None = None) -> str:
    spec_extra = f"\n        schedulerName: {scheduler_name}" if scheduler_name else ""
    return f"""  - at: {at}
    create:
      kind: Pod
      apiVersion: v1
      metadata: {{name: {name}, namespace: default}}
      spec:{spec_extra}
        containers: [{{name: c, image: nginx, resources: {{requests: {{cpu: 100m, memory: 64Mi}}}}}}]"""


def _scenario(*, kill: str | None = "scheduler-a", kill_at: float = 20.0, duration: float = 60.0,
              flags_a: str = "[]", flags_b: str = "[]", extra_timeline: list[str] | None = None,
              pod_times: tuple[float, ...] = (3, 6, 10, 15, 22, 26, 30)) -> Any:
    timeline = [_pod(t, f"app-{i + 1}") for i, t in enumerate(pod_times)]
    if kill is not None:
        timeline.append(f"  - at: {kill_at}\n    kill: {kill}")
    timeline += extra_timeline or []
    text = f"""
name: ha
duration: {duration}
schedulers:
  - name: scheduler-a
    flags: {flags_a}
  - name: scheduler-b
    flags: {flags_b}
objects:
{NODES}
timeline:
{chr(10).join(timeline)}
"""
    return parse_scenario(text, source="ha.yaml")


def _stored_record(sim: Simulation) -> LeaderElectionRecord | None:
    endpoints = sim.world.api.storage.get("endpoints", ("kube-system", "kube-scheduler"))
    if endpoints is None or ANNOTATION not in endpoints.metadata.annotations:
        return None
    return LeaderElectionRecord.from_json(endpoints.metadata.annotations[ANNOTATION])


@attrs.define
class Watcher:
    """Checks the leader-election invariants after every trace event (a tracer listener).

    Violations are collected, not raised: an exception inside a listener would surface inside
    whichever simulated goroutine emitted the event and kill that process instead of failing
    the test. Replicas started with ``--leader-elect=false`` are not candidates and are skipped.
    """

    sim: Simulation
    death: dict[str, float] = attrs.field(factory=dict)
    leaders_seen: list[tuple[float, str]] = attrs.field(factory=list)
    scheduling: set[str] = attrs.field(factory=set)
    violations: list[str] = attrs.field(factory=list)
    checked: int = 0

    def __call__(self, ev: TraceEvent) -> None:
        try:
            self._check(ev)
        except Exception as err:  # noqa: BLE001 - reported by the test, see the class docstring
            self.violations.append(f"#{ev.seq} t={ev.time}: {type(err).__name__}: {err}")
        self.checked += 1

    def _check(self, ev: TraceEvent) -> None:
        world = self.sim.world
        for name, replica in world.replicas.items():
            if not replica.process.alive and name not in self.death:
                self.death[name] = ev.time
        candidates = {name: r for name, r in world.replicas.items()
                      if r.handles.s is not None and r.handles.s.leader_election.leader_elect}
        alive = [r for r in candidates.values() if r.process.alive]
        # 1. among live candidates at most one believes it leads (its elector saw itself in the record)
        believers = [r.name for r in alive if r.handles.elector is not None and r.handles.elector.is_leader()]
        if len(believers) > 1:
            self.violations.append(f"#{ev.seq} t={ev.time}: {believers} all believe they lead")
        # 2. only that one runs the scheduling loop
        if ev.stage == "Scheduler.Run" and ev.process in candidates:
            self.scheduling.add(ev.process)
        running = [name for name in self.scheduling if world.replicas[name].process.alive]
        if len(running) > 1 or not set(running) <= set(believers):
            self.violations.append(f"#{ev.seq} t={ev.time}: {running} run scheduleOne, {believers} lead")
        if ev.process in candidates and ev.stage in ("scheduleOne.pop", "assume", "bind"):
            if ev.process not in believers:
                self.violations.append(f"#{ev.seq} t={ev.time}: {ev.process} did {ev.stage} without the lease")
        # 3. the stored record's holder is alive, or dead and no longer renewed
        record = _stored_record(self.sim)
        if record is not None and record.holder_identity:
            holder = world.replicas[record.holder_identity]
            if not holder.process.alive and not (
                    record.renew_time is not None and record.renew_time <= self.death[holder.name]):
                self.violations.append(f"#{ev.seq} t={ev.time}: dead {holder.name}'s record was renewed")
            if not self.leaders_seen or self.leaders_seen[-1][1] != record.holder_identity:
                self.leaders_seen.append((ev.time, record.holder_identity))


def _run(scenario: Any, seed: int) -> tuple[Simulation, Watcher]:
    sim = Simulation(scenario=scenario, seed=seed, snapshots=False)
    watcher = Watcher(sim, checked=len(sim.trace))  # the objects were created with the world
    sim.world.tracer.listeners.append(watcher)
    while sim.step("event") is not None:
        pass
    assert watcher.violations == []
    assert watcher.checked == len(sim.trace)  # the watcher saw every event
    return sim, watcher


def _binds(sim: Simulation) -> dict[str, list[TraceEvent]]:
    out: dict[str, list[TraceEvent]] = {}
    for ev in sim.trace:
        if ev.stage == "apiserver.bind":
            out.setdefault(ev.data["pod"], []).append(ev)
    return out


def _acquired(sim: Simulation) -> list[TraceEvent]:
    return [e for e in sim.trace if e.stage == "leaderelection.acquire" and e.data.get("result") == "acquired"]


SEEDS = [1, 2, 3, 4, 5]


@pytest.fixture(scope="module", params=SEEDS, ids=[f"seed{s}" for s in SEEDS])
def failover(request: pytest.FixtureRequest) -> tuple[Simulation, Watcher]:
    return _run(_scenario(), request.param)


def test_exactly_one_leader_at_any_instant(failover: tuple[Simulation, Watcher]) -> None:
    sim, watcher = failover
    assert [name for _, name in watcher.leaders_seen] == ["scheduler-a", "scheduler-b"]
    acquired = _acquired(sim)
    assert [e.process for e in acquired] == ["scheduler-a", "scheduler-b"]
    # before the kill and after the takeover exactly one live replica holds and believes the lease
    kill = watcher.death["scheduler-a"]
    assert kill == 20.0
    for ev in sim.trace:
        if ev.stage == "leaderelection.renew":
            assert ev.process == ("scheduler-a" if ev.time < kill else "scheduler-b")
    b = sim.world.replicas["scheduler-b"]
    assert b.process.alive and b.handles.elector.is_leader()


def test_takeover_waits_for_the_lease_to_expire(failover: tuple[Simulation, Watcher]) -> None:
    sim, watcher = failover
    kill = watcher.death["scheduler-a"]
    last_renew = max(e.time for e in sim.trace if e.process == "scheduler-a"
                     and e.stage in ("leaderelection.renew", "leaderelection.acquire"))
    assert kill - RETRY <= last_renew < kill
    takeover = _acquired(sim)[-1]
    # scheduler-b restarts its 15 s countdown when it *sees* the last renewal (at its next try,
    # ≤ 4.4 s later), and then needs one more try after the countdown ran out
    assert last_renew + LEASE <= takeover.time <= last_renew + LEASE + 2 * MAX_RETRY_GAP
    assert takeover.time - kill >= LEASE - RETRY
    # every failed try in between said the lock is still held by scheduler-a
    failed = [e for e in sim.trace if e.stage == "leaderelection.acquire" and e.process == "scheduler-b"
              and kill < e.time < takeover.time]
    assert failed and all(e.data["result"] == "held" and e.data["holder"] == "scheduler-a" for e in failed)
    # tries are spaced by RetryPeriod plus jitter (sliding: measured from the end of a try)
    tries = [e.time for e in sim.trace if e.stage == "leaderelection.acquire" and e.process == "scheduler-b"]
    gaps = [b - a for a, b in zip(tries, tries[1:])]
    assert all(RETRY <= g <= MAX_RETRY_GAP + 1e-9 for g in gaps), gaps


def test_leader_transitions_increments(failover: tuple[Simulation, Watcher]) -> None:
    sim, _ = failover
    first, second = _acquired(sim)
    assert first.data["leader_transitions"] == 0
    assert second.data["leader_transitions"] == 1
    record = _stored_record(sim)
    assert record is not None
    assert record.holder_identity == "scheduler-b" and record.leader_transitions == 1
    # the new holder's acquireTime is its own (whole seconds in the stored JSON, as metav1.Time)
    assert record.acquire_time == int(second.time)
    # a LeaderElection event "became leader" for each holder
    events = [o for o in sim.world.api.storage.items("events") if o.reason == "LeaderElection"]
    assert sorted(e.message for e in events) == ["scheduler-a became leader", "scheduler-b became leader"]


def test_no_pod_is_bound_twice_and_waiting_pods_go_after_takeover(failover: tuple[Simulation, Watcher]) -> None:
    sim, watcher = failover
    binds = _binds(sim)
    assert sorted(binds) == [f"default/app-{i}" for i in range(1, 8)]
    assert all(len(evs) == 1 for evs in binds.values()), {k: len(v) for k, v in binds.items()}
    posts = [e.data.get("pod") or e.message for e in sim.trace if e.stage == "bind"]
    assert len(posts) == 7  # no second POST .../binding either
    kill = watcher.death["scheduler-a"]
    takeover = _acquired(sim)[-1].time
    for key, (ev,) in binds.items():
        created = next(e.time for e in sim.trace if e.stage == "workload" and e.message.endswith(key))
        if created < kill:
            assert ev.process == "scheduler-a" and ev.time == created
        else:  # app-5, app-6, app-7 wait in the API server until scheduler-b leads
            assert ev.process == "scheduler-b" and ev.time >= takeover
    for name in ("app-5", "app-6", "app-7"):
        assert sim.world.api.get("pods", "default", name).spec.node_name


def test_the_standby_watches_but_does_not_schedule(failover: tuple[Simulation, Watcher]) -> None:
    sim, _ = failover
    takeover = _acquired(sim)[-1].time
    b_early = [e for e in sim.trace if e.process == "scheduler-b" and e.time < takeover]
    # its pod reflectors run from the start (ConfigFactory.Run happens before the election) ...
    assert any(e.stage == "fifo.add" for e in b_early)
    # ... but it never pops the podQueue before it leads
    assert not any(e.stage in ("scheduleOne.pop", "assume", "bind", "Scheduler.Run") for e in b_early)


def test_killed_leader_process_is_recorded(failover: tuple[Simulation, Watcher]) -> None:
    sim, _ = failover
    proc = sim.world.replicas["scheduler-a"].process
    assert not proc.alive and proc.exit_reason == "killed by the scenario"
    assert not sim.world.runtime.crashes  # a kill is not a crash: nothing ran OnStoppedLeading


def test_killing_the_standby_changes_nothing() -> None:
    sim, watcher = _run(_scenario(kill="scheduler-b", kill_at=8.0, duration=40), seed=2)
    assert [name for _, name in watcher.leaders_seen] == ["scheduler-a"]
    assert [e.process for e in _acquired(sim)] == ["scheduler-a"]
    assert _stored_record(sim).leader_transitions == 0
    assert all(len(v) == 1 and v[0].process == "scheduler-a" for v in _binds(sim).values())
    assert len(_binds(sim)) == 7


@pytest.mark.parametrize("kill_at", [1.0, 9.5, 13.3])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_failover_at_other_moments(seed: int, kill_at: float) -> None:
    sim, watcher = _run(_scenario(kill_at=kill_at, duration=50, pod_times=(0.5, 5, 12, 16, 18)), seed)
    assert [e.process for e in _acquired(sim)] == ["scheduler-a", "scheduler-b"]
    binds = _binds(sim)
    assert len(binds) == 5 and all(len(v) == 1 for v in binds.values())
    takeover = _acquired(sim)[-1].time
    for evs in binds.values():
        assert evs[0].process == ("scheduler-a" if evs[0].time < kill_at else "scheduler-b")
        if evs[0].process == "scheduler-b":
            assert evs[0].time >= takeover


def test_lost_master_exits_and_the_standby_takes_over() -> None:
    """The leader cannot write the lock for RenewDeadline: "lost master" ends its process."""
    fault = """  - at: 9
    fault: {fail_next: {verb: update, resource: endpoints, n: 8}}"""
    sim, watcher = _run(_scenario(kill=None, duration=45, extra_timeline=[fault]), seed=1)
    lost = [e for e in sim.trace if e.stage == "leaderelection.lost"]
    assert [e.process for e in lost] == ["scheduler-a"]
    a = sim.world.replicas["scheduler-a"].process
    assert not a.alive and a.exit_reason == "FatalError: lost master"
    assert [c.process for c in sim.world.runtime.crashes] == ["scheduler-a"]
    assert [e.process for e in _acquired(sim)] == ["scheduler-a", "scheduler-b"]
    assert _stored_record(sim).leader_transitions == 1
    assert all(len(v) == 1 for v in _binds(sim).values()) and len(_binds(sim)) == 7


# -- a second scheduler by name ---------------------------------------------------------------

def test_second_scheduler_by_name_schedules_only_its_pods() -> None:
    """default-scheduler (leader election on) and my-scheduler (--leader-elect=false) side by side."""
    timeline = [_pod(2, "default-1"), _pod(2.5, "mine-1", "my-scheduler"), _pod(3, "default-2"),
                _pod(3.5, "mine-2", "my-scheduler"), _pod(4, "nobody-1", "no-such-scheduler")]
    scenario = _scenario(kill=None, duration=12, pod_times=(), flags_b='["--leader-elect=false", '
                         '"--scheduler-name=my-scheduler"]', extra_timeline=timeline)
    sim, watcher = _run(scenario, seed=1)
    binds = _binds(sim)
    assert {k: v[0].process for k, v in binds.items()} == {
        "default/default-1": "scheduler-a", "default/default-2": "scheduler-a",
        "default/mine-1": "scheduler-b", "default/mine-2": "scheduler-b",
    }
    assert not sim.world.api.get("pods", "default", "nobody-1").spec.node_name
    # my-scheduler never took part in the election and still scheduled
    assert not [e for e in sim.trace if e.process == "scheduler-b" and e.stage.startswith("leaderelection.")]
    assert [e.process for e in _acquired(sim)] == ["scheduler-a"]
    # each one's events carry its --scheduler-name as the source component
    scheduled = {o.involved_object.name: o.source.component
                 for o in sim.world.api.storage.items("events") if o.reason == "Scheduled"}
    assert scheduled == {"default-1": "default-scheduler", "default-2": "default-scheduler",
                         "mine-1": "my-scheduler", "mine-2": "my-scheduler"}
    # 1.6: both podQueues receive every unassigned pod (the watch selects on nodeName only);
    # getNextPod drops the ones ResponsibleForPod refuses, so scheduleOne only sees its own
    queued = {(e.process, e.message.rsplit("/", 1)[-1]) for e in sim.trace if e.stage == "fifo.add"}
    assert {("scheduler-a", "mine-1"), ("scheduler-b", "default-1"), ("scheduler-b", "nobody-1")} <= queued
    popped = {(e.process, e.data.get("pod") or e.message.rsplit("/", 1)[-1].split()[0])
              for e in sim.trace if e.stage == "scheduleOne.pop"}
    assert {p for p, pod in popped if "mine" in pod} == {"scheduler-b"}
    assert {p for p, pod in popped if "default-" in pod} == {"scheduler-a"}
    assert not [pod for _, pod in popped if "nobody" in pod]


def test_1_6_lock_name_is_fixed_so_a_second_named_scheduler_waits() -> None:
    """1.6 quirk: the lock is always kube-system/kube-scheduler, whatever --scheduler-name says,
    so a second scheduler with leader election on never gets to schedule while the first leads."""
    timeline = [_pod(2, "default-1"), _pod(2.5, "mine-1", "my-scheduler")]
    scenario = _scenario(kill=None, duration=25, pod_times=(), flags_b='["--scheduler-name=my-scheduler"]',
                         extra_timeline=timeline)
    sim, _ = _run(scenario, seed=1)
    assert [e.process for e in _acquired(sim)] == ["scheduler-a"]
    held = [e for e in sim.trace if e.stage == "leaderelection.acquire" and e.process == "scheduler-b"]
    assert len(held) >= 5 and all(e.data["holder"] == "scheduler-a" for e in held)
    assert sim.world.api.get("pods", "default", "default-1").spec.node_name
    assert not sim.world.api.get("pods", "default", "mine-1").spec.node_name
