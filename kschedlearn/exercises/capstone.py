"""The capstone plug-in: run whole scenarios on the learner's code, compare every trace stage.

Go: none — kschedlearn-only (DESIGN §10). ``plug_in_scenario("8.2", schedule_one)`` runs the
guided tour (three-nodes), bind-failure and assume-expiry: the real scheduler, the reference
function plugged in, and the learner's (in a sandbox child, ``plugged_runs``) — and reports,
per scenario, either "all N stages match" or the first divergence (stage, event, expected vs
got) with the pipeline view of both runs at that moment. Placements, events and crashes are
compared too (``Outcome``), and the learner's function call by call with the reference
(``calls``): "same" needs all three.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

import attrs

from kschedlearn.exercises.calls import CallComparison, compare_calls
from kschedlearn.exercises.plugged_runs import Outcome, learner_run, outcome_of, reference_run, run_scenario
from kschedlearn.exercises.registry import get_task
from kschedlearn.exercises.scenario_plugin import baseline_of, label_of
from kschedlearn.exercises.trace_compare import (
    Divergence, ScenarioTrace, StageStep, confirmations, first_divergence, pipeline_svg, snapshot_at, steps_of,
)


@attrs.frozen
class CapstoneScenario:
    """One scenario: the stage comparison and both runs' outcomes."""

    trace: ScenarioTrace
    reference: Outcome
    learner: Outcome
    follow: str = ""
    calls: CallComparison | None = None
    notes: tuple[str, ...] = ()
    real: Outcome | None = None
    """1.6's own outcome, when the baseline is a fixed reference (task 11.1)."""

    @property
    def same(self) -> bool:
        return (self.trace.same and self.learner.same_as(self.reference)
                and self.calls is not None and self.calls.same)

    @property
    def changed_pods(self) -> tuple[tuple[str, str, str], ...]:
        ref, mine = dict(self.reference.placements), dict(self.learner.placements)
        return tuple((p, ref.get(p, ""), mine.get(p, "")) for p in sorted(set(ref) | set(mine))
                     if ref.get(p, "") != mine.get(p, ""))


@attrs.frozen
class CapstoneReport:
    """Every scenario's comparison; Jupyter shows a table and the pipeline views at divergences."""

    task_id: str
    scenarios: tuple[CapstoneScenario, ...]
    baseline: str = "the real scheduler"

    @property
    def same(self) -> bool:
        return all(s.same for s in self.scenarios)

    @property
    def error(self) -> str:
        return "; ".join(f"{s.trace.scenario}: {s.trace.error}" for s in self.scenarios if s.trace.error)

    @property
    def scenario(self) -> str:
        return ", ".join(s.trace.scenario for s in self.scenarios)

    @property
    def reference(self) -> Outcome:
        """The first scenario's reference outcome (the guided tour)."""
        return self.scenarios[0].reference

    @property
    def learner(self) -> Outcome:
        return self.scenarios[0].learner

    @property
    def changed_pods(self) -> tuple[tuple[str, str, str], ...]:
        return tuple(c for s in self.scenarios for c in s.changed_pods)

    @property
    def first_divergence(self) -> Any:
        """The first scenario's first divergence (None if every scenario matched stage for stage)."""
        for s in self.scenarios:
            if s.trace.divergence is not None:
                return s.trace.divergence
        return None

    @property
    def calls(self) -> int:
        """How many times the learner's function was called (or what it made was used), in all."""
        return sum(s.calls.calls for s in self.scenarios if s.calls is not None)

    def summary(self) -> str:
        if self.same:
            total = sum(s.trace.reference_stages for s in self.scenarios)
            return (f"task {self.task_id}: your code reproduces {len(self.scenarios)} scenario(s) stage for stage "
                    f"({total} stages) and every one of its {self.calls} call(s) - same outcome as {self.baseline}")
        bad = [s.trace.scenario for s in self.scenarios if not s.same]
        return f"task {self.task_id}: {len(bad)} scenario(s) changed: {', '.join(bad)}"

    def _lines(self, s: CapstoneScenario) -> list[str]:
        lines = [s.trace.summary()]
        if s.calls is not None and not s.trace.error:
            lines.append("  " + s.calls.sentence())
        for pod, ref, mine in s.changed_pods:
            lines.append(f"  pod {pod}: reference {ref or '(pending)'}, yours {mine or '(pending)'}   <- changed")
        if s.learner.crashes:
            lines.append(f"  crashed: {'; '.join(s.learner.crashes)}")
        if s.real is not None:
            changed = sum(1 for p, node in s.real.placements if dict(s.learner.placements).get(p, "") != node)
            lines.append(f"  against 1.6 itself: {changed} pod(s) placed differently (a fix is meant to change that)")
        lines += ["  " + n for n in s.notes]
        return lines

    def __str__(self) -> str:
        lines = [self.summary()]
        for s in self.scenarios:
            lines += ["  " + line for line in self._lines(s)]
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        parts = [f"<p><b>{html.escape(self.summary())}</b></p><table>"
                 "<tr><th>scenario</th><th>result</th></tr>"]
        for s in self.scenarios:
            colour = "" if s.same else ' style="background:#fde2e2"'
            parts.append(f"<tr{colour}><td>{html.escape(s.trace.scenario)}</td><td style=\"text-align:left\">"
                         + "<br>".join(html.escape(x) for x in self._lines(s)) + "</td></tr>")
        parts.append("</table>")
        for s in self.scenarios:
            d = s.trace.divergence
            if d is None:
                continue
            parts.append(f"<h4>{html.escape(s.trace.scenario)}: pipeline at the first divergence "
                         f"[{html.escape(d.stage)}]</h4><table><tr><th>real scheduler</th><th>yours</th></tr><tr>")
            for snap in (d.reference_snapshot, d.learner_snapshot):
                parts.append("<td>" + (pipeline_svg(snap, s.follow or None) if snap is not None else "(no snapshot)")
                             + "</td>")
            parts.append("</tr></table>")
        return "".join(parts)


