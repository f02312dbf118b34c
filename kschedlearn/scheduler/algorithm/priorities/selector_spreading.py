"""SelectorSpreadPriority and ServiceAntiAffinity: spread a service's/controller's pods out.

Go: plugin/pkg/scheduler/algorithm/priorities/selector_spreading.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/selector_spreading.go#L33-L269

Both are *old-style* priority functions in 1.6: they see the whole candidate node list at once,
``(pod, node_name_to_info, nodes) -> HostPriorityList``.

SelectorSpread computes in **float32** (``maxPriority float32 = 10``). Python floats are float64,
so every float32 operation is rounded back to float32 with ``_f32`` to reproduce Go bit for bit.

**1.6 bug (spec 8.5, 13.9):** when the pod has selectors but no matching pod runs on any
candidate node while nodes carry zone labels, the zone score is ``0/0 = NaN``; Go's
``int(NaN)`` on amd64 yields the minimum int64. This port reproduces it (``_go_int``), so every
zoned node scores -9223372036854775808. Fixed upstream in PR #55172 (Nov 2017).
"""

from __future__ import annotations

import math
import struct
from typing import TYPE_CHECKING

import attrs

from kschedlearn.apimachinery import labels
from kschedlearn.apimachinery.apis.meta.v1 import label_selector_as_selector
from kschedlearn.scheduler.api.types import HostPriority
from kschedlearn.scheduler.schedulercache import node_info as schedulercache_node_info

if TYPE_CHECKING:
    from kschedlearn.api.v1 import Node, Pod
    from kschedlearn.apimachinery.labels import Selector
    from kschedlearn.scheduler.algorithm.listers import (
        ControllerLister,
        PodLister,
        ReplicaSetLister,
        ServiceLister,
        StatefulSetLister,
    )
    from kschedlearn.scheduler.algorithm.types import PriorityFunction
    from kschedlearn.scheduler.schedulercache.node_info import NodeInfo

#: Go: the node labels that make up a zone (kubelet/apis LabelZoneRegion, LabelZoneFailureDomain).
LABEL_ZONE_REGION = "failure-domain.beta.kubernetes.io/region"
LABEL_ZONE_FAILURE_DOMAIN = "failure-domain.beta.kubernetes.io/zone"

_GO_MIN_INT64 = -(2**63)


#: Every integer of magnitude up to 2**24 is exactly a float32: rounding it is the identity.
_F32_EXACT = 16777216.0
_F32 = struct.Struct("f")


#: x -> float32(x) for values already rounded once: the same few counts and shares recur for
#: every node of every pod. Zeros (0.0 and -0.0 are one key) and NaN are never stored.
_F32_MEMO: dict[float, float] = {}
_F32_MEMO_LIMIT = 1 << 16


def _f32(x: float) -> float:
    """Round a Python float to the nearest float32, as Go stores a float32 result.

    Integral values up to 2**24 (counts, the score bounds) are already float32 values, so only
    a non-integral or larger value pays for the ``struct`` round trip, and that once per value
    (the memo); proved equal to the plain round trip by
    ``tests/scheduler/algorithm/priorities/test_float32.py``.
    """
    y = _F32_MEMO.get(x)
    if y is not None:
        return y
    if -_F32_EXACT <= x <= _F32_EXACT and x == int(x):
        y = float(x)
    else:
        y = _F32.unpack(_F32.pack(x))[0]
    if x != 0 and x == x:
        if len(_F32_MEMO) >= _F32_MEMO_LIMIT:
            _F32_MEMO.clear()
        _F32_MEMO[x] = y
    return y


def _go_int(x: float) -> int:
    """Go's ``int(f)`` on amd64: truncate toward zero; NaN and overflow give the minimum int64."""
    if -_TWO_63 <= x < _TWO_63:  # False for NaN and the infinities too
        return int(x)
    return _GO_MIN_INT64


_TWO_63 = 2.0**63


#: Go: const maxPriority float32 = 10
MAX_PRIORITY: float = _f32(10.0)
#: Go: const zoneWeighting = 2.0 / 3.0 (an untyped constant; float32 when used below).
ZONE_WEIGHTING: float = _f32(2.0 / 3.0)
#: Go evaluates the constant expression ``1.0 - zoneWeighting`` exactly (= 1/3) before converting.
_ONE_MINUS_ZONE_WEIGHTING: float = _f32(1.0 / 3.0)


