"""A real JupyterLab server for the browser tests and ``benchmarks/bench_step_click.py``.

Plain functions, no pytest: ``conftest.py`` wraps them in fixtures, the benchmark calls them
directly (``tests/browser`` is on pytest's pythonpath; the benchmark puts it on ``sys.path``),
so both serve the notebooks the same way.

The server runs from this virtualenv with its own config/data/runtime directories (so nothing
of the user's Jupyter set-up leaks in) on 127.0.0.1, a free port and a random token, serving a
copy of ``notebooks/`` and ``exercises/`` laid out as `make lab` serves them.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import attrs

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--no-first-run", "--disable-sync",
]
# JupyterLab user settings: every cell stays in the DOM (no windowing), so off-screen outputs can
# be found. The news prompt is *not* turned off here: the project's own settings
# (tools/lab/overrides.json, installed into the venv by `make setup`) must do that, as for `make lab`.
LAB_SETTINGS = {
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
}
#: the folders `make lab` serves (copies of them, in its untracked workspace lab/)
LAB_FOLDERS = ("notebooks", "exercises")


@attrs.frozen
class LabServer:
    """A running JupyterLab: where it listens, its token, and the notebooks folder (``root``)
    inside the repository-shaped folder it serves."""

    url: str
    token: str
    root: Path
    log: Path

    def lab_url(self, path: str) -> str:
        """The Lab URL of ``path``, relative to ``root`` (the notebooks folder)."""
        return f"{self.url}/lab/tree/{self.root.name}/{path}?token={self.token}"


def copy_lab_root(into: Path) -> Path:
    """Copy the repository's ``notebooks/`` and ``exercises/`` into ``into`` (laid out as `make
    lab` serves them, so the copies can be run and dirtied); the copied notebooks folder."""
    for folder in LAB_FOLDERS:
        src = ROOT / folder
        if src.is_dir():
            shutil.copytree(src, into / folder, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
        else:
            (into / folder).mkdir()
    return into / "notebooks"


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_until_up(url: str, token: str, proc: subprocess.Popen[Any], log: Path, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"jupyter lab exited with {proc.returncode}; see {log}:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(f"{url}/api/status?token={token}", timeout=2) as resp:
                if resp.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.1)  # a start-up takes seconds; a refused connection costs next to nothing
    raise RuntimeError(f"jupyter lab did not answer within {timeout:.0f}s; see {log}")


@contextmanager
def running_lab(lab_root: Path, home: Path, log: Path) -> Iterator[LabServer]:
    """JupyterLab serving the parent of ``lab_root`` (a notebooks folder from :func:`copy_lab_root`),
    its Jupyter directories under ``home``, its output in ``log``; stopped on leaving."""
    settings = home / "config" / "lab" / "user-settings"
    for name, value in LAB_SETTINGS.items():
        target = settings / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(value))
    env = dict(os.environ,
               JUPYTER_CONFIG_DIR=str(home / "config"), JUPYTER_DATA_DIR=str(home / "data"),
               JUPYTER_RUNTIME_DIR=str(home / "runtime"), IPYTHONDIR=str(home / "ipython"),
               JUPYTERLAB_SETTINGS_DIR=str(settings.parent / "user-settings"),
               JUPYTERLAB_WORKSPACES_DIR=str(home / "workspaces"))
    port, token = _free_port(), secrets.token_hex(16)
    jupyter = Path(sys.executable).with_name("jupyter")
    # the flags of `make lab` (Makefile), plus what the tests need
    cmd = [str(jupyter), "lab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
           f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={lab_root.parent}",
           "--LabApp.default_url=/lab/tree/notebooks/00-start-here.ipynb", "--LabApp.news_url=None",
           "--LabApp.expose_app_in_browser=True", "--ServerApp.port_retries=0"]
    if os.geteuid() == 0:  # CI containers run as root
        cmd.append("--allow-root")
    with log.open("w") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=lab_root.parent)
    try:
        url = f"http://127.0.0.1:{port}"
        _wait_until_up(url, token, proc, log)
        yield LabServer(url=url, token=token, root=lab_root, log=log)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)


@contextmanager
def launched_chromium(chromium_path: Path = CHROMIUM) -> Iterator[Any]:
    """Debian's Chromium driven by Playwright (which cannot download its own browsers here)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=str(chromium_path), args=CHROMIUM_ARGS, headless=True)
        try:
            yield chromium
        finally:
            chromium.close()


@contextmanager
def page_at(browser: Any, width: int, height: int) -> Iterator[Any]:
    """A fresh page in its own browser context of that viewport, closed afterwards."""
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        yield context.new_page()
    finally:
        context.close()


__all__ = ["CHROMIUM", "CHROMIUM_ARGS", "LAB_FOLDERS", "LAB_SETTINGS", "ROOT", "LabServer",
           "copy_lab_root", "launched_chromium", "page_at", "running_lab"]
