"""The mastery check: an unseen cluster from a seed, questions across the course, a score.

Go: none — kschedlearn-only (issue 22 item 3). ``mastery_check(seed)`` generates the seed's two
scenarios (:mod:`kschedlearn.curriculum.mastery_scenario`), runs each once, and poses the
questions of :mod:`kschedlearn.curriculum.mastery_questions` about those runs: start-up order,
which queue holds a pod, which node wins and why, a rejected node, a 1.6 quirk, back-off times,
a refused binding, expiry and the late confirmation, the two pod watches, the leader after a
kill. ``score(answers)`` marks them; each wrong or unanswered one lists its objectives to revisit
with a link to the notebook that teaches it. A re-rolled seed is a different cluster.

The widget (``kschedlearn.widgets.mastery``) records a scored attempt in the learner's progress
(kind ``mastery``); this module only computes.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

import attrs

from kschedlearn.curriculum import catalog
from kschedlearn.curriculum.mastery_questions import FAILOVER, JOURNEY, Asked
from kschedlearn.curriculum.mastery_scenario import Roles, failover, journey
from kschedlearn.simulation.questions import Question, QuestionError
from kschedlearn.simulation.simulation import Simulation

PASS_PERCENT = 80
"""The score that counts as a pass in the progress record."""


@attrs.frozen
class Revisit:
    """An objective to go back to, with where it is taught."""

    objective: str
    text: str
    unit: str
    notebook: str
    topics: tuple[str, ...]

    @property
    def link(self) -> str:
        return f"{self.notebook}.ipynb"


@attrs.frozen
class Score:
    """How an attempt went: right / total, the percentage, and what to revisit."""

    seed: int
    right: int
    total: int
    marks: tuple[bool, ...]
    revisit: tuple[Revisit, ...]

    @property
    def percent(self) -> int:
        return round(100 * self.right / self.total) if self.total else 0

    @property
    def passed(self) -> bool:
        return self.percent >= PASS_PERCENT

    def __str__(self) -> str:
        lines = [f"Mastery check, seed {self.seed}: {self.right}/{self.total} right ({self.percent}%)."]
        if self.revisit:
            lines.append("Revisit:")
            lines += [f"  {r.objective} {r.text} — {r.link} ({', '.join(r.topics)})" for r in self.revisit]
        return "\n".join(lines)


@attrs.define(eq=False)
class MasteryCheck:
    """The questions of one seed, and the two runs they were read from."""

    seed: int
    asked: tuple[Asked, ...]
    runs: dict[str, Simulation] = attrs.field(repr=False)
    roles: Roles = attrs.field(repr=False)

    @property
    def questions(self) -> tuple[Question, ...]:
        return tuple(a.question for a in self.asked)

    def score(self, answers: Sequence[str | None] | Mapping[int, str | None]) -> Score:
        """Mark ``answers`` (one per question, in order, or by index; None or missing = wrong)."""
        given = dict(answers) if isinstance(answers, Mapping) else dict(enumerate(answers))
        for i, choice in given.items():
            if not isinstance(i, int) or not 0 <= i < len(self.asked):
                raise ValueError(f"mastery answers: question number {i!r} is not 0..{len(self.asked) - 1}")
            q = self.asked[i].question
            if choice is not None and choice not in q.choices:
                raise ValueError(f"mastery answers: {choice!r} is not a choice of question {i + 1}; "
                                 f"choose one of {list(q.choices)}")
        marks = tuple(given.get(i) == a.question.answer for i, a in enumerate(self.asked))
        return Score(self.seed, sum(marks), len(marks), marks, _revisit(self.asked, marks))

    def simulation(self, i: int) -> Simulation:
        """A fresh simulation of question ``i``'s run, at the event where its answer shows."""
        a = self.asked[i]
        sim = Simulation(scenario=self.runs[a.run].scenario, seed=self.seed)
        if a.question.event is not None:
            sim.goto(a.question.event)
        return sim


def _revisit(asked: Sequence[Asked], marks: Sequence[bool]) -> tuple[Revisit, ...]:
    topics: dict[str, list[str]] = {}
    for a, ok in zip(asked, marks):
        if not ok:
            for key in a.objectives:
                topics.setdefault(key, []).append(a.topic)
    out = []
    for key, what in topics.items():
        o = catalog.objective(key)
        u = catalog.unit(o.unit)
        out.append(Revisit(key, o.text, u.key, u.notebook, tuple(dict.fromkeys(what))))
    return tuple(sorted(out, key=lambda r: (_unit_order(r.unit), r.objective)))


def _unit_order(key: str) -> int:
    return [u.key for u in catalog.units()].index(key)


def mastery_check(seed: int = 1) -> MasteryCheck:
    """Generate the seed's scenarios, run them, and pose every question about the runs."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"mastery_check(seed): seed must be a whole number, got {seed!r}")
    scenario, roles = journey(seed)
    trip = Simulation(scenario=scenario, seed=seed)
    trip.run()
    ha_scenario, killed = failover(seed)
    ha = Simulation(scenario=ha_scenario, seed=seed)
    ha.run()
    rng = random.Random(seed)
    asked = []
    for topic, objectives, build in JOURNEY:
        asked.append(Asked(topic, objectives, _posed(build, trip, roles, rng, topic), "journey"))
    for topic, objectives, build_ha in FAILOVER:
        asked.append(Asked(topic, objectives, _posed(build_ha, ha, killed, rng, topic), "failover"))
    return MasteryCheck(seed, tuple(asked), {"journey": trip, "failover": ha}, roles)


def _posed(build: object, sim: Simulation, about: object, rng: random.Random, topic: str) -> Question:
    try:
        return build(sim, about, rng)  # type: ignore[operator]
    except (QuestionError, StopIteration, IndexError, KeyError) as err:
        # a generated scenario that does not show what a question needs is a generator bug
        raise QuestionError(f"mastery check, seed {sim.seed}: cannot ask about {topic} "
                            f"({type(err).__name__}: {err})") from err


def objectives_covered() -> tuple[str, ...]:
    """Every objective the mastery check asks about (in course order)."""
    keys = dict.fromkeys(k for _, objs, _ in (*JOURNEY, *FAILOVER) for k in objs)
    return tuple(sorted(keys, key=lambda k: (_unit_order(k.split(".")[0]), k)))


__all__ = ["MasteryCheck", "PASS_PERCENT", "Revisit", "Score", "mastery_check", "objectives_covered"]
