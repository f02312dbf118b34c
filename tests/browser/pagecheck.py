"""What the browser tests ask a JupyterLab page and do to it, shared by test_fit, test_lab,
test_learning_loop and ``benchmarks/bench_step_click.py`` (``tests/browser`` is on pytest's
pythonpath; importlib mode keeps test modules apart)."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

import nbformat

# JupyterLab runs with --LabApp.expose_app_in_browser, so the page can ask it about the kernel.
# ``path``: the notebook we opened, not a tab JupyterLab restored from the previous test's workspace.
KERNEL_READY = """(path) => {
  const nb = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  if (!nb || !nb.context || !nb.context.path.endsWith(path)) return false;
  const ctx = nb && nb.sessionContext;
  return !!(ctx && ctx.isReady && ctx.session && ctx.session.kernel
            && ctx.session.kernel.connectionStatus === 'connected' && ctx.session.kernel.status === 'idle');
}"""
ALL_CELLS_DONE = """() => {
  const prompts = [...document.querySelectorAll('.jp-Notebook .jp-CodeCell .jp-InputArea-prompt')]
    .map(e => e.textContent.trim());
  return prompts.length > 0 && prompts.every(t => /^\\[\\d+\\]:$/.test(t));
}"""


def box(locator: Any) -> dict[str, float]:
    b = locator.bounding_box()
    assert b is not None, locator
    return b


def inside(inner: dict[str, float], outer: dict[str, float], slack: float = 1.0) -> bool:
    return (inner["x"] >= outer["x"] - slack and inner["y"] >= outer["y"] - slack
            and inner["x"] + inner["width"] <= outer["x"] + outer["width"] + slack
            and inner["y"] + inner["height"] <= outer["y"] + outer["height"] + slack)


def wait_for(check: Callable[[], Any], what: str, timeout: float = 20.0) -> Any:
    """Poll ``check`` until it returns something true; fail naming ``what`` after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out after {timeout:.0f}s waiting for {what}")


def run_all_cells(page: Any) -> None:
    """Run > Run All Cells, through the menu as a learner would."""
    page.locator("#jp-MainMenu .lm-MenuBar-itemLabel").filter(has_text=re.compile(r"^Run$")).click()
    page.locator(".lm-Menu-itemLabel").filter(has_text=re.compile(r"^Run All Cells$")).click()


def strip_outputs(nb: nbformat.NotebookNode) -> None:
    """Clear a notebook's outputs and saved widget state and make it use the ``python3`` kernel,
    so that everything the page shows after a run was produced by that run."""
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.metadata.pop("widgets", None)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
