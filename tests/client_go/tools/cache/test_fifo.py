"""Port of client-go tools/cache/fifo_test.go (v1.6.1) plus the FIFO facts of spec §9.3.

Go: https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/fifo_test.go
(the same file as vendor/k8s.io/client-go/tools/cache/fifo_test.go at cluster-capacity commit
f271bd0a9394ad63384802cf75294f6ecab36ac2). Its seven tests are the ``test_FIFO_*`` functions; the
HasSynced table has no row names in Go, so its ids are the row numbers. The tests after
``test_FIFO_HasSynced`` are kschedlearn's.

Goroutines run on ``kschedlearn.sim``; Go's ``time.After(50ms)`` becomes ``sim.after(0.05)`` of
virtual time, so the tests are instant and deterministic.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from kschedlearn.observe.views import queue_state

from kschedlearn import sim
from kschedlearn.client_go.tools.cache import (
    FIFO,
    ErrRequeue,
    FIFOClosedError,
    KeyFuncError,
    ProcessError,
    new_fifo,
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


def _no_op(obj: Any) -> None:
    return None


def test_FIFO_basic() -> None:
    """Two producers, one consumer: each producer's items come out in its order."""
    f = new_fifo(fifo_object_key_func)
    amount = 500

    def producer(prefix: str, kind: str) -> None:
        for i in range(amount):
            f.add(mk_fifo_obj(prefix + chr(i), (kind, i + 1)))
            sim.yield_now()  # interleave the producers (Go's are preempted at random)

    def consumer() -> int:
        sim.go(producer, "a", "int")
        sim.go(producer, "b", "uint")
        last = {"int": 0, "uint": 0}
        for _ in range(amount * 2):
            kind, val = pop(f).val
            assert val > last[kind], f"got {val} ({kind}) out of order, last was {last[kind]}"
            last[kind] = val
        return last["int"] + last["uint"]

    assert sim.Runtime(seed=0).run_fn(consumer) == 2 * amount


def test_FIFO_requeueOnPop() -> None:
    f = new_fifo(fifo_object_key_func)
    f.add(mk_fifo_obj("foo", 10))

    def requeue_nil(obj: Any) -> None:
        assert obj.name == "foo"
        raise ErrRequeue(None)

    assert f.pop(requeue_nil) == mk_fifo_obj("foo", 10)
    _, ok = f.get_by_key("foo")
    assert ok, "object should have been requeued"

    def requeue_err(obj: Any) -> None:
        assert obj.name == "foo"
        raise ErrRequeue(RuntimeError("test error"))

    with pytest.raises(ProcessError) as info:
        f.pop(requeue_err)
    assert str(info.value) == "test error"
    assert info.value.requeued and info.value.item == mk_fifo_obj("foo", 10)
    _, ok = f.get_by_key("foo")
    assert ok, "object should have been requeued"

    def ok_process(obj: Any) -> None:
        assert obj.name == "foo"

    f.pop(ok_process)
    _, ok = f.get_by_key("foo")
    assert not ok, "object should have been removed"


def _drain_into(f: FIFO, got: sim.Chan) -> None:
    """Go: ``go func() { for { got <- Pop(f) } }()``."""
    while True:
        got.send(pop(f))


def _expect_single_pop(f: FIFO, expected_val: Any) -> None:
    """The shared tail of Go's addUpdate/addReplace tests, run inside a goroutine."""
    got = sim.Chan(2)
    sim.go(_drain_into, f, got)
    first, _ = got.recv()
    assert first.val == expected_val, "Didn't get updated value"
    index, unexpected, _ = sim.select(("recv", got), ("recv", sim.after(0.05)))
    assert index == 1, f"Got second value {unexpected}"
    _, exists = f.get(mk_fifo_obj("foo", ""))
    assert not exists, "item did not get removed"


