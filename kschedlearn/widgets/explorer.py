"""The explorer: step, rewind, play and poke a :class:`~kschedlearn.Simulation` with buttons.

Go: none — kschedlearn-only (DESIGN §9). Built from stock ipywidgets 8 controls only (no
front-end extension of our own), so it works anywhere ``jupyterlab_widgets`` does.

Layout (made to fit one screen: at 1366×768 in JupyterLab with the file browser open, the
controls, the timeline, the whole diagram and the current source line are visible at once):
one toolbar row (Back, Step, Play, the step granularity, the timeline slider, the position, the
view and where the source pane goes), then the main area — the current view fitted to what is
left, and the *source pane* (the mirrored Python function running at the cursor, its current
line highlighted, a link to its Go twin — ``Simulation.where()``) with the narration of the
current event and a banner (a process that crashed at or before the cursor, the end of the
scenario). The source pane is a compact strip under the diagram (the current line and two lines
either side), a column beside it (the whole function), or hidden. Below the fold, folded: the
breakpoints, the followed pod, the play speed, a trace log around the cursor, the
fault-injection buttons, and an ``Output`` where any error raised by a button shows up (a
callback error is never swallowed; its one-line summary also shows under the toolbar). A crash
is shown in the banner, not as a Python warning.

Speed: every rendered SVG is kept per (cursor, view, followed pod) — checked against the event
object at the cursor, so a forked history never shows a stale picture — and only the visible tab
is drawn.

Saved notebooks: the box's display bundle also carries a static SVG of the current view and a
static HTML page (banner, the view, narration and source pane), so a notebook saved with outputs
shows them where no kernel runs (nbconvert, GitHub).
"""

from __future__ import annotations

import base64
import html
import traceback
import warnings
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import attrs
import ipywidgets as widgets

from kschedlearn.simulation.checks import ScenarioEnded, SimulatedProcessCrashed
from kschedlearn.simulation.simulation import GRANULARITIES, TEACHING_STAGES
from kschedlearn.widgets._html import inline_svg, narration, trace_log
from kschedlearn.widgets._layout import _PANE_CLASS, PANES, STEP_GRANULARITIES, VIEW_NAMES, build_widgets
from kschedlearn.widgets._source import banner, source_pane

if TYPE_CHECKING:
    from kschedlearn.simulation.simulation import Simulation
    from kschedlearn.trace import TraceEvent

assert set(STEP_GRANULARITIES) == set(GRANULARITIES)



class ExplorerBox(widgets.VBox):
    """The explorer's outer box. Its display bundle adds ``image/svg+xml`` (the current view)
    next to the widget view: JupyterLab shows the live widget, a kernel-less renderer the SVG."""

    static_svg: Callable[[], str] | None = None
    static_html: Callable[[], str] | None = None

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        data = super()._repr_mimebundle_(**kwargs)
        if self.static_svg is not None:
            data["image/svg+xml"] = self.static_svg()
        if self.static_html is not None:
            data["text/html"] = self.static_html()
        data["text/plain"] = "<kschedlearn explorer>"
        return data


