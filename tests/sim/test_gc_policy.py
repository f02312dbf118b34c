"""When the cyclic collector runs while a world loads and runs (``kschedlearn.sim.gc_policy``).

kschedlearn-only. The policies only move collections in time: each restores the collector's
settings it found (a notebook's own are left alone), and a simulation does the same with or
without them.
"""

from __future__ import annotations

import gc
import json
import subprocess
import sys
import weakref

import pytest

from kschedlearn import Simulation, sim
from kschedlearn.sim.gc_policy import YOUNG, freeze_for_run, no_collections, thaw, young_threshold


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


def test_runtime_run_freezes_what_existed_and_thaws_it_when_it_returns() -> None:
    """Inside a run every object that existed when it started is frozen; nothing stays frozen
    after it (returned, paused or crashed)."""
    gc.enable()
    assert gc.get_freeze_count() == 0
    made_before = [[1], [2]]
    frozen_inside: list[bool] = []
    rt = sim.Runtime()

    def worker() -> None:
        frozen_inside.append(gc.get_freeze_count() > 0)
        sim.sleep(1)
        frozen_inside.append(gc.get_freeze_count() > 0)
        raise RuntimeError("the process dies; nothing stays frozen all the same")

    rt.go(worker, name="w")
    rt.run(until=0.5)
    assert gc.get_freeze_count() == 0
    rt.run()
    assert frozen_inside == [True, True] and rt.crashes and made_before
    assert gc.get_freeze_count() == 0
    s = Simulation.from_scenario("three-nodes", seed=3)
    assert s.step() is not None and s.world.runtime.paused is not None
    assert gc.get_freeze_count() == 0


def test_a_young_collection_s_survivors_are_frozen_during_a_run_and_its_garbage_freed() -> None:
    """A young collection inside a run frees the young cycles that became garbage and freezes
    what it kept (no middle collection walks it again); after the run nothing stays frozen and
    the hook is gone (``gc_policy._freeze_survivors``)."""
    class Node:
        pass

    gc.enable()
    gc.set_threshold(700, 10, 10)
    seen: dict[str, object] = {}
    rt = sim.Runtime()

    def worker() -> None:
        frozen_at_start = gc.get_freeze_count()
        kept = [Node() for _ in range(50)]
        dropped = Node()
        dropped.me = dropped  # a cycle: only the collector frees it
        gone = weakref.ref(dropped)
        del dropped
        gc.collect(0)
        seen.update(freed=gone() is None, grew=gc.get_freeze_count() - frozen_at_start,
                    young=gc.get_count()[0], kept=len(kept))

    rt.go(worker, name="w")
    rt.run()
    assert seen["freed"] and seen["kept"] == 50
    assert seen["grew"] >= 50  # the kept nodes (and the list) joined the frozen heap
    assert seen["young"] < 50  # and left the young generation
    assert gc.get_freeze_count() == 0
    assert not any(getattr(cb, "__name__", "") == "_freeze_survivors" for cb in gc.callbacks)


def test_no_freeze_when_something_else_froze_or_the_collector_is_off() -> None:
    gc.enable()
    gc.freeze()
    try:
        assert not freeze_for_run()
        rt = sim.Runtime()
        rt.go(lambda: None, name="w")
        rt.run()
        assert gc.get_freeze_count() > 0  # theirs: still frozen
    finally:
        gc.unfreeze()
    gc.disable()
    assert not freeze_for_run() and gc.get_freeze_count() == 0
    gc.enable()
    assert freeze_for_run()
    thaw(True)
    assert gc.get_freeze_count() == 0


#: In a fresh interpreter (a full collection walks a test worker's whole heap): a cycle that
#: became garbage before a run is not collected during it, and is by a full collection after.
_FROZEN_CYCLE = """
import gc, json, weakref
from kschedlearn import sim

class Node:
    pass

gc.enable()
cycle = Node()
cycle.me = cycle
ref = weakref.ref(cycle)
del cycle
seen = []
rt = sim.Runtime()
rt.go(lambda: seen.append((gc.collect(), ref() is not None)), name="w")
rt.run()
print(json.dumps({"inside_alive": seen[0][1], "after_freed": gc.collect() >= 1 and ref() is None}))
"""


