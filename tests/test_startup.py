"""Starting is cheap: ``import kschedlearn`` and ``kschedlearn --help`` load none of the heavy parts.

Checked in a fresh interpreter through ``sys.modules`` (what was imported, not how long it took:
tests never assert on time; ``benchmarks/README.md`` has the timings).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: module names (and prefixes, ending in ".") that neither may load
HEAVY = ("ipywidgets", "jupyter", "jupyter_", "jupyterlab", "cryptography", "yaml", "kschedlearn.scheduler",
         "kschedlearn.widgets", "kschedlearn.viz")


def _modules_after(code: str) -> list[str]:
    """The modules a fresh interpreter holds after running ``code`` (printed on stderr's last line)."""
    script = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)), file=sys.stderr)\n"
    env_path = str(ROOT)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT,
                          env={"PYTHONPATH": env_path, "PATH": "/usr/bin:/bin"}, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stderr.strip().splitlines()[-1])


def _heavy(modules: list[str]) -> list[str]:
    return [m for m in modules if any(m == h or m.startswith(h + ".") or (h.endswith("_") and m.startswith(h))
                                      for h in HEAVY)]


def _check(modules: list[str]) -> None:
    assert _heavy(modules) == []


def test_import_kschedlearn_loads_nothing_heavy() -> None:
    _check(_modules_after("import kschedlearn"))


def test_help_loads_nothing_heavy() -> None:
    code = ("import sys\nfrom kschedlearn.cli import main\nsys.argv = ['kschedlearn', '--help']\n"
            "try:\n    main()\nexcept SystemExit:\n    pass")
    modules = _modules_after(code)
    assert "kschedlearn.cli" in modules
    _check(modules)


def test_importing_simulation_loads_no_world_machinery() -> None:
    # ``from kschedlearn import Simulation`` is the notebook's first line: the scheduler, the API
    # server, widgets and views come when a simulation is built or shown
    modules = _modules_after("from kschedlearn import Simulation")
    assert "kschedlearn.simulation.simulation" in modules
    loaded = [m for m in modules if m.startswith(("kschedlearn.simulation.world", "kschedlearn.apiserver",
                                                  "kschedlearn.cmd", "ipywidgets", "kschedlearn.widgets",
                                                  "kschedlearn.viz", "cryptography"))]
    assert loaded == []