def test_FIFO_addUpdate() -> None:
    f = new_fifo(fifo_object_key_func)
    f.add(mk_fifo_obj("foo", 10))
    f.update(mk_fifo_obj("foo", 15))
    assert f.list() == [mk_fifo_obj("foo", 15)]
    assert f.list_keys() == ["foo"]
    sim.Runtime(seed=0).run_fn(_expect_single_pop, f, 15)


def test_FIFO_addReplace() -> None:
    f = new_fifo(fifo_object_key_func)
    f.add(mk_fifo_obj("foo", 10))
    f.replace([mk_fifo_obj("foo", 15)], "15")
    sim.Runtime(seed=0).run_fn(_expect_single_pop, f, 15)


def test_FIFO_detectLineJumpers() -> None:
    f = new_fifo(fifo_object_key_func)
    f.add(mk_fifo_obj("foo", 10))
    f.add(mk_fifo_obj("bar", 1))
    f.add(mk_fifo_obj("foo", 11))
    f.add(mk_fifo_obj("foo", 13))
    f.add(mk_fifo_obj("zab", 30))

    assert pop(f).val == 13
    f.add(mk_fifo_obj("foo", 14))  # foo must not jump back ahead of bar and zab
    assert pop(f).val == 1
    assert pop(f).val == 30
    assert pop(f).val == 14


def test_FIFO_addIfNotPresent() -> None:
    f = new_fifo(fifo_object_key_func)
    f.add(mk_fifo_obj("a", 1))
    f.add(mk_fifo_obj("b", 2))
    f.add_if_not_present(mk_fifo_obj("b", 3))
    f.add_if_not_present(mk_fifo_obj("c", 4))
    assert len(f._items) == 3
    for expected in [1, 2, 4]:
        assert pop(f).val == expected


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
def test_FIFO_HasSynced(actions: list[Any], expected_synced: bool) -> None:
    f = new_fifo(fifo_object_key_func)
    for action in actions:
        action(f)
    assert f.has_synced() is expected_synced


def test_pop_unblocks_when_closed() -> None:
    """kschedlearn: every Pop blocked on an empty queue returns (with FIFOClosedError) after
    Close. (Upstream added a test like this, TestFIFO_PopShouldUnblockWhenClosed, after 1.6; the
    1.6 fifo.go already behaves so.)"""
    f = new_fifo(fifo_object_key_func)
    jobs = 10

    def popper(c: sim.Chan) -> None:
        with pytest.raises(FIFOClosedError) as info:
            f.pop(_no_op)
        assert str(info.value) == "DeltaFIFO: manipulating with closed queue"
        c.send(None)

    def main() -> None:
        c = sim.Chan()
        for _ in range(jobs):
            sim.go(popper, c)
        sim.yield_now()
        f.close()
        for _ in range(jobs):
            index, _, _ = sim.select(("recv", c), ("recv", sim.after(0.5)))
            assert index == 0, "timed out waiting for Pop to return after Close"

    sim.Runtime(seed=0).run_fn(main)


# --- kschedlearn additions: spec §9.3 ---------------------------------------------------------


def test_pop_blocks_until_add() -> None:
    f = new_fifo(fifo_object_key_func)
    order: list[str] = []

    def consumer() -> None:
        order.append("waiting")
        order.append(f"popped {pop(f).name}")

    def main() -> None:
        sim.go(consumer)
        sim.yield_now()
        assert order == ["waiting"]  # the consumer is parked in pop
        f.add(mk_fifo_obj("x", 1))
        order.append("added")
        sim.sleep(1)

    sim.Runtime(seed=0).run_fn(main)
    assert order == ["waiting", "added", "popped x"]


def test_pop_outside_goroutine_would_block() -> None:
    f = new_fifo(fifo_object_key_func)
    with pytest.raises(sim.WouldBlockError):
        f.pop(_no_op)
    f.add(mk_fifo_obj("x", 1))  # the lock was released on the way out
    assert pop(f) == mk_fifo_obj("x", 1)


