"""What a kube-scheduler start-up did, observed in a finished simulation (exercise 1.1).

Go: none — kschedlearn-only (DESIGN §10). :func:`observe` reads the trace and the world after a
run: which replicas crashed (when, after which stage, why), when each started its HTTP
endpoints, its shared informers (and which) and its scheduling loop, how many nodes its cache
knew, which pods stayed pending with which FailedScheduling messages, and every binding POSTed
by a replica that did not hold the lease at that moment. :func:`explain` compares two
observations and says, fact by fact, what differs and what that breaks — every sentence is
built from an observed difference, none from the order of the steps.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import attrs
from kschedlearn.observe.views import cache_state

SAME = "the same start-up as kube-scheduler 1.6"


@attrs.frozen
class ReplicaStart:
    """One replica's start-up, as observed."""

    name: str
    http_at: float | None
    informers_at: float | None
    informers: tuple[str, ...]
    loop_at: float | None
    cache_nodes: int
    crash: str = ""
    leader_elect: bool = False
    leader_at: float | None = None


@attrs.frozen
class StartupObservation:
    replicas: tuple[ReplicaStart, ...]
    api_nodes: int
    pending: tuple[str, ...]
    failed_scheduling: tuple[tuple[str, int], ...]
    non_leader_binds: tuple[tuple[str, str, float, str], ...]  # (replica, pod, time, leader then)

    def replica(self, name: str) -> ReplicaStart | None:
        return next((r for r in self.replicas if r.name == name), None)

    def lines(self) -> list[tuple[str, str]]:
        """(what, observed) rows for the plug-in table."""
        rows = []
        for r in self.replicas:
            rows.append((f"{r.name} crashed", r.crash or "no"))
            rows.append((f"{r.name} /healthz from", _at(r.http_at)))
            rows.append((f"{r.name} informers", f"{_at(r.informers_at)}: {', '.join(r.informers) or 'none'}"))
            rows.append((f"{r.name} scheduling loop from", _at(r.loop_at)))
            rows.append((f"{r.name} cache nodes", f"{r.cache_nodes} of {self.api_nodes}"))
        rows.append(("pending pods", ", ".join(self.pending) or "none"))
        rows.append(("bindings by a replica without the lease", str(len(self.non_leader_binds))))
        return rows


def _at(t: float | None) -> str:
    return "never" if t is None else f"t={t:g}s"


def _first(trace: list[Any], stage: str, process: str) -> Any:
    return next((e for e in trace if e.stage == stage and e.process == process), None)


def observe(sim: Any) -> StartupObservation:
    """Read the start-up facts out of a finished simulation."""
    world, trace = sim.world, sim.trace
    crashes = {c.process: c.message for c in world.runtime.crashes}
    replicas = []
    for name, replica in world.replicas.items():
        crash = ""
        if name in crashes:
            ev = _first(trace, "process.crash", name)
            before = [e for e in trace if e.process == name and e.stage not in ("log", "process.crash")
                      and (ev is None or e.seq < ev.seq)]
            where = f" after [{before[-1].stage}]" if before else ""
            crash = f"at t={ev.time:g}s{where}: {crashes[name]}" if ev is not None else crashes[name]
        sched = replica.handles.scheduler
        nodes = sum(1 for n in cache_state(sched.config.scheduler_cache).nodes if n.has_node) if sched else 0
        http, inf, loop = (_first(trace, s, name) for s in ("startHTTP", "informerFactory.Start", "Scheduler.Run"))
        won = next((e for e in trace if e.stage == "leaderelection.acquire" and e.process == name
                    and "successfully acquired" in e.message), None)
        replicas.append(ReplicaStart(name, http.time if http else None, inf.time if inf else None,
                                     tuple(inf.data.get("started", ())) if inf else (), loop.time if loop else None,
                                     nodes, crash, _leader_elect(replica), won.time if won else None))
    pods = list(world.api.storage.items("pods"))
    pending = tuple(sorted(f"{p.metadata.namespace}/{p.metadata.name}" for p in pods if not p.spec.node_name))
    failed = Counter(e.message for e in world.api.storage.items("events") if e.reason == "FailedScheduling")
    return StartupObservation(tuple(replicas), len(list(world.api.storage.items("nodes"))), pending,
                              tuple(sorted(failed.items())),
                              _non_leader_binds(trace, {n for n, r in world.replicas.items() if _leader_elect(r)}))


