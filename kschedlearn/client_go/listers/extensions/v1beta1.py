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
