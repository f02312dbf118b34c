"""A thinned trace (``record="pod"``) of the accelerated engine: the same placements and the same
best rows of each score table and ranking as the full trace, and fewer events."""

from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path

import pytest

from kschedlearn import Simulation
from kschedlearn.accelerated.thinned import ROWS

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def dump(tmp_path_factory: pytest.TempPathFactory) -> Path:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from bench_replay import make_dump
    finally:
        sys.path.pop(0)
    path = tmp_path_factory.mktemp("thin") / "dump.json"
    path.write_text(json.dumps(make_dump(32, 64, 12)), encoding="utf-8")
    return path


def _run(dump: Path, record: str, engine: str = "accelerated") -> Simulation:
    sim = Simulation.from_manifests(str(dump), seed=2, engine=engine, record=record, snapshots=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sim.run_for(20)
    return sim


def _by_pod(sim: Simulation, stage: str) -> dict[str, dict]:
    return {e.data["pod"]: e.data for e in sim.trace if e.stage == stage}


def test_thinned_trace_keeps_the_best_rows_of_the_full_one(dump: Path) -> None:
    full, thin = _run(dump, "event"), _run(dump, "pod")
    assert len(thin.trace) < len(full.trace) / 5
    assert {e.stage for e in thin.trace} <= {"workload", "scheduleOne.pop", "schedule.start", "schedule.predicates",
                                             "schedule.priorities", "selectHost", "assume", "bind", "apiserver.bind",
                                             "finishBinding", "cache.addPod", "kubelet.start", "error.backoff",
                                             "error.requeue"}
    full_sel, thin_sel = _by_pod(full, "selectHost"), _by_pod(thin, "selectHost")
    assert full_sel.keys() == thin_sel.keys() and len(thin_sel) == 12
    for pod, got in thin_sel.items():
        want = full_sel[pod]
        assert got["host"] == want["host"] and got["ties"] == want["ties"]
        assert got["last_node_index"] == want["last_node_index"]
        assert got["ranked"] == [tuple(r) for r in want["ranked"][:ROWS]]
        assert got["thinned"] == {"rows": ROWS, "of": len(want["ranked"])}
    for stage in ("schedule.start", "schedule.predicates"):
        assert _by_pod(thin, stage) == _by_pod(full, stage)
    full_pri, thin_pri = _by_pod(full, "schedule.priorities"), _by_pod(thin, "schedule.priorities")
    for pod, got in thin_pri.items():
        want = full_pri[pod]
        assert got["totals"] == {n: want["totals"][n] for n in got["nodes"]}
        for column, full_column in zip(got["scores"], want["scores"]):
            assert column == [full_column[want["nodes"].index(n)] for n in got["nodes"]]
        assert got["weights"] == want["weights"] and got["names"] == want["names"]


def test_thinned_and_full_and_mirrored_runs_place_alike(dump: Path) -> None:
    def placements(sim: Simulation) -> dict[str, str]:
        return {p.metadata.name: p.spec.node_name for p in sim.world.api.storage.items("pods")}

    thin = _run(dump, "pod")
    assert placements(thin) == placements(_run(dump, "event")) == placements(_run(dump, "pod", "mirrored"))
    assert "best nodes" in thin.thinning_note()


def test_best_rows_rank_as_select_host_does() -> None:
    import random

    from kschedlearn.accelerated.thinned import best_rows

    rnd = random.Random(7)
    for _ in range(300):
        n = rnd.randint(1, 60)
        totals = [rnd.choice([0, 1, 3, 8, 10]) for _ in range(n)]
        names = [f"node-{rnd.randint(0, 99):02d}-{i}" for i in range(n)]
        want = sorted(range(n), key=lambda i: (totals[i], names[i]), reverse=True)[:ROWS]
        assert best_rows(totals, names) == want
