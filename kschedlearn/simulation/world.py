"""One execution of a scenario: runtime, API server, kube-scheduler replicas, kubelet, workload.

Go: none — kschedlearn-only (DESIGN §7). A :class:`World` is built from a scenario and a seed
and can only move forward; :class:`kschedlearn.Simulation` records what it does and rebuilds a
fresh world (replaying deterministically) when the learner changes the past.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from kschedlearn import sim
from kschedlearn.api.v1 import Node
from kschedlearn.apimachinery.api.errors import StatusError, new_conflict, new_internal_error
from kschedlearn.apiserver.clientset import new_for_server
from kschedlearn.apiserver.rest.handler import RestHandler
from kschedlearn.apiserver.rest.types import Response
from kschedlearn.apiserver.server import APIServer
from kschedlearn.cmd.kube_scheduler import scheduler as kube_scheduler
from kschedlearn.scenarios.kubelet import KubeletSim, start_kubelet_sim
from kschedlearn.scenarios.scenario import Action, Scenario
from kschedlearn.scheduler.factory.plugins import copy_registry
from kschedlearn.simulation.controller_manager import apply_action, scale_problem, start_controller_manager
from kschedlearn.observe import Observation, ReplicaHandles, attach
from kschedlearn.observe.replica import observe_kube_scheduler
from kschedlearn.observe.sharing import Source
from kschedlearn.observe.indexes import indexed_cache_state, indexed_queue_view, quiet_queue_view
from kschedlearn.observe.views import backoff_state
from kschedlearn.trace import Tracer, TraceEvent, emit, register_stage
from kschedlearn.trace.snapshot import SnapshotBuilder

register_stage("workload", "", "The scenario's timeline acted on the cluster (a pod or node came or went, or a fault was set up).")
register_stage("inject", "", "You changed the simulation by hand at this point: the history after it was discarded.")

RESOURCES_BY_KIND = {
    "Pod": "pods", "Node": "nodes", "Service": "services", "ReplicationController": "replicationcontrollers",
    "ReplicaSet": "replicasets", "StatefulSet": "statefulsets", "PersistentVolume": "persistentvolumes",
    "PersistentVolumeClaim": "persistentvolumeclaims", "Endpoints": "endpoints", "Event": "events",
    "Deployment": "deployments", "DaemonSet": "daemonsets",
}
CLUSTER_SCOPED = {"nodes", "persistentvolumes"}


@attrs.define(eq=False)
class Replica:
    """One kube-scheduler replica of the scenario."""

    name: str
    flags: tuple[str, ...]
    process: sim.Process
    handles: ReplicaHandles


@attrs.define(eq=False)
class World:
    """A running scenario (see the module docstring)."""

    scenario: Scenario
    seed: int
    runtime: sim.Runtime
    tracer: Tracer
    api: APIServer
    client: Any
    kubelet: KubeletSim
    replicas: dict[str, Replica]
    builder: SnapshotBuilder
    observation: Observation
    #: the fast paths beside the mirror stay in place while this world lives
    fast_paths: Any = None
    finished: bool = False
    controller_manager: Any = None  # the scenario's kube-controller-manager, if it runs one
    _leader_cache: tuple[str, str] = ("", "")  # (Endpoints resourceVersion, holder identity)
    #: (runtime version, storage revision, replicas' liveness: what it was read from; the focused
    #: replica; the snapshot build it was found in, 0 outside one)
    _focused_memo: tuple[Any, Any, Any, Any, int] | None = None

    # -- running -------------------------------------------------------------------------
    def run(self, pause: Callable[[TraceEvent], bool] | None, until: float | None = None) -> TraceEvent | None:
        """Run until an event matches ``pause`` (returned), or the scenario's end (None)."""
        if self.finished:
            return None
        self.tracer.breakpoint = pause
        limit = self.scenario.duration if until is None else min(until, self.scenario.duration)
        event = self.runtime.run(until=limit)
        self.tracer.breakpoint = None
        if event is None and self.runtime.now >= self.scenario.duration:
            self.finished = True
        return event

    def take_snapshots(self) -> None:
        """Build a state snapshot at every recorded event from now on (``build_world``'s
        ``snapshots=True``): the builder as the tracer's snapshot function and listener."""
        self.tracer.snapshot_fn = self.builder
        self.tracer.listeners.append(self.builder.observe)

    def stop_snapshots(self) -> None:
        """Undo :meth:`take_snapshots` (the events after record no snapshot). Left as it is when
        snapshots are made some other way (another snapshot function: not this world's builder)."""
        if self.tracer.snapshot_fn is not self.builder:
            return
        self.tracer.snapshot_fn = None
        self.tracer.listeners[:] = [f for f in self.tracer.listeners if getattr(f, "__self__", None) is not self.builder]

    def close(self) -> None:
        """This world will not run again (the notebook replaced it): its trace points come off
        the process-wide probes and its lease on the fast paths ends."""
        self.observation.close()
        if self.fast_paths is not None:
            self.fast_paths.release()

    # -- acting on the cluster -----------------------------------------------------------
    def apply(self, action: Action, *, stage: str = "workload") -> Any:
        """Carry out one timeline action (or an injected one) now, from outside any goroutine.

        Returns what the action answers (the HTTP response of a ``request``; None otherwise).
        """
        describe = _describe(action)
        result = None
        try:
            result = self._apply(action)
        except StatusError as err:
            describe += f" — failed: {err}"
        data = {"action": action.kind, "arg": _plain(action.arg)}
        if action.kind == "request" and isinstance(result, Response):
            data["code"] = result.code
            if result.code >= 400:
                describe += f" — {result.code} {result.body.get('message', '')}"
        emit(stage, describe, data=data, runtime=self.runtime)
        return result

    def _apply(self, action: Action) -> Any:
        kind, arg = action.kind, action.arg
        if kind == "request":
            # an HTTP client's write (kubectl apply, ...): answered by the REST layer
            return RestHandler(self.api).handle(arg)
        if kind in ("apply", "scale"):  # the controllers' actions (kschedlearn/simulation/controller_manager.py)
            apply_action(self.api, kind, arg, RESOURCES_BY_KIND)
        elif kind == "create":
            resource = RESOURCES_BY_KIND[type(arg).kind]
            ns = "" if resource in CLUSTER_SCOPED else (arg.metadata.namespace or "default")
            self.api.create(resource, ns, arg)
        elif kind == "delete":
            what, name = arg.split(" ")
            if what == "pod":
                ns, _, pod_name = name.rpartition("/")
                self.api.delete("pods", ns or "default", pod_name)
            else:
                self.api.delete("nodes", "", name)
        elif kind in ("cordon", "uncordon"):
            node: Node = self.api.get("nodes", "", arg)
            self.api.update("nodes", "", attrs.evolve(node, spec=attrs.evolve(node.spec, unschedulable=(kind == "cordon"))))
        elif kind == "kill":
            target = self.controller_manager if arg == "kube-controller-manager" else self.replicas[arg]
            self.runtime.kill_process(target.process, "killed by the scenario")
        elif kind == "fault":
            self._fault(arg)
        elif kind == "clock":
            self.runtime.now += float(arg)
        else:
            raise ValueError(f"unknown action {kind!r}")

    def _fault(self, arg: dict[str, Any]) -> None:
        (name, params), = arg.items()
        params = dict(params or {})
        faults = self.api.faults
        if name == "fail_next":
            code = params.pop("error", "internal")
            error = (new_conflict(_group(params.get("resource", "pods")), params.pop("name", ""), "injected conflict")
                     if code == "conflict" else new_internal_error("injected fault"))
            faults.fail_next(params.pop("verb", "bind"), params.pop("resource", "*"), error, int(params.pop("n", 1)))
        elif name == "delay_next":
            faults.delay_next(params.pop("verb"), float(params.pop("seconds")), params.pop("resource", "*"),
                              int(params.pop("n", 1)))
        elif name == "close_watches":
            faults.close_watches(params.pop("resource", None))
        elif name == "stall_watches":
            faults.stall_watches(float(params.pop("duration")), params.pop("resource", None))
        elif name == "expire_watch_window":
            faults.expire_watch_window(int(params.pop("n", 0)), params.pop("resource", None))
        else:
            raise ValueError(f"unknown fault {name!r}")

    def objects(self) -> list[Any]:
        """Every object the API server stores (for snapshots)."""
        out: list[Any] = []
        for resource in ("pods", "nodes", "events", "endpoints"):
            out.extend(self.api.storage.items(resource))
        return out

    def focused(self) -> Replica | None:
        """The replica the views show: the leader if there is one, else the first alive one.

        Asked once per part of every snapshot: kept while no goroutine, no stored object and no
        replica's process changed (what the answer is read from), and for the rest of a snapshot's
        build without looking (``SnapshotBuilder.building``)."""
        memo, building = self._focused_memo, self.builder.building
        if building and memo is not None and memo[4] == building:
            return memo[3]  # type: ignore[no-any-return]  # (nothing it reads moves within a build)
        version, revision = self.runtime.version, self.api.storage.resource_version
        if memo is not None and memo[0] == version and memo[1] == revision \
                and memo[2] == [r.process.alive for r in self.replicas.values()]:
            if building:
                self._focused_memo = (*memo[:4], building)
            return memo[3]  # type: ignore[no-any-return]
        replica = self._focused()
        self._focused_memo = (version, revision, [r.process.alive for r in self.replicas.values()], replica, building)
        return replica

    def _focused(self) -> Replica | None:
        leader = self.builder.leader_candidates and self._leader_identity()
        for replica in self.replicas.values():
            if leader and replica.name == leader and replica.process.alive:
                return replica
        for replica in self.replicas.values():
            if replica.process.alive:
                return replica
        return next(iter(self.replicas.values()), None)

    def _leader_identity(self) -> str:
        """Who holds the scheduler lease now, read from the lock record (the API server's copy).

        Asked several times per snapshot (once per focused part), so the decoded record is kept
        until the Endpoints object's resourceVersion changes.
        """
        from kschedlearn.client.leaderelection.resourcelock.interface import (
            LEADER_ELECTION_RECORD_ANNOTATION_KEY,
            LeaderElectionRecord,
        )

        endpoints = self.api.storage.get("endpoints", ("kube-system", "kube-scheduler"))
        if endpoints is None:
            return ""
        version = endpoints.metadata.resource_version
        if self._leader_cache[0] != version:
            raw = endpoints.metadata.annotations.get(LEADER_ELECTION_RECORD_ANNOTATION_KEY, "")
            try:
                holder = LeaderElectionRecord.from_json(raw).holder_identity if raw else ""
            except ValueError:
                holder = ""
            self._leader_cache = (version, holder)
        return self._leader_cache[1]


