"""What the accelerated engine remembers between pods of a class equals a recomputation.

kschedlearn-only (``kschedlearn/accelerated/plans.py``, the counting-on of
``spread.SpreadCounts``, the reduce tables of ``fastpath._reduce_column`` and the slot of
``spread.SelectorMemo``). Hypothesis drives random node histories, pods and policies; after each
step the remembered answer is compared with what the mirror's own functions give.
"""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.hypothesis_budget import examples

from kschedlearn.accelerated import fast_paths
from kschedlearn.accelerated.fastpath import _reduce_column, priority_kinds
from kschedlearn.accelerated.generic_scheduler import (
    PURE_REDUCES,
    _map_is_local,
    _predicate_is_local,
    accelerate,
    equivalence_key,
)
from kschedlearn.accelerated.plans import Plans
from kschedlearn.accelerated.spread import SelectorMemo, SpreadCounts, _recount
from kschedlearn.api.v1 import Pod, Service
from kschedlearn.api.v1.meta import ObjectMeta
from kschedlearn.api.v1.others import ReplicaSet, ReplicaSetSpec
from kschedlearn.apimachinery.apis.meta.v1 import LabelSelector, LabelSelectorRequirement
from kschedlearn.client_go.listers.apps.v1beta1 import StatefulSetLister
from kschedlearn.client_go.listers.core import v1 as v1listers
from kschedlearn.client_go.listers.extensions.v1beta1 import ReplicaSetLister
from kschedlearn.client_go.tools.cache.index import NAMESPACE_INDEX, meta_namespace_index_func
from kschedlearn.client_go.tools.cache.store import meta_namespace_key_func, new_indexer
from kschedlearn.scheduler.algorithm.predicates import predicates as preds
from kschedlearn.scheduler.algorithm.predicates.metadata import PredicateMetadataFactory
from kschedlearn.scheduler.algorithm.priorities import node_affinity, selector_spreading, taint_toleration
from kschedlearn.scheduler.algorithm.types import PriorityConfig
from kschedlearn.scheduler.api.types import HostPriority
from kschedlearn.scheduler.core import generic_scheduler as mirror
from kschedlearn.scheduler.schedulercache.node_info import new_node_info
from kschedlearn.scheduler.testing import FakeControllerLister, FakeReplicaSetLister, FakeServiceLister
from kschedlearn.scheduler.testing import FakeStatefulSetLister

KEYS = st.sampled_from(["app", "tier"])
VALUES = st.sampled_from(["a", "b"])
LABELS = st.dictionaries(KEYS, VALUES, max_size=2)
NAMESPACES = st.sampled_from(["default", "other"])
F32_EXACT = 2 ** 24


@pytest.fixture(autouse=True, scope="module")
def _fast_paths_in_place():
    """The fast paths are put in place by whoever wants them (a world, a benchmark): here."""
    lease = fast_paths.acquire()
    yield
    lease.release()


# ---------------------------------------------------------------------------------------------
# SelectorSpread's count, counted on over appended pods
# ---------------------------------------------------------------------------------------------
def _pod(i: int, namespace: str, labels: dict[str, str], deleted: bool) -> Pod:
    return Pod(metadata=ObjectMeta(name=f"p{i}", namespace=namespace, labels=labels,
                                   deletion_timestamp=1.0 if deleted else None))


_pods = st.builds(lambda ns, labels, deleted: (ns, labels, deleted), NAMESPACES, LABELS, st.booleans())


def _selectors(spread: selector_spreading.SelectorSpread, pod: Pod) -> list[object]:
    return spread._get_selectors(pod)


