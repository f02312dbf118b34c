"""Tests of tools/cache listers.go helpers, the generated listers and their 1.6 expansions
(spec §9.8), and of the queue instrumentation (instrument.py).

Go: https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/listers.go
and pkg/client/listers/{core/v1,extensions/v1beta1,apps/v1beta1}/*_expansion.go
"""

from __future__ import annotations

import pytest

from kschedlearn.api.v1 import (
    Node,
    ObjectMeta,
    Pod,
    ReplicaSet,
    ReplicaSetSpec,
    ReplicationController,
    ReplicationControllerSpec,
    Service,
    ServiceSpec,
    StatefulSet,
    StatefulSetSpec,
)
from kschedlearn.apimachinery import labels
from kschedlearn.apimachinery.api import errors as apierrors
from kschedlearn.apimachinery.apis.meta.v1 import LabelSelector
from kschedlearn.client_go.listers.apps.v1beta1 import new_stateful_set_lister
from kschedlearn.client_go.listers.core.v1 import (
    new_node_lister,
    new_pod_lister,
    new_replication_controller_lister,
    new_service_lister,
)
from kschedlearn.client_go.listers.extensions.v1beta1 import new_replica_set_lister
from kschedlearn.client_go.tools.cache import (
    NAMESPACE_INDEX,
    meta_namespace_index_func,
    meta_namespace_key_func,
    new_indexer,
    new_store,
)
from kschedlearn.client_go.tools.cache.listers import list_all, list_all_by_namespace


def meta(name: str, ns: str = "ns", **lbl: str) -> ObjectMeta:
    return ObjectMeta(name=name, namespace=ns, labels=lbl)


def indexer_with(*objs: object) -> object:
    idx = new_indexer(meta_namespace_key_func, {NAMESPACE_INDEX: meta_namespace_index_func})
    for o in objs:
        idx.add(o)
    return idx


POD = Pod(metadata=meta("p", app="web", tier="fe"))


def test_list_all_and_by_namespace() -> None:
    a, b, c = Pod(metadata=meta("a", app="x")), Pod(metadata=meta("b", "other", app="x")), Pod(metadata=meta("c"))
    idx = indexer_with(a, b, c)
    out: list[object] = []
    list_all(idx, labels.selector_from_set({"app": "x"}), out.append)
    assert sorted(p.metadata.name for p in out) == ["a", "b"]
    out = []
    list_all_by_namespace(idx, "ns", labels.everything(), out.append)
    assert sorted(p.metadata.name for p in out) == ["a", "c"]
    out = []
    list_all_by_namespace(idx, "", labels.selector_from_set({"app": "x"}), out.append)
    assert len(out) == 2
    # no namespace index: falls back to a full scan (with a warning)
    plain = new_store(meta_namespace_key_func)
    for o in (a, b, c):
        plain.add(o)
    out = []
    list_all_by_namespace(plain, "other", labels.everything(), out.append)
    assert out == [b]


def test_pod_lister_get_not_found() -> None:
    lister = new_pod_lister(indexer_with(POD))
    assert lister.pods("ns").get("p") is POD
    with pytest.raises(apierrors.NotFoundError, match='pod "q" not found'):
        lister.pods("ns").get("q")
    assert lister.pods("elsewhere").list(labels.everything()) == []


def test_node_list_with_predicate() -> None:
    nodes = [Node(metadata=ObjectMeta(name=n)) for n in ("n1", "n2", "n3")]
    lister = new_node_lister(indexer_with(*nodes))
    got = lister.list_with_predicate(lambda n: n.metadata.name != "n2")
    assert sorted(n.metadata.name for n in got) == ["n1", "n3"]
    with pytest.raises(apierrors.NotFoundError, match='node "zz" not found'):
        lister.get("zz")


def test_get_pod_services() -> None:
    match = Service(metadata=meta("s1"), spec=ServiceSpec(selector={"app": "web"}))
    no_selector = Service(metadata=meta("s2"), spec=ServiceSpec(selector={}))
    other_ns = Service(metadata=meta("s3", "other"), spec=ServiceSpec(selector={"app": "web"}))
    mismatch = Service(metadata=meta("s4"), spec=ServiceSpec(selector={"app": "db"}))
    lister = new_service_lister(indexer_with(match, no_selector, other_ns, mismatch))
    assert lister.get_pod_services(POD) == [match]
    assert lister.get_pod_services(Pod(metadata=meta("lonely"))) == []  # never an error


def test_get_pod_controllers() -> None:
    rc = ReplicationController(metadata=meta("rc"), spec=ReplicationControllerSpec(selector={"app": "web"}))
    empty = ReplicationController(metadata=meta("rc0"), spec=ReplicationControllerSpec(selector={}))
    lister = new_replication_controller_lister(indexer_with(rc, empty))
    assert lister.get_pod_controllers(POD) == [rc]
    with pytest.raises(LookupError, match="no controllers found for pod x because it has no labels"):
        lister.get_pod_controllers(Pod(metadata=meta("x")))
    with pytest.raises(LookupError, match=r"could not find controller for pod y in namespace ns "
                                          r"with labels: map\[app:db\]"):
        lister.get_pod_controllers(Pod(metadata=meta("y", app="db")))


def test_get_pod_replica_sets_and_stateful_sets() -> None:
    sel = LabelSelector(match_labels={"tier": "fe"})
    rs = ReplicaSet(metadata=meta("rs"), spec=ReplicaSetSpec(selector=sel))
    rs_nil = ReplicaSet(metadata=meta("rs-nil"), spec=ReplicaSetSpec(selector=None))
    rs_empty = ReplicaSet(metadata=meta("rs-empty"), spec=ReplicaSetSpec(selector=LabelSelector()))
    assert new_replica_set_lister(indexer_with(rs, rs_nil, rs_empty)).get_pod_replica_sets(POD) == [rs]
    ss = StatefulSet(metadata=meta("ss"), spec=StatefulSetSpec(selector=sel))
    ss_lister = new_stateful_set_lister(indexer_with(ss))
    assert ss_lister.get_pod_stateful_sets(POD) == [ss]
    with pytest.raises(LookupError, match="no StatefulSets found for pod x because it has no labels"):
        ss_lister.get_pod_stateful_sets(Pod(metadata=meta("x")))
    with pytest.raises(LookupError, match="could not find ReplicaSet for pod y in namespace ns"):
        new_replica_set_lister(indexer_with(rs_nil)).get_pod_replica_sets(Pod(metadata=meta("y", a="b")))
    with pytest.raises(apierrors.NotFoundError, match='statefulsets.apps "nope" not found|statefulset.apps "nope" not found'):
        ss_lister.stateful_sets("ns").get("nope")
