"""Port of undelta_store_test.go (client-go tools/cache, v1.6.1).

Go: https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/undelta_store_test.go
(the same file as vendor/k8s.io/client-go/tools/cache/undelta_store_test.go at cluster-capacity
commit f271bd0a9394ad63384802cf75294f6ecab36ac2). store_test.go's TestUndeltaStore runs the Store
conformance checks on it (tests/client_go/tools/cache/test_store.py); test_UndeltaStore_is_a_store
is kschedlearn's shorter version of them with exact results.
"""

from __future__ import annotations

from typing import Any

import attrs

from kschedlearn.client_go.tools.cache.undelta_store import new_undelta_store


@attrs.frozen
class UndeltaObject:
    """Go: testUndeltaObject{name, val}."""

    name: str
    val: Any


def undelta_key_func(obj: Any) -> str:
    """Go: testUndeltaKeyFunc."""
    return obj.name


def _recorder():
    calls: list[list[Any]] = []
    return calls, calls.append


def test_UpdateCallsPush() -> None:
    calls, push = _recorder()
    u = new_undelta_store(push, undelta_key_func)
    u.add(UndeltaObject("a", 2))
    u.update(UndeltaObject("a", 1))
    assert len(calls) == 2
    assert calls[-1] == [UndeltaObject("a", 1)]


def test_DeleteCallsPush() -> None:
    calls, push = _recorder()
    u = new_undelta_store(push, undelta_key_func)
    u.add(UndeltaObject("a", 2))
    u.delete(UndeltaObject("a", ""))
    assert len(calls) == 2
    assert calls[-1] == []


def test_ReadsDoNotCallPush() -> None:
    def push(m: list[Any]) -> None:
        raise AssertionError("Unexpected call to push!")

    u = new_undelta_store(push, undelta_key_func)
    u.list()
    u.get(UndeltaObject("a", ""))


def test_ReplaceCallsPush() -> None:
    calls, push = _recorder()
    u = new_undelta_store(push, undelta_key_func)
    u.replace([UndeltaObject("a", 1)], "0")
    assert len(calls) == 1
    assert calls[-1] == [UndeltaObject("a", 1)]


def test_UndeltaStore_is_a_store() -> None:
    """(kschedlearn) store_test.go's doTestStore checks, on the UndeltaStore."""
    calls, push = _recorder()
    u = new_undelta_store(push, undelta_key_func)
    u.add(UndeltaObject("foo", "bar"))
    assert u.get(UndeltaObject("foo", "")) == (UndeltaObject("foo", "bar"), True)
    u.update(UndeltaObject("foo", "baz"))
    assert u.get_by_key("foo") == (UndeltaObject("foo", "baz"), True)
    u.delete(UndeltaObject("foo", ""))
    assert u.get_by_key("foo") == (None, False)
    u.replace([UndeltaObject("a", 1), UndeltaObject("b", 2)], "0")
    assert sorted(u.list_keys()) == ["a", "b"]
    assert len(calls) == 4