@st.composite
def _spreads(draw: st.DrawFn) -> selector_spreading.SelectorSpread:
    services = [Service.from_dict({"metadata": {"name": f"s{k}", "namespace": "default"}, "spec": {"selector": sel}})
                for k, sel in enumerate(draw(st.lists(st.dictionaries(KEYS, VALUES, min_size=1, max_size=2),
                                                      min_size=1, max_size=2)))]
    rss = []
    if draw(st.booleans()):  # a selector that is not equality-only: the mirror's matches path
        rss.append(ReplicaSet(metadata=ObjectMeta(name="rs", namespace="default"), spec=ReplicaSetSpec(
            selector=LabelSelector(match_expressions=(LabelSelectorRequirement(key="app", operator="NotIn",
                                                                               values=("b",)),)))))
    return selector_spreading.SelectorSpread(
        service_lister=FakeServiceLister(services), controller_lister=FakeControllerLister([]),
        replica_set_lister=FakeReplicaSetLister(rss), stateful_set_lister=FakeStatefulSetLister([]))


def _mirror_count(namespace: str, selectors: list[object], pods: list[Pod]) -> float:
    """The mirror's loop of CalculateSpreadPriority over one node's pods (selector.matches)."""
    n = 0
    for p in pods:
        if p.metadata.namespace != namespace or p.metadata.deletion_timestamp is not None:
            continue
        if any(s.matches(p.metadata.labels) for s in selectors):
            n += 1
    return float(min(n, F32_EXACT))


@settings(max_examples=examples(200), deadline=None)
@given(_spreads(), LABELS,
       st.lists(st.one_of(st.tuples(st.just("add"), _pods), st.tuples(st.just("remove"), st.integers(0, 20)),
                          st.tuples(st.just("replace"), st.tuples(st.integers(0, 20), _pods)),
                          st.tuples(st.just("same"), st.none())), max_size=25))
def test_counting_on_over_appended_pods_equals_the_mirrors_count(
        spread: selector_spreading.SelectorSpread, pod_labels: dict[str, str], steps: list[tuple[str, object]]) -> None:
    """A node's history of placements (appends), removals (NodeInfo's swap with the last) and
    unchanged snapshots: the remembered count is the mirror's count over the whole list."""
    pod = Pod(metadata=ObjectMeta(name="new", namespace="default", labels=pod_labels))
    selectors = _selectors(spread, pod)
    state = SpreadCounts()
    per_node: dict = {}
    pods: list[Pod] = []
    generation = 0
    info = new_node_info()
    for i, (op, arg) in enumerate(steps):
        if op == "add":
            namespace, labels, deleted = arg  # type: ignore[misc]
            pods.append(_pod(i, namespace, labels, deleted))
        elif op in ("remove", "replace") and pods:
            # NodeInfo.remove_pod: the last pod takes the removed one's place
            j = (arg if op == "remove" else arg[0]) % len(pods)  # type: ignore[index,operator]
            pods[j] = pods[-1]
            pods.pop()
            if op == "replace":  # UpdatePod: removed, then the new version added, in one snapshot
                namespace, labels, deleted = arg[1]  # type: ignore[index]
                pods.append(_pod(i, namespace, labels, deleted))
        if op != "same":  # a new snapshot clone at a new generation, as UpdateNodeNameToInfoMap writes
            generation += 1
            info = new_node_info(*pods)
            info.generation = generation
        got = state.count(per_node, "n0", info, "default", selectors)
        assert got == _mirror_count("default", selectors, pods)
    assert state.recounted_nodes + state.extended_nodes <= len(steps)


@pytest.mark.parametrize("equality_only", [True, False])
def test_counting_on_stops_where_the_float32_count_stops(equality_only: bool) -> None:
    """The mirror's float32 count++ stays at 2**24; counting on from just below it does too."""
    sel = {"app": "a"}
    spread = selector_spreading.SelectorSpread(
        service_lister=FakeServiceLister([Service.from_dict({"metadata": {"name": "s", "namespace": "default"},
                                                             "spec": {"selector": sel}})]),
        controller_lister=FakeControllerLister([]),
        replica_set_lister=FakeReplicaSetLister([] if equality_only else [ReplicaSet(
            metadata=ObjectMeta(name="rs", namespace="default"), spec=ReplicaSetSpec(selector=LabelSelector(
                match_expressions=(LabelSelectorRequirement(key="app", operator="Exists"),))))]),
        stateful_set_lister=FakeStatefulSetLister([]))
    selectors = _selectors(spread, Pod(metadata=ObjectMeta(name="x", namespace="default", labels=sel)))
    pods = [_pod(i, "default", sel, False) for i in range(3)]
    assert _recount("default", selectors, pods, float(F32_EXACT - 2)) == float(F32_EXACT)
    assert _recount("default", selectors, pods[:1], float(F32_EXACT - 2)) == float(F32_EXACT - 1)
    assert _recount("default", selectors, pods, 5.0) == 8.0


