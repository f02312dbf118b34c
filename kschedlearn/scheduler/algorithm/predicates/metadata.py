"""The predicate metadata producer: what to compute once per pod before the node loop.

Go: plugin/pkg/scheduler/algorithm/predicates/metadata.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/predicates/metadata.go#L30-L59
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Mapping, Optional

import attrs

from kschedlearn.scheduler.algorithm.predicates import predicates as preds

if TYPE_CHECKING:
    from kschedlearn.api.v1 import Pod
    from kschedlearn.scheduler.algorithm.listers import PodLister
    from kschedlearn.scheduler.schedulercache.node_info import NodeInfo


@attrs.define(eq=False)
class PredicateMetadataFactory:
    """Go: predicates.PredicateMetadataFactory {podLister}"""

    pod_lister: "PodLister"
    # kschedlearn-only: the precomputation table of this scheduler process's registry (None: the
    # module-level fallback table of ``predicates``).
    precomputations: Optional[Mapping[str, preds.PredicateMetadataModifier]] = None

    def get_metadata(
        self, pod: Optional["Pod"], node_name_to_info_map: Mapping[str, "NodeInfo"]
    ) -> Optional[preds.PredicateMetadata]:
        """Compute the metadata, or ``None`` (then every predicate takes its slow path).

        ``None`` when ``pod`` is None or when some map entry has no node object (spec §7.1).
        After the fields are set, every registered precomputation runs on the metadata.

        Go: PredicateMetadataFactory.GetMetadata
        Differs from Go: precomputations run in registration order (Go: random map order).
        """
        if pod is None:
            return None
        try:
            matching_terms = preds.get_matching_anti_affinity_terms(pod, node_name_to_info_map)
        except Exception:
            return None
        predicate_metadata = preds.PredicateMetadata(
            pod=pod,
            pod_best_effort=preds._is_pod_best_effort(pod),
            pod_request=preds.get_resource_request(pod),
            pod_ports=preds.get_used_ports(pod),
            matching_anti_affinity_terms=matching_terms,
        )
        table = self.precomputations if self.precomputations is not None else preds.predicate_precomputations()
        for _predicate_name, precompute_func in table.items():
            precompute_func(predicate_metadata)
        return predicate_metadata


def new_predicate_metadata_factory(
    pod_lister: "PodLister", precomputations: Optional[Mapping[str, preds.PredicateMetadataModifier]] = None
):
    """Return the metadata producer ``(pod, node_name_to_info_map) -> meta``.

    Go: predicates.NewPredicateMetadataFactory (returns factory.GetMetadata)
    Differs from Go: ``precomputations`` is the table of the registry the scheduler process owns
    (Go reads the package variable).
    """
    factory = PredicateMetadataFactory(pod_lister, precomputations)
    return factory.get_metadata


def predicate_metadata(
    pod: "Pod", node_name_to_info_map: Optional[Mapping[str, "NodeInfo"]]
) -> Optional[preds.PredicateMetadata]:
    """Metadata for ``pod`` with a pod lister that knows only ``pod`` (test convenience).

    Go: the ``PredicateMetadata(p, nodeInfo)`` helper of predicates_test.go.
    """
    from kschedlearn.scheduler.testing.fake_lister import FakePodLister

    factory = PredicateMetadataFactory(FakePodLister([pod]))
    return factory.get_metadata(pod, node_name_to_info_map or {})
