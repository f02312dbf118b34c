"""The accelerated engine's incremental phases: only changed nodes are recomputed per pod.

kschedlearn-only (see ``docs/accelerated-engine.md``, "Incremental phases"). Used by
``AcceleratedScheduler.schedule`` when the snapshot is a
:class:`~kschedlearn.accelerated.changelog.ChangeLogMap` and every predicate / priority of the
policy is one whose per-node value is known to depend only on the pod's class and the node's
``NodeInfo`` (otherwise the engine's general path runs, which still caches per node but looks
at every node). Each function returns None when it does not apply and raises ``_Fallback``
(the mirror redoes the phase) when a predicate or priority function raised.
"""

from __future__ import annotations

from itertools import compress, repeat
from operator import add, eq, mul
from typing import Any

from kschedlearn.accelerated.incremental import ColumnsView, PredicateView, SpreadView
from kschedlearn.scheduler.algorithm.predicates import predicates as preds
from kschedlearn.scheduler.algorithm.predicates.metadata import PredicateMetadataFactory
from kschedlearn.scheduler.algorithm.priorities import interpod_affinity, selector_spreading
from kschedlearn.scheduler.api.types import HostPriority
from kschedlearn.scheduler.schedulercache.reconcile_affinity import reconcile_affinity

_INT64_LIMIT = 1 << 63
_F32_EXACT = 16777216.0  # below 2^24, float32 sums of integer counts are exact in any order


class Fallback(Exception):
    """Something raised: redo this phase with the mirror's functions (errors word for word)."""


def has_own_pod_affinity(pod: Any) -> bool:
    """The pod has a podAffinity or podAntiAffinity section (InterPodAffinity's own test)."""
    affinity = reconcile_affinity(pod)
    return affinity is not None and (affinity.pod_affinity is not None or affinity.pod_anti_affinity is not None)


def _standard_metadata(producer: Any) -> bool:
    return getattr(producer, "__func__", None) is PredicateMetadataFactory.get_metadata


# ---------------------------------------------------------------------------------------------
# predicates
# ---------------------------------------------------------------------------------------------
def find_nodes_that_fit(s: Any, pod: Any, key: str, nodes: list[Any], is_local: Any,
                        tracing: bool) -> tuple[list[Any], dict[str, list[Any]], list[Any] | None] | Any:
    """findNodesThatFit from a PredicateView; returns ``(filtered, failed map, outcomes)``, the
    outcomes (when ``tracing``) as the node names and each one's (fits, failed reasons, verdicts).

    Returns a ``("meta", meta)`` pair instead when some predicate must run on every node (the
    general path takes over with the metadata already computed).

    The metadata is computed only when some node has to be evaluated, when that is known to
    be the same as computing it first: the standard producer, every snapshot entry has its
    node, and no pod in the snapshot has affinity terms (then ``matching_anti_affinity_terms``
    is empty and nothing the producer does depends on anything else than the pod).
    """
    info_map = s.cached_node_info_map
    predicates = s.predicates
    box: list[Any] = []
    lazy = _standard_metadata(s.predicate_meta_producer) and not info_map.with_affinity and not info_map.nodeless
    if lazy:
        names, local = s.plans.lazy_predicates(predicates, key, pod, has_own_pod_affinity, is_local)
    else:
        names = sorted(predicates)
        box.append(s.predicate_meta_producer(pod, info_map))
        meta0 = box[0]
        is_metadata = isinstance(meta0, preds.PredicateMetadata)
        terms_empty = is_metadata and not meta0.matching_anti_affinity_terms
        own = has_own_pod_affinity(pod)
        local = tuple(n for n in names if is_local(predicates[n], pod, is_metadata, own, terms_empty))
    if len(local) != len(names):
        return ("meta", box[0] if box else s.predicate_meta_producer(pod, info_map))
    view = s.predicate_views.get((key, local))
    if view is None:
        view = s.predicate_views[(key, local)] = PredicateView()
    per_node = s.predicate_cache.setdefault((key, local), {})
    outcome_of = s._outcome

    def compute(i: int, info: Any) -> None:
        node_name = nodes[i].metadata.name
        entry = per_node.get(node_name)
        if entry is None or entry[0] is not info or info is None or entry[1] != info.generation:
            if not box:
                # (lazy case) with no affinity pods and no node-less entry the map is read only
                # for matching_anti_affinity_terms, which is then [] — as for an empty map
                box.append(s.plans.lazy_metadata(s.predicate_meta_producer, key, pod))
            meta = box[0]
            results = {}
            for n in local:
                try:
                    results[n] = predicates[n](pod, meta, info)
                except Exception as err:  # noqa: BLE001 - the mirror reports it
                    raise Fallback() from err
            entry = (info, -1 if info is None else info.generation, results, outcome_of(names, results))
            if info is not None:
                per_node[node_name] = entry
        view.set(i, entry[3])

    view.refresh(info_map, nodes, compute)
    failing = view.failing
    if failing:
        filtered = list(compress(nodes, view.flags))
        failed = {nodes[i].metadata.name: list(failing[i]) for i in sorted(failing)}
    else:
        filtered, failed = list(nodes), {}
    # (the view's name list is replaced, never changed, when the nodes change: the trace keeps it)
    return filtered, failed, ((view.names, view.kept_outcomes()) if tracing else None)


