"""Nothing silent: unknown names are errors with suggestions; crashes and the end are told.

Go: none — kschedlearn-only. A typo given to ``run_until`` / ``add_breakpoint`` ("asume") would
otherwise run the scenario to its end and return None; a simulated process that dies (a
``glog.Fatalf`` on a bad policy, a panic) would otherwise only leave a ``process.crash`` event in
a long trace. This module holds the error and warning classes, the frozen record of a crash and
the name checks :class:`~kschedlearn.simulation.simulation.Simulation` runs.
"""

from __future__ import annotations

import difflib
import functools
import threading
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from kschedlearn.simulation.where import CodeLocation, where
from kschedlearn.trace import CATALOGUE, TraceEvent

if TYPE_CHECKING:
    from kschedlearn.simulation.simulation import Simulation


class SimulationError(Exception):
    """A request the simulation cannot honour (bad step granularity, unknown pod, ...)."""


class WrongThreadError(SimulationError):
    """The notebook API was called from another thread than the simulation's own.

    A simulation's goroutines are greenlets, which can only ever run on the thread that created
    them; so a simulation belongs to one thread (the one that created it) and refuses every other
    one before anything changes - the session stays intact.
    """


def owner_thread_check(owner: threading.Thread, call: str) -> None:
    """Raise :class:`WrongThreadError` when ``call`` runs on another thread than ``owner``."""
    here = threading.current_thread()
    if here is owner:
        return
    ended = "" if owner.is_alive() else ", which has ended"
    raise WrongThreadError(
        f"{call} was called from thread {here.name!r}, but this simulation belongs to thread {owner.name!r}"
        f"{ended} (the thread that created it): its goroutines can only run there. Call it from "
        f"{owner.name!r} (hand the work to that thread, e.g. with a queue), or create a Simulation in "
        f"{here.name!r}. Nothing was changed.")


def owner_thread_only(method: Callable[..., Any]) -> Callable[..., Any]:
    """A method of the notebook API that only the simulation's own thread may call."""

    @functools.wraps(method)
    def checked(self: Any, *args: Any, **kwargs: Any) -> Any:
        self.check_thread(f"{type(self).__name__}.{method.__name__}()")
        return method(self, *args, **kwargs)

    return checked


class UnknownNameError(SimulationError, ValueError):
    """A stage, pod or node name the scenario does not know; the message suggests close ones."""

    def __init__(self, kind: str, name: str, suggestions: Sequence[str], where_from: str) -> None:
        self.kind, self.name, self.suggestions = kind, name, tuple(suggestions)
        quoted = [repr(s) for s in suggestions]
        hint = f"; did you mean {' or '.join(quoted) if len(quoted) < 3 else ', '.join(quoted[:-1]) + ' or ' + quoted[-1]}?" if quoted else ""
        super().__init__(f"{where_from}: unknown {kind} {name!r}{hint}")


class SimulatedProcessCrashed(UserWarning):
    """A simulated process (a kube-scheduler replica, the API server, ...) exited with an error."""


class ScenarioEnded(UserWarning):
    """A step was asked for after the scenario's last event: nothing moved."""


def event_pods(ev: TraceEvent) -> set[str]:
    """The pod keys an event names (its ``pod`` and ``key`` data)."""
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
        if self.pod is not None and self.pod not in event_pods(ev):
            return False
        if self.node is not None and ev.data.get("node") != self.node:
            return False
        return True


@attrs.frozen
class ProcessCrash:
    """One simulated process that crashed: which, at which event and time, with what error,
    during which stage (the last teaching event of that process before the crash), and where
    in the mirrored code it raised."""

    process: str
    seq: int
    time: float
    error: str
    stage: str
    location: CodeLocation | None = None

    def describe(self) -> str:
        """``scheduler-0 crashed at event 12 (t=0s, during createScheduler): FatalError: ...``."""
        during = f", during {self.stage}" if self.stage else ""
        return f"{self.process} crashed at event {self.seq} (t={self.time:g}s{during}): {self.error}"


def crash_of(trace: Sequence[TraceEvent], ev: TraceEvent) -> ProcessCrash:
    """The :class:`ProcessCrash` a ``process.crash`` event records."""
    process = str(ev.data.get("process", ev.process))
    stage = ""
    for prior in reversed(trace[: ev.seq]):
        if prior.process == process and prior.stage not in ("log", "process.crash"):
            stage = prior.stage
            break
    return ProcessCrash(process=process, seq=ev.seq, time=ev.time, error=str(ev.data.get("error", ev.message)),
                        stage=stage, location=where(ev))


