"""Listers of the core/v1 kinds the scheduler reads, with the 1.6 expansion methods.

Go: pkg/client/listers/core/v1/{pod,node,service,replicationcontroller,persistentvolume,
persistentvolumeclaim}.go and their ``*_expansion.go`` files
https://github.com/kubernetes/kubernetes/tree/v1.6.1/pkg/client/listers/core/v1
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/client/listers/core/v1/pod.go (one of the generated files) and
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/client/listers/core/v1/service_expansion.go

Differs from Go: several generated Go files share this module (see ``_generic``). API
collections are never None here, so "a nil service selector matches nothing" applies to an
empty selector map as well (Go: an empty non-nil map would match everything).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from kschedlearn.apimachinery import labels
from kschedlearn.client_go.listers._generic import Lister, NamespaceLister
from kschedlearn.trace.gofmt import sprintf

NodeConditionPredicate = Callable[[Any], bool]
"""Go: node_expansion.go ``type NodeConditionPredicate func(node *v1.Node) bool``."""


@attrs.define(eq=False)
class PodLister(Lister):
    """Go: pod.go ``podLister``."""

    def pods(self, namespace: str) -> NamespaceLister:
        """Go: ``Pods(namespace)``."""
        return self.namespace_lister(namespace)


@attrs.define(eq=False)
class NodeLister(Lister):
    """Go: node.go ``nodeLister`` (cluster-scoped) + node_expansion.go."""

    def list_with_predicate(self, predicate: NodeConditionPredicate) -> list[Any]:
        """Nodes for which ``predicate`` is true. Go: ``(*nodeLister).ListWithPredicate``."""
        nodes = self.list(labels.everything())
        return [node for node in nodes if predicate(node)]


@attrs.define(eq=False)
class ServiceLister(Lister):
    """Go: service.go ``serviceLister`` + service_expansion.go."""

    def services(self, namespace: str) -> NamespaceLister:
        """Go: ``Services(namespace)``."""
        return self.namespace_lister(namespace)

    def get_pod_services(self, pod: Any) -> list[Any]:
        """Services in the pod's namespace whose selector matches its labels (never raises
        for "none found"). Go: ``(*serviceLister).GetPodServices``.
        """
        all_services = self.services(pod.metadata.namespace).list(labels.everything())
        services = []
        for service in all_services:
            if not service.spec.selector:
                continue  # a nil selector matches nothing, not everything
            selector = labels.selector_from_validated_set(service.spec.selector)
            if selector.matches(pod.metadata.labels):
                services.append(service)
        return services


@attrs.define(eq=False)
class ReplicationControllerLister(Lister):
    """Go: replicationcontroller.go ``replicationControllerLister`` + expansion."""

    def replication_controllers(self, namespace: str) -> NamespaceLister:
        """Go: ``ReplicationControllers(namespace)``."""
        return self.namespace_lister(namespace)

    def get_pod_controllers(self, pod: Any) -> list[Any]:
        """RCs selecting the pod; raises if the pod has no labels or none matches.

        Go: ``(*replicationControllerLister).GetPodControllers``
        """
        if len(pod.metadata.labels) == 0:
            raise LookupError(sprintf("no controllers found for pod %v because it has no labels",
                                      pod.metadata.name))
        items = self.replication_controllers(pod.metadata.namespace).list(labels.everything())
        controllers = []
        for rc in items:
            selector = labels.selector_from_validated_set(rc.spec.selector)
            # An empty selector must match nothing, not everything.
            if selector.empty() or not selector.matches(pod.metadata.labels):
                continue
            controllers.append(rc)
        if len(controllers) == 0:
            raise LookupError(sprintf(
                "could not find controller for pod %s in namespace %s with labels: %v",
                pod.metadata.name, pod.metadata.namespace, pod.metadata.labels))
        return controllers


@attrs.define(eq=False)
class PersistentVolumeLister(Lister):
    """Go: persistentvolume.go ``persistentVolumeLister`` (cluster-scoped)."""


@attrs.define(eq=False)
class PersistentVolumeClaimLister(Lister):
    """Go: persistentvolumeclaim.go ``persistentVolumeClaimLister``."""

    def persistent_volume_claims(self, namespace: str) -> NamespaceLister:
        """Go: ``PersistentVolumeClaims(namespace)``."""
        return self.namespace_lister(namespace)


def new_pod_lister(indexer: Any) -> PodLister:
    """Go: pod.go ``NewPodLister``."""
    return PodLister(indexer, "pod")


def new_node_lister(indexer: Any) -> NodeLister:
    """Go: node.go ``NewNodeLister``."""
    return NodeLister(indexer, "node", namespaced=False)


def new_service_lister(indexer: Any) -> ServiceLister:
    """Go: service.go ``NewServiceLister``."""
    return ServiceLister(indexer, "service")


def new_replication_controller_lister(indexer: Any) -> ReplicationControllerLister:
    """Go: replicationcontroller.go ``NewReplicationControllerLister``."""
    return ReplicationControllerLister(indexer, "replicationcontroller")


def new_persistent_volume_lister(indexer: Any) -> PersistentVolumeLister:
    """Go: persistentvolume.go ``NewPersistentVolumeLister``."""
    return PersistentVolumeLister(indexer, "persistentvolume", namespaced=False)


def new_persistent_volume_claim_lister(indexer: Any) -> PersistentVolumeClaimLister:
    """Go: persistentvolumeclaim.go ``NewPersistentVolumeClaimLister``."""
    return PersistentVolumeClaimLister(indexer, "persistentvolumeclaim")
