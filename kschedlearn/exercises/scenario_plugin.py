"""Plug a learner's function into the whole scheduler and run a scenario: what changed?

Go: none — kschedlearn-only (DESIGN §10). ``plug_in_scenario("6.1", pod_fits_resources)`` runs
the task's scenario three times with the same seed (``plugged_runs``): the real scheduler, the
task's reference function plugged in, and the learner's function plugged in the same way. The
verdict compares the learner's function with the reference *call by call* - every verdict,
score and returned value, at the same inputs (``calls``) - and the outcomes: where each pod
ended up, which Kubernetes events were recorded, whether a scheduler process crashed. "Same
outcome" is said only when both hold and the function was called at least once; otherwise the
report names the first differing call (its inputs, yours vs the real one).

Safety: the learner's run happens in a forked child process (``sandbox``) with a wall-clock
budget of ``seconds``. If the function raises, that simulated scheduler *process* dies (as a Go
panic would) and the comparison says so; if it runs too long the child is killed and the report
says "time limit of N s reached"; ``os._exit`` or a crash ends only the child. The notebook and
the reference run are unaffected.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs

from kschedlearn.exercises.calls import CallComparison, compare_calls
from kschedlearn.exercises.plugged_runs import Outcome, learner_run, outcome_of, reference_run, run_scenario
from kschedlearn.exercises.registry import Task, get_task

DATA = Path(__file__).resolve().parent / "data"

#: the scenario each task's plug-in runs by default (chosen so the task's code decides something)
DEFAULT_SCENARIOS: dict[str, str] = {
    "1.1": "three-nodes",             # (and ha-failover) kube-scheduler started in your order
    "2.1": "spread-and-affinity",     # selectors decide spreading and affinity
    "3.1": "three-nodes",             # podQueue pops every pod
    "3.2": "three-nodes",             # the assigned-pod informer's DeltaFIFO
    "4.1": "three-nodes",             # the assigned-pod informer confirms the assumed pod
    "4.2": "three-nodes",             # (and assume-expiry) every reflector's watch events
    "5.1": "spread-and-affinity",     # NodeInfo requests feed every resource decision
    "5.2": "assume-expiry",           # an assumed pod expires after 30 s
    "5.3": "assume-expiry",           # (and three-nodes) confirm, re-add after expiry
    "6.1": "unschedulable-then-fits", # PodFitsResources says no until the big node joins
    "6.2": str(DATA / "host-ports.yaml"),  # the third pod asking for host port 8080 waits
    "7.1": "spread-and-affinity",     # LeastRequested is one of the default priorities
    "7.2": "spread-and-affinity",
    "7.3": "burst-100-pods",          # round robin among equally good nodes
    "7.4": "spread-and-affinity",     # two zones: the zone share decides
    "8.1": "unschedulable-then-fits", # the retry backoff 1 s, 2 s, 4 s ...
    "8.2a": "three-nodes",            # 8.2a, 8.2, 8.2b: the capstone's three rungs, judged alike
    "8.2": "three-nodes",             # (plus bind-failure and assume-expiry: the capstone)
    "8.2b": "three-nodes",
    "9.1": "ha-failover",             # the takeover time must match
    "10.1": str(DATA / "dedicated-nodes.yaml"),  # a policy naming DedicatedNodes and FewestPods
    "11.1": str(DATA / "quirk-selector-spread-nan.yaml"),  # the 1.6 SelectorSpread NaN
    "15.1": str(DATA / "rc-scale.yaml"),  # an RC scaled 2 -> 4 -> 2 by kube-controller-manager
}


@attrs.frozen
class ScenarioComparison:
    """Baseline run vs the run with the learner's function plugged in, outcome and calls.

    ``reference`` is the outcome to match: the real scheduler's (or, for a task whose baseline
    is the reference solution, that run's - see ``baseline``). ``calls`` compares the learner's
    function with the reference call by call.
    """

    task_id: str
    scenario: str
    reference: Outcome
    learner: Outcome
    error: str = ""
    calls: CallComparison | None = None
    notes: tuple[str, ...] = ()
    baseline: str = "the real scheduler"

    @property
    def changed_pods(self) -> tuple[tuple[str, str, str], ...]:
        """(pod, node in the reference run, node in the learner's run) where they differ."""
        ref, mine = dict(self.reference.placements), dict(self.learner.placements)
        return tuple((p, ref.get(p, ""), mine.get(p, "")) for p in sorted(set(ref) | set(mine))
                     if ref.get(p, "") != mine.get(p, ""))

    @property
    def same_outcome(self) -> bool:
        return not self.error and self.learner.same_as(self.reference)

    @property
    def same(self) -> bool:
        """The same outcome *and* every call as the reference's (at least one call)."""
        return self.same_outcome and self.calls is not None and self.calls.same

    def _rows(self) -> list[tuple[str, str, str]]:
        ref, mine = dict(self.reference.placements), dict(self.learner.placements)
        rows = [(p, ref.get(p, "") or "(pending)", mine.get(p, "") or "(pending)")
                for p in sorted(set(ref) | set(mine))]
        ref_e, mine_e = dict(self.reference.events), dict(self.learner.events)
        rows += [(f"event {r}", str(ref_e.get(r, 0)), str(mine_e.get(r, 0)))
                 for r in sorted(set(ref_e) | set(mine_e))]
        rows.append(("crashed processes", ", ".join(self.reference.crashes) or "none",
                     ", ".join(self.learner.crashes) or "none"))
        if self.calls is not None:
            rows += call_rows(self.calls)
        return rows

    def summary(self) -> str:
        head = f"task {self.task_id} on {self.scenario}"
        if self.error:
            return f"{head}: {self.error}"
        calls = self.calls.sentence() if self.calls is not None else "the calls were not compared"
        if self.same:
            return f"{head}: same outcome as {self.baseline}, and {calls}"
        if self.changed_pods:
            outcome = f"{len(self.changed_pods)} pod(s) placed differently"
        elif not self.same_outcome:
            outcome = "the run ended differently (events or crashed processes)"
        else:
            outcome = f"the final placements match {self.baseline}'s, but that alone does not make it right"
        crashed = "; a scheduler process crashed" if self.learner.crashes and not self.reference.crashes else ""
        return f"{head}: {calls}; {outcome}{crashed}"

    def __str__(self) -> str:
        lines = [self.summary(), *self.notes, f"{'':28s} {'reference':24s} yours"]
        lines += [f"{a:28s} {b:24s} {c}{'   <- changed' if b != c else ''}" for a, b, c in self._rows()]
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        changed = ' style="background:#fde2e2"'
        cells = "".join(
            f"<tr{changed if b != c else ''}><td>{html.escape(a)}</td>"
            f"<td>{html.escape(b)}</td><td>{html.escape(c)}</td></tr>"
            for a, b, c in self._rows()
        )
        notes = "".join(f"<p>{html.escape(n)}</p>" for n in self.notes)
        return (f"<p><b>{html.escape(self.summary())}</b></p>{notes}<table><tr><th></th><th>reference</th>"
                f"<th>with your function</th></tr>{cells}</table>")


def call_rows(calls: CallComparison) -> list[tuple[str, str, str]]:
    """Table rows: how often the function was called, and the first differing call."""
    rows = [(f"calls of {calls.function}()", str(calls.reference.started), str(calls.learner.started))]
    diff = calls.first_difference
    if diff is not None:
        rows.append((f"call {diff.number}" + (f": {diff.subject[:60]}" if diff.subject else ""), diff.real[:200],
                     diff.yours[:200]))
    return rows


def baseline_of(task: Task) -> str:
    return "the real scheduler" if task.baseline == "real" else "the reference solution's run"


def label_of(scenario: str) -> str:
    """A scenario's name as shown (a file path shows as its file's stem)."""
    return Path(scenario).stem if scenario.endswith((".yaml", ".yml")) else scenario


def plug_in_scenario(
    task_id: str,
    fn: Callable[..., Any],
    scenario: str | None = None,
    *,
    seed: int = 1,
    seconds: float = 60.0,
) -> Any:
    """Run ``scenario`` (default: the task's) for real, with the reference function and with
    ``fn``; compare the outcomes and the calls (a ``ScenarioComparison``, or a
    ``capstone.CapstoneReport`` for the tasks judged stage for stage).

    The simulation is built inside the patch, so the scheduler it starts uses ``fn`` (the plugin
    registry is copied then). ``seconds`` bounds the wall time of the learner's run.
    """
    task = get_task(task_id)
    if task.scenario_plugin is not None:  # the task compares whole traces (the capstones)
        return task.scenario_plugin(fn, scenario, seed=seed, seconds=seconds)
    name = scenario or DEFAULT_SCENARIOS.get(task.id, "three-nodes")
    pending = learner_run(task, fn, name, seed, seconds)  # runs meanwhile, in a sandbox child
    try:
        reference_sim, reference_calls = reference_run(task, name, seed)
        baseline = outcome_of(reference_sim)
        notes: tuple[str, ...] = ()
        if task.baseline == "real":
            real = outcome_of(run_scenario(name, seed))
            if not baseline.same_as(real):
                notes = ("kschedlearn's own reference solution does not reproduce the real scheduler's run here "
                         "(a bug in kschedlearn: please report it); your calls are compared with the reference's.",)
            baseline = real
    except BaseException:
        pending.stop()
        raise
    learner = pending.wait()
    return ScenarioComparison(task.id, label_of(name), baseline, learner.outcome, learner.error,
                              compare_calls(reference_calls, learner.calls), notes + learner.notes,
                              baseline_of(task))


def _outcome(sim: Any) -> Outcome:
    """(kept for callers of the old name) ``plugged_runs.outcome_of``."""
    return outcome_of(sim)


__all__ = ["DEFAULT_SCENARIOS", "Outcome", "ScenarioComparison", "call_rows", "label_of", "plug_in_scenario"]
