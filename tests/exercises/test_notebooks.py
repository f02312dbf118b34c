"""Each exercise notebook runs headless with its reference solution injected into the stub cell.

The stub cell (tagged ``stub``) is replaced by an import of the solution; a final cell asserts
that the check report passed. Uses ipykernel's built-in ``python3`` spec, which runs this interpreter.
One kernel runs the notebooks in turn (as ``tests/notebooks/test_notebooks.py`` does: a kernel
start and ``import kschedlearn`` cost about two seconds each): its namespace is reset and the
plugin registry put back before each notebook; a notebook that fails there is run again in a
kernel of its own, to tell a leak from a real failure.
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


RESET_SOURCE = ("%reset -f\nfrom kschedlearn.scheduler.factory import plugins as _plugins\n"
                "_plugins.reset_registry()\ndel _plugins")


@pytest.fixture(scope="module")
def shared_kernel(tmp_path_factory):
    from jupyter_client import KernelManager

    km = KernelManager(kernel_name="python3")
    km.start_kernel(cwd=str(tmp_path_factory.mktemp("exercise-kernel")))
    try:
        yield km
    finally:
        km.shutdown_kernel(now=True)


def _inject(nb: nbformat.NotebookNode, task) -> None:
    module, _, name = task.solution.partition(":")
    for cell in nb.cells:
        if "stub" in cell.metadata.get("tags", []):
            cell.source = f"from kschedlearn.exercises.solutions.{module} import {name} as {task.function_name}"
    nb.cells.append(nbformat.v4.new_code_cell("assert report.passed, str(report)"))


@pytest.mark.notebooks
@pytest.mark.slow
@pytest.mark.parametrize("task", [pytest.param(t, id=t.id, marks=getattr(pytest.mark, t.marker)) for t in TASKS])
def test_notebook_runs_with_solution(task, tmp_path, shared_kernel):
    nb = nbformat.read(ROOT / "exercises" / task.notebook, as_version=4)
    _inject(nb, task)
    nb.cells.insert(0, nbformat.v4.new_code_cell(RESET_SOURCE))
    # kernel "python3": jupyter_client runs a spec whose argv[0] is "python" with sys.executable,
    # i.e. this venv's interpreter (ipykernel ships that spec inside the venv)
    client = nbclient.NotebookClient(nb, km=shared_kernel, timeout=60, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    try:
        client.execute()
    except nbclient.exceptions.CellExecutionError as shared_error:
        alone = nbformat.read(ROOT / "exercises" / task.notebook, as_version=4)
        _inject(alone, task)
        nbclient.NotebookClient(alone, timeout=60, kernel_name="python3",
                                resources={"metadata": {"path": str(tmp_path)}}).execute()
        pytest.fail(f"{task.notebook} passes in a kernel of its own but failed after the notebooks before it: "
                    f"{shared_error}")
    finally:
        if client.kc is not None:
            client.kc.stop_channels()
    outputs = "".join(str(o.get("data", {}).get("text/plain", "")) + str(o.get("text", ""))
                      for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []))
    assert "Traceback" not in outputs
