"""A small harness for end-to-end scheduler tests: API server + one kube-scheduler on the sim.

Go: none — kschedlearn-only test support (the role test/integration/scheduler plays upstream).

``start_cluster()`` builds a deterministic runtime with a tracer, the embedded API server,
some nodes, and one scheduler process running ``app.run`` (leader election off) with the
pod-journey trace points attached. The returned :class:`Cluster` has helpers to create and
delete pods and nodes, advance virtual time, and read what happened: trace events, API
events (``Scheduled`` / ``FailedScheduling``), the bound pods on the server and the
scheduler cache's view.
"""

from __future__ import annotations

import types
from collections import Counter
from collections.abc import Iterable
from typing import Any

import attrs

from kschedlearn import sim, trace
from kschedlearn.api.v1 import Node, Pod
from kschedlearn.apiserver.clientset import new_for_server
from kschedlearn.apiserver.server import APIServer
from kschedlearn.cmd.kube_scheduler.app import server as app
from kschedlearn.observe.observation import ReplicaHandles
from kschedlearn.observe.replica import observe_kube_scheduler
from kschedlearn.observe.views import cache_state

SCHEDULER_PROCESS = "scheduler-0"


def scheduler_server(**overrides: Any) -> Any:
    """A SchedulerServer with the 1.6 defaults and leader election off.

    Uses ``options.new_scheduler_server()`` when that module exists, else an equivalent
    namespace with the same field names (spec §1.2).
    """
    try:
        from kschedlearn.cmd.kube_scheduler.app.options.options import new_scheduler_server
    except ImportError:
        s = types.SimpleNamespace(
            master="", kubeconfig="", kube_api_qps=50, kube_api_burst=100,
            scheduler_name="default-scheduler", hard_pod_affinity_symmetric_weight=1,
            policy_config_file="", algorithm_provider="DefaultProvider", port=10251,
            address="0.0.0.0", enable_profiling=True, enable_contention_profiling=False,
            content_type="", failure_domains="",
            leader_election=types.SimpleNamespace(leader_elect=False, lease_duration=15,
                                                  renew_deadline=10, retry_period=2),
        )
    else:
        s = new_scheduler_server()
        s.leader_election.leader_elect = False
    for name, value in overrides.items():
        if not hasattr(s, name):
            raise AttributeError(f"scheduler_server: SchedulerServer has no field {name!r}")
        setattr(s, name, value)
    return s


def node_manifest(name: str, cpu: str = "4", memory: str = "8Gi", pods: str = "110",
                  ready: bool = True, unschedulable: bool = False) -> Node:
    return Node.from_dict({
        "metadata": {"name": name},
        "spec": {"unschedulable": unschedulable},
        "status": {"allocatable": {"cpu": cpu, "memory": memory, "pods": pods},
                   "conditions": [{"type": "Ready", "status": "True" if ready else "False"}]},
    })


def pod_manifest(name: str, cpu: str = "100m", memory: str = "100Mi",
                 scheduler_name: str | None = None, namespace: str = "default") -> Pod:
    spec: dict[str, Any] = {"containers": [{"name": "c", "resources": {
        "requests": {"cpu": cpu, "memory": memory}}}]}
    if scheduler_name is not None:
        spec["schedulerName"] = scheduler_name
    return Pod.from_dict({"metadata": {"name": name, "namespace": namespace}, "spec": spec})


