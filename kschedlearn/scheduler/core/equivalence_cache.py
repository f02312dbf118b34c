"""The equivalence cache 1.6 wrote and never called: predicate results per pod class and node.

Go: plugin/pkg/scheduler/core/equivalence_cache.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/core/equivalence_cache.go#L31-L134

In 1.6 nothing creates an ``EquivalenceCache``: ``genericScheduler.Schedule`` has only a TODO
to use it, and no code sends the invalidation requests. The idea: pods with the same
*equivalence pod* (for the defaults, ``algorithmprovider.defaults.get_equivalence_pod``: the
controller owner reference) get the same predicate verdicts on a node, so the verdicts can be
kept per (hash of the equivalence pod, node name) in a small LRU per node, and thrown away when
the node changes. Later releases finished it (1.8–1.10) with per-predicate invalidation.
kschedlearn's accelerated engine (``kschedlearn.accelerated``, ``docs/accelerated-engine.md``)
is one finished version of it.

Differs from Go: ``hashutil.DeepHashObject`` (spew-printing the object into the hash) becomes
FNV-1a/32 over the equivalence pod's ``repr`` — a different number, the same role; the
groupcache LRU is an ``OrderedDict``; the RWMutex is a plain mutex (see ``docs/status.md``).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import attrs

from kschedlearn.sim import Mutex

#: Go: const maxCacheEntries = 4096 ("TODO(harryz) figure out the right number for this, 4096 may be too big")
MAX_CACHE_ENTRIES = 4096


@attrs.frozen
class HostPredicate:
    """One cached verdict. Go: type HostPredicate struct { Fit bool; FailReasons []PredicateFailureReason } (#L34-L37)"""

    fit: bool
    fail_reasons: tuple[Any, ...] = ()


@attrs.define(eq=False)
class _LRU:
    """Go: github.com/golang/groupcache/lru.Cache — Add and Get, oldest entry dropped when full."""

    max_entries: int
    _entries: OrderedDict[int, HostPredicate] = attrs.field(factory=OrderedDict)

    def add(self, key: int, value: HostPredicate) -> None:
        self._entries[key] = value
        self._entries.move_to_end(key)
        if self.max_entries != 0 and len(self._entries) > self.max_entries:
            self._entries.popitem(last=False)

    def get(self, key: int) -> HostPredicate | None:
        value = self._entries.get(key)
        if value is not None:
            self._entries.move_to_end(key)
        return value


@attrs.define(eq=False)
class AlgorithmCache:
    """Per node: the predicate verdicts of recent equivalence classes.

    Go: type AlgorithmCache struct { predicatesCache *lru.Cache } — equivalence_cache.go#L39-L42
    ("Only consider predicates for now, priorities rely on: #31606").
    """

    predicates_cache: _LRU = attrs.field(factory=lambda: _LRU(MAX_CACHE_ENTRIES))


def new_algorithm_cache() -> AlgorithmCache:
    """Go: func newAlgorithmCache() AlgorithmCache — equivalence_cache.go#L44-L48"""
    return AlgorithmCache(predicates_cache=_LRU(MAX_CACHE_ENTRIES))


@attrs.define(eq=False)
class EquivalenceCache:
    """Go: type EquivalenceCache struct — equivalence_cache.go#L50-L55"""

    get_equivalence_pod: Any
    algorithm_cache: dict[str, AlgorithmCache] = attrs.field(factory=dict)
    _mu: Mutex = attrs.field(factory=lambda: Mutex("EquivalenceCache"))

    def _add_pod_predicate(self, pod_key: int, node_name: str, fit: bool, fail_reasons: list[Any] | None) -> None:
        """Go: func (ec *EquivalenceCache) addPodPredicate(...) — equivalence_cache.go#L64-L70"""
        if node_name not in self.algorithm_cache:
            self.algorithm_cache[node_name] = new_algorithm_cache()
        self.algorithm_cache[node_name].predicates_cache.add(pod_key, HostPredicate(fit, tuple(fail_reasons or ())))

    def add_pod_predicates_cache(self, pod: Any, fit_node_list: list[Any], failed_predicates: dict[str, list[Any]]) -> None:
        """Cache the outcome of one findNodesThatFit for the pod's class.

        Go: func (ec *EquivalenceCache) AddPodPredicatesCache(pod, fitNodeList, failedPredicates) — equivalence_cache.go#L72-L82
        """
        equivalence_hash = self._hash_equivalence_pod(pod)
        for fit_node in fit_node_list:
            self._add_pod_predicate(equivalence_hash, fit_node.metadata.name, True, None)
        for fail_node_name, fail_reasons in failed_predicates.items():
            self._add_pod_predicate(equivalence_hash, fail_node_name, False, fail_reasons)

    def get_cached_predicates(self, pod: Any, nodes: list[Any]) -> tuple[list[Any], dict[str, list[Any]], list[Any]]:
        """(nodes that fit, failed-predicate map, nodes with nothing cached) for the pod's class.

        Go: func (ec *EquivalenceCache) GetCachedPredicates(pod, nodes) — equivalence_cache.go#L84-L108
        """
        fit_node_list: list[Any] = []
        failed_predicates: dict[str, list[Any]] = {}
        no_cache_node_list: list[Any] = []
        equivalence_hash = self._hash_equivalence_pod(pod)
        for node in nodes:
            find_cache = False
            algorithm_cache = self.algorithm_cache.get(node.metadata.name)
            if algorithm_cache is not None:
                host_predicate = algorithm_cache.predicates_cache.get(equivalence_hash)
                if host_predicate is not None:
                    if host_predicate.fit:
                        fit_node_list.append(node)
                    else:
                        failed_predicates[node.metadata.name] = list(host_predicate.fail_reasons)
                    find_cache = True
            if not find_cache:
                no_cache_node_list.append(node)
        return fit_node_list, failed_predicates, no_cache_node_list

    def send_invalid_algorithm_cache_req(self, node_name: str) -> None:
        """Forget everything cached for one node. Go: SendInvalidAlgorithmCacheReq — equivalence_cache.go#L110-L116"""
        with self._mu:
            self.algorithm_cache.pop(node_name, None)

    def send_clear_all_cache_req(self) -> None:
        """Forget everything. Go: SendClearAllCacheReq — equivalence_cache.go#L118-L126"""
        with self._mu:
            for node_name in list(self.algorithm_cache):
                del self.algorithm_cache[node_name]

    def _hash_equivalence_pod(self, pod: Any) -> int:
        """Go: func (ec *EquivalenceCache) hashEquivalencePod(pod) uint64 — equivalence_cache.go#L128-L134

        Differs from Go: FNV-1a/32 over ``repr`` of the equivalence pod (module docstring).
        """
        equivalence_pod = self.get_equivalence_pod(pod)
        h = 0x811C9DC5
        for byte in repr(equivalence_pod).encode():
            h = ((h ^ byte) * 0x01000193) & 0xFFFFFFFF
        return h


def new_equivalence_cache(get_equivalence_pod_func: Any) -> EquivalenceCache:
    """Go: func NewEquivalenceCache(getEquivalencePodFunc) *EquivalenceCache — equivalence_cache.go#L57-L62"""
    return EquivalenceCache(get_equivalence_pod=get_equivalence_pod_func)
