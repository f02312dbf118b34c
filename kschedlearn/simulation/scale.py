"""Measure where the 1.6 algorithm spends its time as the cluster grows (notebook 14).

Go: none — kschedlearn-only. The set-up is the benchmark's (``benchmarks/bench_scheduler.py
--workload``): ``test/integration/scheduler_perf``'s pod (one container, 100m CPU / 500Mi,
port 80) owned by one ReplicationController that one Service also selects; nodes of 4 CPU /
32Gi / 110 pods in three zones; the bound pods spread round robin. The cluster goes through the
embedded API server and the shared informers into the scheduler cache (``NewConfigFactory``,
``CreateFromProvider("DefaultProvider")``), then each new pod is ``Schedule``\\ d and, on
success, assumed, finished and added to the cache, as kube-scheduler does.

Everything here observes from outside: the per-stage timers replace entries of the
``GenericScheduler``'s predicate map and priority list *of one instance* with timing wrappers
(the mirrored functions themselves are untouched), and call counts come from ``cProfile``. Only
the mirrored engine is timed per stage: the accelerated engine recognises its cacheable
predicates by function identity, so a wrapper would switch its caches off.

Results are plain ``attrs`` values; drawing them is :mod:`kschedlearn.viz.scale`'s job.
"""

from __future__ import annotations

import cProfile
import inspect
import gc
import pstats
import time
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from kschedlearn import sim
from kschedlearn.api.v1 import Node, Pod, ReplicationController, Service
from kschedlearn.apimachinery import labels
from kschedlearn.apiserver.clientset import new_for_server
from kschedlearn.apiserver.server import APIServer
from kschedlearn.simulation.simulation import SimulationError

NAMESPACE = "default"
ZONES = ("zone-a", "zone-b", "zone-c")
_POD_LABELS = {"name": "rc1"}


class ScaleError(SimulationError):
    """A workload that cannot be built (a negative size, an unknown engine)."""


# --- the workload ------------------------------------------------------------------------------


@attrs.frozen
class Workload:
    """N nodes, M pods already bound (round robin), K pods to schedule, one Service and one RC."""

    nodes: tuple[Node, ...]
    bound: tuple[Pod, ...]
    new: tuple[Pod, ...]
    services: tuple[Service, ...]
    controllers: tuple[ReplicationController, ...]

    @property
    def shape(self) -> str:
        return f"{len(self.nodes):,} nodes / {len(self.bound):,} bound / {len(self.new):,} new"


def _node(i: int) -> Node:
    name = f"node-{i:05d}"
    res = {"cpu": "4", "memory": "32Gi", "pods": "110"}
    return Node.from_dict({
        "metadata": {"name": name, "uid": f"uid-{name}", "labels": {
            "kubernetes.io/hostname": name, "beta.kubernetes.io/os": "linux",
            "failure-domain.beta.kubernetes.io/region": "region-1",
            "failure-domain.beta.kubernetes.io/zone": ZONES[i % len(ZONES)]}},
        "spec": {},
        "status": {"capacity": dict(res), "allocatable": dict(res), "conditions": [
            {"type": "Ready", "status": "True"}, {"type": "OutOfDisk", "status": "False"},
            {"type": "MemoryPressure", "status": "False"}, {"type": "DiskPressure", "status": "False"}]},
    })


def _pod_spec() -> dict[str, Any]:
    r = {"cpu": "100m", "memory": "500Mi"}
    return {"schedulerName": "default-scheduler", "containers": [{
        "name": "pause", "image": "kubernetes/pause", "ports": [{"containerPort": 80}],
        "resources": {"requests": dict(r), "limits": dict(r)}}]}


def _pod(name: str, node: str | None) -> Pod:
    spec = _pod_spec()
    if node is not None:
        spec["nodeName"] = node
    return Pod.from_dict({
        "metadata": {"name": name, "namespace": NAMESPACE, "uid": f"uid-{name}", "labels": dict(_POD_LABELS),
                     "ownerReferences": [{"apiVersion": "v1", "kind": "ReplicationController", "name": "rc1",
                                          "uid": "uid-rc1", "controller": True}]},
        "spec": spec,
    })


