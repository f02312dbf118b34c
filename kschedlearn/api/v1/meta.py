"""Object metadata shared by every kind: ObjectMeta, OwnerReference, ObjectReference.

Go: ``ObjectMeta`` and ``OwnerReference`` live in
``k8s.io/apimachinery/pkg/apis/meta/v1/types.go`` in 1.6
(https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/types.go);
``ObjectReference`` and the namespace constants live in ``pkg/api/v1/types.go``
(https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/api/v1/types.go).

Differs from Go: metadata fields are reached as ``obj.metadata.name`` (Go embeds
ObjectMeta, so ``pod.Name`` works there); times are float simulated seconds.
"""

from __future__ import annotations

import attrs

from kschedlearn.api.v1.codec import Serializable, Time, field

__all__ = [
    "NAMESPACE_ALL",
    "NAMESPACE_DEFAULT",
    "NAMESPACE_SYSTEM",
    "LABEL_HOSTNAME",
    "LABEL_ZONE_FAILURE_DOMAIN",
    "LABEL_ZONE_REGION",
    "ObjectMeta",
    "ObjectReference",
    "OwnerReference",
]

#: Go: ``v1.NamespaceDefault``.
NAMESPACE_DEFAULT = "default"
#: Go: ``v1.NamespaceAll`` (the empty namespace means "all namespaces" in list calls).
NAMESPACE_ALL = ""
#: Go: ``v1.NamespaceSystem``.
NAMESPACE_SYSTEM = "kube-system"

# Well-known node labels the scheduler reads (Go: metav1 well_known_labels.go in 1.6,
# https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/well_known_labels.go).
LABEL_HOSTNAME = "kubernetes.io/hostname"
LABEL_ZONE_FAILURE_DOMAIN = "failure-domain.beta.kubernetes.io/zone"
LABEL_ZONE_REGION = "failure-domain.beta.kubernetes.io/region"


@attrs.frozen(kw_only=True)
class OwnerReference(Serializable):
    """Points from an object to its owner (e.g. a pod to its ReplicaSet).

    Go: metav1.OwnerReference,
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/types.go#L241-L267

    Differs from Go: ``*bool`` fields are ``bool | None``.
    """

    api_version: str = field(default="", omitempty=False)
    kind: str = field(default="", omitempty=False)
    name: str = field(default="", omitempty=False)
    uid: str = field(default="", omitempty=False)
    controller: bool | None = None
    block_owner_deletion: bool | None = None


@attrs.frozen(kw_only=True)
class ObjectMeta(Serializable):
    """Name, namespace, labels, timestamps and owners of an object.

    Go: metav1.ObjectMeta,
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/types.go#L80-L226

    Differs from Go: timestamps are float simulated seconds or None (Go's zero Time).
    """

    name: str = ""
    generate_name: str = ""
    namespace: str = ""
    self_link: str = ""
    uid: str = ""
    resource_version: str = ""
    generation: int = 0
    creation_timestamp: Time | None = None
    deletion_timestamp: Time | None = None
    deletion_grace_period_seconds: int | None = None
    labels: dict[str, str] = field(factory=dict)
    annotations: dict[str, str] = field(factory=dict)
    owner_references: tuple[OwnerReference, ...] = ()
    finalizers: tuple[str, ...] = ()


@attrs.frozen(kw_only=True)
class ObjectReference(Serializable):
    """A reference to another object (binding targets, event subjects, PV claims).

    Go: v1.ObjectReference,
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/api/v1/types.go#L3726-L3762
    """

    kind: str = ""
    namespace: str = ""
    name: str = ""
    uid: str = ""
    api_version: str = ""
    resource_version: str = ""
    field_path: str = ""
