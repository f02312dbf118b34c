"""The extensions/v1beta1 ReplicaSet lister and its GetPodReplicaSets expansion.

Go: pkg/client/listers/extensions/v1beta1/{replicaset.go,replicaset_expansion.go}
https://github.com/kubernetes/kubernetes/tree/v1.6.1/pkg/client/listers/extensions/v1beta1
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/client/listers/extensions/v1beta1/replicaset_expansion.go
"""

from __future__ import annotations

from typing import Any

import attrs

from kschedlearn.apimachinery import labels
from kschedlearn.apimachinery.apis.meta import v1 as metav1
from kschedlearn.client_go.listers._generic import Lister, NamespaceLister
from kschedlearn.trace.gofmt import sprintf


@attrs.define(eq=False)
class ReplicaSetLister(Lister):
    """Go: replicaset.go ``replicaSetLister`` + replicaset_expansion.go."""

    def replica_sets(self, namespace: str) -> NamespaceLister:
        """Go: ``ReplicaSets(namespace)``."""
        return self.namespace_lister(namespace)

    def get_pod_replica_sets(self, pod: Any) -> list[Any]:
        """ReplicaSets selecting the pod; raises if it has no labels or none matches.

        Go: ``(*replicaSetLister).GetPodReplicaSets``
        """
        if len(pod.metadata.labels) == 0:
            raise LookupError(sprintf("no ReplicaSets found for pod %v because it has no labels",
                                      pod.metadata.name))
        items = self.replica_sets(pod.metadata.namespace).list(labels.everything())
        rss = []
        for rs in items:
            if rs.metadata.namespace != pod.metadata.namespace:
                continue
            try:
                selector = metav1.label_selector_as_selector(rs.spec.selector)
            except ValueError as err:
                raise ValueError(sprintf("invalid selector: %v", err)) from err
            # A nil or empty selector must match nothing, not everything.
            if selector.empty() or not selector.matches(pod.metadata.labels):
                continue
            rss.append(rs)
        if len(rss) == 0:
            raise LookupError(sprintf(
                "could not find ReplicaSet for pod %s in namespace %s with labels: %v",
                pod.metadata.name, pod.metadata.namespace, pod.metadata.labels))
        return rss


def new_replica_set_lister(indexer: Any) -> ReplicaSetLister:
    """Go: replicaset.go ``NewReplicaSetLister``."""
    return ReplicaSetLister(indexer, "replicaset", group="extensions")


@attrs.define(eq=False)
class DeploymentLister(Lister):
    """Go: deployment.go ``deploymentLister`` + deployment_expansion.go."""

    def deployments(self, namespace: str) -> NamespaceLister:
        """Go: ``Deployments(namespace)``."""
        return self.namespace_lister(namespace)

    def get_deployments_for_replica_set(self, rs: Any) -> list[Any]:
        """Deployments whose selector matches the ReplicaSet's labels; raises if none.

        Go: ``(*deploymentLister).GetDeploymentsForReplicaSet`` —
        https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/client/listers/extensions/v1beta1/deployment_expansion.go#L37-L70
        """
        if len(rs.metadata.labels) == 0:
            raise LookupError(sprintf("no deployments found for ReplicaSet %v because it has no labels",
                                      rs.metadata.name))
        d_list = self.deployments(rs.metadata.namespace).list(labels.everything())
        deployments = []
        for d in d_list:
            try:
                selector = metav1.label_selector_as_selector(d.spec.selector)
            except ValueError as err:
                raise ValueError(sprintf("invalid label selector: %v", err)) from err
            # If a deployment with a nil or empty selector creeps in, it should match nothing, not everything.
            if selector.empty() or not selector.matches(rs.metadata.labels):
                continue
            deployments.append(d)
        if len(deployments) == 0:
            raise LookupError(sprintf("could not find deployments set for ReplicaSet %s in namespace %s with labels: %v",
                                      rs.metadata.name, rs.metadata.namespace, rs.metadata.labels))
        return deployments


def new_deployment_lister(indexer: Any) -> DeploymentLister:
    """Go: deployment.go ``NewDeploymentLister``."""
    return DeploymentLister(indexer, "deployment", group="extensions")


@attrs.define(eq=False)
class DaemonSetLister(Lister):
    """Go: daemonset.go ``daemonSetLister`` + daemonset_expansion.go."""

    def daemon_sets(self, namespace: str) -> NamespaceLister:
        """Go: ``DaemonSets(namespace)``."""
        return self.namespace_lister(namespace)

    def get_pod_daemon_sets(self, pod: Any) -> list[Any]:
        """DaemonSets selecting the pod; raises if it has no labels or none matches.

        Go: ``(*daemonSetLister).GetPodDaemonSets`` —
        https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/client/listers/extensions/v1beta1/daemonset_expansion.go#L38-L78
        """
        if len(pod.metadata.labels) == 0:
            raise LookupError(sprintf("no daemon sets found for pod %v because it has no labels", pod.metadata.name))
        items = self.daemon_sets(pod.metadata.namespace).list(labels.everything())
        daemon_sets = []
        for daemon_set in items:
            if daemon_set.metadata.namespace != pod.metadata.namespace:
                continue
            # this should not happen if the DaemonSet passed validation (Go returns the error)
            selector = metav1.label_selector_as_selector(daemon_set.spec.selector)
            # If a daemonSet with a nil or empty selector creeps in, it should match nothing, not everything.
            if selector.empty() or not selector.matches(pod.metadata.labels):
                continue
            daemon_sets.append(daemon_set)
        if len(daemon_sets) == 0:
            raise LookupError(sprintf("could not find daemon set for pod %s in namespace %s with labels: %v",
                                      pod.metadata.name, pod.metadata.namespace, pod.metadata.labels))
        return daemon_sets


def new_daemon_set_lister(indexer: Any) -> DaemonSetLister:
    """Go: daemonset.go ``NewDaemonSetLister``."""
    return DaemonSetLister(indexer, "daemonset", group="extensions")
