"""The accelerated engine's genericScheduler: the mirror's outcomes with far less work per pod.

kschedlearn-only (see ``docs/accelerated-engine.md``). ``AcceleratedScheduler`` is a
``core.GenericScheduler`` whose ``schedule`` keeps the mirror's steps and trace points but
reuses work between pods:

- an *equivalence cache* (what 1.6 began in ``core/equivalence_cache.go`` and never called):
  the results of the predicates that read only the pod and its node's ``NodeInfo`` are kept
  per (pod equivalence class, node) and reused while that node's snapshot ``NodeInfo`` is the
  same object at the same generation;
- the same for the priority *map* functions that read only the pod and the node;
- SelectorSpread's per-node match counts, recounted only on nodes that changed (``spread.py``).

Everything else (old-style functions other than SelectorSpread, reduce functions, predicates
that read services, PVs or other pods' affinity) runs exactly as in the mirror. Whenever a
predicate or priority raises, or extenders are configured, the attempt falls back to the
mirror's own functions, so errors are the mirror's, word for word.

When every predicate / priority of the policy is of a kind whose per-node value is known to
depend only on the pod's class and the node's NodeInfo, the phases go through ``fastpath``:
per-class views refreshed only at the nodes the snapshot's change log names (``changelog``,
``incremental``), SelectorSpread from maintained aggregates, selectHost without the sort.
"""

from __future__ import annotations

import operator
from itertools import compress, repeat
from typing import Any

import attrs

from kschedlearn.apimachinery._goint import int64
from kschedlearn.accelerated import fastpath, thinned
from kschedlearn.accelerated.changelog import ChangeLogMap, refresh, track_cache
from kschedlearn.accelerated.fastpath import Fallback as _Fallback
from kschedlearn.accelerated.nodelist import NodeListMemo
from kschedlearn.accelerated.plans import Plans
from kschedlearn.accelerated.spread import SelectorMemo, SpreadCounts, _score as spread_score, accelerated_spread_priority
from kschedlearn.scheduler.algorithm.predicates import predicates as preds
from kschedlearn.scheduler.algorithm.priorities import (
    balanced_resource_allocation,
    image_locality,
    least_requested,
    most_requested,
    node_affinity,
    node_label,
    node_prefer_avoid_pods,
    selector_spreading,
    taint_toleration,
)
from kschedlearn.scheduler.core import generic_scheduler as mirror
from kschedlearn.observe import generic_scheduler as traced
from kschedlearn.observe.recorders import NO_REASONS
from kschedlearn.scheduler.api.types import HostPriority
from kschedlearn.sim.runtime import current_goroutine
from kschedlearn.trace import ObservedCall, emit, glog
from kschedlearn.trace.util_trace import new_trace

#: Predicates whose verdict depends only on the pod and the node's NodeInfo.
NODE_LOCAL_PREDICATES = frozenset({
    preds.no_disk_conflict, preds.pod_fits_resources, preds.pod_selector_matches, preds.pod_fits_host,
    preds.pod_fits_host_ports, preds.general_predicates, preds.essential_predicates,
    preds.pod_tolerates_node_taints, preds.check_node_memory_pressure_predicate,
    preds.check_node_disk_pressure_predicate,
})
#: Priority map functions whose score depends only on the pod and the node's NodeInfo.
NODE_LOCAL_MAPS = frozenset({
    balanced_resource_allocation.balanced_resource_allocation_map, least_requested.least_requested_priority_map,
    most_requested.most_requested_priority_map, image_locality.image_locality_priority_map,
    node_prefer_avoid_pods.calculate_node_prefer_avoid_pods_priority_map,
    node_affinity.calculate_node_affinity_priority_map, taint_toleration.compute_taint_toleration_priority_map,
    mirror.equal_priority_map,
})

#: Reduce functions that read nothing but the list of map scores (normalise to 0..10).
PURE_REDUCES = frozenset({node_affinity.calculate_node_affinity_priority_reduce,
                          taint_toleration.compute_taint_toleration_priority_reduce})


def equivalence_key(pod: Any) -> str:
    """Everything a node-local predicate or map function may read of a pod (not its name/uid)."""
    m = pod.metadata
    return repr((m.namespace, m.labels, m.annotations, m.owner_references, pod.spec))