#: the action kinds :meth:`World.apply` carries out
ACTION_KINDS = ("request", "create", "apply", "scale", "delete", "cordon", "uncordon", "kill", "fault", "clock")


def action_problem(action: Action) -> str:
    """Why :meth:`World.apply` could not carry out ``action`` ("" if it can): checked before a
    notebook's ``apply_external`` forks or records anything. Problems with ``action.arg`` say so."""
    if not isinstance(action, Action):
        return f"expected a scenario Action, got {action!r} ({type(action).__name__})"
    kind, arg = action.kind, action.arg
    if kind not in ACTION_KINDS:
        return f"action.kind must be one of {', '.join(map(repr, ACTION_KINDS))}, got {kind!r}"
    if kind in ("create", "apply") and getattr(type(arg), "kind", None) not in RESOURCES_BY_KIND:
        return f"action.arg: a {kind} needs a Kubernetes object ({', '.join(RESOURCES_BY_KIND)}), got {arg!r}"
    if kind == "scale" and scale_problem(arg):
        return scale_problem(arg)
    if kind == "delete" and not (isinstance(arg, str) and len(arg.split(" ")) == 2
                                 and arg.split(" ")[0] in ("pod", "node")):
        return f"action.arg: a delete needs 'pod namespace/name' or 'node name', got {arg!r}"
    if kind in ("cordon", "uncordon", "kill") and not isinstance(arg, str):
        return f"action.arg: a {kind} needs a name, got {arg!r}"
    if kind == "fault" and not (isinstance(arg, dict) and len(arg) == 1):
        return f"action.arg: a fault needs a one-entry mapping {{name: parameters}}, got {arg!r}"
    if kind == "clock" and (isinstance(arg, bool) or not isinstance(arg, (int, float)) or not 0 < arg < float("inf")):
        return f"action.arg: a clock jump needs a finite number of seconds > 0, got {arg!r}"
    if kind == "request" and not hasattr(arg, "describe"):
        return f"action.arg: a request needs an HTTP request object, got {arg!r}"
    return ""