def make_workload(nodes: int, bound: int, new: int) -> Workload:
    """The benchmark's shape at any size (``make_workload(100, 3000, 1000)`` is its "small")."""
    for what, value in (("nodes", nodes), ("bound", bound), ("new", new)):
        if not isinstance(value, int) or value < 0 or (what == "nodes" and value == 0):
            raise ScaleError(f"make_workload: {what}={value!r} must be a non-negative integer (nodes ≥ 1)")
    ns = tuple(_node(i) for i in range(nodes))
    svc = Service.from_dict({"metadata": {"name": "svc1", "namespace": NAMESPACE, "uid": "uid-svc1"},
                             "spec": {"selector": dict(_POD_LABELS), "ports": [{"port": 80, "targetPort": 80}]}})
    rc = ReplicationController.from_dict({
        "metadata": {"name": "rc1", "namespace": NAMESPACE, "uid": "uid-rc1"},
        "spec": {"replicas": bound + new, "selector": dict(_POD_LABELS),
                 "template": {"metadata": {"labels": dict(_POD_LABELS)}, "spec": _pod_spec()}}})
    return Workload(
        nodes=ns,
        bound=tuple(_pod(f"bound-{i:06d}", ns[i % nodes].metadata.name) for i in range(bound)),
        new=tuple(_pod(f"new-{i:06d}", None) for i in range(new)),
        services=(svc,), controllers=(rc,))


# --- the scheduler over it ---------------------------------------------------------------------


@attrs.define(eq=False)
class Harness:
    """The runtime, the scheduler's ``Config`` (algorithm, cache, node lister) and the pods to place."""

    runtime: sim.Runtime
    config: Any
    workload: Workload
    engine: str
    #: the fast paths beside the mirror stay in place while the harness lives (as in a world)
    fast_paths: Any = None


def build(workload: Workload, engine: str = "mirrored") -> Harness:
    """Wire the 1.6 scheduler over ``workload`` and wait until its cache and listers hold it all."""
    from kschedlearn.accelerated import ENGINES, create_from_provider_accelerated, fast_paths
    from kschedlearn.client_go.informers import new_shared_informer_factory
    from kschedlearn.scheduler.factory import plugins
    from kschedlearn.scheduler.factory.factory import new_config_factory

    if engine not in ENGINES:
        raise ScaleError(f"build: engine {engine!r} is not one of {', '.join(ENGINES)}")
    rt = sim.Runtime(seed=1)
    api = APIServer(rt)
    for node in workload.nodes:
        api.create("nodes", "", node)
    for svc in workload.services:
        api.create("services", NAMESPACE, svc)
    for rc in workload.controllers:
        api.create("replicationcontrollers", NAMESPACE, rc)
    for pod in workload.bound:
        api.create("pods", NAMESPACE, pod)
    client = new_for_server(api)
    informers = new_shared_informer_factory(client, 0)

    def create() -> tuple[Any, Any]:
        v1 = informers.core().v1()
        factory = new_config_factory(
            "default-scheduler", client, v1.nodes(), v1.persistent_volumes(), v1.persistent_volume_claims(),
            v1.replication_controllers(), informers.extensions().v1beta1().replica_sets(),
            informers.apps().v1beta1().stateful_sets(), v1.services(), 1)
        if engine == "accelerated":
            cfg = create_from_provider_accelerated(factory, plugins.DEFAULT_PROVIDER)
        else:
            cfg = factory.create_from_provider(plugins.DEFAULT_PROVIDER)
        informers.start(factory.stop_everything)
        return factory, cfg

    factory, cfg = rt.run_fn(create)
    cache, everything = cfg.scheduler_cache, labels.everything()
    rt.run(stop_when=lambda: len(cache._pod_states) >= len(workload.bound)
           and sum(1 for ni in cache._nodes.values() if ni.node() is not None) >= len(workload.nodes)
           and len(cfg.node_lister.list()) >= len(workload.nodes)
           and len(factory.service_lister.list(everything)) >= len(workload.services)
           and len(factory.controller_lister.list(everything)) >= len(workload.controllers))
    return Harness(runtime=rt, config=cfg, workload=workload, engine=engine, fast_paths=fast_paths.acquire())