def get_zone_key(node: "Node") -> str:
    """``region + ":\\x00:" + zone`` from the node's failure-domain labels; "" if both are absent.

    Go: func GetZoneKey(node *v1.Node) string (pkg/util/node/node.go)
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/util/node/node.go#L119-L138
    Differs from Go: lives here, beside its only scheduler caller, instead of in pkg/util/node.
    """
    node_labels = node.metadata.labels
    region = node_labels.get(LABEL_ZONE_REGION, "")
    failure_domain = node_labels.get(LABEL_ZONE_FAILURE_DOMAIN, "")
    if region == "" and failure_domain == "":
        return ""
    # The NUL character keeps "a:b" + "c" and "a" + "b:c" apart.
    return region + ":\x00:" + failure_domain


@attrs.frozen(kw_only=True)
class SelectorSpread:
    """Holds the listers used to find the services/controllers that select a pod.

    Go: type SelectorSpread struct { serviceLister; controllerLister; replicaSetLister; statefulSetLister }
    """

    service_lister: "ServiceLister"
    controller_lister: "ControllerLister"
    replica_set_lister: "ReplicaSetLister"
    stateful_set_lister: "StatefulSetLister"

    def _get_selectors(self, pod: "Pod") -> "list[Selector]":
        """Go: func (s *SelectorSpread) getSelectors(pod *v1.Pod) []labels.Selector"""
        return get_selectors(pod, self.service_lister, self.controller_lister, self.replica_set_lister, self.stateful_set_lister)

    def calculate_spread_priority(
        self, pod: "Pod", node_name_to_info: "dict[str, NodeInfo]", nodes: "list[Node]"
    ) -> list[HostPriority]:
        """Fewer matching pods on a node (and in its zone) → higher score; output in ``nodes`` order.

        Per node, with float32 math: ``f = 10 * (maxNode - count) / maxNode`` (10 when no node has
        a matching pod); if any candidate has a zone and this node has one,
        ``f = f * 1/3 + 2/3 * 10 * (maxZone - zoneCount) / maxZone``; score ``int(f)``.

        Go: func (s *SelectorSpread) CalculateSpreadPriority(pod *v1.Pod, nodeNameToInfo map[string]*schedulercache.NodeInfo, nodes []*v1.Node) (schedulerapi.HostPriorityList, error)
        https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/selector_spreading.go#L96-L192
        Differs from Go: Go counts the nodes with ``workqueue.Parallelize(16, ...)`` under a
        mutex; here a plain loop in node order (the sums are the same). No V(4)/V(10) logs.
        """
        selectors = self._get_selectors(pod)

        # Matching pods per node and per zone, as float32 values like Go's maps.
        counts_by_node_name: dict[str, float] = {}
        counts_by_zone: dict[str, float] = {}
        max_count_by_node_name = _f32(0.0)

        if len(selectors) > 0:
            namespace = pod.metadata.namespace
            for node in nodes:
                node_name = node.metadata.name
                count = _f32(0.0)
                # A node without an entry is Go's nil *NodeInfo, whose Pods() is nil (nil-safe).
                for node_pod in schedulercache_node_info.pods(node_name_to_info.get(node_name)):
                    node_pod_meta = node_pod.metadata
                    if namespace != node_pod_meta.namespace:
                        continue
                    # A pod being deleted is usually the one being replaced: don't count it.
                    if node_pod_meta.deletion_timestamp is not None:
                        continue
                    matches = False
                    for selector in selectors:
                        if selector.matches(node_pod_meta.labels):
                            matches = True
                            break
                    if matches:
                        # float32 count++: exact (no rounding needed) while below 2**24
                        count = count + 1.0 if count < _F32_EXACT else _f32(count + 1)
                zone_id = get_zone_key(node)

                counts_by_node_name[node_name] = count
                if count > max_count_by_node_name:
                    max_count_by_node_name = count
                if zone_id != "":
                    # Zone entries appear even with a count of 0 (this feeds the NaN bug).
                    counts_by_zone[zone_id] = _f32(counts_by_zone.get(zone_id, 0.0) + count)

        # The busiest zone's count normalises the zone scores.
        have_zones = len(counts_by_zone) != 0
        max_count_by_zone = _f32(0.0)
        for count in counts_by_zone.values():
            if count > max_count_by_zone:
                max_count_by_zone = count

        result: list[HostPriority] = []
        for node in nodes:
            node_name = node.metadata.name
            f_score = MAX_PRIORITY
            if max_count_by_node_name > 0:
                share = _f32((max_count_by_node_name - counts_by_node_name.get(node_name, 0.0)) / max_count_by_node_name)
                f_score = _f32(MAX_PRIORITY * share)

            if have_zones:
                zone_id = get_zone_key(node)
                if zone_id != "":
                    zone_score = _f32(MAX_PRIORITY * _zone_share(max_count_by_zone, counts_by_zone[zone_id]))
                    f_score = _f32(_f32(f_score * _ONE_MINUS_ZONE_WEIGHTING) + _f32(ZONE_WEIGHTING * zone_score))

            result.append(HostPriority(host=node_name, score=_go_int(f_score)))
        return result


