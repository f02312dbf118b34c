"""Port of client-go tools/cache/shared_informer_test.go (v1.6.1: TestListenerResyncPeriods,
TestResyncCheckPeriod) plus §9.7 facts (replay on late add, per-handler order, has_synced).

Go: https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/shared_informer_test.go
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from kschedlearn import sim
from kschedlearn.api.v1 import ObjectMeta, Pod
from kschedlearn.client_go.tools.cache.shared_informer import (
    determine_resync_period,
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
        return sorted(self.received_item_names) == sorted(self.expected_item_names)


def test_listener_resync_periods() -> None:
    rt = sim.Runtime(seed=1)
    source = new_fake_controller_source()
    source.add(mk_pod("pod1"))
    source.add(mk_pod("pod2"))
    informer = new_shared_informer(source, Pod, 1.0)
    clock = FakeClock(time=100.0)
    informer.clock = clock
    informer.processor.clock = clock

    listener1 = TestListener("listener1", 0, {"pod1", "pod2"})
    listener2 = TestListener("listener2", 2.0, {"pod1", "pod2"})
    listener3 = TestListener("listener3", 3.0, {"pod1", "pod2"})
    listeners = [listener1, listener2, listener3]
    for lis in listeners:
        informer.add_event_handler_with_resync_period(lis, lis.resync_period)
    stop = sim.Chan()

    def body() -> None:
        sim.go(informer.run, stop)
        sim.sleep(0.5)
        for lis in listeners:
            assert lis.ok(), lis
            lis.received_item_names = []
        clock.step(2.0)  # listener2 is due
        sim.sleep(1.0)
        assert listener2.ok()
        assert listener1.received_item_names == [] and listener3.received_item_names == []
        for lis in listeners:
            lis.received_item_names = []
        clock.step(1.0)  # listener3 is due
        sim.sleep(1.0)
        assert listener3.ok()
        assert listener1.received_item_names == [] and listener2.received_item_names == []
        stop.close()

    rt.run_fn(body)


def test_resync_check_period() -> None:
    source = new_fake_controller_source()
    informer = new_shared_informer(source, Pod, 60.0)
    informer.clock = informer.processor.clock = FakeClock(time=0.0)
    steps = [
        (0.0, 60.0, [0.0]),
        (60.0, 60.0, [0.0, 60.0]),
        (55.0, 55.0, [0.0, 60.0, 55.0]),
        (5.0, 5.0, [0.0, 60.0, 55.0, 5.0]),
    ]
    for period, check, periods in steps:
        informer.add_event_handler_with_resync_period(TestListener("l", period), period)
        assert informer.resync_check_period == check
        assert [lis.resync_period for lis in informer.processor.listeners] == periods


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
    state = informer.debug_state()
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
