"""Pod and everything a pod spec holds that the 1.6 scheduler reads.

Go: ``pkg/api/v1/types.go`` (Pod, PodSpec, Container, Volume sources, Affinity,
Toleration, PodStatus), https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/api/v1/types.go

Only the fields the scheduler, the embedded API server and the scenarios use are
modelled (spec §7 lists what the predicates read); unknown manifest keys are ignored.

Differs from Go: values are frozen (change a copy with ``attrs.evolve``, Go's
copy-by-value); lists are tuples and maps are dicts; metadata is reached as
``pod.metadata.name`` rather than through Go's embedded ``pod.Name``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import attrs

from kschedlearn.api.v1.codec import ResourceList, Serializable, Time, TopLevelObject, field
from kschedlearn.api.v1.meta import ObjectMeta
from kschedlearn.apimachinery.apis.meta.v1 import LabelSelector

if TYPE_CHECKING:
    from kschedlearn.api.v1.node import Taint

__all__ = [
    "AWSElasticBlockStoreVolumeSource", "Affinity", "AzureDiskVolumeSource", "Container",
    "ContainerPort", "EmptyDirVolumeSource", "GCEPersistentDiskVolumeSource", "HostPathVolumeSource",
    "ISCSIVolumeSource", "NodeAffinity", "NodeSelector", "NodeSelectorRequirement", "NodeSelectorTerm",
    "PersistentVolumeClaimVolumeSource", "Pod", "PodAffinity", "PodAffinityTerm", "PodAntiAffinity",
    "PodCondition", "PodSpec", "PodStatus", "PodTemplateSpec", "PreferredSchedulingTerm",
    "RBDVolumeSource", "ResourceRequirements", "Toleration", "Volume", "WeightedPodAffinityTerm",
    "CONDITION_FALSE", "CONDITION_TRUE", "CONDITION_UNKNOWN", "DEFAULT_SCHEDULER_NAME",
    "NODE_SELECTOR_OP_DOES_NOT_EXIST", "NODE_SELECTOR_OP_EXISTS", "NODE_SELECTOR_OP_GT",
    "NODE_SELECTOR_OP_IN", "NODE_SELECTOR_OP_LT", "NODE_SELECTOR_OP_NOT_IN", "POD_FAILED",
    "POD_INITIALIZED", "POD_PENDING", "POD_READY", "POD_REASON_UNSCHEDULABLE", "POD_RUNNING",
    "POD_SCHEDULED", "POD_SUCCEEDED", "POD_UNKNOWN", "PROTOCOL_TCP", "PROTOCOL_UDP",
    "RESOURCE_CPU", "RESOURCE_MEMORY", "RESOURCE_NVIDIA_GPU", "RESOURCE_OPAQUE_INT_PREFIX",
    "RESOURCE_PODS", "RESOURCE_STORAGE", "TOLERATION_OP_EQUAL", "TOLERATION_OP_EXISTS",
]

# Resource names (Go: v1.ResourceName constants).
RESOURCE_CPU = "cpu"
RESOURCE_MEMORY = "memory"
RESOURCE_STORAGE = "storage"
RESOURCE_NVIDIA_GPU = "alpha.kubernetes.io/nvidia-gpu"
RESOURCE_PODS = "pods"
RESOURCE_OPAQUE_INT_PREFIX = "pod.alpha.kubernetes.io/opaque-int-resource-"

# Pod phases (Go: v1.PodPhase constants).
POD_PENDING = "Pending"
POD_RUNNING = "Running"
POD_SUCCEEDED = "Succeeded"
POD_FAILED = "Failed"
POD_UNKNOWN = "Unknown"

# Pod condition types and the scheduler's reason (Go: v1.PodConditionType constants).
POD_SCHEDULED = "PodScheduled"
POD_READY = "Ready"
POD_INITIALIZED = "Initialized"
POD_REASON_UNSCHEDULABLE = "Unschedulable"

# Condition statuses (Go: v1.ConditionStatus constants).
CONDITION_TRUE = "True"
CONDITION_FALSE = "False"
CONDITION_UNKNOWN = "Unknown"

#: Go: v1.DefaultSchedulerName.
DEFAULT_SCHEDULER_NAME = "default-scheduler"

PROTOCOL_TCP = "TCP"
PROTOCOL_UDP = "UDP"

# Node selector operators (Go: v1.NodeSelectorOperator constants).
NODE_SELECTOR_OP_IN = "In"
NODE_SELECTOR_OP_NOT_IN = "NotIn"
NODE_SELECTOR_OP_EXISTS = "Exists"
NODE_SELECTOR_OP_DOES_NOT_EXIST = "DoesNotExist"
NODE_SELECTOR_OP_GT = "Gt"
NODE_SELECTOR_OP_LT = "Lt"

# Toleration operators (Go: v1.TolerationOperator constants); "" means Equal.
TOLERATION_OP_EXISTS = "Exists"
TOLERATION_OP_EQUAL = "Equal"


# --- containers ------------------------------------------------------------------------


@attrs.frozen(kw_only=True)
class ResourceRequirements(Serializable):
    """Requests and limits of a container. Go: v1.ResourceRequirements."""

    limits: ResourceList = field(factory=dict)
    requests: ResourceList = field(factory=dict)


@attrs.frozen(kw_only=True)
class ContainerPort(Serializable):
    """A port a container exposes; ``host_port`` feeds PodFitsHostPorts. Go: v1.ContainerPort.

    Differs from Go: ``protocol`` defaults to "TCP" here (the API server's default).
    """

    name: str = ""
    host_port: int = 0
    container_port: int = field(default=0, omitempty=False)
    protocol: str = PROTOCOL_TCP
    host_ip: str = field(default="", json="hostIP")


@attrs.frozen(kw_only=True)
class Container(Serializable):
    """One container of a pod (only scheduling-relevant fields). Go: v1.Container."""

    name: str = ""
    image: str = ""
    command: tuple[str, ...] = ()
    args: tuple[str, ...] = ()
    working_dir: str = ""
    ports: tuple[ContainerPort, ...] = ()
    resources: ResourceRequirements = field(factory=ResourceRequirements)
    image_pull_policy: str = ""


# --- volumes ---------------------------------------------------------------------------


@attrs.frozen(kw_only=True)
class HostPathVolumeSource(Serializable):
    """Go: v1.HostPathVolumeSource."""

    path: str = field(default="", omitempty=False)


@attrs.frozen(kw_only=True)
class EmptyDirVolumeSource(Serializable):
    """Go: v1.EmptyDirVolumeSource."""

    medium: str = ""


@attrs.frozen(kw_only=True)
class GCEPersistentDiskVolumeSource(Serializable):
    """Go: v1.GCEPersistentDiskVolumeSource (NoDiskConflict compares ``pd_name``)."""

    pd_name: str = field(default="", omitempty=False)
    fs_type: str = ""
    partition: int = 0
    read_only: bool = False


@attrs.frozen(kw_only=True)
class AWSElasticBlockStoreVolumeSource(Serializable):
    """Go: v1.AWSElasticBlockStoreVolumeSource (NoDiskConflict compares ``volume_id``)."""

    volume_id: str = field(default="", json="volumeID", omitempty=False)
    fs_type: str = ""
    partition: int = 0
    read_only: bool = False


@attrs.frozen(kw_only=True)
class RBDVolumeSource(Serializable):
    """Go: v1.RBDVolumeSource (JSON names differ from the Go field names)."""

    ceph_monitors: tuple[str, ...] = field(default=(), json="monitors")
    rbd_image: str = field(default="", json="image", omitempty=False)
    fs_type: str = ""
    rbd_pool: str = field(default="", json="pool")
    rados_user: str = field(default="", json="user")
    keyring: str = ""
    read_only: bool = False


@attrs.frozen(kw_only=True)
class ISCSIVolumeSource(Serializable):
    """Go: v1.ISCSIVolumeSource (NoDiskConflict compares ``iqn``)."""

    target_portal: str = field(default="", omitempty=False)
    iqn: str = field(default="", omitempty=False)
    lun: int = field(default=0, omitempty=False)
    iscsi_interface: str = ""
    fs_type: str = ""
    read_only: bool = False


@attrs.frozen(kw_only=True)
class AzureDiskVolumeSource(Serializable):
    """Go: v1.AzureDiskVolumeSource (MaxAzureDiskVolumeCount counts ``disk_name``).

    Differs from Go: ``caching_mode`` is a plain string, not a pointer.
    """

    disk_name: str = field(default="", omitempty=False)
    data_disk_uri: str = field(default="", json="diskURI", omitempty=False)
    caching_mode: str = ""
    fs_type: str = ""
    read_only: bool = False


@attrs.frozen(kw_only=True)
class PersistentVolumeClaimVolumeSource(Serializable):
    """Go: v1.PersistentVolumeClaimVolumeSource."""

    claim_name: str = field(default="", omitempty=False)
    read_only: bool = False


@attrs.frozen(kw_only=True)
class Volume(Serializable):
    """A named volume with (at most) one source set. Go: v1.Volume + v1.VolumeSource (inlined)."""

    name: str = field(default="", omitempty=False)
    host_path: HostPathVolumeSource | None = None
    empty_dir: EmptyDirVolumeSource | None = None
    gce_persistent_disk: GCEPersistentDiskVolumeSource | None = None
    aws_elastic_block_store: AWSElasticBlockStoreVolumeSource | None = None
    rbd: RBDVolumeSource | None = None
    iscsi: ISCSIVolumeSource | None = None
    azure_disk: AzureDiskVolumeSource | None = None
    persistent_volume_claim: PersistentVolumeClaimVolumeSource | None = None


# --- affinity ----------------------------------------------------------------------------


@attrs.frozen(kw_only=True)
class NodeSelectorRequirement(Serializable):
    """``key operator values`` against node labels. Go: v1.NodeSelectorRequirement."""

    key: str = field(default="", omitempty=False)
    operator: str = field(default="", omitempty=False)
    values: tuple[str, ...] = ()


@attrs.frozen(kw_only=True)
class NodeSelectorTerm(Serializable):
    """Requirements ANDed together. Go: v1.NodeSelectorTerm."""

    match_expressions: tuple[NodeSelectorRequirement, ...] = ()


@attrs.frozen(kw_only=True)
class NodeSelector(Serializable):
    """Terms ORed together. Go: v1.NodeSelector."""

    node_selector_terms: tuple[NodeSelectorTerm, ...] = ()


@attrs.frozen(kw_only=True)
class PreferredSchedulingTerm(Serializable):
    """A weighted node preference. Go: v1.PreferredSchedulingTerm."""

    weight: int = field(default=0, omitempty=False)
    preference: NodeSelectorTerm = field(factory=NodeSelectorTerm, omitempty=False)


@attrs.frozen(kw_only=True)
class NodeAffinity(Serializable):
    """Go: v1.NodeAffinity."""

    required_during_scheduling_ignored_during_execution: NodeSelector | None = None
    preferred_during_scheduling_ignored_during_execution: tuple[PreferredSchedulingTerm, ...] = ()


@attrs.frozen(kw_only=True)
class PodAffinityTerm(Serializable):
    """Pods matching ``label_selector`` in ``namespaces`` within ``topology_key``. Go: v1.PodAffinityTerm.

    Differs from Go: an empty ``namespaces`` tuple stands for Go's nil/empty list
    (both mean "the namespace of the pod that defines the term").
    """

    label_selector: LabelSelector | None = None
    namespaces: tuple[str, ...] = ()
    topology_key: str = ""


@attrs.frozen(kw_only=True)
class WeightedPodAffinityTerm(Serializable):
    """Go: v1.WeightedPodAffinityTerm."""

    weight: int = field(default=0, omitempty=False)
    pod_affinity_term: PodAffinityTerm = field(factory=PodAffinityTerm, omitempty=False)


@attrs.frozen(kw_only=True)
class PodAffinity(Serializable):
    """Go: v1.PodAffinity."""

    required_during_scheduling_ignored_during_execution: tuple[PodAffinityTerm, ...] = ()
    preferred_during_scheduling_ignored_during_execution: tuple[WeightedPodAffinityTerm, ...] = ()


@attrs.frozen(kw_only=True)
class PodAntiAffinity(Serializable):
    """Go: v1.PodAntiAffinity."""

    required_during_scheduling_ignored_during_execution: tuple[PodAffinityTerm, ...] = ()
    preferred_during_scheduling_ignored_during_execution: tuple[WeightedPodAffinityTerm, ...] = ()


@attrs.frozen(kw_only=True)
class Affinity(Serializable):
    """Go: v1.Affinity (a field of PodSpec since 1.6)."""

    node_affinity: NodeAffinity | None = None
    pod_affinity: PodAffinity | None = None
    pod_anti_affinity: PodAntiAffinity | None = None


# --- tolerations -------------------------------------------------------------------------


@attrs.frozen(kw_only=True)
class Toleration(Serializable):
    """Lets a pod onto nodes with a matching taint. Go: v1.Toleration.

    ``operator`` keeps Go's zero value ``""``, which :meth:`tolerates_taint` treats as Equal.
    """

    key: str = ""
    operator: str = ""
    value: str = ""
    effect: str = ""
    toleration_seconds: int | None = None

    def tolerates_taint(self, taint: Taint) -> bool:
        """Whether this toleration matches ``taint``.

        Go: (*Toleration).ToleratesTaint in pkg/api/v1/helpers.go,
        https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/api/v1/helpers.go#L317-L344

        Empty effect matches every effect and empty key every key; ``Exists``
        ignores the value, ``""``/``Equal`` compare it, any other operator never
        matches. ``toleration_seconds`` plays no part in 1.6.
        """
        if self.effect and self.effect != taint.effect:
            return False
        if self.key and self.key != taint.key:
            return False
        if self.operator in ("", TOLERATION_OP_EQUAL):
            return self.value == taint.value
        if self.operator == TOLERATION_OP_EXISTS:
            return True
        return False


# --- pod ---------------------------------------------------------------------------------


@attrs.frozen(kw_only=True)
class PodSpec(Serializable):
    """Go: v1.PodSpec (scheduling-relevant subset)."""

    volumes: tuple[Volume, ...] = ()
    init_containers: tuple[Container, ...] = ()
    containers: tuple[Container, ...] = ()
    restart_policy: str = ""
    termination_grace_period_seconds: int | None = None
    active_deadline_seconds: int | None = None
    dns_policy: str = ""
    node_selector: dict[str, str] = field(factory=dict)
    service_account_name: str = ""
    node_name: str = ""
    host_network: bool = False
    host_pid: bool = field(default=False, json="hostPID")
    host_ipc: bool = field(default=False, json="hostIPC")
    hostname: str = ""
    subdomain: str = ""
    affinity: Affinity | None = None
    scheduler_name: str = ""
    tolerations: tuple[Toleration, ...] = ()


@attrs.frozen(kw_only=True)
class PodCondition(Serializable):
    """Go: v1.PodCondition."""

    type: str = field(default="", omitempty=False)
    status: str = field(default="", omitempty=False)
    last_probe_time: Time | None = None
    last_transition_time: Time | None = None
    reason: str = ""
    message: str = ""


@attrs.frozen(kw_only=True)
class PodStatus(Serializable):
    """Go: v1.PodStatus (without container statuses)."""

    phase: str = ""
    conditions: tuple[PodCondition, ...] = ()
    message: str = ""
    reason: str = ""
    host_ip: str = field(default="", json="hostIP")
    pod_ip: str = field(default="", json="podIP")
    start_time: Time | None = None
    qos_class: str = ""


@attrs.frozen(kw_only=True)
class Pod(TopLevelObject):
    """Go: v1.Pod."""

    kind: ClassVar[str] = "Pod"
    api_version: ClassVar[str] = "v1"

    metadata: ObjectMeta = field(factory=ObjectMeta)
    spec: PodSpec = field(factory=PodSpec)
    status: PodStatus = field(factory=PodStatus)


@attrs.frozen(kw_only=True)
class PodTemplateSpec(Serializable):
    """The pod a controller stamps out. Go: v1.PodTemplateSpec."""

    metadata: ObjectMeta = field(factory=ObjectMeta)
    spec: PodSpec = field(factory=PodSpec)