def crashes_in(trace: Sequence[TraceEvent], start: int, stop: int) -> tuple[ProcessCrash, ...]:
    """The crashes recorded at events ``start`` .. ``stop`` (inclusive)."""
    return tuple(crash_of(trace, trace[i]) for i in range(max(start, 0), min(stop + 1, len(trace)))
                 if trace[i].stage == "process.crash")


def check_name(kind: str, name: str, known: Iterable[str], where_from: str) -> None:
    """Raise :class:`UnknownNameError` unless ``name`` is one of ``known``."""
    pool = sorted(set(known))
    if name in pool:
        return
    folded = [p for p in pool if p.lower() == name.lower()]
    suggestions = folded or difflib.get_close_matches(name, pool, n=3, cutoff=0.6)
    if not suggestions and "/" not in name and kind == "pod":
        suggestions = [p for p in pool if p.endswith("/" + name)][:3]
    raise UnknownNameError(kind, name, suggestions, where_from)


def scenario_names(objects: Iterable[Any], kind: str) -> set[str]:
    """Pod keys (``namespace/name``) or node names among manifests."""
    names = set()
    for obj in objects:
        if getattr(type(obj), "kind", "") != kind:
            continue
        meta = obj.metadata
        names.add(f"{meta.namespace or 'default'}/{meta.name}" if kind == "Pod" else meta.name)
    return names


def _created(sim: Simulation) -> list[Any]:
    objects = [*sim.scenario.objects, *(a.arg for a in sim.scenario.timeline if a.kind == "create")]
    return objects + [inj.action.arg for inj in sim._injections if inj.action.kind == "create"]


def _event_keys(ev: TraceEvent, fields: tuple[str, ...]) -> set[str]:
    return {v for f in fields if isinstance(v := ev.data.get(f), str) and v}


def known_stages(sim: Simulation) -> set[str]:
    """Every stage a trace point can emit (the catalogue, once the world's modules are loaded)
    plus the teaching stages and those already recorded."""
    from kschedlearn.simulation.simulation import TEACHING_STAGES

    trace = sim.trace  # building the world imports every module that registers stages
    return set(CATALOGUE) | set(TEACHING_STAGES) | {ev.stage for ev in trace}


def known_pods(sim: Simulation) -> set[str]:
    """Pod keys the scenario creates (objects, timeline, injections), the API server holds or
    the trace names."""
    pods = scenario_names(_created(sim), "Pod")
    pods |= {f"{p.metadata.namespace}/{p.metadata.name}" for p in sim.world.api.storage.items("pods")}
    for ev in sim.trace:
        pods |= {k for k in event_pods(ev) if "/" in k}
    return pods


def known_nodes(sim: Simulation) -> set[str]:
    """Node names the scenario creates, the API server holds or the trace names."""
    nodes = scenario_names(_created(sim), "Node")
    nodes |= {n.metadata.name for n in sim.world.api.storage.items("nodes")}
    for ev in sim.trace:
        nodes |= _event_keys(ev, ("node",))
    return nodes


def check_names(sim: Simulation, *, stage: str | None, pod: str | None, node: str | None, where_from: str) -> None:
    """Raise :class:`UnknownNameError` for the first unknown one of ``stage``, ``pod``, ``node``
    (and :class:`SimulationError` for one that is not a string)."""
    for kind, value in (("stage", stage), ("pod", pod), ("node", node)):
        if value is not None and not isinstance(value, str):
            raise SimulationError(f"{where_from}: {kind} must be a name (a string), got {value!r} ({type(value).__name__})")
    if stage is not None:
        check_name("stage", stage, known_stages(sim), where_from)
    if pod is not None:
        check_name("pod", pod, known_pods(sim), where_from)
    if node is not None:
        check_name("node", node, known_nodes(sim), where_from)


__all__ = ["Breakpoint", "event_pods", "known_stages", "known_pods", "known_nodes", "check_names",
           "SimulationError", "UnknownNameError", "SimulatedProcessCrashed", "ScenarioEnded",
           "ProcessCrash", "crash_of", "crashes_in", "check_name", "scenario_names"]