def test_a_placement_is_counted_on_not_recounted() -> None:
    sel = {"app": "a"}
    spread = selector_spreading.SelectorSpread(
        service_lister=FakeServiceLister([Service.from_dict({"metadata": {"name": "s", "namespace": "default"},
                                                             "spec": {"selector": sel}})]),
        controller_lister=FakeControllerLister([]), replica_set_lister=FakeReplicaSetLister([]),
        stateful_set_lister=FakeStatefulSetLister([]))
    selectors = _selectors(spread, Pod(metadata=ObjectMeta(name="x", namespace="default", labels=sel)))
    state, per_node = SpreadCounts(), {}
    pods = [_pod(i, "default", sel, False) for i in range(4)]
    first = new_node_info(*pods)
    assert state.count(per_node, "n", first, "default", selectors) == 4.0
    second = new_node_info(*pods, _pod(9, "default", sel, False))
    second.generation = first.generation + 1
    assert state.count(per_node, "n", second, "default", selectors) == 5.0
    assert (state.recounted_nodes, state.extended_nodes) == (1, 1)
    # another object in place of a counted one: a recount
    third = new_node_info(_pod(0, "default", sel, False), *pods[1:])
    third.generation = second.generation + 1
    assert state.count(per_node, "n", third, "default", selectors) == 4.0
    assert (state.recounted_nodes, state.extended_nodes) == (2, 1)


# ---------------------------------------------------------------------------------------------
# the pure reduces' tables, kept between pods
# ---------------------------------------------------------------------------------------------
@settings(max_examples=examples(100), deadline=None)
@given(st.lists(st.tuples(st.lists(st.integers(0, 12), min_size=1, max_size=12),
                          st.sampled_from([node_affinity.calculate_node_affinity_priority_reduce,
                                           taint_toleration.compute_taint_toleration_priority_reduce])),
                max_size=12))
def test_reduce_tables_kept_between_columns_give_the_reduce(columns: list[tuple[list[int], object]]) -> None:
    memo: dict = {}
    for scores, reduce in columns:
        full = [HostPriority(host=f"h{i}", score=s) for i, s in enumerate(scores)]
        reduce(None, None, {}, full)  # type: ignore[operator]
        column, only = _reduce_column(reduce, None, None, {}, scores, memo)
        assert column == [hp.score for hp in full]
        assert only is None or column == [only] * len(column)


# ---------------------------------------------------------------------------------------------
# the selector memo's slot
# ---------------------------------------------------------------------------------------------
def _store(objs: list[object]) -> object:
    store = new_indexer(meta_namespace_key_func, {NAMESPACE_INDEX: meta_namespace_index_func})
    for obj in objs:
        store.add(obj)
    return store


def test_the_selector_slot_lives_as_long_as_the_remembered_selectors() -> None:
    services = _store([Service.from_dict({"metadata": {"name": "s", "namespace": "default"},
                                          "spec": {"selector": {"app": "a"}}})])
    spread = selector_spreading.SelectorSpread(
        service_lister=v1listers.ServiceLister(services, "services"),
        controller_lister=v1listers.ReplicationControllerLister(_store([]), "replicationcontrollers"),
        replica_set_lister=ReplicaSetLister(_store([]), "replicasets"),
        stateful_set_lister=StatefulSetLister(_store([]), "statefulsets"))
    memo = SelectorMemo()
    pod = Pod.from_dict({"metadata": {"name": "p", "namespace": "default", "labels": {"app": "a"}}})
    selectors, slot = memo.lookup(spread, pod)
    assert selectors == spread._get_selectors(pod) and slot is not None
    slot["mine"] = 1
    again, same_slot = memo.lookup(spread, Pod.from_dict({"metadata": {"name": "q", "namespace": "default",
                                                                       "labels": {"app": "a"}}}))
    assert again == selectors and same_slot is slot
    services.update(Service.from_dict({"metadata": {"name": "s", "namespace": "default"},
                                       "spec": {"selector": {"app": "a"}}}))  # a new object in the store
    changed, new_slot = memo.lookup(spread, pod)
    assert changed == spread._get_selectors(pod) and new_slot is not slot and "mine" not in new_slot
    # listers that are not informer-backed: nothing remembered, no slot
    fake = selector_spreading.SelectorSpread(
        service_lister=FakeServiceLister([]), controller_lister=FakeControllerLister([]),
        replica_set_lister=FakeReplicaSetLister([]), stateful_set_lister=FakeStatefulSetLister([]))
    assert memo.lookup(fake, pod) == ([], None)


