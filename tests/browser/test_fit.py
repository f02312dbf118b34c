"""One screen, nothing clipped, the pod as a token: the explorer at 1366×768 in real JupyterLab.

At the ``assume`` stop of ``three-nodes``, with JupyterLab's file browser open and the explorer
scrolled to its top (issue 22 item 5): the Step button, the event slider, the whole bounding box
of the active view's diagram and the highlighted source line all lie inside the viewport at
once — no scrolling between stepping and looking. The pipeline diagram lies inside its pane
with no scrolling, the highlighted (gold) row of the scheduler-cache table reads
``default/web-1 … assumed``, only the row that changed is outlined, the decision view's totals
column is visible without horizontal scrolling; the zoom controls zoom in (the stage then
scrolls: pan), and "fit" brings the diagram back; the startup view (compact since issue 22)
fits too. Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import nbformat
import pytest
from pagecheck import ALL_CELLS_DONE, KERNEL_READY, box, inside, wait_for

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

SOURCE = ('from kschedlearn import Simulation\n'
          'sim = Simulation.from_scenario("three-nodes", seed=1)\n'
          'sim.run_until(stage="assume", pod="default/web-1")\n'
          'sim.explorer()')
VIEWPORT = {"width": 1366, "height": 768}

# the text elements of an SVG node group whose centres lie inside its highlighted row band
ROW_TEXT = """(svg, cls) => {
  const out = [];
  for (const band of svg.querySelectorAll('polygon.' + cls)) {
    const g = band.closest('g.node');
    const b = band.getBoundingClientRect();
    const texts = [...g.querySelectorAll('text')].filter(t => {
      const r = t.getBoundingClientRect();
      const cx = r.x + r.width / 2, cy = r.y + r.height / 2;
      return cx >= b.left && cx <= b.right && cy >= b.top && cy <= b.bottom;
    }).map(t => t.textContent.trim());
    out.push({node: g.querySelector('title').textContent, text: texts.join(' | ')});
  }
  return out;
}"""


def test_views_fit_their_pane_at_1366x768(lab_server: Any, small_page: Any, artifacts: Path) -> None:
    try:
        check_fit(lab_server, small_page, artifacts)
    except Exception:
        small_page.screenshot(path=str(artifacts / "lab-fit-failure.png"))
        raise


def _stage_scrolls(stage: Any) -> dict[str, bool]:
    return stage.evaluate("s => ({x: s.scrollWidth > s.clientWidth + 1, y: s.scrollHeight > s.clientHeight + 1})")


def check_fit(lab_server: Any, page: Any, artifacts: Path) -> None:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(SOURCE)]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, lab_server.root / "fit-check.ipynb")
    page.set_default_timeout(60_000)
    page.goto(lab_server.lab_url("fit-check.ipynb"))
    page.locator(".jp-Notebook .jp-CodeCell").first.wait_for()
    page.wait_for_function(KERNEL_READY, arg="fit-check.ipynb")
    page.locator(".jp-Notebook .jp-CodeCell").first.click()
    page.keyboard.press("Control+Enter")  # run in place (Shift+Enter would add an empty cell)
    page.wait_for_function(ALL_CELLS_DONE, timeout=60_000)

    assert page.locator("#filebrowser").is_visible(), "the file browser must be open (the learner's usual layout)"
    explorer = page.locator(".kschedlearn-explorer").first
    explorer.wait_for(state="visible")
    pane = explorer.locator(".kschedlearn-view-pipeline")
    svg = pane.locator(".kz-stage svg").first
    svg.wait_for(state="visible")
    assert "[assume]" in svg.inner_html()
    # the learner scrolls the explorer's top (its toolbar) to the top of the notebook area
    explorer.evaluate("el => el.scrollIntoView({block: 'start'})")
    time.sleep(0.3)
    page.screenshot(path=str(artifacts / "lab-fit-assume-pipeline.png"))

    # one screen: controls, timeline, the whole diagram and the current source line together
    viewport = {"x": 0, "y": 0, **VIEWPORT}
    notebook_area = box(page.locator(".jp-NotebookPanel-notebook >> visible=true").first)
    current_line = explorer.locator(".kschedlearn-source-current").first
    for name, element in (("the Step button", explorer.locator("button.kschedlearn-step")),
                          ("the event slider", explorer.locator(".kschedlearn-timeline")),
                          ("the pipeline diagram", svg), ("the highlighted source line", current_line)):
        b = box(element)
        assert inside(b, viewport), (name, b, "outside the 1366×768 window")
        assert inside(b, notebook_area), (name, b, "outside the visible notebook area", notebook_area)
    assert current_line.is_visible() and "assume" in explorer.locator(".kschedlearn-source-box").inner_text()

    # the strip's two narration lines (what happened, and why) are whole: not cut by the strip's
    # height nor covered by the source pane's title below them
    info = box(explorer.locator(".ks-info").first)
    heading = explorer.locator(".kschedlearn-narration > b").first
    why = explorer.locator(".kschedlearn-narration > div").first
    assert "assume" in heading.inner_text() and "AssumePod" in why.inner_text()
    for name, element in (("the narration's heading", heading), ("the narration's why line", why)):
        assert inside(box(element), info, slack=0), (name, box(element), "cut off by the strip", info)
    source_top = box(explorer.locator(".kschedlearn-source-box").first)["y"]
    assert info["y"] + info["height"] <= source_top, (info, source_top, "the source pane covers the narration")

    pane_box, svg_box = box(pane), box(svg)
    assert inside(svg_box, pane_box), (svg_box, pane_box)
    assert svg_box["y"] + svg_box["height"] <= VIEWPORT["height"], (svg_box, "below the fold")
    assert svg_box["width"] <= VIEWPORT["width"]
    stage = pane.locator(".kz-stage").first
    assert _stage_scrolls(stage) == {"x": False, "y": False}

    rows = svg.evaluate(ROW_TEXT, "kschedlearn-row-follow")
    cache_rows = [r["text"] for r in rows if r["node"] == "cache"]
    assert len(cache_rows) == 1, rows
    assert "default/web-1" in cache_rows[0] and "assumed" in cache_rows[0] and "node-3" in cache_rows[0]
    changed = svg.evaluate(ROW_TEXT, "kschedlearn-row-changed")
    # only the row that changed (the legend shows a sample band of each mark)
    assert [r["node"] for r in changed if r["node"] != "legend"] == ["cache"], changed
    assert [r["text"] for r in changed if r["node"] == "cache"] == cache_rows

    # zoom in: the diagram grows past the pane and the stage scrolls (pan); fit brings it back
    pane.locator(".kz-ctl-0 .kz-in").click()
    wait_for(lambda: box(svg)["width"] > pane_box["width"] * 1.3, "zoom + to enlarge the diagram")
    assert _stage_scrolls(stage)["x"]
    pane.locator(".kz-pan-btn[title='pan right']").first.click()
    wait_for(lambda: stage.evaluate("s => s.scrollLeft") > 0, "pan right to scroll the stage")
    page.screenshot(path=str(artifacts / "lab-fit-assume-zoomed.png"))
    pane.locator(".kz-ctl-1 .kz-fit").click()
    wait_for(lambda: inside(box(svg), box(pane)), "fit to bring the diagram back into its pane")

    # the decision view: every column up to the totals is visible without horizontal scrolling
    explorer.locator(".kschedlearn-view-choice select").select_option("decision")
    dpane = explorer.locator(".kschedlearn-view-decision")
    dsvg = dpane.locator(".kz-stage svg").first
    dsvg.wait_for(state="visible")
    time.sleep(0.3)
    page.screenshot(path=str(artifacts / "lab-fit-assume-decision.png"))
    dbox = box(dpane)
    assert inside(box(dsvg), dbox)
    assert not _stage_scrolls(dpane.locator(".kz-stage").first)["x"]
    total = dsvg.locator("text", has_text="total").first
    assert inside(box(total), dbox) and box(total)["x"] + box(total)["width"] <= VIEWPORT["width"]
    chosen = dsvg.evaluate(ROW_TEXT, "kschedlearn-row-follow")
    assert len(chosen) == 1 and "node-3" in chosen[0]["text"] and "100037" in chosen[0]["text"], chosen
    assert "selectHost" in dsvg.inner_html()

    # the startup view is compact: the whole chain, the goroutines and the stack fit the pane
    explorer.locator(".kschedlearn-view-choice select").select_option("startup")
    spane = explorer.locator(".kschedlearn-view-startup")
    ssvg = spane.locator(".kz-stage svg").first
    ssvg.wait_for(state="visible")
    time.sleep(0.3)
    page.screenshot(path=str(artifacts / "lab-fit-assume-startup.png"))
    assert inside(box(ssvg), box(spane)) and inside(box(ssvg), notebook_area)
    assert box(ssvg)["height"] > 250, box(ssvg)  # fitted, not shrunk to a sliver by a tall table