def _zone_share(max_count_by_zone: float, zone_count: float) -> float:
    """float32 ``(max - count) / max``.

    When no zone has a matching pod, ``max`` is 0 and so is every count: Go computes the float
    ``0/0`` = NaN without complaint (the 1.6 bug); Python would raise, so return NaN explicitly.
    """
    if max_count_by_zone == 0:
        return math.nan
    return _f32((max_count_by_zone - zone_count) / max_count_by_zone)


def new_selector_spread_priority(
    service_lister: "ServiceLister",
    controller_lister: "ControllerLister",
    replica_set_lister: "ReplicaSetLister",
    stateful_set_lister: "StatefulSetLister",
) -> "PriorityFunction":
    """Build the old-style SelectorSpreadPriority function over the given listers.

    Go: func NewSelectorSpreadPriority(serviceLister, controllerLister, replicaSetLister, statefulSetLister) algorithm.PriorityFunction
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/selector_spreading.go#L48-L60
    """
    selector_spread = SelectorSpread(
        service_lister=service_lister,
        controller_lister=controller_lister,
        replica_set_lister=replica_set_lister,
        stateful_set_lister=stateful_set_lister,
    )
    return selector_spread.calculate_spread_priority


def get_selectors(
    pod: "Pod",
    sl: "ServiceLister",
    cl: "ControllerLister",
    rsl: "ReplicaSetLister",
    ssl: "StatefulSetLister",
) -> "list[Selector]":
    """Selectors of every service, RC, ReplicaSet and StatefulSet that selects ``pod``.

    A lister that fails (for example "no controller for this pod") just contributes nothing,
    and a ReplicaSet/StatefulSet whose selector cannot be converted is skipped.

    Go: func getSelectors(pod *v1.Pod, sl algorithm.ServiceLister, cl algorithm.ControllerLister, rsl algorithm.ReplicaSetLister, ssl algorithm.StatefulSetLister) []labels.Selector
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/selector_spreading.go#L62-L90
    Differs from Go: the listers raise instead of returning an error; any exception is treated
    like Go's non-nil ``err`` (ignored).
    """
    selectors: list[Selector] = []
    try:
        services = sl.get_pod_services(pod)
    except Exception:  # noqa: BLE001 - Go ignores any lister error here
        services = None
    if services is not None:
        for service in services:
            selectors.append(labels.selector_from_set(service.spec.selector))
    try:
        rcs = cl.get_pod_controllers(pod)
    except Exception:  # noqa: BLE001
        rcs = None
    if rcs is not None:
        for rc in rcs:
            selectors.append(labels.selector_from_set(rc.spec.selector))
    try:
        rss = rsl.get_pod_replica_sets(pod)
    except Exception:  # noqa: BLE001
        rss = None
    if rss is not None:
        for rs in rss:
            try:
                selectors.append(label_selector_as_selector(rs.spec.selector))
            except Exception:  # noqa: BLE001 - invalid selectors are skipped, as in Go
                pass
    try:
        sss = ssl.get_pod_stateful_sets(pod)
    except Exception:  # noqa: BLE001
        sss = None
    if sss is not None:
        for ss in sss:
            try:
                selectors.append(label_selector_as_selector(ss.spec.selector))
            except Exception:  # noqa: BLE001
                pass
    return selectors


