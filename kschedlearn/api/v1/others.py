"""The other kinds the 1.6 scheduler watches or writes.

Binding (bind subresource), Event (recorder), Endpoints (leader-election lock),
Service / ReplicationController / ReplicaSet / StatefulSet (SelectorSpread and
ServiceAffinity), PersistentVolume / PersistentVolumeClaim (volume predicates).

Go: ``pkg/api/v1/types.go`` (https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/api/v1/types.go),
``pkg/apis/extensions/v1beta1/types.go`` (ReplicaSet,
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/apis/extensions/v1beta1/types.go) and
``pkg/apis/apps/v1beta1/types.go`` (StatefulSet,
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/apis/apps/v1beta1/types.go).

Differs from Go: only the fields the scheduler, the scenarios and the controllers of
``kschedlearn.controller`` use are modelled.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from kschedlearn.api.v1.codec import IntOrString, ResourceList, Serializable, Time, TopLevelObject, field
from kschedlearn.api.v1.meta import ObjectMeta, ObjectReference
from kschedlearn.api.v1.pod import (
    AWSElasticBlockStoreVolumeSource,
    AzureDiskVolumeSource,
    GCEPersistentDiskVolumeSource,
    HostPathVolumeSource,
    ISCSIVolumeSource,
    PodTemplateSpec,
    RBDVolumeSource,
    ResourceRequirements,
)
from kschedlearn.apimachinery.apis.meta.v1 import LabelSelector

__all__ = [
    "Binding", "EndpointAddress", "EndpointPort", "EndpointSubset", "Endpoints", "Event",
    "EventSource", "PersistentVolume", "PersistentVolumeClaim", "PersistentVolumeClaimSpec",
    "PersistentVolumeClaimStatus", "PersistentVolumeSpec", "PersistentVolumeStatus",
    "ReplicaSet", "ReplicaSetCondition", "ReplicaSetSpec", "ReplicaSetStatus", "ReplicationController",
    "ReplicationControllerCondition", "ReplicationControllerSpec", "ReplicationControllerStatus",
    "Service", "ServicePort",
    "ServiceSpec", "StatefulSet", "StatefulSetSpec", "StatefulSetStatus",
    "EVENT_TYPE_NORMAL", "EVENT_TYPE_WARNING", "VOLUME_AVAILABLE", "VOLUME_BOUND",
    "CLAIM_BOUND", "CLAIM_PENDING",
]

# Event types (Go: v1.EventTypeNormal / EventTypeWarning).
EVENT_TYPE_NORMAL = "Normal"
EVENT_TYPE_WARNING = "Warning"

# PV / PVC phases (Go: v1.PersistentVolumePhase / PersistentVolumeClaimPhase constants).
VOLUME_AVAILABLE = "Available"
VOLUME_BOUND = "Bound"
CLAIM_PENDING = "Pending"
CLAIM_BOUND = "Bound"


@attrs.frozen(kw_only=True)
class Binding(TopLevelObject):
    """Ties a pod (``metadata``) to a node (``target``). Go: v1.Binding."""

    kind: ClassVar[str] = "Binding"
    api_version: ClassVar[str] = "v1"

    metadata: ObjectMeta = field(factory=ObjectMeta)
    target: ObjectReference = field(factory=ObjectReference, omitempty=False)


@attrs.frozen(kw_only=True)
class EventSource(Serializable):
    """Go: v1.EventSource."""

    component: str = ""
    host: str = ""


@attrs.frozen(kw_only=True)
class Event(TopLevelObject):
    """Go: v1.Event."""

    kind: ClassVar[str] = "Event"
    api_version: ClassVar[str] = "v1"

    metadata: ObjectMeta = field(factory=ObjectMeta)
    involved_object: ObjectReference = field(factory=ObjectReference, omitempty=False)
    reason: str = ""
    message: str = ""
    source: EventSource = field(factory=EventSource)
    first_timestamp: Time | None = None
    last_timestamp: Time | None = None
    count: int = 0
    type: str = ""


@attrs.frozen(kw_only=True)
class EndpointAddress(Serializable):
    """Go: v1.EndpointAddress."""

    ip: str = field(default="", omitempty=False)
    hostname: str = ""
    node_name: str | None = None
    target_ref: ObjectReference | None = None


@attrs.frozen(kw_only=True)
class EndpointPort(Serializable):
    """Go: v1.EndpointPort."""

    name: str = ""
    port: int = field(default=0, omitempty=False)
    protocol: str = ""


@attrs.frozen(kw_only=True)
class EndpointSubset(Serializable):
    """Go: v1.EndpointSubset."""

    addresses: tuple[EndpointAddress, ...] = ()
    not_ready_addresses: tuple[EndpointAddress, ...] = ()
    ports: tuple[EndpointPort, ...] = ()


@attrs.frozen(kw_only=True)
class Endpoints(TopLevelObject):
    """Go: v1.Endpoints (also the scheduler's leader-election lock object)."""

    kind: ClassVar[str] = "Endpoints"
    api_version: ClassVar[str] = "v1"

    metadata: ObjectMeta = field(factory=ObjectMeta)
    subsets: tuple[EndpointSubset, ...] = ()


@attrs.frozen(kw_only=True)
class ServicePort(Serializable):
    """Go: v1.ServicePort."""

    name: str = ""
    protocol: str = ""
    port: int = field(default=0, omitempty=False)
    target_port: IntOrString = 0
    node_port: int = 0


@attrs.frozen(kw_only=True)
class ServiceSpec(Serializable):
    """Go: v1.ServiceSpec (subset). A nil/empty ``selector`` selects nothing for spreading."""

    ports: tuple[ServicePort, ...] = ()
    selector: dict[str, str] = field(factory=dict)
    cluster_ip: str = field(default="", json="clusterIP")
    type: str = ""
    session_affinity: str = ""


@attrs.frozen(kw_only=True)
class Service(TopLevelObject):
    """Go: v1.Service."""

    kind: ClassVar[str] = "Service"
    api_version: ClassVar[str] = "v1"

    metadata: ObjectMeta = field(factory=ObjectMeta)
    spec: ServiceSpec = field(factory=ServiceSpec)


@attrs.frozen(kw_only=True)
class ReplicationControllerSpec(Serializable):
    """Go: v1.ReplicationControllerSpec (``selector`` is a plain label map)."""

    replicas: int | None = None
    min_ready_seconds: int = 0
    selector: dict[str, str] = field(factory=dict)
    template: PodTemplateSpec | None = None


@attrs.frozen(kw_only=True)
class ReplicationControllerCondition(Serializable):
    """Go: v1.ReplicationControllerCondition (``ReplicaFailure`` when pods cannot be created or deleted)."""

    type: str = field(default="", omitempty=False)
    status: str = field(default="", omitempty=False)
    last_transition_time: Time | None = None
    reason: str = ""
    message: str = ""


@attrs.frozen(kw_only=True)
class ReplicationControllerStatus(Serializable):
    """Go: v1.ReplicationControllerStatus."""

    replicas: int = field(default=0, omitempty=False)
    fully_labeled_replicas: int = 0
    ready_replicas: int = 0
    available_replicas: int = 0
    observed_generation: int = 0
    conditions: tuple[ReplicationControllerCondition, ...] = ()


@attrs.frozen(kw_only=True)
class ReplicationController(TopLevelObject):
    """Go: v1.ReplicationController."""

    kind: ClassVar[str] = "ReplicationController"
    api_version: ClassVar[str] = "v1"

    metadata: ObjectMeta = field(factory=ObjectMeta)
    spec: ReplicationControllerSpec = field(factory=ReplicationControllerSpec)
    status: ReplicationControllerStatus = field(factory=ReplicationControllerStatus)


@attrs.frozen(kw_only=True)
class ReplicaSetSpec(Serializable):
    """Go: extensions/v1beta1 ReplicaSetSpec (``selector`` is a LabelSelector)."""

    replicas: int | None = None
    min_ready_seconds: int = 0
    selector: LabelSelector | None = None
    template: PodTemplateSpec = field(factory=PodTemplateSpec)


@attrs.frozen(kw_only=True)
class ReplicaSetCondition(Serializable):
    """Go: extensions/v1beta1 ReplicaSetCondition."""

    type: str = field(default="", omitempty=False)
    status: str = field(default="", omitempty=False)
    last_transition_time: Time | None = None
    reason: str = ""
    message: str = ""


@attrs.frozen(kw_only=True)
class ReplicaSetStatus(Serializable):
    """Go: extensions/v1beta1 ReplicaSetStatus."""

    replicas: int = field(default=0, omitempty=False)
    fully_labeled_replicas: int = 0
    ready_replicas: int = 0
    available_replicas: int = 0
    observed_generation: int = 0
    conditions: tuple[ReplicaSetCondition, ...] = ()


@attrs.frozen(kw_only=True)
class ReplicaSet(TopLevelObject):
    """Go: extensions/v1beta1 ReplicaSet."""

    kind: ClassVar[str] = "ReplicaSet"
    api_version: ClassVar[str] = "extensions/v1beta1"

    metadata: ObjectMeta = field(factory=ObjectMeta)
    spec: ReplicaSetSpec = field(factory=ReplicaSetSpec)
    status: ReplicaSetStatus = field(factory=ReplicaSetStatus)


@attrs.frozen(kw_only=True)
class StatefulSetSpec(Serializable):
    """Go: apps/v1beta1 StatefulSetSpec."""

    replicas: int | None = None
    selector: LabelSelector | None = None
    template: PodTemplateSpec = field(factory=PodTemplateSpec)
    volume_claim_templates: tuple[PersistentVolumeClaim, ...] = ()
    service_name: str = field(default="", omitempty=False)


@attrs.frozen(kw_only=True)
class StatefulSetStatus(Serializable):
    """Go: apps/v1beta1 StatefulSetStatus."""

    observed_generation: int | None = None
    replicas: int = field(default=0, omitempty=False)


@attrs.frozen(kw_only=True)
class StatefulSet(TopLevelObject):
    """Go: apps/v1beta1 StatefulSet."""

    kind: ClassVar[str] = "StatefulSet"
    api_version: ClassVar[str] = "apps/v1beta1"

    metadata: ObjectMeta = field(factory=ObjectMeta)
    spec: StatefulSetSpec = field(factory=StatefulSetSpec)
    status: StatefulSetStatus = field(factory=StatefulSetStatus)


@attrs.frozen(kw_only=True)
class PersistentVolumeSpec(Serializable):
    """Go: v1.PersistentVolumeSpec with the inlined PersistentVolumeSource (subset).

    Zone/region constraints of a PV are carried by its metadata labels
    (``failure-domain.beta.kubernetes.io/zone`` / ``.../region``), read by NoVolumeZoneConflict.
    """

    capacity: ResourceList = field(factory=dict)
    gce_persistent_disk: GCEPersistentDiskVolumeSource | None = None
    aws_elastic_block_store: AWSElasticBlockStoreVolumeSource | None = None
    host_path: HostPathVolumeSource | None = None
    rbd: RBDVolumeSource | None = None
    iscsi: ISCSIVolumeSource | None = None
    azure_disk: AzureDiskVolumeSource | None = None
    access_modes: tuple[str, ...] = ()
    claim_ref: ObjectReference | None = None
    persistent_volume_reclaim_policy: str = ""
    storage_class_name: str = ""


@attrs.frozen(kw_only=True)
class PersistentVolumeStatus(Serializable):
    """Go: v1.PersistentVolumeStatus."""

    phase: str = ""
    message: str = ""
    reason: str = ""


@attrs.frozen(kw_only=True)
class PersistentVolume(TopLevelObject):
    """Go: v1.PersistentVolume (cluster-scoped)."""

    kind: ClassVar[str] = "PersistentVolume"
    api_version: ClassVar[str] = "v1"

    metadata: ObjectMeta = field(factory=ObjectMeta)
    spec: PersistentVolumeSpec = field(factory=PersistentVolumeSpec)
    status: PersistentVolumeStatus = field(factory=PersistentVolumeStatus)


@attrs.frozen(kw_only=True)
class PersistentVolumeClaimSpec(Serializable):
    """Go: v1.PersistentVolumeClaimSpec. An empty ``volume_name`` means "not bound yet"."""

    access_modes: tuple[str, ...] = ()
    selector: LabelSelector | None = None
    resources: ResourceRequirements = field(factory=ResourceRequirements)
    volume_name: str = ""
    storage_class_name: str | None = None


@attrs.frozen(kw_only=True)
class PersistentVolumeClaimStatus(Serializable):
    """Go: v1.PersistentVolumeClaimStatus."""

    phase: str = ""
    access_modes: tuple[str, ...] = ()
    capacity: ResourceList = field(factory=dict)


@attrs.frozen(kw_only=True)
class PersistentVolumeClaim(TopLevelObject):
    """Go: v1.PersistentVolumeClaim."""

    kind: ClassVar[str] = "PersistentVolumeClaim"
    api_version: ClassVar[str] = "v1"

    metadata: ObjectMeta = field(factory=ObjectMeta)
    spec: PersistentVolumeClaimSpec = field(factory=PersistentVolumeClaimSpec)
    status: PersistentVolumeClaimStatus = field(factory=PersistentVolumeClaimStatus)
