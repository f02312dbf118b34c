"""Tests for leader election: a port of leaderelection_test.go plus runs on the simulated runtime.

Go: https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/client/leaderelection/leaderelection_test.go
(the same file as vendor/k8s.io/kubernetes/pkg/client/leaderelection/leaderelection_test.go at
cluster-capacity commit f271bd0a9394ad63384802cf75294f6ecab36ac2; 1.6 has the endpoints lock only).
TestTryAcquireOrRenew is ``test_TryAcquireOrRenew``; its Go table has no case names, only a
comment above each row, and those comments are the ids. The Go fake clientset's reactors are a
small fake with the same verbs; the catch-all "unreachable action" reactor is the count of
recorded actions. The tests after it are kschedlearn's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs
import pytest

from kschedlearn import sim
from kschedlearn.api.v1 import Endpoints, EventSource, ObjectMeta
from kschedlearn.apimachinery.api.errors import GroupResource, new_not_found
from kschedlearn.apiserver.clientset import new_for_server
from kschedlearn.apiserver.server import APIServer
from kschedlearn.client.leaderelection import (
    JITTER_FACTOR,
    LeaderCallbacks,
    LeaderElectionConfig,
    LeaderElectionConfigError,
    LeaderElector,
    new_leader_elector,
    run_or_die,
)
from kschedlearn.client.leaderelection.resourcelock import (
    LEADER_ELECTION_RECORD_ANNOTATION_KEY,
    EndpointsLock,
    LeaderElectionRecord,
    ResourceLockConfig,
)
from kschedlearn.client_go.tools.record.event import new_broadcaster
from kschedlearn.sim import Chan, Runtime
from kschedlearn.trace import Tracer, glog
from kschedlearn.observe import attach
from kschedlearn.observe.leaderelection import observe_elector, observe_leader_election

HOUR = 3600.0


# -- a fake clientset with Go-style reactors (client-go/testing) --------------------------------
@attrs.define(eq=False)
class FakeEndpoints:
    """``core().endpoints(ns)``: each verb answered by a reactor; every call recorded."""

    parent: FakeClientset
    namespace: str

    def _react(self, verb: str, arg: Any) -> Any:
        self.parent.actions.append((verb, self.namespace, arg))
        reactor = self.parent.reactors.get(verb)
        if reactor is None:
            raise AssertionError(f"unreachable action: {verb} {arg!r}")
        return reactor(self.namespace, arg)

    def get(self, name: str) -> Any:
        return self._react("get", name)

    def create(self, obj: Any) -> Any:
        return self._react("create", obj)

    def update(self, obj: Any) -> Any:
        return self._react("update", obj)


@attrs.define(eq=False)
class FakeClientset:
    reactors: dict[str, Callable[[str, Any], Any]]
    actions: list[tuple[str, str, Any]] = attrs.field(factory=list)

    def core(self) -> Any:
        return self

    def endpoints(self, namespace: str) -> FakeEndpoints:
        return FakeEndpoints(self, namespace)


@attrs.define(eq=False)
class FakeRecorder:
    """Go: record.FakeRecorder -- keeps "<type> <reason> <message>" strings."""

    events: list[tuple[Any, str]] = attrs.field(factory=list)

    def eventf(self, obj: Any, event_type: str, reason: str, fmt: str, *args: Any) -> None:
        self.events.append((obj, f"{event_type} {reason} {fmt % args if args else fmt}"))


def _get_not_found(ns: str, name: str) -> Any:
    raise new_not_found(GroupResource("", "endpoints"), name)


def _get_with(annotation: str | None) -> Callable[[str, str], Endpoints]:
    def react(ns: str, name: str) -> Endpoints:
        ann = {LEADER_ELECTION_RECORD_ANNOTATION_KEY: annotation} if annotation is not None else {}
        return Endpoints(metadata=ObjectMeta(namespace=ns, name=name, annotations=ann))
    return react


def _echo(ns: str, obj: Any) -> Any:
    return obj


TRY_ACQUIRE_CASES = [
    pytest.param({"get": _get_not_found, "create": _echo}, None, None, True, False, "baz",
                 id="acquire from no endpoints"),
    pytest.param({"get": _get_with(None), "update": _echo}, None, None, True, True, "baz",
                 id="acquire from unled endpoints"),
    pytest.param({"get": _get_with('{"holderIdentity":"bing"}'), "update": _echo},
                 LeaderElectionRecord(holder_identity="bing"), "past", True, True, "baz",
                 id="acquire from led, unacked endpoints"),
    pytest.param({"get": _get_with('{"holderIdentity":"bing"}')}, None, "future", False, False, "bing",
                 id="don't acquire from led, acked endpoints"),
    pytest.param({"get": _get_with('{"holderIdentity":"baz"}'), "update": _echo},
                 LeaderElectionRecord(holder_identity="baz"), "future", True, False, "baz",
                 id="renew already acquired endpoints"),
]


@pytest.mark.parametrize(
    "reactors, observed_record, observed_time, expect_success, transition_leader, out_holder",
    TRY_ACQUIRE_CASES,
)
def test_TryAcquireOrRenew(
    reactors: dict[str, Any], observed_record: LeaderElectionRecord | None, observed_time: str | None,
    expect_success: bool, transition_leader: bool, out_holder: str,
) -> None:
    rt = Runtime(seed=1, start_time=10 * HOUR)
    client = FakeClientset(reactors)
    reported: list[str] = []
    lock = EndpointsLock(
        endpoints_meta=ObjectMeta(namespace="foo", name="bar"), client=client,
        lock_config=ResourceLockConfig(identity="baz", event_recorder=FakeRecorder()),
    )
    lec = LeaderElectionConfig(
        lock=lock, lease_duration=10.0, renew_deadline=0.0, retry_period=0.0,
        callbacks=LeaderCallbacks(on_started_leading=lambda stop: None, on_stopped_leading=lambda: None,
                                  on_new_leader=reported.append),
    )
    le = LeaderElector(config=lec)
    if observed_record is not None:
        le.observed_record = observed_record
    if observed_time == "future":
        le.observed_time = rt.now + 1000 * HOUR
    elif observed_time == "past":
        le.observed_time = rt.now - 1000 * HOUR

    def body() -> None:
        assert le._try_acquire_or_renew() is expect_success
        le._maybe_report_transition()
        sim.sleep(0)  # let the OnNewLeader goroutine run

    rt.run_fn(body)
    assert le.observed_record.holder_identity == out_holder
    assert len(client.actions) == len(reactors)
    assert le.observed_record.leader_transitions == (1 if transition_leader else 0)
    assert reported == [out_holder]
    if expect_success:
        written = client.actions[-1][2]
        record = LeaderElectionRecord.from_json(written.metadata.annotations[LEADER_ELECTION_RECORD_ANNOTATION_KEY])
        assert record.holder_identity == "baz"
        assert record.lease_duration_seconds == 10
        assert record.renew_time == rt.now


def test_try_acquire_or_renew_get_error_fails_without_create() -> None:
    def boom(ns: str, name: str) -> Any:
        raise RuntimeError("connection refused")

    client = FakeClientset({"get": boom})
    lock = EndpointsLock(endpoints_meta=ObjectMeta(namespace="foo", name="bar"), client=client,
                         lock_config=ResourceLockConfig(identity="baz"))
    le = LeaderElector(config=_config(lock))
    assert Runtime().run_fn(le._try_acquire_or_renew) is False
    assert [a[0] for a in client.actions] == ["get"]


def test_renew_keeps_acquire_time_and_transitions() -> None:
    old = LeaderElectionRecord(holder_identity="baz", lease_duration_seconds=15, acquire_time=3.0,
                               renew_time=7.0, leader_transitions=4)
    client = FakeClientset({"get": _get_with(old.to_json()), "update": _echo})
    lock = EndpointsLock(endpoints_meta=ObjectMeta(namespace="foo", name="bar"), client=client,
                         lock_config=ResourceLockConfig(identity="baz"))
    le = LeaderElector(config=_config(lock))
    rt = Runtime(start_time=20.0)
    assert rt.run_fn(le._try_acquire_or_renew) is True
    assert le.observed_record == attrs.evolve(old, renew_time=20.0)


def _config(lock: Any, lease: float = 15.0, renew: float = 10.0, retry: float = 2.0,
            **callbacks: Any) -> LeaderElectionConfig:
    cbs = {"on_started_leading": lambda stop: None, "on_stopped_leading": lambda: None, **callbacks}
    return LeaderElectionConfig(lock=lock, lease_duration=lease, renew_deadline=renew, retry_period=retry,
                                callbacks=LeaderCallbacks(**cbs))


# -- NewLeaderElector validation -----------------------------------------------------------------
@pytest.mark.parametrize("lease, renew, retry, has_lock, message", [
    pytest.param(10.0, 10.0, 2.0, True, "leaseDuration must be greater than renewDeadline", id="lease equals renew"),
    pytest.param(5.0, 10.0, 2.0, True, "leaseDuration must be greater than renewDeadline", id="lease below renew"),
    pytest.param(15.0, 2.4, 2.0, True, "renewDeadline must be greater than retryPeriod*JitterFactor",
                 id="renew equals retry times jitter"),
    pytest.param(15.0, 10.0, 9.0, True, "renewDeadline must be greater than retryPeriod*JitterFactor",
                 id="renew below retry times jitter"),
    pytest.param(15.0, 10.0, 2.0, False, "Lock must not be nil.", id="no lock"),
    pytest.param(15.0, 10.0, 2.0, True, None, id="scheduler defaults"),
    pytest.param(15.0, 10.0, 0.0, True, None, id="zero retry period is accepted in 1.6"),
])
def test_new_leader_elector_validation(lease: float, renew: float, retry: float, has_lock: bool,
                                       message: str | None) -> None:
    lock = EndpointsLock(endpoints_meta=ObjectMeta(), client=None, lock_config=ResourceLockConfig(identity="a"))
    lec = _config(lock if has_lock else None, lease, renew, retry)
    if message is None:
        assert new_leader_elector(lec).config is lec
        return
    with pytest.raises(LeaderElectionConfigError) as info:
        new_leader_elector(lec)
    assert str(info.value) == message
    with pytest.raises(LeaderElectionConfigError):
        run_or_die(lec)


def test_jitter_factor() -> None:
    assert JITTER_FACTOR == 1.2


# -- whole elections on the runtime with the embedded API server ---------------------------------
@attrs.define(eq=False)
class Cluster:
    rt: Runtime
    server: APIServer
    electors: dict[str, LeaderElector] = attrs.field(factory=dict)
    procs: dict[str, sim.Process] = attrs.field(factory=dict)
    leading: dict[str, float] = attrs.field(factory=dict)  # identity -> time it started leading
    recorder: FakeRecorder = attrs.field(factory=FakeRecorder)
    violations: list[tuple[float, list[str]]] = attrs.field(factory=list)
    checks: int = 0

    def leaders(self) -> list[str]:
        return sorted(i for i in self.leading if self.procs[i].alive)

    def check(self) -> bool:
        """Called after every goroutine switch: at most one live process may be leading."""
        self.checks += 1
        current = self.leaders()
        if len(current) > 1:
            self.violations.append((self.rt.now, current))
        return False

    def record(self) -> LeaderElectionRecord:
        ep = self.server.get("endpoints", "kube-system", "kube-scheduler")
        return LeaderElectionRecord.from_json(ep.metadata.annotations[LEADER_ELECTION_RECORD_ANNOTATION_KEY])

    def run(self, until: float) -> None:
        self.rt.run(until=until, stop_when=self.check)


def _start_cluster(identities: list[str], seed: int = 7) -> Cluster:
    rt = Runtime(seed=seed)
    rt.tracer = Tracer(capture_stacks=False, log_verbosity=4)
    observe_leader_election(attach(rt))  # the trace points, as a simulated world attaches them
    server = APIServer(rt)
    clientset = new_for_server(server)
    cluster = Cluster(rt, server)
    for identity in identities:
        lock = EndpointsLock(
            endpoints_meta=ObjectMeta(namespace="kube-system", name="kube-scheduler"), client=clientset,
            lock_config=ResourceLockConfig(identity=identity, event_recorder=cluster.recorder),
        )

        def started(stop: Chan, identity: str = identity) -> None:
            cluster.leading[identity] = sim.now()
            stop.recv()  # the scheduler runs sched.Run() and then blocks forever

        def stopped() -> None:
            glog.fatalf("lost master")  # what kube-scheduler's OnStoppedLeading does

        le = observe_elector(new_leader_elector(_config(lock, on_started_leading=started,
                                                        on_stopped_leading=stopped)))
        proc = rt.new_process(f"kube-scheduler-{identity}")
        proc.go(le.run, name="leaderelection.Run")
        cluster.electors[identity] = le
        cluster.procs[identity] = proc
    return cluster


@pytest.mark.parametrize("seed", [1, 7, 42])
def test_one_leader_then_failover_after_lease(seed: int) -> None:
    c = _start_cluster(["a", "b"], seed=seed)
    c.run(until=60.0)
    assert c.violations == []
    assert c.checks > 20
    assert len(c.leaders()) == 1
    first = c.leaders()[0]
    other = "b" if first == "a" else "a"
    assert c.leading[first] == 0.0  # the first attempt of the first candidate creates the lock
    assert c.electors[other].get_leader() == first and not c.electors[other].is_leader()
    assert c.electors[first].is_leader()
    assert c.record().holder_identity == first
    assert c.record().leader_transitions == 0
    last_renew = c.electors[first].observed_time
    assert 58.0 - 2.0 <= last_renew <= 60.0  # the leader renews every RetryPeriod (2 s)

    c.rt.kill_process(c.procs[first], "killed by the test")
    c.run(until=120.0)
    assert c.violations == []
    assert c.leaders() == [other]
    took_over = c.leading[other]
    # Not before a whole lease after the last change it could have seen; at most one poll
    # period (2.2 x 2 s) late in noticing the change plus one more to retry after expiry.
    assert last_renew + 15.0 <= took_over <= last_renew + 15.0 + 2 * 2.0 * (1 + JITTER_FACTOR)
    rec = c.record()
    assert rec.holder_identity == other
    assert rec.leader_transitions == 1
    assert rec.lease_duration_seconds == 15
    messages = [m for _, m in c.recorder.events]
    assert messages == [f"Normal LeaderElection {first} became leader",
                        f"Normal LeaderElection {other} became leader"]
    assert all(isinstance(obj, Endpoints) and obj.metadata.name == "kube-scheduler" for obj, _ in c.recorder.events)
    logs = [e.message for e in c.rt.tracer.events if e.stage == "log"]
    assert "attempting to acquire leader lease..." in logs
    assert "successfully acquired lease kube-system/kube-scheduler" in logs
    assert f"lock is held by {first} and has not yet expired" in logs
    stages = {e.stage for e in c.rt.tracer.events}
    assert {"leaderelection.acquire", "leaderelection.renew"} <= stages


def test_renew_failure_stops_leading_and_the_process_dies() -> None:
    c = _start_cluster(["a", "b"], seed=3)
    c.run(until=30.0)
    leader = c.leaders()[0]
    other = "b" if leader == "a" else "a"
    last_ok = c.electors[leader].observed_time
    c.server.faults.fail_next("update", "endpoints", n=1000)
    c.rt.run(until=80.0, stop_when=lambda: not c.procs[leader].alive)
    assert not c.procs[leader].alive
    crash = c.rt.crashes[-1]
    assert crash.process == f"kube-scheduler-{leader}"
    assert str(crash.error) == "lost master"
    # Poll gives up RenewDeadline (10 s) after the last renewal's poll started.
    assert last_ok + 10.0 <= c.rt.now <= last_ok + 10.0 + 0.001
    assert c.recorder.events[-1][1] == f"Normal LeaderElection {leader} stopped leading"
    logs = [e.message for e in c.rt.tracer.events if e.stage == "log"]
    assert "failed to renew lease kube-system/kube-scheduler" in logs
    assert any(m.startswith("Failed to update lock: Internal error occurred: injected fault") for m in logs)
    assert [e.stage for e in c.rt.tracer.events if e.stage.startswith("leaderelection.lost")] == ["leaderelection.lost"]

    c.server.faults.clear()
    c.run(until=120.0)
    assert c.leaders() == [other]
    assert c.record().leader_transitions == 1
    assert c.violations == []


def test_conflicting_candidates_only_one_wins_creation() -> None:
    """Three candidates start together; slow creates race and two get AlreadyExists."""
    c = _start_cluster(["a", "b", "c"], seed=11)
    c.server.faults.delay_next("create", 0.5, "endpoints", n=3)
    c.run(until=45.0)
    assert c.violations == []
    assert len(c.leaders()) == 1
    logs = [e.message for e in c.rt.tracer.events if e.stage == "log"]
    failed = [m for m in logs if m.startswith("error initially creating leader election record:")]
    assert len(failed) == 2
    assert all(m.endswith('endpoints "kube-scheduler" already exists') for m in failed)
    assert c.record().leader_transitions == 0
    assert [m for _, m in c.recorder.events] == [f"Normal LeaderElection {c.leaders()[0]} became leader"]


def test_on_new_leader_reports_each_change_once() -> None:
    rt = Runtime(seed=5)
    server = APIServer(rt)
    seen: list[str] = []
    lock = EndpointsLock(endpoints_meta=ObjectMeta(namespace="kube-system", name="kube-scheduler"),
                         client=new_for_server(server),
                         lock_config=ResourceLockConfig(identity="watcher", event_recorder=FakeRecorder()))
    le = LeaderElector(config=_config(lock, on_new_leader=seen.append))
    server.create("endpoints", "kube-system", Endpoints(metadata=ObjectMeta(
        name="kube-scheduler", namespace="kube-system",
        annotations={LEADER_ELECTION_RECORD_ANNOTATION_KEY: LeaderElectionRecord(
            holder_identity="other", lease_duration_seconds=15, acquire_time=0.0, renew_time=0.0).to_json()})))

    def body() -> None:
        for _ in range(3):
            assert le._try_acquire_or_renew() is False
            le._maybe_report_transition()
            sim.sleep(1.0)

    rt.run_fn(body)
    assert seen == ["other"]


def test_event_recorder_from_record_package_gets_the_endpoints_event() -> None:
    rt = Runtime(seed=1)
    server = APIServer(rt)
    broadcaster = new_broadcaster(rt)
    got: list[Any] = []
    broadcaster.start_event_watcher(got.append)
    recorder = broadcaster.new_recorder(EventSource(component="default-scheduler"))
    lock = EndpointsLock(endpoints_meta=ObjectMeta(namespace="kube-system", name="kube-scheduler"),
                         client=new_for_server(server),
                         lock_config=ResourceLockConfig(identity="host-1", event_recorder=recorder))
    le = LeaderElector(config=_config(lock))

    def body() -> None:
        assert le._try_acquire_or_renew() is True
        lock.record_event("became leader")
        sim.sleep(0.1)

    rt.run_fn(body)
    assert [(e.reason, e.message, e.type) for e in got] == [("LeaderElection", "host-1 became leader", "Normal")]
    ref = got[0].involved_object
    assert (ref.kind, ref.namespace, ref.name) == ("Endpoints", "kube-system", "kube-scheduler")
    assert ref.uid != ""  # Go passes the stored object's meta (el.e), uid included
