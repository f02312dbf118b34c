"""The default algorithm provider: every predicate and priority 1.6 registers at start-up.

Go: plugin/pkg/scheduler/algorithmprovider/defaults/defaults.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithmprovider/defaults/defaults.go#L37-L241

Registers: the two metadata producers; the providers ``DefaultProvider`` and
``ClusterAutoscalerProvider`` (10 predicates each; 7 priorities, the autoscaler one with
MostRequestedPriority instead of LeastRequestedPriority); extra names a policy file may use
(PodFitsPorts, PodFitsHostPorts, PodFitsResources, HostName, MatchNodeSelector;
ServiceSpreadingPriority, EqualPriority, ImageLocalityPriority, MostRequestedPriority); and
GetEquivalencePod (unused by 1.6 scheduling).

Differs from Go: Go does all this in ``init()`` when the package is linked in. Here
:func:`register_defaults` does it, on an explicit registry or the default one (which calls it
on first use). ``KUBE_MAX_PD_VOLS`` is read when a MaxPDVolumeCount factory runs, as in Go
(``os.Getenv`` inside the factory), from the ``environ`` mapping given to
:func:`register_defaults`, or from ``os.environ`` at that moment when none was given.
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Optional

import attrs

from kschedlearn.api.v1.meta import LABEL_HOSTNAME, LABEL_ZONE_FAILURE_DOMAIN, LABEL_ZONE_REGION, OwnerReference
from kschedlearn.scheduler.algorithm.listers import (
    EmptyControllerLister,
    EmptyReplicaSetLister,
    EmptyStatefulSetLister,
)
from kschedlearn.scheduler.algorithm.predicates import predicates
from kschedlearn.scheduler.algorithm.predicates.metadata import new_predicate_metadata_factory
from kschedlearn.scheduler.algorithm.priorities.balanced_resource_allocation import balanced_resource_allocation_map
from kschedlearn.scheduler.algorithm.priorities.image_locality import image_locality_priority_map
from kschedlearn.scheduler.algorithm.priorities.interpod_affinity import new_inter_pod_affinity_priority
from kschedlearn.scheduler.algorithm.priorities.least_requested import least_requested_priority_map
from kschedlearn.scheduler.algorithm.priorities.metadata import priority_metadata
from kschedlearn.scheduler.algorithm.priorities.most_requested import most_requested_priority_map
from kschedlearn.scheduler.algorithm.priorities.node_affinity import (
    calculate_node_affinity_priority_map,
    calculate_node_affinity_priority_reduce,
)
from kschedlearn.scheduler.algorithm.priorities.node_prefer_avoid_pods import (
    calculate_node_prefer_avoid_pods_priority_map,
)
from kschedlearn.scheduler.algorithm.priorities.selector_spreading import new_selector_spread_priority
from kschedlearn.scheduler.algorithm.priorities.taint_toleration import (
    compute_taint_toleration_priority_map,
    compute_taint_toleration_priority_reduce,
)
from kschedlearn.scheduler.core.generic_scheduler import equal_priority_map
from kschedlearn.scheduler.factory import plugins as factory
from kschedlearn.scheduler.schedulercache.node_info import NilPointerDereference
from kschedlearn.trace import glog

if TYPE_CHECKING:
    from kschedlearn.api.v1 import Pod
    from kschedlearn.scheduler.factory.plugins import PluginFactoryArgs, PluginRegistry

DEFAULT_MAX_GCE_PD_VOLUMES = 16
"""Go: DefaultMaxGCEPDVolumes — GCE instances can have up to 16 PD volumes attached."""
DEFAULT_MAX_AZURE_DISK_VOLUMES = 16
"""Go: DefaultMaxAzureDiskVolumes"""
DEFAULT_MAX_EBS_VOLUMES = predicates.DEFAULT_MAX_EBS_VOLUMES
"""Go: aws.DefaultMaxEBSVolumes (39), pkg/cloudprovider/providers/aws/aws.go#L179-L182"""
CLUSTER_AUTOSCALER_PROVIDER = "ClusterAutoscalerProvider"
"""Go: ClusterAutoscalerProvider"""
STATEFUL_SET_KIND = "StatefulSet"
"""Go: StatefulSetKind (declared, unused)"""
KUBE_MAX_PD_VOLS = "KUBE_MAX_PD_VOLS"
"""Go: KubeMaxPDVols — one environment variable overriding all three volume limits."""