def test_a_cycle_from_before_a_run_is_collected_after_it() -> None:
    done = subprocess.run([sys.executable, "-c", _FROZEN_CYCLE], capture_output=True, text=True, timeout=60,
                          check=False)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.splitlines()[-1])
    assert result == {"inside_alive": True, "after_freed": True}


def test_a_paused_simulation_has_the_threshold_it_found() -> None:
    gc.set_threshold(700, 10, 10)
    s = Simulation.from_scenario("three-nodes", seed=3)
    assert s.step() is not None  # the runtime stopped at a trace point, inside a goroutine
    assert s.world.runtime.paused is not None
    assert gc.get_threshold() == (700, 10, 10)


#: Run in a fresh interpreter: a full collection walks every object the process tracks, and a
#: test worker's heap holds every module-scoped world of the files it ran before (one full
#: collection per ``Runtime.run`` took 9.5 s there, 2026-12-02, against ~1 s here). Prints the
#: three traces' lengths and whether they are equal.
_THREE_COLLECTORS = """
import gc, json
import kschedlearn.sim.runtime as runtime_module
from kschedlearn import Simulation

def trace():
    s = Simulation.from_scenario("three-nodes", seed=3)
    s.run()
    return [(e.seq, e.time, e.goroutine, e.stage, e.message) for e in s.trace]

gc.set_threshold(700, 10, 10)
with_policy = trace()
runtime_module.raise_young_threshold = lambda: None
runtime_module.freeze_for_run = lambda: False
without = trace()
gc.set_threshold(50, 2, 2)
collections = []

def collect():
    collections.append(gc.collect())

runtime_module.raise_young_threshold = collect
collected = trace()
print(json.dumps({"lengths": [len(with_policy), len(without), len(collected)],
                  "equal": with_policy == without == collected, "full_collections": len(collections)}))
"""


def test_a_simulation_is_the_same_whatever_the_collector_does() -> None:
    """The same trace with the policy, without it (CPython's defaults throughout), and with
    frequent collections (every 50 allocations, and a full one at every ``Runtime.run``):
    collections only free unreachable objects."""
    done = subprocess.run([sys.executable, "-c", _THREE_COLLECTORS], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.splitlines()[-1])
    assert result["equal"], result
    assert result["lengths"][0] > 100
    assert result["full_collections"] > 0  # the third run did collect at every Runtime.run


#: Also in a fresh interpreter (see above: the full collections and the list of the oldest
#: generation would walk a test worker's whole heap).
_PROMOTION = """
import gc, json, weakref
from kschedlearn.sim.gc_policy import no_collections

class Node:
    pass

gc.enable()
gc.collect()
with no_collections():
    kept = [[i] for i in range(1000)]
    cycle = Node()
    cycle.me = cycle
    cycle_ref = weakref.ref(cycle)
    del cycle
frozen = gc.get_freeze_count()
young = gc.get_count()[0]
oldest = {id(o) for o in gc.get_objects(generation=2)}
in_oldest = all(id(x) in oldest for x in kept)
alive_before = cycle_ref() is not None
freed = gc.collect()
print(json.dumps({"frozen": frozen, "young": young, "in_oldest": in_oldest, "alive_before": alive_before,
                  "freed": freed, "alive_after": cycle_ref() is not None}))
"""


def test_what_a_no_collections_block_made_goes_to_the_oldest_generation_unscanned() -> None:
    """Kept objects made with the collector off are handed to the oldest generation at the end
    (no young or middle collection walks them), nothing stays frozen, and cyclic garbage made
    in the block is still collected by a full collection."""
    done = subprocess.run([sys.executable, "-c", _PROMOTION], capture_output=True, text=True, timeout=60,
                          check=False)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.splitlines()[-1])
    assert result["frozen"] == 0
    assert result["young"] < 100  # the youngest generation is (nearly) empty
    assert result["in_oldest"]
    assert result["alive_before"]  # the cycle outlived the block: only a full collection finds it
    assert result["freed"] >= 1 and not result["alive_after"]


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