# ---------------------------------------------------------------------------------------------
# Plans: predicates kept node-local per class, the metadata, the priority kinds
# ---------------------------------------------------------------------------------------------
_quantities = st.sampled_from([None, "0", "100m", "1", "64Mi", "1Gi"])


@st.composite
def _pods_with_specs(draw: st.DrawFn) -> Pod:
    def resources() -> dict:
        out: dict = {}
        for kind in ("requests", "limits"):
            values = {r: q for r in ("cpu", "memory") if (q := draw(_quantities)) is not None}
            if values:
                out[kind] = values
        return out

    containers = [{"name": f"c{i}", "resources": resources(),
                   "ports": [{"containerPort": 80, "hostPort": p} for p in draw(st.lists(st.sampled_from([0, 80, 8080]),
                                                                                          max_size=2))]}
                  for i in range(draw(st.integers(1, 2)))]
    init = [{"name": "i", "resources": resources()}] if draw(st.booleans()) else []
    volumes = [{"name": "v", "gcePersistentDisk": {"pdName": "d"}}] if draw(st.booleans()) else []
    affinity = ({"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
        {"labelSelector": {"matchLabels": {"app": "a"}}, "topologyKey": "zone"}]}} if draw(st.booleans()) else None)
    spec: dict = {"containers": containers, "initContainers": init, "volumes": volumes}
    if affinity is not None:
        spec["affinity"] = affinity
    return Pod.from_dict({"metadata": {"name": draw(st.sampled_from(["a", "b"])), "namespace": "default",
                                       "labels": draw(LABELS)}, "spec": spec})


def _producer(precomputations: dict | None = None) -> object:
    return PredicateMetadataFactory(pod_lister=None, precomputations={} if precomputations is None
                                    else precomputations).get_metadata  # type: ignore[arg-type]


@settings(max_examples=examples(150), deadline=None)
@given(st.lists(_pods_with_specs(), min_size=1, max_size=8))
def test_the_lazy_metadata_equals_the_producers(pods: list[Pod]) -> None:
    plans, producer = Plans(), _producer()
    seen = []
    for pod in pods:
        want = producer(pod, {})
        got = plans.lazy_metadata(producer, equivalence_key(pod), pod)
        assert type(got) is type(want) and got.pod is want.pod is pod
        assert attrs.asdict(got, recurse=False) == attrs.asdict(want, recurse=False)
        # each call gets its own objects: nothing one attempt does to its metadata reaches another
        assert all(got.pod_request is not o.pod_request and got.pod_ports is not o.pod_ports for o in seen)
        seen.append(got)


def test_the_lazy_metadata_runs_the_producer_when_a_precomputation_is_registered() -> None:
    calls = []
    producer = _producer({"p": lambda meta: calls.append(meta)})
    plans = Plans()
    pod = Pod.from_dict({"metadata": {"name": "a", "namespace": "default"}, "spec": {"containers": [{"name": "c"}]}})
    for _ in range(3):
        meta = plans.lazy_metadata(producer, equivalence_key(pod), pod)
        assert calls[-1] is meta
    assert len(calls) == 3


