"""Instructions of ``bench_scheduler.py --workload``'s timed loop alone, counted by valgrind.

kschedlearn-only (issue 25). CPU seconds of a ~0.2 s loop scatter by ±0.1 on a shared machine;
instruction counts do not. The process runs under ``valgrind --tool=callgrind
--instr-atstart=no``: the set-up (the cluster through the API server and the informers) runs
uninstrumented, and a two-line C helper (built here with ``gcc`` against valgrind's
``callgrind.h``, called through ``ctypes``) switches instrumentation on right before the loop and
off right after it, so one run gives the loop's count — no subtraction of a set-up run.

    .venv/bin/python benchmarks/loop_instructions.py --workload /tmp/w100.json [--traced] [--pods K]

prints ``{"instructions": N, "hostsSha256": ...}`` (PYTHONHASHSEED=0; needs valgrind and gcc).
The loop is ``run_workload_dict``'s: Schedule, then AssumePod, FinishBinding and AddPod.
"""

from __future__ import annotations

import argparse
import ctypes
import gc
import glob
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

_HELPER = """#include <valgrind/callgrind.h>
void loop_start(void) { CALLGRIND_ZERO_STATS; CALLGRIND_START_INSTRUMENTATION; }
void loop_stop(void) { CALLGRIND_STOP_INSTRUMENTATION; CALLGRIND_DUMP_STATS_AT("loop"); }
"""


def build_helper(workdir: str, name: str, code: str) -> str:
    """The C helper ``code`` (callgrind's client requests) built as ``lib<name>.so`` in ``workdir``;
    its path (``replay_instructions.py`` builds its own helper with it)."""
    source, library = os.path.join(workdir, f"{name}.c"), os.path.join(workdir, f"lib{name}.so")
    Path(source).write_text(code)
    subprocess.run(["gcc", "-O2", "-shared", "-fPIC", "-o", library, source], check=True)
    return library


def _helper(workdir: str) -> str:
    """The helper library, built in ``workdir``."""
    return build_helper(workdir, "loop", _HELPER)


def _inside(workload_path: str, traced: bool, pods: int | None, library: str) -> None:
    """Runs under valgrind: the bench's set-up, then its loop between the helper's two calls."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import bench_scheduler

    from kschedlearn.scheduler.core.generic_scheduler import FitError

    helper = ctypes.CDLL(library)
    with open(workload_path) as f:
        workload = json.load(f)
    if pods is not None:
        workload["pods"] = workload["pods"][:pods]
    rt, cfg, todo = bench_scheduler.build_workload_scheduler(workload, "accelerated", traced)
    del workload
    gc.collect()
    gc.freeze()

    def loop() -> list[str]:
        hosts = []
        algo, cache, nodes = cfg.algorithm, cfg.scheduler_cache, cfg.node_lister
        helper.loop_start()
        for pod in todo:
            try:
                hosts.append(bench_scheduler.place(algo, cache, nodes, pod))
            except FitError:
                hosts.append("")
        helper.loop_stop()
        return hosts

    hosts = rt.run_fn(loop)
    print(hashlib.sha256("\n".join(hosts).encode()).hexdigest())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workload", required=True)
    ap.add_argument("--traced", action="store_true")
    ap.add_argument("--pods", type=int, default=None, help="only the first K pods of the workload")
    ap.add_argument("--inside", default=None, help=argparse.SUPPRESS)  # (the helper library: under valgrind)
    args = ap.parse_args()
    if args.inside:
        _inside(args.workload, args.traced, args.pods, args.inside)
        return
    with tempfile.TemporaryDirectory() as workdir:
        library = _helper(workdir)
        cmd = ["valgrind", "--tool=callgrind", "--instr-atstart=no",
               f"--callgrind-out-file={workdir}/out.%p", sys.executable, __file__, "--workload", args.workload,
               "--inside", library] + (["--traced"] if args.traced else []) \
            + (["--pods", str(args.pods)] if args.pods is not None else [])
        env = dict(os.environ, PYTHONHASHSEED="0")
        done = subprocess.run(cmd, capture_output=True, text=True, check=True, env=env)
        total = 0
        for path in glob.glob(f"{workdir}/out.*"):
            for line in Path(path).read_text().splitlines():
                if line.startswith("totals:"):  # (each dump's; the one at exit counts nothing)
                    total += int(line.split()[1])
    print(json.dumps({"traced": args.traced, "instructions": total, "hostsSha256": done.stdout.strip()[-64:]}))


if __name__ == "__main__":
    main()
