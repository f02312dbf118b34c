"""SelectorSpreadPriority with per-node match counts kept between scheduling attempts.

kschedlearn-only (the accelerated engine, see ``docs/accelerated-engine.md``). The mirror,
like Go 1.6, walks every pod of every candidate node for every pod it schedules. Here the count
of a node's pods that match a pod's selectors is remembered per (namespace, selectors) and per
node, and recounted only for a node whose NodeInfo changed (a new snapshot object or a new
generation) — one node's pods, not the cluster's. The score formula below is the mirror's,
statement for statement (float32 rounding included), so the scores are identical.
"""

from __future__ import annotations

from operator import is_
from typing import Any

import attrs

from kschedlearn.accelerated.incremental import same_objects

from kschedlearn.accelerated import fast_spread
from kschedlearn.scheduler.algorithm.priorities import selector_spreading as mirror
from kschedlearn.scheduler.api.types import HostPriority
from kschedlearn.scheduler.schedulercache import node_info as schedulercache_node_info


@attrs.define(eq=False)
class SpreadCounts:
    """Remembered counts: (namespace, selectors) -> node name -> (NodeInfo, generation, count, pods).

    ``pods`` is the tuple of the pod objects the count was taken over: a node whose new
    ``NodeInfo`` lists those very objects first and then more (a placement appends one) is
    counted on from the old count over the new pods only (``extended_nodes``).
    """

    counts: dict[tuple[Any, ...], dict[str, tuple[Any, int, float, tuple[Any, ...]]]] = attrs.field(factory=dict)
    recounted_nodes: int = 0
    extended_nodes: int = 0
    #: the float32 formula is a pure function of its six inputs: memoised (exact, no rounding change)
    scores: dict[tuple[Any, ...], int] = attrs.field(factory=dict)
    #: HostPriority values are frozen, so one object per (host, score) serves every pod
    host_priorities: dict[tuple[str, int], HostPriority] = attrs.field(factory=dict)

    def host_priority(self, host: str, score: int) -> HostPriority:
        """The shared ``HostPriority(host=host, score=score)``."""
        hp = self.host_priorities.get((host, score))
        if hp is None:
            hp = self.host_priorities[(host, score)] = HostPriority(host=host, score=score)
        return hp

    def count(self, per_node: dict[str, tuple[Any, int, float, tuple[Any, ...]]], node_name: str, info: Any,
              namespace: str, selectors: list[Any]) -> float:
        """The float32 count of ``info``'s pods matching the selectors (the mirror's inner loop).

        ``per_node`` is ``counts[(namespace, selectors)]``.
        """
        entry = per_node.get(node_name)
        if entry is not None and entry[0] is info and info is not None and entry[1] == info.generation:
            return entry[2]
        pods = schedulercache_node_info.pods(info)
        if entry is not None and _extends(pods, entry[3]):
            # The mirror's loop over the old pods ended at entry[2]; it goes on over the new ones.
            self.extended_nodes += 1
            count = _recount(namespace, selectors, pods[len(entry[3]):], entry[2])
        else:
            self.recounted_nodes += 1
            count = _recount(namespace, selectors, pods)
        if info is not None:
            per_node[node_name] = (info, info.generation, count, tuple(pods))
        return count


def _extends(pods: list[Any], counted: tuple[Any, ...]) -> bool:
    """``pods`` begins with the very objects of ``counted`` (pods are frozen values: the same
    object gives the same verdict), in the same order."""
    return len(pods) >= len(counted) and all(map(is_, pods, counted))  # (map stops at counted's end)


def _recount(namespace: str, selectors: list[Any], pods: list[Any], start: float = 0.0) -> float:
    """The float32 count of ``pods`` matching the selectors (the mirror's inner loop), going on
    from ``start`` (a count the same loop reached over earlier pods of the node)."""
    all_terms = None if fast_spread.stand_down() else fast_spread.selector_terms(selectors)
    if all_terms is not None:
        # equality-only selectors: the fast path's inline test, its integer count made the
        # mirror's float32 count (integers below 2**24 are exact; the count stops there)
        n = start + fast_spread.count_pods(namespace, all_terms, pods)
        return float(n) if n < mirror._F32_EXACT else mirror._F32_EXACT
    count = mirror._f32(start)
    for node_pod in pods:
        node_pod_meta = node_pod.metadata
        if namespace != node_pod_meta.namespace:
            continue
        if node_pod_meta.deletion_timestamp is not None:
            continue
        matches = False
        for selector in selectors:
            if selector.matches(node_pod_meta.labels):
                matches = True
                break
        if matches:
            count = count + 1.0 if count < mirror._F32_EXACT else mirror._f32(count + 1)
    return count