@attrs.frozen(kw_only=True)
class ServiceAntiAffinity:
    """Spreads a service's pods across the values of one node label (e.g. ``zone``).

    Go: type ServiceAntiAffinity struct { podLister; serviceLister; label string }
    """

    pod_lister: "PodLister"
    service_lister: "ServiceLister"
    label: str

    def _get_node_classification_by_labels(self, nodes: "list[Node]") -> tuple[dict[str, str], list[str]]:
        """Split nodes into ``{name: label value}`` (label present) and names without the label.

        Go: func (s *ServiceAntiAffinity) getNodeClassificationByLabels(nodes []*v1.Node) (map[string]string, []string)
        """
        labeled_nodes: dict[str, str] = {}
        non_labeled_nodes: list[str] = []
        for node in nodes:
            if self.label in node.metadata.labels:
                labeled_nodes[node.metadata.name] = node.metadata.labels[self.label]
            else:
                non_labeled_nodes.append(node.metadata.name)
        return labeled_nodes, non_labeled_nodes

    def calculate_anti_affinity_priority(
        self, pod: "Pod", node_name_to_info: "dict[str, NodeInfo]", nodes: "list[Node]"
    ) -> list[HostPriority]:
        """Labeled nodes: ``int(10 * (N - podsWithMyLabelValue) / N)`` (float32); unlabeled: 0.

        Only the *first* service selecting the pod is used; N counts that service's pods in the
        pod's namespace (anywhere), the per-value counts only those on labeled candidate nodes.

        **Ordering quirk (spec 8.10):** the list is the labeled nodes first, then the unlabeled
        ones — not ``nodes`` order — while PrioritizeNodes adds scores by position, so in 1.6 a
        score can land on the wrong host.

        Go: func (s *ServiceAntiAffinity) CalculateAntiAffinityPriority(pod *v1.Pod, nodeNameToInfo map[string]*schedulercache.NodeInfo, nodes []*v1.Node) (schedulerapi.HostPriorityList, error)
        https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/selector_spreading.go#L209-L269
        Differs from Go: Go iterates the labeled-node map in random order; Python iterates it in
        insertion (= ``nodes``) order, which is deterministic.
        """
        ns_service_pods: list[Pod] = []
        try:
            services = self.service_lister.get_pod_services(pod)
        except Exception:  # noqa: BLE001 - Go skips the services when the lister fails
            services = []
        if len(services) > 0:
            # Only the first service counts (a Go TODO in 1.6).
            selector = labels.selector_from_set(services[0].spec.selector)
            pods = self.pod_lister.list(selector)
            for ns_pod in pods:
                if ns_pod.metadata.namespace == pod.metadata.namespace:
                    ns_service_pods.append(ns_pod)

        labeled_nodes, non_labeled_nodes = self._get_node_classification_by_labels(nodes)
        pod_counts: dict[str, int] = {}
        for service_pod in ns_service_pods:
            label = labeled_nodes.get(service_pod.spec.node_name)
            if label is None:
                continue
            pod_counts[label] = pod_counts.get(label, 0) + 1

        num_service_pods = len(ns_service_pods)
        result: list[HostPriority] = []
        for node in labeled_nodes:
            f_score = MAX_PRIORITY
            if num_service_pods > 0:
                share = _f32(_f32(num_service_pods - pod_counts.get(labeled_nodes[node], 0)) / _f32(num_service_pods))
                f_score = _f32(MAX_PRIORITY * share)
            result.append(HostPriority(host=node, score=_go_int(f_score)))
        # Nodes without the label cannot be spread over: they get the lowest score.
        for node_name in non_labeled_nodes:
            result.append(HostPriority(host=node_name, score=0))
        return result


def new_service_anti_affinity_priority(
    pod_lister: "PodLister", service_lister: "ServiceLister", label: str
) -> "PriorityFunction":
    """Build the old-style ServiceAntiAffinity function for one ``serviceAntiAffinity`` policy entry.

    Go: func NewServiceAntiAffinityPriority(podLister algorithm.PodLister, serviceLister algorithm.ServiceLister, label string) algorithm.PriorityFunction
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/selector_spreading.go#L200-L207
    """
    anti_affinity = ServiceAntiAffinity(pod_lister=pod_lister, service_lister=service_lister, label=label)
    return anti_affinity.calculate_anti_affinity_priority
