"""Hypothesis properties of DeltaFIFO (v1.6.1 semantics, no compressor).

Go: https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/delta_fifo.go

Invariants derived from the code (checked after every operation):
- every stored Deltas is non-empty;
- no Deltas holds two consecutive ``Deleted`` deltas (``_dedup_deltas`` runs on every append)
  and no ``Sync`` directly follows a ``Deleted`` (``queueActionLocked`` drops it);
- without a compressor there are no ghosts: the line holds each key at most once and exactly
  the keys that have Deltas (Pop removes both together; keys are appended only when new);
- once ``has_synced`` is true it stays true.
After a ``replace(list)``: every listed key has deltas, ending in ``Sync`` of the listed object
unless a deletion was already queued; every key that vanished (queued-but-unlisted without
known objects, known-but-unlisted with them) ends in a ``Deleted`` delta.
After a ``resync`` every known key has deltas.

Random sequences of add/update/delete/replace/resync/pop/requeue/add_if_not_present run with and
without ``known_objects``; with them, the popper applies the deltas to the known store as the
informer's controller does, so the known store follows the queue like in production.
"""

from __future__ import annotations

from typing import Any

import attrs
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.hypothesis_budget import examples

from kschedlearn import sim
from kschedlearn.observe.views import queue_state
from kschedlearn.client_go.tools.cache import (
    DELETED,
    SYNC,
    DeletedFinalStateUnknown,
    DeltaFIFO,
    Deltas,
    ErrRequeue,
    new_delta_fifo,
    new_store,
)

NAMES = ["a", "b", "c", "d"]


@attrs.frozen
class Obj:
    name: str
    val: int


def obj_key(obj: Any) -> str:
    return obj.name


def known_key(obj: Any) -> str:
    # The informer's store keys tombstones by their key (DeletionHandlingMetaNamespaceKeyFunc).
    return obj.key if isinstance(obj, DeletedFinalStateUnknown) else obj.name


names = st.sampled_from(NAMES)
objs = st.builds(Obj, names, st.integers(0, 99))
ops = st.one_of(
    st.tuples(st.just("add"), objs),
    st.tuples(st.just("update"), objs),
    st.tuples(st.just("delete"), objs),
    st.tuples(st.just("replace"), st.lists(objs, max_size=4, unique_by=lambda o: o.name)),
    st.tuples(st.just("resync"), st.none()),
    st.tuples(st.just("pop"), st.none()),
    st.tuples(st.just("requeue"), st.none()),
    st.tuples(st.just("readd"), st.none()),
)


def check_invariants(f: DeltaFIFO) -> None:
    state = queue_state(f)
    assert len(state.queue) == len(set(state.queue)), f"duplicate key in line {state.queue}"
    assert set(state.queue) == set(state.items), "line and items disagree (ghost without compressor)"
    for key, deltas in state.items.items():
        assert isinstance(deltas, Deltas) and len(deltas) > 0, f"empty Deltas for {key}"
        for older, newer in zip(deltas, deltas[1:]):
            assert not (older.type == DELETED and newer.type == DELETED), f"double delete {deltas}"
            assert not (older.type == DELETED and newer.type == SYNC), f"sync after delete {deltas}"
        assert f.key_of(deltas) == key


def apply_to_known(known: Any, deltas: Deltas) -> None:
    """What the informer's Process does with a popped Deltas (oldest first)."""
    for d in deltas:
        if d.type == DELETED:
            known.delete(d.object)
        else:
            known.add(d.object)


def run_op(f: DeltaFIFO, known: Any, op: str, arg: Any, popped: list[Deltas]) -> None:
    state = queue_state(f)
    if op in ("add", "update", "delete"):
        getattr(f, op)(arg)
    elif op == "replace":
        before = dict(state.items)
        f.replace(arg, "1")
        check_replace(f, known, arg, before)
    elif op == "resync":
        if known is None:
            return  # Go v1.6.1 panics on a nil knownObjects (tested elsewhere)
        f.resync()
        assert set(known.list_keys()) <= set(queue_state(f).items)
    elif op in ("pop", "requeue"):
        if not state.queue:
            try:
                f.pop(lambda item: None)
            except sim.WouldBlockError:
                return
            raise AssertionError("pop on an empty queue outside a goroutine must not succeed")
        head = state.queue[0]

        def process(item: Deltas) -> None:
            assert item == state.items[head]
            if op == "requeue":
                raise ErrRequeue(None)
            if known is not None:
                apply_to_known(known, item)

        got = f.pop(process)
        assert got == state.items[head]
        if op == "requeue":
            assert queue_state(f).queue[-1] == head and f.get_by_key(head) == (got, True)
        else:
            assert f.get_by_key(head) == (None, False)
            popped.append(got)
    elif op == "readd" and popped:
        deltas = popped.pop()
        key = f.key_of(deltas)
        had = f.get_by_key(key)
        f.add_if_not_present(deltas)
        assert f.get_by_key(key) == (had if had[1] else (deltas, True))


def check_replace(f: DeltaFIFO, known: Any, listed: list[Obj], before: dict[str, Deltas]) -> None:
    items = queue_state(f).items
    listed_keys = {o.name for o in listed}
    for o in listed:
        last = items[o.name][-1]
        was_deleting = o.name in before and before[o.name][-1].type == DELETED
        assert last.type == (DELETED if was_deleting else SYNC)
        if not was_deleting:
            assert last.object == o
    vanished = (set(known.list_keys()) if known is not None else set(before)) - listed_keys
    for key in vanished:
        assert items[key][-1].type == DELETED, f"{key} vanished but is not being deleted"


@settings(max_examples=examples(300), deadline=None)
@given(with_known=st.booleans(), steps=st.lists(ops, max_size=30))
def test_delta_fifo_invariants(with_known: bool, steps: list[tuple[str, Any]]) -> None:
    known = new_store(known_key) if with_known else None
    f = new_delta_fifo(obj_key, None, known)
    popped: list[Deltas] = []
    synced = False
    for op, arg in steps:
        run_op(f, known, op, arg, popped)
        check_invariants(f)
        now_synced = f.has_synced()
        assert not (synced and not now_synced), "has_synced went back to False"
        synced = now_synced


@settings(max_examples=examples(200), deadline=None)
@given(steps=st.lists(st.tuples(st.sampled_from(["add", "update", "delete"]), objs), max_size=25))
def test_pop_order_is_first_enqueue_order(steps: list[tuple[str, Obj]]) -> None:
    """Without known objects, keys pop in the order they first got a delta, each with its
    newest object last; a delete of a key with nothing queued is dropped."""
    f = new_delta_fifo(obj_key, None, None)
    order: list[str] = []
    newest: dict[str, Obj] = {}
    for op, o in steps:
        if op == "delete" and o.name not in newest:
            f.delete(o)
            assert o.name not in queue_state(f).items
            continue
        getattr(f, op)(o)
        if o.name not in newest:
            order.append(o.name)
        # A second Deleted in a row is deduped away and keeps the older object.
        last = f.get_by_key(o.name)[0][-1]
        newest[o.name] = last.object
    for key in order:
        deltas = f.pop(lambda item: None)
        assert f.key_of(deltas) == key
        assert deltas.newest().object == newest[key]
    assert queue_state(f).queue == ()