def _place(h: Harness, pod: Pod) -> str:
    """One scheduleOne without the binding round trip: Schedule, then assume, finish, confirm."""
    host = h.config.algorithm.schedule(pod, h.config.node_lister)
    assumed = attrs.evolve(pod, spec=attrs.evolve(pod.spec, node_name=host))
    cache = h.config.scheduler_cache
    cache.assume_pod(assumed)
    cache.finish_binding(assumed)
    cache.add_pod(assumed)
    return host


def schedule_pods(h: Harness, pods: Sequence[Pod] | None = None) -> list[str]:
    """Place ``pods`` (default: the workload's new pods) one after another; their hosts in order."""
    todo = list(h.workload.new if pods is None else pods)
    return h.runtime.run_fn(lambda: [_place(h, p) for p in todo])


# --- throughput --------------------------------------------------------------------------------


@attrs.frozen
class Throughput:
    """One timed run: pods placed per second of wall and of CPU time, and where they went."""

    engine: str
    shape: str
    pods: int
    wall_s: float
    cpu_s: float
    hosts: tuple[str, ...]

    @property
    def pods_per_s(self) -> float:
        return self.pods / self.wall_s if self.wall_s else float("inf")

    @property
    def pods_per_cpu_s(self) -> float:
        return self.pods / self.cpu_s if self.cpu_s else float("inf")


def throughput(workload: Workload, engine: str) -> Throughput:
    """Build, then time the placement of every new pod (wall and CPU), as the benchmark does."""
    h = build(workload, engine)
    gc.collect()
    wall, cpu = time.perf_counter(), time.process_time()
    hosts = schedule_pods(h)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return Throughput(engine, workload.shape, len(hosts), wall, cpu, tuple(hosts))


# --- per-stage profile (mirrored engine) -------------------------------------------------------


@attrs.frozen
class StageProfile:
    """Seconds spent per stage while placing the new pods; ``other`` is the remainder (node
    list, snapshot update, the Parallelize loops, score sums, selectHost, assume and confirm)."""

    shape: str
    nodes: int
    bound: int
    pods: int
    seconds: tuple[tuple[str, float], ...]
    total_s: float

    def fraction(self, stage: str) -> float:
        return dict(self.seconds).get(stage, 0.0) / self.total_s if self.total_s else 0.0

    def per_pod_ms(self, stage: str | None = None) -> float:
        s = self.total_s if stage is None else dict(self.seconds).get(stage, 0.0)
        return 1e3 * s / self.pods if self.pods else 0.0


@attrs.define(eq=False)
class StageTimers:
    """Live sums of the timing wrappers: seconds and calls per bucket."""

    seconds: dict[str, float] = attrs.field(factory=dict)
    calls: dict[str, int] = attrs.field(factory=dict)

    def timed(self, fn: Callable[..., Any], bucket: str) -> Callable[..., Any]:
        """``fn`` wrapped so that its time and calls add to ``bucket``."""
        seconds, calls, clock = self.seconds, self.calls, time.perf_counter

        def wrapper(*args: Any, **kwargs: Any) -> Any:
            t = clock()
            try:
                return fn(*args, **kwargs)
            finally:
                seconds[bucket] = seconds.get(bucket, 0.0) + clock() - t
                calls[bucket] = calls.get(bucket, 0) + 1
        return wrapper


def wrapper_overhead(reps: int = 50_000) -> float:
    """CPU seconds one timing wrapper adds to a call (best of three), to subtract from the profile.

    ``cProfile``'s calibration idea: time a wrapped no-op against the bare one — in CPU time, so
    that other programs on the machine do not count.
    """
    def noop() -> None:
        return None

    wrapped = StageTimers().timed(noop, "x")
    best = float("inf")
    for _ in range(3):
        t = time.process_time()
        for _ in range(reps):
            wrapped()
        mid = time.process_time()
        for _ in range(reps):
            noop()
        best = min(best, ((mid - t) - (time.process_time() - mid)) / reps)
    return max(0.0, best)