# ---------------------------------------------------------------------------------------------
# priorities
# ---------------------------------------------------------------------------------------------
def _spread_column(s: Any, spread: Any, pod: Any, info_map: Any, nodes: list[Any],
                   bounds: dict[int, tuple[int, int]] | None = None,
                   index: int = 0) -> tuple[list[int], int | None] | None:
    """SelectorSpread's scores from a SpreadView and the one score if all are equal (None: a
    count too large for this path); ``bounds[index]`` is set to the scores' (min, max)."""
    state = s.spread_counts
    memo = state.scores
    n = len(nodes)
    selectors, slot = s.selector_memo.lookup(spread, pod)
    if len(selectors) == 0:
        inputs = (0.0, 0.0, False, False, 0.0, 0.0)
        score = memo.get(inputs)
        if score is None:
            score = memo[inputs] = s.spread_score(*inputs)
        return [score] * n, score
    namespace = pod.metadata.namespace
    # (the remembered selectors' slot keeps their counts and view: no hashing of selectors per pod)
    held = slot.get("spread") if slot is not None else None
    if held is None:
        skey = (namespace, tuple(selectors))
        view = s.spread_views.get(skey)
        if view is None:
            view = s.spread_views[skey] = SpreadView()
        held = (state.counts.setdefault(skey, {}), view)
        if slot is not None:
            slot["spread"] = held
    per_node, view = held
    get_zone_key = selector_spreading.get_zone_key

    def compute(i: int, info: Any) -> None:
        node = nodes[i]
        view.set(i, state.count(per_node, node.metadata.name, info, namespace, selectors), get_zone_key(node))

    view.refresh(info_map, nodes, compute)
    max_count_by_node_name = max(0.0, max(count for count, _ in view.key_counts))  # = max over the nodes
    max_count_by_zone = max(0.0, max(view.zone_totals.values(), default=0.0))
    if max_count_by_node_name >= _F32_EXACT or max_count_by_zone >= _F32_EXACT:
        return None
    have_zones = len(view.zone_members) != 0
    totals = view.zone_totals
    table = {}
    for k in view.key_counts:
        count, zone = k
        zone_id = zone if have_zones else ""
        inputs = (max_count_by_node_name, count, have_zones, zone_id != "", max_count_by_zone, totals.get(zone_id, 0.0))
        score = memo.get(inputs)
        if score is None:
            score = memo[inputs] = s.spread_score(*inputs)
        table[k] = score
    if len(table) == 1:
        only = next(iter(table.values()))
        return [only] * n, only
    if bounds is not None:  # (every (count, zone) pair of the table is some node's)
        bounds[index] = (min(table.values()), max(table.values()))
    return list(map(table.__getitem__, view.keys)), None


