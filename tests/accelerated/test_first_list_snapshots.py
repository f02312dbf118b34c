"""The assigned-pod informer's fast pops with a snapshot at every event (teaching mode).

kschedlearn-only (issue 25, teach4). With the snapshot builder as the tracer's only onlooker,
``observe/first_list.py`` records each ``cache.addPod`` event at once, its snapshot taken
in the middle of the pop as the mirror's hooks take it (the queue's and the cache's watches and
their followers counted in the mirror's order): every event, its snapshot (thinned or not) and
the world are the mirror's. A breakpoint, another listener or another snapshot function makes
the mirror pop. (The snapshots against a full rebuild of the live state at every event:
``tests/trace/test_snapshot_cuts.py``.)
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from kschedlearn import Simulation
from kschedlearn.observe import first_list as informers
from kschedlearn.observe.first_list import FirstList
from kschedlearn.observe.wrap import instance_hooks
from kschedlearn.trace import snapshot as snapshot_module

from tests.accelerated.test_first_list import _add_strays, _events, _state


@pytest.fixture(scope="module")
def dump(replay_dump: Callable[..., Path]) -> Path:
    return replay_dump("first-snapshots", 9, 90, 20, _add_strays)


def _run(dump: Path, fast: bool, monkeypatch: pytest.MonkeyPatch, *, seconds: float = 15,
         change: Callable[[Simulation], None] | None = None,
         pause: Callable[[Any], bool] | None = None) -> tuple[Simulation, FirstList]:
    """The dump replayed for ``seconds`` with a snapshot at every event (``fast=False``: every
    pop the mirror's; ``change(sim)`` made before it runs; ``pause``: the run's breakpoint);
    its FirstList."""
    with monkeypatch.context() as m:
        if not fast:
            m.setattr(FirstList, "_pop", lambda self, call: informers._MIRROR)
        sim = Simulation.from_manifests(str(dump), seed=3, engine="accelerated", record="pod", snapshots=True,
                                        snapshot_every=1)
        if change is not None:
            change(sim)
        world = sim.world
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            world.run(pause, until=world.runtime.now + seconds)  # (None: no breakpoint, bench_replay's way)
    replica = next(iter(sim.world.replicas.values()))
    queue = replica.handles.config_factory.scheduled_pod_populator.config.queue
    hooks = instance_hooks(queue, "pop")
    assert hooks is not None
    return sim, hooks.around[0][1].__self__


def _snapshots(sim: Simulation) -> list[Any]:
    return [e.snapshot for e in sim.world.tracer.events]


@pytest.mark.parametrize("thin", [0, 20])
def test_fast_pops_take_the_mirror_s_snapshots(dump: Path, thin: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Events, snapshots (field by field and as JSON) and the world as the mirror's pops leave
    them — with thinning off, and on for the first list's 92 items (its snapshots carry the
    cache and the populator's queue, the last item's is exact)."""
    monkeypatch.setattr(snapshot_module, "THIN_INITIAL_LIST", thin)
    fast, first = _run(dump, True, monkeypatch)
    slow, _ = _run(dump, False, monkeypatch)
    assert _events(fast) == _events(slow)
    assert _state(fast) == _state(slow)
    mine, theirs = _snapshots(fast), _snapshots(slow)
    assert len(mine) == len(theirs) > 250
    for a, b in zip(mine, theirs):
        assert a == b, f"snapshot {a.seq} differs from the mirror's"
        assert a.dumps() == b.dumps()
    assert first.pops >= 92 + 15 and first.updates >= 15
    thinned = sum(1 for s in mine if s.thinned)
    assert (thinned >= 80) if thin else (thinned == 0)


@pytest.mark.parametrize("onlooker", ["listener", "breakpoint", "snapshot_fn"])
def test_another_onlooker_makes_the_mirror_pop(dump: Path, onlooker: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A listener of the learner's, a breakpoint or a snapshot function that is not the builder
    could see the fast pop's frames (or stop inside it): every add is the mirror's then, and
    the events and snapshots are the mirror's."""

    def change(sim: Simulation) -> None:
        tracer = sim.world.tracer
        if onlooker == "listener":
            tracer.listeners.append(lambda event: None)
        elif onlooker == "snapshot_fn":
            builder = tracer.snapshot_fn
            tracer.snapshot_fn = lambda stage=None, data=None: builder(stage=stage, data=data)

    pause = (lambda event: False) if onlooker == "breakpoint" else None  # (a step that never stops)
    fast, first = _run(dump, True, monkeypatch, seconds=3, change=change, pause=pause)
    slow, _ = _run(dump, False, monkeypatch, seconds=3, change=change, pause=pause)
    assert first.pops == first.updates  # (an update records no event: it stays fast)
    assert sum(1 for e in fast.world.tracer.events if e.stage == "cache.addPod") >= 92
    assert _events(fast) == _events(slow)
    assert _snapshots(fast) == _snapshots(slow)
    assert _state(fast) == _state(slow)


def test_the_pop_s_watch_counts_as_the_mirror_s(dump: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """After the run the queue's and the cache's watches and followers stand where the
    mirror's hooks leave them: nobody inside, nobody processing, no flight, no key lost."""
    from kschedlearn.observe.sharing import watch_of

    fast, first = _run(dump, True, monkeypatch, seconds=5)
    assert first.pops > 92
    factory = next(iter(fast.world.replicas.values())).handles.config_factory
    for obj in (factory.scheduled_pod_populator.config.queue, factory.scheduler_cache):
        w = watch_of(obj)
        assert w is not None and w.follower is not None
        assert w.depth == w.popping  # (only the popper blocked in Pop: the queue's)
        assert w.processing is None
        assert len(w.follower.flying) == w.depth and not any(f.lost or f.keys for f in w.follower.flying)
