"""Cheap snapshots equal full rebuilds, share every unchanged part, and keep back/goto exact.

kschedlearn-only (issue 13 item 4). The snapshot builder reuses what it built while a source's
generation or signature stands still (``trace/sharing.py``); these tests take, at every trace
event of the bundled scenarios, a second snapshot the old way — a builder with no memo, the
cache's debug view built from scratch, the stack walked frame by frame — and compare the two
through their JSON export.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.hypothesis_budget import examples

from kschedlearn import Simulation
from kschedlearn.scenarios.scenario import bundled_names
from kschedlearn.trace import core as trace_core
from kschedlearn.trace.core import Frame, _is_mirrored_frame_module
from kschedlearn.observe import views
from kschedlearn.observe.sharing import is_watched
from kschedlearn.trace.snapshot import Snapshot, SnapshotBuilder

MAX_EVENTS = 300  # per scenario: start-up, scheduling, binding, leader renewals
LONGER = {"unfenced-leader": 640, "assume-expiry": 400}  # the lost lease and crash; the expiry sweep


def _naive_stack(limit: int = 40) -> tuple[Frame, ...]:
    """The stack as ``capture_stack`` built it before its memo: every frame walked."""
    frames: list[Frame] = []
    f = sys._getframe(1)
    while f is not None and len(frames) < limit:
        mod = f.f_globals.get("__name__", "")
        if _is_mirrored_frame_module(mod):
            frames.append(Frame(f.f_code.co_qualname, mod, f.f_lineno))
        f = f.f_back
    in_frame = (trace_core._in_frame,) if trace_core._in_frame is not None else ()
    return (*reversed(frames), *in_frame)


@attrs.define(eq=False)
class _Fresh:
    """A cache source's view built from scratch: with an empty per-node memo (the shared one is
    put back afterwards), never the watched picture."""

    source: Any

    def debug_state(self) -> Any:
        cache = self.source.target()
        if cache is None:
            return None
        saved = views.CACHE_MEMO.pop(cache, None)
        try:
            return views.cache_state(cache)
        finally:
            views.CACHE_MEMO.pop(cache, None)
            if saved is not None:
                views.CACHE_MEMO[cache] = saved


@attrs.define(eq=False)
class _FreshQueue:
    """A queue source's view built from the queue's internals (never its index or the watched
    picture)."""

    source: Any

    @property
    def kind(self) -> str:
        return str(self.source.kind)

    def debug_state(self) -> Any:
        queue = self.source.target()
        return views.queue_state(queue) if queue is not None else None


def _full_rebuild(main: SnapshotBuilder, stage: str | None, data: Any, state: tuple[Any, ...]) -> Snapshot:
    """The snapshot the builder took, rebuilt with no reuse, from its state before the call."""
    queues = {name: _FreshQueue(q) for name, q in main.queues.items()}
    ref = SnapshotBuilder(runtime=main.runtime, queues=queues, stores=main.stores,
                          cache=_Fresh(main.cache) if main.cache is not None else None,
                          backoff=main.backoff, api_objects=main.api_objects, api_version=None,
                          leader_candidates=main.leader_candidates, capture_stacks=False)
    ref._stages, ref._seen, ref._last_stage, ref._holders = state
    snap = ref(stage=stage, data=data)
    stack = _naive_stack() if (main.capture_stacks and getattr(main.runtime, "current", None) is not None) else None
    return attrs.evolve(snap, stack=stack)


def _checked(main: SnapshotBuilder, seen: list[tuple[Snapshot, Snapshot]]) -> Callable[..., Snapshot]:
    def snapshot_fn(stage: str | None = None, data: Any = None) -> Snapshot:
        state = (list(main._stages), set(main._seen), main._last_stage, dict(main._holders))
        snap = main(stage=stage, data=data)
        seen.append((snap, _full_rebuild(main, stage, data, state)))
        return snap

    return snapshot_fn


def _run_checked(name: str, seed: int, max_events: int) -> Iterator[tuple[Snapshot, Snapshot]]:
    sim = Simulation.from_scenario(name, seed=seed)
    pairs: list[tuple[Snapshot, Snapshot]] = []
    sim.world.tracer.snapshot_fn = _checked(sim.world.builder, pairs)
    sim.run_until(lambda e: e.seq >= max_events)
    assert pairs, f"{name}: no snapshot taken"
    return iter(pairs)


@pytest.mark.parametrize("name", bundled_names())
def test_shared_snapshots_equal_the_full_rebuild(name: str) -> None:
    for shared, fresh in _run_checked(name, 1, LONGER.get(name, MAX_EVENTS)):
        assert shared.dumps() == fresh.dumps(), f"{name}: snapshot {shared.seq} differs from a full rebuild"


@settings(max_examples=examples(4), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**16), events=st.integers(50, 400))
def test_shared_snapshots_equal_the_full_rebuild_any_seed(seed: int, events: int) -> None:
    for shared, fresh in _run_checked("ha-failover", seed, events):
        assert shared == fresh and shared.dumps() == fresh.dumps()


def test_queue_parts_are_shared_until_their_queue_changes() -> None:
    sim = Simulation.from_scenario("burst-100-pods", seed=1)
    sim.run_until(lambda e: e.seq >= 1500)
    snaps = [e.snapshot for e in sim.trace if e.snapshot is not None and e.snapshot.queues]
    shared_queue = shared_item = changed = 0
    for before, after in zip(snaps, snaps[1:]):
        for name, new in after.queues.items():
            old = before.queues.get(name)
            if old is None:
                continue
            if new == old:
                assert new is old, f"{name} at {after.seq}: an unchanged queue was rebuilt"
                shared_queue += 1
                continue
            changed += 1
            old_items = {i.key: i for i in old.items}
            for item in new.items:
                if item == old_items.get(item.key):
                    assert item is old_items[item.key], f"{name}/{item.key} rebuilt although unchanged"
                    shared_item += 1
        if after.queues == before.queues:
            assert after.queues is before.queues
    assert shared_queue > 100 and changed > 10 and shared_item > 10


def test_unchanged_cache_and_goroutines_are_the_same_objects() -> None:
    sim = Simulation.from_scenario("three-nodes", seed=1)
    sim.run()
    assert all(is_watched(r.handles.scheduler.config.scheduler_cache) for r in sim.world.replicas.values())
    snaps = [e.snapshot for e in sim.trace if e.snapshot is not None]
    reused = {"cache": 0, "goroutines": 0, "apiserver": 0}
    for before, after in zip(snaps, snaps[1:]):
        for part in reused:
            if getattr(after, part) == getattr(before, part):
                assert getattr(after, part) is getattr(before, part), f"{part} rebuilt at {after.seq}"
                reused[part] += 1
    assert all(n > 50 for n in reused.values()), reused


def test_back_and_goto_give_the_recorded_snapshots_in_every_bundled_scenario() -> None:
    for name in ("three-nodes", "ha-failover", "assume-expiry"):
        sim = Simulation.from_scenario(name, seed=1)
        sim.run_until(lambda e: e.seq >= 400)
        recorded = {i: e.snapshot.dumps() for i, e in enumerate(sim.trace) if e.snapshot is not None}
        last = max(recorded)
        for i in sorted(recorded)[1::37]:
            sim.goto(i)
            assert sim.snapshot.dumps() == recorded[i]
            sim.back()
            earlier = [k for k in recorded if k <= sim.cursor]
            if earlier:
                assert sim.snapshot.dumps() == recorded[max(earlier)]
        sim.goto(last)
        assert sim.snapshot.dumps() == recorded[last]