#: podFitsOnNode's outcome on one node: fits, the failed reasons, each predicate's reasons
Outcome = tuple[bool, tuple[Any, ...], dict[str, list[str]]]

_UNKNOWN: Any = object()  # ``cache_changes`` before the first Schedule


def _tracing() -> tuple[bool, bool, bool]:
    """(a tracer is attached, it records the per-node ``schedule.predicate_node`` events, it
    records every event)."""
    g = current_goroutine()
    tracer = g.runtime.tracer if g is not None else None
    if tracer is None:
        return False, False, False
    return True, tracer.wants("schedule.predicate_node"), tracer.keep is None


def _predicate_is_local(fn: Any, pod: Any, is_metadata: bool, own_affinity: bool, no_matching_terms: bool) -> bool:
    """Whether ``fn``'s verdict for this pod depends only on the pod and the node's NodeInfo.

    ``is_metadata``: the predicate metadata is a PredicateMetadata (not None);
    ``own_affinity``: the pod has pod (anti-)affinity; ``no_matching_terms``: its
    ``matching_anti_affinity_terms`` is empty.
    """
    if fn in NODE_LOCAL_PREDICATES:
        return True
    owner = getattr(fn, "__self__", None)
    if isinstance(owner, preds.NodeLabelChecker):
        return True
    if isinstance(owner, (preds.MaxPDVolumeCountChecker, preds.VolumeZoneChecker)):
        return not pod.spec.volumes  # both return (True, []) before reading anything else
    if isinstance(owner, preds.PodAffinityChecker) and is_metadata:
        # No existing pod's anti-affinity matches and the pod has no terms: only node() is read.
        return not own_affinity and no_matching_terms
    return False


def _map_is_local(fn: Any) -> bool:
    return fn in NODE_LOCAL_MAPS or isinstance(getattr(fn, "__self__", None), node_label.NodeLabelPrioritizer)


def _is_spread(fn: Any) -> bool:
    return getattr(fn, "__func__", None) is selector_spreading.SelectorSpread.calculate_spread_priority


