"""``benchmarks/bench_replay.py --json`` on a tiny generated dump: its keys, every pending pod
accounted for, and placements equal to the same dump replayed without the benchmark."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
KEYS = {"loadS", "runS", "runCpuS", "virtualS", "podsPerS", "peakRssMiB", "events", "bareS", "bareCpuS",
        "runOverBare", "pending", "bound", "failed", "unresolved", "placements", "placementsSha256", "engine",
        "trace", "snapshots"}


def _add_too_big(doc: dict[str, Any]) -> None:
    """One pending pod no node can hold: "failed" (PodScheduled=False), not waited for forever."""
    big = json.loads(json.dumps(doc["items"][-1]))
    big["metadata"].update(name="too-big", uid="uid-too-big")
    big["spec"]["containers"][0]["resources"] = {"requests": {"cpu": "64"}, "limits": {"cpu": "64"}}
    doc["items"].append(big)


@pytest.fixture(scope="module")
def dump(replay_dump: Callable[..., Path]) -> Path:
    return replay_dump("replay", 6, 24, 8, _add_too_big)


def _bench(dump: Path, *flags: str) -> dict:
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_replay.py"), "--dump", str(dump),
                          "--json", "--placements", *flags],
                         check=True, capture_output=True, text=True, cwd=ROOT, timeout=240).stdout
    return json.loads(out.strip().splitlines()[-1])


def _replayed(dump: Path) -> dict[str, str]:
    """The pending pods' nodes after an ordinary replay (the notebook's defaults; "" = not bound)."""
    import warnings

    from kschedlearn import Simulation

    sim = Simulation.from_manifests(str(dump), seed=1)
    pending = [o for o in sim.scenario.objects if type(o).kind == "Pod" and not o.spec.node_name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sim.run()
    storage = sim.world.api.storage
    return {f"{p.metadata.namespace}/{p.metadata.name}":
            storage.get("pods", (p.metadata.namespace, p.metadata.name)).spec.node_name for p in pending}


def test_bench_replay_json(dump: Path) -> None:
    r = _bench(dump, "--engine", "accelerated", "--trace", "pod")
    assert KEYS <= set(r)
    assert r["pending"] == 9 and r["unresolved"] == 0
    assert r["bound"] == 8 and r["failed"] == 1 and r["bound"] + r["failed"] == r["pending"]
    assert set(r["placements"]) == {f"default/new-{i:06d}" for i in range(8)} | {"default/too-big"}
    assert r["placements"]["default/too-big"] == ""
    assert r["events"] > 0 and r["virtualS"] > 0 and r["barePods"] == 9 and r["bareCpuS"] > 0
    assert r["placements"] == _replayed(dump)


def test_bench_replay_untraced_mirrored_places_the_same(dump: Path) -> None:
    traced = _bench(dump, "--engine", "accelerated", "--trace", "pod", "--no-bare")
    plain = _bench(dump, "--engine", "mirrored", "--trace", "off", "--no-bare")
    assert plain["events"] == 0
    assert plain["placements"] == traced["placements"]
    assert plain["placementsSha256"] == traced["placementsSha256"]


def test_bench_replay_on_demand_snapshots_times_the_looks_and_places_the_same(dump: Path) -> None:
    """``--snapshots on-demand``: the run records no snapshot; the looks after it are timed, the
    twin world recorded the run's very events, and the placements are those of the plain run."""
    r = _bench(dump, "--engine", "accelerated", "--trace", "pod", "--snapshots", "on-demand", "--no-bare")
    assert r["snapshots"] == "on-demand"
    assert {"lookMidCpuS", "lookLastCpuS", "lookAgainMs", "twinSame", "peakRssAfterLooksMiB"} <= set(r)
    assert r["twinSame"] is True
    assert r["lookMidCpuS"] > 0 and r["lookLastCpuS"] >= 0 and r["lookAgainMs"] >= 0
    assert r["placements"] == _replayed(dump)


def test_bench_replay_refuses_on_demand_snapshots_without_a_trace(dump: Path) -> None:
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_replay.py"), "--dump", str(dump),
                           "--trace", "off", "--snapshots", "on-demand"], capture_output=True, text=True, cwd=ROOT,
                          timeout=60)
    assert done.returncode == 2
    assert "--snapshots on-demand needs a trace" in done.stderr
