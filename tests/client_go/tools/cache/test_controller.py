"""Port of client-go tools/cache/controller_test.go (v1.6.1) on the deterministic runtime, plus
the §9.6 facts (relist → OnUpdate for survivors, OnDelete(tombstone) for missed deletions).

Go: https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/controller_test.go
(the same file as vendor/k8s.io/client-go/tools/cache/controller_test.go at cluster-capacity
commit f271bd0a9394ad63384802cf75294f6ecab36ac2).

Each Go test or example is the ``test_<Go name>`` function (``Example`` and
``ExampleNewInformer`` check their ``// Output:`` lines). Goroutines are simulated: Go's
``wait.Poll``, ``time.Sleep`` and WaitGroups run on virtual time, so the waits are instant.

Differs from Go: TestHammerController's ``gofuzz`` pods become pods with a seeded random name
in namespace ``default`` (the fuzzed spec fields mean nothing to the fake source or the
informer); on top of Go's checks (HasSynced before and after the first sync, every key
computable) it checks that the informer's store converges to the source and that every key's
handler calls form a valid life cycle.
"""

from __future__ import annotations

import random
import string
from typing import Any

import attrs

from kschedlearn import sim
from kschedlearn.observe import attach
from kschedlearn.observe.informers import observe_controller, observe_informers
from kschedlearn.observe.views import controller_state
from kschedlearn.apimachinery.api import errors as apierrors
from kschedlearn.api.v1 import ObjectMeta, Pod
from kschedlearn.apimachinery.util import wait
from kschedlearn.client_go.tools.cache import (
    DELETED,
    NAMESPACE_INDEX,
    DeletedFinalStateUnknown,
    Deltas,
    deletion_handling_meta_namespace_key_func,
    meta_namespace_index_func,
    meta_namespace_key_func,
    new_delta_fifo,
    new_store,
)
from kschedlearn.client_go.tools.cache.controller import (
    Config,
    ResourceEventHandlerFuncs,
    new,
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


def _deleting_controller_output(make: Any) -> list[str]:
    """Run Example/ExampleNewInformer's shape: add three pods to a fake source, let the
    controller delete each one it sees, and collect the deleted keys (sorted, as Go prints a
    ``sets.String``). ``make(source, deletion_counter)`` builds the controller."""
    rt = sim.Runtime(seed=1)
    source = new_fake_controller_source()
    deletion_counter = sim.Chan(1000, name="deletionCounter")
    controller = make(source, deletion_counter)
    test_ids = ["a-hello", "b-controller", "c-framework"]

    def body() -> list[str]:
        stop = sim.Chan(name="stop")
        try:
            sim.go(controller.run, stop)
            for name in test_ids:
                # not valid pods: the fake source does no validation
                source.add(Pod(metadata=ObjectMeta(name=name)))
            output_set = {deletion_counter.recv()[0] for _ in test_ids}
            return sorted(output_set)
        finally:
            stop.close()

    output = rt.run_fn(body)
    assert rt.crashes == []
    return output


def test_Example() -> None:
    def make(source: Any, deletion_counter: sim.Chan) -> Any:
        downstream = new_store(deletion_handling_meta_namespace_key_func)
        # downstream is the known-objects lister, so resyncs produce the right deltas
        fifo = new_delta_fifo(meta_namespace_key_func, None, downstream)

        def process(obj: Deltas) -> None:
            newest = obj.newest()
            assert newest is not None
            if newest.type != DELETED:
                downstream.add(newest.object)
                source.delete(newest.object)
            else:
                downstream.delete(newest.object)
                # KeyOf copes with DeletedFinalStateUnknown markers
                key = fifo.key_of(newest.object)
                deletion_counter.send(key)

        return new(Config(queue=fifo, lister_watcher=source, object_type=Pod,
                          full_resync_period=0.1, retry_on_error=False, process=process))

    assert _deleting_controller_output(make) == ["a-hello", "b-controller", "c-framework"]


def test_ExampleNewInformer() -> None:
    def make(source: Any, deletion_counter: sim.Chan) -> Any:
        def on_delete(obj: Any) -> None:
            try:
                key = deletion_handling_meta_namespace_key_func(obj)
            except Exception:  # noqa: BLE001 - Go's returned key error
                key = "oops something went wrong with the key"
            deletion_counter.send(key)

        _, controller = new_informer(source, Pod, 0.1, ResourceEventHandlerFuncs(
            add_func=source.delete, delete_func=on_delete))
        return controller

    assert _deleting_controller_output(make) == ["a-hello", "b-controller", "c-framework"]


def _fuzzed_name(r: random.Random) -> str:
    """Stands for gofuzz's random string (a name no other producer is likely to draw)."""
    return "".join(r.choice(string.ascii_lowercase) for _ in range(r.randint(6, 12)))


def test_HammerController() -> None:
    rt = sim.Runtime(seed=42)
    source = new_fake_controller_source()
    output_set: dict[str, list[str]] = {}  # key -> operations seen, in order
    key_errors: list[str] = []

    def record_func(event_type: str, obj: Any) -> None:
        try:
            key = deletion_handling_meta_namespace_key_func(obj)
        except Exception as err:  # noqa: BLE001 - Go's returned key error
            key_errors.append(f"something wrong with key: {err}")
            key = "oops something went wrong with the key"
        output_set.setdefault(key, []).append(event_type)

    store, controller = new_informer(source, Pod, 0.1, ResourceEventHandlerFuncs(
        add_func=lambda obj: record_func("add", obj),
        update_func=lambda old, new: record_func("update", new),
        delete_func=lambda obj: record_func("delete", obj),
    ))
    assert not controller.has_synced(), "HasSynced() before the controller started"
    threads = 3

    def producer(wg: sim.WaitGroup, seed: int) -> None:
        try:
            current_names: set[str] = set()
            r = random.Random(seed)
            for _ in range(100):
                if not current_names or r.randrange(3) == 1:
                    name, is_new = _fuzzed_name(r), True
                else:
                    name, is_new = r.choice(sorted(current_names)), False
                pod = Pod(metadata=ObjectMeta(name=name, namespace="default"))
                # add, update or delete at random; the fake source validates nothing
                if is_new:
                    current_names.add(name)
                    source.add(pod)
                    continue
                if r.randrange(2) == 0:
                    current_names.add(name)
                    source.modify(pod)
                else:
                    current_names.discard(name)
                    source.delete(pod)
        finally:
            wg.done()

    def body() -> bool:
        stop = sim.Chan(name="stop")
        sim.go(controller.run, stop)
        # wait for the initial sync
        try:
            wait.poll(0.1, wait.FOREVER_TEST_TIMEOUT, controller.has_synced)
        except wait.ErrWaitTimeout:
            pass
        synced = controller.has_synced()
        wg = sim.WaitGroup()
        wg.add(threads)
        rand = sim.current_runtime().rand
        for _ in range(threads):
            sim.go(producer, wg, rand.getrandbits(63))
        wg.wait()
        # let the controller finish what was just added
        sim.sleep(0.1)
        stop.close()
        return synced

    assert rt.run_fn(body) is True, "HasSynced() after the initial sync"
    assert rt.crashes == [] and key_errors == []
    assert sorted(store.list_keys()) == sorted(source.items)
    calls = [(op, key, "") for key, ops in output_set.items() for op in ops]
    assert_valid_life_cycles(calls)
    # no compressor: each of the 300 changes is one handler call (resyncs add updates)
    assert sum(len(ops) for ops in output_set.values()) >= len(source.changes) == threads * 100


def test_Update() -> None:
    """Every pod is added as "from" and modified to "to" (final); the handler deletes it on
    the update, and the test ends once every pod's deletion has been observed."""
    rt = sim.Runtime(seed=7)
    source = new_fake_controller_source()
    from_, to = "from", "to"
    # the transitions the handler may see: asynchronous resyncs allow the repeated ones
    allowed_transitions = {(from_, to), (to, to), (from_, from_)}
    errors: list[str] = []

    def pod(name: str, check: str, final: bool) -> Pod:
        labels = {"check": check}
        if final:
            labels["final"] = "true"
        return Pod(metadata=ObjectMeta(name=name, labels=labels))

    def delete_pod(p: Pod) -> bool:
        return p.metadata.labels.get("final") == "true"

    def test_add_then_finalize(name: str) -> None:
        name = "a-" + name
        source.add(pod(name, from_, False))
        source.modify(pod(name, to, True))

    tests = [test_add_then_finalize]
    threads = 3
    test_done_wg = sim.WaitGroup()
    test_done_wg.add(threads * len(tests))
    watch_ch = sim.Chan(name="watchCh")

    def watch_func(options: ListOptions) -> Any:
        w = source.watch(options)
        watch_ch.close()  # a second watch would be a panic (close of a closed channel), as in Go
        return w

    def update_func(old_obj: Pod, new_obj: Pod) -> None:
        transition = (old_obj.metadata.labels["check"], new_obj.metadata.labels["check"])
        if transition not in allowed_transitions:
            errors.append(f"observed transition {transition[0]!r} -> {transition[1]!r} "
                          f"for {new_obj.metadata.name}")
        if delete_pod(new_obj):
            source.delete(new_obj)

    _, controller = new_informer(
        ListWatch(source.list, watch_func), Pod, 0,
        ResourceEventHandlerFuncs(update_func=update_func,
                                  delete_func=lambda obj: test_done_wg.done()))

    def body() -> None:
        # every test_done_wg.add happened above, before Run can call done()
        stop = sim.Chan(name="stop")
        sim.go(controller.run, stop)
        watch_ch.recv()
        wg = sim.WaitGroup()
        wg.add(threads * len(tests))

        def run_test(name: str, f: Any) -> None:
            try:
                f(name)
            finally:
                wg.done()

        for i in range(threads):
            for j, f in enumerate(tests):
                sim.go(run_test, f"{i}-{j}", f)
        wg.wait()
        test_done_wg.wait()  # every pod added has been deleted
        stop.close()

    rt.run_fn(body)
    assert rt.crashes == [] and errors == []
    assert source.items == {}


def test_life_cycle_add_modify_delete() -> None:
    """kschedlearn: pods go created → updated → deleted at different times; the handler sees
    each transition in order and never an update after the delete."""
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
    observe_informers(attach(rt))  # the trace points, as a simulated world attaches them
    observe_controller(controller)

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
    state = controller_state(controller)
    assert state.reflector.last_sync_resource_version == "5"
    assert state.queue.closed


def test_retry_on_error_requeues() -> None:
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
