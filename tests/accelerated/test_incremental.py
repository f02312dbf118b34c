"""The accelerated engine's incremental structures equal a recomputation from scratch.

kschedlearn-only. Hypothesis drives random sequences of snapshot writes and deletions, node
lists, scores and store changes; after each, the maintained structure is compared with what
the mirror's own function (or a plain recomputation) gives.
"""

from __future__ import annotations

import attrs
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.hypothesis_budget import examples

from kschedlearn.accelerated.changelog import ChangeLogMap
from kschedlearn.accelerated.fastpath import _reduce_column, select_host, weighted_totals
from kschedlearn.accelerated.generic_scheduler import accelerate
from kschedlearn.accelerated.incremental import ColumnsView, SpreadView
from kschedlearn.accelerated.spread import SelectorMemo
from kschedlearn.api.v1 import Node, Pod, ReplicationController, Service
from kschedlearn.apimachinery._goint import int64
from kschedlearn.client_go.listers.apps.v1beta1 import StatefulSetLister
from kschedlearn.client_go.listers.core import v1 as v1listers
from kschedlearn.client_go.listers.extensions.v1beta1 import ReplicaSetLister
from kschedlearn.client_go.tools.cache.index import NAMESPACE_INDEX, meta_namespace_index_func
from kschedlearn.client_go.tools.cache.store import meta_namespace_key_func, new_indexer
from kschedlearn.scheduler.algorithm.priorities import node_affinity, selector_spreading, taint_toleration
from kschedlearn.scheduler.api.types import HostPriority
from kschedlearn.scheduler.core import generic_scheduler as mirror

NAMES = [f"n{i}" for i in range(6)]


@attrs.define(eq=False)
class _Info:
    """Just what ChangeLogMap asks of a NodeInfo."""

    value: int
    affinity: bool
    has_node: bool

    def pods_with_affinity(self) -> list[int]:
        return [1] if self.affinity else []

    def node(self) -> object | None:
        return object() if self.has_node else None


_ops = st.lists(st.tuples(st.sampled_from(["set", "del", "pop", "update", "read"]), st.sampled_from(NAMES),
                          st.integers(0, 3), st.booleans(), st.booleans()), max_size=40)


@settings(max_examples=examples(150), deadline=None)
@given(_ops)
def test_change_log_map_equals_a_replayed_dict(ops: list[tuple[str, str, int, bool, bool]]) -> None:
    """Content, the affinity / node-less sets and changed_since equal a recomputation."""
    log_map, plain = ChangeLogMap(), {}
    mark = log_map.position()
    written: set[str] = set()
    for op, name, value, affinity, has_node in ops:
        info = _Info(value, affinity, has_node)
        if op == "set":
            log_map[name] = plain[name] = info
            written.add(name)
        elif op in ("del", "pop") and name in plain:
            del plain[name]
            if op == "del":
                del log_map[name]
            else:
                log_map.pop(name)
            written.add(name)
        elif op == "update":
            log_map.update({name: info})
            plain[name] = info
            written.add(name)
        else:  # a reader catches up
            mark, written = log_map.position(), set()
        assert dict(log_map) == plain
        assert log_map.with_affinity == {n for n, i in plain.items() if i.pods_with_affinity()}
        assert log_map.nodeless == {n for n, i in plain.items() if i.node() is None}
        assert log_map.changed_since(*mark) == written


@settings(max_examples=examples(100), deadline=None)
@given(st.lists(st.tuples(st.sampled_from(NAMES), st.integers(0, 5)), max_size=30),
       st.lists(st.permutations(NAMES), min_size=1, max_size=4), st.data())
def test_node_view_refresh_equals_recomputation(writes: list[tuple[str, int]], orders: list[list[str]],
                                                data: st.DataObject) -> None:
    """After random writes and node lists, a ColumnsView holds f(info) at every position."""
    info_map = ChangeLogMap({n: _Info(0, False, True) for n in NAMES})
    nodes_by_name = {n: Node.from_dict({"metadata": {"name": n}}) for n in NAMES}
    view = ColumnsView(width=1)
    lists = [[nodes_by_name[n] for n in order[:data.draw(st.integers(1, len(NAMES)))]] for order in orders]
    current = lists[0]
    for name, value in writes:
        if data.draw(st.booleans()):
            current = data.draw(st.sampled_from(lists))
        if value == 5:
            info_map.pop(name, None)
        else:
            info_map[name] = _Info(value, False, True)

        def compute(i: int, info: _Info | None, nodes: list[Node] = current) -> None:
            view.set(i, (-1 if info is None else info.value,))

        view.refresh(info_map, current, compute)
        want = [-1 if info_map.get(n.metadata.name) is None else info_map[n.metadata.name].value for n in current]
        assert view.columns[0] == want


