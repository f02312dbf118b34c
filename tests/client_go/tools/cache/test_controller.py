"""Port of client-go tools/cache/controller_test.go (v1.6.1) on the deterministic runtime, plus
the §9.6 facts (relist → OnUpdate for survivors, OnDelete(tombstone) for missed deletions).

Go: https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/controller_test.go

Differs from Go: TestHammerController is smaller (fixed seed, 4 producers, 60 operations) and
checks every key's handler sequence is a valid life cycle instead of sleeping real time.
"""

from __future__ import annotations

from typing import Any

import attrs

from kschedlearn import sim
from kschedlearn.apimachinery.api import errors as apierrors
from kschedlearn.api.v1 import ObjectMeta, Pod
from kschedlearn.client_go.tools.cache import (
    DeletedFinalStateUnknown,
    NAMESPACE_INDEX,
    meta_namespace_index_func,
)
from kschedlearn.client_go.tools.cache.controller import (
    ResourceEventHandlerFuncs,
    new_indexer_informer,
    new_informer,
)
from kschedlearn.client_go.tools.cache.listwatch import ListOptions, ListWatch
from kschedlearn.client_go.tools.cache.testing import (
    FakeList,
    FakeListMeta,
    FakeWatcher,
    new_fake_controller_source,
)
from kschedlearn.trace import Tracer


def mk_pod(name: str, rv: str = "", **lbl: str) -> Pod:
    return Pod(metadata=ObjectMeta(name=name, namespace="ns", resource_version=rv, labels=lbl))


@attrs.define
class Recorder:
    """Records handler calls as (op, key, rv) and checks the life cycle per key."""

    calls: list[tuple[str, str, str]] = attrs.field(factory=list)

    def handler(self) -> ResourceEventHandlerFuncs:
        return ResourceEventHandlerFuncs(
            add_func=lambda o: self.calls.append(("add", _key(o), _rv(o))),
            update_func=lambda old, new: self.calls.append(("update", _key(new), _rv(new))),
            delete_func=lambda o: self.calls.append(("delete", _key(o), _rv(o))),
        )


def _key(o: Any) -> str:
    if isinstance(o, DeletedFinalStateUnknown):
        return o.key
    return f"{o.metadata.namespace}/{o.metadata.name}"


def _rv(o: Any) -> str:
    if isinstance(o, DeletedFinalStateUnknown):
        return "tombstone"
    return o.metadata.resource_version


def assert_valid_life_cycles(calls: list[tuple[str, str, str]]) -> None:
    """add before update/delete; nothing after delete until a new add."""
    alive: dict[str, bool] = {}
    for op, key, _ in calls:
        if op == "add":
            assert not alive.get(key, False), f"{key}: add while alive"
            alive[key] = True
        else:
            assert alive.get(key, False), f"{key}: {op} while not alive"
            if op == "delete":
                alive[key] = False


def test_update() -> None:
    """Go: TestUpdate - every pod goes created → updated → deleted; the handler sees each
    transition in order and never an update after the delete."""
    rt = sim.Runtime(seed=7)
    source = new_fake_controller_source()
    rec = Recorder()
    stop = sim.Chan()
    store, controller = new_informer(source, Pod, 0, rec.handler())
    n = 12

    def producer(i: int) -> None:
        name = f"pod-{i}"
        source.add(mk_pod(name, state="created"))
        sim.sleep(0.1 * (i % 3))
        source.modify(mk_pod(name, state="updated"))
        sim.yield_now()
        source.delete(mk_pod(name, state="updated"))

    def body() -> None:
        sim.go(controller.run, stop)
        for i in range(n):
            sim.go(producer, i)
        sim.sleep(5.0)
        stop.close()
        sim.sleep(2.0)

    rt.run_fn(body)
    assert_valid_life_cycles(rec.calls)
    for i in range(n):
        ops = [op for op, key, _ in rec.calls if key == f"ns/pod-{i}"]
        assert ops[0] == "add" and ops[-1] == "delete"
    assert store.list_keys() == []
    assert controller.has_synced()


