"""Notebook 12 (beyond the happy path): six topic sections, each with a diagram and a predict
cell; the saved notebook shows the questions and the diagrams statically; every predict cell,
re-created from its source, checks a right and a wrong answer against the simulator.

Go: none — kschedlearn-only.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
PATH = ROOT / "notebooks" / "12-beyond-the-happy-path.ipynb"
SCENARIOS = ("several-schedulers", "node-conditions", "why-assume", "deleted-while-binding", "extender",
             "unfenced-leader")

pytestmark = pytest.mark.skipif(not PATH.exists(), reason="notebook 12 not built yet")


def _nb() -> nbformat.NotebookNode:
    return nbformat.read(PATH, as_version=4)


def _tagged(nb: nbformat.NotebookNode, tag: str) -> list[nbformat.NotebookNode]:
    return [c for c in nb.cells if tag in c.metadata.get("tags", [])]


def test_sections_predict_cells_recap_and_static_outputs() -> None:
    nb = _nb()
    predicts = _tagged(nb, "predict")
    assert len(predicts) >= len(SCENARIOS)
    assert nb.cells[-1].cell_type == "markdown" and "recap" in nb.cells[-1].metadata.get("tags", [])
    code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    for name in SCENARIOS:
        assert f'Simulation.from_scenario("{name}"' in code, name
    asked = {out["data"]["text/html"] for c in predicts for out in c.outputs if "text/html" in out.get("data", {})}
    assert len(asked) == len(predicts) and all("Predict:" in h and "simulated answer" in h for h in asked)
    svgs = [out for c in nb.cells if c.cell_type == "code" for out in c.outputs
            if "image/svg+xml" in out.get("data", {})]
    assert len(svgs) >= len(SCENARIOS)
    assert not [out for c in nb.cells if c.cell_type == "code" for out in c.outputs if out.get("output_type") == "error"]


def test_every_predict_cell_checks_right_and_wrong_answers() -> None:
    nb = _nb()
    namespace: dict = {}
    exec(compile(nb.cells[1].source, "notebook-12-setup", "exec"), namespace)  # the imports cell
    for cell_source in (c.source for c in _tagged(nb, "predict")):
        cell = eval(cell_source, namespace)  # noqa: S307 - the notebook's own one-line cell
        q = cell.question
        assert cell.answer(q.answer).correct
        wrong = next(c for c in q.choices if c != q.answer)
        verdict = cell.answer(wrong)
        assert not verdict.correct and verdict.truth == q.answer
