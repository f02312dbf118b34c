"""Scheduling throughput and interactivity, measured side by side in one run.

Prints one JSON object per line (machine-readable), then a summary with ratios:

- throughput: pods scheduled per wall-clock second at 100 / 1000 / 5000 nodes (default provider),
  with instrumentation off (no tracer) and on (tracer + trace points, snapshots off), and at
  100 nodes with a snapshot at every event (teaching mode);
- step latency: wall time of ``Simulation.step()`` on the three-nodes scenario;
- snapshot cost: wall time of one snapshot of a 100-node cluster.

With ``--workload FILE`` it instead measures the algorithm layer on one workload of
``../shared/bench/`` (the format ``make_workload.py`` writes), the way the Go 1.6 figures of that
README were taken: for each new pod ``Schedule(pod, nodeLister)``, then ``AssumePod`` of a copy
with ``spec.nodeName`` set, ``FinishBinding``, ``AddPod``; pods/s = K / wall time of that loop.
``--json`` prints one object (podsPerS, p50Ms, p99Ms, hosts, hostsSha256). ``--shapes`` runs the
three shapes, both engines interleaved, a fresh process per run, and prints a table.

Nothing here asserts on time: the numbers are for comparing changes on the same machine.
Run:  .venv/bin/python benchmarks/bench_scheduler.py [--quick]
      .venv/bin/python benchmarks/bench_scheduler.py --workload /tmp/w.json --engine mirrored --json
      .venv/bin/python benchmarks/bench_scheduler.py --shapes [--reps 3] [--workdir /tmp/kbench]
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import os
import subprocess
import sys
import statistics
import time
import tracemalloc
from typing import Any

import attrs

from kschedlearn import Simulation, sim, trace
from kschedlearn.api.v1 import Node, Pod
from kschedlearn.apiserver.clientset import new_for_server
from kschedlearn.apiserver.server import APIServer
from kschedlearn.cmd.kube_scheduler.app import server as app
from kschedlearn.cmd.kube_scheduler.app.options.options import new_scheduler_server
from kschedlearn.accelerated import fast_paths
from kschedlearn.observe import attach
from kschedlearn.observe.replica import observe_kube_scheduler, observe_scheduler_parts
from kschedlearn.observe.sharing import cache_source, queue_source
from kschedlearn.trace.snapshot import SnapshotBuilder

#: the fast paths beside the mirror, in place for the whole benchmark process (as a world has them)
_FAST_PATHS = fast_paths.acquire()


def _node(i: int) -> Node:
    return Node.from_dict({
        "metadata": {"name": f"node-{i:05d}", "labels": {"kubernetes.io/hostname": f"node-{i:05d}"}},
        "status": {"allocatable": {"cpu": "32", "memory": "128Gi", "pods": "110"},
                   "conditions": [{"type": "Ready", "status": "True"}]},
    })


def _pod(i: int) -> Pod:
    return Pod.from_dict({"metadata": {"name": f"p-{i:05d}", "namespace": "default"},
                          "spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "100m", "memory": "64Mi"}}}]}})


def throughput(nodes: int, pods: int, mode: str, memory: bool = False) -> dict[str, object]:
    """Wall-clock pods/s for ``pods`` pods on ``nodes`` nodes; mode: off | traced | snapshots.

    ``memory``: also trace allocations (slow: not a timing run) and report ``held_mb``, the
    memory the run's objects (cluster, scheduler, trace, snapshots) hold at its end.
    """
    if memory:
        gc.collect()
        tracemalloc.start()
    rt = sim.Runtime(seed=1)
    if mode != "off":
        rt.tracer = trace.Tracer(capture_stacks=(mode == "snapshots"), log_verbosity=0,
                                 snapshot_every=1 if mode == "snapshots" else 0)
    api = APIServer(rt)
    cs = new_for_server(api)
    for i in range(nodes):
        cs.core_v1().nodes().create(_node(i))
    s = new_scheduler_server()
    s.leader_election.leader_elect = False
    s.kube_api_qps, s.kube_api_burst = 1e6, 1000000  # measure the algorithm, not the rate limit
    if mode != "off":
        def snapshots(handles: object, config: object) -> None:
            if mode == "snapshots":
                f = handles.config_factory  # type: ignore[attr-defined]
                rt.tracer.snapshot_fn = SnapshotBuilder(
                    runtime=rt, cache=cache_source(config.scheduler_cache),  # type: ignore[attr-defined]
                    queues={"podQueue": queue_source(f.pod_queue)}, api_objects=lambda: list(api.storage.items("pods")),
                    api_version=lambda: api.storage.resource_version)
                rt.tracer.listeners.append(rt.tracer.snapshot_fn.observe)  # as Simulation does

        observe_kube_scheduler(rt, on_config=snapshots)  # the trace points, as a world attaches them
    rt.go(lambda: app.run(s, api), process=rt.new_process("scheduler"), name="main")
    rt.run(until=1)
    for i in range(pods):
        cs.core_v1().pods("default").create(_pod(i))
    start, cpu_start = time.perf_counter(), time.process_time()
    rt.run(stop_when=lambda: sum(1 for p in api.storage.items("pods") if p.spec.node_name) >= pods)
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    bound = sum(1 for p in api.storage.items("pods") if p.spec.node_name)
    extra: dict[str, object] = {}
    if memory:
        gc.collect()
        extra = {"held_mb": round(tracemalloc.get_traced_memory()[0] / 2**20, 2),
                 "events": len(rt.tracer.events) if rt.tracer is not None else 0}
        tracemalloc.stop()
    return {"bench": "throughput", **extra, "nodes": nodes, "pods": pods, "mode": mode, "bound": bound,
            "wall_s": round(wall, 4), "pods_per_s": round(bound / wall, 2) if wall else None,
            "cpu_s": round(cpu, 4), "pods_per_cpu_s": round(bound / cpu, 2) if cpu else None}


def step_latency(steps: int) -> dict[str, object]:
    s = Simulation.from_scenario("three-nodes", seed=1)
    s.start()
    samples = []
    for _ in range(steps):
        t = time.perf_counter()
        if s.step("event") is None:
            break
        samples.append(time.perf_counter() - t)
    return {"bench": "step_latency", "steps": len(samples),
            "median_ms": round(statistics.median(samples) * 1e3, 3), "max_ms": round(max(samples) * 1e3, 3)}


def snapshot_cost(nodes: int, reps: int) -> dict[str, object]:
    s = Simulation.from_scenario("three-nodes", seed=1)
    s.start()
    for i in range(nodes):
        s.world.api.create("nodes", "", _node(100 + i))
    s.world.runtime.run(until=s.world.runtime.now + 1.5)  # let the node informer fill the cache
    builder = s.world.builder
    t = time.perf_counter()
    for _ in range(reps):
        builder()
    return {"bench": "snapshot_cost", "nodes": nodes + 3, "ms": round((time.perf_counter() - t) / reps * 1e3, 3)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="smaller sizes (a smoke run)")
    ap.add_argument("--workload", help="a ../shared/bench workload file: measure the algorithm layer on it")
    ap.add_argument("--engine", choices=ENGINES, default="mirrored")
    ap.add_argument("--traced", action="store_true", help="with a tracer and the trace points (snapshots off)")
    ap.add_argument("--json", action="store_true", help="print one JSON object (with --workload)")
    ap.add_argument("--shapes", action="store_true", help="the three shapes, both engines, a table")
    ap.add_argument("--reps", type=int, default=3, help="repetitions per shape and engine (--shapes)")
    ap.add_argument("--workdir", default="/tmp/kschedlearn-bench", help="where --shapes writes workloads")
    ap.add_argument("--only", default="", help="--shapes: comma-separated subset of small,medium,large")
    ap.add_argument("--teaching", type=int, default=0, metavar="PODS",
                    help="only the 100-node untraced / traced / snapshot-every-event comparison")
    ap.add_argument("--memory", action="store_true",
                    help="--teaching: then the memory held by a traced and a teaching run (tracemalloc, slow)")
    ap.add_argument("--engines", default=",".join(ENGINES), help="--shapes: comma-separated engines")
    args = ap.parse_args()
    if args.workload:
        result = run_workload(args.workload, args.engine, args.traced)
        if args.json:
            print(json.dumps(result))
        else:
            print(json.dumps({k: v for k, v in result.items() if k != "hosts"}))
        return
    if args.shapes:
        run_shapes(args)
        return
    if args.teaching:
        for mode in ("off", "traced", "snapshots"):
            print(json.dumps(throughput(100, args.teaching, mode)), flush=True)
        if args.memory:
            for mode in ("traced", "snapshots"):
                print(json.dumps({**throughput(100, args.teaching, mode, memory=True), "bench": "memory"}), flush=True)
        return
    sizes = [(100, 50), (1000, 20)] if args.quick else [(100, 200), (1000, 50), (5000, 10)]
    results = []
    for nodes, pods in sizes:
        for mode in ("off", "traced"):
            results.append(throughput(nodes, pods, mode))
            print(json.dumps(results[-1]), flush=True)
    results.append(throughput(100, 50 if args.quick else 100, "snapshots"))
    print(json.dumps(results[-1]), flush=True)
    for r in (step_latency(100), snapshot_cost(100, 20)):
        print(json.dumps(r), flush=True)
    by = {(r["nodes"], r["mode"]): r["pods_per_s"] for r in results}
    summary = {"bench": "summary", "ratios": {
        f"{n}_nodes_traced_vs_off": round(by[(n, "traced")] / by[(n, "off")], 3) for n, _ in sizes}}
    summary["ratios"]["100_nodes_snapshots_vs_off"] = round(by[(100, "snapshots")] / by[(100, "off")], 3)
    summary["ratios"]["1000_vs_100_nodes_off"] = round(by[(1000, "off")] / by[(100, "off")], 3)
    print(json.dumps(summary), flush=True)


# ---------------------------------------------------------------------------------------------
# the ../shared/bench workloads, at the algorithm layer
# ---------------------------------------------------------------------------------------------
ENGINES = ("mirrored", "accelerated")
_REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
#: ../shared/bench beside the checkout (CI and the main checkout), or one level further up (a
#: worktree in a sub-folder)
SHARED_BENCH = next((p for p in (os.path.join(_REPO, "..", "shared", "bench"),
                                 os.path.join(_REPO, "..", "..", "shared", "bench")) if os.path.isdir(p)),
                    os.path.join(_REPO, "..", "shared", "bench"))
#: shape -> (N, M, K, Go 1.6 pods/s as the shared README gives it, sha256 of Go's hosts)
SHAPES = {
    "small": (100, 3000, 1000, "1,091 – 1,459", "e854687d56dbfbf2a579e8cad0502e8f2ffbd3ae0109e78dc7d7b732c477f70e"),
    "medium": (1000, 30000, 300, "54 – 61", "afc7d936635d287b0132dfa46754ba7f7a585c200615f225e81cda80b62d3bff"),
    "large": (5000, 30000, 100, "14 – 39", "0780b033b32aec358536f5d61c95412c70fba32e25d4a11c956b972bf6d8055a"),
}


def _decode(cls: type, d: dict) -> object:
    return cls.from_dict({k: v for k, v in d.items() if k not in ("apiVersion", "kind")})


def build_workload_scheduler(workload: dict, engine: str = "mirrored", traced: bool = False) -> tuple:
    """Wire the scheduler as kube-scheduler 1.6 does, over a cluster holding the workload.

    Returns (runtime, config, pods to schedule). The nodes, bound pods, Service and RC go
    through the API server and the shared informers (so the listers and the cache hold them the
    way they would); the timed loop then calls the algorithm and the cache directly.
    """
    from kschedlearn.api.v1 import ReplicationController, Service
    from kschedlearn.client_go.informers import new_shared_informer_factory
    from kschedlearn.scheduler.factory import plugins
    from kschedlearn.scheduler.factory.factory import new_config_factory

    rt = sim.Runtime(seed=1)
    if traced:
        rt.tracer = trace.Tracer(capture_stacks=False, log_verbosity=0, snapshot_every=0)
    api = APIServer(rt)
    for d in workload["nodes"]:
        api.create("nodes", "", _decode(Node, d))
    for d in workload.get("services", []):
        api.create("services", d["metadata"].get("namespace", "default"), _decode(Service, d))
    for d in workload.get("replicationControllers", []):
        api.create("replicationcontrollers", d["metadata"].get("namespace", "default"),
                   _decode(ReplicationController, d))
    for d in workload["boundPods"]:
        api.create("pods", d["metadata"].get("namespace", "default"), _decode(Pod, d))
    client = new_for_server(api)
    informers = new_shared_informer_factory(client, 0)

    def create() -> object:
        factory = new_config_factory(
            "default-scheduler", client,
            informers.core().v1().nodes(), informers.core().v1().persistent_volumes(),
            informers.core().v1().persistent_volume_claims(),
            informers.core().v1().replication_controllers(),
            informers.extensions().v1beta1().replica_sets(),
            informers.apps().v1beta1().stateful_sets(), informers.core().v1().services(), 1)
        if engine == "accelerated":
            from kschedlearn.accelerated import create_from_provider_accelerated
            cfg = create_from_provider_accelerated(factory, plugins.DEFAULT_PROVIDER)
        else:
            cfg = factory.create_from_provider(plugins.DEFAULT_PROVIDER)
        informers.start(factory.stop_everything)
        return factory, cfg

    factory, cfg = rt.run_fn(create)
    want_nodes, want_pods = len(workload["nodes"]), len(workload["boundPods"])
    cache = cfg.scheduler_cache
    rt.run(stop_when=lambda: len(cache._pod_states) >= want_pods
           and sum(1 for ni in cache._nodes.values() if ni.node() is not None) >= want_nodes and len(cfg.node_lister.list()) >= want_nodes
           and len(factory.service_lister.list(_everything())) >= len(workload.get("services", []))
           and len(factory.controller_lister.list(_everything())) >= len(workload.get("replicationControllers", [])))
    if traced:
        observe_scheduler_parts(attach(rt), factory, cfg, "default-scheduler")
    pods = [_decode(Pod, d) for d in workload["pods"]]
    return rt, cfg, pods


def _everything() -> object:
    from kschedlearn.apimachinery import labels
    return labels.everything()


def run_workload(path: str, engine: str = "mirrored", traced: bool = False) -> dict:
    """Schedule every new pod of the workload file; the figures the shared README defines."""
    with open(path) as f:
        workload = json.load(f)
    return {"workload": os.path.basename(path), **run_workload_dict(workload, engine, traced)}


def place(algo: Any, cache: Any, nodes: Any, pod: Any) -> str:
    """One pod of the timed loop: Schedule, then what scheduleOne and the informer do with the
    host — assume, finish the binding, confirm (AddPod). Raises ``FitError`` when no node fits
    (nothing is assumed then). ``loop_instructions.py`` counts the same step."""
    host = algo.schedule(pod, nodes)
    assumed = attrs.evolve(pod, spec=attrs.evolve(pod.spec, node_name=host))
    cache.assume_pod(assumed)
    cache.finish_binding(assumed)
    cache.add_pod(assumed)
    return host


def run_workload_dict(workload: dict, engine: str = "mirrored", traced: bool = False) -> dict:
    """:func:`run_workload` on a workload already read (``bench_replay.py`` builds one from a dump).

    A pod that fits nowhere (``FitError``) gets the host "" and is not assumed, as Go's loop
    does on a failed Schedule."""
    from kschedlearn.scheduler.core.generic_scheduler import FitError

    rt, cfg, pods = build_workload_scheduler(workload, engine, traced)
    n_nodes, n_bound = len(workload["nodes"]), len(workload["boundPods"])
    del workload
    # The cluster built above (tens of thousands of long-lived objects) would otherwise be
    # re-walked by every full collection of Python's cyclic GC during the timed loop.
    gc.collect()
    gc.freeze()

    def loop() -> tuple[list[str], list[float], float]:
        hosts, lat = [], []
        algo, cache, nodes = cfg.algorithm, cfg.scheduler_cache, cfg.node_lister
        start, cpu_start = time.perf_counter(), time.process_time()
        for pod in pods:
            t = time.perf_counter()
            try:
                host = place(algo, cache, nodes, pod)
            except FitError:
                host = ""
            lat.append(time.perf_counter() - t)
            hosts.append(host)
        return hosts, lat, time.perf_counter() - start, time.process_time() - cpu_start

    hosts, lat, wall, cpu = rt.run_fn(loop)
    lat.sort()
    return {"engine": engine, "traced": traced,
            "nodes": n_nodes, "bound": n_bound, "pods": len(pods),
            "wallS": round(wall, 4), "podsPerS": round(len(pods) / wall, 2),
            "cpuS": round(cpu, 4), "podsPerCpuS": round(len(pods) / cpu, 2) if cpu else None,
            "p50Ms": round(lat[len(lat) // 2] * 1e3, 3),
            "p99Ms": round(lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1e3, 3),
            "hosts": hosts, "hostsSha256": hashlib.sha256("\n".join(hosts).encode()).hexdigest()}


def _workload_file(workdir: str, n: int, m: int, k: int) -> str:
    path = os.path.join(workdir, f"workload-{n}n-{m}b-{k}k.json")
    if not os.path.exists(path):
        os.makedirs(workdir, exist_ok=True)
        subprocess.run([sys.executable, os.path.join(SHARED_BENCH, "make_workload.py"),
                        str(n), str(m), str(k), path + ".tmp"], check=True)
        os.replace(path + ".tmp", path)
    return path


def run_shapes(args: argparse.Namespace) -> None:
    """Every shape, engines interleaved, a fresh process per run; medians with min–max."""
    shapes = [s for s in SHAPES if not args.only or s in args.only.split(",")]
    engines = [e for e in args.engines.split(",") if e]
    runs: dict[tuple[str, str], list[dict]] = {}
    for shape in shapes:
        n, m, k, _, _ = SHAPES[shape]
        path = _workload_file(args.workdir, n, m, k)
        for rep in range(args.reps):
            for engine in engines:
                cmd = [sys.executable, os.path.abspath(__file__), "--workload", path, "--engine", engine, "--json"]
                if args.traced:
                    cmd.append("--traced")
                out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
                r = json.loads(out.strip().splitlines()[-1])
                runs.setdefault((shape, engine), []).append(r)
                print(f"# {shape} {engine} rep {rep + 1}: {r['podsPerS']} pods/s", file=sys.stderr, flush=True)
    print("| shape (nodes / bound / new) | engine | pods/s median (min – max) | pods per CPU-s median "
          "| p50 ms | p99 ms | Go 1.6 pods/s | hosts sha256 = Go's |")
    print("|---|---|---|---|---|---|---|---|")
    for shape in shapes:
        n, m, k, go, sha = SHAPES[shape]
        for engine in engines:
            rs = runs[(shape, engine)]
            pps = [r["podsPerS"] for r in rs]
            same = all(r["hostsSha256"] == sha for r in rs)
            print(f"| {shape} {n:,} / {m:,} / {k:,} | {engine} | {statistics.median(pps):,.1f} "
                  f"({min(pps):,.1f} – {max(pps):,.1f}) | {statistics.median(r['podsPerCpuS'] for r in rs):,.1f} "
                  f"| {statistics.median(r['p50Ms'] for r in rs):.2f} "
                  f"| {statistics.median(r['p99Ms'] for r in rs):.2f} | {go} | {'yes' if same else 'NO'} |")
    print(f"\n{args.reps} fresh process(es) per shape and engine, interleaved; load average "
          f"{os.getloadavg()[0]:.2f} at the end.")


if __name__ == "__main__":
    main()
