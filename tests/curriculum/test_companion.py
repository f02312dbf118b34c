"""The seed article's companion (notebook 16): every function it names is a stop that
``run_until`` reaches; every term it maps resolves in a live run; it names only known stops.

Go: none — kschedlearn-only (issue 22 item 6, "must show"; the notebook itself runs headless in
``tests/notebooks/test_notebooks.py``).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kschedlearn import Simulation
from kschedlearn.curriculum import companion

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "notebooks" / "src" / "16-reading-the-seed-article.py"


@pytest.fixture(scope="module")
def run() -> Simulation:
    sim = Simulation.from_scenario("three-nodes", seed=1)
    sim.run_until(lambda e: e.time >= 3)
    return sim


def _named_stops() -> list[str]:
    text = SOURCE.read_text(encoding="utf-8")
    named = re.findall(r'step_here\(sim, "([^"]+)"\)', text)
    for group in re.findall(r"step_through\(sim, \[([^\]]+)\]\)", text):
        named += re.findall(r'"([^"]+)"', group)
    return named


def test_the_notebook_names_every_stop_of_the_article_and_no_other() -> None:
    named = _named_stops()
    assert set(named) == {s.stage for s in companion.STOPS}
    assert len(named) == len(set(named))


@pytest.mark.parametrize("stop", companion.STOPS, ids=[s.stage for s in companion.STOPS])
def test_every_stop_is_reached_by_run_until(stop: companion.Stop, run: Simulation) -> None:
    hits = [e for e in run.trace if e.stage == stop.stage]
    assert hits, f"{stop.go_symbol}: no {stop.stage!r} event in three-nodes"
    fresh = Simulation.from_scenario("three-nodes", seed=1)
    ev = fresh.run_until(stop.stage)
    assert ev is not None and ev.stage == stop.stage and ev.seq == hits[0].seq


def test_start_up_stops_come_in_the_order_the_article_shows_them_run(run: Simulation) -> None:
    first = {e.stage: e.seq for e in reversed(run.trace)}
    startup = [s.stage for s in companion.STOPS if s.section == "二"]
    # the article's own order, except where 1.6 runs things earlier than the article tells them
    assert first["main"] < first["NewSchedulerServer"] < first["Run"] < first["createScheduler"]
    assert first["NewConfigFactory"] < first["NewIndexerInformer"] < first["ConfigFactory.Run"]
    assert first["ConfigFactory.Run"] < first["informerFactory.Start"] < first["Scheduler.Run"]
    assert all(stage in first for stage in startup)


def test_step_here_shows_the_source_pane_on_that_function(run: Simulation) -> None:
    view = companion.step_here(run, "NewIndexerInformer")
    assert view.event.stage == "NewIndexerInformer" and view.location is not None
    page = view._repr_html_()
    assert "kschedlearn-source-current" in page and "kschedlearn-source-go" in page
    assert "NewDeltaFIFO" in view.note or "DeltaFIFO" in view.note
    back = companion.step_here(run, "main")  # backwards works too (goto)
    assert back.event.stage == "main" and run.event.stage == "main"


def test_every_term_resolves_in_a_live_run(run: Simulation) -> None:
    table = companion.terms_table(run)
    assert len(table.rows) == len(companion.TERMS)
    kinds = dict((t.python, kind) for t, kind in table.rows)
    assert kinds["factory.pod_queue"] == "FIFO"
    assert kinds["factory.scheduled_pod_populator.config.queue"] == "DeltaFIFO"
    assert "`" not in table._repr_html_()
