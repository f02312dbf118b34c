"""A real JupyterLab server and a real (Debian) Chromium driven by Playwright.

How the server is started and the browser launched lives in ``labserver.py`` (shared with
``benchmarks/bench_step_click.py``); these are its fixtures. Playwright cannot download
browsers here: it drives ``/usr/bin/chromium``; without it the browser tests are skipped
(``.ci/run`` installs it).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from labserver import CHROMIUM, ROOT, LabServer, copy_lab_root, launched_chromium, page_at, running_lab

ARTIFACTS = ROOT / "test-artifacts"


@pytest.fixture(scope="session")
def chromium_path() -> Path:
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing (install Debian's chromium: apt-get install -y chromium)")
    return CHROMIUM


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="module")
def lab_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The notebooks folder inside what JupyterLab serves: a copy of the repository's
    ``notebooks/`` and ``exercises/`` (tests get to run and dirty it), laid out as `make lab`
    serves them."""
    return copy_lab_root(tmp_path_factory.mktemp("lab-root"))


@pytest.fixture(scope="module")
def lab_server(chromium_path: Path, lab_root: Path, artifacts: Path,
               tmp_path_factory: pytest.TempPathFactory) -> Iterator[LabServer]:
    with running_lab(lab_root, tmp_path_factory.mktemp("jupyter-home"), artifacts / "jupyter-lab.log") as server:
        yield server


@pytest.fixture(scope="module")
def browser(chromium_path: Path) -> Iterator[Any]:
    with launched_chromium(chromium_path) as chromium:
        yield chromium


@pytest.fixture
def small_page(browser: Any) -> Iterator[Any]:
    """A page at the laptop size the explorer is designed for, 1366×768."""
    with page_at(browser, 1366, 768) as page:
        yield page


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    with page_at(browser, 1400, 1300) as page:
        yield page
