"""Port of plugin/pkg/scheduler/scheduler_test.go (v1.6.1), run on the simulated runtime.

Go: https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/scheduler_test.go

Go's channels and ``time.After(wait.ForeverTestTimeout)`` become ``sim.Chan`` and ``sim.after``
in virtual time, so the tests that wait for expiry or long bindings take milliseconds. Events go
through a real ``record.EventBroadcaster`` whose watcher appends to a list, so each event's
type, reason and exact message are checked (Go's TestScheduler checks the reason only).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import attrs
import pytest

from kschedlearn import sim
from kschedlearn.api.resource import DECIMAL_SI, new_quantity
from kschedlearn.api.v1 import (
    Binding,
    Event,
    EventSource,
    Node,
    ObjectMeta,
    ObjectReference,
    Pod,
    PodCondition,
)
from kschedlearn.api.v1.node import NodeStatus
from kschedlearn.api.v1.pod import Container, ContainerPort, PodSpec, ResourceRequirements
from kschedlearn.apimachinery import labels
from kschedlearn.client_go.tools.cache.fifo import FIFO, new_fifo, pop
from kschedlearn.client_go.tools.cache.store import meta_namespace_key_func
from kschedlearn.client_go.tools.record.event import new_broadcaster
from kschedlearn.scheduler.algorithm.predicates.error import (
    ERR_POD_NOT_FITS_HOST_PORTS,
    new_insufficient_resource_error,
)
from kschedlearn.scheduler.algorithm.predicates.predicates import (
    pod_fits_host_ports,
    pod_fits_resources,
)
from kschedlearn.scheduler.algorithm.types import empty_metadata_producer
from kschedlearn.scheduler.core.generic_scheduler import FitError, new_generic_scheduler
from kschedlearn.scheduler.scheduler import Config, Scheduler, new_from_configurator
from kschedlearn.scheduler.schedulercache import cache as schedulercache
from kschedlearn.scheduler.testing import FakeNodeLister

FOREVER_TEST_TIMEOUT = 30.0  # Go: wait.ForeverTestTimeout


# --- Go's fakes -------------------------------------------------------------------------------


@attrs.define(eq=False)
class FakeBinder:
    """Go: fakeBinder{b func(*v1.Binding) error} — raise to fail the bind."""

    b: Callable[[Binding], None]

    def bind(self, binding: Binding) -> None:
        self.b(binding)


@attrs.define(eq=False)
class FakePodConditionUpdater:
    """Go: fakePodConditionUpdater (returns nil); kschedlearn also records the updates."""

    updates: list[tuple[str, PodCondition]] = attrs.field(factory=list)

    def update(self, pod: Pod, condition: PodCondition) -> None:
        self.updates.append((pod.metadata.name, condition))


@attrs.define(eq=False)
class MockScheduler:
    """Go: mockScheduler{machine, err}."""

    machine: str
    err: Exception | None = None
    calls: int = 0

    def schedule(self, pod: Pod, node_lister: Any) -> str:
        self.calls += 1
        if self.err is not None:
            raise self.err
        return self.machine


@attrs.define(eq=False)
class FakeCache:
    """Go: schedulertesting.FakeCache (AssumeFunc/ForgetFunc); also records the call order."""

    calls: list[tuple[str, Pod]] = attrs.field(factory=list)

    def assume_pod(self, pod: Pod) -> None:
        self.calls.append(("assume", pod))

    def finish_binding(self, pod: Pod) -> None:
        self.calls.append(("finish_binding", pod))

    def forget_pod(self, pod: Pod) -> None:
        self.calls.append(("forget", pod))

    def got(self, what: str) -> Pod | None:
        pods = [p for name, p in self.calls if name == what]
        return pods[-1] if pods else None


@attrs.define(eq=False)
class FakeConfigurator:
    """Go: FakeConfigurator — ``create()`` hands back a prepared Config."""

    config: Config

    def create(self) -> Config:
        return self.config


def pod_with_id(pod_id: str, desired_host: str) -> Pod:
    return Pod(metadata=ObjectMeta(name=pod_id), spec=PodSpec(node_name=desired_host))


def deleting_pod(pod_id: str) -> Pod:
    return Pod(metadata=ObjectMeta(name=pod_id, deletion_timestamp=1.0), spec=PodSpec(node_name=""))


def pod_with_port(pod_id: str, desired_host: str, port: int) -> Pod:
    pod = pod_with_id(pod_id, desired_host)
    return attrs.evolve(pod, spec=attrs.evolve(pod.spec, containers=(
        Container(name="ctr", ports=(ContainerPort(host_port=port),)),)))


def pod_with_resources(pod_id: str, desired_host: str, limits: dict[str, Any],
                       requests: dict[str, Any]) -> Pod:
    pod = pod_with_id(pod_id, desired_host)
    return attrs.evolve(pod, spec=attrs.evolve(pod.spec, containers=(
        Container(name="ctr", resources=ResourceRequirements(limits=limits, requests=requests)),)))


def _binding(name: str, node: str) -> Binding:
    return Binding(metadata=ObjectMeta(name=name), target=ObjectReference(kind="Node", name=node))


def _recorder(rt: sim.Runtime) -> tuple[Any, list[Event]]:
    broadcaster = new_broadcaster(rt)
    events: list[Event] = []
    broadcaster.start_event_watcher(events.append)
    return broadcaster.new_recorder(EventSource(component="scheduler")), events


# --- TestScheduler ----------------------------------------------------------------------------

ERR_S = RuntimeError("scheduler")
ERR_B = RuntimeError("binder")
TEST_NODE = Node(metadata=ObjectMeta(name="machine1"))

SCHEDULER_CASES = [
    pytest.param(pod_with_id("foo", ""), MockScheduler("machine1"), None,
                 dict(bind=_binding("foo", "machine1"), assumed=pod_with_id("foo", "machine1"),
                      error=None, error_pod=None, forget=None,
                      event=("Normal", "Scheduled", "Successfully assigned foo to machine1"),
                      condition=None, cache_calls=["assume", "finish_binding"]),
                 id="bind"),
    pytest.param(pod_with_id("foo", ""), MockScheduler("machine1", ERR_S), None,
                 dict(bind=None, assumed=None, error=ERR_S, error_pod=pod_with_id("foo", ""), forget=None,
                      event=("Warning", "FailedScheduling", "scheduler"),
                      condition=PodCondition(type="PodScheduled", status="False", reason="Unschedulable",
                                             message="scheduler"),
                      cache_calls=[]),
                 id="error"),
    pytest.param(pod_with_id("foo", ""), MockScheduler("machine1"), ERR_B,
                 dict(bind=_binding("foo", "machine1"), assumed=pod_with_id("foo", "machine1"),
                      error=ERR_B, error_pod=pod_with_id("foo", ""), forget=pod_with_id("foo", "machine1"),
                      event=("Normal", "FailedScheduling", "Binding rejected: binder"),
                      condition=PodCondition(type="PodScheduled", status="False", reason="BindingRejected"),
                      cache_calls=["assume", "finish_binding", "forget"]),
                 id="bind error"),
    pytest.param(deleting_pod("foo"), MockScheduler(""), None,
                 dict(bind=None, assumed=None, error=None, error_pod=None, forget=None,
                      event=("Warning", "FailedScheduling", "skip schedule deleting pod: /foo"),
                      condition=None, cache_calls=[]),
                 id="deleting pod"),
]


@pytest.mark.parametrize("send_pod,algo,inject_bind_error,want", SCHEDULER_CASES)
def test_scheduler(send_pod: Pod, algo: MockScheduler, inject_bind_error: Exception | None,
                   want: dict[str, Any]) -> None:
    """Go: TestScheduler — one scheduleOne per case; events, cache calls, error func, binding."""
    algo = attrs.evolve(algo)  # fresh call counter per run
    rt = sim.Runtime(seed=0)
    recorder, events = _recorder(rt)
    fake_cache = FakeCache()
    got: dict[str, Any] = {"binding": None, "pod": None, "error": None}
    updater = FakePodConditionUpdater()

    def bind(b: Binding) -> None:
        got["binding"] = b
        if inject_bind_error is not None:
            raise inject_bind_error

    def on_error(p: Pod, err: BaseException) -> None:
        got["pod"], got["error"] = p, err

    config = Config(
        scheduler_cache=fake_cache, node_lister=FakeNodeLister([TEST_NODE]), algorithm=algo,
        binder=FakeBinder(bind), pod_condition_updater=updater, next_pod=lambda: send_pod,
        error=on_error, stop_everything=sim.Chan(), recorder=recorder,
    )
    s = new_from_configurator(FakeConfigurator(config))
    rt.run_fn(s.schedule_one)
    rt.run()  # the binding goroutine and the event broadcaster

    assert fake_cache.got("assume") == want["assumed"]
    assert got["pod"] == want["error_pod"]
    assert fake_cache.got("forget") == want["forget"]
    assert got["error"] is want["error"]
    assert got["binding"] == want["bind"]
    assert [(e.type, e.reason, e.message) for e in events] == [want["event"]]
    assert events[0].involved_object.name == "foo" and events[0].source.component == "scheduler"
    assert [name for name, _ in fake_cache.calls] == want["cache_calls"]
    assert updater.updates == ([] if want["condition"] is None else [("foo", want["condition"])])
    assert algo.calls == (0 if send_pod.metadata.deletion_timestamp is not None else 1)
    assert not rt.crashes


def test_scheduler_bind_runs_after_schedule_one_returns() -> None:
    """scheduleOne returns right after starting the binding goroutine (assume first, bind later)."""
    rt = sim.Runtime(seed=0)
    recorder, _ = _recorder(rt)
    fake_cache = FakeCache()
    bound: list[Binding] = []
    config = Config(
        scheduler_cache=fake_cache, node_lister=FakeNodeLister([TEST_NODE]),
        algorithm=MockScheduler("machine1"), binder=FakeBinder(bound.append),
        pod_condition_updater=FakePodConditionUpdater(), next_pod=lambda: pod_with_id("foo", ""),
        error=lambda p, e: None, stop_everything=sim.Chan(), recorder=recorder,
    )
    s = Scheduler(config=config)
    rt.run_fn(s.schedule_one)
    assert [n for n, _ in fake_cache.calls] == ["assume"] and bound == []
    rt.run()
    assert [n for n, _ in fake_cache.calls] == ["assume", "finish_binding"] and len(bound) == 1


def test_scheduler_condition_update_error_is_ignored() -> None:
    """Go drops PodConditionUpdater.Update's error; it must not crash scheduleOne."""
    rt = sim.Runtime(seed=0)
    recorder, events = _recorder(rt)

    class FailingUpdater:
        def update(self, pod: Pod, condition: PodCondition) -> None:
            raise RuntimeError("apiserver down")

    config = Config(
        scheduler_cache=FakeCache(), node_lister=FakeNodeLister([TEST_NODE]),
        algorithm=MockScheduler("machine1", ERR_S), binder=FakeBinder(lambda b: None),
        pod_condition_updater=FailingUpdater(), next_pod=lambda: pod_with_id("foo", ""),
        error=lambda p, e: None, stop_everything=sim.Chan(), recorder=recorder,
    )
    rt.run_fn(Scheduler(config=config).schedule_one)
    rt.run()
    assert not rt.crashes and [e.reason for e in events] == ["FailedScheduling"]
