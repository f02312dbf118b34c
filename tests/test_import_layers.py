"""The layers import in one direction: mirrored code never loads the notebook side.

kschedlearn-only (ISSUE-14 item 8, issue 21). ``import kschedlearn.scheduler`` (and every module
under it) must not load the simulation world (``kschedlearn.simulation``, ``widgets``, ``viz``)
nor the observation layer (``kschedlearn.observe``: it is attached from outside); the trace
layer never imports the scheduler cache (the observation layer's views read it and give the
trace layer its ``CacheDebugState``); ``simulation`` and ``widgets`` do not import each other
both ways.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "kschedlearn"
WORLD = ("kschedlearn.simulation", "kschedlearn.widgets", "kschedlearn.viz", "kschedlearn.observe")

_PROBE = """
import importlib, json, pkgutil, sys
import kschedlearn.scheduler as root
names = [root.__name__] + [m.name for m in pkgutil.walk_packages(root.__path__, root.__name__ + ".")]
for name in names:
    importlib.import_module(name)
loaded = sorted(m for m in sys.modules if m == "kschedlearn" or m.startswith("kschedlearn."))
print(json.dumps({"imported": names, "loaded": loaded}))
"""


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports, at any level (module top, functions, TYPE_CHECKING)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def _modules_of(subpackage: str) -> list[Path]:
    return sorted((PACKAGE / subpackage).rglob("*.py"))


def _importers(subpackage: str, target: str) -> list[str]:
    return [str(p.relative_to(ROOT)) for p in _modules_of(subpackage)
            if any(m == target or m.startswith(target + ".") for m in _imports(p))]


def test_importing_the_scheduler_package_does_not_load_the_simulation_world() -> None:
    result = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, cwd=ROOT,
                            timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    probe = json.loads(result.stdout.splitlines()[-1])
    assert "kschedlearn.scheduler.core.generic_scheduler" in probe["imported"]
    world = [m for m in probe["loaded"] if m.startswith(WORLD)]
    assert not world, f"import kschedlearn.scheduler loaded {world}"


def test_the_trace_layer_does_not_import_the_scheduler_cache() -> None:
    assert _modules_of("trace")
    assert not _importers("trace", "kschedlearn.scheduler.schedulercache")
    assert not _importers("trace", "kschedlearn.scheduler")


def test_the_observation_layer_gives_the_cache_view_as_the_trace_layers_values() -> None:
    from kschedlearn.observe.sharing import cache_source
    from kschedlearn.scheduler.schedulercache.cache import SchedulerCache
    from kschedlearn.trace.cache_view import CacheDebugSource, CacheDebugState

    source: CacheDebugSource = cache_source(SchedulerCache(stop=None, ttl=30.0, period=1.0))
    state = source.debug_state()
    assert isinstance(state, CacheDebugState) and state.ttl == 30.0 and state.nodes == ()


def test_no_import_cycle_between_simulation_and_widgets() -> None:
    there = _importers("simulation", "kschedlearn.widgets")
    back = _importers("widgets", "kschedlearn.simulation")
    assert back, "the widgets are expected to build on the simulation"
    assert not (there and back), f"simulation → widgets: {there}; widgets → simulation: {back}"


def test_simulation_does_not_import_widgets_and_still_opens_the_explorer() -> None:
    assert not _importers("simulation", "kschedlearn.widgets")
    from kschedlearn import Simulation, open_explorer

    assert callable(open_explorer) and callable(Simulation.explorer)
