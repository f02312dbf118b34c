"""The learning loop in real JupyterLab at 1366×768: `make lab`'s landing page and file browser,
no news prompt, and the explorer's source pane at ``assume``. Screenshots go to
``test-artifacts/``."""

from __future__ import annotations

import json
import re
import time
import urllib.request
from pathlib import Path
from typing import Any

import nbformat
import pytest
from pagecheck import KERNEL_READY, box, inside, run_all_cells

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

SOURCE = ('from kschedlearn import Simulation\n'
          'sim = Simulation.from_scenario("three-nodes", seed=1)\n'
          'sim.run_until("assume")\n'
          'sim.explorer()')
NEWS_PROMPT = "official Jupyter news"


def _wait_for_source(explorer: Any, name: str, *, present: bool, seconds: float = 60.0) -> None:
    """Until this explorer's source pane names (or no longer names) ``name`` — scoped to the
    explorer, since notebook 00's saved outputs elsewhere in the page hold source panes too."""
    function = explorer.locator(".kschedlearn-source-function")
    deadline = time.monotonic() + seconds
    while (name in function.inner_text()) != present:
        assert time.monotonic() < deadline, f"source pane: {name!r} {'never shown' if present else 'still shown'}"
        time.sleep(0.2)


def test_lab_lands_on_notebook_00_with_exercises_reachable_and_no_news(lab_server: Any, small_page: Any,
                                                                       artifacts: Path) -> None:
    page = small_page
    page.set_default_timeout(60_000)
    page.goto(f"{lab_server.url}/?token={lab_server.token}")  # redirects to default_url, as `make lab` opens
    page.locator(".jp-Notebook").first.wait_for()
    assert page.url.split("?")[0].endswith("/lab/tree/notebooks/00-start-here.ipynb")
    page.wait_for_function("() => [...document.querySelectorAll('#jp-main-dock-panel .lm-TabBar-tab.lm-mod-current')]"
                           ".some(t => t.textContent.includes('00-start-here.ipynb'))")
    time.sleep(3)  # the news prompt, when enabled, is a toast shown once the app is restored
    page.screenshot(path=str(artifacts / "lab-landing-1366.png"))
    assert NEWS_PROMPT not in page.locator("body").inner_text()
    url = (f"{lab_server.url}/lab/api/settings/@jupyterlab/apputils-extension:notification"
           f"?token={lab_server.token}")
    with urllib.request.urlopen(url, timeout=10) as resp:
        settings = json.load(resp)
    assert settings["schema"]["properties"]["fetchNews"]["default"] == "false"
    contents = f"{lab_server.url}/api/contents?token={lab_server.token}"
    with urllib.request.urlopen(contents, timeout=10) as resp:
        names = {item["name"] for item in json.load(resp)["content"]}
    assert {"notebooks", "exercises"} <= names


def test_source_pane_shows_the_assume_call_with_one_highlighted_line(lab_server: Any, small_page: Any,
                                                                artifacts: Path) -> None:
    page = small_page
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(SOURCE)]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, lab_server.root / "source-pane.ipynb")
    page.set_default_timeout(60_000)
    page.goto(lab_server.lab_url("source-pane.ipynb") + "&reset")
    page.locator(".jp-Notebook .jp-CodeCell >> visible=true").first.wait_for()
    page.wait_for_function(KERNEL_READY, arg="source-pane.ipynb")
    run_all_cells(page)
    explorer = page.locator(".kschedlearn-explorer >> visible=true").first
    explorer.wait_for(state="visible")
    pane = explorer.locator(".kschedlearn-source")
    pane.wait_for(state="visible")
    try:
        # scheduleOne's call of AssumePod, beside the Go twin (or the link to it when offline)
        assert "schedule_one" in pane.locator(".kschedlearn-source-function").inner_text()
        assert pane.locator(".kschedlearn-source-current").count() == 1
        assert "assume_pod(assumed)" in pane.locator(".kschedlearn-source-current").inner_text()
        link = pane.locator("a.kschedlearn-source-go")
        assert link.get_attribute("target") == "_blank"
        assert link.get_attribute("href").endswith("plugin/pkg/scheduler/scheduler.go#L148-L225")
        assert pane.locator(".kschedlearn-go").count() == 1
        # nothing sticks out sideways: no horizontal scrolling of the output to read the pane
        assert explorer.evaluate("el => el.scrollWidth <= el.clientWidth + 1")
        box, out = pane.bounding_box(), explorer.bounding_box()
        assert box["x"] >= out["x"] - 1 and box["x"] + box["width"] <= out["x"] + out["width"] + 1
        assert box["x"] + box["width"] <= page.viewport_size["width"]
    finally:
        pane.evaluate("el => el.scrollIntoView({block: 'center', inline: 'nearest'})")
        page.screenshot(path=str(artifacts / "lab-source-pane-1366.png"))
    # Back moves the pane off scheduleOne (to Schedule's selectHost call); Step brings it back
    explorer.locator("button.kschedlearn-back").click()
    _wait_for_source(explorer, "schedule_one", present=False)
    explorer.locator("button.kschedlearn-step").click()
    _wait_for_source(explorer, "schedule_one", present=True)
    assert pane.locator(".kschedlearn-source-current").count() == 1
    explorer.evaluate("el => el.scrollIntoView({block: 'start'})")
    page.screenshot(path=str(artifacts / "lab-explorer-top-1366.png"))


