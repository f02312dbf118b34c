"""The whole simulation at cluster scale: replay a cluster dump until every pending pod is placed.

``bench_scheduler.py --workload`` times the algorithm layer only (``Schedule`` + cache calls).
This benchmark times what a user waits on when replaying a cluster: ``Simulation.from_manifests``
(decoding the dump, 1.6's validation, the API server filled), then the whole simulation — API
server storage and watches, reflectors, DeltaFIFOs, informer handlers, the bind goroutines,
events, the kubelet, the trace and snapshots — until every pending pod is bound or has failed
(PodScheduled=False, Unschedulable). Then, in the same process and on the same cluster, the bare
algorithm's seconds for the same pods (``bench_scheduler.py``'s loop: ``Schedule``, ``AssumePod``,
``FinishBinding``, ``AddPod``), so the two figures share the machine's mood.

Prints one JSON object::

    loadS      decode the dump + build the world (every object created in the API server)
    runS       start the scheduler .. every pending pod resolved (wall), runCpuS (CPU);
               syncCpuS: the part of it until the scheduler's cache held the whole dump
    virtualS   the simulated seconds that took
    podsPerS   resolved pending pods / runS
    peakRssMiB the process's peak RSS after the run (before the bare algorithm)
    events     trace events recorded by the run (0 with --trace off); loadEvents: while loading
    bareS      the bare algorithm's seconds for the same pods (bareCpuS: CPU)
    runOverBare runCpuS / bareCpuS

``--trace off`` runs without a tracer; ``event`` records every event, ``stage`` and ``pod`` record
only the stages of that granularity (``Simulation(record=...)``: the per-node events and the
queue-level ones are not kept). ``--snapshots every`` takes a snapshot at every recorded event
(teaching mode); ``on-demand`` records none while it runs and builds each when first asked for
(``Simulation(snapshots="on-demand")``), and then times looking at the replay::

    lookMidCpuS   the snapshot of the run's middle event: a twin world runs there from the start
    lookLastCpuS  then of its last event: the twin runs on to the end
    lookAgainMs   then of any event (100 at random): already built
    twinSame      the twin recorded the run's very events; peakRssAfterLooksMiB with the twin
 ``--dump FILE`` replays a real dump (``kubectl get nodes,pods,services,rc,rs,
statefulsets,pv,pvc -A -o json``) instead of a generated one. ``--shapes`` runs the two shapes of
issue 25 (1,000 / 30,000 / 3,000 and 5,000 / 150,000 / 10,000), a fresh process each.

Nothing here asserts on time. Run::

    nice .venv/bin/python benchmarks/bench_replay.py --nodes 100 --bound 3000 --pending 1000 --engine accelerated --trace pod
    nice .venv/bin/python benchmarks/bench_replay.py --shapes [--reps 3] [--trace pod] [--snapshots every]
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

_HERE = Path(__file__).resolve().parent
if str(_HERE) not in sys.path:
    sys.path.insert(0, str(_HERE))

ZONES = ("zone-a", "zone-b", "zone-c")
NS = "default"
SHAPES = ((1000, 30000, 3000), (5000, 150000, 10000))
#: virtual seconds run between two checks of the pending pods
CHUNK = 1.0


# -- a generated dump --------------------------------------------------------------------------
# The objects of ../shared/bench/make_workload.py (the scheduler_perf pod: 100m / 500Mi, port 80,
# owned by one RC that one Service selects; nodes of 4 cpu / 32Gi / 110 pods in three zones, bound
# pods round robin), written as `kubectl get ... -o json` writes a dump: one List. Bound pods are
# Running, as in a real cluster (the simulated kubelet starts only Pending ones).

def _node(i: int) -> dict[str, Any]:
    name = f"node-{i:05d}"
    res = {"cpu": "4", "memory": "32Gi", "pods": "110"}
    return {"apiVersion": "v1", "kind": "Node",
            "metadata": {"name": name, "uid": f"uid-{name}",
                         "labels": {"kubernetes.io/hostname": name, "beta.kubernetes.io/os": "linux",
                                    "beta.kubernetes.io/arch": "amd64",
                                    "failure-domain.beta.kubernetes.io/region": "region-1",
                                    "failure-domain.beta.kubernetes.io/zone": ZONES[i % len(ZONES)]}},
            "spec": {},
            "status": {"capacity": dict(res), "allocatable": dict(res),
                       "conditions": [{"type": "Ready", "status": "True"},
                                      {"type": "OutOfDisk", "status": "False"},
                                      {"type": "MemoryPressure", "status": "False"},
                                      {"type": "DiskPressure", "status": "False"}]}}


def _pod_spec() -> dict[str, Any]:
    r = {"cpu": "100m", "memory": "500Mi"}
    return {"schedulerName": "default-scheduler",
            "containers": [{"name": "pause", "image": "kubernetes/pause", "ports": [{"containerPort": 80}],
                            "resources": {"requests": dict(r), "limits": dict(r)}}]}


def _pod(name: str, node: str | None) -> dict[str, Any]:
    spec = _pod_spec()
    if node is not None:
        spec["nodeName"] = node
    return {"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": name, "namespace": NS, "uid": f"uid-{name}", "labels": {"name": "rc1"},
                         "ownerReferences": [{"apiVersion": "v1", "kind": "ReplicationController", "name": "rc1",
                                              "uid": "uid-rc1", "controller": True}]},
            "spec": spec, "status": {"phase": "Running" if node is not None else "Pending"}}


def make_dump(nodes: int, bound: int, pending: int) -> dict[str, Any]:
    """A `kubectl get nodes,pods,services,rc -A -o json` List of the shape."""
    node_docs = [_node(i) for i in range(nodes)]
    items: list[dict[str, Any]] = list(node_docs)
    items.append({"apiVersion": "v1", "kind": "Service",
                  "metadata": {"name": "svc1", "namespace": NS, "uid": "uid-svc1"},
                  "spec": {"selector": {"name": "rc1"}, "ports": [{"port": 80, "targetPort": 80}]}})
    items.append({"apiVersion": "v1", "kind": "ReplicationController",
                  "metadata": {"name": "rc1", "namespace": NS, "uid": "uid-rc1"},
                  "spec": {"replicas": bound + pending, "selector": {"name": "rc1"},
                           "template": {"metadata": {"labels": {"name": "rc1"}}, "spec": _pod_spec()}}})
    items.extend(_pod(f"bound-{i:06d}", node_docs[i % nodes]["metadata"]["name"]) for i in range(bound))
    items.extend(_pod(f"new-{i:06d}", None) for i in range(pending))
    return {"apiVersion": "v1", "kind": "List", "items": items, "metadata": {"resourceVersion": ""}}


def dump_file(workdir: str, nodes: int, bound: int, pending: int) -> str:
    path = os.path.join(workdir, f"dump-{nodes}n-{bound}b-{pending}k.json")
    if not os.path.exists(path):
        os.makedirs(workdir, exist_ok=True)
        with open(path + ".tmp", "w", encoding="utf-8") as f:
            json.dump(make_dump(nodes, bound, pending), f)
        os.replace(path + ".tmp", path)
    return path


# -- the whole simulation -----------------------------------------------------------------------

def _pending_keys(sim: Any) -> list[tuple[str, str]]:
    return [(o.metadata.namespace or "default", o.metadata.name) for o in sim.scenario.objects
            if type(o).kind == "Pod" and not o.spec.node_name]


def _failed(pod: Any) -> bool:
    # (a plain loop: the poll runs between chunks of the run, outside the runtime's collector
    # policy, and a generator per pending pod per virtual second made CPython's collector walk
    # the whole heap there — a harness cost, not the simulation's)
    for c in pod.status.conditions:
        if c.type == "PodScheduled" and c.status == "False":
            return True
    return False


def replay(path: str, engine: str, trace: str, snapshots: str, seed: int = 1) -> tuple[dict[str, Any], dict[str, str]]:
    """Load and run the dump; the figures and the placements (pod -> node, "" for a failed one)."""
    from kschedlearn import Simulation
    from kschedlearn.sim.gc_policy import young_threshold

    t0, c0 = time.perf_counter(), time.process_time()
    mode = {"off": False, "every": True, "on-demand": "on-demand"}[snapshots]
    sim = Simulation.from_manifests(path, seed=seed, engine=engine, snapshots=mode,
                                    snapshot_every=1, record=("event" if trace == "off" else trace))
    sim.scenario = _long_enough(sim.scenario)
    world = sim.world  # every object created in the API server
    load_s, load_cpu = time.perf_counter() - t0, time.process_time() - c0
    if trace == "off":
        world.runtime.tracer = None  # the trace points pass straight through without a tracer
    load_events = len(world.tracer.events)
    unresolved = dict.fromkeys(_pending_keys(sim))
    placements: dict[str, str] = {}
    storage = world.api.storage
    t1, c1 = time.perf_counter(), time.process_time()
    v1 = world.runtime.now
    # the first phase: until the scheduler's cache holds every node and bound pod of the dump
    # (1.6 does not wait for that before it schedules; the split is for reading the figures)
    n_bound = sum(1 for o in sim.scenario.objects if type(o).kind == "Pod" and o.spec.node_name)
    n_nodes = sum(1 for o in sim.scenario.objects if type(o).kind == "Node")
    synced = lambda: _synced(world, n_nodes, n_bound)  # noqa: E731
    sync_cpu = None
    polled_rv: int | None = None
    # The runtime raises the collector's youngest threshold while it runs and restores it when
    # it returns (sim/gc_policy.py); run here in 1-virtual-second chunks, each return would leave
    # that generation's count far above CPython's 700, so the poll's first allocation started a
    # collection — 200 per replay, a walk of the whole heap every ~100: a cost of the chunking,
    # not of the simulation. The whole loop keeps the runtime's threshold.
    with young_threshold():
        while unresolved and not world.finished:
            if sync_cpu is None:
                world.runtime.run(until=world.runtime.now + CHUNK, stop_when=synced)
                if synced():
                    sync_cpu = time.process_time() - c1
                    continue
            else:
                world.run(None, until=world.runtime.now + CHUNK)
            polled_rv = _poll(storage, unresolved, placements, polled_rv)
    run_s, run_cpu = time.perf_counter() - t1, time.process_time() - c1
    _run_phase_done()
    virtual_s = world.runtime.now - v1
    resolved = len(placements)
    events = len(world.tracer.events) - load_events
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    out = {"syncCpuS": round(sync_cpu, 3) if sync_cpu is not None else None, "loadS": round(load_s, 3), "loadCpuS": round(load_cpu, 3), "runS": round(run_s, 3),
           "runCpuS": round(run_cpu, 3), "virtualS": round(virtual_s, 3),
           "podsPerS": round(resolved / run_s, 2) if run_s else None, "peakRssMiB": round(peak, 1),
           "events": events, "loadEvents": load_events, "pending": resolved + len(unresolved), "bound": sum(1 for v in placements.values() if v),
           "failed": sum(1 for v in placements.values() if not v), "unresolved": len(unresolved)}
    if snapshots == "on-demand":
        out.update(look(sim, load_events))
    return out, placements


def look(sim: Any, first: int) -> dict[str, Any]:
    """``--snapshots on-demand``: what looking at the replay costs once it has run. The snapshot of
    the middle event of the run (the twin world runs from the start to there, taking teaching
    mode's snapshots), then of the last one (it runs on to the end), then of 100 events chosen at
    random (already built: each is a lookup). ``twinSame``: the twin recorded the run's very
    events (seq, stage, time, message at every one)."""
    import random

    last = len(sim.trace) - 1
    mid = (first + last) // 2
    c0 = time.process_time()
    sim.snapshot_at(mid)
    c1 = time.process_time()
    sim.snapshot_at(last)
    c2 = time.process_time()
    rng = random.Random(1)
    picks = [rng.randint(first, last) for _ in range(100)]
    for i in picks:
        sim.snapshot_at(i)
    c3 = time.process_time()
    twin = sim._twin.world.tracer.events
    same = len(twin) == len(sim.trace) and all(
        (a.seq, a.stage, a.time, a.message) == (b.seq, b.stage, b.time, b.message) for a, b in zip(twin, sim.trace))
    return {"lookMidCpuS": round(c1 - c0, 3), "lookLastCpuS": round(c2 - c1, 3),
            "lookAgainMs": round((c3 - c2) * 1000 / len(picks), 3), "twinSame": same,
            "peakRssAfterLooksMiB": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)}


def _run_phase_done() -> None:
    """Called where ``runCpuS`` is taken (``replay_instructions.py`` ends its "work" count here:
    before the deferred events are built)."""


def _poll(storage: Any, unresolved: dict[tuple[str, str], None], placements: dict[str, str],
          polled_rv: int | None) -> int:
    """Move the pods resolved since the last poll (at revision ``polled_rv``) from ``unresolved``
    into ``placements``; returns the storage's revision now.

    A pod's state changes only by a write, and the storage keeps its recent writes: only the
    pods written since the last poll are looked at again when every write since then is still
    in the window (else, and at the first poll, every unresolved pod). The harness's own cost:
    up to 10,000 pods looked at after each virtual second were ~3 % of a 5,000-node run."""
    now = storage.resource_version
    changes = storage.changes_since(polled_rv, ("pods",)) if polled_rv is not None else None
    if changes is None:
        todo: Any = list(unresolved)
    else:
        written = {(e.object.metadata.namespace or "default", e.object.metadata.name) for _, e in changes}
        todo = [key for key in written if key in unresolved]
    pods = storage.objects.get("pods", {})  # (the bucket Storage.get reads: one dict lookup a pod)
    for key in todo:
        pod = pods.get(key)
        if pod is None or pod.spec.node_name or _failed(pod):
            placements[f"{key[0]}/{key[1]}"] = pod.spec.node_name if pod is not None else ""
            del unresolved[key]
    return now


def _synced(world: Any, nodes: int, bound: int) -> bool:
    replica = next(iter(world.replicas.values()))
    scheduler = replica.handles.scheduler
    if scheduler is None:
        return False
    cache = scheduler.config.scheduler_cache
    return len(cache._pod_states) >= bound and len(cache._nodes) >= nodes


def _long_enough(scenario: Any) -> Any:
    """A replay's scenario runs 60 virtual seconds; the benchmark runs until every pod is placed."""
    import attrs

    from kschedlearn.scenarios.scenario import MAX_DURATION

    return attrs.evolve(scenario, duration=MAX_DURATION)


def bare_algorithm(path: str, engine: str) -> dict[str, Any]:
    """bench_scheduler.py's loop over the same cluster and pods, in this process."""
    from bench_scheduler import run_workload_dict

    workload: dict[str, list[Any]] = {"nodes": [], "boundPods": [], "pods": [], "services": [],
                                      "replicationControllers": []}
    by_kind = {"Node": "nodes", "Service": "services", "ReplicationController": "replicationControllers"}
    for item in _items(path):
        kind = item.get("kind")
        if kind == "Pod":
            workload["boundPods" if item.get("spec", {}).get("nodeName") else "pods"].append(item)
        elif kind in by_kind:
            workload[by_kind[kind]].append(item)
    keys = [f"{p['metadata'].get('namespace') or 'default'}/{p['metadata']['name']}" for p in workload["pods"]]
    r = run_workload_dict(workload, engine, traced=False)
    return {"bareS": r["wallS"], "bareCpuS": r["cpuS"], "bareHosts": dict(zip(keys, r["hosts"])), "barePods": r["pods"]}


def _items(path: str) -> list[dict[str, Any]]:
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    return doc["items"] if doc.get("kind", "").endswith("List") else [doc]


def measure(args: argparse.Namespace) -> dict[str, Any]:
    path = args.dump or dump_file(args.workdir, args.nodes, args.bound, args.pending)
    out: dict[str, Any] = {"bench": "replay", "dump": os.path.basename(path), "engine": args.engine,
                           "trace": args.trace, "snapshots": args.snapshots}
    figures, placements = replay(path, args.engine, args.trace, args.snapshots)
    out.update(figures)
    text = "\n".join(f"{k} {v}" for k, v in sorted(placements.items()))
    out["placementsSha256"] = hashlib.sha256(text.encode()).hexdigest()
    if args.placements:
        out["placements"] = placements
    gc.collect()
    if not args.no_bare:
        bare = bare_algorithm(path, args.engine)
        # (1.6's scheduler starts before its informers have synced, so the first pods of a
        # replay may see a partly filled cache: its hosts need not be the bare loop's)
        bare.pop("bareHosts")
        out.update(bare)
        out["runOverBare"] = round(out["runCpuS"] / bare["bareCpuS"], 2) if bare["bareCpuS"] else None
    out["loadAvg"] = round(os.getloadavg()[0], 2)
    return out


def run_shapes(args: argparse.Namespace) -> None:
    runs: dict[tuple[int, int, int], list[dict[str, Any]]] = {}
    for shape in SHAPES:
        for rep in range(args.reps):
            cmd = [sys.executable, os.path.abspath(__file__), "--nodes", str(shape[0]), "--bound", str(shape[1]),
                   "--pending", str(shape[2]), "--engine", args.engine, "--trace", args.trace,
                   "--snapshots", args.snapshots, "--workdir", args.workdir, "--json"]
            r = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.strip().splitlines()[-1])
            runs.setdefault(shape, []).append(r)
            print(json.dumps(r), flush=True)
    print("| nodes / bound / pending | load s | run s | run CPU-s | bare CPU-s | run / bare | virtual s | peak RSS MiB | events |")
    print("|---|---|---|---|---|---|---|---|---|")
    for shape, rs in runs.items():
        def med(key: str) -> str:
            vals = [r[key] for r in rs if r.get(key) is not None]
            return f"{statistics.median(vals):,.2f} ({min(vals):,.2f} – {max(vals):,.2f})" if vals else "—"
        print(f"| {shape[0]:,} / {shape[1]:,} / {shape[2]:,} | {med('loadS')} | {med('runS')} | {med('runCpuS')} "
              f"| {med('bareCpuS')} | {med('runOverBare')} | {med('virtualS')} | {med('peakRssMiB')} | {med('events')} |")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--nodes", type=int, default=100)
    ap.add_argument("--bound", type=int, default=3000)
    ap.add_argument("--pending", type=int, default=1000)
    ap.add_argument("--engine", choices=("accelerated", "mirrored"), default="accelerated")
    ap.add_argument("--trace", choices=("off", "pod", "stage", "event"), default="pod")
    ap.add_argument("--snapshots", choices=("off", "every", "on-demand"), default="off")
    ap.add_argument("--dump", help="replay this dump file instead of a generated one")
    ap.add_argument("--json", action="store_true", help="print only the JSON object")
    ap.add_argument("--placements", action="store_true", help="include every pending pod's placement")
    ap.add_argument("--no-bare", action="store_true", help="skip the bare algorithm's run")
    ap.add_argument("--shapes", action="store_true", help="1,000/30,000/3,000 and 5,000/150,000/10,000")
    ap.add_argument("--reps", type=int, default=1, help="--shapes: runs per shape")
    ap.add_argument("--workdir", default="/tmp/kschedlearn-bench", help="where generated dumps are kept")
    args = ap.parse_args(argv)
    if args.snapshots == "on-demand" and args.trace == "off":
        ap.error("--snapshots on-demand needs a trace: its snapshots are those of the recorded events")
    if args.shapes:
        run_shapes(args)
        return
    result = measure(args)
    print(json.dumps(result, sort_keys=True) if args.json else json.dumps(result, indent=1, sort_keys=True))


if __name__ == "__main__":
    main()