@attrs.define(eq=False)
class AcceleratedScheduler(mirror.GenericScheduler):
    """``GenericScheduler`` with an equivalence cache, cached map scores and incremental spread."""

    predicate_cache: dict[tuple[Any, ...], dict[str, tuple[Any, ...]]] = attrs.field(factory=dict)
    map_cache: dict[tuple[Any, ...], dict[str, tuple[Any, ...]]] = attrs.field(factory=dict)
    spread_counts: SpreadCounts = attrs.field(factory=SpreadCounts)
    reduce_cache: dict[tuple[str, int], tuple[list[tuple[str, int]], list[Any]]] = attrs.field(factory=dict)
    _spread_fns: dict[int, Any] = attrs.field(factory=dict)
    #: the node names the cache changed since the last refresh (changelog.track_cache)
    cache_changes: Any = _UNKNOWN
    #: node-name lists a thinned trace's events reuse (thinned.py)
    thin_memo: thinned.Memo = attrs.field(factory=thinned.Memo)
    predicate_views: dict[tuple[Any, ...], Any] = attrs.field(factory=dict)
    column_views: dict[tuple[Any, ...], Any] = attrs.field(factory=dict)
    spread_views: dict[tuple[Any, ...], Any] = attrs.field(factory=dict)
    node_list_memo: NodeListMemo = attrs.field(factory=NodeListMemo)
    #: (the priority configs, their weights, their names) of the last traced pod; its kept columns
    weights_memo: tuple[tuple[Any, ...], tuple[int, ...], tuple[str, ...]] | None = None
    columns_memo: tuple[tuple[int, ...], ...] = ()
    #: per kept column, its one score when the engine knew it constant (else None)
    constants_memo: tuple[int | None, ...] = ()
    selector_memo: SelectorMemo = attrs.field(factory=SelectorMemo)
    plans: Plans = attrs.field(factory=Plans)

    @staticmethod
    def spread_score(*inputs: Any) -> int:
        """SelectorSpread's per-node float32 formula (the mirror's statements)."""
        return spread_score(*inputs)

    def schedule(self, pod: Any, node_lister: Any) -> str:
        """The mirror's Schedule (same steps, trace points and errors), with reuse between pods."""
        if self.extenders:
            return super().schedule(pod, node_lister)
        if type(self.cached_node_info_map) is not ChangeLogMap:
            self.cached_node_info_map = ChangeLogMap(self.cached_node_info_map)
        info_map = self.cached_node_info_map
        tracing, per_node, everything = _tracing()
        trace = new_trace(f"Scheduling {pod.metadata.namespace}/{pod.metadata.name}")
        try:
            # (the memo runs the lister's own list() whenever the filter's V(4) lines may be on:
            # nothing else of it is observable, traced or not)
            nodes = self.node_list_memo.list(node_lister)
            if len(nodes) == 0:
                raise mirror.ErrNoNodesAvailable()
            if self.cache_changes is _UNKNOWN:
                self.cache_changes = track_cache(self.cache)
            refresh(self.cache, self.cache_changes, info_map)  # UpdateNodeNameToInfoMap
            trace.step("Computing predicates")
            key = equivalence_key(pod)
            try:
                filtered_nodes, failed_predicate_map, verdicts = self._find_nodes_that_fit(pod, key, nodes, per_node)
            except _Fallback:  # (the mirror's findNodesThatFit emits its own trace points)
                filtered_nodes, failed_predicate_map = mirror.find_nodes_that_fit(
                    pod, info_map, nodes, self.predicates, self.extenders, self.predicate_meta_producer)
            else:
                if tracing and not everything and not per_node:  # a thinned trace: no per-node events
                    thinned.emit_start(self.thin_memo, pod, nodes, _ENGINE)
                    if filtered_nodes:
                        thinned.emit_predicates(self.thin_memo, pod, filtered_nodes, failed_predicate_map, _ENGINE)
                elif tracing:  # the mirror's trace points of findNodesThatFit, in its order
                    names = verdicts[0] if len(verdicts[0]) == len(nodes) else None  # (the nodes' names)
                    traced.emit_schedule_start(pod, nodes, _ENGINE, names)
                    traced.emit_predicate_nodes(pod, *verdicts, _ENGINE)
                    if filtered_nodes:
                        traced.emit_predicates_done(pod, filtered_nodes, failed_predicate_map, _ENGINE,
                                                    None if failed_predicate_map else names, True, names)
            if len(filtered_nodes) == 0:
                raise mirror.FitError(pod, failed_predicate_map)
            trace.step("Prioritizing")
            # (no trace point reads the producer's inside: traced or not, the remembered parts)
            meta_priorities = self.plans.priority_metadata(self.priority_meta_producer, key, pod, info_map)
            fast = None
            try:
                kinds = fastpath.priority_kinds(self, pod, _map_is_local, PURE_REDUCES) if self.prioritizers else None
                if kinds is not None:
                    fast = fastpath.prioritize(self, pod, key, meta_priorities, filtered_nodes, *kinds)
                if fast is None:
                    priority_list = self._prioritize_nodes(pod, key, meta_priorities, filtered_nodes)
            except _Fallback:
                fast = None
                priority_list = mirror.prioritize_nodes(pod, info_map, meta_priorities,
                                                        self.prioritizers, filtered_nodes, self.extenders)
            if fast is not None:
                columns, totals, names, constant = fast
                if tracing and not everything and totals and traced.mirror_select_host(type(self)):
                    # a thinned trace: the best rows only, the host by the engine's selectHost
                    # (whose ties, found once, are the first rows and the event's tie count)
                    ties = fastpath.best_ties(totals, names)
                    rows = thinned.report(self, pod, filtered_nodes, columns, totals, names, _ENGINE, ties)
                    trace.step("Selecting host")
                    host = fastpath.pick(self, ties)
                    thinned.announce(self, pod, rows, totals, names, host, _ENGINE, len(ties))
                    return host
                if tracing:
                    priority_list = self._report_priorities(pod, filtered_nodes, columns, totals, names, constant)
                else:
                    trace.step("Selecting host")
                    return fastpath.select_host(self, totals, names)
            trace.step("Selecting host")
            return traced.select_host(self, priority_list, fastpath.select_host)  # (Totals: the engine's)
        finally:
            trace.log_if_long(0.1)

    def _find_nodes_that_fit(
        self, pod: Any, key: str, nodes: list[Any], tracing: bool,
    ) -> tuple[list[Any], mirror.FailedPredicateMap, tuple[list[str], tuple[Outcome, ...]]]:
        """findNodesThatFit over cached node-local verdicts; raises _Fallback on any error.

        Also returns, when tracing, the node names and each node's (fits, failed reasons,
        per-predicate reasons), for ``schedule``'s trace points."""
        failed_predicate_map: mirror.FailedPredicateMap = {}
        if len(self.predicates) == 0:
            return list(nodes), failed_predicate_map, ([], ())
        info_map = self.cached_node_info_map
        names = sorted(self.predicates)
        fast = fastpath.find_nodes_that_fit(self, pod, key, nodes, _predicate_is_local, tracing)
        if fast[0] != "meta":
            filtered, failed_predicate_map, outcomes = fast
            return filtered, failed_predicate_map, (outcomes if tracing else ([], ()))
        meta = fast[1]
        is_metadata = isinstance(meta, preds.PredicateMetadata)
        local = tuple(n for n in names if _predicate_is_local(
            self.predicates[n], pod, is_metadata, fastpath.has_own_pod_affinity(pod),
            is_metadata and not meta.matching_anti_affinity_terms))
        live = [n for n in names if n not in local]
        filtered: list[Any] = []
        node_names: list[str] = []
        emits: list[Outcome] = []
        per_node = self.predicate_cache.setdefault((key, local), {})
        for node in nodes:
            node_name = node.metadata.name
            info = info_map.get(node_name)
            entry = per_node.get(node_name)
            if entry is None or entry[0] is not info or info is None or entry[1] != info.generation:
                results = {}
                for n in local:
                    try:
                        results[n] = self.predicates[n](pod, meta, info)
                    except Exception as err:  # noqa: BLE001 - the mirror reports it
                        raise _Fallback() from err
                entry = (info, -1 if info is None else info.generation, results, self._outcome(names, results))
                if info is not None:
                    per_node[node_name] = entry
            if live:
                results = dict(entry[2])
                for n in live:
                    try:
                        results[n] = self.predicates[n](pod, meta, info)
                    except Exception as err:  # noqa: BLE001
                        raise _Fallback() from err
                fits, failed_predicates, verdicts = self._outcome(names, results)
            else:
                fits, failed_predicates, verdicts = entry[3]
            if fits:
                filtered.append(node)
            else:
                failed_predicate_map[node_name] = list(failed_predicates)
            if tracing:
                node_names.append(node_name)
                emits.append((fits, failed_predicates, verdicts))
        return filtered, failed_predicate_map, (node_names, tuple(emits))

    @staticmethod
    def _outcome(names: list[str], results: dict[str, Any]) -> tuple[bool, tuple[Any, ...], dict[str, list[str]]]:
        """podFitsOnNode's result from per-predicate results (only complete when all are present).

        A passing predicate's verdict is the one shared empty list (as the traced mirror's): a
        full trace keeps the verdicts of every pod, and each kept list lengthens the collector's
        passes."""
        failed: list[Any] = []
        verdicts: dict[str, list[str]] = {}
        for n in names:
            if n not in results:
                continue
            fit, reasons = results[n]
            verdicts[n] = NO_REASONS if fit else [r.get_reason() for r in reasons]
            if not fit:
                failed.extend(reasons)
        return len(failed) == 0, tuple(failed), verdicts

    def _reduce(self, key: str, i: int, config: Any, pod: Any, meta: Any, info_map: dict[str, Any],
                scores: list[Any]) -> list[Any]:
        """Run a reduce function; a known pure one on equal (host, score) inputs gives the same list."""
        if config.reduce not in PURE_REDUCES:
            config.reduce(pod, meta, info_map, scores)
            return scores
        values = [(hp.host, hp.score) for hp in scores]
        previous = self.reduce_cache.get((key, i))
        if previous is not None and previous[0] == values:
            return list(previous[1])
        config.reduce(pod, meta, info_map, scores)
        self.reduce_cache[(key, i)] = (values, list(scores))
        return scores

    def _spread_fn(self, fn: Any) -> Any:
        fast = self._spread_fns.get(id(fn))
        if fast is None:
            fast = self._spread_fns[id(fn)] = (fn, accelerated_spread_priority(fn.__self__, self.spread_counts))
        return fast[1]

    def _prioritize_nodes(self, pod: Any, key: str, meta: Any, nodes: list[Any]) -> list[HostPriority]:
        """PrioritizeNodes with cached node-local map scores; raises _Fallback on any error."""
        info_map = self.cached_node_info_map
        configs = self.prioritizers
        if len(configs) == 0:
            raise _Fallback()  # EqualPriorityMap per node: the mirror's path
        results: list[list[Any]] = [[] for _ in configs]
        map_local = [i for i, c in enumerate(configs) if c.function is None and _map_is_local(c.map_fn)]
        map_live = [i for i, c in enumerate(configs) if c.function is None and i not in map_local]
        try:
            for i, config in enumerate(configs):
                if config.function is not None:
                    fn = self._spread_fn(config.function) if _is_spread(config.function) else config.function
                    results[i] = list(fn(pod, info_map, nodes))
                else:
                    results[i] = [None] * len(nodes)
            per_node = self.map_cache.setdefault((key, tuple(map_local)), {})
            rows = []
            for index, node in enumerate(nodes):
                node_name = node.metadata.name
                info = info_map.get(node_name)
                entry = per_node.get(node_name)
                if entry is None or entry[0] is not info or info is None or entry[1] != info.generation:
                    entry = (info, -1 if info is None else info.generation,
                             tuple(configs[i].map_fn(pod, meta, info) for i in map_local))
                    if info is not None:
                        per_node[node_name] = entry
                rows.append(entry[2])
                for i in map_live:
                    results[i][index] = configs[i].map_fn(pod, meta, info)
            if map_local:
                for i, column in zip(map_local, zip(*rows)):
                    results[i] = list(column)
            for i, config in enumerate(configs):
                if config.reduce is not None:
                    results[i] = self._reduce(key, i, config, pod, meta, info_map, results[i])
        except Exception as err:  # noqa: BLE001 - the mirror reports it
            raise _Fallback() from err
        weights = [c.weight for c in configs]
        score_columns = [[hp.score for hp in results[j]] for j in range(len(configs))]
        # the mirror's score += score_j * weight_j, node by node, wrapping at 64 bits as Go's int does
        totals = []
        for row in zip(*score_columns):
            total = 0
            for s, w in zip(row, weights):
                total = int64(total + int64(s * w))
            totals.append(total)
        return self._report_priorities(pod, nodes, score_columns, totals)

    def _weights_and_names(self, configs: list[Any]) -> tuple[tuple[int, ...], tuple[str, ...]]:
        """The priorities' weights and names, kept while the configs are the very same objects
        (a PriorityConfig is replaced, not changed, when an exercise swaps one)."""
        memo = self.weights_memo
        if memo is None or not _same_configs(memo[0], configs):
            memo = self.weights_memo = (tuple(configs), tuple(c.weight for c in configs),
                                        tuple(getattr(c, "name", "") for c in configs))
        return memo[1], memo[2]

    def _report_priorities(self, pod: Any, nodes: list[Any], score_columns: list[list[int]], totals: list[int],
                           names: list[str] | None = None,
                           constant: dict[int, int] | None = None) -> list[HostPriority] | traced.Totals:
        """PrioritizeNodes' result list, its V(10) lines and its trace point, from the columns
        (``names``: the nodes' names when known — then, unless V(10) is on, the result is the
        names and totals, for ``traced.select_host``; ``totals`` is the caller's own list;
        ``constant``: column index -> the one score of a column known to have only that one)."""
        configs, kept, verbose = self.prioritizers, tuple(totals), bool(glog.v(10))  # (kept: the totals)
        result: list[Any] | traced.Totals = traced.Totals(names, kept) if names is not None else []
        if names is None or verbose:  # (a HostPriority is always true: no __bool__ or __len__)
            names = [node.metadata.name for node in nodes] if names is None else names
            # the shared HostPriority of each (name, total), looked up in C; the few new ones made
            result = list(map(self.spread_counts.host_priorities.get, zip(names, totals)))
            if not all(result):
                for i in compress(range(len(result)), map(operator.is_, result, repeat(None))):
                    result[i] = self.spread_counts.host_priority(names[i], totals[i])
        if verbose:
            for hp in result:  # type: ignore[union-attr]
                glog.v(10).infof("Host %s => Score %d", hp.host, hp.score)
        # the event's data is built when it is first read (traced.emit_later), from what stays
        # as it is now: the names (a list that is replaced, never changed) and copies of the rest
        # (a view's columns are changed in place for the next pod). Tuples of numbers: the
        # collector stops tracking them, where a kept list is walked by every full collection
        traced.emit_later("schedule.priorities", f"scored {len(nodes)} node(s)", _ENGINE, _priorities_data,
                          pod, names, kept, self._kept_columns(score_columns, constant),
                          *self._weights_and_names(configs))
        return result

    def _kept_columns(self, score_columns: list[list[int]],
                      constant: dict[int, int] | None = None) -> tuple[tuple[int, ...], ...]:
        """The score columns as tuples for a trace that keeps them: each the tuple kept for the
        last pod while equal to it (constant columns, and columns no placement changed, are then
        one tuple for every pod, not one per pod). A column in ``constant`` (its one score, known
        by the engine without a pass) is not copied nor compared: the last pod's tuple when that
        was the same score over as many nodes (most of the default priorities' columns)."""
        last, last_constant = self.columns_memo, self.constants_memo
        same_width = len(last) == len(score_columns)
        kept: list[tuple[int, ...]] = []
        constants: list[int | None] = []
        for i, column in enumerate(score_columns):
            value = constant.get(i) if constant else None
            if value is not None and type(value) is int:
                if same_width and last_constant[i] == value and len(last[i]) == len(column):
                    now = last[i]
                else:
                    now = (value,) * len(column)
                    if same_width and last_constant[i] is None and last[i] == now:
                        now = last[i]
            else:
                value, now = None, tuple(column)
                if same_width and last[i] == now:
                    now = last[i]
            kept.append(now)
            constants.append(value)
        self.columns_memo, self.constants_memo = tuple(kept), tuple(constants)
        return self.columns_memo


