"""Render latency of the ``cache`` and ``pipeline`` views on a 10-node snapshot.

Prints one JSON line per (view, method) with the median warm latency and its ratio to building
the DOT alone, so runs on different machines compare side by side. No assertions on time.
Methods: ``build`` (snapshot → DOT text only), ``wasm`` (build + in-process Graphviz),
``dot`` (build + the system ``dot`` program, if installed).

Run: .venv/bin/python benchmarks/bench_render.py [--repeat N]
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import time
from collections.abc import Callable

from kschedlearn.scheduler.schedulercache.cache import (
    CacheDebugState, NodeDebugState, PodDebugState, ResourceSnapshot,
)
from kschedlearn.trace.snapshot import QueueItemView, QueueView, Snapshot
from kschedlearn.viz import VIEWS
from kschedlearn.viz.render import render_svg, warm_up


def ten_node_snapshot() -> Snapshot:
    alloc = ResourceSnapshot(4000, 8 << 30, 0)
    nodes, states = [], []
    for i in range(10):
        pods = tuple(f"default/p-{i}-{j}" for j in range(3))
        req = ResourceSnapshot(300 * len(pods), (1 << 29) * len(pods), 0)
        nodes.append(NodeDebugState(f"node-{i}", True, req, req, alloc, 110, pods, 1))
        states += [PodDebugState(k, f"node-{i}", j == 0, 40.0 if j == 0 else None, j == 0)
                   for j, k in enumerate(pods)]
    line = tuple(f"default/q-{i}" for i in range(5))
    queues = {"podQueue": QueueView("FIFO", line, tuple(QueueItemView(k) for k in line), True),
              "scheduledPodPopulator": QueueView("DeltaFIFO", ("default/p-0-0",),
                                                 (QueueItemView("default/p-0-0", ("Added",), "node-0"),), True)}
    return Snapshot(seq=1, time=10.0, queues=queues, cache=CacheDebugState(30.0, tuple(nodes), tuple(states)))


def _median(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    t0 = time.perf_counter()
    warm_up()
    print(json.dumps({"bench": "render", "method": "wasm_warm_up", "seconds": round(time.perf_counter() - t0, 6)}))
    snap = ten_node_snapshot()
    methods: dict[str, Callable[[str], object]] = {"build": lambda view: VIEWS[view](snap).source,
                                                   "wasm": lambda view: render_svg(VIEWS[view](snap).source, "wasm")}
    if shutil.which("dot"):
        methods["dot"] = lambda view: render_svg(VIEWS[view](snap).source, "dot")
    for view in ("cache", "pipeline"):
        results = {}
        for name, fn in methods.items():
            fn(view)  # warm
            results[name] = _median(lambda: fn(view), args.repeat)
        for name, seconds in results.items():
            print(json.dumps({"bench": "render", "view": view, "method": name, "nodes": 10,
                              "median_ms": round(seconds * 1000, 3),
                              "ratio_to_build": round(seconds / results["build"], 2),
                              "ratio_to_wasm": round(seconds / results["wasm"], 3)}))


if __name__ == "__main__":
    main()
