"""``Simulation``: step through a scenario, rewind, jump, inject faults — the notebook API.

Go: none — kschedlearn-only (DESIGN §7). Python Tutor's and RaftScope's design:

- every trace event is recorded with an immutable snapshot, so ``back`` / ``goto`` only move a
  cursor through the recorded history;
- stepping past the end of the history runs the world on until the next event worth a pause;
- changing the past (``inject.*`` while the cursor is not at the end) *forks*: the world is
  rebuilt from the scenario and seed and replayed — deterministically — up to the cursor, the
  change is applied there, and the old future is discarded.

Granularity of ``step``: ``"event"`` (every event except log lines), ``"stage"`` (the teaching
stages of the pod's journey, start-up and leader election), ``"pod"`` (events about the
followed pod).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs

from kschedlearn.scenarios.scenario import Action, Scenario, load_scenario
from kschedlearn.simulation.world import World, build_world
from kschedlearn.trace import TraceEvent

#: stages that ``step(granularity="stage")`` stops at
TEACHING_STAGES = frozenset({
    # start-up chain
    "main", "NewSchedulerServer", "Run", "createClient", "createRecorder", "NewSharedInformerFactory",
    "createScheduler", "NewConfigFactory", "schedulercache.New", "NewIndexerInformer", "CreateFromProvider",
    "CreateFromConfig", "CreateFromKeys", "ConfigFactory.Run", "startHTTP", "informerFactory.Start",
    "leaderelection.start", "leaderelection.acquire", "leaderelection.renew", "leaderelection.lost",
    "Scheduler.Run",
    # a pod's journey
    "workload", "inject", "fifo.add", "fifo.update", "fifo.pop", "scheduleOne.pop", "schedule.start",
    "schedule.predicates", "schedule.priorities", "selectHost", "assume", "bind", "apiserver.bind",
    "finishBinding", "forgetPod", "delta_fifo.add", "delta_fifo.pop", "handler.OnAdd", "handler.OnUpdate",
    "handler.OnDelete", "cache.addPod", "cache.removePod", "expirePod", "error.backoff", "error.requeue",
    "kubelet.start", "kubelet.complete", "reflector.relist", "process.crash",
})
GRANULARITIES = ("event", "stage", "pod")


class SimulationError(Exception):
    """A request the simulation cannot honour (bad step granularity, unknown pod, ...)."""


def _event_pods(ev: TraceEvent) -> set[str]:
    data = ev.data
    pods = set()
    for key in ("pod", "key"):
        value = data.get(key)
        if isinstance(value, str):
            pods.add(value)
    return pods


@attrs.define(eq=False)
class Breakpoint:
    """Pause when an event matches: by stage name, by pod key, by node name (any that is set)."""

    stage: str | None = None
    pod: str | None = None
    node: str | None = None

    def matches(self, ev: TraceEvent) -> bool:
        if self.stage is not None and ev.stage != self.stage:
            return False
        if self.pod is not None and self.pod not in _event_pods(ev):
            return False
        if self.node is not None and ev.data.get("node") != self.node:
            return False
        return True


@attrs.frozen
class _Injection:
    """A change made by hand: after event ``seq`` (the world paused there, or finished at ``time``)."""

    seq: int
    paused: bool
    time: float
    action: Action


@attrs.define(eq=False)
class Simulation:
    """The notebook's handle on one scenario run (see the module docstring)."""

    scenario: Scenario
    seed: int = 0
    snapshots: bool = True
    snapshot_every: int = 1
    log_verbosity: int = 4
    follow: str = ""
    granularity: str = "stage"
    #: "mirrored" (default) or "accelerated" (kschedlearn.accelerated: identical outcomes)
    engine: str = "mirrored"
    breakpoints: list[Breakpoint] = attrs.field(factory=list)
    cursor: int = -1
    _world: World | None = attrs.field(default=None, repr=False)
    _injections: list[_Injection] = attrs.field(factory=list, repr=False)
    _registry: Any = attrs.field(default=None, repr=False)
    inject: Any = attrs.field(default=None, repr=False)

    def __attrs_post_init__(self) -> None:
        from kschedlearn.simulation.inject import Injector

        if not self.follow:
            self.follow = self.scenario.follow
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

    def _new_world(self) -> World:
        # The plugin registry is copied once, when the first world is built: replays (forks)
        # then schedule with exactly the same predicates and priorities as the original run.
        if self._registry is None:
            from kschedlearn.scheduler.factory.plugins import copy_registry

            self._registry = copy_registry()
        return build_world(self.scenario, self.seed, snapshots=self.snapshots,
                           snapshot_every=self.snapshot_every, log_verbosity=self.log_verbosity,
                           registry=self._registry, engine=self.engine)

    @property
    def world(self) -> World:
        """The live world (built on first use)."""
        if self._world is None:
            self._world = self._new_world()
        return self._world

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
        for i in range(self.cursor, -1, -1):
            snap = self.trace[i].snapshot
            if snap is not None:
                return snap
        return self.world.builder() if self.snapshots else None

    @property
    def time(self) -> float:
        ev = self.event
        return ev.time if ev is not None else 0.0

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
            return bool(self.follow) and self.follow in _event_pods(ev)
        raise SimulationError(f"unknown granularity {granularity!r}; use one of {', '.join(GRANULARITIES)}")

    # -- moving --------------------------------------------------------------------------
    def start(self) -> TraceEvent | None:
        """Run until the first stop worth a look (at the current granularity)."""
        if self.cursor >= 0:
            return self.event
        return self.step()

    def step(self, granularity: str | None = None) -> TraceEvent | None:
        """Move to the next event at ``granularity`` ("stage", "event" or "pod").

        Returns the event, or None once the scenario has run to its end.
        """
        g = granularity or self.granularity
        if g not in GRANULARITIES:
            raise SimulationError(f"unknown granularity {g!r}; use one of {', '.join(GRANULARITIES)}")
        if g == "pod" and not self.follow:
            raise SimulationError("step('pod') needs a pod to follow: set sim.follow = 'namespace/name'")
        return self._advance(lambda ev: self._matches(ev, g))

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
        bp = Breakpoint(stage=stage, pod=pod, node=node)
        if predicate is None and stage is None and pod is None and node is None:
            raise SimulationError("run_until needs a predicate, a stage, a pod or a node")

        def pred(ev: TraceEvent) -> bool:
            if ev.stage == "log" and stage != "log":
                return False
            return (predicate(ev) if predicate is not None else True) and bp.matches(ev)

        return self._advance(pred)

    def run(self) -> TraceEvent | None:
        """Run on without pausing until a breakpoint matches (returned) or the scenario ends (None)."""
        return self._advance(lambda ev: ev.stage != "log" and any(bp.matches(ev) for bp in self.breakpoints))

    def _advance(self, pred: Callable[[TraceEvent], bool]) -> TraceEvent | None:
        trace = self.trace
        for i in range(self.cursor + 1, len(trace)):
            if pred(trace[i]):
                self.cursor = i
                return trace[i]
        # beyond the recorded history: run the world on
        event = self.world.run(pred)
        self.cursor = len(self.trace) - 1
        return event

    def back(self, steps: int = 1, granularity: str | None = None) -> TraceEvent | None:
        """Move back ``steps`` stops (at ``granularity``) in the recorded history."""
        g = granularity or self.granularity
        for _ in range(steps):
            for i in range(self.cursor - 1, -1, -1):
                if self._matches(self.trace[i], g):
                    self.cursor = i
                    break
            else:
                self.cursor = 0 if self.trace else -1
                break
        return self.event

    def goto(self, seq: int) -> TraceEvent | None:
        """Jump to event number ``seq`` (running forward if it has not happened yet)."""
        if seq < 0:
            raise SimulationError(f"goto: event numbers start at 0, got {seq}")
        if seq < len(self.trace):
            self.cursor = seq
            return self.event
        self._advance(lambda ev: ev.seq >= seq)
        return self.event

    # -- breakpoints ---------------------------------------------------------------------
    def add_breakpoint(self, stage: str | None = None, *, pod: str | None = None, node: str | None = None) -> Breakpoint:
        """Always stop at events matching all of the given stage / pod / node."""
        bp = Breakpoint(stage=stage, pod=pod, node=node)
        self.breakpoints.append(bp)
        return bp

    def clear_breakpoints(self) -> None:
        self.breakpoints.clear()

    # -- changing the past ---------------------------------------------------------------
    def _fork_here(self) -> World:
        """Make the live world stand exactly at the cursor (replaying if needed)."""
        world = self.world
        if self.cursor >= len(self.trace) - 1:
            return world
        target = self.cursor
        self._world = self._replay(target)
        return self._world

    def _replay(self, target: int) -> World:
        world = self._new_world()
        # an injection made after event `seq` belongs to a past that still contains `target`
        # only if it happened strictly before the target event
        pending = [inj for inj in self._injections if inj.seq < target]
        self._injections = list(pending)
        for inj in pending:
            if inj.paused:
                world.run(lambda ev, s=inj.seq: ev.seq >= s)
            else:
                world.run(lambda ev, s=inj.seq: ev.seq > s)  # to the end, as it was
                if world.runtime.now < inj.time:
                    world.runtime.run(until=inj.time)
            world.apply(inj.action, stage="inject")
        if target >= 0 and (not world.tracer.events or world.tracer.events[-1].seq < target):
            world.run(lambda ev: ev.seq >= target)
        return world

    def _inject(self, action: Action) -> TraceEvent | None:
        world = self._fork_here()
        paused = world.runtime.paused is not None
        last = self.trace[-1].seq if self.trace else -1
        self._injections.append(_Injection(last, paused, world.runtime.now, action))
        world.apply(action, stage="inject")
        self.cursor = len(self.trace) - 1
        return self.event

    # -- questions -----------------------------------------------------------------------
    def decision(self, pod: str | None = None) -> list[Any]:
        """Every scheduling attempt for ``pod`` so far: predicates per node, scores, choice."""
        from kschedlearn.viz.decision import decisions_from_events

        key = pod or self.follow
        if not key:
            raise SimulationError("decision() needs a pod: decision('default/web-1')")
        return decisions_from_events(self.trace[: self.cursor + 1], key)

    def show(self, view: str = "pipeline", **kwargs: Any) -> Any:
        """A Graphviz view of the snapshot at the cursor (pipeline, startup, cache, decision,
        pod_states, leader_election)."""
        from kschedlearn.simulation.views import show_view

        return show_view(self, view, **kwargs)

    def explorer(self) -> Any:
        """The interactive explorer widget (ipywidgets)."""
        from kschedlearn.widgets.explorer import Explorer

        return Explorer(self).display()

    # -- export / import -----------------------------------------------------------------
    def export_json(self, path: str | Path | None = None, *, with_snapshots: bool = True) -> str:
        """The recorded trace as JSON text (byte-identical for the same scenario and seed)."""
        from kschedlearn.simulation.recording import dump_trace

        text = dump_trace(self, with_snapshots=with_snapshots)
        if path is not None:
            Path(path).write_text(text, encoding="utf-8")
        return text

    @staticmethod
    def load_trace(text_or_path: str | Path) -> Any:
        """Read an exported trace back (a read-only :class:`~kschedlearn.simulation.recording.Recording`)."""
        from kschedlearn.simulation.recording import load_trace

        return load_trace(text_or_path)

    def summary(self) -> dict[str, Any]:
        """Plain facts about the run so far (for notebooks and the command line)."""
        snap = self.snapshot
        pods = snap.apiserver.pods if snap is not None and snap.apiserver is not None else ()
        return {
            "scenario": self.scenario.name, "seed": self.seed, "events": len(self.trace),
            "cursor": self.cursor, "time": self.time,
            "bound": sum(1 for p in pods if p.node_name), "pods": len(pods),
        }

    def __repr__(self) -> str:
        return f"<Simulation {self.scenario.name!r} seed={self.seed} at event {self.cursor}/{len(self.trace) - 1 if self._world else '?'} t={self.time:g}s>"


__all__ = ["Simulation", "SimulationError", "Breakpoint", "TEACHING_STAGES"]
