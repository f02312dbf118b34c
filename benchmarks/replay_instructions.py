"""Instructions of ``bench_replay.py``'s load and run phases, counted by valgrind.

kschedlearn-only (issue 25). CPU seconds of a replay scatter by ±8 % on a shared machine;
instruction counts do not. The process runs under ``valgrind --tool=callgrind
--instr-atstart=no`` and ``bench_replay.replay`` itself is driven, with the two-line helper of
``loop_instructions.py`` switching instrumentation on and off: on before ``Simulation.from_manifests``
and off when the load is done (``bench_replay._pending_keys``, called right after it: the "load"
dump), on again there and off when the last pending pod resolved (the harness's
``resource.getrusage``, called right after the run: the "run" dump). The bare loop is not run.

    .venv/bin/python benchmarks/replay_instructions.py --nodes 100 --bound 3000 --pending 300 [--trace pod] \
        [--snapshots every]

prints ``{"load": N, "run": M, "work": W, "placementsSha256": ...}`` ("work": the part of the run
up to where ``bench_replay``'s ``runCpuS`` is taken, without the deferred events' building that
follows) (PYTHONHASHSEED=0; needs valgrind and gcc).
Slow: ~5 min at 100 nodes, ~10–20 at 300 (run `main` from a compiled archive: see benchmarks/README.md, replay5).
"""

from __future__ import annotations

import argparse
import ctypes
import glob
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from loop_instructions import build_helper  # (this folder: the script's own, first on sys.path)

_HELPER = """#include <valgrind/callgrind.h>
void phase_start(void) { CALLGRIND_ZERO_STATS; CALLGRIND_START_INSTRUMENTATION; }
void phase_stop_load(void) { CALLGRIND_STOP_INSTRUMENTATION; CALLGRIND_DUMP_STATS_AT("load"); }
void phase_stop_run(void) { CALLGRIND_STOP_INSTRUMENTATION; CALLGRIND_DUMP_STATS_AT("run"); }
void phase_mark_work(void) { CALLGRIND_DUMP_STATS_AT("work"); }
"""


def _helper(workdir: str) -> str:
    """The helper library, built in ``workdir``."""
    return build_helper(workdir, "phase", _HELPER)


class _Usage:
    """``bench_replay``'s ``resource`` module, whose ``getrusage`` (the first call after the run)
    ends the run phase first."""

    def __init__(self, real: Any, stop: Any) -> None:
        self.real, self.stop, self.stopped = real, stop, False
        self.RUSAGE_SELF = real.RUSAGE_SELF

    def getrusage(self, who: int) -> Any:
        if not self.stopped:
            self.stopped = True
            self.stop()
        return self.real.getrusage(who)


def _inside(args: argparse.Namespace, library: str) -> None:
    """Runs under valgrind: ``bench_replay.replay`` between the helper's calls."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import bench_replay

    helper = ctypes.CDLL(library)
    path = bench_replay.dump_file(args.workdir, args.nodes, args.bound, args.pending)
    pending_keys = bench_replay._pending_keys

    def after_load(sim: Any) -> list[tuple[str, str]]:
        helper.phase_stop_load()
        keys = pending_keys(sim)
        helper.phase_start()
        return keys

    bench_replay._pending_keys = after_load
    if hasattr(bench_replay, "_run_phase_done"):
        bench_replay._run_phase_done = helper.phase_mark_work
    bench_replay.resource = _Usage(bench_replay.resource, helper.phase_stop_run)  # type: ignore[assignment]
    helper.phase_start()
    _, placements = bench_replay.replay(path, args.engine, args.trace, args.snapshots)
    text = "\n".join(f"{k} {v}" for k, v in sorted(placements.items()))
    print(hashlib.sha256(text.encode()).hexdigest())


def _totals(workdir: str) -> dict[str, int]:
    """The dumps' totals by phase: "load", "run" (from the load's end to the harness's
    ``getrusage``) and, inside the run, "work" (up to where ``runCpuS`` is taken, before the
    deferred events are built); a dump at "work" restarts the count, so "run" adds both."""
    out: dict[str, int] = {}
    for path in glob.glob(f"{workdir}/out.*"):
        text = Path(path).read_text()
        phase = next((line.split()[-1] for line in text.splitlines() if line.startswith("desc: Trigger:")), "")
        for line in text.splitlines():
            if line.startswith("totals:"):
                for name in ("load", "run", "work"):
                    if phase.endswith(name):
                        out[name] = out.get(name, 0) + int(line.split()[1])
    if "work" in out:
        out["run"] = out.get("run", 0) + out["work"]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nodes", type=int, default=100)
    ap.add_argument("--bound", type=int, default=3000)
    ap.add_argument("--pending", type=int, default=300)
    ap.add_argument("--engine", default="accelerated")
    ap.add_argument("--trace", default="pod", choices=("off", "pod", "stage", "event"))
    ap.add_argument("--snapshots", default="off", choices=("off", "every"))
    ap.add_argument("--workdir", default="/tmp/kschedlearn-bench")
    ap.add_argument("--inside", default=None, help=argparse.SUPPRESS)  # (the helper library: under valgrind)
    args = ap.parse_args()
    if args.inside:
        _inside(args, args.inside)
        return
    with tempfile.TemporaryDirectory() as workdir:
        library = _helper(workdir)
        cmd = ["valgrind", "--tool=callgrind", "--instr-atstart=no",
               f"--callgrind-out-file={workdir}/out.%p", sys.executable, __file__, "--nodes", str(args.nodes),
               "--bound", str(args.bound), "--pending", str(args.pending), "--engine", args.engine,
               "--trace", args.trace, "--snapshots", args.snapshots, "--workdir", args.workdir, "--inside", library]
        env = dict(os.environ, PYTHONHASHSEED="0")
        done = subprocess.run(cmd, capture_output=True, text=True, check=True, env=env)
        totals = _totals(workdir)
    print(json.dumps({**totals, "placementsSha256": done.stdout.strip()[-64:]}))


if __name__ == "__main__":
    main()
