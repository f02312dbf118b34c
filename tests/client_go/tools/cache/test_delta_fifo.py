"""Port of client-go tools/cache/delta_fifo_test.go (v1.6.1) plus the DeltaFIFO facts of §9.4.

Go: https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/delta_fifo_test.go
(the same file as vendor/k8s.io/client-go/tools/cache/delta_fifo_test.go at cluster-capacity
commit f271bd0a9394ad63384802cf75294f6ecab36ac2). Its sixteen tests are the ``test_DeltaFIFO_*``
functions up to ``test_DeltaFIFO_HasSynced``; Go's tables have no row names, so the ids are
descriptive (KeyOf) or row numbers (HasSynced).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs
import pytest

from kschedlearn.observe.views import queue_state

from kschedlearn import sim
from kschedlearn.client_go.tools.cache import (
    ADDED,
    DELETED,
    SYNC,
    UPDATED,
    Delta,
    DeltaCompressorFunc,
    DeltaFIFO,
    Deltas,
    DeletedFinalStateUnknown,
    ErrRequeue,
    FIFOClosedError,
    KeyFuncError,
    ProcessError,
    new_delta_fifo,
    pop,
)


@attrs.frozen
class FifoObject:
    """Go: ``testFifoObject{name, val}``."""

    name: str
    val: Any


def fifo_object_key_func(obj: Any) -> str:
    """Go: testFifoObjectKeyFunc."""
    return obj.name


def mk_fifo_obj(name: str, val: Any) -> FifoObject:
    """Go: mkFifoObj."""
    return FifoObject(name, val)


def test_pop(f: DeltaFIFO) -> FifoObject:
    """Go: testPop - pop and return the newest object."""
    return pop(f).newest().object


test_pop.__test__ = False  # type: ignore[attr-defined]  # a helper, keeps Go's name


@attrs.frozen
class KeyLookupFunc:
    """Go: ``keyLookupFunc`` - a KeyListerGetter over a function returning objects."""

    fn: Callable[[], list[FifoObject]]

    def list_keys(self) -> list[str]:
        return [o.name for o in self.fn()]

    def get_by_key(self, key: str) -> tuple[Any, bool]:
        for v in self.fn():
            if v.name == key:
                return v, True
        return None, False


def _known(*objs: FifoObject) -> KeyLookupFunc:
    return KeyLookupFunc(lambda: list(objs))


def _no_op(obj: Any) -> None:
    return None


def test_DeltaFIFO_basic() -> None:
    f = new_delta_fifo(fifo_object_key_func, None, None)
    amount = 500

    def producer(prefix: str, kind: str) -> None:
        for i in range(amount):
            f.add(mk_fifo_obj(prefix + chr(i), (kind, i + 1)))
            sim.yield_now()  # interleave the producers

    def consumer() -> None:
        sim.go(producer, "a", "int")
        sim.go(producer, "b", "uint")
        last = {"int": 0, "uint": 0}
        for _ in range(amount * 2):
            kind, val = test_pop(f).val
            assert val > last[kind], f"got {val} ({kind}) out of order, last was {last[kind]}"
            last[kind] = val

    sim.Runtime(seed=0).run_fn(consumer)


def test_DeltaFIFO_requeueOnPop() -> None:
    f = new_delta_fifo(fifo_object_key_func, None, None)
    f.add(mk_fifo_obj("foo", 10))

    def requeue_nil(obj: Any) -> None:
        assert obj[0].object.name == "foo"
        raise ErrRequeue(None)

    f.pop(requeue_nil)
    _, ok = f.get_by_key("foo")
    assert ok, "object should have been requeued"

    def requeue_err(obj: Any) -> None:
        assert obj[0].object.name == "foo"
        raise ErrRequeue(RuntimeError("test error"))

    with pytest.raises(ProcessError) as info:
        f.pop(requeue_err)
    assert str(info.value) == "test error"
    _, ok = f.get_by_key("foo")
    assert ok, "object should have been requeued"

    def ok_process(obj: Any) -> None:
        assert obj[0].object.name == "foo"

    f.pop(ok_process)
    _, ok = f.get_by_key("foo")
    assert not ok, "object should have been removed"


def test_DeltaFIFO_compressorWorks() -> None:
    oldest_types: list[str] = []

    def keep_newest(d: Deltas) -> Deltas:
        # Keep only the newest delta, remembering the type of each one dropped.
        if len(d) > 1:
            oldest_types.append(d[0].type)
            d = Deltas(d[1:])
        return d

    f = new_delta_fifo(fifo_object_key_func, DeltaCompressorFunc(keep_newest), None)
    assert not f.has_synced()
    f.add(mk_fifo_obj("foo", 10))
    f.update(mk_fifo_obj("foo", 12))
    f.replace([mk_fifo_obj("foo", 20)], "0")
    f.delete(mk_fifo_obj("foo", 22))
    f.add(mk_fifo_obj("foo", 25))  # flush the last one out
    assert oldest_types == [ADDED, UPDATED, SYNC, DELETED]
    assert pop(f) == Deltas([Delta(ADDED, mk_fifo_obj("foo", 25))])
    assert f.has_synced()


def _drain_into(f: DeltaFIFO, got: sim.Chan) -> None:
    while True:
        got.send(test_pop(f))


def _expect_single_pop(f: DeltaFIFO, expected_val: Any) -> None:
    got = sim.Chan(2)
    sim.go(_drain_into, f, got)
    first, _ = got.recv()
    assert first.val == expected_val, "Didn't get updated value"
    index, unexpected, _ = sim.select(("recv", got), ("recv", sim.after(0.05)))
    assert index == 1, f"Got second value {unexpected}"
    _, exists = f.get(mk_fifo_obj("foo", ""))
    assert not exists, "item did not get removed"


def test_DeltaFIFO_addUpdate() -> None:
    f = new_delta_fifo(fifo_object_key_func, None, None)
    f.add(mk_fifo_obj("foo", 10))
    f.update(mk_fifo_obj("foo", 12))
    f.delete(mk_fifo_obj("foo", 15))
    assert f.list() == [mk_fifo_obj("foo", 15)]
    assert f.list_keys() == ["foo"]
    sim.Runtime(seed=0).run_fn(_expect_single_pop, f, 15)


def test_DeltaFIFO_enqueueingNoLister() -> None:
    f = new_delta_fifo(fifo_object_key_func, None, None)
    f.add(mk_fifo_obj("foo", 10))
    f.update(mk_fifo_obj("bar", 15))
    f.add(mk_fifo_obj("qux", 17))
    f.delete(mk_fifo_obj("qux", 18))
    # This delete does not enqueue anything because baz doesn't exist.
    f.delete(mk_fifo_obj("baz", 20))
    for expect in [10, 15, 18]:
        assert test_pop(f).val == expect
    assert len(f._items) == 0


def test_DeltaFIFO_enqueueingWithLister() -> None:
    f = new_delta_fifo(
        fifo_object_key_func,
        None,
        _known(mk_fifo_obj("foo", 5), mk_fifo_obj("bar", 6), mk_fifo_obj("baz", 7)),
    )
    f.add(mk_fifo_obj("foo", 10))
    f.update(mk_fifo_obj("bar", 15))
    # This delete does enqueue the deletion, because "baz" is in the key lister.
    f.delete(mk_fifo_obj("baz", 20))
    for expect in [10, 15, 20]:
        assert test_pop(f).val == expect
    assert len(f._items) == 0


def test_DeltaFIFO_addReplace() -> None:
    f = new_delta_fifo(fifo_object_key_func, None, None)
    f.add(mk_fifo_obj("foo", 10))
    f.replace([mk_fifo_obj("foo", 15)], "0")
    sim.Runtime(seed=0).run_fn(_expect_single_pop, f, 15)


def test_DeltaFIFO_ResyncNonExisting() -> None:
    f = new_delta_fifo(fifo_object_key_func, None, _known(mk_fifo_obj("foo", 5)))
    f.delete(mk_fifo_obj("foo", 10))
    f.resync()
    deltas = f._items["foo"]
    assert len(deltas) == 1
    assert deltas[0].type == DELETED


def test_DeltaFIFO_DeleteExistingNonPropagated() -> None:
    f = new_delta_fifo(fifo_object_key_func, None, _known())
    f.add(mk_fifo_obj("foo", 5))
    f.delete(mk_fifo_obj("foo", 6))
    deltas = f._items["foo"]
    assert len(deltas) == 2
    assert deltas[-1].type == DELETED


def test_DeltaFIFO_ReplaceMakesDeletions() -> None:
    f = new_delta_fifo(
        fifo_object_key_func,
        None,
        _known(mk_fifo_obj("foo", 5), mk_fifo_obj("bar", 6), mk_fifo_obj("baz", 7)),
    )
    f.delete(mk_fifo_obj("baz", 10))
    f.replace([mk_fifo_obj("foo", 5)], "0")
    expected_list = [
        Deltas([Delta(DELETED, mk_fifo_obj("baz", 10))]),
        Deltas([Delta(SYNC, mk_fifo_obj("foo", 5))]),
        # "bar" had no delete event and was not listed: a tombstone with its known object.
        Deltas([Delta(DELETED, DeletedFinalStateUnknown("bar", mk_fifo_obj("bar", 6)))]),
    ]
    for expected in expected_list:
        assert pop(f) == expected


def test_DeltaFIFO_UpdateResyncRace() -> None:
    f = new_delta_fifo(fifo_object_key_func, None, _known(mk_fifo_obj("foo", 5)))
    f.update(mk_fifo_obj("foo", 6))
    f.resync()
    assert pop(f) == Deltas([Delta(UPDATED, mk_fifo_obj("foo", 6))])


def test_DeltaFIFO_HasSyncedCorrectOnDeletion() -> None:
    f = new_delta_fifo(
        fifo_object_key_func,
        None,
        _known(mk_fifo_obj("foo", 5), mk_fifo_obj("bar", 6), mk_fifo_obj("baz", 7)),
    )
    f.replace([mk_fifo_obj("foo", 5)], "0")
    expected_list = [
        Deltas([Delta(SYNC, mk_fifo_obj("foo", 5))]),
        Deltas([Delta(DELETED, DeletedFinalStateUnknown("bar", mk_fifo_obj("bar", 6)))]),
        Deltas([Delta(DELETED, DeletedFinalStateUnknown("baz", mk_fifo_obj("baz", 7)))]),
    ]
    for expected in expected_list:
        assert not f.has_synced(), "Expected HasSynced to be false"
        assert pop(f) == expected
    assert f.has_synced(), "Expected HasSynced to be true"


def test_DeltaFIFO_detectLineJumpers() -> None:
    f = new_delta_fifo(fifo_object_key_func, None, None)
    f.add(mk_fifo_obj("foo", 10))
    f.add(mk_fifo_obj("bar", 1))
    f.add(mk_fifo_obj("foo", 11))
    f.add(mk_fifo_obj("foo", 13))
    f.add(mk_fifo_obj("zab", 30))
    assert test_pop(f).val == 13
    f.add(mk_fifo_obj("foo", 14))  # foo must not jump back in line
    assert test_pop(f).val == 1
    assert test_pop(f).val == 30
    assert test_pop(f).val == 14


def test_DeltaFIFO_addIfNotPresent() -> None:
    f = new_delta_fifo(fifo_object_key_func, None, None)
    f.add(mk_fifo_obj("b", 3))
    b3 = pop(f)
    f.add(mk_fifo_obj("c", 4))
    c4 = pop(f)
    assert len(f._items) == 0

    f.add(mk_fifo_obj("a", 1))
    f.add(mk_fifo_obj("b", 2))
    f.add_if_not_present(b3)
    f.add_if_not_present(c4)
    assert len(f._items) == 3
    for expected in [1, 2, 4]:
        assert test_pop(f).val == expected


@pytest.mark.parametrize(
    ("obj", "key"),
    [
        (FifoObject("A", None), "A"),
        (DeletedFinalStateUnknown("B", None), "B"),
        (Deltas([Delta("", FifoObject("C", None))]), "C"),
        (Deltas([Delta("", DeletedFinalStateUnknown("D", None))]), "D"),
    ],
    ids=["object", "tombstone", "deltas", "deltas-of-tombstone"],
)
def test_DeltaFIFO_KeyOf(obj: Any, key: str) -> None:
    f = new_delta_fifo(fifo_object_key_func, None, None)
    assert f.key_of(obj) == key


_HAS_SYNCED_CASES = [
    ([], False),
    ([lambda f: f.add(mk_fifo_obj("a", 1))], True),
    ([lambda f: f.replace([], "0")], True),
    ([lambda f: f.replace([mk_fifo_obj("a", 1), mk_fifo_obj("b", 2)], "0")], False),
    ([lambda f: f.replace([mk_fifo_obj("a", 1), mk_fifo_obj("b", 2)], "0"), pop], False),
    ([lambda f: f.replace([mk_fifo_obj("a", 1), mk_fifo_obj("b", 2)], "0"), pop, pop], True),
]


@pytest.mark.parametrize(
    ("actions", "expected_synced"),
    _HAS_SYNCED_CASES,
    ids=[f"case{i}" for i in range(len(_HAS_SYNCED_CASES))],  # Go's table has no names
)
def test_DeltaFIFO_HasSynced(actions: list[Any], expected_synced: bool) -> None:
    f = new_delta_fifo(fifo_object_key_func, None, None)
    for action in actions:
        action(f)
    assert f.has_synced() is expected_synced


# --- kschedlearn additions: spec §9.4 ---------------------------------------------------------


def test_pop_should_unblock_when_closed() -> None:
    f = new_delta_fifo(fifo_object_key_func, None, None)
    results: list[str] = []

    def popper() -> None:
        try:
            f.pop(_no_op)
        except FIFOClosedError as e:
            results.append(str(e))

    def main() -> None:
        for _ in range(3):
            sim.go(popper)
        sim.yield_now()
        f.close()
        sim.sleep(1)

    sim.Runtime(seed=0).run_fn(main)
    assert results == ["DeltaFIFO: manipulating with closed queue"] * 3


def test_dedup_double_deletion_keeps_older_unless_tombstone() -> None:
    f = new_delta_fifo(fifo_object_key_func, None, None)
    f.add(mk_fifo_obj("a", 1))
    f.delete(mk_fifo_obj("a", 2))
    f.delete(mk_fifo_obj("a", 3))
    assert f.get_by_key("a")[0] == Deltas(
        [Delta(ADDED, mk_fifo_obj("a", 1)), Delta(DELETED, mk_fifo_obj("a", 2))]
    )
    # An older tombstone loses against a newer real deletion.
    g = new_delta_fifo(fifo_object_key_func, None, None)
    g.add(mk_fifo_obj("b", 1))
    g.replace([], "1")  # b is queued but not listed -> tombstone
    g.delete(mk_fifo_obj("b", 9))
    assert g.get_by_key("b")[0] == Deltas(
        [Delta(ADDED, mk_fifo_obj("b", 1)), Delta(DELETED, mk_fifo_obj("b", 9))]
    )


def test_sync_after_deleted_is_ignored() -> None:
    f = new_delta_fifo(fifo_object_key_func, None, None)
    f.add(mk_fifo_obj("a", 1))
    f.delete(mk_fifo_obj("a", 2))
    f.replace([mk_fifo_obj("a", 3)], "1")
    assert [d.type for d in f.get_by_key("a")[0]] == [ADDED, DELETED]


def test_replace_without_known_objects_tombstones_newest_queued_object() -> None:
    f = new_delta_fifo(fifo_object_key_func, None, None)
    f.add(mk_fifo_obj("gone", 1))
    f.update(mk_fifo_obj("gone", 2))
    f.replace([mk_fifo_obj("kept", 3)], "5")
    assert queue_state(f).queue == ("gone", "kept")
    assert f.get_by_key("gone")[0][-1] == Delta(
        DELETED, DeletedFinalStateUnknown("gone", mk_fifo_obj("gone", 2))
    )
    assert f.get_by_key("kept")[0] == Deltas([Delta(SYNC, mk_fifo_obj("kept", 3))])


def test_replace_with_known_objects_counts_deletions_in_initial_population() -> None:
    f = new_delta_fifo(fifo_object_key_func, None, _known(mk_fifo_obj("x", 1)))
    f.replace([mk_fifo_obj("y", 2)], "1")
    assert queue_state(f).initial_population_count == 2


class _BrokenKnown:
    """A known-objects store whose lookups fail or miss, to reach Replace's log branches."""

    def __init__(self, keys: list[str], fail: bool) -> None:
        self.keys = keys
        self.fail = fail

    def list_keys(self) -> list[str]:
        return list(self.keys)

    def get_by_key(self, key: str) -> tuple[Any, bool]:
        if self.fail:
            raise RuntimeError("lookup failed")
        return None, False


