"""Each exercise notebook runs headless with its reference solution injected into the stub cell.

The stub cell (tagged ``stub``) is replaced by an import of the solution; a final cell asserts
that the check report passed. Uses ipykernel's built-in ``python3`` spec, which runs this interpreter.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

from kschedlearn.exercises import all_tasks

nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

ROOT = Path(__file__).resolve().parents[2]
TASKS = all_tasks()


def _inject(nb: nbformat.NotebookNode, task) -> None:
    module, _, name = task.solution.partition(":")
    for cell in nb.cells:
        if "stub" in cell.metadata.get("tags", []):
            cell.source = f"from kschedlearn.exercises.solutions.{module} import {name} as {task.function_name}"
    nb.cells.append(nbformat.v4.new_code_cell("assert report.passed, str(report)"))


@pytest.mark.notebooks
@pytest.mark.slow
@pytest.mark.parametrize("task", [pytest.param(t, id=t.id, marks=getattr(pytest.mark, t.marker)) for t in TASKS])
def test_notebook_runs_with_solution(task, tmp_path):
    nb = nbformat.read(ROOT / "exercises" / task.notebook, as_version=4)
    _inject(nb, task)
    # kernel "python3": jupyter_client runs a spec whose argv[0] is "python" with sys.executable,
    # i.e. this venv's interpreter (ipykernel ships that spec inside the venv)
    client = nbclient.NotebookClient(nb, timeout=60, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    outputs = "".join(str(o.get("data", {}).get("text/plain", "")) + str(o.get("text", ""))
                      for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []))
    assert "Traceback" not in outputs