@attrs.define(eq=False)
class Explorer:
    """Buttons, a timeline and diagrams over one simulation (``sim.explorer()`` makes one)."""

    sim: Simulation
    trace_size: int = 12
    cache_size: int = 256
    last_error: BaseException | None = attrs.field(default=None, init=False)
    renders: int = attrs.field(default=0, init=False)
    _cache: OrderedDict[tuple[int, str, str], tuple[Any, str]] = attrs.field(factory=OrderedDict, init=False)
    _shown: dict[str, tuple[tuple[int, str], Any]] = attrs.field(factory=dict, init=False)
    _updating: bool = attrs.field(default=False, init=False)
    w: dict[str, Any] = attrs.field(factory=dict, init=False, repr=False)
    box: ExplorerBox = attrs.field(init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        if self.sim.cursor < 0:
            self.sim.start()
        self.box = self._build()
        self.box.static_svg = lambda: self.svg(self.current_view)
        self.box.static_html = self.static_html
        self._guard(self.refresh)()

    # -- public --------------------------------------------------------------------------
    def display(self) -> ExplorerBox:
        """The widget (show it as a cell's value, or with ``IPython.display.display``)."""
        return self.box

    @property
    def current_view(self) -> str:
        return str(self.w["view"].value)

    def svg(self, view: str) -> str:
        """The SVG of ``view`` at the cursor (from the cache when it is still valid)."""
        sim = self.sim
        key = (sim.cursor, view, sim.follow or "")
        event = sim.event
        hit = self._cache.get(key)
        if hit is not None and hit[0] is event:
            self._cache.move_to_end(key)
            return hit[1]
        text = sim.show(view).svg()
        self.renders += 1
        self._cache[key] = (event, text)
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)
        return text

    def static_html(self) -> str:
        """The explorer as it stands, without a kernel: banner, current view, narration, source."""
        w = self.w
        # the view as a data-URI image: nbconvert and GitHub keep <img>, some drop inline <svg>
        data = base64.b64encode(self.svg(self.current_view).encode("utf-8")).decode("ascii")
        image = (f'<img class="kschedlearn-static-view" alt="{self.current_view} view" style="max-width:100%" '
                 f'src="data:image/svg+xml;base64,{data}">')
        return ('<div class="kschedlearn-explorer-static">'
                f'{w["position"].value}{w["banner"].value}{image}'
                '<div style="display:flex;gap:16px;flex-wrap:wrap">'
                f'<div style="flex:1 1 360px;min-width:0">{w["narration"].value}</div>'
                f'<div style="flex:1.6 1 480px;min-width:0">{w["source"].value}</div></div></div>')

    # -- building ------------------------------------------------------------------------
    def _build(self) -> ExplorerBox:
        parts = build_widgets(self.w, self.sim.granularity, sorted(TEACHING_STAGES))
        self._wire()
        box = ExplorerBox(children=parts)
        box.add_class("kschedlearn-explorer")
        return box

    def _wire(self) -> None:
        w = self.w
        w["back"].on_click(self._guard(lambda _b: self._move(self.sim.back)))
        w["step"].on_click(self._guard(lambda _b: self._move(self.sim.step)))
        w["timeline"].observe(self._guard(self._on_timeline), names="value")
        w["granularity"].observe(self._guard(self._on_granularity), names="value")
        w["follow"].observe(self._guard(self._on_follow), names="value")
        w["view"].observe(self._guard(self._on_view), names="value")
        w["panes"].observe(self._guard(self._on_panes), names="value")
        w["bp_add"].on_click(self._guard(self._on_bp_add))
        w["bp_clear"].on_click(self._guard(self._on_bp_clear))
        actions: dict[str, Callable[[], Any]] = {
            "fail_next_bind": lambda: self.sim.inject.fail_next_bind(),
            "add_node": lambda: self.sim.inject.add_node(self._new_node_name()),
            "cordon": lambda: self.sim.inject.cordon(self._chosen("inj_node", "a node to cordon")),
            "delete_pod": lambda: self.sim.inject.delete_pod(self._chosen("inj_pod", "a pod to delete")),
            "drop_watch": lambda: self.sim.inject.drop_watch(),
            "kill_scheduler": lambda: self.sim.inject.kill_scheduler(self._chosen("inj_replica", "a replica")),
            "jump_clock": lambda: self.sim.inject.jump_clock(float(w["inj_seconds"].value)),
        }
        for name, action in actions.items():
            w["inject"][name].on_click(self._guard(lambda _b, act=action: self._injected(act)))

    # -- callbacks -----------------------------------------------------------------------
    def _guard(self, fn: Callable[..., Any]) -> Callable[..., None]:
        """Wrap a callback so that what it raises is shown in the widget (status + traceback)."""

        def guarded(*args: Any) -> None:
            if self._updating:
                return
            try:
                with warnings.catch_warnings():
                    # crashes and the end of the scenario are shown in the banner instead
                    warnings.simplefilter("ignore", SimulatedProcessCrashed)
                    warnings.simplefilter("ignore", ScenarioEnded)
                    fn(*args)
            except Exception as err:  # noqa: BLE001 — reported in the widget, not swallowed
                self._report(err)

        return guarded

    def _report(self, err: BaseException) -> None:
        self.last_error = err
        self.w["status"].value = (f'<span class="kschedlearn-error" style="color:#b00">'
                                  f"{html.escape(type(err).__name__)}: {html.escape(str(err))}</span>")
        self.w["errors"].append_stderr("".join(traceback.format_exception(err)))

    def _move(self, how: Callable[[], TraceEvent | None]) -> None:
        how()
        self.refresh()

    def _on_timeline(self, change: dict[str, Any]) -> None:
        value = int(change["new"])
        sim = self.sim
        if value != sim.cursor:
            sim.goto(value)
        # Play reached the end of what is recorded: record more so it can keep going.
        if self.w["play"].playing and value >= len(sim.trace) - 1 and not sim.world.finished:
            sim.step("event")
            sim.goto(value)
        self.refresh()

    def _on_view(self, change: dict[str, Any]) -> None:
        self.w["stage"].selected_index = VIEW_NAMES.index(change["new"])
        self._render_current()

    def _on_panes(self, change: dict[str, Any]) -> None:
        main = self.w["main"]
        for cls in _PANE_CLASS.values():
            main.remove_class(cls)
        main.add_class(_PANE_CLASS[change["new"]])

    def _on_granularity(self, change: dict[str, Any]) -> None:
        self.sim.granularity = change["new"]

    def _on_follow(self, change: dict[str, Any]) -> None:
        if change["new"]:
            self.sim.follow = change["new"]
            self.refresh()

    def _on_bp_add(self, _b: Any) -> None:
        self.sim.add_breakpoint(self.w["bp_stage"].value)
        self._show_breakpoints()

    def _on_bp_clear(self, _b: Any) -> None:
        self.sim.clear_breakpoints()
        self._show_breakpoints()

    def _injected(self, action: Callable[[], Any]) -> None:
        action()
        self._cache.clear()
        self.refresh()

    def _chosen(self, key: str, what: str) -> str:
        value = self.w[key].value
        if not value:
            raise ValueError(f"explorer: choose {what} first (the '{self.w[key].description}' list is empty)")
        return str(value)

    def _new_node_name(self) -> str:
        taken = {n.name for n in self._snapshot_nodes()}
        i = len(taken) + 1
        while f"node-{i}" in taken:
            i += 1
        return f"node-{i}"

    # -- showing the state ---------------------------------------------------------------
    def _snapshot_nodes(self) -> tuple[Any, ...]:
        snap = self.sim.snapshot
        return tuple(snap.apiserver.nodes) if snap is not None and snap.apiserver is not None else ()

    def _snapshot_pods(self) -> tuple[str, ...]:
        snap = self.sim.snapshot
        return tuple(p.key for p in snap.apiserver.pods) if snap is not None and snap.apiserver is not None else ()

    def refresh(self) -> None:
        """Bring every control in line with the simulation's cursor and history.

        The diagram goes first: each change of a control is a message to the browser, and the
        diagram, the costly part to draw and what the learner looks at, used to wait behind the
        others (set before it, they also woke the Jupyter server and the browser up to compete
        with the drawing for the CPU). The other controls follow within a few milliseconds, all
        computed before the first is set (``benchmarks/bench_step_click.py``)."""
        sim, w = self.sim, self.w
        self._render_current()
        top = max(len(sim.trace) - 1, 0)
        pods = self._snapshot_pods()
        follow = sim.follow or ""
        ev = sim.event
        serving = sim.serving if sim.serving is not None and not sim.serving.server.stopped else None
        position = (f"<span class='kschedlearn-position'>event {sim.cursor} of {top}"
                    f" · t={sim.time:g}s"
                    + (f" · <b>serving on 127.0.0.1:{serving.port}</b> ({html.escape(serving.kubectl)})"
                       if serving is not None else "")
                    + (f" · <span class='kschedlearn-thinned' title='a thinned view'>thinned: "
                       f"{html.escape(note)}</span>" if (note := sim.thinning_note()) else "")
                    + "</span>")
        texts = {"narration": narration(ev, finished=sim.finished),
                 "banner": banner(sim.crashes, sim.cursor, sim.end_message()),
                 "source": source_pane(sim.where()),
                 "trace": trace_log(sim.trace, sim.cursor, self.trace_size)}
        self._updating = True
        try:
            for ctl in (w["timeline"], w["play"]):
                # two messages, the range first: given both at once, the browser's slider
                # answers with its old position, which would move the cursor back
                ctl.max = top
                ctl.value = max(sim.cursor, 0)
            self._set_options(w["follow"], tuple(sorted(set(pods) | ({follow} if follow else set()))), follow)
            self._set_options(w["inj_pod"], pods, w["inj_pod"].value)
            self._set_options(w["inj_node"], tuple(n.name for n in self._snapshot_nodes()), w["inj_node"].value)
            self._set_options(w["inj_replica"], tuple(sim.world.replicas), w["inj_replica"].value)
            if w["granularity"].value != sim.granularity:
                w["granularity"].value = sim.granularity
        finally:
            self._updating = False
        w["position"].value = position
        for name, text in texts.items():
            w[name].value = text
        self._show_breakpoints()

    @staticmethod
    def _set_options(dropdown: widgets.Dropdown, options: tuple[str, ...], value: Any) -> None:
        if tuple(dropdown.options) != options:
            dropdown.options = options
        target = value if value in options else (options[0] if options else None)
        if dropdown.value != target:
            dropdown.value = target

    def _show_breakpoints(self) -> None:
        bps = self.sim.breakpoints
        text = ", ".join(html.escape(bp.stage or bp.pod or bp.node or "?") for bp in bps) or "none"
        self.w["bp_list"].value = f"<span class='kschedlearn-breakpoints'>breakpoints: {text}</span>"

    def _render_current(self) -> None:
        """Draw the visible tab (if what it shows is not already the cursor's picture)."""
        view = self.current_view
        sim = self.sim
        key = (sim.cursor, sim.follow or "")
        shown = self._shown.get(view)
        if shown is not None and shown[0] == key and shown[1] is sim.event:
            return
        try:
            body = inline_svg(self.svg(view))
        except Exception as err:  # noqa: BLE001 — shown in the tab and in the error output
            self._report(err)
            body = f"<pre class='kschedlearn-error'>{html.escape(type(err).__name__)}: {html.escape(str(err))}</pre>"
        self.w["views"][view].value = body
        self._shown[view] = (key, sim.event)


__all__ = ["Explorer", "ExplorerBox", "PANES", "VIEW_NAMES"]