@settings(max_examples=examples(150), deadline=None)
@given(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 9), st.sampled_from(["", "z1", "z2"])),
                min_size=1, max_size=40))
def test_spread_view_aggregates_equal_recomputation(sets: list[tuple[int, int, str]]) -> None:
    """zone totals, zone members and (count, zone) tallies after random per-position updates."""
    view = SpreadView()
    view.reset(6)
    filled: dict[int, tuple[float, str]] = {}
    for i, count, zone in sets:
        view.set(i, float(count), zone)
        filled[i] = (float(count), zone)
        totals: dict[str, float] = {}
        members: dict[str, int] = {}
        keys: dict[tuple[float, str], int] = {}
        for c, z in filled.values():
            keys[(c, z)] = keys.get((c, z), 0) + 1
            if z:
                totals[z] = totals.get(z, 0.0) + c
                members[z] = members.get(z, 0) + 1
        assert view.zone_totals == totals
        assert view.zone_members == members
        assert view.key_counts == keys
        # every position holds the one shared tuple of its (count, zone) pair
        for j, key in filled.items():
            assert view.keys[j] == key and view.keys[j] is view.shared_keys[key]


_big = st.one_of(st.integers(-10, 10), st.integers(-(2**62), 2**62), st.integers(-(2**63), 2**63 - 1))


@settings(max_examples=examples(200), deadline=None)
@given(st.integers(1, 6).flatmap(lambda n: st.tuples(
    st.lists(st.lists(_big, min_size=n, max_size=n), min_size=1, max_size=4),
    st.lists(st.one_of(st.integers(1, 10), st.integers(1, 2**40)), min_size=4, max_size=4))))
def test_weighted_totals_equal_the_int64_loop(case: tuple[list[list[int]], list[int]]) -> None:
    """Exact where no 64-bit wrap can happen; None (the general loop) otherwise."""
    columns, weights = case
    weights = weights[:len(columns)]
    n = len(columns[0])
    want = []
    for row in zip(*columns):
        total = 0
        for s, w in zip(row, weights):
            total = int64(total + int64(s * w))
        want.append(total)
    got = weighted_totals(columns, weights, n)
    if got is not None:
        assert got == want
    else:
        assert sum(max(-min(c), max(c)) * abs(w) for c, w in zip(columns, weights)) >= 2**63


def _scheduler() -> mirror.GenericScheduler:
    return mirror.GenericScheduler(cache=None, predicates={}, predicate_meta_producer=lambda p, m: None,
                                   prioritizers=[], priority_meta_producer=lambda p, m: None)


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.tuples(st.sampled_from(NAMES + ["m0", "m1"]), st.integers(0, 3)), min_size=1, max_size=12),
       st.integers(0, 50))
def test_select_host_equals_the_mirrors(rows: list[tuple[str, int]], last: int) -> None:
    """Same host and the same round-robin counter as the mirror's sort-based selectHost."""
    a, b = _scheduler(), accelerate(_scheduler())
    a.last_node_index = b.last_node_index = last
    want = a._select_host([HostPriority(host=h, score=s) for h, s in rows])
    assert select_host(b, [s for _, s in rows], [h for h, _ in rows]) == want
    assert b.last_node_index == a.last_node_index


@settings(max_examples=examples(150), deadline=None)
@given(st.lists(st.integers(0, 30), min_size=1, max_size=20),
       st.sampled_from([node_affinity.calculate_node_affinity_priority_reduce,
                        taint_toleration.compute_taint_toleration_priority_reduce]))
def test_reduce_over_distinct_scores_equals_the_reduce(scores: list[int], reduce: object) -> None:
    """The pure reduces on the distinct values give each node what they give on the full list."""
    full = [HostPriority(host=f"h{i}", score=s) for i, s in enumerate(scores)]
    reduce(None, None, {}, full)  # type: ignore[operator]
    column, only = _reduce_column(reduce, None, None, {}, scores)
    assert column == [hp.score for hp in full]
    assert only is None or column == [only] * len(column)


def _store(objs: list[object]) -> object:
    store = new_indexer(meta_namespace_key_func, {NAMESPACE_INDEX: meta_namespace_index_func})
    for obj in objs:
        store.add(obj)
    return store


