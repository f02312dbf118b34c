"""The capstone plug-in: run whole scenarios on the learner's code, compare every trace stage.

Go: none — kschedlearn-only (DESIGN §10). ``plug_in_scenario("8.2", schedule_one)`` runs the
guided tour (three-nodes), bind-failure and assume-expiry twice each — the real scheduler and
the one with the learner's ``scheduleOne`` — and reports, per scenario, either "all N stages
match" or the first divergence (stage, event, expected vs got) with the pipeline view of both
runs at that moment. Placements, events and crashes are compared too (``Outcome``).
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

import attrs

from kschedlearn.exercises.scenario_plugin import Outcome, _outcome
from kschedlearn.exercises.trace_compare import ScenarioTrace, compare_scenario, pipeline_svg

_EMPTY = Outcome((), (), (), 0.0)


@attrs.frozen
class CapstoneScenario:
    """One scenario: the stage comparison and both runs' outcomes."""

    trace: ScenarioTrace
    reference: Outcome
    learner: Outcome
    follow: str = ""

    @property
    def same(self) -> bool:
        return self.trace.same and self.reference == attrs.evolve(self.learner, time=self.reference.time)

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

    def summary(self) -> str:
        if self.same:
            total = sum(s.trace.reference_stages for s in self.scenarios)
            return (f"task {self.task_id}: your code reproduces {len(self.scenarios)} scenario(s) stage for stage "
                    f"({total} stages) - same outcome as the real scheduler")
        bad = [s.trace.scenario for s in self.scenarios if not s.same]
        return f"task {self.task_id}: {len(bad)} scenario(s) changed: {', '.join(bad)}"

    def _lines(self, s: CapstoneScenario) -> list[str]:
        lines = [s.trace.summary()]
        for pod, ref, mine in s.changed_pods:
            lines.append(f"  pod {pod}: reference {ref or '(pending)'}, yours {mine or '(pending)'}   <- changed")
        if s.learner.crashes:
            lines.append(f"  crashed: {'; '.join(s.learner.crashes)}")
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


def run_capstone(task_id: str, patch: Callable[[], Any], scenarios: tuple[str, ...], *, seed: int = 1,
                 seconds: float = 60.0) -> CapstoneReport:
    """Compare each scenario's real run with the run under ``patch()``, stage for stage."""
    out = []
    for name in scenarios:
        trace, reference, learner = compare_scenario(name, patch, seed=seed, seconds=seconds)
        out.append(CapstoneScenario(trace, _outcome(reference), _outcome(learner) if learner is not None else _EMPTY,
                                    reference.follow or ""))
    return CapstoneReport(task_id, tuple(out))


__all__ = ["CapstoneReport", "CapstoneScenario", "run_capstone"]
