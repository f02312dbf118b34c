"""Topology helpers for inter-pod (anti-)affinity: namespaces of a term, and "same domain?".

Go: plugin/pkg/scheduler/algorithm/priorities/util/topologies.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/util/topologies.go

A pod affinity term names a *topology key* (a node label such as ``kubernetes.io/hostname`` or
``failure-domain.beta.kubernetes.io/zone``). Two nodes are in the same topology domain when
both carry that label with the same value.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from kschedlearn.features import AFFINITY_IN_ANNOTATIONS, default_feature_gate

if TYPE_CHECKING:
    from kschedlearn.api.v1 import Node, Pod, PodAffinityTerm
    from kschedlearn.apimachinery.labels import Selector


def get_namespaces_from_pod_affinity_term(pod: "Pod", pod_affinity_term: "PodAffinityTerm") -> set[str]:
    """The namespaces a term looks in: its own list, or else the namespace of ``pod``.

    ``pod`` is the pod that *defines* the term, so an empty ``namespaces`` list means "my
    own namespace".

    Go: func GetNamespacesFromPodAffinityTerm(pod *v1.Pod, podAffinityTerm v1.PodAffinityTerm) sets.String
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/util/topologies.go#L27-L38
    Differs from Go: a Python ``set`` stands in for ``sets.String``.
    """
    names: set[str] = set()
    if len(pod_affinity_term.namespaces) == 0:
        names.add(pod.metadata.namespace)
    else:
        names.update(pod_affinity_term.namespaces)
    return names


def pod_matches_terms_namespace_and_selector(pod: "Pod", namespaces: set[str], selector: "Selector") -> bool:
    """True when ``pod`` lives in one of ``namespaces`` and its labels match ``selector``.

    Go: func PodMatchesTermsNamespaceAndSelector(pod *v1.Pod, namespaces sets.String, selector labels.Selector) bool
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/util/topologies.go#L40-L51
    """
    if pod.metadata.namespace not in namespaces:
        return False
    if not selector.matches(pod.metadata.labels):
        return False
    return True


def nodes_have_same_topology_key(node_a: "Node", node_b: "Node", topology_key: str) -> bool:
    """True when both nodes carry label ``topology_key`` with equal values.

    An empty key never matches; a label missing on either node never matches (even if the
    other node lacks it too).

    Go: func NodesHaveSameTopologyKey(nodeA, nodeB *v1.Node, topologyKey string) bool
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/util/topologies.go#L53-L60
    """
    if len(topology_key) == 0:
        return False
    labels_a = node_a.metadata.labels
    labels_b = node_b.metadata.labels
    if topology_key in labels_a and topology_key in labels_b:
        return labels_a[topology_key] == labels_b[topology_key]
    return False


@attrs.frozen(kw_only=True)
class Topologies:
    """The default failure-domain keys used when an anti-affinity term leaves its key empty.

    Go: type Topologies struct { DefaultKeys []string }
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/util/topologies.go#L62-L64
    The alpha gate ``AffinityInAnnotations`` is read at each call, as Go reads
    ``utilfeature.DefaultFeatureGate``: the gate of the running simulated process.
    Differs from Go: the field ``affinity_in_annotations`` overrides the gate when not None.
    """

    default_keys: tuple[str, ...] = ()
    affinity_in_annotations: bool | None = None

    def nodes_have_same_topology_key(self, node_a: "Node", node_b: "Node", topology_key: str) -> bool:
        """Like the module function, but an empty key (allowed only with the alpha gate on)
        matches when the nodes share *any* of the default keys.

        Go: func (tps *Topologies) NodesHaveSameTopologyKey(nodeA, nodeB *v1.Node, topologyKey string) bool
        """
        gate_on = self.affinity_in_annotations
        if gate_on is None:
            gate_on = default_feature_gate().enabled(AFFINITY_IN_ANNOTATIONS)
        if gate_on and len(topology_key) == 0:
            # Only preferred anti-affinity may leave the key empty (API validation ensures it).
            for default_key in self.default_keys:
                if nodes_have_same_topology_key(node_a, node_b, default_key):
                    return True
            return False
        return nodes_have_same_topology_key(node_a, node_b, topology_key)
