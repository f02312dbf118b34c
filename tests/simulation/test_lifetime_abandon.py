"""A freed Simulation's world is closed at once — unless it was freed inside an import.

kschedlearn-only (``simulation/lifetime.py``). A collection may free a Simulation at any
allocation, an import's too; closing unwinds its goroutines, whose ``finally`` blocks may import
in turn, and CPython 3.11's import-lock bookkeeping (one entry per thread) then raised
``KeyError`` from inside the outer import (``tools/event_dump.py --check`` hit it once collections
moved in time). Inside an import the close waits for the next safe point.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from kschedlearn import sim
from kschedlearn.simulation import lifetime


def _runtime_with_a_suspended_goroutine() -> sim.Runtime:
    rt = sim.Runtime()
    rt.go(lambda: sim.sleep(100), name="sleeper")
    rt.run(until=1)
    return rt


def test_outside_an_import_the_world_is_closed_at_once() -> None:
    rt = _runtime_with_a_suspended_goroutine()
    lifetime.abandon(rt)
    assert rt.closed


def test_inside_an_import_the_close_waits_for_the_next_safe_point(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    rt = _runtime_with_a_suspended_goroutine()
    (tmp_path / "abandoning_module.py").write_text(
        "from kschedlearn.simulation import lifetime\n"
        "import builtins\n"
        "lifetime.abandon(builtins._kschedlearn_test_runtime)\n"
        "CLOSED_DURING_IMPORT = builtins._kschedlearn_test_runtime.closed\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    import builtins

    monkeypatch.setattr(builtins, "_kschedlearn_test_runtime", rt, raising=False)
    try:
        import abandoning_module  # noqa: PLC0415 - the import is the point
    finally:
        sys.modules.pop("abandoning_module", None)
    assert abandoning_module.CLOSED_DURING_IMPORT is False
    assert not rt.closed
    lifetime.close_abandoned()  # (the next world built calls it)
    assert rt.closed
