"""Topology and controller-ref helpers of priorities/util (Go: topologies.go, util.go), v1.6.1.

1.6 ships no topologies_test.go; these check the documented behaviour.
"""

from __future__ import annotations

import pytest

from kschedlearn.api.v1.meta import ObjectMeta, OwnerReference
from kschedlearn.api.v1.node import Node
from kschedlearn.api.v1.pod import Pod, PodAffinityTerm
from kschedlearn.apimachinery import labels
from kschedlearn.scheduler.algorithm.priorities.util.topologies import (
    Topologies,
    get_namespaces_from_pod_affinity_term,
    nodes_have_same_topology_key,
    pod_matches_terms_namespace_and_selector,
)
from kschedlearn.scheduler.algorithm.priorities.util.util import get_controller_ref


def test_namespaces_default_to_defining_pod():
    p = Pod(metadata=ObjectMeta(namespace="ns1"))
    assert get_namespaces_from_pod_affinity_term(p, PodAffinityTerm()) == {"ns1"}
    assert get_namespaces_from_pod_affinity_term(p, PodAffinityTerm(namespaces=("a", "b"))) == {"a", "b"}


def test_pod_matches_namespace_and_selector():
    p = Pod(metadata=ObjectMeta(namespace="ns1", labels={"app": "web"}))
    assert pod_matches_terms_namespace_and_selector(p, {"ns1"}, labels.selector_from_set({"app": "web"}))
    assert not pod_matches_terms_namespace_and_selector(p, {"ns2"}, labels.selector_from_set({"app": "web"}))
    assert not pod_matches_terms_namespace_and_selector(p, {"ns1"}, labels.selector_from_set({"app": "db"}))


@pytest.mark.parametrize(
    ("a", "b", "key", "expected"),
    [
        ({"zone": "z1"}, {"zone": "z1"}, "zone", True),
        ({"zone": "z1"}, {"zone": "z2"}, "zone", False),
        ({"zone": "z1"}, {}, "zone", False),
        ({}, {}, "zone", False),
        ({"zone": ""}, {"zone": ""}, "zone", True),
        ({"zone": "z1"}, {"zone": "z1"}, "", False),
    ],
)
def test_nodes_have_same_topology_key(a, b, key, expected):
    na = Node(metadata=ObjectMeta(name="a", labels=a))
    nb = Node(metadata=ObjectMeta(name="b", labels=b))
    assert nodes_have_same_topology_key(na, nb, key) is expected


def test_topologies_empty_key_uses_default_keys_only_with_gate():
    na = Node(metadata=ObjectMeta(name="a", labels={"zone": "z1"}))
    nb = Node(metadata=ObjectMeta(name="b", labels={"zone": "z1"}))
    assert Topologies(default_keys=("zone",), affinity_in_annotations=True).nodes_have_same_topology_key(na, nb, "")
    assert not Topologies(default_keys=("zone",)).nodes_have_same_topology_key(na, nb, "")
    assert not Topologies(affinity_in_annotations=True).nodes_have_same_topology_key(na, nb, "")


def test_get_controller_ref_first_controller_only():
    refs = (
        OwnerReference(kind="A", name="a", uid="1"),
        OwnerReference(kind="B", name="b", uid="2", controller=False),
        OwnerReference(kind="C", name="c", uid="3", controller=True),
        OwnerReference(kind="D", name="d", uid="4", controller=True),
    )
    assert get_controller_ref(Pod(metadata=ObjectMeta(owner_references=refs))).kind == "C"
    assert get_controller_ref(Pod()) is None
    assert get_controller_ref(Pod(metadata=ObjectMeta(owner_references=refs[:2]))) is None
