"""The ``extensions/v1beta1`` kinds the 1.6 controllers read and write.

Go: ``pkg/apis/extensions/v1beta1/types.go``
(https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/apis/extensions/v1beta1/types.go):
Scale (#L29-L66), Deployment and its spec, strategy, status and conditions (#L180-L360),
DaemonSet (#L362-L520), ReplicaSet (#L770-L840, kept in :mod:`kschedlearn.api.v1.others`,
where the scheduler already used it, and re-exported here).

Differs from Go: only the fields the controllers, kubectl and the Python client use are
modelled (the codec drops unknown keys, as Go's decoder does); ``*int32`` / ``*IntOrString``
fields are ``X | None``; times are float simulated seconds.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from kschedlearn.api.v1.codec import IntOrString, Serializable, Time, TopLevelObject, field
from kschedlearn.api.v1.meta import ObjectMeta
from kschedlearn.api.v1.others import (
    ReplicaSet,
    ReplicaSetCondition,
    ReplicaSetSpec,
    ReplicaSetStatus,
)
from kschedlearn.api.v1.pod import PodTemplateSpec
from kschedlearn.apimachinery.apis.meta.v1 import LabelSelector

__all__ = [
    "DAEMON_SET_TEMPLATE_GENERATION_KEY", "DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY", "DEPLOYMENT_AVAILABLE",
    "DEPLOYMENT_PROGRESSING", "DEPLOYMENT_REPLICA_FAILURE", "GROUP_VERSION", "ON_DELETE_DAEMON_SET_STRATEGY_TYPE",
    "RECREATE_DEPLOYMENT_STRATEGY_TYPE", "REPLICA_SET_REPLICA_FAILURE", "ROLLING_UPDATE_DAEMON_SET_STRATEGY_TYPE",
    "ROLLING_UPDATE_DEPLOYMENT_STRATEGY_TYPE", "DaemonSet", "DaemonSetSpec", "DaemonSetStatus",
    "DaemonSetUpdateStrategy", "Deployment", "DeploymentCondition", "DeploymentSpec", "DeploymentStatus",
    "DeploymentStrategy", "ReplicaSet", "ReplicaSetCondition", "ReplicaSetSpec", "ReplicaSetStatus",
    "RollbackConfig", "RollingUpdateDaemonSet", "RollingUpdateDeployment", "Scale", "ScaleSpec", "ScaleStatus",
]

#: Go: SchemeGroupVersion of this package (register.go).
GROUP_VERSION = "extensions/v1beta1"

#: Go: DefaultDeploymentUniqueLabelKey — types.go#L237-L240.
DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY = "pod-template-hash"
#: Go: RecreateDeploymentStrategyType / RollingUpdateDeploymentStrategyType — types.go#L261-L265.
RECREATE_DEPLOYMENT_STRATEGY_TYPE = "Recreate"
ROLLING_UPDATE_DEPLOYMENT_STRATEGY_TYPE = "RollingUpdate"
#: Go: DeploymentAvailable / DeploymentProgressing / DeploymentReplicaFailure — types.go#L332-L342.
DEPLOYMENT_AVAILABLE = "Available"
DEPLOYMENT_PROGRESSING = "Progressing"
DEPLOYMENT_REPLICA_FAILURE = "ReplicaFailure"
#: Go: RollingUpdateDaemonSetStrategyType / OnDeleteDaemonSetStrategyType — types.go#L390-L394.
ROLLING_UPDATE_DAEMON_SET_STRATEGY_TYPE = "RollingUpdate"
ON_DELETE_DAEMON_SET_STRATEGY_TYPE = "OnDelete"
#: Go: DaemonSetTemplateGenerationKey — types.go#L517-L520.
DAEMON_SET_TEMPLATE_GENERATION_KEY = "pod-template-generation"
#: Go: ReplicaSetReplicaFailure — types.go#L812-L815.
REPLICA_SET_REPLICA_FAILURE = "ReplicaFailure"


@attrs.frozen(kw_only=True)
class ScaleSpec(Serializable):
    """Go: v1beta1.ScaleSpec."""

    replicas: int = 0


@attrs.frozen(kw_only=True)
class ScaleStatus(Serializable):
    """Go: v1beta1.ScaleStatus (``selector`` as a map, ``targetSelector`` as a string)."""

    replicas: int = field(default=0, omitempty=False)
    selector: dict[str, str] = field(factory=dict)
    target_selector: str = ""


@attrs.frozen(kw_only=True)
class Scale(TopLevelObject):
    """The ``scale`` subresource of a Deployment, ReplicaSet or RC. Go: v1beta1.Scale."""

    kind: ClassVar[str] = "Scale"
    api_version: ClassVar[str] = GROUP_VERSION

    metadata: ObjectMeta = field(factory=ObjectMeta)
    spec: ScaleSpec = field(factory=ScaleSpec)
    status: ScaleStatus = field(factory=ScaleStatus)


@attrs.frozen(kw_only=True)
class RollingUpdateDeployment(Serializable):
    """Go: v1beta1.RollingUpdateDeployment (an int or a percentage each)."""

    max_unavailable: IntOrString | None = None
    max_surge: IntOrString | None = None


@attrs.frozen(kw_only=True)
class DeploymentStrategy(Serializable):
    """Go: v1beta1.DeploymentStrategy."""

    type: str = ""
    rolling_update: RollingUpdateDeployment | None = None


@attrs.frozen(kw_only=True)
class RollbackConfig(Serializable):
    """Go: v1beta1.RollbackConfig (revision 0 = the previous one)."""

    revision: int = 0


@attrs.frozen(kw_only=True)
class DeploymentSpec(Serializable):
    """Go: v1beta1.DeploymentSpec."""

    replicas: int | None = None
    selector: LabelSelector | None = None
    template: PodTemplateSpec = field(factory=PodTemplateSpec)
    strategy: DeploymentStrategy = field(factory=DeploymentStrategy)
    min_ready_seconds: int = 0
    revision_history_limit: int | None = None
    paused: bool = False
    rollback_to: RollbackConfig | None = None
    progress_deadline_seconds: int | None = None


@attrs.frozen(kw_only=True)
class DeploymentCondition(Serializable):
    """Go: v1beta1.DeploymentCondition."""

    type: str = field(default="", omitempty=False)
    status: str = field(default="", omitempty=False)
    last_update_time: Time | None = None
    last_transition_time: Time | None = None
    reason: str = ""
    message: str = ""


@attrs.frozen(kw_only=True)
class DeploymentStatus(Serializable):
    """Go: v1beta1.DeploymentStatus."""

    observed_generation: int = 0
    replicas: int = 0
    updated_replicas: int = 0
    ready_replicas: int = 0
    available_replicas: int = 0
    unavailable_replicas: int = 0
    conditions: tuple[DeploymentCondition, ...] = ()


@attrs.frozen(kw_only=True)
class Deployment(TopLevelObject):
    """Go: v1beta1.Deployment."""

    kind: ClassVar[str] = "Deployment"
    api_version: ClassVar[str] = GROUP_VERSION

    metadata: ObjectMeta = field(factory=ObjectMeta)
    spec: DeploymentSpec = field(factory=DeploymentSpec)
    status: DeploymentStatus = field(factory=DeploymentStatus)


@attrs.frozen(kw_only=True)
class RollingUpdateDaemonSet(Serializable):
    """Go: v1beta1.RollingUpdateDaemonSet."""

    max_unavailable: IntOrString | None = None


@attrs.frozen(kw_only=True)
class DaemonSetUpdateStrategy(Serializable):
    """Go: v1beta1.DaemonSetUpdateStrategy (``OnDelete`` by default in 1.6)."""

    type: str = ""
    rolling_update: RollingUpdateDaemonSet | None = None


@attrs.frozen(kw_only=True)
class DaemonSetSpec(Serializable):
    """Go: v1beta1.DaemonSetSpec."""

    selector: LabelSelector | None = None
    template: PodTemplateSpec = field(factory=PodTemplateSpec)
    update_strategy: DaemonSetUpdateStrategy = field(factory=DaemonSetUpdateStrategy)
    min_ready_seconds: int = 0
    template_generation: int = 0


@attrs.frozen(kw_only=True)
class DaemonSetStatus(Serializable):
    """Go: v1beta1.DaemonSetStatus (the first four counts carry no ``omitempty`` in Go)."""

    current_number_scheduled: int = field(default=0, omitempty=False)
    number_misscheduled: int = field(default=0, omitempty=False)
    desired_number_scheduled: int = field(default=0, omitempty=False)
    number_ready: int = field(default=0, omitempty=False)
    observed_generation: int = 0
    updated_number_scheduled: int = 0
    number_available: int = 0
    number_unavailable: int = 0


@attrs.frozen(kw_only=True)
class DaemonSet(TopLevelObject):
    """Go: v1beta1.DaemonSet."""

    kind: ClassVar[str] = "DaemonSet"
    api_version: ClassVar[str] = GROUP_VERSION

    metadata: ObjectMeta = field(factory=ObjectMeta)
    spec: DaemonSetSpec = field(factory=DaemonSetSpec)
    status: DaemonSetStatus = field(factory=DaemonSetStatus)
