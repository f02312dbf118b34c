"""InterPodAffinityPriority: score nodes by the *preferred* pod (anti-)affinity of all pods involved.

Go: plugin/pkg/scheduler/algorithm/priorities/interpod_affinity.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/interpod_affinity.go#L34-L236

An old-style priority function. For every existing pod it adds (or subtracts) term weights to
every candidate node in the same topology domain as that pod's node:

- the incoming pod's preferred affinity terms the existing pod matches: ``+weight``;
- the incoming pod's preferred anti-affinity terms the existing pod matches: ``-weight``;
- the existing pod's *required* affinity terms the incoming pod matches:
  ``+hardPodAffinityWeight`` (symmetry; skipped when that weight is 0);
- the existing pod's preferred affinity / anti-affinity terms the incoming pod matches: ``±weight``.

Then counts are normalised to 0..10 over ``[min(0, counts), max(0, counts)]`` — 0 is always in
the range (spec 13.10), so a lone negative count maps to 0 and zero counts do not all become 10.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Optional

import attrs

from kschedlearn.apimachinery.apis.meta.v1 import label_selector_as_selector
from kschedlearn.scheduler.algorithm.priorities.util.topologies import (
    Topologies,
    get_namespaces_from_pod_affinity_term,
    pod_matches_terms_namespace_and_selector,
)
from kschedlearn.scheduler.api.types import HostPriority
from kschedlearn.scheduler.schedulercache.reconcile_affinity import reconcile_affinity
# Go's NodeInfo accessors are nil-safe: a node missing from nodeNameToInfo is a nil *NodeInfo, whose
# Node() is nil, Pods() empty, ... (node_info.go); ni.<accessor>(info) is that call, for None too.
from kschedlearn.scheduler.schedulercache import node_info as ni

if TYPE_CHECKING:
    from kschedlearn.api.v1 import Node, Pod, PodAffinityTerm, WeightedPodAffinityTerm
    from kschedlearn.scheduler.algorithm.listers import NodeLister, PodLister
    from kschedlearn.scheduler.algorithm.types import PriorityFunction
    from kschedlearn.scheduler.schedulercache.node_info import NodeInfo


@attrs.frozen(kw_only=True)
class InterPodAffinity:
    """Configuration of the priority: node lookup, listers, symmetric weight, failure domains.

    ``info`` is the predicates' NodeInfo getter (``get_node_info(name) -> Node``), used to find
    the node an existing pod runs on.

    Go: type InterPodAffinity struct { info; nodeLister; podLister; hardPodAffinityWeight; failureDomains }
    """

    info: object
    node_lister: "NodeLister"
    pod_lister: "PodLister"
    hard_pod_affinity_weight: int
    failure_domains: Topologies

    def calculate_inter_pod_affinity_priority(
        self, pod: "Pod", node_name_to_info: "dict[str, NodeInfo]", nodes: "list[Node]"
    ) -> list[HostPriority]:
        """Sum the weights described in the module docstring per node, then scale to 0..10.

        Go: func (ipa *InterPodAffinity) CalculateInterPodAffinityPriority(pod *v1.Pod, nodeNameToInfo map[string]*schedulercache.NodeInfo, nodes []*v1.Node) (schedulerapi.HostPriorityList, error)
        https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/interpod_affinity.go#L113-L236
        Differs from Go: Go walks the node-info map with ``workqueue.Parallelize(16, ...)`` in
        random map order and keeps the first error; here a plain loop in the map's insertion
        order, and the first error is raised at the same point Go returns it (after the walk).
        No V(10) log line.
        """
        affinity = reconcile_affinity(pod)
        has_affinity_constraints = affinity is not None and affinity.pod_affinity is not None
        has_anti_affinity_constraints = affinity is not None and affinity.pod_anti_affinity is not None

        all_node_names = list(node_name_to_info)

        # Per-candidate-node running sums (float64, like Go).
        pm = _new_pod_affinity_priority_map(nodes, self.failure_domains)

        def process_pod(existing_pod: "Pod") -> None:
            existing_pod_node = self.info.get_node_info(existing_pod.spec.node_name)  # type: ignore[attr-defined]
            existing_pod_affinity = reconcile_affinity(existing_pod)
            existing_has_affinity_constraints = (
                existing_pod_affinity is not None and existing_pod_affinity.pod_affinity is not None
            )
            existing_has_anti_affinity_constraints = (
                existing_pod_affinity is not None and existing_pod_affinity.pod_anti_affinity is not None
            )

            if has_affinity_constraints:
                # The incoming pod's soft affinity terms, matched by the existing pod.
                terms = affinity.pod_affinity.preferred_during_scheduling_ignored_during_execution
                pm.process_terms(terms, pod, existing_pod, existing_pod_node, 1)
            if has_anti_affinity_constraints:
                # The incoming pod's soft anti-affinity terms, matched by the existing pod.
                terms = affinity.pod_anti_affinity.preferred_during_scheduling_ignored_during_execution
                pm.process_terms(terms, pod, existing_pod, existing_pod_node, -1)

            if existing_has_affinity_constraints:
                # Symmetry: the existing pod's *hard* affinity pulls the incoming pod towards it.
                if self.hard_pod_affinity_weight > 0:
                    hard_terms = existing_pod_affinity.pod_affinity.required_during_scheduling_ignored_during_execution
                    for term in hard_terms:
                        pm.process_term(term, existing_pod, pod, existing_pod_node, float(self.hard_pod_affinity_weight))
                terms = existing_pod_affinity.pod_affinity.preferred_during_scheduling_ignored_during_execution
                pm.process_terms(terms, existing_pod, pod, existing_pod_node, 1)
            if existing_has_anti_affinity_constraints:
                terms = existing_pod_affinity.pod_anti_affinity.preferred_during_scheduling_ignored_during_execution
                pm.process_terms(terms, existing_pod, pod, existing_pod_node, -1)

        def process_node(i: int) -> None:
            node_info = node_name_to_info[all_node_names[i]]
            if has_affinity_constraints or has_anti_affinity_constraints:
                # The incoming pod has terms of its own: every existing pod may match them.
                existing_pods = ni.pods(node_info)
            else:
                # Otherwise only pods with (anti-)affinity terms can contribute (symmetry).
                existing_pods = ni.pods_with_affinity(node_info)
            for existing_pod in existing_pods:
                try:
                    process_pod(existing_pod)
                except Exception as err:  # noqa: BLE001 - recorded like Go's setError, raised below
                    pm.set_error(err)

        for i in range(len(all_node_names)):
            process_node(i)
        if pm.first_error is not None:
            raise pm.first_error

        max_count = 0.0
        min_count = 0.0
        for node in nodes:
            count = pm.counts.get(node.metadata.name, 0.0)
            if count > max_count:
                max_count = count
            if count < min_count:
                min_count = count

        result: list[HostPriority] = []
        for node in nodes:
            f_score = 0.0
            if (max_count - min_count) > 0:
                f_score = 10 * ((pm.counts.get(node.metadata.name, 0.0) - min_count) / (max_count - min_count))
            result.append(HostPriority(host=node.metadata.name, score=int(f_score)))
        return result


@attrs.define(eq=False)
class _PodAffinityPriorityMap:
    """Running per-node sums while the existing pods are walked.

    Go: type podAffinityPriorityMap struct { sync.Mutex; nodes; counts; failureDomains; firstError }
    Differs from Go: no mutex (there is a single goroutine).
    """

    nodes: "list[Node]"
    counts: dict[str, float]
    failure_domains: Topologies
    first_error: Optional[Exception] = None

    def set_error(self, err: Exception) -> None:
        """Keep only the first error. Go: func (p *podAffinityPriorityMap) setError(err error)"""
        if self.first_error is None:
            self.first_error = err

    def process_term(
        self,
        term: "PodAffinityTerm",
        pod_defining_affinity_term: "Pod",
        pod_to_check: "Pod",
        fixed_node: "Node",
        weight: float,
    ) -> None:
        """If ``pod_to_check`` matches ``term``, add ``weight`` to every candidate node sharing
        the term's topology domain with ``fixed_node``.

        Go: func (p *podAffinityPriorityMap) processTerm(term *v1.PodAffinityTerm, podDefiningAffinityTerm, podToCheck *v1.Pod, fixedNode *v1.Node, weight float64)
        https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/interpod_affinity.go#L85-L104
        """
        namespaces = get_namespaces_from_pod_affinity_term(pod_defining_affinity_term, term)
        try:
            selector = label_selector_as_selector(term.label_selector)
        except Exception as err:  # noqa: BLE001 - Go records the error and skips the term
            self.set_error(err)
            return
        match = pod_matches_terms_namespace_and_selector(pod_to_check, namespaces, selector)
        if match:
            for node in self.nodes:
                if self.failure_domains.nodes_have_same_topology_key(node, fixed_node, term.topology_key):
                    self.counts[node.metadata.name] = self.counts.get(node.metadata.name, 0.0) + weight

    def process_terms(
        self,
        terms: "Sequence[WeightedPodAffinityTerm]",
        pod_defining_affinity_term: "Pod",
        pod_to_check: "Pod",
        fixed_node: "Node",
        multiplier: int,
    ) -> None:
        """``process_term`` for each weighted term, with weight ``term.weight * multiplier``.

        Go: func (p *podAffinityPriorityMap) processTerms(terms []v1.WeightedPodAffinityTerm, podDefiningAffinityTerm, podToCheck *v1.Pod, fixedNode *v1.Node, multiplier int)
        https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/interpod_affinity.go#L106-L111
        """
        for term in terms:
            self.process_term(
                term.pod_affinity_term, pod_defining_affinity_term, pod_to_check, fixed_node, float(term.weight * multiplier)
            )


def _new_pod_affinity_priority_map(nodes: "list[Node]", failure_domains: Topologies) -> _PodAffinityPriorityMap:
    """Go: func newPodAffinityPriorityMap(nodes []*v1.Node, failureDomains priorityutil.Topologies) *podAffinityPriorityMap"""
    return _PodAffinityPriorityMap(nodes=nodes, counts={}, failure_domains=failure_domains)


def new_inter_pod_affinity_priority(
    info: object,
    node_lister: "NodeLister",
    pod_lister: "PodLister",
    hard_pod_affinity_weight: int,
    failure_domains: "Sequence[str]",
    *,
    affinity_in_annotations: bool | None = None,
) -> "PriorityFunction":
    """Build the old-style InterPodAffinityPriority function.

    ``failure_domains`` are the default topology keys (the ``--failure-domains`` flag), used only
    for terms with an empty topology key while the alpha gate ``AffinityInAnnotations`` is on.

    Go: func NewInterPodAffinityPriority(info predicates.NodeInfo, nodeLister algorithm.NodeLister, podLister algorithm.PodLister, hardPodAffinityWeight int, failureDomains []string) algorithm.PriorityFunction
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/interpod_affinity.go#L41-L53
    Differs from Go: ``affinity_in_annotations`` overrides the process's feature gate when not
    None (by default the gate is read at each call, as in Go).
    """
    inter_pod_affinity = InterPodAffinity(
        info=info,
        node_lister=node_lister,
        pod_lister=pod_lister,
        hard_pod_affinity_weight=hard_pod_affinity_weight,
        failure_domains=Topologies(default_keys=tuple(failure_domains), affinity_in_annotations=affinity_in_annotations),
    )
    return inter_pod_affinity.calculate_inter_pod_affinity_priority
