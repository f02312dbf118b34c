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
from kschedlearn.observe.views import cache_state
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


# --- tests on the real cache and the real generic scheduler -----------------------------------


def _setup_test_scheduler(queue: FIFO, scache: Any, node_lister: FakeNodeLister,
                          predicate_map: dict[str, Any], recorder: Any = None,
                          ) -> tuple[Scheduler, sim.Chan, sim.Chan]:
    """Go: setupTestScheduler — binder and error func feed channels (capacity 1)."""
    algo = new_generic_scheduler(scache, predicate_map, empty_metadata_producer, [],
                                 empty_metadata_producer, [])
    binding_chan, err_chan = sim.Chan(1), sim.Chan(1)
    if recorder is None:
        recorder, _ = _recorder(sim.current_runtime())
    config = Config(
        scheduler_cache=scache, node_lister=node_lister, algorithm=algo,
        binder=FakeBinder(binding_chan.send), pod_condition_updater=FakePodConditionUpdater(),
        next_pod=lambda: pop(queue), error=lambda p, err: err_chan.send(err),
        stop_everything=sim.Chan(), recorder=recorder,
    )
    return new_from_configurator(FakeConfigurator(config)), binding_chan, err_chan


def _recv_or_timeout(ch: sim.Chan, what: str) -> Any:
    index, value, _ = sim.select(("recv", ch), ("recv", sim.after(FOREVER_TEST_TIMEOUT)))
    assert index == 0, f"timeout in {what} after {FOREVER_TEST_TIMEOUT}s"
    return value


def _setup_test_scheduler_with_one_pod_on_node(
    queue: FIFO, scache: Any, node_lister: FakeNodeLister, predicate_map: dict[str, Any],
    pod: Pod, node: Node,
) -> tuple[Scheduler, sim.Chan, sim.Chan]:
    """Go: setupTestSchedulerWithOnePodOnNode — schedule ``pod`` and check its binding."""
    scheduler, binding_chan, err_chan = _setup_test_scheduler(queue, scache, node_lister, predicate_map)
    queue.add(pod)
    scheduler.schedule_one()
    assert _recv_or_timeout(binding_chan, "binding") == _binding(pod.metadata.name, node.metadata.name)
    return scheduler, binding_chan, err_chan


def test_scheduler_no_phantom_pod_after_expire() -> None:
    """Go: TestSchedulerNoPhantomPodAfterExpire — an expired assumed pod frees its host port."""
    rt = sim.Runtime(seed=0)

    def body() -> float:
        stop = sim.Chan()
        try:
            queue = new_fifo(meta_namespace_key_func)
            scache = schedulercache.new(0.1, stop)
            pod = pod_with_port("pod.Name", "", 8080)
            node = Node(metadata=ObjectMeta(name="machine1"))
            scache.add_node(node)
            scheduler, binding_chan, _ = _setup_test_scheduler_with_one_pod_on_node(
                queue, scache, FakeNodeLister([node]), {"PodFitsHostPorts": pod_fits_host_ports},
                pod, node)

            deadline = sim.now() + FOREVER_TEST_TIMEOUT
            while scache.list(labels.everything()):  # wait for the assumed pod to expire
                assert sim.now() < deadline, "timeout in waiting pod expire"
                sim.sleep(0.1)
            expired_at = sim.now()

            # the conflicting port would fail the predicate if the first pod were still there
            queue.add(pod_with_port("bar", "", 8080))
            scheduler.schedule_one()
            assert _recv_or_timeout(binding_chan, "binding") == _binding("bar", "machine1")
            return expired_at
        finally:
            stop.close()

    expired_at = rt.run_fn(body)
    # FinishBinding at t=0 → deadline 0.1; the 1 s sweep removes it on its first run after that
    assert expired_at == pytest.approx(1.0, abs=0.15)
    assert not rt.crashes


def test_scheduler_no_phantom_pod_after_delete() -> None:
    """Go: TestSchedulerNoPhantomPodAfterDelete — Add+Remove of the first pod frees the port."""
    rt = sim.Runtime(seed=0)

    def body() -> None:
        stop = sim.Chan()
        try:
            queue = new_fifo(meta_namespace_key_func)
            scache = schedulercache.new(600.0, stop)
            first_pod = pod_with_port("pod.Name", "", 8080)
            node = Node(metadata=ObjectMeta(name="machine1"))
            scache.add_node(node)
            scheduler, binding_chan, err_chan = _setup_test_scheduler_with_one_pod_on_node(
                queue, scache, FakeNodeLister([node]), {"PodFitsHostPorts": pod_fits_host_ports},
                first_pod, node)

            second_pod = pod_with_port("bar", "", 8080)
            queue.add(second_pod)
            scheduler.schedule_one()
            err = _recv_or_timeout(err_chan, "fitting")
            assert isinstance(err, FitError)
            assert err.pod == second_pod
            assert err.failed_predicates == {"machine1": [ERR_POD_NOT_FITS_HOST_PORTS]}

            # what the informer does when the user deletes the first pod
            first_pod = attrs.evolve(first_pod, spec=attrs.evolve(first_pod.spec, node_name="machine1"))
            scache.add_pod(first_pod)
            scache.remove_pod(first_pod)

            queue.add(second_pod)
            scheduler.schedule_one()
            assert _recv_or_timeout(binding_chan, "binding") == _binding("bar", "machine1")
        finally:
            stop.close()

    rt.run_fn(body)
    assert not rt.crashes


