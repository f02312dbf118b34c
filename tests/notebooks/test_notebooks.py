"""Execute every curriculum notebook headless, and check a saved notebook shows its diagrams.

Go: none — kschedlearn-only (DESIGN §11: "each runs top to bottom headless"; §9: a saved notebook
still shows its diagrams without a kernel).

The notebooks are found at collection time (``notebooks/*.ipynb``), so notebooks added later are
picked up without editing this file. The total execution time is reported in pytest's terminal
summary (no ``-s`` needed).

One kernel runs them all, one after the other (issue 22: the course has more, shorter notebooks,
and a kernel's start-up plus ``import kschedlearn`` cost about two seconds each): before each
notebook the kernel's namespace is reset (``%reset -f``) and the plugin registry put back in its
1.6 start-up state, the only process-wide state a notebook changes. A notebook that fails there is
run again in a kernel of its own: if it passes alone, the failure came from a notebook before it,
and the test says so. ``test_each_notebook_defines_what_it_uses`` checks statically that no
notebook leans on a name a previous one left behind, and ``tools/make_notebooks.py`` builds each
notebook in a fresh kernel.

Issue 22 item 1: the learner time a curriculum notebook states in its ``objectives`` cell must
be within a factor of two of the time computed from *this* headless run. The learner factors
(``kschedlearn/curriculum/timing.py``, stated there with their reasons) turn the run's measured
parts into a learner's minutes: the execution time counts once (the learner waits for each
cell), prose is read at 120 words a minute (careful study of technical text, about half the
~240 wpm of ordinary non-fiction reading), 6 s per line of code, 30 s per diagram or widget,
1 s per printed line, 90 s per checked activity.
"""

from __future__ import annotations

import ast
import base64
import builtins
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import nbformat
import pytest
from jupyter_client import BlockingKernelClient, KernelManager
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError
from nbconvert import HTMLExporter

pytestmark = [pytest.mark.notebooks]

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
FOUND = sorted(NOTEBOOKS.glob("*.ipynb"))
#: one notebook may take this long (the whole set must stay well under 5 minutes)
PER_NOTEBOOK_TIMEOUT = 120
#: the guided tour draws the pipeline at several steps plus the other views
MIN_SVG_IN_TOUR = 5


