"""Port of client-go tools/cache/store_test.go (v1.6.1) plus the key-function facts of spec §9.1.

Go: https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/store_test.go
(the same file as vendor/k8s.io/client-go/tools/cache/store_test.go at cluster-capacity commit
f271bd0a9394ad63384802cf75294f6ecab36ac2). TestCache, TestFIFOCache, TestUndeltaStore and
TestIndex are the ``test_<Go name>`` functions; the tests after them are kschedlearn's.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from kschedlearn.client_go.tools.cache import (
    DeletedFinalStateUnknown,
    ExplicitKey,
    KeyFuncError,
    deletion_handling_meta_namespace_key_func,
    meta_namespace_key_func,
    new_fifo,
    new_indexer,
    new_store,
    split_meta_namespace_key,
)
from kschedlearn.client_go.tools.cache.undelta_store import new_undelta_store


@attrs.frozen
class TestStoreObject:
    """Go: ``testStoreObject{id, val}``."""

    __test__ = False  # not a pytest test class
    id: str
    val: str


def mk_obj(id_: str, val: str) -> TestStoreObject:
    return TestStoreObject(id_, val)


def store_key_func(obj: Any) -> str:
    """Go: testStoreKeyFunc."""
    return obj.id


def store_index_func(obj: Any) -> list[str]:
    """Go: testStoreIndexFunc."""
    return [obj.val]


def store_indexers() -> dict[str, Any]:
    """Go: testStoreIndexers."""
    return {"by_val": store_index_func}


def do_test_store(store: Any) -> None:
    """Go: doTestStore - the public Store interface."""
    store.add(mk_obj("foo", "bar"))
    item, ok = store.get(mk_obj("foo", ""))
    assert ok, "didn't find inserted item"
    assert item.val == "bar"

    store.update(mk_obj("foo", "baz"))
    item, ok = store.get(mk_obj("foo", ""))
    assert ok, "didn't find inserted item"
    assert item.val == "baz"

    store.delete(mk_obj("foo", ""))
    _, ok = store.get(mk_obj("foo", ""))
    assert not ok, "found deleted item??"

    # Test List.
    store.add(mk_obj("a", "b"))
    store.add(mk_obj("c", "d"))
    store.add(mk_obj("e", "e"))
    found = [item.val for item in store.list()]
    assert sorted(found) == ["b", "d", "e"]

    # Test Replace.
    store.replace([mk_obj("foo", "foo"), mk_obj("bar", "bar")], "0")
    found = [item.val for item in store.list()]
    assert sorted(found) == ["bar", "foo"]


def do_test_index(indexer: Any) -> None:
    """Go: doTestIndex - objects sharing an index value are found together."""
    expected = {"b": {"a", "c"}, "f": {"e"}, "h": {"g"}}
    indexer.add(mk_obj("a", "b"))
    indexer.add(mk_obj("c", "b"))
    indexer.add(mk_obj("e", "f"))
    indexer.add(mk_obj("g", "h"))
    for k, v in expected.items():
        index_results = indexer.index("by_val", mk_obj("", k))
        found = {item.id for item in index_results}
        assert found == v, f"index {k}"


def test_Cache() -> None:
    do_test_store(new_store(store_key_func))


def test_FIFOCache() -> None:
    do_test_store(new_fifo(store_key_func))


def test_UndeltaStore() -> None:
    def nop(items: list[Any]) -> None:
        pass

    do_test_store(new_undelta_store(nop, store_key_func))


def test_Index() -> None:
    do_test_index(new_indexer(store_key_func, store_indexers()))


# --- kschedlearn additions: the facts of spec §9.1 / §9.2 -------------------------------------


@attrs.frozen
class _Meta:
    """Stand-in for v1.ObjectMeta: the key functions only read namespace and name."""

    namespace: str
    name: str


@attrs.frozen
class _Pod:
    """Stand-in for v1.Pod (any object with ``.metadata`` works)."""

    metadata: _Meta


def _pod(ns: str, name: str) -> _Pod:
    return _Pod(_Meta(ns, name))


@pytest.mark.parametrize(
    ("obj", "key"),
    [
        (_pod("default", "web-1"), "default/web-1"),
        (_pod("", "node-a"), "node-a"),
        (ExplicitKey("any/thing/here"), "any/thing/here"),
    ],
    ids=["namespaced", "cluster-scoped", "explicit-key"],
)
def test_meta_namespace_key_func(obj: Any, key: str) -> None:
    assert meta_namespace_key_func(obj) == key
    assert type(meta_namespace_key_func(obj)) is str


def test_meta_namespace_key_func_no_meta() -> None:
    with pytest.raises(ValueError, match=r"^object has no meta: int "):
        meta_namespace_key_func(42)


@pytest.mark.parametrize(
    ("key", "expected"),
    [("name", ("", "name")), ("ns/name", ("ns", "name")), ("", ("", ""))],
    ids=["one-part", "two-parts", "empty"],
)
def test_split_meta_namespace_key(key: str, expected: tuple[str, str]) -> None:
    assert split_meta_namespace_key(key) == expected


def test_split_meta_namespace_key_bad() -> None:
    with pytest.raises(ValueError) as info:
        split_meta_namespace_key("a/b/c")
    assert str(info.value) == 'unexpected key format: "a/b/c"'


def test_deletion_handling_meta_namespace_key_func() -> None:
    tombstone = DeletedFinalStateUnknown("ns/gone", None)
    assert deletion_handling_meta_namespace_key_func(tombstone) == "ns/gone"
    assert deletion_handling_meta_namespace_key_func(_pod("ns", "x")) == "ns/x"


def test_key_error_wraps_key_func_failure() -> None:
    store = new_store(meta_namespace_key_func)
    with pytest.raises(KeyFuncError) as info:
        store.add(42)
    assert info.value.obj == 42
    assert str(info.value).startswith("couldn't create key for object 42: object has no meta")
    assert isinstance(info.value.__cause__, ValueError)


def test_store_semantics() -> None:
    """Delete of a missing key is a no-op; Get of a missing key is (None, False); Replace
    swaps everything; Resync does nothing; order is insertion order."""
    store = new_store(store_key_func)
    store.delete(mk_obj("missing", ""))
    assert store.get_by_key("missing") == (None, False)
    store.add(mk_obj("b", "1"))
    store.add(mk_obj("a", "2"))
    store.update(mk_obj("b", "3"))
    assert store.list_keys() == ["b", "a"]
    assert [o.val for o in store.list()] == ["3", "2"]
    store.resync()
    assert store.list_keys() == ["b", "a"]
    store.replace([mk_obj("z", "9")], "42")
    assert store.list_keys() == ["z"]
    assert store.get_by_key("z") == (mk_obj("z", "9"), True)


def test_replace_key_error_changes_nothing() -> None:
    store = new_store(meta_namespace_key_func)
    store.add(_pod("ns", "keep"))
    with pytest.raises(KeyFuncError):
        store.replace([_pod("ns", "new"), object()], "1")
    assert store.list_keys() == ["ns/keep"]