def _leader_elect(replica: Any) -> bool:
    s = replica.handles.s
    return bool(s is not None and s.leader_election.leader_elect)


def _non_leader_binds(trace: list[Any], replicas: set[str]) -> tuple[tuple[str, str, float, str], ...]:
    """Bindings POSTed by a replica running with leader election while another replica (or
    nobody) held the lease."""
    leader, out = "", []
    for e in trace:
        if e.stage == "leaderelection.acquire" and "successfully acquired" in e.message:
            leader = e.process
        elif e.stage == "process.crash" and e.process == leader:
            leader = ""
        elif e.stage == "bind" and e.process in replicas and e.process != leader:
            out.append((e.process, str(e.data.get("pod", "")), e.time, leader or "nobody"))
    return tuple(out)


def explain(real: StartupObservation, mine: StartupObservation) -> str:
    """``SAME`` if nothing observable differs, else one sentence per observed difference."""
    out: list[str] = []
    for r in real.replicas:
        m = mine.replica(r.name)
        if m is None:
            continue
        out += _replica_differences(r, m, real.api_nodes)
    if mine.non_leader_binds and not real.non_leader_binds:
        proc, pod, t, leader = mine.non_leader_binds[0]
        who = sorted({b[0] for b in mine.non_leader_binds})
        out.append(f"{len(mine.non_leader_binds)} binding(s) were POSTed by a replica that did not hold the lease "
                   f"(first: {proc} bound {pod} at t={t:g}s while {leader} was the leader; replicas doing so: "
                   f"{', '.join(who)}): two replicas scheduled at the same time, each on a cache that does not see the "
                   "other's assumed pods")
    new_pending = sorted(set(mine.pending) - set(real.pending))
    if new_pending:
        out.append(f"{len(new_pending)} pod(s) were never scheduled: {', '.join(new_pending[:5])}"
                   + ("..." if len(new_pending) > 5 else ""))
    real_failed = dict(real.failed_scheduling)
    for message, n in mine.failed_scheduling:
        if n > real_failed.get(message, 0):
            out.append(f"{n} FailedScheduling event(s) said '{message}' (the real run: {real_failed.get(message, 0)})")
    return SAME if not out else "; ".join(out)


def _replica_differences(r: ReplicaStart, m: ReplicaStart, api_nodes: int) -> list[str]:
    out = []
    if m.crash and not r.crash:
        out.append(f"{m.name} crashed {m.crash} - a step used something that no earlier step had created yet")
    if m.informers != r.informers and m.informers_at is not None:
        out.append(f"{m.name}'s informerFactory.Start started {', '.join(m.informers) or 'no informers at all'} "
                   f"(the real run: {', '.join(r.informers)}) - Start only runs informers that were already "
                   "requested, and the scheduler requests them in createScheduler")
    elif m.informers_at is None and r.informers_at is not None and not m.crash:
        out.append(f"{m.name} never started its shared informers")
    elif m.informers_at is not None and r.informers_at is not None and m.informers_at > r.informers_at + 1e-9:
        out.append(f"{m.name} started its informers only at t={m.informers_at:g}s (the real run: t={r.informers_at:g}s): "
                   "until then its caches were cold")
    if m.cache_nodes < r.cache_nodes and not m.crash:
        out.append(f"{m.name}'s scheduler cache knew {m.cache_nodes} of {api_nodes} nodes (the real run: {r.cache_nodes})")
    if m.http_at is None and r.http_at is not None and not m.crash:
        tail = (" - its scheduling loop did start, and sched.Run ends in select {}: nothing after it runs"
                if m.loop_at is not None else "")
        out.append(f"{m.name} never served /healthz and /metrics (no go startHTTP ran){tail}: a liveness probe "
                   "would kill it")
    elif m.http_at is not None and r.http_at is not None and m.http_at > r.http_at + 1e-9:
        out.append(f"{m.name} served /healthz only from t={m.http_at:g}s (the real run: t={r.http_at:g}s): a standby "
                   "replica without /healthz fails its liveness probe")
    if m.leader_elect and m.loop_at is not None and (m.leader_at is None or m.loop_at + 1e-9 < m.leader_at):
        held = "never held the lease" if m.leader_at is None else f"held the lease only from t={m.leader_at:g}s"
        out.append(f"{m.name} started its scheduling loop at t={m.loop_at:g}s but {held}: it schedules without "
                   "being the leader")
    return out


__all__ = ["SAME", "ReplicaStart", "StartupObservation", "explain", "observe"]
