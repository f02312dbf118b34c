"""Node and the node-side structures the scheduler reads (taints, conditions, images).

Go: ``pkg/api/v1/types.go`` (Node, NodeSpec, NodeStatus, Taint, NodeCondition,
ContainerImage, AvoidPods), https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/api/v1/types.go

Differs from Go: values are frozen (``attrs.evolve`` to change a copy); only the
fields used by the scheduler and the scenarios are modelled.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from kschedlearn.api.v1.codec import ResourceList, Serializable, Time, TopLevelObject, field
from kschedlearn.api.v1.meta import ObjectMeta, OwnerReference

__all__ = [
    "AvoidPods", "ContainerImage", "Node", "NodeAddress", "NodeCondition", "NodeSpec",
    "NodeStatus", "NodeSystemInfo", "PodSignature", "PreferAvoidPodsEntry", "Taint",
    "NODE_DISK_PRESSURE", "NODE_MEMORY_PRESSURE", "NODE_NETWORK_UNAVAILABLE", "NODE_OUT_OF_DISK",
    "NODE_READY", "NODE_EXTERNAL_IP", "NODE_HOSTNAME", "NODE_INTERNAL_IP",
    "TAINT_EFFECT_NO_EXECUTE", "TAINT_EFFECT_NO_SCHEDULE", "TAINT_EFFECT_PREFER_NO_SCHEDULE",
]

# Node condition types (Go: v1.NodeConditionType constants).
NODE_READY = "Ready"
NODE_OUT_OF_DISK = "OutOfDisk"
NODE_MEMORY_PRESSURE = "MemoryPressure"
NODE_DISK_PRESSURE = "DiskPressure"
NODE_NETWORK_UNAVAILABLE = "NetworkUnavailable"

# Node address types (Go: v1.NodeAddressType constants).
NODE_HOSTNAME = "Hostname"
NODE_EXTERNAL_IP = "ExternalIP"
NODE_INTERNAL_IP = "InternalIP"

# Taint effects (Go: v1.TaintEffect constants).
TAINT_EFFECT_NO_SCHEDULE = "NoSchedule"
TAINT_EFFECT_PREFER_NO_SCHEDULE = "PreferNoSchedule"
TAINT_EFFECT_NO_EXECUTE = "NoExecute"


@attrs.frozen(kw_only=True)
class Taint(Serializable):
    """Repels pods that do not tolerate it. Go: v1.Taint."""

    key: str = field(default="", omitempty=False)
    value: str = ""
    effect: str = field(default="", omitempty=False)
    time_added: Time | None = None

    def match_taint(self, taint_to_match: Taint) -> bool:
        """Taints are unique by key and effect.

        Go: (*Taint).MatchTaint, https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/api/v1/helpers.go#L431-L435
        """
        return self.key == taint_to_match.key and self.effect == taint_to_match.effect

    def to_string(self) -> str:
        """``key=value:effect`` or ``key:effect``.

        Go: (*Taint).ToString, https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/api/v1/helpers.go#L437-L443
        """
        if not self.value:
            return f"{self.key}:{self.effect}"
        return f"{self.key}={self.value}:{self.effect}"


@attrs.frozen(kw_only=True)
class NodeSpec(Serializable):
    """Go: v1.NodeSpec."""

    pod_cidr: str = field(default="", json="podCIDR")
    external_id: str = field(default="", json="externalID")
    provider_id: str = field(default="", json="providerID")
    unschedulable: bool = False
    taints: tuple[Taint, ...] = ()


@attrs.frozen(kw_only=True)
class NodeCondition(Serializable):
    """Go: v1.NodeCondition."""

    type: str = field(default="", omitempty=False)
    status: str = field(default="", omitempty=False)
    last_heartbeat_time: Time | None = None
    last_transition_time: Time | None = None
    reason: str = ""
    message: str = ""


@attrs.frozen(kw_only=True)
class NodeAddress(Serializable):
    """Go: v1.NodeAddress."""

    type: str = field(default="", omitempty=False)
    address: str = field(default="", omitempty=False)


@attrs.frozen(kw_only=True)
class ContainerImage(Serializable):
    """An image present on the node (ImageLocalityPriority). Go: v1.ContainerImage."""

    names: tuple[str, ...] = ()
    size_bytes: int = 0


@attrs.frozen(kw_only=True)
class NodeSystemInfo(Serializable):
    """What the kubelet reports about its machine (``kubectl get nodes`` shows the versions).

    Go: v1.NodeSystemInfo,
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/api/v1/types.go#L3136-L3162
    (Go writes every field, none is ``omitempty``). The scheduler never reads it.
    """

    machine_id: str = field(default="", json="machineID", omitempty=False)
    system_uuid: str = field(default="", json="systemUUID", omitempty=False)
    boot_id: str = field(default="", json="bootID", omitempty=False)
    kernel_version: str = field(default="", omitempty=False)
    os_image: str = field(default="", json="osImage", omitempty=False)
    container_runtime_version: str = field(default="", omitempty=False)
    kubelet_version: str = field(default="", omitempty=False)
    kube_proxy_version: str = field(default="", omitempty=False)
    operating_system: str = field(default="", omitempty=False)
    architecture: str = field(default="", omitempty=False)


@attrs.frozen(kw_only=True)
class NodeStatus(Serializable):
    """Go: v1.NodeStatus (subset).

    Differs from Go: ``node_info`` is None (and not written) unless the node reported it, as a
    replayed cluster's nodes do; Go's struct field is always written.
    """

    capacity: ResourceList = field(factory=dict)
    allocatable: ResourceList = field(factory=dict)
    phase: str = ""
    conditions: tuple[NodeCondition, ...] = ()
    addresses: tuple[NodeAddress, ...] = ()
    node_info: NodeSystemInfo | None = None
    images: tuple[ContainerImage, ...] = ()


@attrs.frozen(kw_only=True)
class Node(TopLevelObject):
    """Go: v1.Node (cluster-scoped)."""

    kind: ClassVar[str] = "Node"
    api_version: ClassVar[str] = "v1"

    metadata: ObjectMeta = field(factory=ObjectMeta)
    spec: NodeSpec = field(factory=NodeSpec)
    status: NodeStatus = field(factory=NodeStatus)


@attrs.frozen(kw_only=True)
class PodSignature(Serializable):
    """Identifies a group of pods by their controller. Go: v1.PodSignature."""

    pod_controller: OwnerReference | None = None


@attrs.frozen(kw_only=True)
class PreferAvoidPodsEntry(Serializable):
    """Go: v1.PreferAvoidPodsEntry."""

    pod_signature: PodSignature = field(factory=PodSignature, omitempty=False)
    eviction_time: Time | None = None
    reason: str = ""
    message: str = ""


@attrs.frozen(kw_only=True)
class AvoidPods(Serializable):
    """The JSON body of the ``scheduler.alpha.kubernetes.io/preferAvoidPods`` node annotation.

    Go: v1.AvoidPods.
    """

    prefer_avoid_pods: tuple[PreferAvoidPodsEntry, ...] = ()