def _same_configs(a: tuple[Any, ...], b: list[Any]) -> bool:
    return len(a) == len(b) and all(map(operator.is_, a, b))


def _priorities_data(pod: Any, nodes: list[str], totals: tuple[int, ...], scores: tuple[tuple[int, ...], ...],
                     weights: tuple[int, ...], names: tuple[str, ...]) -> dict[str, Any]:
    """The data of the engine's ``schedule.priorities`` event (the traced mirror's; ``pod``: a
    frozen API object, named when read)."""
    return {
        "pod": traced.pod_key(pod),
        "nodes": list(nodes),
        "scores": [list(column) for column in scores],
        "weights": list(weights),
        "names": list(names),
        "extenders": {},
        "totals": dict(zip(nodes, totals)),
    }


#: what the source pane says of the events the engine emits in the mirror's place (their stack
#: ends at scheduleOne's call of Schedule: the engine's own frames are not mirrored code)
_ENGINE = ObservedCall(
    "AcceleratedScheduler.schedule", __name__, 0, "running",
    fast_paths=("the accelerated engine (kschedlearn/accelerated: the mirror's outcomes from cached verdicts "
                "and scores) ran in place of genericScheduler.Schedule",))


def accelerate(algorithm: mirror.GenericScheduler) -> AcceleratedScheduler:
    """An AcceleratedScheduler over the same cache, predicates, priorities and extenders, going on
    with the same selectHost round-robin counter (a scheduler that already placed pods keeps its
    tie-break order)."""
    accelerated = AcceleratedScheduler(
        cached_node_info_map=ChangeLogMap(algorithm.cached_node_info_map), cache=algorithm.cache,
        predicates=algorithm.predicates,
        predicate_meta_producer=algorithm.predicate_meta_producer, prioritizers=algorithm.prioritizers,
        priority_meta_producer=algorithm.priority_meta_producer, extenders=list(algorithm.extenders))
    accelerated.last_node_index = algorithm.last_node_index
    return accelerated
