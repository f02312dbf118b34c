"""``Simulation``: step through a scenario, rewind, jump, inject faults — the notebook API.

Go: none — kschedlearn-only (DESIGN §7). Python Tutor's and RaftScope's design:

- every trace event is recorded with an immutable snapshot, so ``back`` / ``goto`` only move a
  cursor through the recorded history (``snapshots="on-demand"``: a twin world builds the
  snapshot of an event when it is first asked for, ``on_demand.py``);
- stepping past the end of the history runs the world on until the next event worth a pause;
- changing the past (``inject.*`` while the cursor is not at the end) *forks*: the world is
  rebuilt from the scenario and seed and replayed — deterministically — up to the cursor, the
  change is applied there, and the old future is discarded.

Granularity of ``step``: ``"event"`` (every event except log lines), ``"stage"`` (the teaching
stages of the pod's journey, start-up and leader election), ``"pod"`` (events about the
followed pod).
"""

from __future__ import annotations

import threading
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from kschedlearn.scenarios.scenario import Action, Scenario, load_scenario
from kschedlearn.simulation import arguments as args, lifetime, on_demand
from kschedlearn.simulation.asking import Questions, TraceDecisions, TracePods
from kschedlearn.simulation.checks import (
    Breakpoint, ProcessCrash, ScenarioEnded, SimulatedProcessCrashed, SimulationError, UnknownNameError,
    WrongThreadError, check_names, crashes_in, event_pods, owner_thread_check, owner_thread_only,
)
from kschedlearn.simulation.history import GRANULARITIES, TEACHING_STAGES, Injection, replay
from kschedlearn.simulation.on_demand import ON_DEMAND
from kschedlearn.simulation.where import CodeLocation
from kschedlearn.trace import TraceEvent

if TYPE_CHECKING:  # (``from kschedlearn import Simulation`` stays light: see lifetime.new_world)
    from kschedlearn.simulation.world import World