DEFAULT_FAILURE_DOMAINS = (LABEL_HOSTNAME, LABEL_ZONE_FAILURE_DOMAIN, LABEL_ZONE_REGION)
"""Go: v1.DefaultFailureDomains split on commas (pkg/api/v1/types.go). 1.6's affinity
constructors use it internally; the Python constructors take it as a parameter."""


def register_defaults(
    *, registry: Optional["PluginRegistry"] = None, environ: Optional[Mapping[str, str]] = None
) -> None:
    """Register everything 1.6's defaults package registers, in Go's order.

    Go: func init() in defaults.go
    Differs from Go: explicit call (see the module docstring); ``environ`` replaces the process
    environment for ``KUBE_MAX_PD_VOLS``.
    """
    reg = registry
    # Metadata computed once per pod, shared by all predicates / all priorities.
    factory.register_predicate_metadata_producer_factory(
        lambda args: new_predicate_metadata_factory(args.pod_lister, args.predicate_precomputations), registry=reg
    )
    factory.register_priority_metadata_producer_factory(lambda args: priority_metadata, registry=reg)

    factory.register_algorithm_provider(
        factory.DEFAULT_PROVIDER, _default_predicates(reg, environ), _default_priorities(reg), registry=reg
    )
    # Same predicates; packs nodes (MostRequested) so the autoscaler can remove empty ones.
    factory.register_algorithm_provider(
        CLUSTER_AUTOSCALER_PROVIDER,
        _default_predicates(reg, environ),
        _copy_and_replace(_default_priorities(reg), "LeastRequestedPriority", "MostRequestedPriority"),
        registry=reg,
    )

    # Not in any provider, but a policy file may name them.
    # PodFitsPorts is the 1.0 name of PodFitsHostPorts, kept for old policy files.
    factory.register_fit_predicate("PodFitsPorts", predicates.pod_fits_host_ports, registry=reg)
    # The next three are also part of GeneralPredicates.
    factory.register_fit_predicate("PodFitsHostPorts", predicates.pod_fits_host_ports, registry=reg)
    factory.register_fit_predicate("PodFitsResources", predicates.pod_fits_resources, registry=reg)
    factory.register_fit_predicate("HostName", predicates.pod_fits_host, registry=reg)
    factory.register_fit_predicate("MatchNodeSelector", predicates.pod_selector_matches, registry=reg)

    factory.register_get_equivalence_pod_function(get_equivalence_pod, registry=reg)

    # The 1.0 spreading priority: services only (empty RC/RS/StatefulSet listers).
    factory.register_priority_config_factory(
        "ServiceSpreadingPriority",
        factory.PriorityConfigFactory(
            function=lambda args: new_selector_spread_priority(
                args.service_lister, EmptyControllerLister(), EmptyReplicaSetLister(), EmptyStatefulSetLister()
            ),
            weight=1,
        ),
        registry=reg,
    )
    factory.register_priority_function2("EqualPriority", equal_priority_map, None, 1, registry=reg)
    factory.register_priority_function2("ImageLocalityPriority", image_locality_priority_map, None, 1, registry=reg)
    factory.register_priority_function2("MostRequestedPriority", most_requested_priority_map, None, 1, registry=reg)