@pytest.mark.parametrize("fail", [True, False], ids=["lookup-error", "missing"])
def test_replace_tombstone_without_object(fail: bool) -> None:
    f = new_delta_fifo(fifo_object_key_func, None, _BrokenKnown(["k"], fail))
    f.replace([], "1")
    assert pop(f) == Deltas([Delta(DELETED, DeletedFinalStateUnknown("k", None))])


@pytest.mark.parametrize("fail", [True, False], ids=["lookup-error", "missing"])
def test_resync_skips_unresolvable_keys(fail: bool) -> None:
    f = new_delta_fifo(fifo_object_key_func, None, _BrokenKnown(["k"], fail))
    f.resync()
    assert queue_state(f).queue == ()


def test_resync_queues_sync_for_known_objects() -> None:
    f = new_delta_fifo(fifo_object_key_func, None, _known(mk_fifo_obj("a", 1), mk_fifo_obj("b", 2)))
    f.resync()
    assert [pop(f), pop(f)] == [
        Deltas([Delta(SYNC, mk_fifo_obj("a", 1))]),
        Deltas([Delta(SYNC, mk_fifo_obj("b", 2))]),
    ]


def test_add_if_not_present_rejects_non_deltas() -> None:
    f = new_delta_fifo(fifo_object_key_func, None, None)
    with pytest.raises(TypeError, match=r"^object must be of type deltas, but got: "):
        f.add_if_not_present(mk_fifo_obj("a", 1))
    with pytest.raises(KeyFuncError, match="0 length Deltas object; can't get key"):
        f.add_if_not_present(Deltas())