def test_closed_queue_still_pops_queued_items() -> None:
    f = new_fifo(fifo_object_key_func)
    f.add(mk_fifo_obj("x", 1))
    f.close()
    assert pop(f) == mk_fifo_obj("x", 1)
    with pytest.raises(FIFOClosedError):
        f.pop(_no_op)
    assert pop(f) is None  # Go's cache.Pop ignores the error


def test_process_failure_hands_item_back() -> None:
    f = new_fifo(fifo_object_key_func)
    f.add(mk_fifo_obj("x", 1))

    def boom(obj: Any) -> None:
        raise ValueError("bad")

    with pytest.raises(ProcessError) as info:
        f.pop(boom)
    assert info.value.item == mk_fifo_obj("x", 1)
    assert not info.value.requeued
    assert isinstance(info.value.__cause__, ValueError)
    assert f.get_by_key("x") == (None, False)  # not requeued, as Go


def test_requeue_does_not_overwrite_newer_add() -> None:
    """Process runs under the lock in Go; here a re-add before the requeue simulates a newer
    version that arrived first: add_if_not_present keeps the newer one."""
    f = new_fifo(fifo_object_key_func)
    f.add(mk_fifo_obj("x", 1))

    def requeue_after_newer(obj: Any) -> None:
        f._items["x"] = mk_fifo_obj("x", 2)  # white-box: a newer version is already queued
        f._queue.append("x")
        raise ErrRequeue(None)

    f.pop(requeue_after_newer)
    assert f.get_by_key("x") == (mk_fifo_obj("x", 2), True)


def test_delete_leaves_ghost_key() -> None:
    f = new_fifo(fifo_object_key_func)
    f.add(mk_fifo_obj("a", 1))
    f.add(mk_fifo_obj("b", 2))
    f.delete(mk_fifo_obj("a", 0))
    assert queue_state(f).queue == ("a", "b")
    assert list(queue_state(f).items) == ["b"]
    f.add(mk_fifo_obj("a", 3))  # re-added: its key is appended again
    assert queue_state(f).queue == ("a", "b", "a")
    # 1.6 quirk: the *first* "a" finds the re-added item, so "a" pops at its old place in line
    # and the trailing copy becomes the ghost.
    assert [pop(f).val, pop(f).val] == [3, 2]
    assert queue_state(f).queue == ("a",)
    assert list(queue_state(f).items) == []


def test_replace_resets_queue_and_resync_requeues() -> None:
    f = new_fifo(fifo_object_key_func)
    f.add(mk_fifo_obj("old", 0))
    f.add(mk_fifo_obj("b", 1))
    f.replace([mk_fifo_obj("b", 2), mk_fifo_obj("a", 3)], "7")
    state = queue_state(f)
    assert state.queue == ("b", "a")
    assert dict(state.items) == {"b": mk_fifo_obj("b", 2), "a": mk_fifo_obj("a", 3)}
    assert state.initial_population_count == 0  # populated by the earlier add
    f._queue.clear()  # white-box: as if both keys were lost from the line
    f.resync()
    assert queue_state(f).queue == ("b", "a")
    f.resync()  # already queued: nothing appended
    assert queue_state(f).queue == ("b", "a")


def test_debug_state_is_a_frozen_copy() -> None:
    f = new_fifo(fifo_object_key_func)
    f.add(mk_fifo_obj("a", 1))
    state = queue_state(f)
    f.add(mk_fifo_obj("b", 2))
    assert state.queue == ("a",)
    assert list(state.items) == ["a"]
    with pytest.raises(TypeError):
        state.items["c"] = 3  # type: ignore[index]
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        state.queue = ()  # type: ignore[misc]


def test_key_error() -> None:
    f = new_fifo(fifo_object_key_func)
    with pytest.raises(KeyFuncError, match=r"^couldn't create key for object 42: "):
        f.add(42)
    assert not f.has_synced()  # the failed add did not mark the queue populated


def test_err_requeue_text() -> None:
    assert str(ErrRequeue()) == "the popped item should be requeued without returning an error"
    assert str(ErrRequeue(RuntimeError("inner"))) == "inner"
