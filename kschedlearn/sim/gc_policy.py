"""When CPython's cyclic garbage collector runs while a world is loaded and while it runs.

Go: none — kschedlearn-only. Go's collector is concurrent; CPython's is generational and stops
the program: a collection of the oldest generation walks *every* tracked object, and one is
started whenever the objects promoted since the last one reach a quarter of that generation.
A cluster replay keeps millions of long-lived objects (the API server's objects, the informers'
stores, the scheduler cache, the trace) and keeps adding more, so with CPython's defaults the
collector walked the whole heap again and again: at 1,000 nodes / 30,000 bound pods it took about
a fifth of both the load and the run (``benchmarks/README.md``, 2026-12-02 "replay" section),
for garbage that reference counting frees anyway (API objects are acyclic values).

Three policies, each restoring what it found (a notebook's own settings are left as they were):

- :func:`no_collections` while a dump is decoded and its world filled: the collector is off —
  everything made then is kept, so a collection could only walk it — and what was made goes
  to the oldest generation at the end (:func:`promote_to_oldest`); cyclic garbage made
  meanwhile is collected at the next full collection.
- :func:`young_threshold` while a runtime runs (``Runtime.run``): the youngest generation's
  threshold is raised from CPython's 700 to :data:`YOUNG`, so collections of every generation
  start about 70 times less often; each young one frees the same garbage a little later.
- :func:`freeze_for_run` while a runtime runs, too: what existed when the run started is
  frozen (no collection walks it) and thawed when it returns, and what survives each
  collection during the run is frozen as well, so a run's collections walk each object it made
  at most once.

A fourth, for a caller that keeps a big heap of its own (a test worker late in the suite holds
what earlier test files left): :func:`frozen_before` freezes what exists when the block starts,
so that no collection inside it — an explicit ``gc.collect()`` included — walks that heap.

None changes what a simulation does: collections only free unreachable objects, and the
simulation never depends on when (``tests/sim/test_gc_policy.py``).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

#: the youngest generation's threshold while a runtime runs (CPython's default is 700)
YOUNG = 50_000

#: one entry while :func:`frozen_before` holds the heap frozen: :func:`freeze_for_run` and
#: :func:`promote_to_oldest` then know without asking ``gc.get_freeze_count()``, which walks
#: every frozen object (CPython 3.11 counts the permanent generation's list)
_HELD: list[bool] = []


def _frozen_already() -> bool:
    """Whether objects are frozen already: by :func:`frozen_before` (known without asking), or by
    something else (``gc.freeze`` is the caller's then; asking walks what they froze)."""
    return bool(_HELD) or gc.get_freeze_count() != 0


@contextmanager
def no_collections() -> Iterator[None]:
    """No cyclic collection inside the block (the collector is re-enabled after it if it was on)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            promote_to_oldest()
            gc.enable()


def promote_to_oldest() -> None:
    """Move every object the collector tracks into its oldest generation at once, unscanned.

    What a block under :func:`no_collections` made (a world: millions of objects, all kept) sits
    in the youngest generation, where the next young collection would walk it all, the next
    middle one again, and the next full one a third time, each finding nothing to free. Freezing
    and unfreezing is CPython's O(1) way to hand it to the oldest generation directly (the
    generations are linked lists, spliced whole), so only full collections walk it. Nothing
    stays frozen, and cyclic garbage among those objects is still found, by a full collection.
    Left undone when something else has frozen objects (``gc.freeze`` is the caller's then)."""
    if not _frozen_already():
        gc.freeze()
        gc.unfreeze()


def raise_young_threshold() -> tuple[int, int, int] | None:
    """Raise the youngest generation's threshold to :data:`YOUNG`; the thresholds to restore with
    :func:`restore_threshold` (None when they were already at least that: nothing to restore)."""
    found = gc.get_threshold()
    if found[0] == 0 or found[0] >= YOUNG:  # 0: the caller turned automatic collection off
        return None
    gc.set_threshold(YOUNG, found[1], found[2])
    return found


def restore_threshold(found: tuple[int, int, int] | None) -> None:
    """Undo :func:`raise_young_threshold` — unless something changed the thresholds since."""
    if found is not None and gc.get_threshold() == (YOUNG, found[1], found[2]):
        gc.set_threshold(*found)


def freeze_for_run() -> bool:
    """Move every tracked object to the permanent generation while a runtime runs, and each
    collection's survivors after it; True when it did (then :func:`thaw` undoes it when the run
    returns).

    A world runs in many short ``Runtime.run`` calls (one per step or chunk), and what each
    leaves behind is as long-lived as what the load made: without this, the young and middle
    collections of the next run walked the previous run's survivors again (a replay's run phase
    at 5,000 nodes / 150,000 pods: 40 collections, ~3.3 CPU-s under load 8; with it 35, ~1.9 CPU-s
    under load 5 — ``benchmarks/README.md``, replay6). Within one run, too, nearly everything a
    young collection finds is kept (the trace, new object versions, store entries: at that
    shape 125 young collections freed 7,884 objects and 10 middle ones 1,966, and the middle ones
    cost 0.66 CPU-s, ~2 % of the run, walking the young ones' survivors a second time), so the
    survivors are frozen right after each collection (:func:`_freeze_survivors`) and no middle
    collection walks them again. Frozen objects are still freed by reference counting; a
    cycle that becomes garbage after it was frozen is found by the first full collection after
    a later :func:`thaw` instead (finished goroutines: a few per pod until then). Left undone
    with the collector off or when something else has frozen objects (``gc.freeze`` is the
    caller's then; asking costs a walk of what they froze). Freezing and thawing are O(1):
    CPython splices the generations' lists."""
    if not gc.isenabled() or _frozen_already():
        return False
    gc.freeze()
    gc.callbacks.append(_freeze_survivors)
    return True


def _freeze_survivors(phase: str, info: dict[str, int]) -> None:
    """``gc.callbacks`` entry while a run holds the heap frozen: after a collection (a young
    one, or every tenth a middle one over the young generation), what it kept joins the frozen
    heap."""
    if phase == "stop":
        gc.freeze()


def thaw(frozen: bool) -> None:
    """Undo :func:`freeze_for_run` (``frozen``: what it answered): every frozen object goes to
    the oldest generation, where full collections walk it again."""
    if frozen:
        if _freeze_survivors in gc.callbacks:
            gc.callbacks.remove(_freeze_survivors)
        gc.unfreeze()


@contextmanager
def frozen_before() -> Iterator[None]:
    """Every object tracked when the block starts stays frozen inside it (no collection walks
    them), and goes back to the oldest generation at its end.

    Inside, :func:`freeze_for_run` leaves each run unfrozen (a run's thaw would thaw the block's
    heap too), so a run's collections walk what the block made, not what it found. Left undone
    (a plain block) with the collector off, inside another such block, or when something else
    has frozen objects (``gc.freeze`` is the caller's then)."""
    if not gc.isenabled() or _frozen_already():
        yield
        return
    gc.freeze()
    _HELD.append(True)
    try:
        yield
    finally:
        _HELD.pop()
        gc.unfreeze()


@contextmanager
def young_threshold() -> Iterator[None]:
    """The youngest generation's threshold at :data:`YOUNG` inside the block."""
    found = raise_young_threshold()
    try:
        yield
    finally:
        restore_threshold(found)


__all__ = ["YOUNG", "freeze_for_run", "frozen_before", "no_collections", "promote_to_oldest", "raise_young_threshold",
           "restore_threshold", "thaw", "young_threshold"]