def test_key_of_empty_deltas() -> None:
    f = new_delta_fifo(fifo_object_key_func, None, None)
    with pytest.raises(KeyFuncError, match="0 length Deltas object; can't get key"):
        f.key_of(Deltas())


def test_compressor_emptying_leaves_ghost() -> None:
    f = new_delta_fifo(fifo_object_key_func, DeltaCompressorFunc(lambda d: ()), None)
    f.add(mk_fifo_obj("a", 1))  # emptied at once: never stored, never queued
    assert queue_state(f).queue == ()
    g = new_delta_fifo(
        fifo_object_key_func,
        DeltaCompressorFunc(lambda d: () if d[-1].type == DELETED else d),
        None,
    )
    g.add(mk_fifo_obj("a", 1))
    g.add(mk_fifo_obj("b", 2))
    g.delete(mk_fifo_obj("a", 3))  # compressor empties "a": its key stays as a ghost
    assert queue_state(g).queue == ("a", "b")
    assert list(queue_state(g).items) == ["b"]
    assert test_pop(g).name == "b"
    assert queue_state(g).queue == ()


def test_deltas_accessors() -> None:
    d = Deltas([Delta(ADDED, 1), Delta(UPDATED, 2)])
    assert d.oldest() == Delta(ADDED, 1)
    assert d.newest() == Delta(UPDATED, 2)
    assert Deltas().oldest() is None and Deltas().newest() is None
    assert repr(Deltas([Delta(SYNC, 3)])) == "Deltas([Delta(type='Sync', object=3)])"


