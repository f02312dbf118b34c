"""The explorer's layout: one screen at 1366×768, in CSS scoped to the explorer.

Go: none — kschedlearn-only (issue 22 item 5). The explorer (``explorer.py``) builds its widgets;
this module says how they are laid out: a one-row toolbar, then the main area where the diagram
is fitted to what is left and the source pane goes below it (a compact strip), beside it, or
nowhere (:data:`PANES`).
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

VIEW_NAMES = ("pipeline", "startup", "cache", "decision", "pod_states", "leader_election")
"""The views, in order (names accepted by ``sim.show``)."""

STEP_GRANULARITIES = ("stage", "event", "pod")

PANES = ("source below", "source beside", "diagram only")
"""Where the source pane goes: a compact strip under the diagram (the default: the wide diagrams
keep most of the width), a column beside it (the whole function), or nowhere."""
_PANE_CLASS = dict(zip(PANES, ("ks-panes-below", "ks-panes-beside", "ks-panes-hidden")))

#: The layout, in CSS scoped to the explorer. ``--ks-avail`` is the height the explorer may use:
#: the window less JupyterLab's menu, tab bar, notebook toolbar and status bar (~124 px). The
#: toolbar is one row; the main area gets the rest, shared by the diagram and the source pane;
#: the diagram is fitted to what is left (``--kschedlearn-fit-height``, read by ``_zoom``). The
#: compact strip is the narration (two lines at most) over the source pane at full width (room
#: for a Python | Go pane side by side), showing the current line with two lines either side
#: (``:has()``).
_STRIP = "12.4em"
_BANNER = "32px"  # two 16 px lines
_STYLE = f"""<style>
.kschedlearn-explorer {{ --ks-avail: max(430px, calc(100vh - 124px)); }}
.kschedlearn-explorer .ks-toolbar {{ flex-wrap: nowrap; align-items: center; gap: 2px; overflow: hidden; }}
.kschedlearn-explorer .ks-toolbar .widget-button {{ flex: 0 0 auto; }}
.kschedlearn-explorer .kschedlearn-position {{ font-size: 12px; color: #555; white-space: nowrap; padding: 0 4px; }}
.kschedlearn-explorer .ks-main {{ display: flex; gap: 4px 10px; max-height: calc(var(--ks-avail) - 40px);
  overflow: hidden; }}
.kschedlearn-explorer .ks-stage {{ flex: 0 1 auto; min-width: 0; min-height: 0; overflow: hidden; }}
.kschedlearn-explorer .ks-panes-beside .ks-stage, .kschedlearn-explorer .ks-panes-hidden .ks-stage {{ flex: 1 1 auto; }}
.kschedlearn-explorer .ks-side {{ min-width: 0; min-height: 0; overflow: auto; }}
.kschedlearn-explorer .ks-side {{ display: flex; gap: 2px 10px; }}
.kschedlearn-explorer .ks-source-box, .kschedlearn-explorer .kschedlearn-source-box {{ min-width: 0; }}
.kschedlearn-explorer .ks-panes-below {{ flex-direction: column;
  --kschedlearn-fit-height: calc(var(--ks-avail) - 48px - {_STRIP}); }}
.kschedlearn-explorer .ks-panes-below .ks-side {{ flex: 0 0 {_STRIP}; flex-direction: column; gap: 1px;
  overflow: hidden; font-size: 12px; }}
.kschedlearn-explorer .ks-panes-below .ks-info {{ flex: 0 0 auto; max-height: 34px; overflow: hidden; }}
/* ipywidgets' 2 px margins around the banner and the narration would push the narration's second
   line 4 px past the strip's 34 px (its bottom was cut off under the source pane's title) */
.kschedlearn-explorer .ks-panes-below .ks-info .widget-html {{ margin: 0; }}
.kschedlearn-explorer .ks-panes-below .kschedlearn-source-box {{ flex: 1 1 auto; min-height: 0; overflow: hidden; }}
.kschedlearn-explorer .ks-panes-beside {{ flex-direction: row; --kschedlearn-fit-height: calc(var(--ks-avail) - 48px); }}
.kschedlearn-explorer .ks-panes-beside .ks-side {{ flex: 0 0 40%; flex-direction: column; }}
.kschedlearn-explorer .ks-panes-hidden {{ flex-direction: row; --kschedlearn-fit-height: calc(var(--ks-avail) - 48px); }}
.kschedlearn-explorer .ks-panes-hidden .ks-side {{ display: none; }}
.kschedlearn-explorer .ks-panes-below .kschedlearn-narration {{ font-size: 12px; line-height: 16px; }}
.kschedlearn-explorer .ks-panes-below .kschedlearn-narration > b {{ margin-right: 4px; }}
.kschedlearn-explorer .ks-panes-below pre {{ padding: 1px 0 !important; white-space: pre !important;
  overflow: hidden !important; max-height: none !important; }}
.kschedlearn-explorer .ks-panes-below pre > span {{ display: none !important; }}
.kschedlearn-explorer .ks-panes-below pre > .kschedlearn-source-current,
.kschedlearn-explorer .ks-panes-below pre > .kschedlearn-source-current + span,
.kschedlearn-explorer .ks-panes-below pre > .kschedlearn-source-current + span + span,
.kschedlearn-explorer .ks-panes-below pre > span:has(+ .kschedlearn-source-current),
.kschedlearn-explorer .ks-panes-below pre > span:has(+ span + .kschedlearn-source-current)
  {{ display: block !important; }}
.kschedlearn-explorer .ks-panes-below pre > .kschedlearn-go-current,
.kschedlearn-explorer .ks-panes-below pre > .kschedlearn-go-current + span,
.kschedlearn-explorer .ks-panes-below pre > .kschedlearn-go-current + span + span,
.kschedlearn-explorer .ks-panes-below pre > span:has(+ .kschedlearn-go-current),
.kschedlearn-explorer .ks-panes-below pre > span:has(+ span + .kschedlearn-go-current)
  {{ display: block !important; }}
.kschedlearn-explorer .ks-panes-below .kschedlearn-source-head {{ flex-wrap: nowrap !important; overflow: hidden;
  white-space: nowrap; margin-bottom: 0 !important; }}
.kschedlearn-explorer .ks-panes-below .kschedlearn-source-columns {{ flex-wrap: nowrap !important; }}
.kschedlearn-explorer .ks-panes-below .kschedlearn-source-columns > div {{ flex: 1 1 0 !important; min-width: 0 !important; }}
.kschedlearn-explorer .kschedlearn-source-box .widget-html-content {{ min-width: 0; max-width: 100%; }}
.kschedlearn-explorer .ks-panes-below .kschedlearn-banner {{ padding: 0 6px !important; margin: 0 !important;
  line-height: 16px !important; display: -webkit-box; -webkit-box-orient: vertical; -webkit-line-clamp: 2;
  overflow: hidden; }}
.kschedlearn-explorer .ks-panes-below .kschedlearn-banner code {{ line-height: 1; }}
/* two banners (a replica crashed earlier, and the scenario has ended): one line each */
.kschedlearn-explorer .ks-panes-below .kschedlearn-banner-box:has(.kschedlearn-banner + .kschedlearn-banner)
  .kschedlearn-banner {{ -webkit-line-clamp: 1; }}
.kschedlearn-explorer .ks-panes-below .kschedlearn-crash-where {{ display: none; }}
/* a banner (a crash, the end of the scenario) gets two lines of its own above the narration: the
   strip grows by them and the diagram's fit shrinks by them (at 34 px the banner's second line
   lost its descenders and the narration under it was hidden) */
.kschedlearn-explorer .ks-panes-below .kschedlearn-banner-box {{ flex: 0 0 auto; max-height: {_BANNER}; overflow: hidden; }}
/* the narration's two lines (what happened, and why); a crash's third line repeats the banner */
.kschedlearn-explorer .ks-panes-below .kschedlearn-narration-box {{ max-height: 32px; overflow: hidden; }}
.kschedlearn-explorer .ks-panes-below:has(.kschedlearn-banner) {{
  --kschedlearn-fit-height: calc(var(--ks-avail) - 48px - {_STRIP} - {_BANNER}); }}
.kschedlearn-explorer .ks-panes-below:has(.kschedlearn-banner) .ks-side {{ flex-basis: calc({_STRIP} + {_BANNER}); }}
.kschedlearn-explorer .ks-panes-below:has(.kschedlearn-banner) .ks-info {{ max-height: calc(34px + {_BANNER}); }}
</style>"""


def button(label: str, tooltip: str, css: str, icon: str = "") -> widgets.Button:
    """A compact button with a CSS class (tests and the browser find it by that class)."""
    b = widgets.Button(description=label, tooltip=tooltip, icon=icon, layout=widgets.Layout(width="auto"))
    b.add_class(css)
    return b


def build_widgets(w: dict[str, Any], granularity: str, stages: list[str]) -> list[widgets.Widget]:
    """Make every control of the explorer into ``w`` (by name) and return the explorer's rows:
    the style, the toolbar, the status line, the main area (diagram and source pane), and the
    folded section below."""
    w["style"] = widgets.HTML(_STYLE, layout=widgets.Layout(height="0px", overflow="hidden", margin="0"))
    w["back"] = button("Back", "go back one stop", "kschedlearn-back", "step-backward")
    w["step"] = button("Step", "run to the next stop", "kschedlearn-step", "step-forward")
    w["play"] = widgets.Play(value=0, min=0, max=0, step=1, interval=400, show_repeat=False,
                             layout=widgets.Layout(width="auto", flex="0 0 auto"))
    w["play"].add_class("kschedlearn-play")
    w["granularity"] = widgets.Dropdown(options=STEP_GRANULARITIES, value=granularity,
                                        description="by", tooltip="step granularity",
                                        style={"description_width": "18px"},
                                        layout=widgets.Layout(width="92px", flex="0 0 auto"))
    w["timeline"] = widgets.IntSlider(value=0, min=0, max=0, readout=False, continuous_update=True,
                                      layout=widgets.Layout(flex="1 1 120px", min_width="90px", width="auto"))
    w["timeline"].add_class("kschedlearn-timeline")
    w["position"] = widgets.HTML(layout=widgets.Layout(flex="0 0 auto"))
    w["view"] = widgets.Dropdown(options=VIEW_NAMES, value=VIEW_NAMES[0], tooltip="the diagram to show",
                                 layout=widgets.Layout(width="128px", flex="0 0 auto"))
    w["view"].add_class("kschedlearn-view-choice")
    w["panes"] = widgets.Dropdown(options=PANES, value=PANES[0], tooltip="where the source pane goes",
                                  layout=widgets.Layout(width="118px", flex="0 0 auto"))
    w["panes"].add_class("kschedlearn-panes")
    w["speed"] = widgets.IntSlider(value=400, min=50, max=2000, step=50, description="ms/event",
                                   continuous_update=False, layout=widgets.Layout(width="260px"))
    w["links"] = (widgets.jslink((w["play"], "value"), (w["timeline"], "value")),
                  widgets.jslink((w["speed"], "value"), (w["play"], "interval")))
    w["bp_stage"] = widgets.Dropdown(options=stages, value="assume", description="break at")
    w["bp_add"] = button("Add breakpoint", "always stop at this stage", "kschedlearn-bp-add")
    w["bp_clear"] = button("Clear", "remove every breakpoint", "kschedlearn-bp-clear")
    w["bp_list"] = widgets.HTML()
    w["follow"] = widgets.Dropdown(options=(), description="follow pod")
    w["views"] = {name: widgets.HTML() for name in VIEW_NAMES}
    for name, view in w["views"].items():
        view.add_class(f"kschedlearn-view-{name}")
        view.add_class("kschedlearn-view")
    w["stage"] = widgets.Stack(children=[w["views"][n] for n in VIEW_NAMES], selected_index=0)
    w["stage"].add_class("ks-stage")
    w["narration"] = widgets.HTML(layout=widgets.Layout(min_width="0"))
    w["narration"].add_class("kschedlearn-narration-box")
    w["banner"] = widgets.HTML(layout=widgets.Layout(min_width="0"))
    w["banner"].add_class("kschedlearn-banner-box")
    w["source"] = widgets.HTML(layout=widgets.Layout(min_width="0"))
    w["source"].add_class("kschedlearn-source-box")
    w["trace"] = widgets.HTML()
    w["status"] = widgets.HTML()
    w["errors"] = widgets.Output(layout=widgets.Layout(max_height="200px", overflow="auto"))
    w["errors"].add_class("kschedlearn-errors")
    inject_row = _build_inject(w)
    toolbar = widgets.HBox([w["back"], w["step"], w["play"], w["granularity"], w["timeline"], w["position"],
                            w["view"], w["panes"]])
    toolbar.add_class("ks-toolbar")
    info = widgets.VBox([w["banner"], w["narration"]], layout=widgets.Layout(min_width="0"))
    info.add_class("ks-info")
    w["side"] = widgets.Box([info, w["source"]])
    w["side"].add_class("ks-side")
    w["main"] = widgets.Box([w["stage"], w["side"]])
    w["main"].add_class("ks-main")
    w["main"].add_class(_PANE_CLASS[PANES[0]])
    more = widgets.VBox([
        widgets.HBox([w["bp_stage"], w["bp_add"], w["bp_clear"], w["bp_list"]]),
        widgets.HBox([w["follow"], w["speed"]]),
        widgets.HTML("<b>Trace log</b>"), w["trace"], inject_row, w["errors"],
    ])
    w["more"] = widgets.Accordion(children=[more], titles=("breakpoints, followed pod, trace log, "
                                                           "change what happens",), selected_index=None)
    return [w["style"], toolbar, w["status"], w["main"], w["more"]]

def _build_inject(w: dict[str, Any]) -> widgets.Widget:
    w["inj_node"] = widgets.Dropdown(options=(), description="node", layout=widgets.Layout(width="200px"))
    w["inj_pod"] = widgets.Dropdown(options=(), description="pod", layout=widgets.Layout(width="240px"))
    w["inj_replica"] = widgets.Dropdown(options=(), description="replica", layout=widgets.Layout(width="220px"))
    w["inj_seconds"] = widgets.BoundedFloatText(value=31.0, min=0.0, max=3600.0, step=1.0,
                                                description="seconds", layout=widgets.Layout(width="160px"))
    w["inject"] = {
        "fail_next_bind": button("Fail next bind", "the API server refuses the next binding", "kschedlearn-inj-bind"),
        "add_node": button("Add node", "a new Ready node joins", "kschedlearn-inj-add-node"),
        "cordon": button("Cordon node", "mark the chosen node unschedulable", "kschedlearn-inj-cordon"),
        "delete_pod": button("Delete pod", "delete the chosen pod", "kschedlearn-inj-delete"),
        "drop_watch": button("Drop watch", "close the pod watches: reflectors re-watch", "kschedlearn-inj-watch"),
        "kill_scheduler": button("Kill scheduler", "kill -9 the chosen replica", "kschedlearn-inj-kill"),
        "jump_clock": button("Jump clock", "move virtual time forward", "kschedlearn-inj-clock"),
    }
    b = w["inject"]
    return widgets.VBox([
        widgets.HTML("<b>Change what happens</b> (from the cursor on; the old future is discarded)"),
        widgets.HBox([b["fail_next_bind"], b["add_node"], b["drop_watch"]]),
        widgets.HBox([w["inj_node"], b["cordon"], w["inj_pod"], b["delete_pod"]]),
        widgets.HBox([w["inj_replica"], b["kill_scheduler"], w["inj_seconds"], b["jump_clock"]]),
    ])


__all__ = ["PANES", "STEP_GRANULARITIES", "VIEW_NAMES", "build_widgets", "button"]