def _group(resource: str) -> Any:
    from kschedlearn.apimachinery.api.errors import GroupResource

    return GroupResource("", resource)


def _describe(action: Action) -> str:
    arg = action.arg
    if action.kind in ("create", "apply"):
        meta = arg.metadata
        name = f"{meta.namespace or 'default'}/{meta.name}" if type(arg).kind not in ("Node", "PersistentVolume") else meta.name
        return f"{action.kind} {type(arg).kind} {name}"
    if action.kind == "request":
        return f"kubectl/client request {arg.describe()}"
    if action.kind == "fault":
        (name, params), = arg.items()
        return f"fault {name} {params or ''}".strip()
    return f"{action.kind} {arg}"


def _plain(arg: Any) -> Any:
    if hasattr(arg, "to_plain"):  # an HTTP request: its body as text, or base64 when binary (protobuf)
        return arg.to_plain()
    if hasattr(arg, "to_dict"):
        return arg.to_dict()
    if attrs.has(type(arg)):
        return attrs.asdict(arg)
    return arg


def build_world(
    scenario: Scenario,
    seed: int,
    *,
    snapshots: bool = True,
    snapshot_every: int = 1,
    log_verbosity: int = 4,
    capture_stacks: bool = True,
    registry: Any = None,
    engine: str = "mirrored",
    record: str = "event",
) -> World:
    """Set up a fresh world for ``scenario`` (nothing has run yet).

    ``registry``: the plugin registry its schedulers use; each replica gets its own copy of it
    (default: a copy of the default registry as it is now). ``engine``: ``"mirrored"`` (the
    statement-by-statement mirror) or ``"accelerated"`` (same outcomes and trace, less work per
    pod; ``kschedlearn.accelerated``), swapped in as each replica's scheduler is created.
    ``record``: "event" (every event), "stage" or "pod" (``history.RECORD_LEVELS``: only those
    stages are recorded; the trace points of the others do no work).
    """
    from kschedlearn.accelerated import ENGINES, fast_paths
    from kschedlearn.simulation.history import RECORD_LEVELS

    if engine not in ENGINES:
        raise ValueError(f"engine: {engine!r} is not one of {', '.join(ENGINES)}")
    rt = sim.Runtime(seed=seed)
    tracer = Tracer(capture_stacks=capture_stacks, log_verbosity=log_verbosity,
                    snapshot_every=snapshot_every if snapshots else 0, keep=RECORD_LEVELS[record])
    rt.tracer = tracer
    observation = attach(rt)
    api = APIServer(rt)
    client = new_for_server(api)
    # objects the loader already validated as 1.6's API server would are not validated twice
    api.validation = not scenario.objects_checked
    for obj in scenario.objects:
        resource = RESOURCES_BY_KIND[type(obj).kind]
        ns = "" if resource in CLUSTER_SCOPED else (obj.metadata.namespace or "default")
        api.create(resource, ns, obj)
    api.validation = True
    builder = SnapshotBuilder(runtime=rt, capture_stacks=capture_stacks, incremental=True,
                              leader_candidates=tuple(r.name for r in scenario.schedulers))
    kubelet = start_kubelet_sim(rt, client)
    world = World(scenario=scenario, seed=seed, runtime=rt, tracer=tracer, api=api, client=client,
                  kubelet=kubelet, replicas={}, builder=builder, observation=observation,
                  fast_paths=fast_paths.acquire())
    builder.api_objects = world.objects
    builder.api_version = lambda: api.storage.resource_version
    builder.api_changes = lambda rv: api.storage.changes_since(rv, _SNAPSHOT_RESOURCES)
    if snapshots:
        world.take_snapshots()

    def on_config(handles: ReplicaHandles, config: Any) -> None:
        """A replica's CreateFromKeys returned its scheduler Config: point the views at it."""
        replica = next(r for r in world.replicas.values() if r.handles is handles)
        _attach_to_builder(world, replica)

    observe_kube_scheduler(rt, assume=scenario.assume, engine=engine, on_config=on_config)
    for spec in scenario.schedulers:
        proc = rt.new_process(spec.name)
        replica = Replica(spec.name, scenario.flags_for(spec), proc, observation.handles(proc))
        world.replicas[spec.name] = replica

        def main(replica: Replica = replica) -> None:
            kube_scheduler.main(replica.flags, server=api, hostname=replica.name, registry=copy_registry(registry))

        rt.go(main, name=f"{spec.name} main", process=proc)

    cm_spec = scenario.controller_manager
    if cm_spec is not None and cm_spec.enabled:
        world.controller_manager = start_controller_manager(world, cm_spec)

    if scenario.timeline:
        workload = rt.new_process("workload")
        rt.go(_play_timeline, world, name="scenario timeline", process=workload)
    return world