def _default_predicates(reg: Optional["PluginRegistry"], environ: Optional[Mapping[str, str]]) -> set[str]:
    """Register the DefaultProvider predicates and return their names.

    Go: func defaultPredicates() sets.String
    """

    def max_ebs(args: "PluginFactoryArgs") -> Any:
        max_vols = _get_max_vols(DEFAULT_MAX_EBS_VOLUMES, environ)
        return predicates.new_max_pd_volume_count_predicate(
            predicates.EBS_VOLUME_FILTER, max_vols, args.pv_info, args.pvc_info
        )

    def max_gce_pd(args: "PluginFactoryArgs") -> Any:
        max_vols = _get_max_vols(DEFAULT_MAX_GCE_PD_VOLUMES, environ)
        return predicates.new_max_pd_volume_count_predicate(
            predicates.GCE_PD_VOLUME_FILTER, max_vols, args.pv_info, args.pvc_info
        )

    def max_azure_disk(args: "PluginFactoryArgs") -> Any:
        max_vols = _get_max_vols(DEFAULT_MAX_AZURE_DISK_VOLUMES, environ)
        return predicates.new_max_pd_volume_count_predicate(
            predicates.AZURE_DISK_VOLUME_FILTER, max_vols, args.pv_info, args.pvc_info
        )

    return {
        factory.register_fit_predicate_factory(
            "NoVolumeZoneConflict",
            lambda args: predicates.new_volume_zone_predicate(args.pv_info, args.pvc_info),
            registry=reg,
        ),
        factory.register_fit_predicate_factory("MaxEBSVolumeCount", max_ebs, registry=reg),
        factory.register_fit_predicate_factory("MaxGCEPDVolumeCount", max_gce_pd, registry=reg),
        factory.register_fit_predicate_factory("MaxAzureDiskVolumeCount", max_azure_disk, registry=reg),
        factory.register_fit_predicate_factory(
            "MatchInterPodAffinity",
            lambda args: predicates.new_pod_affinity_predicate(
                args.node_info, args.pod_lister, list(DEFAULT_FAILURE_DOMAINS)
            ),
            registry=reg,
        ),
        factory.register_fit_predicate("NoDiskConflict", predicates.no_disk_conflict, registry=reg),
        # The checks every Kubernetes component (kubelet included) agrees on.
        factory.register_fit_predicate("GeneralPredicates", predicates.general_predicates, registry=reg),
        factory.register_fit_predicate("PodToleratesNodeTaints", predicates.pod_tolerates_node_taints, registry=reg),
        factory.register_fit_predicate(
            "CheckNodeMemoryPressure", predicates.check_node_memory_pressure_predicate, registry=reg
        ),
        factory.register_fit_predicate(
            "CheckNodeDiskPressure", predicates.check_node_disk_pressure_predicate, registry=reg
        ),
    }


def _default_priorities(reg: Optional["PluginRegistry"]) -> set[str]:
    """Register the DefaultProvider priorities (with their weights) and return their names.

    Go: func defaultPriorities() sets.String
    """
    return {
        factory.register_priority_config_factory(
            "SelectorSpreadPriority",
            factory.PriorityConfigFactory(
                function=lambda args: new_selector_spread_priority(
                    args.service_lister, args.controller_lister, args.replica_set_lister, args.stateful_set_lister
                ),
                weight=1,
            ),
            registry=reg,
        ),
        factory.register_priority_config_factory(
            "InterPodAffinityPriority",
            factory.PriorityConfigFactory(
                function=lambda args: new_inter_pod_affinity_priority(
                    args.node_info,
                    args.node_lister,
                    args.pod_lister,
                    args.hard_pod_affinity_symmetric_weight,
                    DEFAULT_FAILURE_DOMAINS,
                ),
                weight=1,
            ),
            registry=reg,
        ),
        factory.register_priority_function2("LeastRequestedPriority", least_requested_priority_map, None, 1, registry=reg),
        factory.register_priority_function2(
            "BalancedResourceAllocation", balanced_resource_allocation_map, None, 1, registry=reg
        ),
        # 10000: large enough to outweigh every other priority together (max 6 x 10 = 60).
        factory.register_priority_function2(
            "NodePreferAvoidPodsPriority", calculate_node_prefer_avoid_pods_priority_map, None, 10000, registry=reg
        ),
        factory.register_priority_function2(
            "NodeAffinityPriority",
            calculate_node_affinity_priority_map,
            calculate_node_affinity_priority_reduce,
            1,
            registry=reg,
        ),
        factory.register_priority_function2(
            "TaintTolerationPriority",
            compute_taint_toleration_priority_map,
            compute_taint_toleration_priority_reduce,
            1,
            registry=reg,
        ),
    }