@pytest.mark.parametrize("cache_ttl,binding_duration", [
    pytest.param(0.1, 0.3, id="ttl shorter than binding"),
    pytest.param(10.0, 0.3, id="ttl longer than binding"),
])
def test_scheduler_error_with_long_binding(cache_ttl: float, binding_duration: float) -> None:
    """Go: TestSchedulerErrorWithLongBinding — a pod whose binding outlasts the TTL still blocks
    its port (FinishBinding starts the TTL only after the bind call returns).

    Differs from Go: the error func re-queues the pod after 10 ms of virtual time instead of at
    once; with period-0 ``wait.Until`` an immediate re-add would retry forever at one instant of
    virtual time (Go's version spins the CPU for its 5 s of real time).
    """
    rt = sim.Runtime(seed=0)
    first_pod = pod_with_port("foo", "", 8080)
    conflict_pod = pod_with_port("bar", "", 8080)
    pods = {"foo": first_pod, "bar": conflict_pod}
    retries: list[str] = []

    def body() -> dict[str, bool]:
        stop = sim.Chan()
        try:
            queue = new_fifo(meta_namespace_key_func)
            scache = schedulercache.new(cache_ttl, stop)
            node = Node(metadata=ObjectMeta(name="machine1"))
            scache.add_node(node)
            algo = new_generic_scheduler(scache, {"PodFitsHostPorts": pod_fits_host_ports},
                                         empty_metadata_producer, [], empty_metadata_producer, [])
            binding_chan = sim.Chan(2)

            def bind(b: Binding) -> None:
                sim.sleep(binding_duration)
                binding_chan.send(b)

            def requeue(p: Pod, err: BaseException) -> None:
                retries.append(p.metadata.name)

                def later() -> None:
                    sim.sleep(0.01)
                    queue.add_if_not_present(p)
                sim.go(later, name="requeue")

            recorder, _ = _recorder(sim.current_runtime())
            config = Config(
                scheduler_cache=scache, node_lister=FakeNodeLister([node]), algorithm=algo,
                binder=FakeBinder(bind), pod_condition_updater=FakePodConditionUpdater(),
                next_pod=lambda: pop(queue), error=requeue, stop_everything=stop, recorder=recorder,
            )
            scheduler = new_from_configurator(FakeConfigurator(config))
            scheduler.run()
            queue.add(first_pod)
            queue.add(conflict_pod)

            result: dict[str, bool] = {}
            wait_chan = sim.after(5.0)
            while True:
                index, b, _ = sim.select(("recv", binding_chan), ("recv", wait_chan))
                if index == 1:
                    return result
                result[b.metadata.name] = True
                p = pods[b.metadata.name]
                scache.add_pod(attrs.evolve(p, spec=attrs.evolve(p.spec, node_name=b.target.name)))
        finally:
            stop.close()

    assert rt.run_fn(body) == {"foo": True}
    assert set(retries) == {"bar"} and len(retries) > 100  # retried all along, never fitted
    assert not rt.crashes


