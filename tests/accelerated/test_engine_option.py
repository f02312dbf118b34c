"""``engine="accelerated"`` through the user-facing doors: Simulation, the CLI, the benchmark.

kschedlearn-only. Every bundled scenario gives the same trace (stage, message and data of
every event) with either engine; the CLI's ``kube-scheduler --engine`` and the benchmark's
``--workload ... --json`` path (on a tiny workload generated with ``../shared/bench``'s
format) agree between engines too.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from kschedlearn import Simulation
from kschedlearn.cli import cmd_kube_scheduler

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted(p.stem for p in (ROOT / "kschedlearn" / "scenarios" / "data").glob("*.yaml"))


def _trace(name: str, engine: str) -> list[tuple[str, str, str]]:
    sim = Simulation.from_scenario(name, seed=3, engine=engine, snapshots=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a crash on purpose stops the run with a warning
        while sim.run() is not None:
            pass
    return [(e.stage, e.message, repr(e.data)) for e in sim.trace]


@pytest.mark.parametrize("name", SCENARIOS)
def test_scenario_trace_identical(name: str) -> None:
    mirrored = _trace(name, "mirrored")
    assert any(stage == "selectHost" for stage, _, _ in mirrored) or name in ("bind-failure", "bad-policy")
    assert _trace(name, "accelerated") == mirrored


def test_unknown_engine_is_a_clear_error() -> None:
    sim = Simulation.from_scenario("three-nodes", engine="turbo")
    with pytest.raises(ValueError, match="engine: 'turbo' is not one of mirrored, accelerated"):
        sim.world  # noqa: B018 - building the world validates the engine


def test_cli_kube_scheduler_engine_flag() -> None:
    outs = []
    for engine in ("mirrored", "accelerated"):
        out, err = io.StringIO(), io.StringIO()
        rc = cmd_kube_scheduler(["--scenario", "three-nodes", "--duration", "20s", "--v", "2",
                                 "--engine", engine], out, err)
        assert rc == 0
        outs.append(err.getvalue())
    assert outs[0] == outs[1] and "Successfully assigned" in outs[0]


def _make_workload(tmp_path: Path) -> Path:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from bench_scheduler import SHARED_BENCH
    finally:
        sys.path.pop(0)
    if not (Path(SHARED_BENCH) / "make_workload.py").exists():
        pytest.skip(f"no ../shared/bench beside this checkout ({SHARED_BENCH})")
    path = tmp_path / "tiny.json"
    subprocess.run([sys.executable, str(Path(SHARED_BENCH) / "make_workload.py"), "12", "60", "20", str(path)], check=True)
    return path


def test_benchmark_workload_json(tmp_path: Path) -> None:
    path = _make_workload(tmp_path)
    results = {}
    for engine in ("mirrored", "accelerated"):
        out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_scheduler.py"), "--workload", str(path),
                              "--engine", engine, "--json"], check=True, capture_output=True, text=True).stdout
        results[engine] = json.loads(out)
    for r in results.values():
        assert {"podsPerS", "p50Ms", "p99Ms", "hosts", "hostsSha256"} <= set(r)
        assert len(r["hosts"]) == 20 and all(h.startswith("node-") for h in r["hosts"])
    assert results["mirrored"]["hostsSha256"] == results["accelerated"]["hostsSha256"]
    assert results["mirrored"]["hosts"] == results["accelerated"]["hosts"]


def test_accelerate_keeps_the_round_robin_counter() -> None:
    # selectHost's lastNodeIndex decides ties: an accelerated copy of a scheduler that already
    # placed pods must go on from the same count, or its next tie-break differs from the mirror's
    from kschedlearn.accelerated import accelerate
    from kschedlearn.scheduler.core.generic_scheduler import new_generic_scheduler
    from kschedlearn.scheduler.schedulercache import cache as schedulercache

    algo = new_generic_scheduler(schedulercache._new_scheduler_cache(30.0, 1.0, None), {}, None, [], None, [])
    algo.last_node_index = 7
    assert accelerate(algo).last_node_index == 7
