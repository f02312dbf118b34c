"""Run the suite in several pytest processes that share it a whole file at a time.

Usage: ``python tools/run_tests.py [--processes N] [--durations K] [pytest arguments ...]``
(``make test`` and ``make test-fast`` call it with N = 3 on the 2-core machine: see the Makefile).

Each process is a plain pytest run with the ``tests.file_claims`` plugin: it collects the whole
suite and runs the files it claims first (see that module for why this replaced
``pytest-xdist``). This script starts them, each with its own temporary base folder, shows a
progress line now and then, and at the end prints every process's own report (failures,
tracebacks, the short summary), then the slowest ``K`` test phases of the whole run and one
summary line over all processes. Its exit status is the processes' worst (pytest's codes).
Ctrl-C stops every process and still prints what they reported.
"""

from __future__ import annotations

import argparse
import json
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

#: pytest's exit codes, from the most telling to the least (the run's status is the first found)
_WORST_FIRST = (3, 2, 4, 1, 5, 0)

#: the order of the summary line's words, as pytest prints them
_ORDER = ("failed", "passed", "skipped", "deselected", "xfailed", "xpassed", "warnings", "error")


def _arguments(argv: list[str]) -> tuple[argparse.Namespace, list[str]]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], allow_abbrev=False)
    parser.add_argument("--processes", type=int, default=3, help="how many pytest processes (default 3)")
    parser.add_argument("--durations", type=int, default=0, help="list the slowest K test phases (0: none)")
    parser.add_argument("--progress-every", type=float, default=30.0, help="seconds between progress lines")
    return parser.parse_known_args(argv)


def _start(folder: Path, slot: int, pytest_args: list[str]) -> tuple[subprocess.Popen[bytes], Path]:
    out = folder / f"out-{slot}.txt"
    # one word each (``--option=value``): pytest looks for its root folder among the words that
    # are not options it knows before it loads the plugin that knows ``--claims-dir``
    argv = [sys.executable, "-m", "pytest", "-p", "tests.file_claims", f"--claims-dir={folder}",
            f"--claims-slot={slot}", f"--basetemp={folder / f'tmp-{slot}'}",
            "-o", "console_output_style=classic", *pytest_args]
    with out.open("wb") as sink:
        # in the runner's process group: Ctrl-C in a terminal, or a kill of the group, reaches
        # every pytest process at once, as it reaches one pytest
        proc = subprocess.Popen(argv, cwd=ROOT, stdout=sink, stderr=subprocess.STDOUT)
    return proc, out


def _reports(folder: Path) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for path in sorted(folder.glob("reports-*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.endswith("}"):  # a line being written is left for the next look
                rows.append(json.loads(line))
    return rows


def _progress(folder: Path, started: float) -> str:
    rows = _reports(folder)
    done = sum(1 for r in rows if r["when"] == "teardown")
    failed = sum(1 for r in rows if r["outcome"] == "failed")
    files = len(list(folder.glob("claim-*")))
    return f"[run_tests] {done} tests done, {failed} failed, {files} files started, {time.monotonic() - started:.0f} s"


def _wait(procs: list[subprocess.Popen[bytes]], folder: Path, every: float) -> bool:
    """Wait for every process; True when interrupted. Ctrl-C reached them too (one process
    group): each pytest stops and still prints its report, which is waited for; a SIGTERM sent
    to the runner alone is passed on to them."""
    def pass_on(signum: int, frame: Any) -> None:
        for p in procs:
            if p.poll() is None:
                p.send_signal(signum)
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, pass_on)
    started = time.monotonic()
    last = started
    try:
        while any(p.poll() is None for p in procs):
            time.sleep(0.2)
            if time.monotonic() - last >= every:
                last = time.monotonic()
                print(_progress(folder, started), flush=True)
    except KeyboardInterrupt:
        for p in procs:
            try:
                p.wait(timeout=60)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        return True
    return False


def _durations(rows: list[dict[str, Any]], count: int) -> list[str]:
    slow = sorted((r for r in rows if r["duration"] >= 0.005), key=lambda r: -r["duration"])[:count]
    lines = [f" slowest {count} durations ".center(80, "=")]
    lines += [f"{r['duration']:.2f}s {r['when']:<8} {r['nodeid']}" for r in slow]
    return lines


def _summary(folder: Path, processes: int, seconds: float) -> str:
    total: dict[str, int] = {}
    for path in sorted(folder.glob("counts-*.json")):
        for key, value in json.loads(path.read_text(encoding="utf-8")).items():
            # every process collects (and deselects) the whole suite: deselections counted once
            total[key] = max(total.get(key, 0), value) if key == "deselected" else total.get(key, 0) + value
    words = [key for key in _ORDER if total.get(key)] + sorted(k for k in total if k not in _ORDER and total[k])
    parts = ", ".join(f"{total[key]} {key}" for key in words) or "no tests ran"
    return f" {parts} in {seconds:.2f}s ({processes} pytest processes) ".center(80, "=")


def _status(codes: list[int]) -> int:
    for code in _WORST_FIRST:
        if code in codes:
            return code
    return max(codes)


def main(argv: list[str]) -> int:
    options, pytest_args = _arguments(argv)
    folder = Path(tempfile.mkdtemp(prefix="kschedlearn-tests-"))
    started = time.monotonic()
    try:
        runs = [_start(folder, slot, pytest_args) for slot in range(max(1, options.processes))]
        interrupted = _wait([p for p, _ in runs], folder, options.progress_every)
        seconds = time.monotonic() - started
        for slot, (proc, out) in enumerate(runs):
            print(f" pytest process {slot + 1} of {len(runs)} (exit status {proc.returncode}) ".center(80, "#"))
            sys.stdout.write(out.read_text(encoding="utf-8", errors="replace"))
        if options.durations:
            print("\n".join(_durations(_reports(folder), options.durations)))
        print(_summary(folder, len(runs), seconds), flush=True)
        codes = [p.returncode for p, _ in runs]
        return 2 if interrupted else _status([c if c >= 0 else 3 for c in codes])
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
