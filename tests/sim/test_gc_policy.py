"""When the cyclic collector runs while a world loads and runs (``kschedlearn.sim.gc_policy``).

kschedlearn-only. The policies only move collections in time: each restores the collector's
settings it found (a notebook's own are left alone), and a simulation does the same with or
without them.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from kschedlearn import Simulation, sim
from kschedlearn.sim.gc_policy import YOUNG, no_collections, young_threshold


@pytest.fixture(autouse=True)
def _collector_as_found() -> Iterator[None]:
    enabled, threshold = gc.isenabled(), gc.get_threshold()
    yield
    gc.set_threshold(*threshold)
    (gc.enable if enabled else gc.disable)()


def test_no_collections_turns_the_collector_off_and_back_on() -> None:
    gc.enable()
    with no_collections():
        assert not gc.isenabled()
        with no_collections():  # nested: the inner block leaves it off
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_no_collections_leaves_a_disabled_collector_disabled_even_after_an_error() -> None:
    gc.disable()
    with pytest.raises(ValueError), no_collections():
        raise ValueError("boom")
    assert not gc.isenabled()
    gc.enable()
    with pytest.raises(ValueError), no_collections():
        raise ValueError("boom")
    assert gc.isenabled()


def test_young_threshold_raises_the_first_threshold_only_and_restores_it() -> None:
    gc.set_threshold(700, 11, 12)
    with young_threshold():
        assert gc.get_threshold() == (YOUNG, 11, 12)
    assert gc.get_threshold() == (700, 11, 12)


@pytest.mark.parametrize("first", [0, YOUNG, YOUNG * 2])
def test_young_threshold_leaves_off_or_higher_thresholds_alone(first: int) -> None:
    gc.set_threshold(first, 10, 10)
    with young_threshold():
        assert gc.get_threshold() == (first, 10, 10)
    assert gc.get_threshold() == (first, 10, 10)


def test_a_threshold_changed_inside_the_block_is_kept() -> None:
    gc.set_threshold(700, 10, 10)
    with young_threshold():
        gc.set_threshold(1234, 5, 5)
    assert gc.get_threshold() == (1234, 5, 5)


def test_runtime_run_raises_the_threshold_while_goroutines_run_and_restores_it() -> None:
    gc.set_threshold(700, 10, 10)
    seen: list[tuple[int, int, int]] = []
    rt = sim.Runtime()

    def worker() -> None:
        seen.append(gc.get_threshold())
        sim.sleep(1)
        seen.append(gc.get_threshold())
        raise RuntimeError("the process dies; the driver's settings come back all the same")

    rt.go(worker, name="w")
    rt.run(until=0.5)
    assert gc.get_threshold() == (700, 10, 10)
    rt.run()
    assert seen == [(YOUNG, 10, 10), (YOUNG, 10, 10)]
    assert gc.get_threshold() == (700, 10, 10)
    assert rt.crashes


def test_a_paused_simulation_has_the_threshold_it_found() -> None:
    gc.set_threshold(700, 10, 10)
    s = Simulation.from_scenario("three-nodes", seed=3)
    assert s.step() is not None  # the runtime stopped at a trace point, inside a goroutine
    assert s.world.runtime.paused is not None
    assert gc.get_threshold() == (700, 10, 10)


def _trace() -> list[tuple[object, ...]]:
    s = Simulation.from_scenario("three-nodes", seed=3)
    s.run()
    return [(e.seq, e.time, e.goroutine, e.stage, e.message) for e in s.trace]


def test_a_simulation_is_the_same_whatever_the_collector_does(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same trace with the policy, without it (CPython's defaults throughout), and with
    frequent collections (every 50 allocations, and a full one at every ``Runtime.run``):
    collections only free unreachable objects."""
    import kschedlearn.sim.runtime as runtime_module

    gc.set_threshold(700, 10, 10)
    with_policy = _trace()
    with monkeypatch.context() as m:
        m.setattr(runtime_module, "raise_young_threshold", lambda: None)
        without = _trace()
        gc.set_threshold(50, 2, 2)

        def collect() -> None:
            gc.collect()

        m.setattr(runtime_module, "raise_young_threshold", collect)
        collected = _trace()
    assert with_policy == without == collected
    assert len(with_policy) > 100


def test_what_a_no_collections_block_made_goes_to_the_oldest_generation_unscanned() -> None:
    """Kept objects made with the collector off are handed to the oldest generation at the end
    (no young or middle collection walks them), nothing stays frozen, and cyclic garbage made
    in the block is still collected by a full collection."""
    gc.enable()
    gc.collect()
    with no_collections():
        kept = [[i] for i in range(1000)]
        cycle: list = []
        cycle.append(cycle)
        del cycle
    assert gc.get_freeze_count() == 0
    assert gc.get_count()[0] < 100  # the youngest generation is (nearly) empty
    oldest = {id(o) for o in gc.get_objects(generation=2)}
    assert all(id(x) in oldest for x in kept)
    assert gc.collect() >= 1  # the cycle


def test_no_promotion_while_something_else_has_frozen_objects() -> None:
    gc.enable()
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        with no_collections():
            made = [[1], [2]]
        # still theirs (an unfreeze would have emptied it; frozen objects freed meanwhile leave it)
        assert frozen - 1000 <= gc.get_freeze_count() <= frozen
        assert made
    finally:
        gc.unfreeze()