def _reduce_column(reduce: Any, pod: Any, meta: Any, info_map: Any, column: list[int],
                   memo: dict[tuple[Any, ...], dict[int, int]] | None = None,
                   distinct: tuple[int, ...] | None = None) -> tuple[list[int], int | None]:
    """A pure reduce (each result a function of its own score and the list's max) on a column,
    and the one result if all are equal.

    ``memo``: (reduce, distinct scores) -> its table, kept between pods (a pure reduce reads
    nothing but the scores, so the same distinct scores give the same table); ``distinct``:
    the column's distinct scores in ascending order, where known without a scan."""
    if distinct is None:
        distinct = tuple(sorted(set(column)))
    table = memo.get((reduce, distinct)) if memo is not None else None
    if table is None:
        fake = [HostPriority(host="", score=v) for v in distinct]
        try:
            reduce(pod, meta, info_map, fake)
        except Exception as err:  # noqa: BLE001 - the mirror reports it
            raise Fallback() from err
        table = dict(zip(distinct, (hp.score for hp in fake)))
        if memo is not None:
            if len(memo) >= 4096:
                memo.clear()
            memo[(reduce, distinct)] = table
    if len(distinct) == 1:
        only = table[distinct[0]]
        return [only] * len(column), only
    return list(map(table.__getitem__, column)), None


def prioritize(s: Any, pod: Any, key: str, meta: Any, nodes: list[Any], kinds: list[str], map_local: tuple[int, ...],
               ) -> tuple[list[list[int]], list[int], list[str], dict[int, int]] | None:
    """Per-priority score columns, weighted totals, node names and the constant columns (column
    index -> its one score, where known without a scan), or None (general path).

    ``kinds[i]``: "spread", "interpod-zero", "map" (a cached node-local map function).
    """
    info_map = s.cached_node_info_map
    configs = s.prioritizers
    view = s.column_views.get((key, map_local))
    if view is None:
        view = s.column_views[(key, map_local)] = ColumnsView(width=len(map_local))
    per_node = s.map_cache.setdefault((key, map_local), {})

    def compute(i: int, info: Any) -> None:
        node_name = nodes[i].metadata.name
        entry = per_node.get(node_name)
        if entry is None or entry[0] is not info or info is None or entry[1] != info.generation:
            try:
                entry = (info, -1 if info is None else info.generation,
                         tuple(configs[j].map_fn(pod, meta, info) for j in map_local))
            except Exception as err:  # noqa: BLE001 - the mirror reports it
                raise Fallback() from err
            if info is not None:
                per_node[node_name] = entry
        view.set(i, tuple(hp.score for hp in entry[2]))

    view.refresh(info_map, nodes, compute)
    n = len(nodes)
    local_columns = dict(zip(map_local, zip(view.columns, view.tallies)))
    columns: list[list[int]] = []
    constant: dict[int, int] = {}  # column index -> its one value, where known without a scan
    bounds: dict[int, tuple[int, int]] = {}  # column index -> (min, max), where known without a scan
    for i, (config, kind) in enumerate(zip(configs, kinds)):
        if kind == "spread":
            spread = _spread_column(s, config.function.__self__, pod, info_map, nodes, bounds, i)
            if spread is None:
                return None
            column, only = spread
            if only is not None:
                constant[i] = only
        elif kind == "interpod-zero":
            column = [0] * n
            constant[i] = 0
        else:
            column, tally = local_columns[i]
            if config.reduce is not None:
                column, only = _reduce_column(config.reduce, pod, meta, info_map, column, s.plans.reduces,
                                              tuple(sorted(tally)))
                if only is not None:
                    constant[i] = only
            elif len(tally) == 1:  # (the view's tally: the column's scores, without a scan)
                constant[i] = next(iter(tally))
            elif tally:
                bounds[i] = (min(tally), max(tally))
        columns.append(column)
    totals = weighted_totals(columns, [c.weight for c in configs], n, constant, bounds)
    if totals is None:
        return None
    return columns, totals, view.names, constant