def _predicates() -> dict[str, object]:
    return {"GeneralPredicates": preds.general_predicates, "NoDiskConflict": preds.no_disk_conflict,
            "MaxGCEPDVolumeCount": preds.MaxPDVolumeCountChecker(filter=None, max_volumes=16, pv_info=None,
                                                                 pvc_info=None).predicate,
            "MatchInterPodAffinity": preds.PodAffinityChecker(info=None, pod_lister=None,
                                                              failure_domains=None).inter_pod_affinity_matches}


@settings(max_examples=examples(100), deadline=None)
@given(st.lists(st.tuples(_pods_with_specs(), st.sampled_from(["keep", "swap", "drop", "add"])), max_size=10))
def test_the_node_local_predicates_follow_the_pod_and_the_policy(steps: list[tuple[Pod, str]]) -> None:
    plans, predicates = Plans(), _predicates()
    for pod, change in steps:
        if change == "swap":  # another function under a known name, node-local or not
            predicates["NoDiskConflict"] = (preds.pod_fits_host if predicates.get("NoDiskConflict") is not preds.pod_fits_host
                                            else (lambda pod, meta, info: (True, [])))
        elif change == "drop":
            predicates.pop("NoDiskConflict", None)
        elif change == "add":
            predicates["CheckNodeDiskPressure"] = preds.check_node_disk_pressure_predicate
        names, local = plans.lazy_predicates(predicates, equivalence_key(pod), pod,
                                             lambda p: mirror_has_own(p), _predicate_is_local)
        own = mirror_has_own(pod)
        assert names == sorted(predicates)
        assert local == tuple(n for n in names if _predicate_is_local(predicates[n], pod, True, own, True))


def mirror_has_own(pod: Pod) -> bool:
    from kschedlearn.accelerated.fastpath import has_own_pod_affinity
    return has_own_pod_affinity(pod)


def test_the_priority_kinds_follow_the_configs_and_the_pod() -> None:
    s = accelerate(mirror.GenericScheduler(cached_node_info_map={}, cache=None, predicates={},
                                           predicate_meta_producer=None, prioritizers=[],
                                           priority_meta_producer=None, extenders=[]))
    spread = selector_spreading.SelectorSpread(
        service_lister=FakeServiceLister([]), controller_lister=FakeControllerLister([]),
        replica_set_lister=FakeReplicaSetLister([]), stateful_set_lister=FakeStatefulSetLister([]))
    plain = Pod.from_dict({"metadata": {"name": "a", "namespace": "default"}, "spec": {"containers": [{"name": "c"}]}})
    configs = [PriorityConfig(function=spread.calculate_spread_priority, weight=1),
               PriorityConfig(map_fn=node_affinity.calculate_node_affinity_priority_map,
                              reduce=node_affinity.calculate_node_affinity_priority_reduce, weight=1)]
    s.prioritizers = configs
    want = (["spread", "map"], (1,))
    assert priority_kinds(s, plain, _map_is_local, PURE_REDUCES) == want
    assert priority_kinds(s, plain, _map_is_local, PURE_REDUCES) == want  # remembered
    # a config replaced (frozen configs: a new object) -> asked again
    s.prioritizers = [configs[0], PriorityConfig(map_fn=lambda pod, meta, info: None, weight=1)]
    assert priority_kinds(s, plain, _map_is_local, PURE_REDUCES) is None
    s.prioritizers = configs
    assert priority_kinds(s, plain, _map_is_local, PURE_REDUCES) == want
    # the policy's other inputs: another set of pure reduces
    assert priority_kinds(s, plain, _map_is_local, frozenset()) is None
    # the class attribute the spread kind is recognised by, swapped (an exercise's own function)
    original = selector_spreading.SelectorSpread.calculate_spread_priority
    selector_spreading.SelectorSpread.calculate_spread_priority = lambda self, pod, infos, nodes: []  # type: ignore[method-assign]
    try:
        assert priority_kinds(s, plain, _map_is_local, PURE_REDUCES) is None
    finally:
        selector_spreading.SelectorSpread.calculate_spread_priority = original  # type: ignore[method-assign]
    assert priority_kinds(s, plain, _map_is_local, PURE_REDUCES) == want


