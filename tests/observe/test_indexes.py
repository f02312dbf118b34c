"""The cache's and the queues' views kept from their changes equal views rebuilt from scratch.

kschedlearn-only (issue 25, teaching mode at cluster scale). ``observe/indexes.py`` applies only
the keys a watched call may have changed to an ordered index of views; these tests run random
sequences of cache and queue operations — valid and invalid ones, views taken between them, in
the middle of a Pop (from ``process``) and after a requeue — and compare every indexed view with
the one rebuilt from the live object, element by element and through the JSON export. They also
check the chunked sequences (``trace/chunks.py``) the parts are made of.
"""

from __future__ import annotations

import json
import random
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.hypothesis_budget import examples

from kschedlearn import sim
from kschedlearn.api.resource import must_parse
from kschedlearn.api.v1.meta import ObjectMeta
from kschedlearn.api.v1.node import Node, NodeStatus
from kschedlearn.api.v1.pod import Container, Pod, PodSpec, ResourceRequirements
from kschedlearn.client_go.tools.cache import DeletedFinalStateUnknown, ErrRequeue, new_delta_fifo, new_store
from kschedlearn.client_go.tools.cache.fifo import new_fifo
from kschedlearn.observe.indexes import (CACHE_INDEX, QUEUE_INDEX, LoggedLine, indexed_cache_state, indexed_queue_view,
                                        quiet_queue_view)
from kschedlearn.observe.sharing import watch_cache, watch_of, watch_queue
from kschedlearn.observe.views import CACHE_MEMO, cache_state, queue_state
from kschedlearn.scheduler.schedulercache.cache import SchedulerCache, _new_scheduler_cache
from kschedlearn.trace.attrs_json import encode
from kschedlearn.trace.chunks import CHUNK, Chunks, LineChunks, OrderedChunks, SortedChunks, chunk_size
from kschedlearn.trace.snapshot import QueueView


def make_base_pod(node_name: str, name: str, cpu: str, mem: str, *, namespace: str) -> Pod:
    """One container requesting ``cpu`` / ``mem`` (Go: cache_test.go's makeBasePod)."""
    req = {"cpu": must_parse(cpu), "memory": must_parse(mem)}
    return Pod(metadata=ObjectMeta(namespace=namespace, name=name),
               spec=PodSpec(containers=(Container(resources=ResourceRequirements(requests=req)),),
                            node_name=node_name))


def make_node(name: str, cpu: str, mem: str) -> Node:
    """A node with that much allocatable CPU and memory."""
    return Node(metadata=ObjectMeta(name=name),
                status=NodeStatus(allocatable={"cpu": must_parse(cpu), "memory": must_parse(mem)}))


# -- the chunked sequences ----------------------------------------------------------------------

def test_chunks_behave_as_the_tuple_of_their_elements() -> None:
    flat = tuple(range(3 * CHUNK + 5))
    c = Chunks.of(flat)
    assert len(c) == len(flat) and tuple(c) == flat and list(reversed(c)) == list(reversed(flat))
    assert c == flat and flat == c and hash(c) == hash(flat) and not (c != flat)
    assert c[0] == 0 and c[-1] == flat[-1] and c[CHUNK] == CHUNK and c[5:9] == flat[5:9]
    assert (CHUNK + 1) in c and -1 not in c and c.index(7) == 7
    with pytest.raises(IndexError):
        c[len(flat)]  # noqa: B018 - the IndexError is the point
    other = Chunks((flat[:10], flat[10:]))  # other boundaries, same elements
    assert other == c and c == other
    assert Chunks.of(flat[:-1] + (-1,)) != c and c != flat[:-1] and Chunks(()) == ()
    assert encode(c) == list(flat) and json.dumps(encode({"x": c})) == json.dumps({"x": list(flat)})


@settings(max_examples=examples(150), deadline=None)
@given(ops=st.lists(st.tuples(st.sampled_from(["set", "del", "move"]), st.integers(0, 200)), max_size=400),
       every=st.integers(1, 20))