def test_scheduler_failed_scheduling_reasons() -> None:
    """Go: TestSchedulerFailedSchedulingReasons — 100 too-small nodes give a short summary."""
    rt = sim.Runtime(seed=0)
    cpu, mem = 4, 500
    too_big = {"cpu": new_quantity(cpu, DECIMAL_SI), "memory": new_quantity(mem, DECIMAL_SI)}
    pod = pod_with_resources("bar", "", too_big, dict(too_big))
    small = {"cpu": new_quantity(cpu // 2, DECIMAL_SI), "memory": new_quantity(mem // 5, DECIMAL_SI),
             "pods": new_quantity(10, DECIMAL_SI)}
    nodes = [Node(metadata=ObjectMeta(name=f"machine{i}"),
                  status=NodeStatus(capacity=small, allocatable=dict(small))) for i in range(100)]

    def body() -> BaseException:
        stop = sim.Chan()
        try:
            queue = new_fifo(meta_namespace_key_func)
            scache = schedulercache.new(600.0, stop)
            for node in nodes:
                scache.add_node(node)
            scheduler, _, err_chan = _setup_test_scheduler(
                queue, scache, FakeNodeLister(nodes), {"PodFitsResources": pod_fits_resources})
            queue.add(pod)
            scheduler.schedule_one()
            return _recv_or_timeout(err_chan, "fitting")
        finally:
            stop.close()

    err = rt.run_fn(body)
    expected = FitError(pod, {
        node.metadata.name: [new_insufficient_resource_error("cpu", 4000, 0, 2000),
                             new_insufficient_resource_error("memory", 500, 0, 100)]
        for node in nodes
    })
    assert len(str(expected)) <= 150, "message is too spammy"
    assert isinstance(err, FitError)
    assert err.pod == expected.pod and err.failed_predicates == expected.failed_predicates
    assert str(err) == ("No nodes are available that match all of the following predicates:: "
                        "Insufficient cpu (100), Insufficient memory (100).")


def test_scheduler_fit_error_event_and_condition_carry_the_message() -> None:
    """An unschedulable pod: Warning FailedScheduling with the FitError text; PodScheduled=False."""
    rt = sim.Runtime(seed=0)
    recorder, events = _recorder(rt)
    updater = FakePodConditionUpdater()

    def body() -> None:
        stop = sim.Chan()
        try:
            queue = new_fifo(meta_namespace_key_func)
            scache = schedulercache.new(600.0, stop)
            node = Node(metadata=ObjectMeta(name="machine1"))
            scache.add_node(node)
            scache.add_pod(pod_with_port("old", "machine1", 80))
            algo = new_generic_scheduler(scache, {"PodFitsHostPorts": pod_fits_host_ports},
                                         empty_metadata_producer, [], empty_metadata_producer, [])
            config = Config(
                scheduler_cache=scache, node_lister=FakeNodeLister([node]), algorithm=algo,
                binder=FakeBinder(lambda b: None), pod_condition_updater=updater,
                next_pod=lambda: pop(queue), error=lambda p, e: None, stop_everything=stop,
                recorder=recorder,
            )
            queue.add(pod_with_port("new", "", 80))
            Scheduler(config=config).schedule_one()
        finally:
            stop.close()

    rt.run_fn(body)
    rt.run()
    msg = "No nodes are available that match all of the following predicates:: PodFitsHostPorts (1)."
    assert [(e.type, e.reason, e.message) for e in events] == [("Warning", "FailedScheduling", msg)]
    assert updater.updates == [("new", PodCondition(type="PodScheduled", status="False",
                                                    reason="Unschedulable", message=msg))]


def test_scheduler_bind_failure_forgets_the_assumed_pod_in_the_real_cache() -> None:
    """assume → bind fails → finish_binding → forget: the pod leaves the cache at once."""
    rt = sim.Runtime(seed=0)
    recorder, events = _recorder(rt)
    seen: list[int] = []

    def body() -> Any:
        stop = sim.Chan()
        queue = new_fifo(meta_namespace_key_func)
        scache = schedulercache.new(30.0, stop)
        node = Node(metadata=ObjectMeta(name="machine1"))
        scache.add_node(node)
        algo = new_generic_scheduler(scache, {}, empty_metadata_producer, [], empty_metadata_producer, [])

        def bind(b: Binding) -> None:
            seen.append(len(scache.list(labels.everything())))  # assumed while binding
            raise RuntimeError("conflict")

        config = Config(
            scheduler_cache=scache, node_lister=FakeNodeLister([node]), algorithm=algo,
            binder=FakeBinder(bind), pod_condition_updater=FakePodConditionUpdater(),
            next_pod=lambda: pop(queue), error=lambda p, e: None, stop_everything=stop,
            recorder=recorder,
        )
        queue.add(pod_with_id("foo", ""))
        Scheduler(config=config).schedule_one()
        return scache, stop

    scache, stop = rt.run_fn(body)
    rt.run(until=rt.now + 0.5)
    assert seen == [1]
    assert scache.list(labels.everything()) == []
    assert cache_state(scache).pod_states == ()
    assert [(e.type, e.reason, e.message) for e in events] == [
        ("Normal", "FailedScheduling", "Binding rejected: conflict")]
    stop.close()


def test_scheduler_assume_failure_logs_and_does_not_bind(caplog: pytest.LogCaptureFixture) -> None:
    """AssumePod error: logged, no binding, no requeue (the pod is dropped for now)."""
    rt = sim.Runtime(seed=0)
    recorder, events = _recorder(rt)
    bound: list[Binding] = []
    errors: list[BaseException] = []

    def body() -> None:
        scache = schedulercache._new_scheduler_cache(30.0, 1.0, None)
        node = Node(metadata=ObjectMeta(name="machine1"))
        scache.add_node(node)
        scache.assume_pod(pod_with_id("foo", "machine1"))  # already assumed once
        algo = new_generic_scheduler(scache, {}, empty_metadata_producer, [], empty_metadata_producer, [])
        config = Config(
            scheduler_cache=scache, node_lister=FakeNodeLister([node]), algorithm=algo,
            binder=FakeBinder(bound.append), pod_condition_updater=FakePodConditionUpdater(),
            next_pod=lambda: pod_with_id("foo", ""), error=lambda p, e: errors.append(e),
            stop_everything=sim.Chan(), recorder=recorder,
        )
        Scheduler(config=config).schedule_one()

    with caplog.at_level(logging.ERROR, logger="kschedlearn.glog"):
        rt.run_fn(body)
        rt.run()
    assert bound == [] and errors == [] and events == []
    assert "scheduler cache AssumePod failed: pod foo state wasn't initial but get assumed" in caplog.text