@st.composite
def _pods_for_priorities(draw: st.DrawFn) -> Pod:
    pod = draw(_pods_with_specs())
    spec = {"containers": [{"name": "c", "resources": {"requests": {"cpu": draw(st.sampled_from(["0", "100m", "2"]))}}}],
            "tolerations": [{"key": "k", "operator": "Exists", "effect": draw(st.sampled_from(["NoSchedule",
                                                                                              "PreferNoSchedule", ""]))}]}
    annotations = {}
    if draw(st.booleans()):
        annotations["scheduler.alpha.kubernetes.io/affinity"] = (
            '{"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 2, "preference": '
            '{"matchExpressions": [{"key": "zone", "operator": "In", "values": ["a"]}]}}]}}')
    return draw(st.sampled_from([pod, Pod.from_dict({"metadata": {"name": "p", "namespace": "default",
                                                                  "annotations": annotations}, "spec": spec})]))


@settings(max_examples=examples(150), deadline=None)
@given(st.lists(_pods_for_priorities(), min_size=1, max_size=8))
def test_the_priority_metadata_equals_the_producers(pods: list[Pod]) -> None:
    from kschedlearn.scheduler.algorithm.priorities.metadata import priority_metadata

    plans = Plans()
    seen = []
    for pod in pods:
        want = priority_metadata(pod, {})
        got = plans.priority_metadata(priority_metadata, equivalence_key(pod), pod, {})
        assert got == want
        assert all(got.non_zero_request is not o.non_zero_request for o in seen)
        seen.append(got)
    # another producer (a policy's, an instrumented one) is simply called
    calls = []
    assert plans.priority_metadata(lambda pod, infos: calls.append(pod) or "m", "k", pods[0], {}) == "m"
    assert calls == [pods[0]]


# ---------------------------------------------------------------------------------------------
# a ColumnsView's tallies (the columns' distinct scores, minimum and maximum without a scan)
# ---------------------------------------------------------------------------------------------
@attrs.define(eq=False)
class _Info:
    """Just what ChangeLogMap asks of a NodeInfo."""

    value: int

    def pods_with_affinity(self) -> list[int]:
        return []

    def node(self) -> object:
        return object()


_NAMES = [f"n{i}" for i in range(6)]


@settings(max_examples=examples(150), deadline=None)
@given(st.lists(st.tuples(st.sampled_from(_NAMES), st.integers(0, 5)), max_size=30),
       st.lists(st.permutations(_NAMES), min_size=1, max_size=4), st.data())
def test_column_tallies_count_the_columns_scores(writes: list[tuple[str, int]], orders: list[list[str]],
                                                 data: st.DataObject) -> None:
    import collections

    from kschedlearn.accelerated.changelog import ChangeLogMap
    from kschedlearn.accelerated.incremental import ColumnsView
    from kschedlearn.api.v1 import Node

    info_map = ChangeLogMap({n: _Info(0) for n in _NAMES})
    nodes_by_name = {n: Node.from_dict({"metadata": {"name": n}}) for n in _NAMES}
    view = ColumnsView(width=2)
    lists = [[nodes_by_name[n] for n in order[:data.draw(st.integers(1, len(_NAMES)))]] for order in orders]
    current = lists[0]
    for name, value in writes:
        if data.draw(st.booleans()):
            current = data.draw(st.sampled_from(lists))
        if value == 5:
            info_map.pop(name, None)
        else:
            info_map[name] = _Info(value)

        def compute(i: int, info: _Info | None) -> None:
            v = -1 if info is None else info.value
            view.set(i, (v, v % 2))

        view.refresh(info_map, current, compute)
        assert len(view.columns[0]) == len(current)
        for column, tally in zip(view.columns, view.tallies):
            assert tally == dict(collections.Counter(column))