def test_ordered_chunks_follow_a_dict_from_its_touched_keys(ops: list[tuple[str, int]], every: int) -> None:
    live: dict[int, tuple[int, int]] = {}
    index: OrderedChunks[int, Any] = OrderedChunks()
    touched: set[int] = set()
    for step, (op, k) in enumerate(ops):
        if op == "set":
            live[k] = (k, step)  # in place when present, at the end when new
        elif op == "del":
            live.pop(k, None)
        else:  # delete and insert again: to the end
            live.pop(k, None)
            live[k] = (k, step)
        touched.add(k)
        if step % every == 0:
            assert index.sync(live, touched, lambda key, value, old: old if old == value else value)
            touched = set()
            frozen = index.freeze()
            assert frozen == tuple(live.values()) and list(index.keys()) == list(live)
            assert index.freeze() is frozen  # nothing changed since: the same object


def test_ordered_chunks_share_every_chunk_a_change_did_not_touch() -> None:
    live = {i: i for i in range(10 * CHUNK)}
    index: OrderedChunks[int, int] = OrderedChunks()
    index.reset(live.items())
    before = index.freeze()
    live[5 * CHUNK + 3] = -1
    del live[2]
    live[10 * CHUNK] = 7
    assert index.sync(live, {5 * CHUNK + 3, 2, 10 * CHUNK}, lambda k, v, old: v)
    after = index.freeze()
    assert after == tuple(live.values())
    kept = [a is b for a, b in zip(before.chunks, after.chunks)]
    assert kept.count(False) == 2 and len(after.chunks) == 11  # chunks 0 and 5 changed, a new last one


def test_a_key_inserted_unseen_before_an_untouched_one_is_refused() -> None:
    index: OrderedChunks[str, int] = OrderedChunks()
    index.reset([("a", 1)])
    live = {"b": 2, "a": 1}  # "b" came before "a" without "a" being touched: not a dict's history
    assert not index.sync(live, {"b"}, lambda k, v, old: v)


@settings(max_examples=examples(150), deadline=None)
@given(ops=st.lists(st.tuples(st.booleans(), st.integers(0, 400)), max_size=600))
def test_sorted_chunks_equal_the_sorted_views(ops: list[tuple[bool, int]]) -> None:
    model: dict[str, int] = {}
    index: SortedChunks[str, int] = SortedChunks()
    for i, (put, k) in enumerate(ops):
        key = f"k{k:04d}"
        if put:
            model[key] = i
            index.set(key, i)
        else:
            model.pop(key, None)
            index.delete(key)
        if i % 7 == 0:
            assert index.freeze() == tuple(model[k] for k in sorted(model))
    assert index.freeze() == tuple(model[k] for k in sorted(model))


def test_chunks_grow_to_about_the_square_root_of_the_length() -> None:
    ordered: OrderedChunks[int, int] = OrderedChunks()
    ordered_frozen = ordered.freeze()
    keys = list(range(20_000))
    random.Random(3).shuffle(keys)
    by_key: SortedChunks[int, int] = SortedChunks()
    for i, k in enumerate(keys):
        ordered.set(k, -k)
        by_key.set(k, -k)
        if i % 997 == 0:
            ordered_frozen = ordered.freeze()
    ordered_frozen = ordered.freeze()
    assert tuple(ordered_frozen) == tuple(-k for k in keys)
    assert tuple(by_key.freeze()) == tuple(-k for k in sorted(keys))
    for frozen in (ordered_frozen, by_key.freeze()):
        sizes = [len(c) for c in frozen.chunks]
        assert len(sizes) <= 4 * chunk_size(20_000) and max(sizes) <= 4 * chunk_size(20_000), sizes[:5]


@settings(max_examples=examples(200), deadline=None)
@given(ops=st.lists(st.tuples(st.sampled_from(["pop", "push", "push", "poke", "look"]), st.integers(0, 12)),
                    max_size=120), start=st.integers(0, 300))
