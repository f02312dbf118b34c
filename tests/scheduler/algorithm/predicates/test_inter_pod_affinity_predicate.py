"""Port of TestInterPodAffinity and TestInterPodAffinityWithMultipleNodes (predicates_test.go).

Go: https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/predicates/predicates_test.go
Source of the tables: the 1.6-cycle predicates_test.go (affinity given as JSON). In 1.6 the
affinity lives in ``pod.spec.affinity``; the JSON documents are the same, so the pods are built
here with ``Pod.from_dict`` from that JSON (``PodAntiAffinity`` spelled with a capital P in some
Go cases decodes the same, Go's JSON decoder being case-insensitive; here it is spelled
``podAntiAffinity``).

As in Go, the checker gets ``PredicateMetadata(pod, {node: nodeInfo})``: the fast path, whose
anti-affinity scan sees only the pods of the node under test.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from kschedlearn.api.v1.meta import ObjectMeta
from kschedlearn.api.v1.node import Node
from kschedlearn.api.v1.pod import Pod
from kschedlearn.scheduler.algorithm.predicates import error as errs
from kschedlearn.scheduler.algorithm.predicates import predicates as p
from kschedlearn.scheduler.algorithm.predicates.metadata import predicate_metadata
from kschedlearn.scheduler.algorithm.priorities.util.topologies import Topologies
from kschedlearn.scheduler.schedulercache.node_info import new_node_info
from kschedlearn.scheduler.testing.fake_lister import FakeNodeInfo, FakeNodeListInfo, FakePodLister

# Go: strings.Split(api.DefaultFailureDomains, ",")
DEFAULT_FAILURE_DOMAINS = (
    "kubernetes.io/hostname",
    "failure-domain.beta.kubernetes.io/zone",
    "failure-domain.beta.kubernetes.io/region",
)


def _id(s: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "_", s).strip("_")


def _expr(key: str, op: str, *values: str) -> dict:
    e: dict[str, Any] = {"key": key, "operator": op}
    if values:
        e["values"] = list(values)
    return e


def _term(exprs: list, topology_key: str = "", namespaces: list | None = None) -> dict:
    t: dict[str, Any] = {"labelSelector": {"matchExpressions": exprs}}
    if topology_key:
        t["topologyKey"] = topology_key
    if namespaces is not None:
        t["namespaces"] = namespaces
    return t


def _pod(labels: dict | None = None, node_name: str = "", namespace: str = "", **affinity: list) -> Pod:
    """``affinity``: ``pod_affinity=[terms]``, ``pod_anti_affinity=[terms]``, ``node_affinity=[terms]``."""
    aff: dict[str, Any] = {}
    if "pod_affinity" in affinity:
        aff["podAffinity"] = {"requiredDuringSchedulingIgnoredDuringExecution": affinity["pod_affinity"]}
    if "pod_anti_affinity" in affinity:
        aff["podAntiAffinity"] = {"requiredDuringSchedulingIgnoredDuringExecution": affinity["pod_anti_affinity"]}
    if "node_affinity" in affinity:
        aff["nodeAffinity"] = {
            "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": affinity["node_affinity"]}
        }
    spec: dict[str, Any] = {}
    if node_name:
        spec["nodeName"] = node_name
    if aff:
        spec["affinity"] = aff
    meta: dict[str, Any] = {}
    if labels:
        meta["labels"] = labels
    if namespace:
        meta["namespace"] = namespace
    return Pod.from_dict({"metadata": meta, "spec": spec})


def _node(name: str, labels: dict) -> Node:
    return Node(metadata=ObjectMeta(name=name, labels=labels))


# --- TestInterPodAffinity ----------------------------------------------------------------

POD_LABEL = {"service": "securityscan"}
POD_LABEL2 = {"security": "S1"}
NODE1 = _node("machine1", {"region": "r1", "zone": "z11"})

SECURITYSCAN_IN_REGION = _term([_expr("service", "In", "securityscan", "value2")], "region")
ANTIVIRUS_NOT_ON_NODE = _term([_expr("service", "In", "antivirusscan", "value2")], "node")

INTER_POD_AFFINITY = [
    (Pod(), [], True,
     "A pod that has no required pod affinity scheduling rules can schedule onto a node with no existing pods"),
    (_pod(POD_LABEL2, pod_affinity=[SECURITYSCAN_IN_REGION]),
     [_pod(POD_LABEL, "machine1")], True,
     "satisfies with requiredDuringSchedulingIgnoredDuringExecution in PodAffinity using In operator that matches the existing pod"),
    (_pod(POD_LABEL2, pod_affinity=[_term([_expr("service", "NotIn", "securityscan3", "value3")], "region")]),
     [_pod(POD_LABEL, "machine1")], True,
     "satisfies the pod with requiredDuringSchedulingIgnoredDuringExecution in PodAffinity using not in operator in labelSelector that matches the existing pod"),
    # No topologyKey in the next two: 1.6 rejects an empty topologyKey in required affinity
    # (an error inside the checker, reported as not fit) -- the expected value is false anyway.
    (_pod(POD_LABEL2, pod_affinity=[_term([_expr("service", "In", "securityscan", "value2")], namespaces=["DiffNameSpace"])]),
     [_pod(POD_LABEL, "machine1", namespace="ns")], False,
     "Does not satisfy the PodAffinity with labelSelector because of diff Namespace"),
    (_pod(POD_LABEL, pod_affinity=[_term([_expr("service", "In", "antivirusscan", "value2")])]),
     [_pod(POD_LABEL, "machine1")], False,
     "Doesn't satisfy the PodAffinity because of unmatching labelSelector with the existing pod"),
    (_pod(POD_LABEL2, pod_affinity=[
        _term([_expr("service", "Exists"), _expr("wrongkey", "DoesNotExist")], "region"),
        _term([_expr("service", "In", "securityscan"), _expr("service", "NotIn", "WrongValue")], "region"),
    ]),
     [_pod(POD_LABEL, "machine1")], True,
     "satisfies the PodAffinity with different label Operators in multiple RequiredDuringSchedulingIgnoredDuringExecution "),
    (_pod(POD_LABEL2, pod_affinity=[
        _term([_expr("service", "Exists"), _expr("wrongkey", "DoesNotExist")], "region"),
        _term([_expr("service", "In", "securityscan2"), _expr("service", "NotIn", "WrongValue")], "region"),
    ]),
     [_pod(POD_LABEL, "machine1")], False,
     "The labelSelector requirements(items of matchExpressions) are ANDed, the pod cannot schedule onto the node because one of the matchExpression item don't match."),
    (_pod(POD_LABEL2, pod_affinity=[SECURITYSCAN_IN_REGION], pod_anti_affinity=[ANTIVIRUS_NOT_ON_NODE]),
     [_pod(POD_LABEL, "machine1")], True,
     "satisfies the PodAffinity and PodAntiAffinity with the existing pod"),
    (_pod(POD_LABEL2, pod_affinity=[SECURITYSCAN_IN_REGION], pod_anti_affinity=[ANTIVIRUS_NOT_ON_NODE]),
     [_pod(POD_LABEL, "machine1", pod_anti_affinity=[ANTIVIRUS_NOT_ON_NODE])], True,
     "satisfies the PodAffinity and PodAntiAffinity and PodAntiAffinity symmetry with the existing pod"),
    (_pod(POD_LABEL2, pod_affinity=[SECURITYSCAN_IN_REGION],
          pod_anti_affinity=[_term([_expr("service", "In", "securityscan", "value2")], "zone")]),
     [_pod(POD_LABEL, "machine1")], False,
     "satisfies the PodAffinity but doesn't satisfies the PodAntiAffinity with the existing pod"),
    (_pod(POD_LABEL, pod_affinity=[SECURITYSCAN_IN_REGION], pod_anti_affinity=[ANTIVIRUS_NOT_ON_NODE]),
     [_pod(POD_LABEL, "machine1", pod_anti_affinity=[_term([_expr("service", "In", "securityscan", "value2")], "zone")])],
     False,
     "satisfies the PodAffinity and PodAntiAffinity but doesn't satisfies PodAntiAffinity symmetry with the existing pod"),
    (_pod(POD_LABEL, pod_affinity=[_term([_expr("service", "NotIn", "securityscan", "value2")], "region")]),
     [_pod(POD_LABEL, "machine2")], False,
     "pod matches its own Label in PodAffinity and that matches the existing pod Labels"),
    (_pod(POD_LABEL),
     [_pod(POD_LABEL, "machine1", pod_anti_affinity=[_term([_expr("service", "In", "securityscan", "value2")], "zone")])],
     False,
     "verify that PodAntiAffinity from existing pod is respected when pod has no AntiAffinity constraints. doesn't satisfy PodAntiAffinity symmetry with the existing pod"),
    (_pod(POD_LABEL),
     [_pod(POD_LABEL, "machine1", pod_anti_affinity=[_term([_expr("service", "NotIn", "securityscan", "value2")], "zone")])],
     True,
     "verify that PodAntiAffinity from existing pod is respected when pod has no AntiAffinity constraints. satisfy PodAntiAffinity symmetry with the existing pod"),
]


@pytest.mark.parametrize("pod,pods,fits,test", INTER_POD_AFFINITY, ids=[_id(c[3]) for c in INTER_POD_AFFINITY])
def test_inter_pod_affinity(pod: Pod, pods: list, fits: bool, test: str) -> None:
    node = NODE1
    pods_on_node = [ep for ep in pods if ep.spec.node_name == node.metadata.name]
    checker = p.PodAffinityChecker(FakeNodeInfo(node), FakePodLister(pods), Topologies(default_keys=DEFAULT_FAILURE_DOMAINS))
    node_info = new_node_info(*pods_on_node)
    node_info.set_node(node)
    meta = predicate_metadata(pod, {node.metadata.name: node_info})
    got, reasons = checker.inter_pod_affinity_matches(pod, meta, node_info)
    assert got == fits
    assert reasons == ([] if fits else [errs.ERR_POD_AFFINITY_NOT_MATCH])


@pytest.mark.parametrize("pod,pods,fits,test", INTER_POD_AFFINITY, ids=[_id(c[3]) for c in INTER_POD_AFFINITY])
def test_inter_pod_affinity_slow_path_agrees(pod: Pod, pods: list, fits: bool, test: str) -> None:
    """Not in Go: the same table with ``meta=None`` (the checker's own scan of all pods)."""
    node = NODE1
    checker = p.PodAffinityChecker(FakeNodeInfo(node), FakePodLister(pods), Topologies(default_keys=DEFAULT_FAILURE_DOMAINS))
    node_info = new_node_info(*[ep for ep in pods if ep.spec.node_name == node.metadata.name])
    node_info.set_node(node)
    got, _ = checker.inter_pod_affinity_matches(pod, None, node_info)
    assert got == fits


# --- TestInterPodAffinityWithMultipleNodes -------------------------------------------------

LABEL_RG_CHINA = {"region": "China"}
LABEL_RG_CHINA_AZ_AZ1 = {"region": "China", "az": "az1"}
LABEL_RG_INDIA = {"region": "India"}

MULTIPLE_NODES = [
    (_pod(pod_affinity=[_term([_expr("foo", "In", "bar")], "region")]),
     [_pod({"foo": "bar"}, "machine1")],
     [_node("machine1", LABEL_RG_CHINA), _node("machine2", LABEL_RG_CHINA_AZ_AZ1), _node("machine3", LABEL_RG_INDIA)],
     {"machine1": True, "machine2": True, "machine3": False},
     "A pod can be scheduled onto all the nodes that have the same topology key & label value with one of them has an existing pod that match the affinity rules"),
    (_pod(node_affinity=[{"matchExpressions": [_expr("hostname", "NotIn", "h1")]}],
          pod_affinity=[_term([_expr("foo", "In", "abc")], "region")]),
     [_pod({"foo": "abc"}, "nodeA"), _pod({"foo": "def"}, "nodeB")],
     [_node("nodeA", {"region": "r1", "hostname": "h1"}), _node("nodeB", {"region": "r1", "hostname": "h2"})],
     {"nodeA": False, "nodeB": True},
     "NodeA and nodeB have same topologyKey and label value. NodeA does not satisfy node affinity rule, but has an existing pod that match the inter pod affinity rule. The pod can be scheduled onto nodeB."),
    (_pod({"foo": "bar"}, pod_affinity=[_term([_expr("foo", "In", "bar")], "zone")]),
     [],
     [_node("nodeA", {"zone": "az1", "hostname": "h1"}), _node("nodeB", {"zone": "az2", "hostname": "h2"})],
     {"nodeA": True, "nodeB": True},
     "The affinity rule is to schedule all of the pods of this collection to the same zone. The first pod of the collection "
     "should not be blocked from being scheduled onto any node, even there's no existing pod that match the rule anywhere."),
    (_pod(pod_anti_affinity=[_term([_expr("foo", "In", "abc")], "region")]),
     [_pod({"foo": "abc"}, "nodeA")],
     [_node("nodeA", {"region": "r1", "hostname": "nodeA"}), _node("nodeB", {"region": "r1", "hostname": "nodeB"})],
     {"nodeA": False, "nodeB": False},
     "NodeA and nodeB have same topologyKey and label value. NodeA has an existing pod that match the inter pod affinity rule. The pod can not be scheduled onto nodeA and nodeB."),
    (_pod(pod_anti_affinity=[_term([_expr("foo", "In", "abc")], "region")]),
     [_pod({"foo": "abc"}, "nodeA")],
     [_node("nodeA", LABEL_RG_CHINA), _node("nodeB", LABEL_RG_CHINA_AZ_AZ1), _node("nodeC", LABEL_RG_INDIA)],
     {"nodeA": False, "nodeB": False, "nodeC": True},
     "NodeA and nodeB have same topologyKey and label value. NodeA has an existing pod that match the inter pod affinity rule. The pod can not be scheduled onto nodeA and nodeB but can be schedulerd onto nodeC"),
]


@pytest.mark.parametrize("pod,pods,nodes,fits,test", MULTIPLE_NODES, ids=[_id(c[4]) for c in MULTIPLE_NODES])
def test_inter_pod_affinity_with_multiple_nodes(pod: Pod, pods: list, nodes: list, fits: dict, test: str) -> None:
    node_list_info = FakeNodeListInfo(nodes)
    for node in nodes:
        pods_on_node = [ep for ep in pods if ep.spec.node_name == node.metadata.name]
        checker = p.PodAffinityChecker(node_list_info, FakePodLister(pods), Topologies(default_keys=DEFAULT_FAILURE_DOMAINS))
        node_info = new_node_info(*pods_on_node)
        node_info.set_node(node)
        node_info_map = {node.metadata.name: node_info}
        got, reasons = checker.inter_pod_affinity_matches(pod, predicate_metadata(pod, node_info_map), node_info)
        if not got:
            assert reasons == [errs.ERR_POD_AFFINITY_NOT_MATCH]
        # Go then also runs PodSelectorMatches when the pod has node affinity, on an empty NodeInfo.
        if pod.spec.affinity is not None and pod.spec.affinity.node_affinity is not None:
            empty_info = new_node_info()
            empty_info.set_node(node)
            got2, reasons2 = p.pod_selector_matches(pod, predicate_metadata(pod, {node.metadata.name: empty_info}), empty_info)
            if not got2:
                assert reasons2 == [errs.ERR_NODE_SELECTOR_NOT_MATCH]
            got = got and got2
        assert got == fits[node.metadata.name], node.metadata.name
