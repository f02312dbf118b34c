"""A thinned trace (``record="pod"``) of the accelerated engine: the same placements and the same
best rows of each score table and ranking as the full trace, and fewer events."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from pathlib import Path

import pytest

from kschedlearn import Simulation
from kschedlearn.accelerated.thinned import ROWS


@pytest.fixture(scope="module")
def dump(replay_dump: Callable[..., Path]) -> Path:
    return replay_dump("thin", 32, 64, 12)


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


def test_best_rows_with_a_name_order_equal_the_sort_of_each_scores_ties() -> None:
    """The name-ordered scan (with the order remembered per name list) gives what sorting each
    score's ties by name gave, duplicate names included (a stable sort keeps their index order)."""
    import random

    from kschedlearn.accelerated.thinned import NameOrder, best_rows

    def by_sorting_ties(totals: list[int], names: list[str]) -> list[int]:
        rows: list[int] = []
        for score in sorted(set(totals), reverse=True):
            tied = [i for i, total in enumerate(totals) if total == score]
            tied.sort(key=names.__getitem__, reverse=True)
            rows.extend(tied[:ROWS - len(rows)])
            if len(rows) >= ROWS:
                break
        return rows

    rnd = random.Random(11)
    memo = NameOrder()
    for _ in range(500):
        n = rnd.randint(1, 90)
        totals = [rnd.randint(0, rnd.choice([0, 1, 4, 60])) for _ in range(n)]
        names = [f"n{rnd.randint(0, rnd.choice([4, 1000]))}" for _ in range(n)]
        want = by_sorting_ties(totals, names)
        assert best_rows(totals, names) == want
        assert best_rows(totals, names, memo.of(names)) == want
        assert memo.of(names) is memo.of(names)  # remembered for the same list object


def test_the_assigned_pod_queue_pops_its_front_in_constant_time(dump: Path) -> None:
    """engine="accelerated" gives the assigned-pod informer's DeltaFIFO a FrontLine (its first
    list queues every bound pod); the trace is the mirrored engine's."""
    from kschedlearn.accelerated.informers import FrontLine

    acc, mirrored = _run(dump, "pod"), _run(dump, "pod", "mirrored")
    replica = next(iter(acc.world.replicas.values()))
    queue = replica.handles.config_factory.scheduled_pod_populator.config.queue
    assert type(queue._queue) is FrontLine
    m_replica = next(iter(mirrored.world.replicas.values()))
    assert type(m_replica.handles.config_factory.scheduled_pod_populator.config.queue._queue) is list
    stages = [(e.stage, e.message) for e in acc.trace if e.stage == "cache.addPod"]
    assert stages == [(e.stage, e.message) for e in mirrored.trace if e.stage == "cache.addPod"] and stages


def test_front_line_answers_as_a_list() -> None:
    """The list operations the queues make, on a FrontLine and on a list, side by side."""
    import random

    from kschedlearn.accelerated.informers import FrontLine

    rnd = random.Random(5)
    line, want = FrontLine(), []
    for step in range(2000):
        op = rnd.choice(["append", "append", "pop0", "pop", "popi", "extend", "clear", "in"])
        if op == "append":
            line.append(step), want.append(step)
        elif op == "extend":
            line.extend([step, -step]), want.extend([step, -step])
        elif op == "clear" and rnd.random() < 0.05:
            line.clear(), want.clear()
        elif op == "in":
            assert (step - 3 in line) == (step - 3 in want)
        elif want and op == "pop0":
            assert line.pop(0) == want.pop(0)
        elif want and op == "pop":
            assert line.pop() == want.pop()
        elif want and op == "popi":
            i = rnd.randrange(len(want))
            assert line.pop(i) == want.pop(i)
        assert list(line) == want and len(line) == len(want)
        if want:
            assert line[0] == want[0] and line[-1] == want[-1]


def test_rows_of_the_ties_are_the_best_rows() -> None:
    """selectHost's ties (names descending) give the best rows whenever the best score has at
    least ROWS nodes and the names are unique; else None (then best_rows scans), duplicate names
    and short ties included; the positions are remembered per list object."""
    import random

    from kschedlearn.accelerated.fastpath import best_ties
    from kschedlearn.accelerated.thinned import NameOrder, best_rows, rows_of_ties

    rnd = random.Random(13)
    memo = NameOrder()
    used = stepped_aside = 0
    for _ in range(600):
        n = rnd.randint(1, 120)
        totals = [rnd.choice([3, 7, 7, 10, 10, 10]) if rnd.random() < 0.9 else rnd.randint(0, 12) for _ in range(n)]
        unique = rnd.random() < 0.8
        names = [f"node-{i:03d}" if unique else f"node-{rnd.randint(0, n // 2):03d}" for i in range(n)]
        rnd.shuffle(names)
        ties = best_ties(totals, names)
        assert len(ties) == totals.count(max(totals))
        rows = rows_of_ties(ties, memo.positions(names))
        if rows is None:
            stepped_aside += 1
            assert len(ties) < ROWS or len(set(names)) < n
        else:
            used += 1
            assert rows == best_rows(totals, names)
        assert memo.positions(names) is memo.positions(names)
    assert used > 50 and stepped_aside > 50