_GO_INT_SYNTAX = re.compile(r"[+-]?[0-9]+")
_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1


def _go_atoi(s: str) -> int:
    """Go 1.7's ``strconv.Atoi`` (= ParseInt(s, 10, 0) on amd64): sign + ASCII digits only.

    Raises ValueError with Go's error text. [M] k8s 1.6 was built with Go 1.7, whose Atoi
    reports errors as ``strconv.ParseInt`` (Go 1.8 renamed them ``strconv.Atoi``).
    """
    if _GO_INT_SYNTAX.fullmatch(s) is None or not s.isascii():
        raise ValueError(f'strconv.ParseInt: parsing "{s}": invalid syntax')
    value = int(s)
    if not _INT64_MIN <= value <= _INT64_MAX:
        raise ValueError(f'strconv.ParseInt: parsing "{s}": value out of range')
    return value


def _get_max_vols(default_val: int, environ: Optional[Mapping[str, str]] = None) -> int:
    """``KUBE_MAX_PD_VOLS`` if it is a positive integer, else ``default_val`` (logging why).

    Go: func getMaxVols(defaultVal int) int (reads os.Getenv; the "maxiumum" typo is Go's)
    Differs from Go: the environment comes from ``environ`` when given.
    """
    env = os.environ if environ is None else environ
    raw_max_vols = env.get(KUBE_MAX_PD_VOLS, "")
    if raw_max_vols != "":
        try:
            parsed_max_vols = _go_atoi(raw_max_vols)
        except ValueError as err:
            glog.errorf("Unable to parse maxiumum PD volumes value, using default of %v: %v", default_val, err)
        else:
            if parsed_max_vols <= 0:
                glog.errorf("Maximum PD volumes must be a positive value, using default of %v", default_val)
            else:
                return parsed_max_vols
    return default_val


def _copy_and_replace(keys: Iterable[str], replace_what: str, replace_with: str) -> set[str]:
    """A copy of ``keys`` with one name swapped for another (if present).

    Go: func copyAndReplace(set sets.String, replaceWhat, replaceWith string) sets.String
    """
    result = set(keys)
    if replace_what in result:
        result.discard(replace_what)
        result.add(replace_with)
    return result


@attrs.frozen(kw_only=True)
class EquivalencePod:
    """Pod attributes that make two pods interchangeable for scheduling: the controller ref.

    Go: type EquivalencePod struct { ControllerRef metav1.OwnerReference }
    """

    controller_ref: OwnerReference = attrs.field(factory=OwnerReference)


def get_equivalence_pod(pod: "Pod") -> EquivalencePod:
    """The pod's equivalence class: its first owner reference with ``controller`` true.

    1.6 quirk: Go dereferences ``*ref.Controller`` without a nil check, so an owner reference
    that leaves ``controller`` unset panics here (raised as ``NilPointerDereference``).
    Registered by the defaults but never called by 1.6 scheduling.

    Go: func GetEquivalencePod(pod *v1.Pod) interface{}
    """
    equivalence_pod = EquivalencePod()
    for ref in pod.metadata.owner_references:
        if ref.controller is None:
            raise NilPointerDereference()
        if ref.controller:
            equivalence_pod = EquivalencePod(controller_ref=ref)
            break
    return equivalence_pod