@attrs.define(eq=False)
class Simulation(Questions):
    """The notebook's handle on one scenario run (see the module docstring)."""

    scenario: Scenario
    seed: int = 0
    #: True: a snapshot at every event as it is recorded (teaching mode); False: none;
    #: "on-demand": each built when first asked for (``snapshot_at``; on_demand.py)
    snapshots: bool | str = True
    snapshot_every: int = 1
    log_verbosity: int = 4
    follow: str = ""
    granularity: str = "stage"
    record: str = "event"  # what is recorded: "event" (all), "stage" or "pod" (lifetime.thinned)
    #: kschedlearn-only: False switches AssumePod off in every replica (overrides the
    #: scenario's ``assume:``; see :mod:`kschedlearn.simulation.no_assume`); None keeps it
    assume: bool | None = None
    #: "mirrored" (default) or "accelerated" (kschedlearn.accelerated: identical outcomes)
    engine: str = "mirrored"
    breakpoints: list[Breakpoint] = attrs.field(factory=list)
    cursor: int = -1
    _world: World | None = attrs.field(default=None, repr=False)
    _injections: list[Injection] = attrs.field(factory=list, repr=False)
    _registry: Any = attrs.field(default=None, repr=False)
    #: snapshots="on-demand": the world that builds them (on_demand.Twin; None until asked)
    _twin: Any = attrs.field(default=None, repr=False)
    inject: Any = attrs.field(default=None, repr=False)
    serving: Any = attrs.field(default=None, repr=False)
    #: what :meth:`from_manifests` kept, dropped and converted (None for scenarios)
    import_report: Any = attrs.field(default=None, repr=False)
    # --feature-gates for every scheduler replica, on top of the scenario's (e.g.
    # "AffinityInAnnotations=true"); each replica's process owns its gate (kschedlearn.features).
    feature_gates: str = ""
    #: the thread that created this simulation: the only one that may run it (greenlets are
    #: bound to their thread; see ``check_thread``)
    _owner: threading.Thread = attrs.field(init=False, factory=threading.current_thread, repr=False)
    #: the pod keys the trace names, kept up to date for ``known_pods`` (asking.TracePods)
    _trace_pods: TracePods = attrs.field(init=False, factory=TracePods, repr=False)
    #: each asked pod's scheduling attempts, kept up to date for ``decision`` (asking.TraceDecisions)
    _trace_decisions: TraceDecisions = attrs.field(init=False, factory=TraceDecisions, repr=False)

    def __attrs_post_init__(self) -> None:
        from kschedlearn.simulation.inject import Injector
        args.check_keywords(self)  # before anything is built
        if self.feature_gates:
            joined = ",".join(g for g in (self.scenario.feature_gates, self.feature_gates) if g)
            self.scenario = attrs.evolve(self.scenario, feature_gates=joined)
        if not self.follow:
            self.follow = self.scenario.follow
        if self.assume is not None and self.assume != self.scenario.assume:
            self.scenario = attrs.evolve(self.scenario, assume=self.assume)
        self.inject = Injector(self)

    # -- construction --------------------------------------------------------------------
    @classmethod
    def from_scenario(cls, name_or_path: str | Path, seed: int = 0, **kwargs: Any) -> Simulation:
        """Load a bundled scenario by name (``"three-nodes"``) or a YAML file by path.

        ``snapshot_every`` defaults to the scenario's own setting (1 unless the file says so).
        """
        scenario = load_scenario(name_or_path)
        kwargs.setdefault("snapshot_every", scenario.snapshot_every)
        return cls(scenario=scenario, seed=seed, **kwargs)

    @classmethod
    def from_manifests(cls, text_or_path: str | Path, seed: int = 0, *, controllers: bool = False, **kw: Any) -> Simulation:
        """Replay a real cluster: the output of ``kubectl get nodes,pods,services,rc,rs,statefulsets,pv,pvc -A -o yaml``.

        Bound pods stay where they are; pending pods are placed by the simulated 1.6 scheduler. Read
        item by item; what was changed or skipped is reported once in ``sim.import_report``
        (``.summary()``). ``controllers=True``: see ``load_cluster_dump``.
        """
        from kschedlearn.scenarios.cluster_dump import load_cluster_dump

        scenario, report = load_cluster_dump(text_or_path, controllers=controllers)
        kw.setdefault("snapshot_every", scenario.snapshot_every)
        return cls(scenario=scenario, seed=seed, import_report=report, **kw)

    def _new_world(self) -> World:
        return lifetime.new_world(self)

    @property
    def world(self) -> World:
        """The live world (built on first use, on the simulation's own thread only)."""
        if self._world is None:
            self.check_thread("Simulation.world (building it)")
            self._world = self._new_world()
        return self._world

    def check_thread(self, call: str) -> None:
        """Raise :class:`WrongThreadError` unless on the thread that created this simulation (its
        goroutines are greenlets, bound to their thread), before anything changes. Not yet built,
        a simulation whose creating thread has ended passes to the caller's thread."""
        if self._world is None and not self._owner.is_alive():
            self._owner = threading.current_thread()
        owner_thread_check(self._owner, call)

    # -- what is recorded ----------------------------------------------------------------
    @property
    def trace(self) -> list[TraceEvent]:
        """Every event recorded so far (the whole history, past the cursor too)."""
        return self.world.tracer.events

    @property
    def event(self) -> TraceEvent | None:
        """The event at the cursor."""
        return self.trace[self.cursor] if 0 <= self.cursor < len(self.trace) else None

    @property
    def snapshot(self) -> Any:
        """The state at the cursor (the nearest recorded snapshot at or before it)."""
        if self.cursor >= 0:
            snap = self.snapshot_at(self.cursor)
            if snap is not None or self.snapshots == ON_DEMAND:
                return snap
        return self.world.builder() if self.snapshots else None

    def snapshot_at(self, seq: int) -> Any:
        """The state at event ``seq``: its snapshot, or with ``snapshot_every`` > 1 the nearest
        recorded one before it (None without snapshots, or for an event not recorded yet). With
        ``snapshots="on-demand"`` it is built now if nobody asked for it before: a twin world
        runs on to that event taking teaching mode's snapshots (``on_demand.py``)."""
        seq = args.whole_number("snapshot_at", "seq", seq, low=-(2**63))
        if self.snapshots == ON_DEMAND:
            self.check_thread("Simulation.snapshot_at")
            return on_demand.snapshot_at(self, seq)
        trace = self.trace
        if seq >= len(trace):
            return None
        for i in range(seq, -1, -1):
            snap = trace[i].snapshot
            if snap is not None:
                return snap
        return None

    @property
    def time(self) -> float:
        ev = self.event
        return ev.time if ev is not None else 0.0

    def thinning_note(self) -> str:
        """What the views at the cursor leave out ("" when nothing); the explorer shows it."""
        return lifetime.thinning_note(self)

    @property
    def finished(self) -> bool:
        return self.world.finished and self.cursor >= len(self.trace) - 1

    # -- matching ------------------------------------------------------------------------
    def _matches(self, ev: TraceEvent, granularity: str) -> bool:
        if ev.stage == "log":
            return False
        if any(bp.matches(ev) for bp in self.breakpoints):
            return True
        if granularity == "event":
            return True
        if granularity == "stage":
            if ev.stage == "cleanupAssumedPods":
                return bool(ev.data.get("assumed"))
            return ev.stage in TEACHING_STAGES
        if granularity == "pod":
            return bool(self.follow) and self.follow in event_pods(ev)
        raise SimulationError(f"unknown granularity {granularity!r}; use one of {', '.join(GRANULARITIES)}")

    # -- moving --------------------------------------------------------------------------
    @owner_thread_only
    def start(self) -> TraceEvent | None:
        """Run until the first stop worth a look (at the current granularity)."""
        if self.cursor >= 0:
            return self.event
        return self.step()

    @owner_thread_only
    def step(self, granularity: str | None = None) -> TraceEvent | None:
        """Move to the next event at ``granularity`` ("stage", "event" or "pod").

        Returns the event, or None once the scenario has run to its end. A step asked for when
        the cursor already stands on the last event of a finished scenario moves nothing and
        warns :class:`ScenarioEnded` ("the scenario has ended at event N (t=...)").
        """
        g = granularity or self.granularity
        if g not in GRANULARITIES:
            raise SimulationError(f"unknown granularity {g!r}; use one of {', '.join(GRANULARITIES)}")
        if g == "pod" and not self.follow:
            raise SimulationError("step('pod') needs a pod to follow: set sim.follow = 'namespace/name'")
        if g == "pod":  # an unknown pod would match nothing and run the scenario to its end
            self.check_names(pod=args.text("step('pod')", "follow", self.follow), where_from="step('pod'): sim.follow")
        if self.finished and self._world is not None:
            warnings.warn(self.end_message(), ScenarioEnded, stacklevel=3)
            return None
        return self._advance(lambda ev: self._matches(ev, g))

    @owner_thread_only
    def run_until(
        self,
        predicate: Callable[[TraceEvent], bool] | str | None = None,
        *,
        stage: str | None = None,
        pod: str | None = None,
        node: str | None = None,
    ) -> TraceEvent | None:
        """Move to the next event satisfying ``predicate`` (a function, or a stage name), or
        matching ``stage`` / ``pod`` / ``node``. Returns None if the scenario ends first."""
        if isinstance(predicate, str):
            stage, predicate = predicate, None
        if predicate is None and stage is None and pod is None and node is None:
            raise SimulationError("run_until needs a predicate, a stage, a pod or a node")
        guarded = args.GuardedPredicate(predicate)  # a learner's exception must not kill a process
        self.check_names(stage=stage, pod=pod, node=node, where_from="run_until")
        bp = Breakpoint(stage=stage, pod=pod, node=node)

        def pred(ev: TraceEvent) -> bool:
            if ev.stage == "log" and stage != "log":
                return False
            ok = guarded(ev)
            return guarded.failure is not None or (ok and bp.matches(ev))

        before, event = self.cursor, self._advance(pred)
        if guarded.failure is not None:
            self.cursor = before
            raise guarded.error(before)
        return event

    @owner_thread_only
    def run(self) -> TraceEvent | None:
        """Run on without pausing until a breakpoint matches (returned) or the scenario ends (None)."""
        return self._advance(lambda ev: ev.stage != "log" and any(bp.matches(ev) for bp in self.breakpoints))

    def _advance(self, pred: Callable[[TraceEvent], bool]) -> TraceEvent | None:
        self.serve_pending()
        before = self.cursor
        event = self._advance_cursor(pred)
        for crash in crashes_in(self.trace, before + 1, self.cursor):
            warnings.warn(crash.describe(), SimulatedProcessCrashed, stacklevel=4)
        return event

    def _advance_cursor(self, pred: Callable[[TraceEvent], bool]) -> TraceEvent | None:
        trace = self.trace
        for i in range(self.cursor + 1, len(trace)):
            if pred(trace[i]):
                self.cursor = i
                return trace[i]
        # beyond the recorded history: run the world on. It pauses at the first matching event
        # a goroutine emits; an event recorded without a pause (a process crash is recorded by
        # the runtime as the goroutine dies) may match earlier — stop there, not past it.
        start = len(trace)
        event = self.world.run(pred)
        for i in range(start, len(self.trace)):
            if self.trace[i] is event or pred(self.trace[i]):
                self.cursor = i
                return self.trace[i]
        self.cursor = len(self.trace) - 1
        return event

    @owner_thread_only
    def back(self, steps: int = 1, granularity: str | None = None) -> TraceEvent | None:
        """Move back ``steps`` stops (at ``granularity``) in the recorded history."""
        steps = args.whole_number("back", "steps", steps)
        g = args.one_of("back", "granularity", granularity or self.granularity, GRANULARITIES)
        for _ in range(steps):
            for i in range(self.cursor - 1, -1, -1):
                if self._matches(self.trace[i], g):
                    self.cursor = i
                    break
            else:
                self.cursor = 0 if self.trace else -1
                break
        return self.event

    @owner_thread_only
    def goto(self, seq: int) -> TraceEvent | None:
        """Jump to event number ``seq`` (running forward if it has not happened yet).

        An event number past the end of the scenario is an error; the cursor stays where it was.
        """
        seq = args.whole_number("goto", "seq", seq, low=-(2**63))
        if seq < 0:
            raise SimulationError(f"goto: event numbers start at 0, got {seq}")
        if seq < len(self.trace):
            self.cursor = seq
            return self.event
        before = self.cursor
        if not self.world.finished:
            self._advance(lambda ev: ev.seq >= seq)
        if self.event is None or self.event.seq < seq:
            self.cursor = before
            raise SimulationError(f"goto: there is no event {seq}; the scenario ends with event "
                                  f"{len(self.trace) - 1} (use 0..{len(self.trace) - 1})")
        return self.event

    # -- breakpoints ---------------------------------------------------------------------
    @owner_thread_only
    def add_breakpoint(self, stage: str | None = None, *, pod: str | None = None, node: str | None = None) -> Breakpoint:
        """Always stop at events matching all of the given stage / pod / node (each must be a name
        the scenario knows, else :class:`UnknownNameError` suggests close ones)."""
        self.check_names(stage=stage, pod=pod, node=node, where_from="add_breakpoint")
        bp = Breakpoint(stage=stage, pod=pod, node=node)
        self.breakpoints.append(bp)
        return bp

    @owner_thread_only
    def clear_breakpoints(self) -> None:
        self.breakpoints.clear()

    # -- names ---------------------------------------------------------------------------
    def check_names(self, *, stage: str | None = None, pod: str | None = None, node: str | None = None,
                    where_from: str = "run_until") -> None:
        """Raise :class:`UnknownNameError` for a stage, pod or node name this scenario does not
        know (``simulation/checks.py``: the stage catalogue, the scenario's objects, timeline and
        injections, the API server and the trace)."""
        check_names(self, stage=stage, pod=pod, node=node, where_from=where_from)

    # -- changing the past ---------------------------------------------------------------
    def _fork_here(self) -> World:
        """Make the live world stand exactly at the cursor (replaying if needed)."""
        world = self.world
        if self.cursor >= len(self.trace) - 1:
            return world
        world.close()
        on_demand.forget(self)  # (its future is discarded with the world's)
        self._world = self._replay(self.cursor)
        lifetime.abandon(world.runtime)  # the old future: nothing reads its goroutines any more
        return self._world

    def _replay(self, target: int) -> World:
        world, self._injections = replay(self._new_world(), self._injections, target)
        return world

    def _inject(self, action: Action) -> TraceEvent | None:
        self.apply_external(action)
        return self.event

    @owner_thread_only
    def apply_external(self, action: Action) -> Any:
        """Apply ``action`` at the cursor as a recorded external action; returns its answer.

        The history after the cursor is discarded (a fork) and replays repeat the action.
        """
        problem = lifetime.action_problem(action)  # checked before anything forks or is recorded
        if problem:
            raise SimulationError(f"apply_external: {problem}")
        world = self._fork_here()
        paused = world.runtime.paused is not None
        last = self.trace[-1].seq if self.trace else -1
        self._injections.append(Injection(last, paused, world.runtime.now, action, world.runtime.started))
        result = world.apply(action, stage="inject")
        self.cursor = len(self.trace) - 1
        return result

    @owner_thread_only
    def run_for(self, seconds: float) -> TraceEvent | None:
        """Run on for ``seconds`` of virtual time without pausing (breakpoints still stop it)."""
        args.seconds("run_for", "seconds", seconds, positive=False)  # finite, >= 0, at most a Go Duration
        self.serve_pending()
        self._fork_here()
        target = self.world.runtime.now + seconds
        event = self.world.run(lambda ev: ev.stage != "log" and any(bp.matches(ev) for bp in self.breakpoints),
                               until=target)
        self.cursor = len(self.trace) - 1
        self.serve_pending()
        return event

    # -- real clients --------------------------------------------------------------------
    @owner_thread_only
    def serve(self, port: int = 0, *, token: str | None = None, kubeconfig: str | Path | None = None) -> Any:
        """Serve this simulation's API server over HTTP on 127.0.0.1 for kubectl and other clients.

        Returns a :class:`~kschedlearn.simulation.serving.Serving` (``.kubeconfig``, ``.kubectl``,
        ``.url``, ``.stop()``). Writes go into the history as external actions at the cursor.
        """
        from kschedlearn.simulation.serving import serve

        if self.serving is not None:
            self.serving.stop()
        self.serving = serve(self, port=port, token=token, kubeconfig=kubeconfig)
        return self.serving

    def serve_pending(self) -> int:
        """Answer the HTTP requests waiting for this simulation (when serving); returns how many."""
        return self.serving.pump() if self.serving is not None else 0

    def __repr__(self) -> str:
        return f"<Simulation {self.scenario.name!r} seed={self.seed} at event {self.cursor}/{len(self.trace) - 1 if self._world else '?'} t={self.time:g}s>"


__all__ = ["Simulation", "SimulationError", "UnknownNameError", "SimulatedProcessCrashed", "ScenarioEnded",
           "ProcessCrash", "CodeLocation", "Breakpoint", "TEACHING_STAGES", "WrongThreadError"]
