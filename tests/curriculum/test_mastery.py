"""The mastery check: an unseen, seeded cluster; all right is 100 %, all wrong 0 % with every
objective to revisit; a re-rolled seed is another cluster; the truths come from the simulator.

Go: none — kschedlearn-only (issue 22 item 3, "must show").
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kschedlearn import Simulation
from kschedlearn.curriculum import catalog, progress
from kschedlearn.curriculum.mastery import mastery_check, objectives_covered
from kschedlearn.curriculum.mastery_scenario import failover, journey
from kschedlearn.widgets.mastery import ACTIVITY, MasteryWidget


@pytest.fixture(scope="module")
def widget() -> MasteryWidget:
    return MasteryWidget(seed=1)


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(progress.ENV_VAR, str(tmp_path))
    return tmp_path


def test_at_least_twelve_questions_spanning_the_course(widget: MasteryWidget) -> None:
    asked = widget.check.asked
    assert len(asked) >= 12
    topics = {a.topic for a in asked}
    for needed in ("start-up order", "which queue holds the pod", "which node wins", "why that node wins",
                   "expiry of an assumed pod", "cache state after expiry", "back-off times", "leader after a kill",
                   "what a quirk does"):
        assert needed in topics
    units = {catalog.objective(k).unit for a in asked for k in a.objectives}
    assert len(units) >= 9  # from the tour to leader election


def test_all_right_is_100_percent_and_recorded(widget: MasteryWidget, data_dir: Path) -> None:
    for i, q in enumerate(widget.check.questions):
        widget.answer(i, q.answer)
    score = widget.submit()
    assert score.percent == 100 and score.revisit == () and score.passed
    assert "Nothing to revisit" in widget.result.value
    assert all("✓" in v.value for v in widget._verdicts)
    rec = progress.store().get("mastery", ACTIVITY)
    assert rec is not None and rec.passed and "100%" in rec.detail


def test_all_wrong_is_0_percent_and_lists_every_objective(widget: MasteryWidget, data_dir: Path) -> None:
    for i, q in enumerate(widget.check.questions):
        widget.answer(i, next(c for c in q.choices if c != q.answer))
    score = widget.submit()
    assert score.percent == 0 and not score.passed
    assert {r.objective for r in score.revisit} == set(objectives_covered())
    for r in score.revisit:  # linked to its notebook and objective
        assert f'href="{r.notebook}.ipynb"' in widget.result.value and r.objective in widget.result.value
        assert r.notebook == catalog.unit(r.unit).notebook and r.text == catalog.objective(r.objective).text
    assert progress.store().get("mastery", ACTIVITY).passed is False
    assert "`" not in widget.result.value  # Markdown rendered


def test_unanswered_counts_as_wrong_and_a_foreign_choice_is_refused() -> None:
    check = mastery_check(2)
    assert check.score([]).percent == 0
    with pytest.raises(ValueError, match="is not a choice of question 1"):
        check.score(["no such answer"])
    with pytest.raises(ValueError, match="seed must be a whole number"):
        mastery_check("1")  # type: ignore[arg-type]


def test_a_rerolled_seed_is_another_cluster() -> None:
    w = MasteryWidget(seed=3)
    before_nodes, before = w.check.roles.nodes, [q.prompt for q in w.check.questions]
    w.reroll()
    assert w.check.seed == 4 and w.check.roles.nodes != before_nodes
    assert [q.prompt for q in w.check.questions] != before
    assert all(r.value is None for r in w._radios)


@pytest.mark.parametrize("seed", [1, 7])
def test_the_truths_come_from_the_simulator(seed: int) -> None:
    """Answers re-derived from independent runs of the seed's generated scenarios."""
    check = mastery_check(seed)
    by_topic = {a.topic: a.question for a in check.asked}
    scenario, roles = journey(seed)
    sim = Simulation(scenario=scenario, seed=seed)
    sim.run()
    pick = next(e for e in sim.trace if e.stage == "selectHost" and e.data.get("pod") == roles.follow)
    assert by_topic["which node wins"].answer == pick.data["host"]
    expired = next(e for e in sim.trace if e.stage == "expirePod" and e.data.get("pod") == roles.expires)
    assert by_topic["expiry of an assumed pod"].answer == f"t={expired.time:g}s"
    bound = next(e for e in sim.trace if e.stage == "apiserver.bind" and e.data.get("pod") == roles.big_pod)
    assert by_topic["when a waiting pod is retried"].answer == f"t={bound.time:g}s"
    ha_scenario, killed = failover(seed)
    ha = Simulation(scenario=ha_scenario, seed=seed)
    ha.run()
    t = float(by_topic["leader after a kill"].prompt.split("leader at t=")[1].split("s?")[0])
    holder = [e for e in ha.trace if e.time <= t and e.snapshot is not None and e.snapshot.leader][-1].snapshot.leader.holder
    assert by_topic["leader after a kill"].answer == holder
    assert killed not in by_topic["who schedules after a kill"].answer


def test_the_saved_notebook_shows_the_questions_not_the_answers(widget: MasteryWidget) -> None:
    fresh = MasteryWidget(seed=1)
    html = fresh._repr_mimebundle_()["text/html"]
    assert all(q.prompt.split("`")[0][:30] in html for q in fresh.check.questions)
    assert "The simulator says" not in html and "Run the notebook to answer" in html
