"""The teach3 cuts in the snapshot builder keep every snapshot exact.

kschedlearn-only (issue 25). A small cluster replay (``bench_replay``'s generated dump, accelerated
engine, a snapshot at every recorded event, thinning off) is checked event by event against a
full rebuild — the harness of ``test_cheap_snapshots`` — so the cache index's node views kept by
generation, the sorted chunks not compared after replacements known unequal (goroutines,
holders, the API server's pods) and the chunk equality's early exit are all exercised where a
replay exercises them; then the chunk structures against plain tuples under Hypothesis.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.hypothesis_budget import examples

from kschedlearn import Simulation
from kschedlearn.trace import snapshot as snapshot_module
from kschedlearn.trace.chunks import Chunks, SortedChunks
from kschedlearn.trace.snapshot import Snapshot

from tests.trace.test_cheap_snapshots import _checked


@pytest.fixture(scope="module")
def dump(replay_dump: Callable[..., Path]) -> Path:
    return replay_dump("cuts", 12, 120, 40)


@pytest.mark.parametrize("record", ["pod", "stage"])
def test_replay_snapshots_equal_the_full_rebuild(dump: Path, record: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(snapshot_module, "THIN_INITIAL_LIST", 0)
    sim = Simulation.from_manifests(str(dump), seed=2, engine="accelerated", record=record, snapshots=True,
                                    snapshot_every=1)
    pairs: list[tuple[Snapshot, Snapshot]] = []
    sim.world.tracer.snapshot_fn = _checked(sim.world.builder, pairs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sim.run_for(12)
    assert len(pairs) > 500
    for shared, fresh in pairs:
        assert shared == fresh, f"snapshot {shared.seq} differs from a full rebuild"
        assert shared.dumps() == fresh.dumps()
    # the run went through what the cuts touch: nodes whose pods changed, goroutines and holders
    assert len({s.cache for s, _ in pairs}) > 50
    assert len({s.goroutines for s, _ in pairs}) > 50
    assert any(s.holders for s, _ in pairs)


def test_fast_pops_snapshots_equal_the_full_rebuild(dump: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """teach4: the informer's fast pops run with a snapshot at every event (``observe/first_list.py``
    records its ``cache.addPod`` at once, mid-pop): each of those snapshots equals the full rebuild
    of the live state — the cache, the populator's queue (the popped key gone, its item being
    processed), the stores, the goroutines and holders. The harness's checking snapshot function
    is let through as the builder is (else the mirror pops), and the run has no breakpoint."""
    from kschedlearn.observe import first_list_onlookers
    from kschedlearn.observe.wrap import instance_hooks

    monkeypatch.setattr(snapshot_module, "THIN_INITIAL_LIST", 0)
    monkeypatch.setattr(first_list_onlookers, "_at_once", lambda tracer: tracer.breakpoint is None)
    sim = Simulation.from_manifests(str(dump), seed=2, engine="accelerated", record="pod", snapshots=True,
                                    snapshot_every=1)
    pairs: list[tuple[Snapshot, Snapshot]] = []
    sim.world.tracer.snapshot_fn = _checked(sim.world.builder, pairs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sim.world.run(None, until=sim.world.runtime.now + 12)
    replica = next(iter(sim.world.replicas.values()))
    hooks = instance_hooks(replica.handles.config_factory.scheduled_pod_populator.config.queue, "pop")
    assert hooks is not None
    fast = hooks.around[0][1].__self__
    assert fast.pops >= 120 + 20 and fast.updates >= 20
    assert len(pairs) > 500
    events = sim.world.tracer.events
    stood_in = 0
    for shared, fresh in pairs:
        if shared.stack != fresh.stack:
            # the rebuild walks the live Python frames: in a fast pop the mirror's Pop, Process,
            # OnAdd and addPodToCache frames did not run; its stack is the event's, which
            # ``tests/accelerated/test_first_list*.py`` compare with the mirror's
            assert shared.stage == "cache.addPod" and shared.stack == events[shared.seq].stack
            fresh = attrs.evolve(fresh, stack=shared.stack)
            stood_in += 1
        assert shared == fresh, f"snapshot {shared.seq} differs from a full rebuild"
        assert shared.dumps() == fresh.dumps()
    assert stood_in >= 120 + 20


_OPS = st.lists(st.tuples(st.sampled_from(["set", "set", "replace", "delete", "freeze"]),
                          st.integers(0, 40), st.integers(0, 3)), max_size=120)


@settings(max_examples=examples(150), deadline=None)
@given(ops=_OPS, start=st.integers(0, 30))
def test_sorted_chunks_follow_a_dict(ops: list[tuple[str, int, int]], start: int) -> None:
    """Set / replace (with ``unequal`` only when the view really differs) / delete against a
    plain sorted dict; every freeze equals the tuple, and is the last freeze itself when equal."""
    chunks: SortedChunks[int, Any] = SortedChunks()
    plain = {k: ("v", k, 0) for k in range(start)}
    chunks.reset(plain.items())
    last: Chunks[Any] | None = None
    last_plain: tuple[Any, ...] | None = None
    for op, key, value in ops:
        view = ("v", key, value)
        if op == "set":
            chunks.set(key, view)
            plain[key] = view
        elif op == "replace":
            if plain.get(key) != view:
                chunks.set(key, view, unequal=True)
                plain[key] = view
        elif op == "delete":
            chunks.delete(key)
            plain.pop(key, None)
        frozen = chunks.freeze()
        want = tuple(plain[k] for k in sorted(plain))
        assert frozen == want and tuple(frozen) == want and len(frozen) == len(want)
        if last is not None and want == last_plain:
            assert frozen is last  # unchanged (or changed and back): shared with the last one
        last, last_plain = frozen, want


@given(a=st.lists(st.lists(st.integers(0, 3), min_size=1, max_size=4), max_size=5),
       b=st.lists(st.lists(st.integers(0, 3), min_size=1, max_size=4), max_size=5))
def test_chunks_equal_as_their_elements(a: list[list[int]], b: list[list[int]]) -> None:
    x, y = Chunks(tuple(map(tuple, a))), Chunks(tuple(map(tuple, b)))
    assert (x == y) == (tuple(x) == tuple(y))
    assert (x != y) == (tuple(x) != tuple(y))
