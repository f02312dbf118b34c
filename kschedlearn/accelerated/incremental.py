"""Per-node results kept between pods and brought up to date node by node (the accelerated engine).

kschedlearn-only (see ``docs/accelerated-engine.md``). A :class:`NodeView` holds one value per
position of a node list (the lister's nodes for predicates, the filtered nodes for priorities)
for one equivalence class of pods. While the list holds the very same node objects, only the
positions whose snapshot entry was written since the view last looked (the
:class:`~kschedlearn.accelerated.changelog.ChangeLogMap` log) are recomputed — after one
placement, one node. Anything else (another list, a compacted log) recomputes every position.
The per-node values themselves are what the mirror's functions return for that node's
``NodeInfo`` (the engine's second-level caches, keyed by the NodeInfo object and generation,
make a full recomputation cheap too).
"""

from __future__ import annotations

from collections.abc import Callable
from operator import is_
from typing import Any

import attrs


def same_objects(a: list[Any], b: list[Any]) -> bool:
    """The two lists hold the very same objects in the same order."""
    return len(a) == len(b) and all(map(is_, a, b))


@attrs.define(eq=False)
class NodeView:
    """Values per node position, refreshed from the snapshot's change log.

    ``compute(i, info)`` stores position ``i``'s value (subclasses keep the values); it may
    raise, which leaves the view empty (the next refresh recomputes everything).
    """

    nodes: list[Any] = attrs.field(factory=list)
    names: list[str] = attrs.field(factory=list)
    index: dict[str, int] = attrs.field(factory=dict)
    position: tuple[int, int] | None = None
    unique: bool = False

    def reset(self, n: int) -> None:
        """Forget every value (``n`` positions follow)."""

    def keep(self, old: list[int]) -> None:
        """Position ``i`` now holds what position ``old[i]`` held (distinct positions; the others
        are dropped). Views that cannot do this leave it undone: then every position is recomputed."""
        raise NotImplementedError

    def _moved(self, nodes: list[Any]) -> list[int] | None:
        """The old position of each node of ``nodes`` when every one of them is a node object of
        the old list (the same object: its value, when its entry did not change, is the same)."""
        index = self.index
        old = [index.get(n.metadata.name, -1) for n in nodes]
        if -1 in old or len(set(old)) != len(old) or not all(map(is_, nodes, map(self.nodes.__getitem__, old))):
            return None
        return old

    def refresh(self, info_map: Any, nodes: list[Any], compute: Callable[[int, Any], None]) -> list[int] | None:
        """Bring every position up to date; returns the recomputed positions (None: all)."""
        changed: list[int] | None = None
        if self.unique and self.position is not None:
            names = info_map.changed_since(*self.position)
            if names is not None and not same_objects(nodes, self.nodes):
                # another list (a node stopped fitting, say): the values of the nodes both lists
                # hold go to their new positions, only changed entries are recomputed
                old = self._moved(nodes)
                if old is None or type(self).keep is NodeView.keep:
                    names = None
                else:
                    self.position = None
                    self.keep(old)
                    self.nodes = list(nodes)
                    names_list = self.names = [n.metadata.name for n in nodes]
                    self.index = {n: i for i, n in enumerate(names_list)}
            if names is not None:
                index = self.index
                changed = [index[n] for n in names if n in index]
        self.position = None
        if changed is None:
            self.nodes = list(nodes)
            names_list = self.names = [n.metadata.name for n in nodes]
            self.index = {n: i for i, n in enumerate(names_list)}
            self.unique = len(self.index) == len(names_list)
            self.reset(len(names_list))
            get = info_map.get
            for i, name in enumerate(names_list):
                compute(i, get(name))
        else:
            get = info_map.get
            for i in changed:
                compute(i, get(self.nodes[i].metadata.name))
        self.position = info_map.position()
        return changed


@attrs.define(eq=False)
class PredicateView(NodeView):
    """Per node: (fits, failed reasons, per-predicate verdicts) of the cached predicates."""

    outcomes: list[Any] = attrs.field(factory=list)
    flags: list[bool] = attrs.field(factory=list)
    failing: dict[int, tuple[Any, ...]] = attrs.field(factory=dict)
    #: the outcomes last handed out as a tuple (:meth:`kept_outcomes`), and the outcomes as they
    #: were at the last call (equal to it; compared with the next by identity first)
    _kept: tuple[Any, ...] | None = None
    _seen: tuple[Any, ...] | None = None

    def kept_outcomes(self) -> tuple[Any, ...]:
        """The outcomes as a tuple, for a trace that keeps them: the tuple handed out last while
        they are equal to it (after one placement usually all are: a trace recording every pod
        then keeps one tuple, not one per pod)."""
        now = tuple(self.outcomes)
        # (against the last call's objects: element by element, identity first — one changed node
        # compared by value, not every node whose outcome was recomputed since the kept tuple)
        if now != self._seen:
            self._kept = now
        self._seen = now
        return self._kept  # type: ignore[return-value]

    def reset(self, n: int) -> None:
        self.outcomes = [None] * n
        self.flags = [True] * n
        self.failing = {}

    def keep(self, old: list[int]) -> None:
        self.outcomes = [self.outcomes[j] for j in old]
        self.flags = [self.flags[j] for j in old]
        failing = self.failing
        self.failing = {i: failing[j] for i, j in enumerate(old) if j in failing}

    def set(self, i: int, outcome: tuple[bool, tuple[Any, ...], dict[str, list[str]]]) -> None:
        """Position ``i``'s podFitsOnNode outcome."""
        self.outcomes[i] = outcome
        self.flags[i] = outcome[0]
        if outcome[0]:
            self.failing.pop(i, None)
        else:
            self.failing[i] = outcome[1]


