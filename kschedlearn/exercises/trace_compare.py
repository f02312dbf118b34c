"""Stage-for-stage comparison of a scenario run with the learner's code against the real run.

Go: none — kschedlearn-only (DESIGN §10). The capstone exercises (8.2 ``scheduleOne``) are
judged not only by where pods end up but by the *trace*: every recorded stage (``log`` lines
left out) of the learner's run must match the reference run's, in order — its virtual time,
process, stage, message, and whether it ran on the scheduleOne loop goroutine or on another
one (which is how a bind that should be in a goroutine but is not gets caught). The first
divergence is reported with both events and the pipeline view of both runs at that point.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

import attrs

from kschedlearn.exercises.framework import TimeLimitExceeded, time_limit

LOOP_GOROUTINE = "scheduler.scheduleOne loop"


@attrs.frozen
class StageStep:
    """One trace event reduced to what the comparison looks at."""

    seq: int
    time: float
    process: str
    stage: str
    message: str
    on_loop: bool

    @property
    def key(self) -> tuple[Any, ...]:
        return (round(self.time, 6), self.process, self.stage, self.message, self.on_loop)

    def describe(self) -> str:
        where = "on the scheduleOne loop goroutine" if self.on_loop else "on another goroutine"
        return f"t={self.time:g}s {self.process}: [{self.stage}] {self.message} ({where})"


def steps_of(trace: list[Any]) -> tuple[StageStep, ...]:
    """The trace's stages in order, without log lines."""
    return tuple(StageStep(e.seq, e.time, e.process, e.stage, e.message, e.goroutine == LOOP_GOROUTINE)
                 for e in trace if e.stage != "log")


@attrs.frozen
class Divergence:
    """Where the learner's run first left the reference run (``index`` into the stage lists)."""

    index: int
    expected: StageStep | None
    got: StageStep | None
    reference_snapshot: Any = attrs.field(default=None, eq=False, repr=False)
    learner_snapshot: Any = attrs.field(default=None, eq=False, repr=False)

    @property
    def stage(self) -> str:
        return (self.expected or self.got).stage if (self.expected or self.got) else ""

    def explain(self) -> str:
        exp = self.expected.describe() if self.expected else "(the real run had ended)"
        got = self.got.describe() if self.got else "(your run had ended)"
        text = f"first divergence at stage #{self.index} [{self.stage}]: expected {exp}; got {got}"
        if (self.expected and self.got and self.expected.stage == self.got.stage
                and self.expected.on_loop != self.got.on_loop):
            text += (". The step ran on the wrong goroutine: scheduleOne must start the bind in its own "
                     "goroutine (sim.go) so the loop can pop the next pod while the API call is in flight")
        return text


@attrs.frozen
class ScenarioTrace:
    """One scenario's stage-by-stage comparison."""

    scenario: str
    reference_stages: int
    learner_stages: int
    divergence: Divergence | None
    error: str = ""
    confirmed: tuple[int, int] = (0, 0)
    """(real run, learner's run): how often cache.addPod confirmed an assumed pod."""

    @property
    def same(self) -> bool:
        return not self.error and self.divergence is None

    def summary(self) -> str:
        if self.error:
            return f"{self.scenario}: {self.error}"
        if self.divergence is None:
            return f"{self.scenario}: all {self.reference_stages} stages match the real run"
        text = f"{self.scenario}: {self.divergence.explain()}"
        if self.confirmed[0] != self.confirmed[1]:
            text += (f"; the scheduler cache confirmed {self.confirmed[0]} assumed pod(s) in the real run, "
                     f"{self.confirmed[1]} in yours")
        return text


def first_divergence(ref: tuple[StageStep, ...], mine: tuple[StageStep, ...]) -> int | None:
    """Index of the first differing stage, or None if the runs match stage for stage."""
    for i in range(max(len(ref), len(mine))):
        a = ref[i] if i < len(ref) else None
        b = mine[i] if i < len(mine) else None
        if a is None or b is None or a.key != b.key:
            return i
    return None


def confirmations(steps: tuple[StageStep, ...]) -> int:
    """How many times ``cache.addPod`` confirmed an assumed pod (the informer closing the loop)."""
    return sum(1 for s in steps if s.stage == "cache.addPod" and "confirm the assumed pod" in s.message)


def snapshot_at(trace: list[Any], seq: int | None) -> Any:
    if seq is None:
        return None
    found = None
    for e in trace:
        if e.seq > seq:
            break
        if e.snapshot is not None:
            found = e.snapshot
    return found


def _run(scenario: str, seed: int) -> Any:
    from kschedlearn import Simulation

    sim = Simulation.from_scenario(scenario, seed=seed, snapshots=True)
    sim.run()
    return sim


def compare_scenario(scenario: str, patch: Callable[[], Any], *, seed: int = 1,
                     seconds: float = 60.0) -> tuple[ScenarioTrace, Any, Any]:
    """Run ``scenario`` for real and with ``patch()`` active; return the comparison and both sims."""
    reference = _run(scenario, seed)
    ref_steps = steps_of(reference.trace)
    label = scenario
    if scenario.endswith((".yaml", ".yml")):  # a scenario file (e.g. an exercise's own): show its name
        label = reference.scenario.name
    try:
        with time_limit(seconds), patch():
            learner = _run(scenario, seed)
    except TimeLimitExceeded:
        return ScenarioTrace(label, len(ref_steps), 0, None,
                             f"your function made the scenario run longer than {seconds:g} s of wall time"), reference, None
    except Exception as err:  # noqa: BLE001 - reported, never re-raised into the notebook
        return ScenarioTrace(label, len(ref_steps), 0, None,
                             f"the run failed: {type(err).__name__}: {err}"), reference, None
    mine = steps_of(learner.trace)
    index = first_divergence(ref_steps, mine)
    divergence = None
    if index is not None:
        a = ref_steps[index] if index < len(ref_steps) else None
        b = mine[index] if index < len(mine) else None
        divergence = Divergence(index, a, b, snapshot_at(reference.trace, a.seq if a else None),
                                snapshot_at(learner.trace, b.seq if b else None))
    confirmed = (confirmations(ref_steps), confirmations(mine))
    return ScenarioTrace(label, len(ref_steps), len(mine), divergence, confirmed=confirmed), reference, learner


def pipeline_svg(snapshot: Any, follow: str | None) -> str:
    """The pipeline view of ``snapshot`` as SVG (a text note if no renderer is available)."""
    from kschedlearn import viz
    from kschedlearn.viz.render import RenderUnavailable

    try:
        return viz.show("pipeline", snapshot, None, follow_pod=follow).svg()
    except RenderUnavailable as err:
        return f"<pre>(pipeline view unavailable: {html.escape(str(err))})</pre>"


__all__ = ["Divergence", "ScenarioTrace", "StageStep", "compare_scenario", "confirmations", "first_divergence",
           "pipeline_svg", "snapshot_at", "steps_of"]