@attrs.define(eq=False)
class Cluster:
    """One simulated cluster: runtime, API server, admin client, one running scheduler."""

    rt: sim.Runtime
    api: APIServer
    cs: Any  # an unthrottled "kubectl" client (the scheduler has its own, rate-limited one)
    h: ReplicaHandles
    proc: sim.Process

    # -- driving ---------------------------------------------------------------------------
    def run(self, seconds: float) -> None:
        """Advance virtual time by ``seconds`` (everything due runs)."""
        self.rt.run(until=self.rt.now + seconds)

    def run_until(self, t: float) -> None:
        self.rt.run(until=t)

    def run_until_stage(self, stage: str, timeout: float) -> bool:
        """Run until a new trace event of ``stage`` is emitted (True) or ``timeout`` passes.

        The runtime stops right after the goroutine switch that emitted it, so a test can
        inject a fault between two steps that happen at the same virtual instant.
        """
        events = self.rt.tracer.events
        seen = [len(events)]

        def hit() -> bool:
            new = events[seen[0]:]
            seen[0] = len(events)
            return any(e.stage == stage for e in new)

        self.rt.run(until=self.rt.now + timeout, stop_when=hit)
        return any(e.stage == stage for e in events[seen[0] - 1:]) if events else False

    # -- objects -----------------------------------------------------------------------------
    def add_node(self, name: str, **kw: Any) -> Node:
        return self.cs.core_v1().nodes().create(node_manifest(name, **kw))

    def create_pod(self, name: str, **kw: Any) -> Pod:
        ns = kw.get("namespace", "default")
        return self.cs.core_v1().pods(ns).create(pod_manifest(name, **kw))

    def pod(self, name: str, namespace: str = "default") -> Pod:
        return self.cs.core_v1().pods(namespace).get(name)

    def pods(self) -> list[Pod]:
        return list(self.api.storage.items("pods"))

    @property
    def factory(self) -> Any:
        return self.h.config_factory

    @property
    def cache(self) -> Any:
        return self.h.config_factory.scheduler_cache

    # -- observations ------------------------------------------------------------------------
    def trace(self, stage: str, **match: Any) -> list[Any]:
        """Trace events of ``stage`` whose data contains every ``match`` item."""
        return [e for e in self.rt.tracer.events if e.stage == stage
                and all(e.data.get(k) == v for k, v in match.items())]

    def api_events(self, pod: str | None = None, reason: str | None = None) -> list[Any]:
        """Event objects stored in the API server (optionally for one pod / one reason)."""
        return [e for e in self.api.storage.items("events")
                if (pod is None or e.involved_object.name == pod)
                and (reason is None or e.reason == reason)]

    def bind_counts(self) -> Counter[str]:
        """Successful binds per pod key (the API server emits apiserver.bind on success only)."""
        return Counter(e.data["pod"] for e in self.trace("apiserver.bind"))

    def server_bound(self) -> dict[str, set[str]]:
        """node name → keys of the bound, non-terminated pods the API server stores."""
        out: dict[str, set[str]] = {}
        for p in self.pods():
            if p.spec.node_name and p.status.phase not in ("Succeeded", "Failed"):
                out.setdefault(p.spec.node_name, set()).add(f"{p.metadata.namespace}/{p.metadata.name}")
        return out

    def cache_pods(self) -> dict[str, set[str]]:
        """node name → pod keys in the scheduler cache (nodes without pods left out)."""
        return {n.name: set(n.pods) for n in cache_state(self.cache).nodes if n.pods}

    def crashes(self) -> list[Any]:
        return list(self.rt.crashes)


def pod_request(pod: Pod) -> tuple[int, int]:
    """(milli-CPU, memory bytes) requested by the pod's regular containers (spec §4.4)."""
    cpu = mem = 0
    for c in pod.spec.containers:
        req = c.resources.requests
        if "cpu" in req:
            cpu += req["cpu"].milli_value()
        if "memory" in req:
            mem += req["memory"].value()
    return cpu, mem


def start_cluster(nodes: Iterable[str] | int = 5, seed: int = 1, start: float = 1.0,
                  log_verbosity: int = 4, **server_overrides: Any) -> Cluster:
    """Build the cluster and run until ``start`` so the scheduler is up and watching."""
    rt = sim.Runtime(seed=seed)
    rt.tracer = trace.Tracer(capture_stacks=False, log_verbosity=log_verbosity)
    api = APIServer(rt)
    cs = new_for_server(api)
    names = [f"node-{i}" for i in range(nodes)] if isinstance(nodes, int) else list(nodes)
    for name in names:
        cs.core_v1().nodes().create(node_manifest(name))
    s = scheduler_server(**server_overrides)
    proc = rt.new_process(SCHEDULER_PROCESS)
    h = observe_kube_scheduler(rt).handles(proc)  # the trace points, as a world attaches them
    rt.go(lambda: app.run(s, api), process=proc, name="main")
    rt.run(until=start)
    return Cluster(rt=rt, api=api, cs=cs, h=h, proc=proc)


__all__ = ["Cluster", "node_manifest", "pod_manifest", "pod_request", "scheduler_server",
           "start_cluster"]