def instrument_stages(h: Harness, *, per_predicate: bool = False) -> StageTimers:
    """Swap this harness's predicates and priorities for timing wrappers; returns their live sums.

    The buckets: ``predicates`` (or one per predicate name with ``per_predicate``), one per
    priority name, and the two metadata producers (run once per pod, before the node loops).
    Mirrored engine only (module docstring). The clock is ``perf_counter``: a CPU-time clock
    costs a system call (~2 µs here) per reading, more than many predicates.
    """
    if h.engine != "mirrored":
        raise ScaleError(f"instrument_stages: engine {h.engine!r}; time stages on the mirrored engine only "
                         f"(the accelerated one recognises its cached predicates by identity)")
    timers = StageTimers()
    algo = h.config.algorithm
    algo.predicates = {name: timers.timed(fn, name if per_predicate else "predicates")
                       for name, fn in algo.predicates.items()}
    wrapped = []
    for c in algo.prioritizers:
        wrapped.append(attrs.evolve(
            c, map_fn=c.map_fn and timers.timed(c.map_fn, c.name), reduce=c.reduce and timers.timed(c.reduce, c.name),
            function=c.function and timers.timed(c.function, c.name)))
    algo.prioritizers = wrapped
    algo.predicate_meta_producer = timers.timed(algo.predicate_meta_producer, "predicate metadata")
    algo.priority_meta_producer = timers.timed(algo.priority_meta_producer, "priority metadata")
    return timers


#: the profile's bucket for the timing wrappers' own cost (calls × :func:`wrapper_overhead`)
TIMERS = "timers (estimated)"


def profile_stages(workload: Workload, *, per_predicate: bool = False) -> StageProfile:
    """Place the workload's new pods with the mirrored engine and split the time by stage.

    The wrappers' own cost is estimated (calls × :func:`wrapper_overhead`) and shown as its own
    bucket, :data:`TIMERS`, instead of inflating ``other``. ``total_s`` is CPU time; each
    bucket is its wall-clock share of the run times that CPU time.
    """
    h = build(workload, "mirrored")
    timers = instrument_stages(h, per_predicate=per_predicate)
    overhead = wrapper_overhead()
    gc.collect()
    wall, cpu = time.perf_counter(), time.process_time()
    schedule_pods(h)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    # The wrappers read the cheap wall clock; on a loaded machine the process also waits, and
    # a wait lands in whichever stage is running — in proportion to its time. So the wall-clock
    # shares stand, scaled to the CPU time the attempt really used.
    to_cpu = min(1.0, cpu / wall) if wall > 0 else 1.0
    stages = sorted(((k, v * to_cpu) for k, v in timers.seconds.items()), key=lambda kv: -kv[1])
    rest = max(0.0, cpu - sum(v for _, v in stages))
    cost = min(overhead * sum(timers.calls.values()), rest)
    return StageProfile(workload.shape, len(workload.nodes), len(workload.bound), len(workload.new),
                        (*stages, ("other", rest - cost), (TIMERS, cost)), cpu)


# --- call counts (deterministic, unlike times) -------------------------------------------------


@attrs.frozen
class CallCount:
    """How often ``function`` ran while one pod was placed, and from which callers."""

    function: str
    calls: int
    by_caller: tuple[tuple[str, int], ...]


def count_calls(h: Harness, pod: Pod, functions: Sequence[Callable[..., Any]]) -> dict[str, CallCount]:
    """Place ``pod`` under ``cProfile`` and count the calls of each of ``functions`` (by code object)."""
    prof = cProfile.Profile()
    prof.enable()
    try:
        schedule_pods(h, [pod])
    finally:
        prof.disable()
    stats = pstats.Stats(prof).stats  # type: ignore[attr-defined]
    out: dict[str, CallCount] = {}
    for fn in functions:
        bare = inspect.unwrap(fn)  # (a simulation may have a trace point in front of it)
        code = bare.__code__
        key = (code.co_filename, code.co_firstlineno, code.co_name)
        _, ncalls, _, _, callers = stats.get(key, (0, 0, 0, 0, {}))
        by = tuple(sorted(((c[2], v[1] if isinstance(v, tuple) else v) for c, v in callers.items()), key=lambda x: -x[1]))
        out[bare.__qualname__] = CallCount(bare.__qualname__, ncalls, by)
    return out
