"""The explorer's source pane (Python Tutor's code pane) and its banner: crashes, the end."""

from __future__ import annotations

import re
import warnings

from kschedlearn import Simulation
from kschedlearn.widgets.explorer import Explorer

GO = "https://github.com/kubernetes/kubernetes/blob/v1.6.1/"


def _current_lines(pane: str) -> list[str]:
    return re.findall(r'class="kschedlearn-source-current"[^>]*>(.*?)</span>(?=<span class="kschedlearn-source|</pre>)',
                      pane)


def _explorer_at(stage: str) -> Explorer:
    sim = Simulation.from_scenario("three-nodes", seed=1)
    sim.run_until(stage)
    return Explorer(sim)


def test_source_pane_at_assume_shows_the_assume_call_with_one_current_line_and_the_go_link():
    ex = _explorer_at("assume")
    pane = ex.w["source"].value
    # the trace point stands at scheduleOne's call of AssumePod, which has just returned
    assert "Scheduler.schedule_one" in pane and "kschedlearn/scheduler/scheduler.py" in pane
    assert "schedulerCache.AssumePod has just returned here" in pane
    (current,) = _current_lines(pane)
    assert "self.config.scheduler_cache.assume_pod(assumed)" in current
    link = re.search(r'<a class="kschedlearn-source-go" href="([^"]+)" target="_blank"', pane)
    assert link and link.group(1) == GO + "plugin/pkg/scheduler/scheduler.go#L148-L225"
    assert 'class="kschedlearn-go"' in pane  # the Go half (its text, or why it is not reachable)


def test_source_pane_follows_step_back_and_jump():
    ex = _explorer_at("assume")
    sim = ex.sim
    at_assume = ex.w["source"].value
    ex.w["back"].click()
    assert ex.w["source"].value != at_assume and sim.where().python_function in ex.w["source"].value
    ex.w["step"].click()
    assert ex.w["source"].value == at_assume
    select = next(ev.seq for ev in sim.trace if ev.stage == "selectHost")
    ex.w["timeline"].value = select
    assert "genericScheduler.selectHost has just returned here" in ex.w["source"].value
    assert len(_current_lines(ex.w["source"].value)) == 1
    assert ex.last_error is None


def test_a_long_function_shows_a_window_around_the_current_line():
    ex = _explorer_at("scheduleOne.pop")
    pane = ex.w["source"].value
    loc = ex.sim.where()
    assert len(loc.source()) > 30  # schedule_one is long
    assert "kschedlearn-source-gap" in pane and len(_current_lines(pane)) == 1
    assert f"{loc.python_line:5d}  " in pane


def test_saved_output_has_the_source_pane_in_static_html():
    ex = _explorer_at("assume")
    bundle = ex.box._repr_mimebundle_()
    page = bundle["text/html"]
    assert 'src="data:image/svg+xml;base64,' in page and "Scheduler.schedule_one" in page and len(_current_lines(page)) == 1
    assert 'target="_blank"' in page
    assert "<svg" in bundle["image/svg+xml"]


def test_a_crash_shows_a_banner_at_its_step_and_no_warning():
    sim = Simulation.from_scenario("bad-policy")
    ex = Explorer(sim)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the explorer must not leak the crash as a warning
        while sim.event.stage != "process.crash":
            ex.w["step"].click()
            assert ex.last_error is None
    text = ex.w["banner"].value
    assert "kschedlearn-crash" in text and "scheduler-0 crashed here" in text
    assert "FatalError: Invalid configuration: Predicate type not found for PodFitsResourcez" in text
    assert "register_custom_fit_predicate" in ex.w["source"].value  # where it raised
    ex.w["step"].click()
    assert "kschedlearn-crashed" in ex.w["banner"].value and "crashed here" not in ex.w["banner"].value
    ex.w["timeline"].value = 0
    assert "crashed" not in ex.w["banner"].value


def test_stepping_past_the_end_says_the_scenario_has_ended():
    sim = Simulation.from_scenario("three-nodes", seed=1)
    ex = Explorer(sim)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for _ in range(60):
            ex.w["step"].click()
        assert ex.last_error is None
    last = sim.trace[-1]
    assert sim.finished and sim.cursor == last.seq
    assert f"the scenario has ended at event {last.seq} (t={last.time:g}s)" in ex.w["banner"].value
    ex.w["back"].click()
    assert "has ended" not in ex.w["banner"].value