def test_line_chunks_follow_a_line_and_refuse_anything_else(ops: list[tuple[str, int]], start: int) -> None:
    live = [f"k{i % 17}" for i in range(start)]  # repeated keys, as ghosts make them
    line: LineChunks[str] = LineChunks()
    line.reset(live)
    poked = False
    for op, n in ops:
        if op == "pop":
            del live[:n]
        elif op == "push":
            live.extend(f"k{(n + j) % 17}" for j in range(n % 4 + 1))
        elif op == "poke" and live:  # not a FIFO's change: the middle of the line
            live[len(live) // 2] = "other"
            poked = True
        if op == "look" or n % 3 == 0:
            if not line.sync(live):
                assert poked, "a front-and-end change was refused"
                line.reset(live)
            poked = False
            assert line.freeze() == tuple(live)


def test_line_chunks_share_the_middle_of_a_long_line() -> None:
    live = [f"ns/p{i:05d}" for i in range(30_000)]
    line: LineChunks[str] = LineChunks()
    line.reset(live)
    before = line.freeze()
    del live[:3]
    live.append("ns/new")
    assert line.sync(live)
    after = line.freeze()
    assert after == tuple(live)
    shared = {id(c) for c in before.chunks}
    assert sum(id(c) not in shared for c in after.chunks) == 2  # the first and the last chunk only
    assert len(after.chunks) <= 2 + len(live) // chunk_size(len(live))


# -- the scheduler cache ------------------------------------------------------------------------

NAMES = ("p0", "p1", "p2", "p3", "p4")
NODES = ("n0", "n1", "n2")
NS = "ns"


def _fresh_cache_state(cache: SchedulerCache) -> Any:
    saved = CACHE_MEMO.pop(cache, None)
    try:
        return cache_state(cache)
    finally:
        CACHE_MEMO.pop(cache, None)
        if saved is not None:
            CACHE_MEMO[cache] = saved


def _same(indexed: Any, fresh: Any) -> None:
    assert indexed == fresh
    assert json.dumps(encode(indexed), sort_keys=True) == json.dumps(encode(fresh), sort_keys=True)


cache_ops = st.lists(st.tuples(
    st.sampled_from(["assume", "finish", "forget", "add", "add_moved", "update", "remove", "add_node",
                     "update_node", "remove_node", "cleanup", "view"]),
    st.sampled_from(NAMES), st.sampled_from(NODES), st.sampled_from(("100m", "1", "250m"))), max_size=60)


@settings(max_examples=examples(200), deadline=None)
@given(ops=cache_ops)
def test_indexed_cache_view_equals_the_full_rebuild(ops: list[tuple[str, str, str, str]]) -> None:
    cache = watch_cache(_new_scheduler_cache(30.0, 1.0, None))
    now = 0.0
    last = indexed_cache_state(cache)
    for op, name, node, cpu in ops:
        pod = make_base_pod(node, name, cpu, "64Mi", namespace=NS)
        stored = cache._pod_states.get(f"{NS}/{name}")
        try:
            if op == "assume":
                cache.assume_pod(pod)
            elif op == "finish":
                cache._finish_binding(stored.pod if stored else pod, now)
            elif op == "forget":
                cache.forget_pod(stored.pod if stored else pod)
            elif op == "add":
                cache.add_pod(stored.pod if stored else pod)
            elif op == "add_moved":  # confirmed on another node than assumed (the 1.6 stale copy)
                cache.add_pod(pod)
            elif op == "update":
                cache.update_pod(stored.pod if stored else pod, make_base_pod(
                    stored.pod.spec.node_name if stored else node, name, cpu, "1Mi", namespace=NS))
            elif op == "remove":
                cache.remove_pod(stored.pod if stored else pod)
            elif op == "add_node":
                cache.add_node(make_node(node, "4", "8Gi"))
            elif op == "update_node":
                cache.update_node(None, make_node(node, cpu, "4Gi"))
            elif op == "remove_node":
                cache.remove_node(make_node(node, "4", "8Gi"))
            elif op == "cleanup":
                now += 20.0
                cache._cleanup_assumed_pods(now)
        except BaseException:  # noqa: BLE001 - invalid operations (Go errors, 1.6 panics) change nothing
            pass
        if op != "cleanup" or name != "p0":  # now and then two operations between views
            view = indexed_cache_state(cache)
            _same(view, _fresh_cache_state(cache))
            if view == last:
                assert view is last  # nothing changed: the previous part itself
            last = view
    _same(indexed_cache_state(cache), _fresh_cache_state(cache))


def test_a_cache_view_shares_every_unchanged_chunk_and_rebuilds_only_at_first() -> None:
    cache = watch_cache(_new_scheduler_cache(30.0, 1.0, None))
    for i in range(40):
        cache.add_node(make_node(f"n{i:02d}", "4", "8Gi"))
    for i in range(8 * CHUNK):
        cache.add_pod(make_base_pod(f"n{i % 40:02d}", f"p{i:04d}", "10m", "1Mi", namespace=NS))
    first = indexed_cache_state(cache)
    pod = make_base_pod("n07", "new", "10m", "1Mi", namespace=NS)
    cache.assume_pod(pod)
    second = indexed_cache_state(cache)
    cache._finish_binding(pod, 1.0)
    third = indexed_cache_state(cache)
    _same(third, _fresh_cache_state(cache))
    new_chunks = [c for c in third.pod_states.chunks if all(c is not d for d in first.pod_states.chunks)]
    assert len(new_chunks) == 1  # only the last chunk (the new pod) differs
    assert sum(a is not b for a, b in zip(second.nodes, third.nodes)) == 0  # finish binding: no NodeInfo moved
    assert sum(a is not b for a, b in zip(first.nodes, second.nodes)) == 1  # n07 only
    assert CACHE_INDEX[cache].rebuilds == 1


def test_a_cache_class_with_another_method_is_built_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    class Learners(SchedulerCache):
        def assume_pod(self, pod: Any) -> None:  # a subclass's version
            SchedulerCache.assume_pod(self, pod)

    cache = watch_cache(Learners(stop=None, ttl=30.0, period=1.0))
    cache.assume_pod(make_base_pod("n0", "a", "1", "1Mi", namespace=NS))
    _same(indexed_cache_state(cache), _fresh_cache_state(cache))
    assert cache not in CACHE_INDEX  # never indexed

    plain = watch_cache(_new_scheduler_cache(30.0, 1.0, None))
    plain.assume_pod(make_base_pod("n0", "a", "1", "1Mi", namespace=NS))
    _same(indexed_cache_state(plain), _fresh_cache_state(plain))
    original = SchedulerCache.forget_pod

    def learners_forget(self: SchedulerCache, pod: Any) -> None:  # an exercise swaps it onto the class
        original(self, pod)
        self._pod_states["ns/unseen"] = self._pod_states["ns/b"]  # a change no key says

    monkeypatch.setattr(SchedulerCache, "forget_pod", learners_forget)
    plain.assume_pod(make_base_pod("n1", "b", "1", "1Mi", namespace=NS))
    _same(indexed_cache_state(plain), _fresh_cache_state(plain))
    plain.forget_pod(make_base_pod("n0", "a", "1", "1Mi", namespace=NS))
    _same(indexed_cache_state(plain), _fresh_cache_state(plain))
    monkeypatch.undo()
    plain.remove_node  # noqa: B018 - the mirror's methods again: indexed again, rebuilt once
    rebuilds = CACHE_INDEX[plain].rebuilds
    plain.assume_pod(make_base_pod("n2", "c", "1", "1Mi", namespace=NS))
    _same(indexed_cache_state(plain), _fresh_cache_state(plain))
    assert CACHE_INDEX[plain].rebuilds == rebuilds + 1


# -- the queues ---------------------------------------------------------------------------------

@attrs.frozen
class Obj:
    name: str
    val: int


def _key(obj: Any) -> str:
    return obj.key if isinstance(obj, DeletedFinalStateUnknown) else obj.name


def _fresh_queue_view(queue: Any, kind: str) -> QueueView:
    return QueueView.of(queue_state(queue), kind)


queue_ops = st.lists(st.tuples(
    st.sampled_from(["add", "update", "delete", "pop", "pop_view", "requeue", "readd", "replace", "resync",
                     "view"]),
    st.sampled_from("abcdef"), st.integers(0, 9)), max_size=60)


@settings(max_examples=examples(200), deadline=None)
@given(delta=st.booleans(), known=st.booleans(), ops=queue_ops)
def test_indexed_queue_view_equals_the_full_rebuild(delta: bool, known: bool, ops: list[tuple[str, str, int]]) -> None:
    kind = "DeltaFIFO" if delta else "FIFO"
    store = new_store(_key) if known else None
    queue = watch_queue(new_delta_fifo(_key, None, store) if delta else new_fifo(_key))
    popped: list[Any] = []
    last = indexed_queue_view(queue, kind)

    def check() -> QueueView:
        fresh = _fresh_queue_view(queue, kind)
        quiet = quiet_queue_view(queue, watch_of(queue), kind)  # (a snapshot source asks it first)
        assert quiet is None or quiet == fresh
        view = indexed_queue_view(queue, kind)
        assert view == fresh and json.dumps(encode(view)) == json.dumps(encode(fresh))
        return view

    for op, name, val in ops:
        obj = Obj(name, val)
        if op in ("add", "update", "delete"):
            getattr(queue, op)(obj)
        elif op in ("pop", "pop_view", "requeue") and queue_state(queue).items:
            def process(item: Any, op: str = op) -> None:
                if op == "pop_view":
                    check()  # a snapshot while Pop runs process: the item has just left
                if op == "requeue":
                    raise ErrRequeue(None)
                if store is not None and delta:
                    for d in item:
                        (store.delete if d.type == "Deleted" else store.add)(d.object)

            popped.append(queue.pop(process))
        elif op == "readd" and popped:
            queue.add_if_not_present(popped.pop())
        elif op == "replace":
            queue.replace([Obj(n, val) for n in "abc"[: val % 4]], str(val))
        elif op == "resync" and delta and store is not None:
            queue.resync()
        view = check()
        if view == last:
            assert view is last
        last = view


def test_quiet_queue_view_is_the_last_view_until_the_queue_moves() -> None:
    """teach4: a snapshot source's cheap answer is the index's last view while nothing moved;
    None (build) before the first view, for another kind, after a watched call, and when the
    line moved without one (ghost keys leaving its front)."""
    queue = watch_queue(new_fifo(_key))
    for name in "ab":
        queue.add(Obj(name, 1))
    w = watch_of(queue)
    assert w is not None and quiet_queue_view(queue, w, "FIFO") is None
    view = indexed_queue_view(queue, "FIFO")
    assert quiet_queue_view(queue, w, "FIFO") is view
    assert quiet_queue_view(queue, w, "DeltaFIFO") is None
    queue.add(Obj("c", 1))
    assert quiet_queue_view(queue, w, "FIFO") is None
    view = indexed_queue_view(queue, "FIFO")
    assert view == _fresh_queue_view(queue, "FIFO") and quiet_queue_view(queue, w, "FIFO") is view
    queue._queue.append("ghost")  # (a key without an item, as Delete leaves in a FIFO's line)
    assert quiet_queue_view(queue, w, "FIFO") is None
    assert indexed_queue_view(queue, "FIFO") == _fresh_queue_view(queue, "FIFO")


def test_queue_view_after_a_pop_shares_the_other_items() -> None:
    queue = watch_queue(new_fifo(_key))
    for i in range(5 * CHUNK):
        queue.add(Obj(f"k{i:04d}", i))
    before = indexed_queue_view(queue, "FIFO")
    queue.pop(lambda item: None)
    after = indexed_queue_view(queue, "FIFO")
    assert after == _fresh_queue_view(queue, "FIFO")
    assert sum(a is not b for a, b in zip(before.items.chunks, after.items.chunks)) == 1
    assert QUEUE_INDEX[queue].rebuilds == 1


def test_a_follower_switched_on_during_a_pop_rebuilds_until_the_queue_is_idle() -> None:
    queue = watch_queue(new_fifo(_key))
    for name in "abc":
        queue.add(Obj(name, 1))
    seen: list[QueueView] = []

    def process(item: Any) -> None:
        seen.append(indexed_queue_view(queue, "FIFO"))  # the first view, while Pop runs
        assert seen[-1] == _fresh_queue_view(queue, "FIFO")

    queue.pop(process)
    queue.add(Obj("d", 1))
    assert indexed_queue_view(queue, "FIFO") == _fresh_queue_view(queue, "FIFO")
    assert QUEUE_INDEX[queue].rebuilds == 2  # the one inside Pop, the first one after it
    queue.add(Obj("e", 1))
    assert indexed_queue_view(queue, "FIFO") == _fresh_queue_view(queue, "FIFO")
    assert QUEUE_INDEX[queue].rebuilds == 2


def test_a_popper_blocked_in_pop_sees_the_adds() -> None:
    queue = watch_queue(new_fifo(_key))
    views: list[bool] = []

    def main() -> None:
        def producer() -> None:
            for i in range(3):
                queue.add(Obj(f"x{i}", i))
                views.append(indexed_queue_view(queue, "FIFO") == _fresh_queue_view(queue, "FIFO"))
                sim.yield_now()

        indexed_queue_view(queue, "FIFO")
        sim.go(producer)
        for _ in range(3):
            queue.pop(lambda item: views.append(
                indexed_queue_view(queue, "FIFO") == _fresh_queue_view(queue, "FIFO")))

    sim.Runtime(seed=0).run_fn(main)
    assert views and all(views)


def test_a_popper_blocked_before_the_follower_is_followed_once_it_hands_an_item() -> None:
    queue = watch_queue(new_fifo(_key))
    views: list[bool] = []

    def main() -> None:
        def popper() -> None:
            for _ in range(20):
                queue.pop(lambda item: views.append(
                    indexed_queue_view(queue, "FIFO") == _fresh_queue_view(queue, "FIFO")))

        sim.go(popper)
        sim.yield_now()  # the popper now waits inside Pop, with no follower yet
        views.append(indexed_queue_view(queue, "FIFO") == _fresh_queue_view(queue, "FIFO"))
        for i in range(20):
            queue.add(Obj(f"x{i}", i))
            views.append(indexed_queue_view(queue, "FIFO") == _fresh_queue_view(queue, "FIFO"))
            sim.yield_now()

    sim.Runtime(seed=0).run_fn(main)
    assert len(views) == 41 and all(views)
    assert QUEUE_INDEX[queue].rebuilds == 1  # the first view only: the blocked Pop changed nothing unseen


def test_logged_line_counts_front_pops_and_breaks_on_anything_else() -> None:
    line = LoggedLine(["a", "b", "c"])
    line.append("d")
    assert line.pop(0) == "a" and line.pop(0) == "b" and line.take() == 2 and line.take() == 0
    assert not line.broken and line == ["c", "d"] and isinstance(line, list)
    for change in (lambda x: x.clear(), lambda x: x.insert(0, "z"), lambda x: x.pop(),
                   lambda x: x.__setitem__(0, "z"), lambda x: x.__delitem__(0), lambda x: x.remove("d")):
        other = LoggedLine(["c", "d"])
        change(other)
        assert other.broken


def test_a_followed_queue_line_is_logged_and_replace_rebuilds_it() -> None:
    queue = watch_queue(new_fifo(_key))
    for name in "abc":
        queue.add(Obj(name, 1))
    indexed_queue_view(queue, "FIFO")
    assert isinstance(queue._queue, LoggedLine)
    queue.pop(lambda item: None)
    queue.add(Obj("d", 1))
    assert indexed_queue_view(queue, "FIFO") == _fresh_queue_view(queue, "FIFO")
    rebuilds = QUEUE_INDEX[queue].rebuilds
    queue.replace([Obj("x", 1), Obj("y", 2)], "7")  # clear + extend: the line log is broken
    assert indexed_queue_view(queue, "FIFO") == _fresh_queue_view(queue, "FIFO")
    assert QUEUE_INDEX[queue].rebuilds == rebuilds + 1
