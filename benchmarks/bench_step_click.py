"""Step click to new SVG in Chromium (issue 25 target: notebook 00, ≤ 100 ms median).

Starts JupyterLab on a copy of the notebooks exactly as the browser tests do
(``tests/browser/labserver.py``), opens ``notebooks/00-start-here.ipynb`` in Chromium at
1366×768 through Playwright, runs it (Run > Run All Cells), with one cell added at its end that
opens the explorer on the tour's scenario from its start (notebook 00 has no explorer of its own
since issue 22 moved it to part 2; its own ``sim`` stands at ``finishBinding`` with 7 stops
left). Then it clicks the explorer's Step button N times (stage granularity, the default: each
click runs the simulation to its next stop, so the run records as it goes, as a learner's first
pass does) and measures each click, in the page, from the ``click`` event to the moment the
pipeline view's new ``<svg>`` element is in the DOM (a ``MutationObserver`` on the view: the
HTML widget replaces its whole content, so a new SVG is a new element). Clicks do not overlap:
the next one waits for the kernel to go idle and the page to paint.

The split of each click (medians, ms), from the page's clock:

- ``click_to_send``: the click event to the button's comm message leaving for the kernel;
- ``kernel_round_trip``: that message leaving to the view's update (the SVG) arriving — the
  kernel's whole handling of the click plus two WebSocket hops; it is ``send_to_busy`` (to the
  kernel's "busy" status: the way in and the kernel picking the message up) plus
  ``busy_to_svg_update`` (the handler and the way back of its messages);
- ``python_*``, from the kernel's clock (wrappers installed for the benchmark, never in the
  package): ``handler`` (``Explorer._move``: the step and the refresh), ``step``
  (``Simulation.step``), ``view`` (``Explorer.svg``: the view built from the snapshot and
  drawn), ``render_svg`` (DOT → SVG inside it: Graphviz and the row bands), ``refresh_other``
  (the refresh without the view: the timeline, narration, source pane, trace log);
- ``browser_apply``: the update arriving to the new SVG in the DOM (the widget manager
  applying the messages before it, then the view's ``innerHTML``);
- ``browser_paint``: the SVG in the DOM to the first frame after it (``requestAnimationFrame``
  then a task: style, layout and paint of the new picture); ``click_to_paint`` is the sum;
- ``click_to_idle``: the click to the kernel's "idle" status arriving, after every message of
  the click (the diagram goes first; the timeline, narration, source pane follow it).

Prints one JSON object. Nothing is asserted on time (``tests/browser/test_step_click.py`` runs
:func:`measure_step_clicks` with N=3 and checks only that it measures).

Run: nice .venv/bin/python benchmarks/bench_step_click.py [--n 30] [--artifacts DIR]
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import math
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import attrs
import nbformat

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT / "tests" / "browser") not in sys.path:  # the browser tests' helpers (not a package)
    sys.path.insert(0, str(ROOT / "tests" / "browser"))

from labserver import CHROMIUM, LabServer, copy_lab_root, launched_chromium, page_at, running_lab  # noqa: E402
from pagecheck import ALL_CELLS_DONE, KERNEL_READY, run_all_cells, strip_outputs  # noqa: E402

NOTEBOOK = "00-start-here.ipynb"
VIEWPORT = (1366, 768)
#: the cell added at the end of notebook 00: the tour's scenario and seed, from its start
EXPLORER_CELL = ('# added by benchmarks/bench_step_click.py: the tour\'s scenario from its start, in the explorer\n'
                 'bench_sim = Simulation.from_scenario("three-nodes", seed=1)\n'
                 'bench_sim.explorer()')

# In the page: note each click of Step, the kernel messages it causes, and when the pipeline
# view's new <svg> is in the DOM and painted. Returns the SVG shown before the first click.
INSTRUMENT = """(explorer) => {
  const view = explorer.querySelector('.kschedlearn-view-pipeline');
  const button = explorer.querySelector('button.kschedlearn-step');
  const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
  const s = {clicks: [], svg: view.querySelector('svg')};
  window.__ksStepClick = s;
  const current = () => s.clicks[s.clicks.length - 1];
  // capture: before the widget's own listener sends the comm message
  button.addEventListener('click', () => s.clicks.push({
    click: performance.now(), send: null, msgId: null, busy: null, firstUpdate: null, svgRecv: null,
    idle: null, dom: null, paint: null, svg: null}), {capture: true});
  kernel.anyMessage.connect((_, args) => {
    const c = current(), m = args.msg, now = performance.now();
    if (!c) return;
    if (args.direction === 'send') {
      if (c.msgId === null && m.header.msg_type === 'comm_msg') { c.msgId = m.header.msg_id; c.send = now; }
      return;
    }
    if (c.msgId === null || !m.parent_header || m.parent_header.msg_id !== c.msgId) return;
    const type = m.header.msg_type;
    if (type === 'status' && m.content.execution_state === 'busy' && c.busy === null) c.busy = now;
    else if (type === 'status' && m.content.execution_state === 'idle') c.idle = now;
    else if (type === 'comm_msg') {
      if (c.firstUpdate === null) c.firstUpdate = now;
      const state = m.content.data && m.content.data.state;
      if (state && typeof state.value === 'string' && state.value.includes('<svg')) c.svgRecv = now;
    }
  });
  new MutationObserver(() => {
    const svg = view.querySelector('svg');
    if (!svg || svg === s.svg) return;
    s.svg = svg;
    const c = current();
    if (!c || c.dom !== null) return;
    c.dom = performance.now();
    c.svg = svg.outerHTML;
    requestAnimationFrame(() => setTimeout(() => { c.paint = performance.now(); }, 0));
  }).observe(view, {childList: true, subtree: true});
  return s.svg ? s.svg.outerHTML : null;
}"""

CLICK_DONE = """(i) => { const c = window.__ksStepClick.clicks[i];
  return !!c && c.paint !== null && c.idle !== null; }"""

# Run code in the notebook's kernel (silently: nothing shows in the notebook) and return the
# text/plain of ``expression`` evaluated afterwards.
KERNEL_EXECUTE = """async ([code, expression]) => {
  const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
  const future = kernel.requestExecute({code, silent: true, store_history: false,
                                        user_expressions: {out: expression}});
  const reply = (await future.done).content;
  if (reply.status !== 'ok') return 'error: ' + reply.ename + ': ' + reply.evalue;
  const out = reply.user_expressions.out;
  return out.status === 'ok' ? out.data['text/plain'] : 'error: ' + out.ename + ': ' + out.evalue;
}"""

# In the kernel: time the Python side of each Step (the benchmark's own wrappers, looked up by
# the explorer at call time; installed once per kernel).
KERNEL_PROBE = '''
def _ks_bench_install():
    import functools, time
    from kschedlearn.simulation.simulation import Simulation
    from kschedlearn.viz import render
    from kschedlearn.widgets.explorer import Explorer
    calls = []

    def timed(owner, name, key, outer=False):
        fn = getattr(owner, name)

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            if outer:
                calls.append({})
            t0 = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                if calls:
                    calls[-1][key] = calls[-1].get(key, 0.0) + time.perf_counter() - t0
        setattr(owner, name, wrapper)

    timed(Explorer, "_move", "handler", outer=True)
    timed(Explorer, "refresh", "refresh")
    timed(Simulation, "step", "step")
    timed(Explorer, "svg", "view")
    timed(render, "render_svg", "render_svg")
    return calls

if "_ks_bench_calls" not in globals():
    _ks_bench_calls = _ks_bench_install()
_ks_bench_calls.clear()
'''


@attrs.frozen
class StepClick:
    """One click of Step: page-clock times in ms (``performance.now()``), the kernel's Python
    timings in ms, and the SVG it brought."""

    click: float
    send: float
    busy: float
    svg_recv: float
    idle: float
    dom: float
    paint: float
    svg: str
    python: dict[str, float]

    @property
    def click_to_svg_ms(self) -> float:
        """The measured figure: click event → new SVG element in the DOM."""
        return self.dom - self.click

    @property
    def svg_sha(self) -> str:
        return hashlib.sha256(self.svg.encode("utf-8")).hexdigest()

    def split(self) -> dict[str, float]:
        py = self.python
        return {
            "click_to_send": self.send - self.click,
            "kernel_round_trip": self.svg_recv - self.send,
            "send_to_busy": self.busy - self.send,
            "busy_to_svg_update": self.svg_recv - self.busy,
            "python_handler": py.get("handler", math.nan),
            "python_step": py.get("step", math.nan),
            "python_view": py.get("view", math.nan),
            "python_render_svg": py.get("render_svg", math.nan),
            "python_refresh_other": py.get("refresh", math.nan) - py.get("view", 0.0),
            "browser_apply": self.dom - self.svg_recv,
            "browser_paint": self.paint - self.dom,
            "click_to_paint": self.paint - self.click,
            "click_to_idle": self.idle - self.click,
        }


def prepare_notebook(root: Path) -> str:
    """Notebook 00 in the served copy ``root``: outputs cleared (everything the page shows comes
    from this run) and the explorer cell added at its end. Its name."""
    path = root / NOTEBOOK
    nb = nbformat.read(path, as_version=4)
    strip_outputs(nb)
    nb.cells.append(nbformat.v4.new_code_cell(EXPLORER_CELL))
    nbformat.write(nb, path)
    return path.name


def open_explorer(page: Any, server: LabServer, name: str, *, timeout_s: float = 180.0) -> Any:
    """Open notebook ``name``, run all its cells, and return the explorer's locator."""
    page.set_default_timeout(timeout_s * 1000)
    page.goto(server.lab_url(name) + "&reset")
    page.locator(".jp-Notebook .jp-CodeCell >> visible=true").first.wait_for()
    page.wait_for_function(KERNEL_READY, arg=name)
    run_all_cells(page)
    page.wait_for_function(ALL_CELLS_DONE, timeout=timeout_s * 1000)
    explorer = page.locator(".kschedlearn-explorer >> visible=true").first
    explorer.wait_for(state="visible")
    explorer.locator(".kschedlearn-view-pipeline svg").first.wait_for(state="visible")
    # the learner's view: the explorer's toolbar at the top of the notebook area
    explorer.evaluate("el => el.scrollIntoView({block: 'start'})")
    return explorer


