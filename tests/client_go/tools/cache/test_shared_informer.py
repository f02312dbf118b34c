"""Port of client-go tools/cache/shared_informer_test.go and processor_listener_test.go
(v1.6.1) plus §9.7 facts (replay on late add, per-handler order, has_synced).

Go: https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/shared_informer_test.go
and https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/processor_listener_test.go
(the same files as vendor/k8s.io/client-go/tools/cache/ at cluster-capacity commit
f271bd0a9394ad63384802cf75294f6ecab36ac2).

The Go tests are the ``test_<Go name>`` functions. As in Go, the informer's clock is a fake
clock stepped by hand while the listeners' polls and sleeps pass on the runtime's own clock
(virtual here, so the 1 s sleeps cost nothing). Go's ``fmt.Printf`` progress lines are left out.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from kschedlearn.observe.views import informer_state
from kschedlearn import sim
from kschedlearn.api.v1 import ObjectMeta, Pod
from kschedlearn.apimachinery.util import wait
from kschedlearn.client_go.tools.cache.shared_informer import (
    determine_resync_period,
    new_process_listener,
    new_shared_informer,
    wait_for_cache_sync,
)
from kschedlearn.client_go.tools.cache.testing import new_fake_controller_source
from kschedlearn.client_go.util.clock import FakeClock


def mk_pod(name: str) -> Pod:
    return Pod(metadata=ObjectMeta(name=name))


@attrs.define(eq=False)
class TestListener:
    """Go: shared_informer_test.go ``testListener``."""

    __test__ = False
    name: str
    resync_period: float
    expected_item_names: set[str] = attrs.field(factory=set)
    received_item_names: list[str] = attrs.field(factory=list)

    def on_add(self, obj: Any) -> None:
        self._handle(obj)

    def on_update(self, old: Any, new: Any) -> None:
        self._handle(new)

    def on_delete(self, obj: Any) -> None:
        pass

    def _handle(self, obj: Any) -> None:
        self.received_item_names.append(obj.metadata.name)

    def ok(self) -> bool:
        """Poll (every 100 ms, for 2 s) until the expectations hold, wait 1 s for stragglers,
        then check again."""
        try:
            wait.poll_immediate(0.1, 2.0, self.satisfied_expectations)
        except wait.ErrWaitTimeout:
            return False
        sim.sleep(1.0)
        return self.satisfied_expectations()

    def satisfied_expectations(self) -> bool:
        return (len(self.received_item_names) == len(self.expected_item_names)
                and set(self.received_item_names) == self.expected_item_names)


def new_test_listener(name: str, resync_period: float, *expected: str) -> TestListener:
    return TestListener(name, resync_period, set(expected))


def test_ListenerResyncPeriods() -> None:
    rt = sim.Runtime(seed=1)
    source = new_fake_controller_source()
    source.add(mk_pod("pod1"))
    source.add(mk_pod("pod2"))
    # the shared informer resyncs every second
    informer = new_shared_informer(source, Pod, 1.0)
    clock = FakeClock(time=100.0)
    informer.clock = clock
    informer.processor.clock = clock

    listener1 = new_test_listener("listener1", 0, "pod1", "pod2")  # never resyncs
    informer.add_event_handler_with_resync_period(listener1, listener1.resync_period)
    listener2 = new_test_listener("listener2", 2.0, "pod1", "pod2")
    informer.add_event_handler_with_resync_period(listener2, listener2.resync_period)
    listener3 = new_test_listener("listener3", 3.0, "pod1", "pod2")
    informer.add_event_handler_with_resync_period(listener3, listener3.resync_period)
    listeners = [listener1, listener2, listener3]
    errors: list[str] = []

    def check_ok(listener: TestListener) -> None:
        if not listener.ok():
            errors.append(f"{listener.name}: expected {sorted(listener.expected_item_names)}, "
                          f"got {listener.received_item_names}")

    def check_nothing(*quiet: TestListener) -> None:
        for listener in quiet:
            if listener.received_item_names:
                errors.append(f"{listener.name}: should not have resynced "
                              f"(got {len(listener.received_item_names)})")

    def body() -> None:
        stop = sim.Chan(name="stop")
        try:
            sim.go(informer.run, stop)
            for listener in listeners:  # every listener got the initial list
                check_ok(listener)
            for listener in listeners:
                listener.received_item_names = []
            clock.step(2.0)  # listener2 is due
            check_ok(listener2)
            sim.sleep(1.0)  # a chance for errant items to reach 1 and 3
            check_nothing(listener1, listener3)
            for listener in listeners:
                listener.received_item_names = []
            clock.step(1.0)  # listener3 is due
            check_ok(listener3)
            sim.sleep(1.0)
            check_nothing(listener1, listener2)
        finally:
            stop.close()

    rt.run_fn(body)
    assert rt.crashes == []
    assert errors == []


def test_ResyncCheckPeriod() -> None:
    source = new_fake_controller_source()
    # the shared informer resyncs every 12 hours
    informer = new_shared_informer(source, Pod, 12 * 3600.0)
    clock = FakeClock(time=100.0)
    informer.clock = clock
    informer.processor.clock = clock
    steps = [
        # (listener's resync period, then: resyncCheckPeriod, every listener's resyncPeriod)
        ("listener1", 0.0, 12 * 3600.0, [0.0]),
        ("listener2", 60.0, 60.0, [0.0, 60.0]),
        ("listener3", 55.0, 55.0, [0.0, 60.0, 55.0]),
        ("listener4", 5.0, 5.0, [0.0, 60.0, 55.0, 5.0]),
    ]
    for name, period, check, periods in steps:
        listener = new_test_listener(name, period)
        informer.add_event_handler_with_resync_period(listener, listener.resync_period)
        assert informer.resync_check_period == check, name
        assert [lis.resync_period for lis in informer.processor.listeners] == periods, name


def test_PopReleaseLock() -> None:
    """processor_listener_test.go: a pop blocked on ``nextCh`` must not hold the lock of the
    pending notifications."""
    rt = sim.Runtime(seed=1)
    pl = new_process_listener(None, 0, 0, 100.0)  # type: ignore[arg-type]

    def body() -> int:
        stop_ch = sim.Chan(name="stopCh")
        try:
            pl.add(1)  # pop will block on nextCh: nobody receives
            sim.go(pl.pop, stop_ch)
            result_ch = sim.Chan(name="resultCh")

            def take_lock() -> None:
                pl.lock.lock()
                result_ch.close()

            sim.go(take_lock)
            index, _, _ = sim.select(("recv", result_ch),
                                     ("recv", sim.after(wait.FOREVER_TEST_TIMEOUT)))
            pl.lock.unlock()
            return index
        finally:
            stop_ch.close()

    assert rt.run_fn(body) == 0, "timeout: pop kept the lock while blocked on nextCh"
    assert rt.crashes == []


@pytest.mark.parametrize(
    ("desired", "check", "expected"),
    [(0, 5, 0), (3, 0, 0), (3, 5, 5), (7, 5, 7)],
    ids=["zero-desired", "no-resync-support", "raised-to-check", "kept"],
)
def test_determine_resync_period(desired: float, check: float, expected: float) -> None:
    assert determine_resync_period(desired, check) == expected


def test_small_period_raised_to_one_second_and_after_start_to_check_period() -> None:
    rt = sim.Runtime(seed=1)
    source = new_fake_controller_source()
    informer = new_shared_informer(source, Pod, 10.0)
    stop = sim.Chan()

    def body() -> None:
        informer.add_event_handler_with_resync_period(TestListener("a", 0.2), 0.2)
        assert informer.resync_check_period == 1.0
        sim.go(informer.run, stop)
        sim.sleep(0.1)
        informer.add_event_handler_with_resync_period(TestListener("b", 0.5), 0.5)
        stop.close()

    rt.run_fn(body)
    assert [lis.resync_period for lis in informer.processor.listeners] == [1.0, 1.0]
    assert [lis.requested_resync_period for lis in informer.processor.listeners] == [1.0, 1.0]


def test_late_handler_gets_replay_then_live_events_in_order() -> None:
    rt = sim.Runtime(seed=5)
    source = new_fake_controller_source()
    source.add(mk_pod("a"))
    source.add(mk_pod("b"))
    informer = new_shared_informer(source, Pod, 0)
    early = TestListener("early", 0)
    late = TestListener("late", 0)
    stop = sim.Chan()

    def body() -> None:
        informer.add_event_handler(early)
        assert not informer.has_synced()
        sim.go(informer.run, stop)
        assert wait_for_cache_sync(stop, informer.has_synced)
        informer.add_event_handler(late)
        source.add(mk_pod("c"))
        sim.sleep(1.0)
        stop.close()
        sim.sleep(0.1)

    rt.run_fn(body)
    assert early.received_item_names == ["a", "b", "c"]
    assert late.received_item_names == ["a", "b", "c"]
    assert informer.last_sync_resource_version() == "3"
    with pytest.raises(RuntimeError, match="informer has already started"):
        informer.add_indexers({})
    state = informer_state(informer)
    assert state.indexer_keys == ("a", "b", "c")
    assert state.started and state.controller.queue.closed
    assert [lis.pending for lis in state.listeners] == [(), ()]


def test_wait_for_cache_sync_false_when_stopped() -> None:
    rt = sim.Runtime(seed=1)
    stop = sim.Chan()

    def body() -> bool:
        sim.go(lambda: (sim.sleep(0.35), stop.close()))
        return wait_for_cache_sync(stop, lambda: False)

    assert rt.run_fn(body) is False
