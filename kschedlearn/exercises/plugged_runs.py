"""The runs behind a plug-in verdict: the real one, the reference one, and the learner's.

Go: none (kschedlearn-only, DESIGN §10). ``plug_in_scenario`` judges the learner's function by
three runs of the same scenario and seed:

1. **the real run** - the mirror as it is: the outcome to match ("same outcome as the real
   scheduler");
2. **the reference run** - the task's reference function plugged in exactly as the learner's
   will be, each call recorded (``calls.CallLog``): what the function must give, call by call;
3. **the learner's run** - in a sandbox child (``sandbox.run_in_child``), the learner's function
   plugged in the same way under the guard (``live.live_guard``: an exception, a wrong return
   type or a changed read-only input kills the simulated process that called it, as a Go panic
   would), each call recorded.

The two recorded runs differ only in the function, and both are deterministic, so their calls
stay pairwise at the same inputs up to the first one whose result differs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import attrs

from kschedlearn.exercises import sandbox
from kschedlearn.exercises.calls import CallLog, Calls
from kschedlearn.exercises.limits import TimeLimitExceeded, time_limit
from kschedlearn.exercises.mirror_state import MirrorState, restored_note
from kschedlearn.exercises.registry import Task


@attrs.frozen
class Outcome:
    """What a scenario run ended with."""

    placements: tuple[tuple[str, str], ...]  # (pod, node or "" if pending), sorted by pod
    events: tuple[tuple[str, int], ...]       # (reason, count), sorted
    crashes: tuple[str, ...]
    time: float

    def same_as(self, other: Outcome) -> bool:
        """Same placements, events and crashes (the virtual end time is not compared)."""
        return attrs.evolve(self, time=other.time) == other


NOTHING = Outcome((), (), (), 0.0)


def outcome_of(sim: Any) -> Outcome:
    world = sim.world
    pods = sorted((f"{p.metadata.namespace}/{p.metadata.name}", p.spec.node_name)
                  for p in world.api.storage.items("pods"))
    events = Counter(e.reason for e in world.api.storage.items("events"))
    crashes = tuple(sorted(f"{c.process}: {c.message}" for c in world.runtime.crashes))
    return Outcome(tuple(pods), tuple(sorted(events.items())), crashes, world.runtime.now)


def run_scenario(scenario: str, seed: int, *, snapshots: bool = False) -> Any:
    """Build and run ``scenario`` to its end (built here, so inside any active patch)."""
    from kschedlearn import Simulation

    sim = Simulation.from_scenario(scenario, seed=seed, snapshots=snapshots)
    sim.run()
    return sim


def reference_run(task: Task, scenario: str, seed: int, *, snapshots: bool = False) -> tuple[Any, Calls]:
    """The scenario with the task's reference function plugged in, its calls recorded."""
    log = CallLog(task.function_name)
    with task.recorded_patch(task.load_solution(), log):
        sim = run_scenario(scenario, seed, snapshots=snapshots)
    return sim, log.calls()


@attrs.frozen
class LearnerRun:
    """What the learner's run sent back (plain data), or why it did not finish."""

    outcome: Outcome
    calls: Calls
    extra: Any = None
    error: str = ""
    notes: tuple[str, ...] = ()


@attrs.define(eq=False)
class PendingRun:
    """A learner's run started by ``learner_run``: ``wait()`` for it, or ``stop()`` it."""

    _wait: Callable[[], LearnerRun]
    _child: Any = None

    def wait(self) -> LearnerRun:
        return self._wait()

    def stop(self) -> None:
        if self._child is not None:
            self._child.stop()


def learner_run(task: Task, fn: Callable[..., Any], scenario: str, seed: int, seconds: float, *,
                snapshots: bool = False, extra: Callable[[Any], Any] | None = None) -> PendingRun:
    """Start the scenario with ``fn`` plugged in (guarded, recorded) - in a sandbox child when
    fork exists, so the caller's own runs go on meanwhile; ``wait()`` for what it ended with.
    ``extra(sim)`` computes more plain data from the finished run in the child."""
    from kschedlearn.exercises.live import Interrupts, live_guard, params_of  # noqa: PLC0415

    guarded = live_guard(task, fn, params_of(task), Interrupts(), copies=False)
    empty = CallLog(task.function_name).calls()

    def run() -> LearnerRun:
        log = CallLog(task.function_name)
        try:
            with task.recorded_patch(guarded, log):
                sim = run_scenario(scenario, seed, snapshots=snapshots)
        except BaseException as err:  # noqa: BLE001 - the learner's code failed while the run was set up
            return LearnerRun(NOTHING, log.calls(), None, f"the run failed: {_what(err)}")
        return LearnerRun(outcome_of(sim), log.calls(), extra(sim) if extra else None)

    if not sandbox.fork_available():
        def in_process() -> LearnerRun:
            state = MirrorState.take()
            try:
                with time_limit(seconds):
                    got = run()
            except TimeLimitExceeded:
                got = LearnerRun(NOTHING, empty, None, _too_long(seconds))
            finally:
                changed = state.restore()
            return attrs.evolve(got, notes=(restored_note(changed),)) if changed else got
        return PendingRun(in_process)

    child = sandbox.start_child(lambda send: send(run()), seconds)

    def collect() -> LearnerRun:
        done = child.collect()
        done.replay()
        notes = done.notes()
        if done.items:
            return attrs.evolve(done.items[0], notes=notes)
        if done.timed_out:
            return LearnerRun(NOTHING, empty, None, _too_long(seconds), notes)
        return LearnerRun(NOTHING, empty, None, f"the run failed: {done.ending}", notes)

    return PendingRun(collect, child)


def _what(err: BaseException) -> str:
    text = str(err)
    name = type(err).__name__
    if name == "LearnerFunctionError":
        return text
    return f"{name}: {text}" if text else name


def _too_long(seconds: float) -> str:
    return (f"time limit of {seconds:g} s reached: your function made the scenario run longer than "
            f"{seconds:g} s of wall time and the run was stopped")


__all__ = ["LearnerRun", "NOTHING", "PendingRun", "Outcome", "learner_run", "outcome_of", "reference_run", "run_scenario"]
