"""The 1.6 equivalence-cache stub (core/equivalence_cache.go), exercised as a learner would.

Go: plugin/pkg/scheduler/core/equivalence_cache.go has no test file in v1.6.1; these cases
(kschedlearn) follow the functions' doc comments: pods of one controller share verdicts,
invalidation per node and for all, the LRU bound.
"""

from __future__ import annotations

from kschedlearn.api.v1 import Node, ObjectMeta, OwnerReference, Pod
from kschedlearn.scheduler.algorithm.predicates.error import new_failure_reason
from kschedlearn.scheduler.algorithmprovider.defaults import get_equivalence_pod
from kschedlearn.scheduler.core import equivalence_cache as ec


def _pod(name: str, rc: str) -> Pod:
    ref = OwnerReference(api_version="v1", kind="ReplicationController", name=rc, uid=f"uid-{rc}", controller=True)
    return Pod(metadata=ObjectMeta(name=name, namespace="default", owner_references=(ref,)))


def _node(name: str) -> Node:
    return Node(metadata=ObjectMeta(name=name))


def test_pods_of_one_controller_share_cached_verdicts() -> None:  # (kschedlearn)
    cache = ec.new_equivalence_cache(get_equivalence_pod)
    nodes = [_node("n1"), _node("n2"), _node("n3")]
    reason = new_failure_reason("Insufficient cpu")
    cache.add_pod_predicates_cache(_pod("web-1", "web"), [nodes[0]], {"n2": [reason]})
    fit, failed, uncached = cache.get_cached_predicates(_pod("web-2", "web"), nodes)
    assert [n.metadata.name for n in fit] == ["n1"]
    assert {k: [r.get_reason() for r in v] for k, v in failed.items()} == {"n2": ["Insufficient cpu"]}
    assert [n.metadata.name for n in uncached] == ["n3"]
    fit, failed, uncached = cache.get_cached_predicates(_pod("db-1", "db"), nodes)
    assert (fit, failed, [n.metadata.name for n in uncached]) == ([], {}, ["n1", "n2", "n3"])


def test_invalidation_per_node_and_for_all() -> None:  # (kschedlearn)
    cache = ec.new_equivalence_cache(get_equivalence_pod)
    nodes = [_node("n1"), _node("n2")]
    cache.add_pod_predicates_cache(_pod("web-1", "web"), nodes, {})
    cache.send_invalid_algorithm_cache_req("n1")
    _, _, uncached = cache.get_cached_predicates(_pod("web-2", "web"), nodes)
    assert [n.metadata.name for n in uncached] == ["n1"]
    cache.send_clear_all_cache_req()
    _, _, uncached = cache.get_cached_predicates(_pod("web-2", "web"), nodes)
    assert len(uncached) == 2 and cache.algorithm_cache == {}


def test_lru_keeps_max_cache_entries_per_node() -> None:  # (kschedlearn)
    cache = ec.new_equivalence_cache(get_equivalence_pod)
    node = _node("n1")
    for i in range(ec.MAX_CACHE_ENTRIES + 1):
        cache.add_pod_predicates_cache(_pod(f"p{i}", f"rc{i}"), [node], {})
    _, _, uncached = cache.get_cached_predicates(_pod("x", "rc0"), [node])
    assert len(uncached) == 1  # the oldest class was dropped
    _, _, uncached = cache.get_cached_predicates(_pod("y", f"rc{ec.MAX_CACHE_ENTRIES}"), [node])
    assert uncached == []
