"""Port of client-go tools/cache/index_test.go (v1.6.1) plus the Indexer facts of spec §9.2.

Go: https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/index_test.go
(the same file as vendor/k8s.io/client-go/tools/cache/index_test.go at cluster-capacity commit
f271bd0a9394ad63384802cf75294f6ecab36ac2).

Differs from Go: the Go tests use ``*v1.Pod``; here a small stand-in with ``metadata.name``,
``namespace``, ``labels`` and ``annotations`` (all the index functions read).
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from kschedlearn.client_go.tools.cache import (
    NAMESPACE_INDEX,
    index_func_to_key_func_adapter,
    meta_namespace_index_func,
    meta_namespace_key_func,
    new_indexer,
)


@attrs.frozen
class _Meta:
    name: str
    namespace: str = ""
    labels: dict[str, str] = attrs.field(factory=dict)
    annotations: dict[str, str] = attrs.field(factory=dict)


@attrs.frozen
class _Pod:
    metadata: _Meta


def index_func(obj: Any) -> list[str]:
    """Go: testIndexFunc - index pods by their ``foo`` label."""
    return [obj.metadata.labels["foo"]]


def users_index_func(obj: Any) -> list[str]:
    """Go: testUsersIndexFunc - one index value per comma-separated user."""
    return obj.metadata.annotations["users"].split(",")


def test_GetIndexFuncValues() -> None:
    index = new_indexer(meta_namespace_key_func, {"testmodes": index_func})
    index.add(_Pod(_Meta("one", labels={"foo": "bar"})))
    index.add(_Pod(_Meta("two", labels={"foo": "bar"})))
    index.add(_Pod(_Meta("tre", labels={"foo": "biz"})))

    keys = index.list_index_func_values("testmodes")
    assert len(keys) == 2
    assert set(keys) == {"bar", "biz"}


def test_MultiIndexKeys() -> None:
    index = new_indexer(meta_namespace_key_func, {"byUser": users_index_func})
    pod1 = _Pod(_Meta("one", annotations={"users": "ernie,bert"}))
    pod2 = _Pod(_Meta("two", annotations={"users": "bert,oscar"}))
    pod3 = _Pod(_Meta("tre", annotations={"users": "ernie,elmo"}))
    index.add(pod1)
    index.add(pod2)
    index.add(pod3)

    expected = {
        "ernie": {"one", "tre"},
        "bert": {"one", "two"},
        "elmo": {"tre"},
        "oscar": {"two"},
    }
    for k, v in expected.items():
        found = {item.metadata.name for item in index.by_index("byUser", k)}
        assert found == v, f"index {k}"
    # Index(pod1): every pod sharing one of pod1's users (ernie or bert)
    ernie_and_bert_keys = index.index("byUser", pod1)
    assert len(ernie_and_bert_keys) == 3

    index.delete(pod3)
    ernie_pods = index.by_index("byUser", "ernie")
    assert [p.metadata.name for p in ernie_pods] == ["one"]
    assert index.by_index("byUser", "elmo") == []

    copy_of_pod2 = attrs.evolve(pod2, metadata=attrs.evolve(pod2.metadata, annotations={"users": "oscar"}))
    index.update(copy_of_pod2)
    bert_pods = index.by_index("byUser", "bert")
    assert [p.metadata.name for p in bert_pods] == ["one"]


# --- kschedlearn additions -------------------------------------------------------------------


def test_unknown_index_name() -> None:
    index = new_indexer(meta_namespace_key_func, {})
    for call in (
        lambda: index.by_index("nope", "x"),
        lambda: index.index_keys("nope", "x"),
        lambda: index.index("nope", _Pod(_Meta("a"))),
    ):
        with pytest.raises(ValueError) as info:
            call()
        assert str(info.value) == "Index with name nope does not exist"


def test_namespace_index_and_sorted_results() -> None:
    index = new_indexer(meta_namespace_key_func, {NAMESPACE_INDEX: meta_namespace_index_func})
    for ns, name in [("b", "z"), ("a", "y"), ("b", "c"), ("b", "m")]:
        index.add(_Pod(_Meta(name, namespace=ns)))
    assert index.index_keys(NAMESPACE_INDEX, "b") == ["b/c", "b/m", "b/z"]
    assert [p.metadata.name for p in index.by_index(NAMESPACE_INDEX, "b")] == ["c", "m", "z"]
    same_ns = index.index(NAMESPACE_INDEX, _Pod(_Meta("whatever", namespace="b")))
    assert [p.metadata.name for p in same_ns] == ["c", "m", "z"]
    assert index.get_indexers().keys() == {NAMESPACE_INDEX}


def test_empty_index_sets_are_kept() -> None:
    """Go never prunes an index value whose key set became empty."""
    index = new_indexer(meta_namespace_key_func, {"testmodes": index_func})
    pod = _Pod(_Meta("one", labels={"foo": "bar"}))
    index.add(pod)
    index.update(attrs.evolve(pod, metadata=_Meta("one", labels={"foo": "baz"})))
    assert index.list_index_func_values("testmodes") == ["bar", "baz"]
    assert index.index_keys("testmodes", "bar") == []
    index.replace([], "1")  # Replace rebuilds the indices from scratch
    assert index.list_index_func_values("testmodes") == []


def test_add_indexers() -> None:
    index = new_indexer(meta_namespace_key_func, {"a": index_func})
    with pytest.raises(ValueError) as info:
        index.add_indexers({"a": index_func, "b": index_func})
    assert str(info.value) == "indexer conflict: map[a:{}]"
    index.add_indexers({"b": users_index_func})
    assert set(index.get_indexers()) == {"a", "b"}
    index.add(_Pod(_Meta("one", labels={"foo": "x"}, annotations={"users": "u"})))
    with pytest.raises(ValueError) as info:
        index.add_indexers({"c": index_func})
    assert str(info.value) == "cannot add indexers to running index"


def test_index_func_failure_names_key_and_index() -> None:
    index = new_indexer(meta_namespace_key_func, {"testmodes": index_func})
    with pytest.raises(ValueError, match=r"key 'ns/one' on index 'testmodes'"):
        index.add(_Pod(_Meta("one", namespace="ns")))  # no "foo" label


def test_index_func_to_key_func_adapter() -> None:
    assert index_func_to_key_func_adapter(lambda o: ["k"])(None) == "k"
    with pytest.raises(ValueError) as info:
        index_func_to_key_func_adapter(lambda o: ["a", "b"])(None)
    assert str(info.value) == "too many keys: [a b]"
    with pytest.raises(ValueError) as info:
        index_func_to_key_func_adapter(lambda o: [])(None)
    assert str(info.value) == "unexpected empty indexKeys"


def test_meta_namespace_index_func_no_meta() -> None:
    with pytest.raises(ValueError, match=r"^object has no meta"):
        meta_namespace_index_func("not an object")
