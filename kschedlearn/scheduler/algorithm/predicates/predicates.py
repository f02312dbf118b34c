"""Every fit predicate of the v1.6.1 scheduler: "can this pod run on this node?".

Go: plugin/pkg/scheduler/algorithm/predicates/predicates.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/predicates/predicates.go

A predicate is ``(pod, meta, node_info) -> (fits, reasons)``. ``meta`` is the
``PredicateMetadata`` computed once per pod (``metadata.py``) or ``None``; every predicate
has a slow path that recomputes what it needs when ``meta`` is ``None``.

Differs from Go:
- ``(bool, []reason, error)`` becomes ``(bool, list)``; errors are raised (``PredicateError``).
- ``glog.V(10)`` debug lines are not reproduced (they only narrate).
- Random ids for unresolvable PVCs/PVs come from a seeded ``random.Random`` owned by the
  checker, not from the wall clock, so runs are deterministic.
- Quirk kept on purpose (spec §13.19): anti-affinity terms of *existing* pods are recorded as
  Go recorded them, through a pointer to the loop variable, so every recorded term of one
  existing pod reads as that pod's **last** anti-affinity term. See
  ``get_matching_anti_affinity_terms`` and ``PodAffinityChecker._get_matching_anti_affinity_terms``.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Callable, Mapping, Optional

import attrs

from kschedlearn.apimachinery import labels
from kschedlearn.apimachinery.apis.meta import v1 as metav1
from kschedlearn.scheduler.algorithm.predicates import error as errs
from kschedlearn.api.v1.helpers import (
    node_selector_requirements_as_selector,
    tolerations_tolerate_taints_with_filter,
)
from kschedlearn.scheduler.algorithm.predicates._qos import get_pod_qos
from kschedlearn.scheduler.algorithm.predicates.utils import (
    add_unset_labels_to_map,
    create_selector_from_labels,
    filter_pods_by_namespace,
    find_labels_in_set,
)
from kschedlearn.scheduler.algorithm.priorities.util import topologies as priorityutil
from kschedlearn.scheduler.schedulercache.node_info import Resource
from kschedlearn.scheduler.schedulercache.reconcile_affinity import reconcile_affinity
# Go's NodeInfo accessors are nil-safe: a node missing from nodeNameToInfo is a nil *NodeInfo, whose
# Node() is nil, Pods() empty, ... (node_info.go); ni.<accessor>(info) is that call, for None too.
from kschedlearn.scheduler.schedulercache import node_info as ni

if TYPE_CHECKING:
    from kschedlearn.api.v1 import (
        Affinity,
        Node,
        PersistentVolume,
        Pod,
        PodAffinityTerm,
        Volume,
    )
    from kschedlearn.scheduler.algorithm.listers import PodLister, ServiceLister
    from kschedlearn.scheduler.schedulercache.node_info import NodeInfo

_GO = "https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/predicates/predicates.go"

RESOURCE_CPU = "cpu"
RESOURCE_MEMORY = "memory"
RESOURCE_NVIDIA_GPU = "alpha.kubernetes.io/nvidia-gpu"
RESOURCE_PODS = "pods"
_OPAQUE_INT_RESOURCE_PREFIX = "pod.alpha.kubernetes.io/opaque-int-resource-"
LABEL_ZONE_FAILURE_DOMAIN = "failure-domain.beta.kubernetes.io/zone"
LABEL_ZONE_REGION = "failure-domain.beta.kubernetes.io/region"
CONDITION_TRUE = "True"

Reasons = list  # list of PredicateFailureReason
PredicateResult = tuple[bool, Reasons]


class PredicateError(Exception):
    """An error a predicate returns in Go (aborts the whole scheduling attempt).

    Go: the ``error`` result of a FitPredicate (``fmt.Errorf(...)``).
    """


# --- precomputations (registry) ------------------------------------------------------

PredicateMetadataModifier = Callable[["PredicateMetadata"], None]
"""Go: predicates.PredicateMetadataModifier — fills extra fields of the metadata."""

# Go: the package variable ``predicatePrecomputations``. A simulated scheduler process keeps its
# own table in its plugin registry (``factory.PluginRegistry.predicate_precomputations``); this
# module-level table is only the fallback for callers that pass none (unit tests of predicates).
_predicate_precomputations: dict[str, PredicateMetadataModifier] = {}


def register_predicate_precomputation(
    predicate_name: str,
    precomp: PredicateMetadataModifier,
    *,
    into: Optional[dict[str, PredicateMetadataModifier]] = None,
) -> None:
    """Register a metadata modifier run by every metadata computation.

    Go: predicates.RegisterPredicatePrecomputation
    Differs from Go: ``into`` names the table (a scheduler process's registry); without it the
    module-level fallback table is used.
    """
    table = into if into is not None else _predicate_precomputations
    table[predicate_name] = precomp


def predicate_precomputations() -> dict[str, PredicateMetadataModifier]:
    """The registered precomputations (read by ``metadata.py``)."""
    return _predicate_precomputations


def reset_predicate_precomputations() -> None:
    """Forget all registered precomputations (tests, fresh simulations). Not in Go."""
    _predicate_precomputations.clear()


# --- lister-like interfaces the predicates take (Go: NodeInfo, PersistentVolumeInfo, ...) --
# They are duck-typed: ``get_node_info(name)``, ``get_persistent_volume_info(pv_id)``,
# ``get_persistent_volume_claim_info(namespace, name)``; each raises on error.


@attrs.frozen
class MatchingPodAntiAffinityTerm:
    """An existing pod's required anti-affinity term that matches the incoming pod, with that
    existing pod's node.

    Go: predicates.matchingPodAntiAffinityTerm {term *v1.PodAffinityTerm; node *v1.Node}
    """

    term: "PodAffinityTerm"
    node: "Node"


@attrs.define(eq=False)
class PredicateMetadata:
    """What every predicate may reuse for one pod during one scheduling attempt.

    Go: predicates.predicateMetadata (unexported struct)
    Differs from Go: public name (the brief and learners refer to it); mutable, as
    precomputations fill the service-affinity fields after construction.
    """

    pod: "Pod"
    pod_best_effort: bool = False
    pod_request: Optional[Resource] = None
    pod_ports: dict[int, bool] = attrs.field(factory=dict)
    matching_anti_affinity_terms: list[MatchingPodAntiAffinityTerm] = attrs.field(factory=list)
    service_affinity_matching_pod_list: Optional[list] = None
    service_affinity_matching_pod_services: Optional[list] = None


def _pod_name(pod: "Pod") -> str:
    """Go: predicates.podName — ``namespace/name``."""
    return f"{pod.metadata.namespace}/{pod.metadata.name}"


# --- NoDiskConflict --------------------------------------------------------------------


def _is_volume_conflict(volume: "Volume", pod: "Pod") -> bool:
    """Does ``volume`` clash with a volume already used by ``pod``?

    Go: predicates.isVolumeConflict
    """
    if (
        volume.gce_persistent_disk is None
        and volume.aws_elastic_block_store is None
        and volume.rbd is None
        and volume.iscsi is None
    ):
        return False
    for existing in pod.spec.volumes:
        if volume.gce_persistent_disk is not None and existing.gce_persistent_disk is not None:
            disk, existing_disk = volume.gce_persistent_disk, existing.gce_persistent_disk
            if disk.pd_name == existing_disk.pd_name and not (disk.read_only and existing_disk.read_only):
                return True
        if volume.aws_elastic_block_store is not None and existing.aws_elastic_block_store is not None:
            if volume.aws_elastic_block_store.volume_id == existing.aws_elastic_block_store.volume_id:
                return True
        if volume.iscsi is not None and existing.iscsi is not None:
            if volume.iscsi.iqn == existing.iscsi.iqn and not (volume.iscsi.read_only and existing.iscsi.read_only):
                return True
        if volume.rbd is not None and existing.rbd is not None:
            mon, pool, image = volume.rbd.ceph_monitors, volume.rbd.rbd_pool, volume.rbd.rbd_image
            emon, epool, eimage = existing.rbd.ceph_monitors, existing.rbd.rbd_pool, existing.rbd.rbd_image
            if (
                _have_same(mon, emon)
                and pool == epool
                and image == eimage
                and not (volume.rbd.read_only and existing.rbd.read_only)
            ):
                return True
    return False


def no_disk_conflict(pod: "Pod", meta: Any, node_info: "NodeInfo") -> PredicateResult:
    """Fails when a GCE PD / EBS / RBD / iSCSI volume of the pod is already in use on the node.

    Go: predicates.NoDiskConflict  (registered as ``NoDiskConflict``)
    """
    for v in pod.spec.volumes:
        for ev in ni.pods(node_info):
            if _is_volume_conflict(v, ev):
                return False, [errs.ERR_DISK_CONFLICT]
    return True, []


# --- MaxPDVolumeCount ------------------------------------------------------------------


@attrs.frozen
class VolumeFilter:
    """How to recognise (and name) the volumes a MaxPDVolumeCount predicate counts.

    Go: predicates.VolumeFilter{FilterVolume, FilterPersistentVolume}; each returns
    ``(id, relevant)``.
    """

    filter_volume: Callable[["Volume"], tuple[str, bool]]
    filter_persistent_volume: Callable[["PersistentVolume"], tuple[str, bool]]


@attrs.define(eq=False)
class MaxPDVolumeCountChecker:
    """Go: predicates.MaxPDVolumeCountChecker"""

    filter: VolumeFilter
    max_volumes: int
    pv_info: Any
    pvc_info: Any
    rand: random.Random = attrs.field(factory=lambda: random.Random(0))

    def _filter_volumes(self, volumes: "tuple[Volume, ...]", namespace: str, filtered: dict[str, bool]) -> None:
        """Add the ids of the relevant volumes (inline or behind PVCs) to ``filtered``.

        Go: MaxPDVolumeCountChecker.filterVolumes. Note Go's early ``return nil`` after an
        unresolvable PVC or PV: the remaining volumes of that pod are not looked at.
        """
        for vol in volumes:
            vol_id, ok = self.filter.filter_volume(vol)
            if ok:
                filtered[vol_id] = True
            elif vol.persistent_volume_claim is not None:
                pvc_name = vol.persistent_volume_claim.claim_name
                if pvc_name == "":
                    raise PredicateError("PersistentVolumeClaim had no name")
                try:
                    pvc = self.pvc_info.get_persistent_volume_claim_info(namespace, pvc_name)
                except Exception:  # Go: any lookup error -> count a made-up id and stop
                    filtered["missingPVC" + str(self.rand.randrange(1000000))] = True
                    return
                if pvc is None:
                    raise PredicateError(f'PersistentVolumeClaim not found: "{pvc_name}"')
                pv_name = pvc.spec.volume_name
                if pv_name == "":
                    raise PredicateError(f'PersistentVolumeClaim is not bound: "{pvc_name}"')
                try:
                    pv = self.pv_info.get_persistent_volume_info(pv_name)
                except Exception:
                    filtered["missingPV" + str(self.rand.randrange(1000000))] = True
                    return
                if pv is None:
                    raise PredicateError(f'PersistentVolume not found: "{pv_name}"')
                pv_id, ok = self.filter.filter_persistent_volume(pv)
                if ok:
                    filtered[pv_id] = True

    def predicate(self, pod: "Pod", meta: Any, node_info: "NodeInfo") -> PredicateResult:
        """Fails when the node would exceed ``max_volumes`` distinct relevant volumes.

        Go: MaxPDVolumeCountChecker.predicate
        """
        if not pod.spec.volumes:
            return True, []
        new_volumes: dict[str, bool] = {}
        self._filter_volumes(pod.spec.volumes, pod.metadata.namespace, new_volumes)
        if not new_volumes:
            return True, []
        existing_volumes: dict[str, bool] = {}
        for existing_pod in ni.pods(node_info):
            self._filter_volumes(existing_pod.spec.volumes, existing_pod.metadata.namespace, existing_volumes)
        num_existing = len(existing_volumes)
        for k in existing_volumes:
            new_volumes.pop(k, None)
        if num_existing + len(new_volumes) > self.max_volumes:
            return False, [errs.ERR_MAX_VOLUME_COUNT_EXCEEDED]
        return True, []


def new_max_pd_volume_count_predicate(
    filter: VolumeFilter, max_volumes: int, pv_info: Any, pvc_info: Any, *, seed: int = 0
) -> Callable[..., PredicateResult]:
    """Build a MaxEBSVolumeCount / MaxGCEPDVolumeCount / MaxAzureDiskVolumeCount predicate.

    Go: predicates.NewMaxPDVolumeCountPredicate
    Differs from Go: ``seed`` seeds the made-up ids for unresolvable claims (Go: wall clock).
    """
    checker = MaxPDVolumeCountChecker(filter, max_volumes, pv_info, pvc_info, random.Random(seed))
    return checker.predicate


def _ebs_filter_volume(vol: "Volume") -> tuple[str, bool]:
    if vol.aws_elastic_block_store is not None:
        return vol.aws_elastic_block_store.volume_id, True
    return "", False


def _ebs_filter_pv(pv: "PersistentVolume") -> tuple[str, bool]:
    if pv.spec.aws_elastic_block_store is not None:
        return pv.spec.aws_elastic_block_store.volume_id, True
    return "", False


def _gce_filter_volume(vol: "Volume") -> tuple[str, bool]:
    if vol.gce_persistent_disk is not None:
        return vol.gce_persistent_disk.pd_name, True
    return "", False


def _gce_filter_pv(pv: "PersistentVolume") -> tuple[str, bool]:
    if pv.spec.gce_persistent_disk is not None:
        return pv.spec.gce_persistent_disk.pd_name, True
    return "", False


def _azure_filter_volume(vol: "Volume") -> tuple[str, bool]:
    if vol.azure_disk is not None:
        return vol.azure_disk.disk_name, True
    return "", False


def _azure_filter_pv(pv: "PersistentVolume") -> tuple[str, bool]:
    if pv.spec.azure_disk is not None:
        return pv.spec.azure_disk.disk_name, True
    return "", False


EBS_VOLUME_FILTER = VolumeFilter(_ebs_filter_volume, _ebs_filter_pv)
"""Go: predicates.EBSVolumeFilter (counts ``awsElasticBlockStore.volumeID``)."""
GCE_PD_VOLUME_FILTER = VolumeFilter(_gce_filter_volume, _gce_filter_pv)
"""Go: predicates.GCEPDVolumeFilter (counts ``gcePersistentDisk.pdName``)."""
AZURE_DISK_VOLUME_FILTER = VolumeFilter(_azure_filter_volume, _azure_filter_pv)
"""Go: predicates.AzureDiskVolumeFilter (counts ``azureDisk.diskName``)."""

# Limits. Go keeps these in algorithmprovider/defaults/defaults.go (GCE, Azure) and in
# pkg/cloudprovider/providers/aws (EBS); they sit here so the predicates are usable alone.
DEFAULT_MAX_GCE_PD_VOLUMES = 16
DEFAULT_MAX_AZURE_DISK_VOLUMES = 16
DEFAULT_MAX_EBS_VOLUMES = 39
KUBE_MAX_PD_VOLS = "KUBE_MAX_PD_VOLS"


def get_max_vols(default_val: int, environ: Mapping[str, str]) -> int:
    """The volume limit: ``KUBE_MAX_PD_VOLS`` from ``environ`` if a positive int, else default.

    Go: defaults.getMaxVols (reads os.Getenv; logs and falls back on bad values)
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithmprovider/defaults/defaults.go#L219-L232
    Differs from Go: the environment is passed in (no process state); the Go error log lines
    are not emitted here.
    """
    raw = environ.get(KUBE_MAX_PD_VOLS, "")
    if raw != "":
        try:
            parsed = int(raw)
        except ValueError:
            return default_val
        if parsed <= 0:
            return default_val
        return parsed
    return default_val


# --- NoVolumeZoneConflict --------------------------------------------------------------


@attrs.define(eq=False)
class VolumeZoneChecker:
    """Go: predicates.VolumeZoneChecker"""

    pv_info: Any
    pvc_info: Any

    def predicate(self, pod: "Pod", meta: Any, node_info: "NodeInfo") -> PredicateResult:
        """Fails when a PV bound to one of the pod's claims is in another zone/region than the node.

        Go: VolumeZoneChecker.predicate
        """
        if not pod.spec.volumes:
            return True, []
        node = ni.node(node_info)
        if node is None:
            raise PredicateError("node not found")
        node_constraints = {
            k: v for k, v in node.metadata.labels.items() if k in (LABEL_ZONE_FAILURE_DOMAIN, LABEL_ZONE_REGION)
        }
        if not node_constraints:
            return True, []
        namespace = pod.metadata.namespace
        for volume in pod.spec.volumes:
            if volume.persistent_volume_claim is None:
                continue
            pvc_name = volume.persistent_volume_claim.claim_name
            if pvc_name == "":
                raise PredicateError("PersistentVolumeClaim had no name")
            pvc = self.pvc_info.get_persistent_volume_claim_info(namespace, pvc_name)
            if pvc is None:
                raise PredicateError(f'PersistentVolumeClaim was not found: "{pvc_name}"')
            pv_name = pvc.spec.volume_name
            if pv_name == "":
                raise PredicateError(f'PersistentVolumeClaim is not bound: "{pvc_name}"')
            pv = self.pv_info.get_persistent_volume_info(pv_name)
            if pv is None:
                raise PredicateError(f'PersistentVolume not found: "{pv_name}"')
            for k, v in pv.metadata.labels.items():
                if k not in (LABEL_ZONE_FAILURE_DOMAIN, LABEL_ZONE_REGION):
                    continue
                if v != node_constraints.get(k, ""):
                    return False, [errs.ERR_VOLUME_ZONE_CONFLICT]
        return True, []


def new_volume_zone_predicate(pv_info: Any, pvc_info: Any) -> Callable[..., PredicateResult]:
    """Go: predicates.NewVolumeZonePredicate"""
    return VolumeZoneChecker(pv_info, pvc_info).predicate


# --- resources -------------------------------------------------------------------------


def _is_opaque_int_resource_name(name: str) -> bool:
    """Go: v1.IsOpaqueIntResourceName"""
    return name.startswith(_OPAQUE_INT_RESOURCE_PREFIX)


def get_resource_request(pod: "Pod") -> Resource:
    """The pod's request: sum over containers, then per-dimension max with each init container.

    Go: predicates.GetResourceRequest
    """
    result = Resource()
    for container in pod.spec.containers:
        for r_name, r_quantity in container.resources.requests.items():
            if r_name == RESOURCE_MEMORY:
                result.memory += r_quantity.value()
            elif r_name == RESOURCE_CPU:
                result.milli_cpu += r_quantity.milli_value()
            elif r_name == RESOURCE_NVIDIA_GPU:
                result.nvidia_gpu += r_quantity.value()
            elif _is_opaque_int_resource_name(r_name):
                result.opaque_int_resources[r_name] = result.opaque_int_resources.get(r_name, 0) + r_quantity.value()
    for container in pod.spec.init_containers:
        for r_name, r_quantity in container.resources.requests.items():
            if r_name == RESOURCE_MEMORY:
                result.memory = max(result.memory, r_quantity.value())
            elif r_name == RESOURCE_CPU:
                result.milli_cpu = max(result.milli_cpu, r_quantity.milli_value())
            elif r_name == RESOURCE_NVIDIA_GPU:
                result.nvidia_gpu = max(result.nvidia_gpu, r_quantity.value())
            elif _is_opaque_int_resource_name(r_name):
                value = r_quantity.value()
                if value > result.opaque_int_resources.get(r_name, 0):
                    result.opaque_int_resources[r_name] = value
    return result


def pod_fits_resources(pod: "Pod", meta: Any, node_info: "NodeInfo") -> PredicateResult:
    """Pod count, then cpu, memory, gpu and opaque resources against allocatable (strict ``<``).

    Go: predicates.PodFitsResources  (registered as ``PodFitsResources``)
    """
    node = ni.node(node_info)
    if node is None:
        raise PredicateError("node not found")
    predicate_fails: Reasons = []
    allowed_pod_number = ni.allowed_pod_number(node_info)
    if len(ni.pods(node_info)) + 1 > allowed_pod_number:
        predicate_fails.append(
            errs.new_insufficient_resource_error(RESOURCE_PODS, 1, len(ni.pods(node_info)), allowed_pod_number)
        )
    if isinstance(meta, PredicateMetadata):
        pod_request = meta.pod_request
    else:
        pod_request = get_resource_request(pod)  # no metadata: compute it here
    if (
        pod_request.milli_cpu == 0
        and pod_request.memory == 0
        and pod_request.nvidia_gpu == 0
        and not pod_request.opaque_int_resources
    ):
        return not predicate_fails, predicate_fails
    allocatable = ni.allocatable_resource(node_info)
    requested = ni.requested_resource(node_info)
    if allocatable.milli_cpu < pod_request.milli_cpu + requested.milli_cpu:
        predicate_fails.append(
            errs.new_insufficient_resource_error(RESOURCE_CPU, pod_request.milli_cpu, requested.milli_cpu, allocatable.milli_cpu)
        )
    if allocatable.memory < pod_request.memory + requested.memory:
        predicate_fails.append(
            errs.new_insufficient_resource_error(RESOURCE_MEMORY, pod_request.memory, requested.memory, allocatable.memory)
        )
    if allocatable.nvidia_gpu < pod_request.nvidia_gpu + requested.nvidia_gpu:
        predicate_fails.append(
            errs.new_insufficient_resource_error(
                RESOURCE_NVIDIA_GPU, pod_request.nvidia_gpu, requested.nvidia_gpu, allocatable.nvidia_gpu
            )
        )
    for r_name, r_quant in pod_request.opaque_int_resources.items():
        alloc = allocatable.opaque_int_resources.get(r_name, 0)
        used = requested.opaque_int_resources.get(r_name, 0)
        if alloc < r_quant + used:
            predicate_fails.append(errs.new_insufficient_resource_error(r_name, r_quant, used, alloc))
    return not predicate_fails, predicate_fails


# --- node selector / affinity ----------------------------------------------------------


def _node_matches_node_selector_terms(node: "Node", node_selector_terms: tuple) -> bool:
    """Terms are ORed; an empty list matches nothing; a term that fails to parse ends the check.

    Go: predicates.nodeMatchesNodeSelectorTerms
    """
    for req in node_selector_terms:
        try:
            node_selector = node_selector_requirements_as_selector(req.match_expressions)
        except Exception:  # Go: any parse error -> "regarding as not match"
            return False
        if node_selector.matches(node.metadata.labels):
            return True
    return False


def _pod_matches_node_labels(pod: "Pod", node: "Node") -> bool:
    """nodeSelector (all key=value) AND required node affinity.

    Go: predicates.podMatchesNodeLabels
    """
    if pod.spec.node_selector:
        selector = labels.selector_from_set(pod.spec.node_selector)
        if not selector.matches(node.metadata.labels):
            return False
    affinity = reconcile_affinity(pod)
    node_affinity_matches = True
    if affinity is not None and affinity.node_affinity is not None:
        node_affinity = affinity.node_affinity
        required = node_affinity.required_during_scheduling_ignored_during_execution
        if required is None:
            return True
        node_affinity_matches = node_affinity_matches and _node_matches_node_selector_terms(
            node, required.node_selector_terms
        )
    return node_affinity_matches


def pod_selector_matches(pod: "Pod", meta: Any, node_info: "NodeInfo") -> PredicateResult:
    """Go: predicates.PodSelectorMatches  (registered as ``MatchNodeSelector``)"""
    node = ni.node(node_info)
    if node is None:
        raise PredicateError("node not found")
    if _pod_matches_node_labels(pod, node):
        return True, []
    return False, [errs.ERR_NODE_SELECTOR_NOT_MATCH]


def pod_fits_host(pod: "Pod", meta: Any, node_info: "NodeInfo") -> PredicateResult:
    """A pod with ``spec.nodeName`` fits only that node.

    Go: predicates.PodFitsHost  (registered as ``HostName``)
    """
    if not pod.spec.node_name:
        return True, []
    node = ni.node(node_info)
    if node is None:
        raise PredicateError("node not found")
    if pod.spec.node_name == node.metadata.name:
        return True, []
    return False, [errs.ERR_POD_NOT_MATCH_HOST_NAME]


# --- node labels (policy argument) -----------------------------------------------------


@attrs.define(eq=False)
class NodeLabelChecker:
    """Go: predicates.NodeLabelChecker"""

    labels: tuple[str, ...]
    presence: bool

    def check_node_label_presence(self, pod: "Pod", meta: Any, node_info: "NodeInfo") -> PredicateResult:
        """With presence=True every listed label must exist on the node; with False none may.

        Go: NodeLabelChecker.CheckNodeLabelPresence
        """
        node = ni.node(node_info)
        if node is None:
            raise PredicateError("node not found")
        node_labels = node.metadata.labels
        for label in self.labels:
            exists = label in node_labels
            if (exists and not self.presence) or (not exists and self.presence):
                return False, [errs.ERR_NODE_LABEL_PRESENCE_VIOLATED]
        return True, []


def new_node_label_predicate(labels: list[str], presence: bool) -> Callable[..., PredicateResult]:
    """Go: predicates.NewNodeLabelPredicate"""
    return NodeLabelChecker(tuple(labels), presence).check_node_label_presence


# --- service affinity (policy argument) ------------------------------------------------


@attrs.define(eq=False)
class ServiceAffinity:
    """Go: predicates.ServiceAffinity"""

    pod_lister: "PodLister"
    service_lister: "ServiceLister"
    node_info: Any
    labels: tuple[str, ...]

    def service_affinity_precomputation(self, pm: PredicateMetadata) -> None:
        """Store the pod's services and the same-namespace pods carrying the pod's labels.

        Go: ServiceAffinity.serviceAffinityPrecomputation (lookup errors are only logged in Go)
        """
        if pm.pod is None:
            return
        try:
            pm.service_affinity_matching_pod_services = self.service_lister.get_pod_services(pm.pod)
        except Exception:
            pm.service_affinity_matching_pod_services = None
        selector = create_selector_from_labels(pm.pod.metadata.labels)
        try:
            all_matches = self.pod_lister.list(selector)
        except Exception:
            all_matches = []
        pm.service_affinity_matching_pod_list = filter_pods_by_namespace(all_matches, pm.pod.metadata.namespace)

    def check_service_affinity(self, pod: "Pod", meta: Any, node_info: "NodeInfo") -> PredicateResult:
        """The node must carry the affinity labels' values: from the pod's nodeSelector, else
        back-filled from the node of the first matching pod of the same services.

        Go: ServiceAffinity.checkServiceAffinity
        """
        if isinstance(meta, PredicateMetadata) and (
            meta.service_affinity_matching_pod_list is not None
            or meta.service_affinity_matching_pod_services is not None
        ):
            services = meta.service_affinity_matching_pod_services
            pods = meta.service_affinity_matching_pod_list
        else:
            pm = PredicateMetadata(pod=pod)  # resilient when metadata is missing
            self.service_affinity_precomputation(pm)
            pods, services = pm.service_affinity_matching_pod_list, pm.service_affinity_matching_pod_services
        node = ni.node(node_info)
        if node is None:
            raise PredicateError("node not found")
        affinity_labels = find_labels_in_set(self.labels, pod.spec.node_selector)
        if len(self.labels) > len(affinity_labels):
            if services:
                if pods:
                    node_with_affinity_labels = self.node_info.get_node_info(pods[0].spec.node_name)
                    add_unset_labels_to_map(affinity_labels, self.labels, node_with_affinity_labels.metadata.labels)
        if create_selector_from_labels(affinity_labels).matches(node.metadata.labels):
            return True, []
        return False, [errs.ERR_SERVICE_AFFINITY_VIOLATED]


def new_service_affinity_predicate(
    pod_lister: "PodLister", service_lister: "ServiceLister", node_info: Any, labels: list[str]
) -> tuple[Callable[..., PredicateResult], PredicateMetadataModifier]:
    """Returns the predicate and its metadata precomputation (register the latter).

    Go: predicates.NewServiceAffinityPredicate
    """
    affinity = ServiceAffinity(pod_lister, service_lister, node_info, tuple(labels))
    return affinity.check_service_affinity, affinity.service_affinity_precomputation


# --- host ports ------------------------------------------------------------------------


def pod_fits_host_ports(pod: "Pod", meta: Any, node_info: "NodeInfo") -> PredicateResult:
    """Fails if a wanted hostPort is already used on the node (protocol and hostIP ignored).

    Go: predicates.PodFitsHostPorts  (registered as ``PodFitsHostPorts`` and ``PodFitsPorts``)
    """
    if isinstance(meta, PredicateMetadata):
        want_ports = meta.pod_ports
    else:
        want_ports = get_used_ports(pod)
    if not want_ports:
        return True, []
    existing_ports = get_used_ports(*ni.pods(node_info))
    for wport in want_ports:
        if wport != 0 and existing_ports.get(wport, False):
            return False, [errs.ERR_POD_NOT_FITS_HOST_PORTS]
    return True, []


def get_used_ports(*pods: "Pod") -> dict[int, bool]:
    """Non-zero hostPorts of the regular containers of ``pods``.

    Go: predicates.GetUsedPorts
    """
    ports: dict[int, bool] = {}
    for pod in pods:
        for container in pod.spec.containers:
            for pod_port in container.ports:
                if pod_port.host_port != 0:
                    ports[int(pod_port.host_port)] = True
    return ports


def _have_same(a1: tuple[str, ...], a2: tuple[str, ...]) -> bool:
    """Go: predicates.haveSame — at least one common element."""
    return any(v1 == v2 for v1 in a1 for v2 in a2)


# --- GeneralPredicates -----------------------------------------------------------------


def _run_all(pod: "Pod", meta: Any, node_info: "NodeInfo", preds: tuple) -> PredicateResult:
    predicate_fails: Reasons = []
    for pred in preds:
        fit, reasons = pred(pod, meta, node_info)
        if not fit:
            predicate_fails.extend(reasons)
    return not predicate_fails, predicate_fails


def general_predicates(pod: "Pod", meta: Any, node_info: "NodeInfo") -> PredicateResult:
    """Non-critical predicates, then the essential ones; all reasons are collected.

    Go: predicates.GeneralPredicates  (registered as ``GeneralPredicates``)
    """
    predicate_fails: Reasons = []
    fit, reasons = _noncritical_predicates(pod, meta, node_info)
    if not fit:
        predicate_fails.extend(reasons)
    fit, reasons = essential_predicates(pod, meta, node_info)
    if not fit:
        predicate_fails.extend(reasons)
    return not predicate_fails, predicate_fails


def _noncritical_predicates(pod: "Pod", meta: Any, node_info: "NodeInfo") -> PredicateResult:
    """Go: predicates.noncriticalPredicates — PodFitsResources."""
    return _run_all(pod, meta, node_info, (pod_fits_resources,))


def essential_predicates(pod: "Pod", meta: Any, node_info: "NodeInfo") -> PredicateResult:
    """Go: predicates.EssentialPredicates — PodFitsHost, PodFitsHostPorts, PodSelectorMatches."""
    return _run_all(pod, meta, node_info, (pod_fits_host, pod_fits_host_ports, pod_selector_matches))


# --- inter-pod affinity ----------------------------------------------------------------


@attrs.define(eq=False)
class PodAffinityChecker:
    """Go: predicates.PodAffinityChecker"""

    info: Any
    pod_lister: "PodLister"
    failure_domains: priorityutil.Topologies

    def inter_pod_affinity_matches(self, pod: "Pod", meta: Any, node_info: "NodeInfo") -> PredicateResult:
        """Existing pods' anti-affinity first, then the pod's own affinity and anti-affinity.

        Go: PodAffinityChecker.InterPodAffinityMatches  (registered as ``MatchInterPodAffinity``)
        """
        node = ni.node(node_info)
        if node is None:
            raise PredicateError("node not found")
        if not self._satisfies_existing_pods_anti_affinity(pod, meta, node):
            return False, [errs.ERR_POD_AFFINITY_NOT_MATCH]
        affinity = reconcile_affinity(pod)
        if affinity is None or (affinity.pod_affinity is None and affinity.pod_anti_affinity is None):
            return True, []
        if not self._satisfies_pods_affinity_anti_affinity(pod, node, affinity):
            return False, [errs.ERR_POD_AFFINITY_NOT_MATCH]
        return True, []

    def _any_pod_matches_pod_affinity_term(
        self, pod: "Pod", all_pods: list, node: "Node", term: "PodAffinityTerm"
    ) -> tuple[bool, bool]:
        """(a matching pod is in the node's topology, a matching pod exists anywhere).

        Go: PodAffinityChecker.anyPodMatchesPodAffinityTerm (errors raised as PredicateError)
        """
        if len(term.topology_key) == 0:
            raise PredicateError("Empty topologyKey is not allowed except for PreferredDuringScheduling pod anti-affinity")
        matching_pod_exists = False
        namespaces = priorityutil.get_namespaces_from_pod_affinity_term(pod, term)
        selector = metav1.label_selector_as_selector(term.label_selector)
        for existing_pod in all_pods:
            if priorityutil.pod_matches_terms_namespace_and_selector(existing_pod, namespaces, selector):
                matching_pod_exists = True
                existing_pod_node = self.info.get_node_info(existing_pod.spec.node_name)
                if priorityutil.nodes_have_same_topology_key(node, existing_pod_node, term.topology_key):
                    return True, matching_pod_exists
        return False, matching_pod_exists

    def _get_matching_anti_affinity_terms(self, pod: "Pod", all_pods: list) -> list[MatchingPodAntiAffinityTerm]:
        """Slow path: existing pods' required anti-affinity terms matching ``pod``.

        Go: PodAffinityChecker.getMatchingAntiAffinityTerms. Namespaces default to the
        *existing* pod's namespace here. QUIRK (spec §13.19): Go stores ``&term``, the address
        of the loop variable, so all stored terms of one existing pod end up as its last term.
        """
        result: list[MatchingPodAntiAffinityTerm] = []
        for existing_pod in all_pods:
            affinity = reconcile_affinity(existing_pod)
            if affinity is not None and affinity.pod_anti_affinity is not None:
                existing_pod_node = self.info.get_node_info(existing_pod.spec.node_name)
                terms = _get_pod_anti_affinity_terms(affinity.pod_anti_affinity)
                matched = 0
                for term in terms:
                    namespaces = priorityutil.get_namespaces_from_pod_affinity_term(existing_pod, term)
                    selector = metav1.label_selector_as_selector(term.label_selector)
                    if priorityutil.pod_matches_terms_namespace_and_selector(pod, namespaces, selector):
                        matched += 1
                result.extend(_loop_variable_quirk(terms, matched, existing_pod_node))
        return result

    def _satisfies_existing_pods_anti_affinity(self, pod: "Pod", meta: Any, node: "Node") -> bool:
        """Would placing ``pod`` on ``node`` break a required anti-affinity of an existing pod?

        Go: PodAffinityChecker.satisfiesExistingPodsAntiAffinity (any lookup error -> False)
        """
        if isinstance(meta, PredicateMetadata):
            matching_terms = meta.matching_anti_affinity_terms
        else:
            try:
                all_pods = self.pod_lister.list(labels.everything())
                matching_terms = self._get_matching_anti_affinity_terms(pod, all_pods)
            except Exception:
                return False
        for term in matching_terms:
            if len(term.term.topology_key) == 0:
                return False
            if priorityutil.nodes_have_same_topology_key(node, term.node, term.term.topology_key):
                return False
        return True

    def _satisfies_pods_affinity_anti_affinity(self, pod: "Pod", node: "Node", affinity: "Affinity") -> bool:
        """The pod's own required affinity and anti-affinity terms, checked against all pods.

        Go: PodAffinityChecker.satisfiesPodsAffinityAntiAffinity
        """
        try:
            all_pods = self.pod_lister.list(labels.everything())
        except Exception:
            return False
        for term in _get_pod_affinity_terms(affinity.pod_affinity):
            try:
                term_matches, matching_pod_exists = self._any_pod_matches_pod_affinity_term(pod, all_pods, node, term)
            except Exception:
                return False
            if not term_matches:
                # The first pod of a group may match its own term: let it in if no such pod exists yet.
                namespaces = priorityutil.get_namespaces_from_pod_affinity_term(pod, term)
                try:
                    selector = metav1.label_selector_as_selector(term.label_selector)
                except Exception:
                    return False
                match = priorityutil.pod_matches_terms_namespace_and_selector(pod, namespaces, selector)
                if not match or matching_pod_exists:
                    return False
        for term in _get_pod_anti_affinity_terms(affinity.pod_anti_affinity):
            try:
                term_matches, _ = self._any_pod_matches_pod_affinity_term(pod, all_pods, node, term)
            except Exception:
                return False
            if term_matches:
                return False
        return True


def new_pod_affinity_predicate(info: Any, pod_lister: "PodLister", failure_domains: list[str]) -> Callable[..., PredicateResult]:
    """Go: predicates.NewPodAffinityPredicate"""
    checker = PodAffinityChecker(info, pod_lister, priorityutil.Topologies(default_keys=tuple(failure_domains)))
    return checker.inter_pod_affinity_matches


def _get_pod_affinity_terms(pod_affinity: Any) -> tuple:
    """Go: predicates.getPodAffinityTerms — the required terms only."""
    if pod_affinity is not None and pod_affinity.required_during_scheduling_ignored_during_execution:
        return tuple(pod_affinity.required_during_scheduling_ignored_during_execution)
    return ()


def _get_pod_anti_affinity_terms(pod_anti_affinity: Any) -> tuple:
    """Go: predicates.getPodAntiAffinityTerms — the required terms only."""
    if pod_anti_affinity is not None and pod_anti_affinity.required_during_scheduling_ignored_during_execution:
        return tuple(pod_anti_affinity.required_during_scheduling_ignored_during_execution)
    return ()


def _loop_variable_quirk(terms: tuple, matched: int, node: "Node") -> list[MatchingPodAntiAffinityTerm]:
    """Build the ``matched`` entries recorded for one existing pod, as Go ends up with them.

    Go appends ``matchingPodAntiAffinityTerm{term: &term, ...}`` inside ``for _, term := range``;
    ``&term`` is the address of the single loop variable, which after the loop holds the last
    element. So every entry of this existing pod reads as its **last** anti-affinity term
    (spec §13.19, 1.6 bug). Reproduced deliberately.
    """
    if matched == 0:
        return []
    last_term = terms[-1]
    return [MatchingPodAntiAffinityTerm(term=last_term, node=node) for _ in range(matched)]


def get_matching_anti_affinity_terms(
    pod: "Pod", node_info_map: "Mapping[str, NodeInfo]"
) -> list[MatchingPodAntiAffinityTerm]:
    """Fast path for the metadata: scan each node's pods-with-affinity for required
    anti-affinity terms matching ``pod``. Raises ``PredicateError("node not found")`` if an
    entry has no node.

    Go: predicates.getMatchingAntiAffinityTerms (uses workqueue.Parallelize(16, ...)).
    Differs from Go: ``process_node`` runs in an ordered loop over the map, not on 16 workers;
    the first error is raised after the loop, as Go returns ``firstError`` after all workers.
    Quirks kept: term namespaces default to the *incoming* pod's namespace here (the slow
    path uses the existing pod's), and the loop-variable pointer bug (spec §13.19).
    """
    all_node_names = list(node_info_map)
    result: list[MatchingPodAntiAffinityTerm] = []
    first_error: list[Exception] = []

    def catch_error(err: Exception) -> None:
        if not first_error:
            first_error.append(err)

    def process_node(i: int) -> None:
        node_info = node_info_map[all_node_names[i]]
        node = ni.node(node_info)
        if node is None:
            catch_error(PredicateError("node not found"))
            return
        node_result: list[MatchingPodAntiAffinityTerm] = []
        for existing_pod in ni.pods_with_affinity(node_info):
            affinity = reconcile_affinity(existing_pod)
            if affinity is None:
                continue
            terms = _get_pod_anti_affinity_terms(affinity.pod_anti_affinity)
            matched = 0
            for term in terms:
                namespaces = priorityutil.get_namespaces_from_pod_affinity_term(pod, term)
                try:
                    selector = metav1.label_selector_as_selector(term.label_selector)
                except Exception as err:  # Go: catchError(err); return
                    catch_error(err)
                    return
                if priorityutil.pod_matches_terms_namespace_and_selector(pod, namespaces, selector):
                    matched += 1
            node_result.extend(_loop_variable_quirk(terms, matched, node))
        if node_result:
            result.extend(node_result)

    for i in range(len(all_node_names)):
        process_node(i)
    if first_error:
        raise first_error[0]
    return result



# --- taints and node conditions --------------------------------------------------------


def _is_no_schedule_or_no_execute(taint: Any) -> bool:
    return taint.effect in ("NoSchedule", "NoExecute")


def pod_tolerates_node_taints(pod: "Pod", meta: Any, node_info: "NodeInfo") -> PredicateResult:
    """Every NoSchedule/NoExecute taint of the node must be tolerated by the pod.

    Go: predicates.PodToleratesNodeTaints  (registered as ``PodToleratesNodeTaints``)
    """
    taints = ni.taints(node_info)
    if tolerations_tolerate_taints_with_filter(pod.spec.tolerations, taints, _is_no_schedule_or_no_execute):
        return True, []
    return False, [errs.ERR_TAINTS_TOLERATIONS_NOT_MATCH]


def _is_pod_best_effort(pod: "Pod") -> bool:
    """Go: predicates.isPodBestEffort"""
    return get_pod_qos(pod) == "BestEffort"


def check_node_memory_pressure_predicate(pod: "Pod", meta: Any, node_info: "NodeInfo") -> PredicateResult:
    """BestEffort pods do not fit a node whose MemoryPressure condition is True.

    Go: predicates.CheckNodeMemoryPressurePredicate  (registered as ``CheckNodeMemoryPressure``)
    """
    if isinstance(meta, PredicateMetadata):
        pod_best_effort = meta.pod_best_effort
    else:
        pod_best_effort = _is_pod_best_effort(pod)
    if not pod_best_effort:
        return True, []
    if ni.memory_pressure_condition(node_info) == CONDITION_TRUE:
        return False, [errs.ERR_NODE_UNDER_MEMORY_PRESSURE]
    return True, []


def check_node_disk_pressure_predicate(pod: "Pod", meta: Any, node_info: "NodeInfo") -> PredicateResult:
    """No pod fits a node whose DiskPressure condition is True.

    Go: predicates.CheckNodeDiskPressurePredicate  (registered as ``CheckNodeDiskPressure``)
    """
    if ni.disk_pressure_condition(node_info) == CONDITION_TRUE:
        return False, [errs.ERR_NODE_UNDER_DISK_PRESSURE]
    return True, []