class _Timings:
    """A late-registered pytest plugin that prints how long the notebooks took, at session end."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if not self.seconds:
            return
        terminalreporter.section("notebook execution times")
        for name, secs in self.seconds.items():
            terminalreporter.write_line(f"{name:45s} {secs:6.1f}s")
        terminalreporter.write_line(f"{'total (' + str(len(self.seconds)) + ' notebooks)':45s} "
                                    f"{sum(self.seconds.values()):6.1f}s")


@pytest.fixture(scope="session")
def timings(request: pytest.FixtureRequest) -> _Timings:
    plugin = _Timings()
    request.config.pluginmanager.register(plugin, "kschedlearn-notebook-timings")
    return plugin


def _code_outputs(nb: nbformat.NotebookNode) -> list[dict[str, Any]]:
    return [out for cell in nb.cells if cell.cell_type == "code" for out in cell.get("outputs", [])]


#: run first in the shared kernel, then removed from the executed notebook
RESET_SOURCE = ("%reset -f\nfrom kschedlearn.scheduler.factory import plugins as _plugins\n"
                "_plugins.reset_registry()\ndel _plugins")


@attrs.frozen
class SharedKernel:
    """The kernel every notebook runs in, and the one client connected to it.

    One client for all: a new client per notebook (nbclient's default) waits for the kernel's
    answer and then 0.2 s more for stray IOPub messages (jupyter_client's ``wait_for_ready``),
    idle time for every notebook. The client reads only the replies to the requests it sends
    (nbclient matches every message to its request), so a notebook sees nothing of the one before.
    It must stay the kernel's only client: the clients one ``KernelManager`` makes share a ZeroMQ
    identity, and after a second one had connected and closed, replies no longer reached this one.
    """

    km: KernelManager
    kc: BlockingKernelClient


@pytest.fixture(scope="module")
def shared_kernel() -> Iterator[SharedKernel]:
    km = KernelManager(kernel_name="python3")
    km.start_kernel(cwd=str(NOTEBOOKS))
    kc = km.client()
    try:
        kc.start_channels()
        kc.wait_for_ready(timeout=60)
        kc.allow_stdin = False  # as nbclient sets it on the clients it makes
        yield SharedKernel(km=km, kc=kc)
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def _execute(nb: nbformat.NotebookNode, shared: SharedKernel | None) -> None:
    """Run ``nb`` in the shared kernel (after the reset cell) or, with ``shared=None``, in its own."""
    if shared is None:
        NotebookClient(nb, timeout=PER_NOTEBOOK_TIMEOUT, kernel_name="python3",
                       resources={"metadata": {"path": str(NOTEBOOKS)}}).execute()
        return
    nb.cells.insert(0, nbformat.v4.new_code_cell(RESET_SOURCE))
    client = NotebookClient(nb, km=shared.km, timeout=PER_NOTEBOOK_TIMEOUT, kernel_name="python3",
                            resources={"metadata": {"path": str(NOTEBOOKS)}})
    client.kc = shared.kc  # nbclient then uses it and leaves it open: it does not own the kernel
    try:
        client.execute()
    finally:
        nb.cells.pop(0)


@pytest.mark.slow
@pytest.mark.skipif(not FOUND, reason="no notebooks built yet (tools/make_notebooks.py)")
@pytest.mark.parametrize("path", FOUND, ids=[p.stem for p in FOUND])
def test_notebook_runs_headless(path: Path, timings: _Timings, shared_kernel: SharedKernel) -> None:
    nb = nbformat.read(path, as_version=4)
    start = time.perf_counter()
    try:
        _execute(nb, shared_kernel)
    except CellExecutionError as shared_error:
        alone = nbformat.read(path, as_version=4)
        _execute(alone, None)  # raises CellExecutionError naming the cell: it fails on its own
        pytest.fail(f"{path.name} passes in a kernel of its own but failed after the notebooks before it "
                    f"(state left behind by one of them): {shared_error}")
    timings.seconds[path.stem] = time.perf_counter() - start
    errors = [out for out in _code_outputs(nb) if out.get("output_type") == "error"]
    assert not errors, f"{path.name}: error outputs {[e.get('ename') for e in errors]}"
    assert any(cell.cell_type == "markdown" for cell in nb.cells), f"{path.name} has no prose"
    if path.stem[0].isdigit():  # a curriculum notebook: its stated time was measured, not guessed
        from kschedlearn.curriculum import catalog
        from kschedlearn.curriculum.timing import measure

        stated = catalog.unit(path.stem).minutes
        now = measure(nb).seconds / 60
        assert stated is not None and f"about **{stated} min**" in nb.cells[0].source, f"{path.name}: no time"
        assert stated / 2 <= now <= stated * 2, (f"{path.name}: states {stated} min, this headless run × the "
                                                 f"learner factors gives {now:.1f} min")


@pytest.mark.slow
def test_saved_tour_shows_diagrams_without_a_kernel() -> None:
    path = NOTEBOOKS / "00-start-here.ipynb"
    if not path.exists():
        pytest.skip("notebooks/00-start-here.ipynb not built yet")
    nb = nbformat.read(path, as_version=4)
    saved_svgs = [out for out in _code_outputs(nb) if "image/svg+xml" in out.get("data", {})]
    assert len(saved_svgs) >= MIN_SVG_IN_TOUR, "the committed tour must keep its rendered diagrams"
    # No kernel: only the saved outputs. nbconvert embeds each SVG as a base64 data URI (its
    # sanitizer would escape inline <svg>), so decode them and look inside.
    html, _ = HTMLExporter().from_notebook_node(nb)
    uris = re.findall(r'src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)"', html)
    svgs = [base64.b64decode(u).decode("utf-8") for u in uris]
    assert sum("<svg" in s for s in svgs) >= MIN_SVG_IN_TOUR, f"only {len(svgs)} SVG images in the HTML"
    # the diagrams are the real views, not placeholders: the pipeline names its queues
    assert any("podQueue" in s for s in svgs)


#: names IPython puts into every notebook's namespace
_IPYTHON_NAMES = {"display", "get_ipython", "In", "Out", "exit", "quit"}


def _defined_and_used(nb: nbformat.NotebookNode) -> tuple[set[str], set[str]]:
    defined: set[str] = set()
    used: set[str] = set()
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        source = "\n".join(line for line in cell.source.splitlines() if not line.lstrip().startswith(("%", "!")))
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Name):
                (used if isinstance(node.ctx, ast.Load) else defined).add(node.id)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                defined.update((a.asname or a.name).split(".")[0] for a in node.names)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                defined.add(node.name)
            elif isinstance(node, ast.arg):
                defined.add(node.arg)
            elif isinstance(node, ast.ExceptHandler) and node.name:
                defined.add(node.name)
    return defined, used


@pytest.mark.parametrize("path", FOUND, ids=[p.stem for p in FOUND])
def test_each_notebook_defines_what_it_uses(path: Path) -> None:
    """A notebook run after others in one kernel must not pass thanks to a name they left: every
    name a notebook reads is defined (imported, assigned, a parameter) by the notebook itself."""
    defined, used = _defined_and_used(nbformat.read(path, as_version=4))
    missing = sorted(used - defined - set(dir(builtins)) - _IPYTHON_NAMES)
    assert not missing, f"{path.name} reads names it never defines: {missing}"