def weighted_totals(columns: list[list[int]], weights: list[int], n: int,
                    constant: dict[int, int] | None = None,
                    bounds: dict[int, tuple[int, int]] | None = None) -> list[int] | None:
    """Σ score × weight per node, when no 64-bit wrap-around can happen (else None).

    The mirror wraps the product and every partial sum at 64 bits (Go's int); when the
    largest possible |partial sum| is below 2^63 no wrap happens and plain sums are exact.
    Constant columns (every node the same score) are added once at the end. ``bounds``:
    column index -> (min, max) of that column, where known without a scan.
    """
    bound = 0
    const = 0
    varying = []
    for j, (column, w) in enumerate(zip(columns, weights)):
        if constant and j in constant:
            lo = hi = constant[j]
        elif bounds and j in bounds:
            lo, hi = bounds[j]
        else:
            lo, hi = min(column), max(column)
        bound += max(-lo, hi) * abs(w)
        if lo == hi:
            const += lo * w
        else:
            varying.append((column, w))
    if bound >= _INT64_LIMIT:
        return None
    total: list[int] | None = None
    for column, w in varying:
        scaled = column if w == 1 else list(map(mul, column, repeat(w, n)))
        total = scaled if total is None else list(map(add, total, scaled))
    if total is None:
        return [const] * n
    if const:
        return list(map(add, total, repeat(const, n)))
    return list(total)


def select_host(s: Any, totals: list[int], names: list[str]) -> str:
    """selectHost's choice without building the sorted list (score desc, then host desc)."""
    return pick(s, best_ties(totals, names))


def best_ties(totals: list[int], names: list[str]) -> list[str]:
    """The names of the best-scored nodes, descending: the head of selectHost's sorted list."""
    best = max(totals)
    return sorted(compress(names, map(eq, totals, repeat(best))), reverse=True)


def pick(s: Any, ties: list[str]) -> str:
    """selectHost's round robin over the ties (:func:`best_ties`)."""
    with s.last_node_index_lock:
        ix = s.last_node_index % len(ties)
        s.last_node_index += 1
    return ties[ix]


def priority_kinds(s: Any, pod: Any, is_local_map: Any, pure_reduces: Any) -> tuple[list[str], tuple[int, ...]] | None:
    """Which incremental kind each priority config is, or None when one is not."""
    interpod_zero = not s.cached_node_info_map.with_affinity and not has_own_pod_affinity(pod)
    spread_fn = selector_spreading.SelectorSpread.calculate_spread_priority
    interpod_fn = interpod_affinity.InterPodAffinity.calculate_inter_pod_affinity_priority
    # (the answer reads nothing else: remembered while these are the same)
    context = (interpod_zero, is_local_map, pure_reduces, spread_fn, interpod_fn)
    return s.plans.priority_kinds(s.prioritizers, context, lambda: _priority_kinds(s, *context))


def _priority_kinds(s: Any, interpod_zero: bool, is_local_map: Any, pure_reduces: Any, spread_fn: Any,
                    interpod_fn: Any) -> tuple[list[str], tuple[int, ...]] | None:
    kinds = []
    map_local = []
    for i, c in enumerate(s.prioritizers):
        if c.function is not None:
            fn = getattr(c.function, "__func__", None)
            if fn is spread_fn:
                kinds.append("spread")
            elif fn is interpod_fn and interpod_zero:
                kinds.append("interpod-zero")
            else:
                return None
        elif is_local_map(c.map_fn) and (c.reduce is None or c.reduce in pure_reduces):
            kinds.append("map")
            map_local.append(i)
        else:
            return None
    return kinds, tuple(map_local)