@settings(max_examples=examples(100), deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["a", "b"]), st.sampled_from(["default", "other"]),
                          st.sampled_from([{"app": "x"}, {"app": "y"}, {"tier": "t"}]), st.booleans(),
                          st.sampled_from([{"app": "x"}, {"app": "y", "tier": "t"}, {"tier": "t"}]),
                          st.sampled_from(["default", "other"])), max_size=25))
def test_selector_memo_equals_get_selectors(steps: list[tuple[str, str, dict, bool, dict, str]]) -> None:
    """getSelectors remembered per (namespace, labels) follows every Service / RC change."""
    services = _store([])
    rcs = _store([ReplicationController.from_dict({"metadata": {"name": "rc", "namespace": "default"},
                                                   "spec": {"selector": {"app": "x"}}})])
    spread = selector_spreading.SelectorSpread(
        service_lister=v1listers.ServiceLister(services, "services"),
        controller_lister=v1listers.ReplicationControllerLister(rcs, "replicationcontrollers"),
        replica_set_lister=ReplicaSetLister(_store([]), "replicasets"),
        stateful_set_lister=StatefulSetLister(_store([]), "statefulsets"))
    memo = SelectorMemo()
    for name, namespace, selector, add, pod_labels, pod_namespace in steps:
        svc = Service.from_dict({"metadata": {"name": name, "namespace": namespace}, "spec": {"selector": selector}})
        if add:
            services.update(svc)
        else:
            services.delete(svc)
        pod = Pod.from_dict({"metadata": {"name": "p", "namespace": pod_namespace, "labels": pod_labels}})
        assert memo.selectors(spread, pod) == spread._get_selectors(pod)


def test_the_mirror_methods_verdict_follows_every_swap_of_a_cache_method(monkeypatch) -> None:
    # the verdict is remembered between pods; a swapped method, or a probe's function swapped
    # under it, must give the mirror's whole walk again (and the mirror's own back, the memo)
    from kschedlearn.accelerated.changelog import _mirror_methods
    from kschedlearn.observe.wrap import behind_probe, global_probe, release
    from kschedlearn.scheduler.schedulercache.cache import SchedulerCache

    cache = object.__new__(SchedulerCache)  # the verdict reads the class only
    assert _mirror_methods(cache) and _mirror_methods(cache)
    with monkeypatch.context() as patch:
        patch.setattr(SchedulerCache, "assume_pod", lambda self, pod: None)
        assert not _mirror_methods(cache)
    assert _mirror_methods(cache)
    probe = global_probe(SchedulerCache, "forget_pod")
    probe.users += 1
    try:
        assert _mirror_methods(cache)  # a probe in front of the mirror's own function
        with behind_probe(probe, lambda self, pod: None):
            assert not _mirror_methods(cache)
        assert _mirror_methods(cache)
    finally:
        release(probe)
    assert SchedulerCache.__dict__["forget_pod"] is probe.original


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.tuples(st.integers(1, 4), st.lists(st.one_of(st.none(), st.integers(0, 3)), min_size=3, max_size=3),
                          st.lists(st.integers(0, 3), min_size=3, max_size=3)), min_size=1, max_size=12))
def test_kept_columns_with_known_constants_equal_the_copied_columns(
        pods: list[tuple[int, list[int | None], list[int]]]) -> None:
    """Per pod: three columns of ``n`` nodes, each either constant (its one score handed in as
    the engine knows it) or varying. The kept tuples equal the columns; a kept tuple is the last
    pod's own while equal to it, as the copies compared one by one keep them."""
    from kschedlearn.accelerated.generic_scheduler import AcceleratedScheduler

    def engine() -> AcceleratedScheduler:
        return AcceleratedScheduler(cache=None, predicates={}, predicate_meta_producer=None, prioritizers=[],
                                    priority_meta_producer=None)

    with_constants, copied = engine(), engine()
    for n, constants, seeds in pods:
        columns = [[value] * n if value is not None else [(seed + k) % 4 for k in range(n)]
                   for value, seed in zip(constants, seeds)]
        known = {i: value for i, value in enumerate(constants) if value is not None}
        before = with_constants.columns_memo
        kept = with_constants._kept_columns([list(c) for c in columns], known)
        reference = copied._kept_columns([list(c) for c in columns])
        assert kept == reference == tuple(map(tuple, columns))
        for i, column in enumerate(kept):
            assert all(type(v) is int for v in column)
            if len(before) == len(kept) and before[i] == column:
                assert column is before[i]