def _score(max_count_by_node_name: float, count: float, have_zones: bool, node_has_zone: bool,
           max_count_by_zone: float, zone_count: float) -> int:
    """The mirror's per-node float32 formula (CalculateSpreadPriority's last loop), verbatim."""
    f32 = mirror._f32
    f_score = mirror.MAX_PRIORITY
    if max_count_by_node_name > 0:
        share = f32((max_count_by_node_name - count) / max_count_by_node_name)
        f_score = f32(mirror.MAX_PRIORITY * share)
    if have_zones:
        if node_has_zone:
            zone_score = f32(mirror.MAX_PRIORITY * mirror._zone_share(max_count_by_zone, zone_count))
            f_score = f32(f32(f_score * mirror._ONE_MINUS_ZONE_WEIGHTING) + f32(mirror.ZONE_WEIGHTING * zone_score))
    return mirror._go_int(f_score)


def accelerated_spread_priority(spread: mirror.SelectorSpread, state: SpreadCounts) -> Any:
    """An old-style priority function giving ``spread.calculate_spread_priority``'s result."""

    def calculate(pod: Any, node_name_to_info: dict[str, Any], nodes: list[Any]) -> list[HostPriority]:
        selectors = spread._get_selectors(pod)
        counts_by_node_name: dict[str, float] = {}
        counts_by_zone: dict[str, float] = {}
        zone_ids = [mirror.get_zone_key(node) for node in nodes]
        max_count_by_node_name = mirror._f32(0.0)
        if len(selectors) > 0:
            namespace = pod.metadata.namespace
            per_node = state.counts.setdefault((namespace, tuple(selectors)), {})
            for node, zone_id in zip(nodes, zone_ids):
                node_name = node.metadata.name
                count = state.count(per_node, node_name, node_name_to_info.get(node_name), namespace, selectors)
                counts_by_node_name[node_name] = count
                if count > max_count_by_node_name:
                    max_count_by_node_name = count
                if zone_id != "":
                    counts_by_zone[zone_id] = mirror._f32(counts_by_zone.get(zone_id, 0.0) + count)
        have_zones = len(counts_by_zone) != 0
        max_count_by_zone = mirror._f32(0.0)
        for count in counts_by_zone.values():
            if count > max_count_by_zone:
                max_count_by_zone = count
        result: list[HostPriority] = []
        memo = state.scores
        for node, zone_id in zip(nodes, zone_ids):
            node_name = node.metadata.name
            zone_id = zone_id if have_zones else ""
            inputs = (max_count_by_node_name, counts_by_node_name.get(node_name, 0.0), have_zones, zone_id != "",
                      max_count_by_zone, counts_by_zone.get(zone_id, 0.0))
            score = memo.get(inputs)
            if score is None:
                score = memo[inputs] = _score(*inputs)
            result.append(state.host_priority(node_name, score))
        return result

    return calculate


@attrs.define(eq=False)
class SelectorMemo:
    """``getSelectors(pod)`` remembered per (namespace, labels) while the four stores hold the same objects.

    The mirror's ``get_selectors`` reads only the pod's namespace and labels (its name appears in
    lister error texts it swallows) and the Service, RC, ReplicaSet and StatefulSet stores. Used
    only when all four are informer-backed listers (their stores can be compared object by object).
    """

    entries: dict[tuple[Any, ...], tuple[list[list[Any]], list[Any], dict[str, Any]]] = attrs.field(factory=dict)

    def selectors(self, spread: mirror.SelectorSpread, pod: Any) -> list[Any]:
        """``spread._get_selectors(pod)``."""
        return self.lookup(spread, pod)[0]

    def lookup(self, spread: mirror.SelectorSpread, pod: Any) -> tuple[list[Any], dict[str, Any] | None]:
        """``spread._get_selectors(pod)`` and a dict that lives exactly as long as this remembered
        answer (a caller keeps there what it derived from these selectors; None: not remembered)."""
        listers = (spread.service_lister, spread.controller_lister, spread.replica_set_lister,
                   spread.stateful_set_lister)
        if not all(type(lister) in _INFORMER_LISTERS for lister in listers):
            return spread._get_selectors(pod), None
        stores = [lister.indexer.list() for lister in listers]
        key = (pod.metadata.namespace, tuple(sorted(pod.metadata.labels.items())))
        entry = self.entries.get(key)
        if entry is not None and all(map(same_objects, stores, entry[0])):
            return list(entry[1]), entry[2]
        result = spread._get_selectors(pod)
        self.entries[key] = (stores, list(result), {})
        return result, self.entries[key][2]


def _informer_listers() -> frozenset[type]:
    from kschedlearn.client_go.listers.apps.v1beta1 import StatefulSetLister
    from kschedlearn.client_go.listers.core.v1 import ReplicationControllerLister, ServiceLister
    from kschedlearn.client_go.listers.extensions.v1beta1 import ReplicaSetLister
    return frozenset({ServiceLister, ReplicationControllerLister, ReplicaSetLister, StatefulSetLister})


_INFORMER_LISTERS = _informer_listers()