def test_a_crash_and_the_end_of_the_scenario_are_shown(lab_server: Any, small_page: Any, artifacts: Path) -> None:
    page = small_page
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell('from kschedlearn import Simulation\n'
                                          'sim = Simulation.from_scenario("bad-policy")\n'
                                          'sim.run_until("process.crash")\n'
                                          'sim.explorer()')]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, lab_server.root / "crash.ipynb")
    page.set_default_timeout(60_000)
    page.goto(lab_server.lab_url("crash.ipynb") + "&reset")
    page.locator(".jp-Notebook .jp-CodeCell >> visible=true").first.wait_for()
    page.wait_for_function(KERNEL_READY, arg="crash.ipynb")
    run_all_cells(page)
    explorer = page.locator(".kschedlearn-explorer >> visible=true").first
    explorer.wait_for(state="visible")
    crash = explorer.locator(".kschedlearn-crash")
    crash.wait_for(state="visible")
    assert "Predicate type not found for PodFitsResourcez" in crash.inner_text()
    # the notebook API warned too (stderr of the cell)
    assert "SimulatedProcessCrashed" in page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr'] >> visible=true").first.inner_text()
    explorer.evaluate("el => el.scrollIntoView({block: 'start'})")
    time.sleep(0.3)
    page.screenshot(path=str(artifacts / "lab-crash-banner-1366.png"))
    # the strip grows by the banner's two lines: the banner is whole (not clamped: the message and
    # where it was raised fit two lines at 1366 px), the narration under it is whole too, the
    # source pane starts below both, and the diagram, fitted to what is left, is above the fold
    info = box(explorer.locator(".ks-info").first)
    assert crash.evaluate("el => el.scrollHeight <= el.clientHeight"), "the crash banner is cut short"
    heading = explorer.locator(".kschedlearn-narration > b").first
    why = explorer.locator(".kschedlearn-narration > div").first
    assert "process.crash" in heading.inner_text() and "exits" in why.inner_text()
    for name, element in (("the crash banner", crash), ("the narration's heading", heading),
                          ("the narration's why line", why)):
        assert inside(box(element), info, slack=0), (name, box(element), "cut off by the strip", info)
    assert info["y"] + info["height"] <= box(explorer.locator(".kschedlearn-source-box").first)["y"]
    svg = explorer.locator(".kschedlearn-view-pipeline .kz-stage svg").first
    assert box(svg)["y"] + box(svg)["height"] <= 768, (box(svg), "below the fold")
    assert box(explorer.locator(".kschedlearn-source-current").first)["y"] < 768
    step = explorer.locator("button.kschedlearn-step")
    ended = explorer.locator(".kschedlearn-ended")
    for _ in range(20):
        if ended.count():
            break
        step.click()
        time.sleep(0.3)
    ended.wait_for(state="visible")
    assert re.search(r"the scenario has ended at event \d+ \(t=[\d.]+s\)", ended.inner_text())
    # under the amber "not running" banner, one line each: the end is whole inside the strip
    time.sleep(0.3)
    assert ended.evaluate("el => el.scrollHeight <= el.clientHeight"), "the end banner is cut short"
    assert inside(box(ended), box(explorer.locator(".ks-info").first), slack=0), "the end banner is hidden"
    page.screenshot(path=str(artifacts / "lab-scenario-ended-1366.png"))