@attrs.define(eq=False)
class ColumnsView(NodeView):
    """Per node: the scores of the cached priority map functions, one column per function.

    ``tallies[j]`` counts the positions per score of column ``j`` (only scores present), so a
    column's distinct scores, minimum and maximum are known without a pass over the nodes.
    """

    width: int = 0
    columns: list[list[int]] = attrs.field(factory=list)
    tallies: list[dict[int, int]] = attrs.field(factory=list)
    _filled: list[bool] = attrs.field(factory=list)

    def reset(self, n: int) -> None:
        self.columns = [[0] * n for _ in range(self.width)]
        self.tallies = [{} for _ in range(self.width)]
        self._filled = [False] * n

    def keep(self, old: list[int]) -> None:
        kept = set(old)
        for j, filled in enumerate(self._filled):
            if filled and j not in kept:  # a dropped position leaves the tallies
                for column, tally in zip(self.columns, self.tallies):
                    left = tally[column[j]] - 1
                    if left:
                        tally[column[j]] = left
                    else:
                        del tally[column[j]]
        self.columns = [[column[j] for j in old] for column in self.columns]
        self._filled = [self._filled[j] for j in old]

    def set(self, i: int, scores: tuple[int, ...]) -> None:
        """Position ``i``'s map scores."""
        filled = self._filled[i]
        self._filled[i] = True
        for column, tally, score in zip(self.columns, self.tallies, scores):
            if filled:
                old = column[i]
                left = tally[old] - 1
                if left:
                    tally[old] = left
                else:
                    del tally[old]
            column[i] = score
            tally[score] = tally.get(score, 0) + 1


@attrs.define(eq=False)
class SpreadView(NodeView):
    """Per node: SelectorSpread's match count and zone key, with the per-zone aggregates.

    ``zone_totals`` are the per-zone sums of the counts (exact: integer-valued floats, checked
    below 2^24 by the caller, where float32 summation is exact in any order);
    ``key_counts`` counts the positions per (count, zone key).
    """

    counts: list[float] = attrs.field(factory=list)
    zones: list[str] = attrs.field(factory=list)
    keys: list[tuple[float, str]] = attrs.field(factory=list)
    zone_totals: dict[str, float] = attrs.field(factory=dict)
    zone_members: dict[str, int] = attrs.field(factory=dict)
    key_counts: dict[tuple[float, str], int] = attrs.field(factory=dict)
    #: one tuple object per distinct (count, zone key): every position holding that pair holds
    #: that object, so the per-pod pass from keys to scores reads a few objects kept close
    #: together (and finds each by identity) rather than a tuple and a float of its own per node
    shared_keys: dict[tuple[float, str], tuple[float, str]] = attrs.field(factory=dict)

    def reset(self, n: int) -> None:
        self.counts = [0.0] * n
        self.zones = [""] * n
        self.keys = [(0.0, "")] * n
        self.zone_totals, self.zone_members, self.key_counts = {}, {}, {}
        self._filled = [False] * n

    def keep(self, old: list[int]) -> None:
        kept = set(old)
        for j, filled in enumerate(self._filled):
            if filled and j not in kept:  # a dropped position leaves the aggregates
                self._drop(j)
        self.counts = [self.counts[j] for j in old]
        self.zones = [self.zones[j] for j in old]
        self.keys = [self.keys[j] for j in old]
        self._filled = [self._filled[j] for j in old]

    def set(self, i: int, count: float, zone: str) -> None:
        """Position ``i``'s count and zone key."""
        if self._filled[i]:
            self._drop(i)
        self._filled[i] = True
        self.counts[i], self.zones[i] = count, zone
        key = (count, zone)
        key = self.shared_keys.setdefault(key, key)
        self.keys[i] = key
        self.key_counts[key] = self.key_counts.get(key, 0) + 1
        if zone != "":
            self.zone_totals[zone] = self.zone_totals.get(zone, 0.0) + count
            self.zone_members[zone] = self.zone_members.get(zone, 0) + 1

    def _drop(self, i: int) -> None:
        key, zone, count = self.keys[i], self.zones[i], self.counts[i]
        left = self.key_counts[key] - 1
        if left:
            self.key_counts[key] = left
        else:
            del self.key_counts[key]
        if zone != "":
            members = self.zone_members[zone] - 1
            if members:
                self.zone_members[zone] = members
                self.zone_totals[zone] -= count
            else:
                del self.zone_members[zone]
                del self.zone_totals[zone]

    _filled: list[bool] = attrs.field(factory=list)
