"""Per-class decisions of the incremental phases, remembered between pods (the accelerated engine).

kschedlearn-only (see ``docs/accelerated-engine.md``, "Incremental phases"). Before it looks at
any node, ``fastpath`` decides for every pod which predicates are node-local for it, what kind
each priority is, and (when some node must be evaluated) the predicate metadata. All three are
functions of the pod's equivalence class (``equivalence_key``: namespace, labels, annotations,
owner references and the whole spec) and of the policy's functions; at 100 nodes, deciding them
again for every pod was a tenth of the engine's time. Here each is remembered per class and
reused while the policy holds the very same functions (checked by identity on every pod).
"""

from __future__ import annotations

from operator import is_
from typing import Any

import attrs

from kschedlearn.scheduler.algorithm.predicates import predicates as preds
from kschedlearn.scheduler.algorithm.predicates.metadata import PredicateMetadataFactory
from kschedlearn.scheduler.algorithm.priorities import metadata as priorities_metadata

#: how many classes (and distinct-score lists of the reduces) are remembered before starting afresh
LIMIT = 4096


def _same(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    return len(a) == len(b) and all(map(is_, a, b))


@attrs.define(eq=False)
class Plans:
    """What the incremental phases remembered, per equivalence class (one per scheduler)."""

    #: key -> (predicate names, predicate functions, is_local, sorted names, node-local names, own affinity)
    predicates: dict[str, tuple[Any, ...]] = attrs.field(factory=dict)
    #: key -> (pod_best_effort, pod_request, pod_ports) of the standard producer
    metadata: dict[str, tuple[bool, Any, dict[int, bool]]] = attrs.field(factory=dict)
    #: key -> (non_zero_request, pod_tolerations) of the default priority metadata producer
    priority_metadata_parts: dict[str, tuple[Any, Any]] = attrs.field(factory=dict)
    #: (configs, what else the classification reads, the kinds found for them)
    kinds: tuple[Any, ...] | None = None
    #: (reduce function, distinct scores) -> score -> reduced score
    reduces: dict[tuple[Any, ...], dict[int, int]] = attrs.field(factory=dict)

    def lazy_predicates(self, predicates: dict[str, Any], key: str, pod: Any, own_affinity: Any,
                        is_local: Any) -> tuple[list[str], tuple[str, ...]]:
        """``(sorted(predicates), the names is_local(fn, pod, True, own, True) keeps)``.

        ``own_affinity(pod)``: whether the pod has pod (anti-)affinity. Both answers read the
        pod only through its class (volumes, affinity) and the functions themselves.
        """
        names_now, fns_now = tuple(predicates), tuple(predicates.values())
        # (asked every time: it also reads the AffinityInAnnotations gate, which may change)
        own = own_affinity(pod)
        entry = self.predicates.get(key)
        if (entry is not None and entry[2] is is_local and entry[5] == own and _same(entry[0], names_now)
                and _same(entry[1], fns_now)):
            return entry[3], entry[4]
        names = sorted(predicates)
        local = tuple(n for n in names if is_local(predicates[n], pod, True, own, True))
        if len(self.predicates) >= LIMIT:
            self.predicates.clear()
        self.predicates[key] = (names_now, fns_now, is_local, names, local, own)
        return names, local

    def lazy_metadata(self, producer: Any, key: str, pod: Any) -> Any:
        """``producer(pod, {})`` for the standard producer (the lazy case of find_nodes_that_fit).

        With no precomputation registered, ``GetMetadata`` on an empty map is a
        ``PredicateMetadata`` of the pod, three values computed from its spec alone, and no
        anti-affinity terms. Those values are remembered per class; each call gets its own
        metadata object, request and ports map, as the producer's callers do.
        """
        factory = producer.__self__
        table = factory.precomputations if factory.precomputations is not None else preds.predicate_precomputations()
        if table or type(factory) is not PredicateMetadataFactory or pod is None:
            return producer(pod, {})
        entry = self.metadata.get(key)
        if entry is None:
            meta = producer(pod, {})
            if meta is None:
                return meta
            if len(self.metadata) >= LIMIT:
                self.metadata.clear()
            entry = self.metadata[key] = (meta.pod_best_effort, meta.pod_request.clone(), dict(meta.pod_ports))
            return meta
        best_effort, request, ports = entry
        return preds.PredicateMetadata(pod=pod, pod_best_effort=best_effort, pod_request=request.clone(),
                                       pod_ports=dict(ports), matching_anti_affinity_terms=[])

    def priority_metadata(self, producer: Any, key: str, pod: Any, info_map: Any) -> Any:
        """``producer(pod, info_map)`` for the default provider's producer (``PriorityMetadata``).

        Its fields are computed from the pod's spec and annotations alone (the map is not read):
        the request and the tolerations are remembered per class; the affinity is reconciled
        every time, as the producer does (it also reads the AffinityInAnnotations gate). Each
        call gets its own metadata object and request (the tolerations are frozen values).
        """
        if producer is not priorities_metadata.priority_metadata or pod is None:
            return producer(pod, info_map)
        entry = self.priority_metadata_parts.get(key)
        if entry is None:
            meta = producer(pod, info_map)
            if len(self.priority_metadata_parts) >= LIMIT:
                self.priority_metadata_parts.clear()
            self.priority_metadata_parts[key] = (meta.non_zero_request.clone(), meta.pod_tolerations)
            return meta
        request, tolerations = entry
        return priorities_metadata.PriorityMetadata(non_zero_request=request.clone(), pod_tolerations=tolerations,
                                                    affinity=priorities_metadata.reconcile_affinity(pod))

    def priority_kinds(self, configs: list[Any], context: tuple[Any, ...], decide: Any) -> Any:
        """``decide()`` (fastpath's classification of the priority configs), remembered while the
        configs are the same objects (frozen) and ``context`` (everything else it reads) is equal."""
        held = self.kinds
        now = tuple(configs)
        if held is not None and held[1] == context and _same(held[0], now):
            return held[2]
        result = decide()
        self.kinds = (now, context, result)
        return result