def run_capstone(task_id: str, fn: Callable[..., Any], scenarios: tuple[str, ...], *, seed: int = 1,
                 seconds: float = 60.0) -> CapstoneReport:
    """Compare each scenario's baseline run with the learner's, stage for stage and call by call."""
    task = get_task(task_id)
    return CapstoneReport(task.id, tuple(_one(task, fn, name, seed, seconds) for name in scenarios),
                          baseline_of(task))


def _one(task: Any, fn: Callable[..., Any], name: str, seed: int, seconds: float) -> CapstoneScenario:
    against_reference = task.baseline == "reference"
    if against_reference:  # the baseline is the reference run; 1.6 itself is shown beside it
        reference_sim, reference_calls = reference_run(task, name, seed, snapshots=True)
        base = reference_sim
    else:
        base = run_scenario(name, seed, snapshots=True)
    base_steps = steps_of(base.trace)

    def extra(sim: Any) -> tuple[int, int | None, StageStep | None, Any, int]:
        mine = steps_of(sim.trace)
        index = first_divergence(base_steps, mine)
        got = mine[index] if index is not None and index < len(mine) else None
        return len(mine), index, got, snapshot_at(sim.trace, got.seq if got else None), confirmations(mine)

    pending = learner_run(task, fn, name, seed, seconds, snapshots=True, extra=extra)  # runs meanwhile
    real = None
    try:
        if against_reference:
            real = run_scenario(name, seed) if task.changes_outcome else None
        else:
            reference_sim, reference_calls = reference_run(task, name, seed)
    except BaseException:
        pending.stop()
        raise
    learner = pending.wait()
    label = label_of(name)
    if learner.error or learner.extra is None:
        trace = ScenarioTrace(label, len(base_steps), 0, None, learner.error or "the run did not finish")
    else:
        count, index, got, snapshot, confirmed = learner.extra
        divergence = None
        if index is not None:
            expected = base_steps[index] if index < len(base_steps) else None
            divergence = Divergence(index, expected, got,
                                    snapshot_at(base.trace, expected.seq if expected else None), snapshot)
        trace = ScenarioTrace(label, len(base_steps), count, divergence,
                              confirmed=(confirmations(base_steps), confirmed))
    notes = learner.notes
    if not against_reference and not outcome_of(reference_sim).same_as(outcome_of(base)):
        notes = ("kschedlearn's own reference solution does not reproduce the real scheduler's run here "
                 "(a bug in kschedlearn: please report it); your calls are compared with the reference's.",) + notes
    return CapstoneScenario(trace, outcome_of(base), learner.outcome, base.follow or "",
                            compare_calls(reference_calls, learner.calls), notes,
                            outcome_of(real) if real is not None else None)


__all__ = ["CapstoneReport", "CapstoneScenario", "run_capstone"]
