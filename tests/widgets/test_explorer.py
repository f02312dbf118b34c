"""The explorer widget, driven in-kernel (no browser): buttons are clicked from Python."""

from __future__ import annotations

import base64
import re

import ipywidgets as widgets
import pytest

from kschedlearn import Simulation
from kschedlearn.simulation.simulation import TEACHING_STAGES
from kschedlearn.widgets import VIEW_NAMES, Explorer, ExplorerBox
from kschedlearn.widgets._html import inline_svg, narration, trace_log, trace_window


@pytest.fixture
def sim() -> Simulation:
    return Simulation.from_scenario("three-nodes", seed=1)


@pytest.fixture
def ex(sim: Simulation) -> Explorer:
    return Explorer(sim)


def shown_svg(ex: Explorer, view: str) -> str:
    return ex.w["views"][view].value


def expected_svg(sim: Simulation, view: str) -> str:
    return inline_svg(sim.show(view).svg())


def test_starts_the_simulation_and_shows_the_first_stop(sim: Simulation, ex: Explorer) -> None:
    assert sim.cursor >= 0
    assert sim.event.stage == "main"
    assert ex.w["timeline"].value == sim.cursor
    assert ex.w["timeline"].max == len(sim.trace) - 1
    assert shown_svg(ex, "pipeline") == expected_svg(sim, "pipeline")
    assert "main" in ex.w["narration"].value
    assert sim.event.go_ref in ex.w["narration"].value
    assert ex.last_error is None


def test_display_returns_the_box_with_a_static_svg(sim: Simulation, ex: Explorer) -> None:
    box = ex.display()
    assert isinstance(box, ExplorerBox) and isinstance(box, widgets.VBox)
    bundle = box._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert bundle["image/svg+xml"] == sim.show("pipeline").svg()
    assert "<svg" in bundle["image/svg+xml"]


def test_sim_explorer_is_the_widget(sim: Simulation) -> None:
    box = sim.explorer()
    assert isinstance(box, ExplorerBox)
    assert "kschedlearn-explorer" in box._dom_classes


def test_two_hundred_rapid_steps_stay_consistent(sim: Simulation, ex: Explorer) -> None:
    ex.w["granularity"].value = "event"
    assert sim.granularity == "event"
    step = ex.w["step"]
    for _ in range(200):
        step.click()
        assert ex.w["timeline"].value == sim.cursor
    assert ex.last_error is None
    assert sim.cursor >= 140  # really moved (the scenario has ~145 events)
    assert ex.w["timeline"].max == len(sim.trace) - 1
    assert ex.w["play"].max == ex.w["timeline"].max
    assert shown_svg(ex, "pipeline") == expected_svg(sim, "pipeline")
    assert f"event {sim.cursor} of" in ex.w["position"].value
    assert f"#{sim.event.seq} " in ex.w["narration"].value


def test_back_returns_to_the_same_picture(sim: Simulation, ex: Explorer) -> None:
    for _ in range(5):
        ex.w["step"].click()
    before, cursor = shown_svg(ex, "pipeline"), sim.cursor
    ex.w["step"].click()
    assert sim.cursor > cursor
    assert shown_svg(ex, "pipeline") != before
    renders = ex.renders
    ex.w["back"].click()
    assert sim.cursor == cursor
    assert ex.w["timeline"].value == cursor
    assert shown_svg(ex, "pipeline") == before
    assert ex.renders == renders  # came from the cache


