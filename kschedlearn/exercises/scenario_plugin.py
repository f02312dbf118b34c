"""Plug a learner's function into the whole scheduler and run a scenario: what changed?

Go: none — kschedlearn-only (DESIGN §10). ``plug_in_scenario("6.1", pod_fits_resources)`` runs
the task's scenario twice with the same seed — once with the reference code, once with the
learner's function swapped into the real mirrored code — and compares the outcomes: where each
pod ended up, which Kubernetes events were recorded, and whether a scheduler process crashed.

Safety: the learner's run happens in a forked child process (``sandbox``) with a wall-clock
budget of ``seconds``. If the function raises, that simulated scheduler *process* dies (as a Go
panic would) and the comparison says so; if it runs too long the child is killed and the report
says "time limit of N s reached"; ``os._exit`` or a crash ends only the child. The notebook and
the reference run are unaffected.
"""

from __future__ import annotations

import html
from collections import Counter
from collections.abc import Callable
from typing import Any

import attrs

from kschedlearn.exercises import sandbox
from kschedlearn.exercises.framework import TimeLimitExceeded, time_limit
from kschedlearn.exercises.registry import get_task

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
    "6.2": "spread-and-affinity",
    "7.1": "spread-and-affinity",     # LeastRequested is one of the default priorities
    "7.2": "spread-and-affinity",
    "7.3": "burst-100-pods",          # round robin among equally good nodes
    "7.4": "spread-and-affinity",     # two zones: the zone share decides
    "8.1": "unschedulable-then-fits", # the retry backoff 1 s, 2 s, 4 s ...
    "8.2a": "three-nodes",            # 8.2a, 8.2, 8.2b: the capstone's three rungs, judged alike
    "8.2": "three-nodes",             # (plus bind-failure and assume-expiry: the capstone)
    "8.2b": "three-nodes",
    "9.1": "ha-failover",             # the takeover time must match
    "10.1": "policy-file",
    "11.1": "quirk-selector-spread-nan",  # exercises/data: the 1.6 SelectorSpread NaN
}


@attrs.frozen
class Outcome:
    """What a scenario run ended with."""

    placements: tuple[tuple[str, str], ...]  # (pod, node or "" if pending), sorted by pod
    events: tuple[tuple[str, int], ...]       # (reason, count), sorted
    crashes: tuple[str, ...]
    time: float


@attrs.frozen
class ScenarioComparison:
    """Reference run vs the run with the learner's function plugged in."""

    task_id: str
    scenario: str
    reference: Outcome
    learner: Outcome
    error: str = ""

    @property
    def changed_pods(self) -> tuple[tuple[str, str, str], ...]:
        """(pod, node in the reference run, node in the learner's run) where they differ."""
        ref, mine = dict(self.reference.placements), dict(self.learner.placements)
        return tuple((p, ref.get(p, ""), mine.get(p, "")) for p in sorted(set(ref) | set(mine))
                     if ref.get(p, "") != mine.get(p, ""))

    @property
    def same(self) -> bool:
        return not self.error and self.reference == attrs.evolve(self.learner, time=self.reference.time)

    def _rows(self) -> list[tuple[str, str, str]]:
        ref, mine = dict(self.reference.placements), dict(self.learner.placements)
        rows = [(p, ref.get(p, "") or "(pending)", mine.get(p, "") or "(pending)")
                for p in sorted(set(ref) | set(mine))]
        ref_e, mine_e = dict(self.reference.events), dict(self.learner.events)
        rows += [(f"event {r}", str(ref_e.get(r, 0)), str(mine_e.get(r, 0)))
                 for r in sorted(set(ref_e) | set(mine_e))]
        rows.append(("crashed processes", ", ".join(self.reference.crashes) or "none",
                     ", ".join(self.learner.crashes) or "none"))
        return rows

    def summary(self) -> str:
        if self.error:
            return f"task {self.task_id} on {self.scenario}: {self.error}"
        if self.same:
            return f"task {self.task_id} on {self.scenario}: same outcome as the real scheduler"
        return (f"task {self.task_id} on {self.scenario}: {len(self.changed_pods)} pod(s) placed differently"
                + ("; a scheduler process crashed" if self.learner.crashes else ""))

    def __str__(self) -> str:
        lines = [self.summary(), f"{'':28s} {'reference':24s} yours"]
        lines += [f"{a:28s} {b:24s} {c}{'   <- changed' if b != c else ''}" for a, b, c in self._rows()]
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        changed = ' style="background:#fde2e2"'
        cells = "".join(
            f"<tr{changed if b != c else ''}><td>{html.escape(a)}</td>"
            f"<td>{html.escape(b)}</td><td>{html.escape(c)}</td></tr>"
            for a, b, c in self._rows()
        )
        return (f"<p><b>{html.escape(self.summary())}</b></p><table><tr><th></th><th>reference</th>"
                f"<th>with your function</th></tr>{cells}</table>")


