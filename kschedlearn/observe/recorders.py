"""What the traced ``podFitsOnNode`` / ``PrioritizeNodes`` keep between calls and per call.

Go: none — kschedlearn-only: the bookkeeping of ``observe/generic_scheduler.py``'s recording
twins (that module keeps the twins and the wrappers, whose frames the trace skips; nothing here
runs while an event is recorded).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from kschedlearn.apimachinery._goint import int64


@attrs.define(eq=False)
class Recorders:
    """Recording twins of one predicate map (or priority list), reused while it is unchanged.

    ``source``: a copy of what they were built from, compared with the map (list) at every
    call — a dict (list) equality, functions compared by identity first, nothing built — so a
    function an exercise swaps into the same map is run at the next call; ``fns``: the twins;
    ``sink``: where they write during the current call (the caches are per goroutine; a
    nested call restores its caller's sink); ``failures``: failing verdicts written so far;
    ``all_pass``: see :func:`all_pass`; ``pod`` / ``pod_key``: the pod last named.
    """

    source: Any
    fns: Any
    sink: Any = None
    failures: int = 0
    all_pass: dict[str, list[str]] | None = None
    all_pass_keys: list[str] | None = None
    pod: Any = None
    pod_key: str = ""


def cached(kind: str, g: Any, current: Any, copy: Callable[[Any], Any],
            build: Callable[[Recorders], Any]) -> Recorders:
    """The recorders of ``current`` for goroutine ``g``, built from its ``copy`` when it changed;
    kept in the tracer's ``memo`` (per goroutine and kind), so they go with their run."""
    cache = g.runtime.tracer.memo
    key = (kind, g)
    recorders = cache.get(key)
    if recorders is None or recorders.source != current:
        if len(cache) > 64:
            cache.clear()
        recorders = cache[key] = Recorders(copy(current), None)
        recorders.fns = build(recorders)
    return recorders


#: the verdict of every predicate that passed: one shared empty list, not one per predicate per
#: node — a traced run keeps every event, and each kept container makes the collector's passes
#: longer (event data is plain data that nobody edits)
NO_REASONS: list[str] = []


def all_pass(recorders: Recorders, verdicts: dict[str, list[str]]) -> dict[str, list[str]]:
    """The verdicts of a call in which no twin wrote a failing verdict (the caller compares
    ``failures``): one dict of equal content shared by every node that fits, instead of one
    kept per node per pod. Its keys are compared in order (the predicates that ran, as they
    ran): a call that ran fewer, more or others keeps its own."""
    if recorders.all_pass is None:
        recorders.all_pass, recorders.all_pass_keys = verdicts, list(verdicts)
        return verdicts
    if list(verdicts) == recorders.all_pass_keys:
        return recorders.all_pass
    return verdicts


@attrs.define(eq=False)
class ScoreColumn:
    """One priority's scores in one PrioritizeNodes call: the list an old-style function
    returned, or the list of map results PrioritizeNodes hands to the reduce step (a reduce
    function edits it in place: read once the call returned)."""

    final: list[Any] | None = None

    def scores(self) -> list[int]:
        return [hp.score for hp in self.final] if self.final is not None else []


def extender_scores(answers: list[tuple[list[Any], int]]) -> dict[str, int]:
    """PrioritizeNodes' ``combinedScores`` of the extenders that answered."""
    combined: dict[str, int] = {}
    for prioritized_list, weight in answers:
        for hp in prioritized_list:
            combined[hp.host] = int64(combined.get(hp.host, 0) + int64(hp.score * weight))
    return combined


def shared_lists(tracer: Any) -> dict[Any, list[Any]]:
    """The lists :func:`shared` keeps for ``tracer``'s run (one entry of its ``memo``)."""
    lists = tracer.memo.get(shared_lists)
    if lists is None or len(lists) > 4096:
        lists = tracer.memo[shared_lists] = {}
    return lists


def shared(lists: dict[Any, list[Any]] | None, slot: Any, value: list[Any], element: type) -> list[Any]:
    """``value``, or the equal list an earlier event holds in the same place (``slot``).

    A traced run keeps every event: the node names of ``schedule.start``, ``schedule.predicates``
    and ``schedule.priorities`` and most score columns are the same from one pod to the next,
    and one list held by all those events keeps the collector's passes short. Only a list of
    exactly ``element`` s is shared (``True == 1``, so equality alone would let a list of bools
    stand for a list of ints); ``lists`` is None when no tracer is attached.
    """
    if lists is None or not set(map(type, value)) <= {element}:
        return value
    last = lists.get(slot)
    if last is not None and last == value:
        return last
    lists[slot] = value
    return value
