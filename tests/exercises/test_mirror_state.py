"""``MirrorState``'s shortcuts name and restore what its key-by-key walk does (suite8a, issue 25).

A table held by several mirrored modules is copied and compared once (every module holds the same
``__builtins__``); a module's or class's unchanged dict is skipped by a C-level check. These cases
pin the walk's answers: every holder of a changed table is named by ``changes()``, ``restore()``
puts it back once and names only the first holder (the others then find it as it was), and a dict
whose keys were re-inserted in another order with the same objects is no change.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Iterator

import pytest

from kschedlearn.exercises.mirror_state import MirrorState

A = "kschedlearn.scheduler.zz_mirror_state_test_a"
B = "kschedlearn.scheduler.zz_mirror_state_test_b"


@pytest.fixture()
def modules() -> Iterator[tuple[types.ModuleType, types.ModuleType]]:
    shared: list[int] = [1, 2]
    a, b = types.ModuleType(A), types.ModuleType(B)
    a.TABLE, b.TABLE_TOO = shared, shared  # one list, two holders

    class Thing:
        size = 1

    Thing.__module__ = A
    Thing.__qualname__ = "Thing"
    a.Thing, a.VALUE, a.ORDER = Thing, 1, {"x": 1, "y": 2}
    sys.modules[A], sys.modules[B] = a, b
    try:
        yield a, b
    finally:
        del sys.modules[A], sys.modules[B]


def test_nothing_changed_is_nothing(modules):
    assert not [n for n in MirrorState.take().changes() if "zz_mirror_state_test" in n]


def test_a_shared_table_is_named_for_each_holder_and_restored_once(modules):
    a, b = modules
    state = MirrorState.take()
    a.TABLE.append(3)
    mine = lambda names: [n for n in names if "zz_mirror_state_test" in n]  # noqa: E731
    assert mine(state.changes()) == [f"{A}.TABLE (its contents)", f"{B}.TABLE_TOO (its contents)"]
    assert mine(state.restore()) == [f"{A}.TABLE (its contents)"]
    assert a.TABLE == [1, 2] and b.TABLE_TOO is a.TABLE
    assert mine(state.changes()) == []


def test_a_global_and_a_class_attribute_are_named_and_put_back(modules):
    a, _ = modules
    state = MirrorState.take()
    thing = a.Thing
    a.VALUE = 2
    thing.size = 2
    thing.extra = 3
    names = [n for n in state.restore() if "zz_mirror_state_test" in n]
    assert names == [f"{A}.Thing.extra", f"{A}.Thing.size", f"{A}.VALUE"]
    assert a.VALUE == 1 and thing.size == 1 and not hasattr(thing, "extra")


def test_keys_reinserted_in_another_order_are_no_change(modules):
    a, _ = modules
    state = MirrorState.take()
    value = a.VALUE
    del a.VALUE
    a.VALUE = value  # the module's dict now has another key order, the same objects
    x = a.ORDER.pop("x")
    a.ORDER["x"] = x
    assert not [n for n in state.changes() if "zz_mirror_state_test" in n]
