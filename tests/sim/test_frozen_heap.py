"""``gc_policy.frozen_before``: a test file's heap from before stays out of its collections.

kschedlearn-only (issue 25; used by ``tests/frozen_heap.py``). The block only moves collections
in time: what existed when it started is frozen inside and goes back to the oldest generation
at its end; the runtime's own freeze steps aside inside it; a simulation gives the same trace.
"""

from __future__ import annotations

import gc
import weakref

import pytest

from kschedlearn import Simulation, sim
from kschedlearn.sim.gc_policy import freeze_for_run, frozen_before, promote_to_oldest, thaw


class _Node:
    me: object = None


def _trace() -> list[tuple]:
    s = Simulation.from_scenario("three-nodes", seed=3)
    s.run()
    return [(e.seq, e.time, e.goroutine, e.stage, e.message) for e in s.trace]


def test_what_existed_is_frozen_inside_and_thawed_after() -> None:
    gc.enable()
    assert gc.get_freeze_count() == 0  # nothing holds this file's heap frozen
    before = [[1], [2]]
    with frozen_before():
        assert gc.get_freeze_count() >= len(before)
        assert gc.is_tracked(before)
        assert not freeze_for_run()  # the runtime steps aside: its thaw would thaw this block
        thaw(False)
        assert gc.get_freeze_count() > 0
        promote_to_oldest()  # steps aside too (an unfreeze would thaw the block)
        assert gc.get_freeze_count() > 0
        with frozen_before():  # nested: a plain block
            assert gc.get_freeze_count() > 0
        assert gc.get_freeze_count() > 0
    assert gc.get_freeze_count() == 0
    assert freeze_for_run()  # outside, the runtime's own freeze works again
    thaw(True)
    assert gc.get_freeze_count() == 0


def test_a_cycle_from_before_is_collected_after_the_block_only() -> None:
    gc.enable()
    cycle = _Node()
    cycle.me = cycle
    ref = weakref.ref(cycle)
    with frozen_before():
        del cycle
        gc.collect()
        assert ref() is not None  # frozen: no collection inside the block walks it
        made_inside = _Node()
        made_inside.me = made_inside
        inner = weakref.ref(made_inside)
        del made_inside
        gc.collect()
        assert inner() is None  # what the block makes is collected as usual
    gc.collect()
    assert ref() is None


def test_a_plain_block_with_the_collector_off_or_someone_elses_freeze() -> None:
    gc.disable()
    with frozen_before():
        assert gc.get_freeze_count() == 0
    gc.enable()
    gc.freeze()
    try:
        with frozen_before():
            assert gc.get_freeze_count() > 0
        assert gc.get_freeze_count() > 0  # theirs: still frozen
    finally:
        gc.unfreeze()


def test_a_simulation_traces_the_same_inside_the_block() -> None:
    gc.enable()
    outside = _trace()
    with frozen_before():
        inside = _trace()
        rt = sim.Runtime()
        rt.go(lambda: None, name="w")
        rt.run()
        assert gc.get_freeze_count() > 0  # a run inside the block leaves it frozen
    assert inside == outside and len(outside) > 100
    assert gc.get_freeze_count() == 0