@attrs.define
class _SlowKnown:
    """Known objects whose lookups take virtual time (a lister behind a slow lock, say)."""

    objs: list[FifoObject]

    def list_keys(self) -> list[str]:
        return [o.name for o in self.objs]

    def get_by_key(self, key: str) -> tuple[Any, bool]:
        sim.sleep(1.0)
        for v in self.objs:
            if v.name == key:
                return v, True
        return None, False


def test_DeltaFIFO_resync_holds_the_lock_for_the_whole_loop() -> None:
    """(kschedlearn) Go's Resync locks once and unlocks when the loop is done (delta_fifo.go
    Resync: ``f.lock.Lock(); defer f.lock.Unlock()``): an Add that arrives while key "a" is
    being looked up waits until "b" has its Sync too, so "b" gets Sync then Added."""
    f = new_delta_fifo(fifo_object_key_func, None, _SlowKnown([mk_fifo_obj("a", 1), mk_fifo_obj("b", 2)]))
    added_at: list[float] = []

    def adder() -> None:
        sim.sleep(0.5)
        f.add(mk_fifo_obj("b", 3))
        added_at.append(sim.now())

    def main() -> None:
        sim.go(adder)
        f.resync()
        sim.sleep(1.0)  # let the adder finish

    sim.Runtime(seed=0).run_fn(main)
    assert added_at == [2.0]
    assert [d.type for d in f._items["b"]] == [SYNC, ADDED]
    assert [d.type for d in f._items["a"]] == [SYNC]


def test_DeltaFIFO_resync_without_known_objects_panics() -> None:
    """(kschedlearn) Go calls ListKeys on a nil knownObjects: a nil pointer dereference panic."""
    from kschedlearn.apimachinery.util.runtime import NilPointerDereference

    f = new_delta_fifo(fifo_object_key_func, None, None)
    with pytest.raises(NilPointerDereference):
        f.resync()
    f.add(mk_fifo_obj("x", 1))  # the deferred unlock ran: the lock is free again