def kernel_eval(page: Any, code: str, expression: str = "None") -> str:
    """Run ``code`` in the notebook's kernel; the text/plain of ``expression`` afterwards."""
    out = str(page.evaluate(KERNEL_EXECUTE, [code, expression]))
    if out.startswith("error: "):
        raise RuntimeError(f"kernel: {out}")
    return out


def measure_step_clicks(page: Any, explorer: Any, n: int, *, settle_s: float = 0.2,
                        timeout_s: float = 60.0) -> tuple[str, list[StepClick]]:
    """Click the explorer's Step ``n`` times; the SVG shown before the first click and each click."""
    kernel_eval(page, KERNEL_PROBE)
    before = explorer.evaluate(INSTRUMENT)
    if before is None:
        raise RuntimeError("the explorer shows no pipeline SVG before the first click")
    step = explorer.locator("button.kschedlearn-step")
    for i in range(n):
        step.click()
        page.wait_for_function(CLICK_DONE, arg=i, polling=50, timeout=timeout_s * 1000)
        time.sleep(settle_s)
    errors = explorer.locator(".kschedlearn-error").all_inner_texts()
    if errors:
        raise RuntimeError(f"the explorer reported an error: {errors}")
    raw = page.evaluate("() => window.__ksStepClick.clicks")
    python = json.loads(ast.literal_eval(kernel_eval(page, "", "__import__('json').dumps(_ks_bench_calls)")))
    if len(raw) != n or len(python) != n:
        raise RuntimeError(f"{n} clicks made, {len(raw)} seen by the page, {len(python)} by the kernel")
    clicks = [StepClick(click=c["click"], send=c["send"], busy=c["busy"], svg_recv=c["svgRecv"], idle=c["idle"],
                        dom=c["dom"], paint=c["paint"], svg=c["svg"],
                        python={k: v * 1000 for k, v in py.items()})
              for c, py in zip(raw, python)]
    return str(before), clicks


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (``q`` in 0–100) of ``values``."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


