"""``make lab``: JupyterLab on the repository (notebooks/ and exercises/), landing on notebook 00,
on 127.0.0.1 behind a fresh token, with the news prompt off (checked by ``make -n``, which
prints the recipe without running it; the browser test starts JupyterLab the same way)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="needs make")


@pytest.fixture(scope="module")
def recipe() -> str:
    out = subprocess.run(["make", "-n", "-s", "lab"], cwd=ROOT, capture_output=True, text=True, check=True)
    return out.stdout[out.stdout.index("jupyter lab"):]


def test_make_lab_serves_the_repository_and_lands_on_notebook_00(recipe):
    assert "--ServerApp.root_dir=. " in recipe
    start = "notebooks/00-start-here.ipynb"
    assert f"--LabApp.default_url=/lab/tree/{start}" in recipe and (ROOT / start).is_file()
    assert (ROOT / "exercises").is_dir() and (ROOT / "notebooks").is_dir()


def test_make_lab_is_local_with_a_fresh_token(recipe):
    assert "--ip=127.0.0.1" in recipe and "--IdentityProvider.token=$token" in recipe


def test_make_lab_turns_the_news_prompt_off(recipe):
    assert "--LabApp.news_url=None" in recipe
    overrides = json.loads((ROOT / "tools/lab/overrides.json").read_text())
    assert overrides["@jupyterlab/apputils-extension:notification"]["fetchNews"] == "false"
    makefile = (ROOT / "Makefile").read_text()
    assert "share/jupyter/lab/settings/overrides.d/kschedlearn.json" in makefile