# ---------------------------------------------------------------------------------------------
# views carried over to another node list (a node stops fitting: the filtered list shrinks)
# ---------------------------------------------------------------------------------------------
@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.tuples(st.sampled_from(_NAMES), st.integers(0, 5), st.integers(0, 3)), max_size=30), st.data())
def test_views_carried_over_to_another_node_list_equal_recomputation(
        writes: list[tuple[str, int, int]], data: st.DataObject) -> None:
    """Each kind of view, after random writes and random node lists (subsets, reorderings, new
    node objects, duplicates): every position holds f(info) and the aggregates equal a
    recomputation from the positions."""
    import collections

    from kschedlearn.accelerated.changelog import ChangeLogMap
    from kschedlearn.accelerated.incremental import ColumnsView, PredicateView, SpreadView
    from kschedlearn.api.v1 import Node

    info_map = ChangeLogMap({n: _Info(0) for n in _NAMES})
    objects = {n: Node.from_dict({"metadata": {"name": n}}) for n in _NAMES}
    columns, predicates, spread = ColumnsView(width=2), PredicateView(), SpreadView()
    for name, value, zone in writes:
        if value == 5:
            info_map.pop(name, None)
        else:
            info_map[name] = _Info(value)
        if data.draw(st.integers(0, 9)) == 0:  # a node object replaced in the store
            objects[name] = Node.from_dict({"metadata": {"name": name}})
        names = data.draw(st.lists(st.sampled_from(_NAMES), min_size=1, max_size=7))
        nodes = [objects[n] for n in names]

        def value_of(info: _Info | None) -> int:
            return -1 if info is None else info.value

        columns.refresh(info_map, nodes, lambda i, info: columns.set(i, (value_of(info), value_of(info) % 2)))
        predicates.refresh(info_map, nodes, lambda i, info: predicates.set(
            i, (value_of(info) % 3 != 0, (f"r{value_of(info)}",), {})))
        spread.refresh(info_map, nodes, lambda i, info: spread.set(
            i, float(value_of(info)), ["", "z1", "z2", "z1"][zone] if value_of(info) >= 0 else ""))

        want = [value_of(info_map.get(n)) for n in names]
        assert columns.columns == [want, [v % 2 for v in want]]
        assert columns.tallies == [dict(collections.Counter(c)) for c in columns.columns]
        assert predicates.flags == [v % 3 != 0 for v in want]
        assert predicates.failing == {i: (f"r{v}",) for i, v in enumerate(want) if v % 3 == 0}
        assert spread.counts == [float(v) for v in want]
        keys: dict = {}
        totals: dict = {}
        members: dict = {}
        for c, z in zip(spread.counts, spread.zones):
            keys[(c, z)] = keys.get((c, z), 0) + 1
            if z:
                totals[z] = totals.get(z, 0.0) + c
                members[z] = members.get(z, 0) + 1
        assert spread.key_counts == keys and spread.zone_totals == totals and spread.zone_members == members
        assert spread.keys == list(zip(spread.counts, spread.zones))


def test_the_plans_follow_the_affinity_in_annotations_gate_between_pods() -> None:
    """The gate decides whether an affinity annotation counts: a class's remembered plan must
    not outlive a flip of it (the pod's class is the same either way)."""
    from kschedlearn.features import host_feature_gate
    from kschedlearn.scheduler.algorithm.priorities.metadata import priority_metadata

    pod = Pod.from_dict({"metadata": {"name": "a", "namespace": "default", "annotations": {
        "scheduler.alpha.kubernetes.io/affinity":
            '{"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": '
            '[{"labelSelector": {"matchLabels": {"app": "a"}}, "topologyKey": "zone"}]}}'}},
        "spec": {"containers": [{"name": "c"}]}})
    key = equivalence_key(pod)
    plans, predicates = Plans(), _predicates()
    seen = []
    for value in ("false", "true", "false", "true"):
        with host_feature_gate().set_for(f"AffinityInAnnotations={value}"):
            own = mirror_has_own(pod)
            names, local = plans.lazy_predicates(predicates, key, pod, mirror_has_own, _predicate_is_local)
            assert local == tuple(n for n in names if _predicate_is_local(predicates[n], pod, True, own, True))
            assert plans.priority_metadata(priority_metadata, key, pod, {}) == priority_metadata(pod, {})
            seen.append(("MatchInterPodAffinity" in local, own))
    assert seen == [(True, False), (False, True), (True, False), (False, True)]
