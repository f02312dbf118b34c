"""The apps/v1beta1 StatefulSet lister and its GetPodStatefulSets expansion.

Go: pkg/client/listers/apps/v1beta1/{statefulset.go,statefulset_expansion.go}
https://github.com/kubernetes/kubernetes/tree/v1.6.1/pkg/client/listers/apps/v1beta1
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/client/listers/apps/v1beta1/statefulset_expansion.go
"""

from __future__ import annotations

from typing import Any

import attrs

from kschedlearn.apimachinery import labels
from kschedlearn.apimachinery.apis.meta import v1 as metav1
from kschedlearn.client_go.listers._generic import Lister, NamespaceLister
from kschedlearn.trace.gofmt import sprintf


@attrs.define(eq=False)
class StatefulSetLister(Lister):
    """Go: statefulset.go ``statefulSetLister`` + statefulset_expansion.go."""

    def stateful_sets(self, namespace: str) -> NamespaceLister:
        """Go: ``StatefulSets(namespace)``."""
        return self.namespace_lister(namespace)

    def get_pod_stateful_sets(self, pod: Any) -> list[Any]:
        """StatefulSets selecting the pod; raises if it has no labels or none matches.

        Go: ``(*statefulSetLister).GetPodStatefulSets`` (an invalid selector just does not
        match).
        """
        if len(pod.metadata.labels) == 0:
            raise LookupError(sprintf("no StatefulSets found for pod %v because it has no labels",
                                      pod.metadata.name))
        items = self.stateful_sets(pod.metadata.namespace).list(labels.everything())
        ps_list = []
        for ps in items:
            if ps.metadata.namespace != pod.metadata.namespace:
                continue
            try:
                selector = metav1.label_selector_as_selector(ps.spec.selector)
            except ValueError:
                continue
            if selector.empty() or not selector.matches(pod.metadata.labels):
                continue
            ps_list.append(ps)
        if len(ps_list) == 0:
            raise LookupError(sprintf(
                "could not find StatefulSet for pod %s in namespace %s with labels: %v",
                pod.metadata.name, pod.metadata.namespace, pod.metadata.labels))
        return ps_list


def new_stateful_set_lister(indexer: Any) -> StatefulSetLister:
    """Go: statefulset.go ``NewStatefulSetLister``."""
    return StatefulSetLister(indexer, "statefulset", group="apps")
