"""``make lab``: JupyterLab on the learner's workspace ``lab/`` (copies of notebooks/ and
exercises/, untracked), landing on notebook 00, on 127.0.0.1 behind a fresh token, with the news
prompt off (checked by ``make -n``, which prints the recipe without running it; the browser test
starts JupyterLab the same way). Running the curriculum never rewrites a committed notebook:
``tools/lab_workspace.py`` keeps the copies, tested here on a throw-away repository layout."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="needs make")


@pytest.fixture(scope="module")
def recipe() -> str:
    out = subprocess.run(["make", "-n", "-s", "lab"], cwd=ROOT, capture_output=True, text=True, check=True)
    return out.stdout[out.stdout.index("jupyter lab"):]


def test_make_lab_serves_the_workspace_and_lands_on_notebook_00(recipe):
    assert "--ServerApp.root_dir=lab " in recipe
    start = "notebooks/00-start-here.ipynb"
    assert f"--LabApp.default_url=/lab/tree/{start}" in recipe and (ROOT / start).is_file()
    assert (ROOT / "exercises").is_dir() and (ROOT / "notebooks").is_dir()
    full = subprocess.run(["make", "-n", "-s", "lab"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert "tools/lab_workspace.py lab" in full  # the workspace is brought up to date first
    assert "/lab/" in (ROOT / ".gitignore").read_text().splitlines()  # and git never sees it


def test_make_lab_is_local_with_a_fresh_token(recipe):
    assert "--ip=127.0.0.1" in recipe and "--IdentityProvider.token=$token" in recipe


def test_make_lab_turns_the_news_prompt_off(recipe):
    assert "--LabApp.news_url=None" in recipe
    overrides = json.loads((ROOT / "tools/lab/overrides.json").read_text())
    assert overrides["@jupyterlab/apputils-extension:notification"]["fetchNews"] == "false"
    # widget messages on the kernel's main thread (a subshell's thread may not drive a simulation)
    assert overrides["@jupyterlab/apputils-extension:kernels-settings"]["commsOverSubshells"] == "disabled"
    makefile = (ROOT / "Makefile").read_text()
    assert "share/jupyter/lab/settings/overrides.d/kschedlearn.json" in makefile


def _workspace_tool():
    spec = importlib.util.spec_from_file_location("lab_workspace", ROOT / "tools" / "lab_workspace.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["lab_workspace"] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture()
def repo(tmp_path):
    """A repository layout with two committed notebooks (outputs included) and benchmarks/."""
    root = tmp_path / "repo"
    for folder, name in (("notebooks", "00-start-here.ipynb"), ("exercises", "06-1-pod-fits-resources.ipynb")):
        (root / folder).mkdir(parents=True)
        shutil.copyfile(ROOT / folder / name, root / folder / name)
    (root / "benchmarks").mkdir()
    (root / "benchmarks" / "README.md").write_text("figures\n")
    return root


def _tracked(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*.ipynb") if "lab" not in p.parts}


def test_the_workspace_copies_the_notebooks_with_their_outputs_and_links_benchmarks(repo):
    tool = _workspace_tool()
    said = tool.sync(repo / "lab", repo)
    assert said == ["copied notebooks/00-start-here.ipynb", "copied exercises/06-1-pod-fits-resources.ipynb"]
    copy = json.loads((repo / "lab" / "notebooks" / "00-start-here.ipynb").read_text())
    assert any(cell.get("outputs") for cell in copy["cells"] if cell["cell_type"] == "code")  # diagrams kept
    assert (repo / "lab" / "benchmarks" / "README.md").read_text() == "figures\n"  # notebook 14 reads ../benchmarks


def test_running_a_copy_never_touches_the_committed_notebook(repo):
    tool = _workspace_tool()
    tool.sync(repo / "lab", repo)
    before = _tracked(repo)
    (repo / "lab" / "notebooks" / "00-start-here.ipynb").write_text('{"learner": "ran it"}')  # a save in Lab
    assert tool.sync(repo / "lab", repo) == []  # the learner's copy is kept
    assert _tracked(repo) == before
    assert (repo / "lab" / "notebooks" / "00-start-here.ipynb").read_text() == '{"learner": "ran it"}'


def test_an_updated_notebook_reaches_an_untouched_copy_and_sits_beside_a_changed_one(repo):
    tool = _workspace_tool()
    tool.sync(repo / "lab", repo)
    (repo / "lab" / "exercises" / "06-1-pod-fits-resources.ipynb").write_text('{"learner": "my answer"}')
    for path in (repo / "notebooks" / "00-start-here.ipynb", repo / "exercises" / "06-1-pod-fits-resources.ipynb"):
        path.write_text(path.read_text().replace("kschedlearn", "kschedlearn (updated)", 1))  # a `git pull`
    said = tool.sync(repo / "lab", repo)
    assert said[0].startswith("updated notebooks/00-start-here.ipynb")
    assert said[1] == ("kept your exercises/06-1-pod-fits-resources.ipynb; the committed notebook changed: its new "
                       "version is exercises/06-1-pod-fits-resources.new.ipynb")
    assert "(updated)" in (repo / "lab" / "notebooks" / "00-start-here.ipynb").read_text()
    assert (repo / "lab" / "exercises" / "06-1-pod-fits-resources.ipynb").read_text() == '{"learner": "my answer"}'
    assert "(updated)" in (repo / "lab" / "exercises" / "06-1-pod-fits-resources.new.ipynb").read_text()