def summarize(clicks: list[StepClick]) -> dict[str, Any]:
    """The JSON figures: median, min, max and p90 of click → SVG in ms, and the split's medians."""
    times = [c.click_to_svg_ms for c in clicks]
    splits = [c.split() for c in clicks]
    return {
        "n": len(clicks),
        "median_ms": round(statistics.median(times), 1),
        "min_ms": round(min(times), 1),
        "max_ms": round(max(times), 1),
        "p90_ms": round(percentile(times, 90), 1),
        "split_median_ms": {k: round(statistics.median(s[k] for s in splits), 1) for k in splits[0]},
        "times_ms": [round(t, 1) for t in times],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=30, help="Step clicks to measure (default 30; at most 40)")
    parser.add_argument("--artifacts", type=Path, default=None,
                        help="where the JupyterLab log and a screenshot go (default: a temporary folder)")
    args = parser.parse_args(argv)
    if not 1 <= args.n <= 40:  # the run has 41 stops: past the last one a click draws nothing new
        parser.error("--n must be between 1 and 40")
    if not CHROMIUM.exists():
        print(json.dumps({"bench": "step_click", "error": f"{CHROMIUM} is missing"}))
        return 2
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="ks-step-click-") as tmp:
        work = Path(tmp)
        out = args.artifacts or work
        out.mkdir(parents=True, exist_ok=True)
        (work / "lab").mkdir()
        (work / "home").mkdir()
        lab_root = copy_lab_root(work / "lab")
        name = prepare_notebook(lab_root)
        with running_lab(lab_root, work / "home", out / "jupyter-lab.log") as server, \
                launched_chromium() as browser, page_at(browser, *VIEWPORT) as page:
            explorer = open_explorer(page, server, name)
            before, clicks = measure_step_clicks(page, explorer, args.n)
            page.screenshot(path=str(out / "step-click-last.png"))
            version = browser.version
    shas = [hashlib.sha256(before.encode("utf-8")).hexdigest()] + [c.svg_sha for c in clicks]
    result = {"bench": "step_click", "notebook": NOTEBOOK, "viewport": "x".join(map(str, VIEWPORT)),
              "chromium": version, **summarize(clicks),
              "every_click_new_svg": all(a != b for a, b in zip(shas, shas[1:])),
              "loadavg_before": [round(x, 2) for x in load_before],
              "loadavg_after": [round(x, 2) for x in os.getloadavg()]}
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