def _outcome(sim: Any) -> Outcome:
    world = sim.world
    pods = sorted((f"{p.metadata.namespace}/{p.metadata.name}", p.spec.node_name)
                  for p in world.api.storage.items("pods"))
    events = Counter(e.reason for e in world.api.storage.items("events"))
    crashes = tuple(sorted(f"{c.process}: {c.message}" for c in world.runtime.crashes))
    return Outcome(tuple(pods), tuple(sorted(events.items())), crashes, world.runtime.now)


def _run(scenario: str, seed: int) -> Any:
    from kschedlearn import Simulation

    sim = Simulation.from_scenario(scenario, seed=seed, snapshots=False)
    sim.run()
    return sim


def plug_in_scenario(
    task_id: str,
    fn: Callable[..., Any],
    scenario: str | None = None,
    *,
    seed: int = 1,
    seconds: float = 60.0,
) -> ScenarioComparison:
    """Run ``scenario`` (default: the task's) with and without ``fn``; compare the outcomes.

    The simulation is built inside the patch, so the scheduler it starts uses ``fn`` (the plugin
    registry is copied then). ``seconds`` bounds the wall time of the learner's run.
    """
    task = get_task(task_id)
    if task.scenario_plugin is not None:  # the task compares whole traces (the capstones)
        return task.scenario_plugin(fn, scenario, seed=seed, seconds=seconds)
    name = scenario or DEFAULT_SCENARIOS.get(task.id, "three-nodes")
    reference = _outcome(_run(name, seed))
    if sandbox.fork_available():
        learner, error = _learner_run_in_child(task, fn, name, seed, seconds)
    else:
        learner, error = _learner_run_in_process(task, fn, name, seed, seconds)
    return ScenarioComparison(task.id, name, reference, learner, error)


_NOTHING = Outcome((), (), (), 0.0)


def _learner_run_in_child(task: Any, fn: Callable[..., Any], name: str, seed: int,
                          seconds: float) -> tuple[Outcome, str]:
    def work(send: Callable[[Any], None]) -> None:
        with task.patch(fn):
            send(_outcome(_run(name, seed)))

    run = sandbox.run_in_child(work, seconds)
    run.replay()
    if run.items:
        return run.items[0], ""
    if run.timed_out:
        return _NOTHING, (f"time limit of {seconds:g} s reached: your function made the scenario run "
                          f"longer than {seconds:g} s of wall time and the run was stopped")
    return _NOTHING, f"the run failed: {run.ending}"


def _learner_run_in_process(task: Any, fn: Callable[..., Any], name: str, seed: int,
                            seconds: float) -> tuple[Outcome, str]:
    try:
        with time_limit(seconds), task.patch(fn):
            return _outcome(_run(name, seed)), ""
    except TimeLimitExceeded:
        return _NOTHING, (f"time limit of {seconds:g} s reached: your function made the scenario run "
                          f"longer than {seconds:g} s of wall time and the run was stopped")
    except Exception as err:  # noqa: BLE001 - reported, never re-raised into the notebook
        return _NOTHING, f"the run failed: {type(err).__name__}: {err}"
