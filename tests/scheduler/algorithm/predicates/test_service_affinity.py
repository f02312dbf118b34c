"""Port of TestServiceAffinity (predicates_test.go).

Go: https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/predicates/predicates_test.go

As in Go, every case runs twice: with the ServiceAffinity precomputation registered (the
metadata carries the matching services and pods) and with it replaced by a no-op (the
predicate's own "metadata is missing" fallback).
"""

from __future__ import annotations

import re
from typing import Iterator

import pytest

from kschedlearn.api.v1.meta import ObjectMeta
from kschedlearn.api.v1.node import Node
from kschedlearn.api.v1.others import Service, ServiceSpec
from kschedlearn.api.v1.pod import Pod, PodSpec
from kschedlearn.scheduler.algorithm.predicates import error as errs
from kschedlearn.scheduler.algorithm.predicates import predicates as p
from kschedlearn.scheduler.algorithm.predicates.metadata import predicate_metadata
from kschedlearn.scheduler.schedulercache.node_info import new_node_info
from kschedlearn.scheduler.testing.fake_lister import FakeNodeListInfo, FakePodLister, FakeServiceLister

PRECOMPUTATION_NAME = "checkServiceAffinity-unitTestPredicate"


def _id(s: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "_", s).strip("_")


SELECTOR = {"foo": "bar"}
NODE1 = Node(metadata=ObjectMeta(name="machine1", labels={"region": "r1", "zone": "z11"}))
NODE2 = Node(metadata=ObjectMeta(name="machine2", labels={"region": "r1", "zone": "z12"}))
NODE3 = Node(metadata=ObjectMeta(name="machine3", labels={"region": "r2", "zone": "z21"}))
NODE4 = Node(metadata=ObjectMeta(name="machine4", labels={"region": "r2", "zone": "z22"}))
NODE5 = Node(metadata=ObjectMeta(name="machine5", labels={"region": "r2", "zone": "z22"}))
NODES = [NODE1, NODE2, NODE3, NODE4, NODE5]


def _labelled(namespace: str = "", node_name: str = "") -> Pod:
    return Pod(metadata=ObjectMeta(labels=SELECTOR, namespace=namespace), spec=PodSpec(node_name=node_name))


def _svc(namespace: str = "") -> Service:
    return Service(metadata=ObjectMeta(namespace=namespace), spec=ServiceSpec(selector=SELECTOR))


SERVICE_AFFINITY = [
    # (pod, pods, services, node, labels, fits, test)
    (Pod(), [], [], NODE1, ["region"], True, "nothing scheduled"),
    (Pod(spec=PodSpec(node_selector={"region": "r1"})), [], [], NODE1, ["region"], True, "pod with region label match"),
    (Pod(spec=PodSpec(node_selector={"region": "r2"})), [], [], NODE1, ["region"], False, "pod with region label mismatch"),
    (_labelled(), [_labelled(node_name="machine1")], [_svc()], NODE1, ["region"], True, "service pod on same node"),
    (_labelled(), [_labelled(node_name="machine2")], [_svc()], NODE1, ["region"], True,
     "service pod on different node, region match"),
    (_labelled(), [_labelled(node_name="machine3")], [_svc()], NODE1, ["region"], False,
     "service pod on different node, region mismatch"),
    (_labelled("ns1"), [_labelled("ns1", "machine3")], [_svc("ns2")], NODE1, ["region"], True,
     "service in different namespace, region mismatch"),
    (_labelled("ns1"), [_labelled("ns2", "machine3")], [_svc("ns1")], NODE1, ["region"], True,
     "pod in different namespace, region mismatch"),
    (_labelled("ns1"), [_labelled("ns1", "machine3")], [_svc("ns1")], NODE1, ["region"], False,
     "service and pod in same namespace, region mismatch"),
    (_labelled(), [_labelled(node_name="machine2")], [_svc()], NODE1, ["region", "zone"], False,
     "service pod on different node, multiple labels, not all match"),
    (_labelled(), [_labelled(node_name="machine5")], [_svc()], NODE4, ["region", "zone"], True,
     "service pod on different node, multiple labels, all match"),
]


@pytest.fixture
def precomputation_slot() -> Iterator[None]:
    """Leave the package-level precomputation registry as we found it."""
    yield
    p.predicate_precomputations().pop(PRECOMPUTATION_NAME, None)


@pytest.mark.usefixtures("precomputation_slot")
@pytest.mark.parametrize("skip_precompute", [False, True], ids=["precomputed", "resilient"])
@pytest.mark.parametrize(
    "pod,pods,services,node,labels,fits,test", SERVICE_AFFINITY, ids=[_id(c[6]) for c in SERVICE_AFFINITY]
)
def test_service_affinity(pod, pods, services, node, labels, fits, test, skip_precompute) -> None:
    node_info = new_node_info()
    node_info.set_node(node)
    node_info_map = {node.metadata.name: node_info}
    predicate, precompute = p.new_service_affinity_predicate(
        FakePodLister(pods), FakeServiceLister(services), FakeNodeListInfo(NODES), labels
    )

    def modifier(pm: p.PredicateMetadata) -> None:
        if not skip_precompute:
            precompute(pm)

    p.register_predicate_precomputation(PRECOMPUTATION_NAME, modifier)
    meta = predicate_metadata(pod, node_info_map)
    assert isinstance(meta, p.PredicateMetadata)
    if skip_precompute:
        assert meta.service_affinity_matching_pod_list is None
    got, reasons = predicate(pod, meta, node_info)
    assert got == fits
    assert reasons == ([] if fits else [errs.ERR_SERVICE_AFFINITY_VIOLATED])


def test_service_affinity_without_node_is_an_error() -> None:
    predicate, _ = p.new_service_affinity_predicate(FakePodLister([]), FakeServiceLister([]), FakeNodeListInfo([]), ["region"])
    with pytest.raises(p.PredicateError, match="node not found"):
        predicate(Pod(), None, new_node_info())