#: what ``World.objects`` (the snapshots' API part) shows
_SNAPSHOT_RESOURCES = ("pods", "nodes", "events", "endpoints")


def _attach_to_builder(world: World, replica: Replica) -> None:
    """Point the snapshot builder at "the focused replica" (the leader, else the first alive
    one): its sources look it up at every snapshot, so after a fail-over the views follow the new
    leader."""
    if world.builder.cache is not None:
        return
    # the cache's and the two watched queues' views are kept up to date from their changes
    world.builder.cache = Source(_focused(world, lambda h: h.scheduler.config.scheduler_cache), indexed_cache_state)
    world.builder.queues = {
        "podQueue": Source(_focused(world, lambda h: h.config_factory.pod_queue),
                           lambda q: indexed_queue_view(q, "FIFO"), "FIFO", quiet_queue_view),
        "scheduledPodPopulator": Source(
            _focused(world, lambda h: h.config_factory.scheduled_pod_populator.config.queue),
            lambda q: indexed_queue_view(q, "DeltaFIFO"), "DeltaFIFO", quiet_queue_view),
    }
    world.builder.queues["nodeInformer"] = Source(_focused(world, _node_informer_queue),
                                                  lambda q: indexed_queue_view(q, "DeltaFIFO"), "DeltaFIFO",
                                                  quiet_queue_view)
    # the factory creates its PodBackoff inside CreateFromKeys: read it when asked
    world.builder.backoff = Source(_focused(world, lambda h: h.config_factory.pod_backoff), backoff_state)


