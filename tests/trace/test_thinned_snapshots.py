"""Thinned snapshots during an informer's initial list (``SnapshotBuilder.thin_initial_list``).

The same run is taken twice, with thinning off and with a low threshold, and compared event by
event: the events are the same; a snapshot that is not thinned equals the exact one; a thinned
one names the cache and the populator's queue in ``thinned``, shows for them exactly the parts
of the exact snapshot at ``thinned_as_of``, and for every other part the exact state at its own
event. The explorer's note and the diagrams' captions say so.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path

import attrs
import pytest

from kschedlearn import Simulation
from kschedlearn.trace import snapshot as snapshot_module
from kschedlearn.trace.snapshot import Snapshot

_CARRIED = {"cache", "queues"}


@pytest.fixture(scope="module")
def dump(replay_dump: Callable[..., Path]) -> Path:
    return replay_dump("thin", 12, 90, 14)


@pytest.fixture(scope="module", autouse=True)
def low_threshold() -> Iterator[None]:
    """Thin from 20 listed items on, for this module's worlds (a replay — ``goto`` backwards —
    builds a new world and builder: they must thin alike)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(snapshot_module, "THIN_INITIAL_LIST", 20)
        yield


def _run(dump: Path, thin: int, record: str = "pod", seed: int = 3) -> Simulation:
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(snapshot_module, "THIN_INITIAL_LIST", thin)
        sim = Simulation.from_manifests(str(dump), seed=seed, engine="accelerated", record=record, snapshots=True,
                                        snapshot_every=1)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            sim.run_for(12)
    return sim


def _row(e: object) -> tuple[object, ...]:
    return (e.seq, e.time, e.goroutine, e.process, e.stage, e.message, e.why, e.data)  # type: ignore[attr-defined]


@pytest.fixture(scope="module")
def runs(dump: Path) -> tuple[Simulation, Simulation]:
    return _run(dump, 0), _run(dump, 20)


def test_thinned_snapshots_show_true_parts_and_name_the_stale_ones(runs: tuple[Simulation, Simulation]) -> None:
    exact, thin = runs
    assert [_row(e) for e in thin.trace] == [_row(e) for e in exact.trace]
    by_seq = {e.seq: e.snapshot for e in exact.trace}
    thinned = 0
    for e in thin.trace:
        got, want = e.snapshot, by_seq[e.seq]
        assert got is not None and want is not None
        assert not want.thinned
        if not got.thinned:
            assert got == want
            assert "thinned" not in got.to_json()
            continue
        thinned += 1
        assert got.thinned == ("cache", "queues.scheduledPodPopulator")
        assert got.stage == "cache.addPod" and got.goroutine == "scheduledPodPopulator.Run"
        assert 0 <= got.thinned_as_of < got.seq
        assert got.thinned_why == "not refreshed while scheduledPodPopulator processes its initial list of 90 items"
        # every part it does not name is the exact state at this event
        for f in attrs.fields(Snapshot):
            if f.name not in _CARRIED and not f.name.startswith("thinned"):
                assert getattr(got, f.name) == getattr(want, f.name), f.name
        assert {n: q for n, q in got.queues.items() if n != "scheduledPodPopulator"} == \
            {n: q for n, q in want.queues.items() if n != "scheduledPodPopulator"}
        # the parts it names: exactly the state at thinned_as_of
        then = by_seq[got.thinned_as_of]
        assert got.cache == then.cache
        assert got.queues["scheduledPodPopulator"] == then.queues["scheduledPodPopulator"]
        # and the JSON says so, and reads back
        data = got.to_json()
        assert data["thinned"] == ["cache", "queues.scheduledPodPopulator"]
        assert Snapshot.from_json(json.loads(json.dumps(data))) == got
    # the list's every item but its last is thinned (the last one's event is exact again)
    assert thinned == 89


def test_a_list_below_the_threshold_is_not_thinned(dump: Path) -> None:
    sim = _run(dump, 91)
    assert not any(e.snapshot.thinned for e in sim.trace if e.snapshot is not None)


def test_a_full_history_thins_the_same_events(dump: Path) -> None:
    exact, thin = _run(dump, 0, "event", seed=5), _run(dump, 20, "event", seed=5)
    assert [_row(e) for e in thin.trace] == [_row(e) for e in exact.trace]
    by_seq = {e.seq: e.snapshot for e in exact.trace}
    count = 0
    for e in thin.trace:
        got = e.snapshot
        if got is None:  # (a log line: no snapshot)
            assert by_seq[e.seq] is None
        elif got.thinned:
            count += 1
            assert got.cache == by_seq[got.thinned_as_of].cache
            assert got.apiserver == by_seq[e.seq].apiserver and got.holders == by_seq[e.seq].holders
        else:
            assert got == by_seq[e.seq]
    assert count > 0


def test_the_explorer_and_the_diagrams_say_a_view_is_thinned(runs: tuple[Simulation, Simulation]) -> None:
    from kschedlearn.widgets.explorer import Explorer

    _, thin = runs
    at = next(i for i, e in enumerate(thin.trace) if e.snapshot.thinned)
    snap = thin.trace[at].snapshot
    thin.goto(at)
    note = thin.thinning_note()
    assert (f"the cache and the scheduledPodPopulator queue show the state at event {snap.thinned_as_of}, "
            "not refreshed while scheduledPodPopulator processes its initial list of 90 items") in note
    view = Explorer(thin)
    view.refresh()
    assert "kschedlearn-thinned" in view.w["position"].value
    assert "scheduledPodPopulator processes its initial list of 90 items" in view.w["position"].value
    for name in ("pipeline", "cache", "pod_states"):
        assert f"thinned: the cache" in thin.show(name).dot(), name
    assert "the scheduledPodPopulator queue as at event" in thin.show("pipeline").dot()
    exact_at = next(i for i, e in enumerate(thin.trace) if not e.snapshot.thinned and i > at)
    thin.goto(exact_at)
    assert "show the state at event" not in thin.thinning_note()
    assert "thinned:" not in thin.show("cache").dot()