def test_a_step_sends_the_new_diagram_before_every_other_change(sim: Simulation, ex: Explorer,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """What the browser receives for one Step, in order: the diagram first (the learner waits
    for it; ``benchmarks/bench_step_click.py``), then the rest; a slider's new range before its
    new position (the browser's slider, given both in one message, sends its old position back)."""
    sent: list[tuple[widgets.Widget, dict]] = []
    monkeypatch.setattr(widgets.Widget, "_send", lambda self, msg, buffers=None: sent.append((self, msg)))
    ex.w["step"].click()
    updates = [(w, m["state"]) for w, m in sent if m.get("method") == "update"]
    first, state = updates[0]
    assert first is ex.w["views"]["pipeline"] and "<svg" in state["value"]
    assert state["value"] == expected_svg(sim, "pipeline")
    assert sum(1 for w, _ in updates if w is ex.w["views"]["pipeline"]) == 1
    names = {id(w): name for name, w in ex.w.items() if isinstance(w, widgets.Widget)}
    changed = [names.get(id(w)) for w, _ in updates[1:]]
    assert {"timeline", "play", "position", "narration", "source", "trace"} <= set(changed)
    for name in ("timeline", "play"):
        assert [st for w, st in updates if w is ex.w[name]] == [{"max": len(sim.trace) - 1}, {"value": sim.cursor}]
    assert f"event {sim.cursor} of" in ex.w["position"].value
    assert ex.last_error is None


def test_timeline_moves_the_cursor_and_play_grows_the_history(sim: Simulation, ex: Explorer) -> None:
    for _ in range(3):
        ex.w["step"].click()
    ex.w["timeline"].value = 2
    assert sim.cursor == 2
    assert shown_svg(ex, "pipeline") == expected_svg(sim, "pipeline")
    end = len(sim.trace) - 1
    ex.w["play"].playing = True
    ex.w["timeline"].value = end  # the front end's Play reached the end of the recording
    assert sim.cursor == end
    assert len(sim.trace) - 1 > end
    assert ex.w["timeline"].max == ex.w["play"].max == len(sim.trace) - 1


def test_only_the_visible_view_is_drawn_and_views_draw_on_selection(sim: Simulation, ex: Explorer) -> None:
    ex.w["step"].click()
    assert shown_svg(ex, "startup") == ""
    ex.w["view"].value = "startup"
    assert ex.current_view == "startup" and ex.w["stage"].selected_index == VIEW_NAMES.index("startup")
    assert shown_svg(ex, "startup") == expected_svg(sim, "startup")
    ex.w["step"].click()
    assert shown_svg(ex, "startup") == expected_svg(sim, "startup")
    assert ex.box._repr_mimebundle_()["image/svg+xml"] == sim.show("startup").svg()


@pytest.mark.parametrize("view", VIEW_NAMES)
def test_every_view_renders(sim: Simulation, ex: Explorer, view: str) -> None:
    sim.run_until("bind")
    ex.refresh()
    ex.w["view"].value = view
    assert "<svg" in shown_svg(ex, view)
    assert ex.last_error is None


def test_breakpoint_chooser_offers_the_teaching_stages(sim: Simulation, ex: Explorer) -> None:
    assert set(ex.w["bp_stage"].options) == set(TEACHING_STAGES)
    ex.w["bp_stage"].value = "bind"
    ex.w["bp_add"].click()
    assert [bp.stage for bp in sim.breakpoints] == ["bind"]
    assert "bind" in ex.w["bp_list"].value
    ex.w["bp_clear"].click()
    assert sim.breakpoints == []


def test_pod_granularity_follows_the_picked_pod(sim: Simulation, ex: Explorer) -> None:
    sim.run_until("bind")
    ex.refresh()
    assert "default/web-1" in ex.w["follow"].options
    ex.w["follow"].value = "default/db-0"
    assert sim.follow == "default/db-0"
    ex.w["follow"].value = "default/web-1"
    ex.w["granularity"].value = "pod"
    ex.w["step"].click()
    assert ex.last_error is None
    assert "default/web-1" in (sim.event.data.get("pod"), sim.event.data.get("key"))


def test_errors_in_callbacks_show_in_the_widget(sim: Simulation, ex: Explorer) -> None:
    sim.follow = ""
    ex.w["granularity"].value = "pod"
    ex.w["step"].click()
    assert ex.last_error is not None
    assert "follow" in str(ex.last_error)
    assert "kschedlearn-error" in ex.w["status"].value
    assert any("SimulationError" in out.get("text", "") for out in ex.w["errors"].outputs)


def test_empty_choice_is_a_clear_error(sim: Simulation, ex: Explorer) -> None:
    ex.w["inj_replica"].options = ()
    ex.w["inject"]["kill_scheduler"].click()
    assert isinstance(ex.last_error, ValueError)
    assert "replica" in str(ex.last_error)


@pytest.mark.parametrize("button", ["fail_next_bind", "add_node", "cordon", "delete_pod", "drop_watch",
                                    "kill_scheduler", "jump_clock"])
def test_inject_buttons_fork_the_history(sim: Simulation, ex: Explorer, button: str) -> None:
    sim.run_until("bind")
    ex.refresh()
    ex.w["inject"][button].click()
    assert ex.last_error is None, ex.last_error
    assert sim.event.stage == "inject"
    assert ex.w["timeline"].value == sim.cursor == len(sim.trace) - 1
    assert shown_svg(ex, "pipeline") == expected_svg(sim, "pipeline")


def test_inject_in_the_past_discards_the_old_future(sim: Simulation, ex: Explorer) -> None:
    for _ in range(30):
        ex.w["step"].click()
    ex.w["timeline"].value = 20
    old_len = len(sim.trace)
    ex.w["inject"]["jump_clock"].click()
    assert ex.last_error is None
    assert sim.cursor == len(sim.trace) - 1 < old_len
    assert ex.w["timeline"].max == sim.cursor
    assert shown_svg(ex, "pipeline") == expected_svg(sim, "pipeline")


def test_add_node_picks_a_fresh_name(sim: Simulation, ex: Explorer) -> None:
    ex.w["inject"]["add_node"].click()
    assert sim.event.stage == "inject"
    for _ in range(20):
        ex.w["step"].click()
    assert "node-4" in ex.w["inj_node"].options


def test_narration_and_trace_log_helpers(sim: Simulation) -> None:
    assert "press Step" in narration(None)
    sim.start()
    text = narration(sim.event, finished=True)
    assert sim.event.why in text and "run to its end" in text
    assert 'href="https://github.com/kubernetes/kubernetes/blob/v1.6.1/' in text
    assert list(trace_window(100, 50, 12)) == list(range(42, 54))
    assert list(trace_window(5, 4, 12)) == list(range(0, 5))
    assert list(trace_window(0, -1, 12)) == []
    log = trace_log(sim.trace, sim.cursor, 4)
    assert log.count("<tr") == 5  # header + 4 rows
    assert "background:#fff3b0" in log
    assert inline_svg('<?xml version="1.0"?>\n<svg a="1"></svg>').count("<?xml") == 0


def test_saved_output_converts_to_html_with_the_diagram(sim: Simulation, ex: Explorer) -> None:
    """A notebook saved without widget state still shows the diagram once converted (nbconvert)."""
    nbformat = pytest.importorskip("nbformat")
    nbconvert = pytest.importorskip("nbconvert")
    bundle = ex.display()._repr_mimebundle_()
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("sim.explorer()", execution_count=1)
    cell.outputs = [nbformat.v4.new_output("execute_result", data=bundle, execution_count=1)]
    nb.cells = [cell]
    body, _ = nbconvert.HTMLExporter().from_notebook_node(nb)
    images = [base64.b64decode(m).decode("utf-8")
              for m in re.findall(r' src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)"', body)]
    assert sim.show("pipeline").svg() in images
    assert any("pipeline — t=" in svg for svg in images)  # the drawing's caption


def test_a_thinned_history_is_said_so() -> None:
    from kschedlearn.widgets.explorer import Explorer

    thin = Simulation.from_scenario("three-nodes", seed=1, record="stage", snapshot_every=3)
    view = Explorer(thin)
    thin.start()
    thin.step("stage")
    view.refresh()
    assert "thinned: recorded at stage granularity" in view.w["position"].value
    assert all(e.stage != "schedule.predicate_node" and e.stage != "log" for e in thin.trace)
    full = Simulation.from_scenario("three-nodes", seed=1)
    full.start()
    assert full.thinning_note() == ""
    # snapshots every 3 events: a cursor between two of them says which state the views show
    at = next(i for i, e in enumerate(thin.trace) if e.snapshot is None)
    thin.goto(at)
    assert f"the views show the state at event {at - at % 3}" in thin.thinning_note()


def test_the_source_pane_goes_below_beside_or_nowhere(ex: Explorer) -> None:
    """The panes control only swaps the main area's layout class (CSS does the rest)."""
    main = ex.w["main"]
    assert "ks-panes-below" in main._dom_classes
    for choice, cls in (("source beside", "ks-panes-beside"), ("diagram only", "ks-panes-hidden"),
                        ("source below", "ks-panes-below")):
        ex.w["panes"].value = choice
        assert cls in main._dom_classes
        assert sum(c.startswith("ks-panes-") for c in main._dom_classes) == 1
    assert ex.last_error is None


def test_one_toolbar_row_holds_the_controls(ex: Explorer) -> None:
    toolbar = next(c for c in ex.box.children if "ks-toolbar" in c._dom_classes)
    for name in ("back", "step", "play", "granularity", "timeline", "position", "view", "panes"):
        assert ex.w[name] in toolbar.children, name


def test_an_on_demand_simulation_shows_what_teaching_mode_shows() -> None:
    """``snapshots="on-demand"``: the same clicks draw the same diagrams as teaching mode, each
    snapshot built by the twin world when the explorer first shows its event."""
    eager, lazy = (Simulation.from_scenario("three-nodes", seed=1, snapshots=mode) for mode in (True, "on-demand"))
    explorers = [Explorer(eager), Explorer(lazy)]
    for ex in explorers:
        ex.w["granularity"].value = "event"
        for _ in range(40):
            ex.w["step"].click()
        ex.w["timeline"].value = 20
    assert [ex.last_error for ex in explorers] == [None, None]
    assert lazy.cursor == eager.cursor == 20
    for view in VIEW_NAMES:
        explorers[0].w["view"].value = explorers[1].w["view"].value = view
        assert shown_svg(explorers[1], view) == shown_svg(explorers[0], view), view
    for ex in explorers:
        ex.w["inject"]["jump_clock"].click()  # in the past: a fork discards the twin's future too
    assert [ex.last_error for ex in explorers] == [None, None]
    # (a new twin replayed the new past, the change included, up to the event shown)
    assert lazy.cursor == len(lazy.trace) - 1 and len(lazy._twin.world.tracer.events) == len(lazy.trace)
    assert shown_svg(explorers[1], "pipeline") == shown_svg(explorers[0], "pipeline")
