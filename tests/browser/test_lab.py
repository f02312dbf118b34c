"""The explorer in real JupyterLab, in a real Chromium: run the tour's notebook, then Step and Back.

Uses the first ``notebooks/00*.ipynb`` that opens the explorer (the tour's part 2, ``00b``, since
issue 22 split the tour; outputs stripped first, so everything seen was produced by this run); if
there is none, a one-cell notebook that opens the explorer. Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import nbformat
import pytest
from pagecheck import ALL_CELLS_DONE, KERNEL_READY, run_all_cells, strip_outputs, wait_for

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(240)]

SMOKE_SOURCE = 'from kschedlearn import Simulation\nSimulation.from_scenario("three-nodes", seed=1).explorer()'


def prepare_notebook(root: Path) -> str:
    """The tour's notebook with the explorer (outputs cleared), else a generated smoke notebook; its name."""
    found = [p for p in sorted(root.glob("00*.ipynb"))
             if any(c.cell_type == "code" and ".explorer()" in c.source for c in nbformat.read(p, as_version=4).cells)]
    if found:
        path = found[0]
        nb = nbformat.read(path, as_version=4)
    else:
        path = root / "explorer-smoke.ipynb"
        nb = nbformat.v4.new_notebook()
        nb.cells = [nbformat.v4.new_code_cell(SMOKE_SOURCE)]
    strip_outputs(nb)
    nbformat.write(nb, path)
    return path.name


def test_explorer_steps_and_goes_back_in_jupyterlab(lab_server: Any, page: Any, artifacts: Path) -> None:
    try:
        check_explorer(lab_server, page, artifacts)
    except Exception:
        page.screenshot(path=str(artifacts / "lab-failure.png"))
        raise


def check_explorer(lab_server: Any, page: Any, artifacts: Path) -> None:
    name = prepare_notebook(lab_server.root)
    page.set_default_timeout(60_000)
    page.goto(lab_server.lab_url(name))
    page.locator(".jp-Notebook .jp-CodeCell").first.wait_for()
    page.wait_for_function(KERNEL_READY, arg=name)

    run_all_cells(page)
    page.wait_for_function(ALL_CELLS_DONE, timeout=30_000)

    explorer = page.locator(".kschedlearn-explorer").first
    explorer.wait_for(state="visible")
    view = explorer.locator(".kschedlearn-view-pipeline")
    view.locator("svg").first.wait_for(state="visible")
    explorer.evaluate("el => el.scrollIntoView({block: 'start'})")
    page.screenshot(path=str(artifacts / "lab-explorer-initial.png"))

    body = page.locator("body").inner_text()
    assert "Error displaying widget" not in body
    assert explorer.locator(".kschedlearn-error").count() == 0
    position = explorer.locator(".kschedlearn-position")
    before_svg, before_pos = view.inner_html(), position.inner_text()
    assert "<svg" in before_svg and "event " in before_pos

    explorer.locator("button.kschedlearn-step").click()
    after_svg = wait_for(lambda: (h := view.inner_html()) != before_svg and "<svg" in h and h,
                         "the pipeline SVG to change after Step")
    # the diagram is sent first; the position follows it
    wait_for(lambda: position.inner_text() != before_pos, "the position to move after Step")
    page.screenshot(path=str(artifacts / "lab-explorer-after-step.png"))

    explorer.locator("button.kschedlearn-back").click()
    wait_for(lambda: view.inner_html() == before_svg, "Back to bring the previous SVG back")
    wait_for(lambda: position.inner_text() == before_pos, "Back to bring the previous position back")
    assert after_svg != before_svg
    page.screenshot(path=str(artifacts / "lab-explorer-after-back.png"))

    # The timeline slider moves the cursor too (its messages are handled on the kernel's main
    # thread, which owns the simulation: tools/lab/overrides.json turns JupyterLab's comms over
    # subshells off; with them on, this raised WrongThreadError).
    explorer.locator(".kschedlearn-timeline .noUi-handle").first.focus()
    page.keyboard.press("ArrowLeft")
    wait_for(lambda: view.inner_html() not in (before_svg, after_svg), "the timeline to move the cursor back")
    wait_for(lambda: position.inner_text() != before_pos, "the position to follow the timeline")
    assert explorer.locator(".kschedlearn-error").count() == 0
    explorer.screenshot(path=str(artifacts / "lab-explorer-whole.png"))

    # An injection goes through the kernel too: the history forks at the cursor. The injection
    # buttons sit in the folded section below the diagram: unfold it first.
    explorer.locator(".jupyter-widget-Collapse-header").first.click()
    explorer.locator("button.kschedlearn-inj-clock").wait_for(state="visible")
    explorer.locator("button.kschedlearn-inj-clock").click()
    narration = explorer.locator(".kschedlearn-narration")  # the stage name is in the narration's head
    wait_for(lambda: "inject" in narration.inner_text(), "Jump clock to add an inject event")
    explorer.locator("button.kschedlearn-inj-clock").evaluate("el => el.scrollIntoView({block: 'end'})")
    page.screenshot(path=str(artifacts / "lab-explorer-after-inject.png"))

    assert "Error displaying widget" not in page.locator("body").inner_text()
    assert explorer.locator(".kschedlearn-error").count() == 0
