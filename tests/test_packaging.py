"""Installs as a newcomer does them: the light ``pip install .`` and Binder's environment.

Go: none — kschedlearn-only. Both build a fresh virtual environment from the package index, so
they are marked ``slow`` (``make test-fast`` skips them; ``make test`` runs them). pip installs
with ``--no-compile``: byte-compiling every installed file of JupyterLab's tree was most of a
run's CPU, and Python compiles what it imports anyway.

The light install uses the pip ``python -m venv`` gives a newcomer (``ensurepip``'s, 23.2.1
with 3.11): ``pip install kschedlearn`` must work with it. Binder's environment gets the pip of
this suite's own environment (repo2docker brings a current pip, as ``make setup``'s
``pip install --upgrade pip`` does): resolving Binder's ~100 packages with the bundled 23.2.1
took 29 CPU-s against 12 with pip 26 (profiled: it checks every file on a package's index page
against a list of 914 wheel tags, and re-reads every installed package's metadata at each
lookup), and unpacking and byte-compiling the bundled pip ~6.5 CPU-s more.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import venv
from importlib.metadata import version
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.slow


def _venv(where: Path, *, current_pip: bool) -> Path:
    """A fresh virtual environment, with ``ensurepip``'s pip or this suite's (``current_pip``;
    the module docstring says which test takes which); its Python."""
    venv.EnvBuilder(with_pip=not current_pip, clear=True).create(where)
    python = where / "bin" / "python"
    if current_pip:
        _run(sys.executable, "-m", "pip", "--python", python, "install", "--quiet", "--no-compile",
             f"pip=={version('pip')}")
    return python


def _source_copy(where: Path) -> Path:
    """The project's files in ``where``: pip builds a non-editable install in the source tree
    (setuptools' ``build/``), which must not be left behind in the checkout the suite runs in."""
    top = {".git", ".venv", "build", "dist", "kschedlearn.egg-info", ".hypothesis", ".pytest_cache", "test-artifacts",
           "lab"}  # the checkout's own: tools/lab (JupyterLab's settings) is part of the project

    def ignore(folder: str, names: list[str]) -> set[str]:
        skipped = {n for n in names if n in ("__pycache__", ".ipynb_checkpoints")}
        return skipped | (top & set(names) if Path(folder) == ROOT else set())

    return Path(shutil.copytree(ROOT, where, ignore=ignore))


def _run(*cmd: str | Path, cwd: Path | None = None, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    out = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, cwd=cwd, timeout=timeout, env=env)
    assert out.returncode == 0, f"{' '.join(map(str, cmd))}\n{out.stdout[-3000:]}\n{out.stderr[-3000:]}"
    return out


def test_light_install_has_no_jupyterlab_and_still_renders_and_traces(tmp_path: Path) -> None:
    python = _venv(tmp_path / "venv", current_pip=False)
    _run(python, "-m", "pip", "install", "--quiet", "--no-compile", str(_source_copy(tmp_path / "src")))
    probe = (
        "import importlib.util, json, kschedlearn\n"
        "from kschedlearn import Simulation\n"
        "sim = Simulation.from_scenario('three-nodes', seed=1); sim.run_until('assume')\n"
        "svg = sim.show('pipeline')._repr_mimebundle_().get('image/svg+xml', '')\n"
        "print(json.dumps({'lab': importlib.util.find_spec('jupyterlab') is not None,\n"
        "                  'widgets': importlib.util.find_spec('ipywidgets') is not None,\n"
        "                  'svg': svg.lstrip().startswith(('<?xml', '<svg'))}))\n"
    )
    facts = json.loads(_run(python, "-c", probe, cwd=tmp_path).stdout.strip().splitlines()[-1])
    assert facts == {"lab": False, "widgets": True, "svg": True}
    trace = _run(tmp_path / "venv" / "bin" / "kschedlearn", "trace", "three-nodes", "--until", "assume", cwd=tmp_path).stdout
    assert "assume" in trace and "default/web-1" in trace


def test_binder_environment_builds_and_runs_the_tour(tmp_path: Path) -> None:
    runtime = (ROOT / "binder" / "runtime.txt").read_text().strip()
    assert runtime == f"python-{sys.version_info.major}.{sys.version_info.minor}", (
        f"binder/runtime.txt says {runtime}; this check builds with the Python it runs on")
    python = _venv(tmp_path / "venv", current_pip=True)
    repo = _source_copy(tmp_path / "repo")  # what repo2docker clones
    _run(python, "-m", "pip", "install", "--quiet", "--no-compile", "-r", repo / "binder" / "requirements.txt")
    # repo2docker runs postBuild from the repository root with the environment's pip first on PATH
    env_bin = str(tmp_path / "venv" / "bin")
    out = subprocess.run(["bash", str(repo / "binder" / "postBuild")], capture_output=True, text=True, cwd=repo, timeout=600,
                         env={**{k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")},
                              "PATH": f"{env_bin}:{os.environ.get('PATH', '')}"})
    assert out.returncode == 0, out.stderr[-3000:]
    installed = tmp_path / "venv" / "share" / "jupyter" / "lab" / "settings" / "overrides.d" / "kschedlearn.json"
    assert installed.read_text() == (ROOT / "tools" / "lab" / "overrides.json").read_text()
    notebook = tmp_path / "tour.ipynb"
    _run(tmp_path / "venv" / "bin" / "jupyter", "nbconvert", "--to", "notebook", "--execute",
         "--ExecutePreprocessor.timeout=300", "--output", notebook, repo / "notebooks" / "00-start-here.ipynb",
         cwd=tmp_path)
    cells = json.loads(notebook.read_text())["cells"]
    outputs = [o for c in cells if c["cell_type"] == "code" for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    assert any("image/svg+xml" in o.get("data", {}) for o in outputs)
