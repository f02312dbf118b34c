"""Scheduling throughput and interactivity, measured side by side in one run.

Prints one JSON object per line (machine-readable), then a summary with ratios:

- throughput: pods scheduled per wall-clock second at 100 / 1000 / 5000 nodes (default provider),
  with instrumentation off (no tracer) and on (tracer + trace points, snapshots off), and at
  100 nodes with a snapshot at every event (teaching mode);
- step latency: wall time of ``Simulation.step()`` on the three-nodes scenario;
- snapshot cost: wall time of one snapshot of a 100-node cluster.

Nothing here asserts on time: the numbers are for comparing changes on the same machine.
Run:  .venv/bin/python benchmarks/bench_scheduler.py [--quick]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
import types

from kschedlearn import Simulation, sim, trace
from kschedlearn.api.v1 import Node, Pod
from kschedlearn.apiserver.clientset import new_for_server
from kschedlearn.apiserver.server import APIServer
from kschedlearn.cmd.kube_scheduler.app import server as app
from kschedlearn.cmd.kube_scheduler.app.options.options import new_scheduler_server
from kschedlearn.scheduler.instrument import instrument_scheduler
from kschedlearn.trace.snapshot import SnapshotBuilder


def _node(i: int) -> Node:
    return Node.from_dict({
        "metadata": {"name": f"node-{i:05d}", "labels": {"kubernetes.io/hostname": f"node-{i:05d}"}},
        "status": {"allocatable": {"cpu": "32", "memory": "128Gi", "pods": "110"},
                   "conditions": [{"type": "Ready", "status": "True"}]},
    })


def _pod(i: int) -> Pod:
    return Pod.from_dict({"metadata": {"name": f"p-{i:05d}", "namespace": "default"},
                          "spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "100m", "memory": "64Mi"}}}]}})


def throughput(nodes: int, pods: int, mode: str) -> dict[str, object]:
    """Wall-clock pods/s for ``pods`` pods on ``nodes`` nodes; mode: off | traced | snapshots."""
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
    h = app.RunningScheduler(s)
    hook = None
    if mode != "off":
        def hook(handles: app.RunningScheduler) -> None:
            instrument_scheduler(handles)
            if mode == "snapshots":
                f = handles.config_factory
                rt.tracer.snapshot_fn = SnapshotBuilder(
                    runtime=rt, cache=handles.scheduler.config.scheduler_cache,
                    queues={"podQueue": f.pod_queue}, api_objects=lambda: list(api.storage.items("pods")))
    rt.go(lambda: app.run(s, api, handles=h, on_created=hook), process=rt.new_process("scheduler"), name="main")
    rt.run(until=1)
    for i in range(pods):
        cs.core_v1().pods("default").create(_pod(i))
    start = time.perf_counter()
    rt.run(stop_when=lambda: sum(1 for p in api.storage.items("pods") if p.spec.node_name) >= pods)
    wall = time.perf_counter() - start
    bound = sum(1 for p in api.storage.items("pods") if p.spec.node_name)
    return {"bench": "throughput", "nodes": nodes, "pods": pods, "mode": mode, "bound": bound,
            "wall_s": round(wall, 4), "pods_per_s": round(bound / wall, 2) if wall else None}


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
    args = ap.parse_args()
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


if __name__ == "__main__":
    main()