def _node_informer_queue(handles: ReplicaHandles) -> Any:
    """The DeltaFIFO of the replica's shared node informer (None until the informer runs)."""
    informer = handles.informer_factory.informers.get(Node) if handles.informer_factory is not None else None
    controller = informer.controller if informer is not None else None
    return controller.config.queue if controller is not None else None


def _focused(world: World, part: Callable[[ReplicaHandles], Any]) -> Callable[[], Any]:
    """``part`` of whichever replica is focused right now (None before it exists)."""

    # (the build it was found in, the part): a snapshot asks each source's target once or
    # twice, and the five sources would each ask ``World.focused`` — within one build nothing
    # it reads moves (``SnapshotBuilder.building``), so the first answer stands for that build
    found: list[Any] = [0, None]

    def target() -> Any:
        building = world.builder.building
        if building and found[0] == building:
            return found[1]
        memo = world._focused_memo  # (World.focused's own first test, without the call)
        replica = memo[3] if building and memo is not None and memo[4] == building else world.focused()
        obj = None if replica is None or replica.handles.scheduler is None else part(replica.handles)
        found[0], found[1] = building, obj
        return obj

    return target


def _play_timeline(world: World) -> None:
    for action in sorted(world.scenario.timeline, key=lambda a: a.at):
        delay = action.at - sim.now()
        if delay > 0:
            sim.sleep(delay)
        world.apply(action)


__all__ = ["World", "Replica", "build_world"]