def test_hammer_controller() -> None:
    """Go: TestHammerController - random concurrent add/modify/delete; the store converges
    to the source and per-key handler sequences are valid life cycles."""
    rt = sim.Runtime(seed=42)
    source = new_fake_controller_source()
    rec = Recorder()
    stop = sim.Chan()
    store, controller = new_informer(source, Pod, 0.5, rec.handler())

    def producer(p: int) -> None:
        rand = sim.current_runtime().rand
        for _ in range(15):
            name = f"pod-{rand.randrange(6)}"
            key = f"ns/{name}"
            if key in source.items:
                if rand.random() < 0.5:
                    source.modify(mk_pod(name))
                else:
                    source.delete(source.items[key])
            else:
                source.add(mk_pod(name))
            sim.sleep(rand.random() * 0.3)

    def body() -> None:
        sim.go(controller.run, stop)
        for p in range(4):
            sim.go(producer, p)
        sim.sleep(10.0)
        stop.close()

    rt.run_fn(body)
    assert_valid_life_cycles(rec.calls)
    assert sorted(store.list_keys()) == sorted(source.items)
    for key, obj in source.items.items():
        assert store.get_by_key(key)[0].metadata.resource_version == obj.metadata.resource_version
    # resync 0.5s: the periodic resync re-delivers survivors as updates with the same RV
    assert any(op == "update" for op, _, _ in rec.calls)


def test_relist_delivers_updates_and_tombstones() -> None:
    """Spec §9.6: after a watch error the relist gives OnUpdate for every surviving object
    (even unchanged) and OnDelete(DeletedFinalStateUnknown) for objects deleted meanwhile."""
    rt = sim.Runtime(seed=1)
    rt.tracer = Tracer()
    lists = [
        FakeList(items=(mk_pod("a", "1"), mk_pod("b", "1")), metadata=FakeListMeta("1")),
        FakeList(items=(mk_pod("a", "1"),), metadata=FakeListMeta("5")),
    ]
    watchers: list[FakeWatcher] = []

    def watch_func(options: ListOptions) -> FakeWatcher:
        watchers.append(FakeWatcher())
        return watchers[-1]

    lw = ListWatch(lambda o: lists.pop(0), watch_func)
    rec = Recorder()
    stop = sim.Chan()
    indexer, controller = new_indexer_informer(
        lw, Pod, 0, rec.handler(), {NAMESPACE_INDEX: meta_namespace_index_func})

    def _Gone() -> apierrors.Status:
        return apierrors.new_gone("too old resource version: 1 (4)").status()

    def body() -> None:
        sim.go(controller.run, stop)
        sim.sleep(0.5)
        watchers[0].error(_Gone())
        sim.sleep(3.0)
        stop.close()
        sim.sleep(0.1)

    rt.run_fn(body)
    assert rec.calls == [
        ("add", "ns/a", "1"), ("add", "ns/b", "1"),
        ("update", "ns/a", "1"), ("delete", "ns/b", "tombstone"),
    ]
    assert indexer.by_index(NAMESPACE_INDEX, "ns") == [mk_pod("a", "1")]
    assert controller.last_sync_resource_version() == "5"
    stages = [e.stage for e in rt.tracer.events]
    assert stages.count("controller.process_loop") == 4
    assert stages.count("handler.OnAdd") == 2 and stages.count("handler.OnDelete") == 1
    state = controller.debug_state()
    assert state.reflector.last_sync_resource_version == "5"
    assert state.queue.closed


def test_retry_on_error_requeues() -> None:
    from kschedlearn.client_go.tools.cache import Deltas, new_delta_fifo, meta_namespace_key_func
    from kschedlearn.client_go.tools.cache.controller import Config, new

    rt = sim.Runtime(seed=1)
    seen: list[int] = []

    def process(obj: Deltas) -> None:
        seen.append(len(obj))
        if len(seen) < 3:
            raise RuntimeError("try again")

    fifo = new_delta_fifo(meta_namespace_key_func, None, None)
    source = new_fake_controller_source()
    source.add(mk_pod("x"))
    c = new(Config(queue=fifo, lister_watcher=source, process=process, object_type=Pod,
                   retry_on_error=True))
    stop = sim.Chan()

    def body() -> None:
        sim.go(c.run, stop)
        sim.sleep(2.0)
        stop.close()

    rt.run_fn(body)
    assert len(seen) == 3
