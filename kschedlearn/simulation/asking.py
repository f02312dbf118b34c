"""What a learner asks the simulation at the cursor: where the code is, what crashed, why a pod
went where it went, the views, a summary and the recorded trace as JSON.

Go: none — kschedlearn-only. :class:`Questions` is mixed into :class:`~kschedlearn.Simulation`;
it only reads the recorded history (``trace``, ``cursor``, ``event``, ``world``, ``follow``).
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kschedlearn.simulation import arguments as args
from kschedlearn.simulation.checks import ProcessCrash, SimulationError, crashes_in
from kschedlearn.simulation.where import CodeLocation, where

if TYPE_CHECKING:
    from kschedlearn.scenarios.scenario import Scenario
    from kschedlearn.simulation.world import World
    from kschedlearn.trace import TraceEvent
    from kschedlearn.viz.decision import AttemptParse, Decision


def _still_read(events: list[TraceEvent], seen: int, last: TraceEvent | None) -> bool:
    """Whether the first ``seen`` events of ``events`` are still the ones read before, whose last
    was ``last`` (a trace only grows; a list that lost or replaced them is read again)."""
    return seen <= len(events) and (not seen or events[seen - 1] is last)


class TracePods:
    """The pod keys (``"namespace/name"``) the events of a trace name in ``data["pod"]``, brought
    up to date from the events recorded since the last look. ``known_pods`` is asked at every
    drawing of the decision view: walking the whole trace each time was most of that view's time
    at 5,000 events. A trace only grows (a fork records into a new list); a list that is not the
    one last seen, or whose event last seen is not where it was, is walked again from the start."""

    def __init__(self) -> None:
        self._events_id = 0
        self._seen = 0
        self._last: TraceEvent | None = None  # (held: no other event can be mistaken for it)
        self._keys: set[str] = set()

    def of(self, events: list[TraceEvent]) -> set[str]:
        """The pod keys ``events`` name (the set is kept: do not change it)."""
        seen = self._seen
        if id(events) != self._events_id or not _still_read(events, seen, self._last):
            self._events_id, seen, self._keys = id(events), 0, set()
        keys = self._keys
        for ev in itertools.islice(events, seen, None):
            pod = ev.data.get("pod")
            if isinstance(pod, str) and "/" in pod:
                keys.add(pod)
        self._seen = len(events)
        self._last = events[-1] if events else None
        return keys


class TraceDecisions:
    """``decisions_from_events(events[:stop], pod)`` for each pod asked about, brought up to date
    from the events recorded since the last look (the decision view asks at every drawing;
    reading the whole trace each time was a twentieth of drawing every view at every step). As
    :class:`TracePods`: a list that is not the one last seen, a stop before the last one (the
    cursor went back), or an event last read that is not where it was, is read again from the
    start."""

    def __init__(self) -> None:
        self._events_id = 0
        #: pod -> (its parse, the events read, the last of them: held, so no other event can be
        #: mistaken for it)
        self._parses: dict[str, tuple[AttemptParse, int, TraceEvent | None]] = {}

    def of(self, events: list[TraceEvent], stop: int, pod: str) -> list[Decision]:
        """The attempts of ``pod`` in ``events[:stop]``."""
        from kschedlearn.viz.decision import AttemptParse  # (viz is imported when first drawn)

        stop = max(0, min(stop, len(events)))
        if id(events) != self._events_id:
            self._events_id, self._parses = id(events), {}
        kept = self._parses.get(pod)
        if kept is None or kept[1] > stop or not _still_read(events, kept[1], kept[2]):
            kept = (AttemptParse(pod), 0, None)
        parse, seen, _ = kept
        parse.feed(itertools.islice(events, seen, stop))
        self._parses[pod] = (parse, stop, events[stop - 1] if stop else None)
        return parse.decisions()


class Questions:
    """The read-only questions of the notebook API (see the module docstring)."""

    if TYPE_CHECKING:
        _trace_pods: TracePods
        _trace_decisions: TraceDecisions
        scenario: Scenario
        seed: int
        cursor: int
        follow: str
        trace: list[TraceEvent]
        event: TraceEvent | None
        finished: bool
        world: World
        snapshot: Any
        time: float

    def where(self) -> CodeLocation | None:
        """The mirrored Python function executing at the cursor and its Go twin: file, qualified
        name, line, Go symbol and the link to that Go function's lines (``simulation/where.py``).
        None when no mirrored code runs at the cursor (an API server event, a hand injection)."""
        return where(self.event)

    @property
    def crashes(self) -> tuple[ProcessCrash, ...]:
        """Simulated processes that crashed, at or before the cursor (process, event, time, error,
        stage, where it raised)."""
        return crashes_in(self.trace, 0, self.cursor)

    def end_message(self) -> str:
        """``"the scenario has ended at event N (t=...s)"`` once it has, else ``""``."""
        if not self.finished:
            return ""
        last = self.trace[-1] if self.trace else None
        return f"the scenario has ended at event {last.seq if last else -1} (t={last.time if last else 0.0:g}s)"

    def decision(self, pod: str | None = None) -> list[Any]:
        """Every scheduling attempt for ``pod`` so far: predicates per node, scores, choice."""
        if pod is not None and not isinstance(pod, str):
            raise SimulationError(f"decision: pod must be 'namespace/name', got {pod!r} ({type(pod).__name__})")
        if pod == "":
            raise SimulationError("decision: pod '' is empty; give 'namespace/name' or leave it out to use sim.follow")
        key = pod or self.follow
        if not key:
            raise SimulationError("decision() needs a pod: decision('default/web-1')")
        key = args.pod_key("decision", key, self.known_pods())
        return self._trace_decisions.of(self.trace, self.cursor + 1, key)

    def known_pods(self) -> set[str]:
        """Keys of every pod the API server stores or the trace mentions (for argument checks)."""
        keys = {f"{p.metadata.namespace}/{p.metadata.name}" for p in self.world.api.storage.items("pods")}
        for obj in (*self.scenario.objects, *(a.arg for a in self.scenario.timeline if a.kind == "create")):
            if type(obj).kind == "Pod":
                keys.add(f"{obj.metadata.namespace or 'default'}/{obj.metadata.name}")
        keys |= self._trace_pods.of(self.trace)
        return keys

    def known_nodes(self) -> set[str]:
        """Names of every node the API server stores or the trace mentions."""
        names = {n.metadata.name for n in self.world.api.storage.items("nodes")}
        names |= {ev.data["node"] for ev in self.trace if isinstance(ev.data.get("node"), str) and ev.data["node"]}
        return names

    def show(self, view: str = "pipeline", **kwargs: Any) -> Any:
        """A Graphviz view of the snapshot at the cursor (pipeline, startup, cache, decision,
        pod_states, leader_election)."""
        from kschedlearn.simulation.views import show_view

        return show_view(self, view, **kwargs)

    def explorer(self) -> Any:
        """The interactive explorer widget (ipywidgets).

        Built by ``kschedlearn.open_explorer``: the widgets import this package, so this
        package does not import them.
        """
        from kschedlearn import open_explorer

        return open_explorer(self)

    def export_json(self, path: str | Path | None = None, *, with_snapshots: bool = True) -> str:
        """The recorded trace as JSON text (byte-identical for the same scenario and seed)."""
        from kschedlearn.simulation.recording import dump_trace

        target = args.writable_path("export_json", "path", path) if path is not None else None
        text = dump_trace(self, with_snapshots=with_snapshots)
        if target is not None:
            target.write_text(text, encoding="utf-8")
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
        return {"scenario": self.scenario.name, "seed": self.seed, "events": len(self.trace), "cursor": self.cursor,
                "time": self.time, "bound": sum(1 for p in pods if p.node_name), "pods": len(pods)}


__all__ = ["Questions", "TraceDecisions", "TracePods"]
