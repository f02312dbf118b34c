"""Port of apimachinery pkg/util/runtime/runtime_test.go (v1.6.1).

Go: https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/util/runtime/runtime_test.go
(the same file as vendor/k8s.io/kubernetes/staging/src/k8s.io/apimachinery/pkg/util/runtime/runtime_test.go
at cluster-capacity commit f271bd0a9394ad63384802cf75294f6ecab36ac2).

Go's ``panic("...")`` is :class:`GoPanic`; ``defer HandleCrash()`` is the ``handle_crash()``
block, and Go's ``recover()`` in the outer deferred function is the ``pytest.raises`` around it.
TestCustomHandleCrash swaps the package's ``PanicHandlers`` as Go's test does, with
``monkeypatch`` on the module variable. TestCustomHandleError is skipped: ``HandleError`` exists
only as the reflector's private ``_handle_error`` (it logs, as Go's default ``logError`` does),
with no ``ErrorHandlers`` list to replace.
"""

from __future__ import annotations

from typing import Any

import pytest

from kschedlearn.apimachinery.util import runtime
from kschedlearn.apimachinery.util.runtime import GoPanic, handle_crash


def test_HandleCrash() -> None:
    with pytest.raises(GoPanic, match="^Test Panic$"):  # HandleCrash panics again: recovered here
        with handle_crash():
            raise GoPanic("Test Panic")


def test_CustomHandleCrash(monkeypatch: pytest.MonkeyPatch) -> None:
    result: list[Any] = []
    monkeypatch.setattr(runtime, "PANIC_HANDLERS", (result.append,))
    with pytest.raises(GoPanic):
        with handle_crash():
            raise GoPanic("test")
    assert [str(r) for r in result] == ["test"], "did not receive custom handler"


@pytest.mark.parametrize("case", [pytest.param(
    "TestCustomHandleError", id="TestCustomHandleError",
    marks=pytest.mark.skip(reason="no ErrorHandlers list: HandleError is only the reflector's "
                                  "private _handle_error, which logs"))])
def test_CustomHandleError(case: str) -> None:
    raise AssertionError(f"{case} needs HandleError")  # never runs: skipped
