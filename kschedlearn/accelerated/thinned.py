"""The score table and the ranking of a *thinned* trace: the best rows, not the whole cluster.

kschedlearn-only (the accelerated engine; ``Simulation(record="stage" | "pod")``). A trace
recorded at every event keeps, for each pod, every node's scores (``schedule.priorities``) and
the whole ranking (``selectHost``): at 5,000 nodes and 10,000 pods that is hundreds of millions
of values. A thinned trace keeps the :data:`ROWS` best nodes of each (ranked as selectHost ranks
them: score, then name, descending) and says how many there were (``data["thinned"]``); the
host is chosen by the engine's own selectHost (``fastpath.select_host``, the mirror's choice)
without building the sorted list of every node.
"""

from __future__ import annotations

from itertools import compress, islice, repeat
from operator import eq
from typing import Any

import attrs

from kschedlearn.observe import generic_scheduler as traced
from kschedlearn.trace import emit

#: how many of the best nodes a thinned event keeps
ROWS = 20

def best_rows(totals: list[int], names: list[str], order: list[int] | None = None) -> list[int]:
    """Indices of the :data:`ROWS` best nodes, best first (score, then name, descending).

    ``order``: the indices sorted by name, descending (:func:`name_order`; a stable sort, so
    equal names keep their index order, as a stable sort of each score's ties does)."""
    if order is None:
        order = name_order(names)
    rows: list[int] = []
    if not totals:
        return rows
    # each score's best are its first ties in name order: a scan at C speed of the totals in that
    # order which stops at ROWS (instead of sorting every tie of the score by name); the scores
    # from the best down, the next one looked for only when a score has fewer than ROWS nodes
    score = max(totals)
    while True:
        ranked = map(totals.__getitem__, order)
        rows.extend(islice(compress(order, map(eq, ranked, repeat(score))), ROWS - len(rows)))
        if len(rows) >= ROWS:
            return rows
        lower = max(filter(score.__gt__, totals), default=None)
        if lower is None:
            return rows
        score = lower


def name_order(names: list[str]) -> list[int]:
    """The positions of ``names`` by name, descending (equal names in position order)."""
    return sorted(range(len(names)), key=names.__getitem__, reverse=True)


@attrs.define(eq=False)
class NodeNames:
    """The name list of the last node list seen: the same list object while the nodes are the
    same in the same order (an event's data is read, never edited)."""

    nodes: list[Any] = attrs.field(factory=list)
    names: list[str] = attrs.field(factory=list)

    def of(self, nodes: list[Any]) -> list[str]:
        # (list equality tries identity first, element by element at C speed — nearly always the
        # very same node objects; an equal node object has the same name, so the names hold)
        if nodes != self.nodes:
            self.nodes, self.names = list(nodes), [n.metadata.name for n in nodes]
        return self.names


@attrs.define(eq=False)
class NameOrder:
    """:func:`name_order` of the last name list ranked: the same while it is the same list object
    (the engine's name lists are replaced, never changed, when the nodes change)."""

    names: list[str] | None = None
    order: list[int] = attrs.field(factory=list)
    #: name -> position in ``index_names`` (None: a name appears twice there)
    index_names: list[str] | None = None
    index: dict[str, int] | None = None

    def of(self, names: list[str]) -> list[int]:
        if names is not self.names or len(self.order) != len(names):
            self.names, self.order = names, name_order(names)
        return self.order

    def positions(self, names: list[str]) -> dict[str, int] | None:
        """Each name's position in ``names``, or None when a name is there twice (remembered per
        list object, as :meth:`of`)."""
        if names is not self.index_names or (self.index is not None and len(self.index) != len(names)):
            index = {name: i for i, name in enumerate(names)}
            self.index_names, self.index = names, (index if len(index) == len(names) else None)
        return self.index


def rows_of_ties(ties: list[str], positions: dict[str, int] | None) -> list[int] | None:
    """:func:`best_rows` when the best score has at least :data:`ROWS` nodes: the positions of
    the first ``ROWS`` of its ``ties`` (``fastpath.best_ties``: names descending), or None when
    it has fewer or a name is not unique (``positions`` None)."""
    if positions is None or len(ties) < ROWS:
        return None
    return [positions[name] for name in ties[:ROWS]]


@attrs.define(eq=False)
class Memo:
    """What a thinned trace's events reuse from one pod to the next."""

    start: NodeNames = attrs.field(factory=NodeNames)
    filtered: NodeNames = attrs.field(factory=NodeNames)
    ranking: NameOrder = attrs.field(factory=NameOrder)


def emit_start(memo: Memo, pod: Any, nodes: list[Any], observed: Any) -> None:
    """``schedule.start`` (``traced.emit_schedule_start``'s event, its node list reused)."""
    emit("schedule.start", "Computing predicates", data={"pod": traced.pod_key(pod), "nodes": memo.start.of(nodes)},
         observed=observed)


def emit_predicates(memo: Memo, pod: Any, filtered: list[Any], failed_predicate_map: dict[str, list[Any]],
                    observed: Any) -> None:
    """``schedule.predicates`` (``traced.emit_predicates_done``'s event, its node list reused)."""
    failed = {name: [r.get_reason() for r in reasons] for name, reasons in failed_predicate_map.items()}
    emit("schedule.predicates", "Prioritizing",
         data={"pod": traced.pod_key(pod), "filtered": memo.filtered.of(filtered), "failed": failed},
         observed=observed)


def report(scheduler: Any, pod: Any, nodes: list[Any], columns: list[list[int]], totals: list[int],
           names: list[str], observed: Any, ties: list[str] | None = None) -> list[int]:
    """The thinned ``schedule.priorities`` event; returns the rows it kept (``ties``: the best
    score's names, descending, when known: then its rows are those names' positions without a
    scan of the name order)."""
    memo = getattr(scheduler, "thin_memo", None)
    rows = rows_of_ties(ties, memo.ranking.positions(names)) if ties is not None and memo is not None else None
    if rows is None:
        rows = best_rows(totals, names, memo.ranking.of(names) if memo is not None else None)
    configs = scheduler.prioritizers
    emit("schedule.priorities", f"scored {len(nodes)} node(s)", data={
        "pod": traced.pod_key(pod),
        "nodes": [names[i] for i in rows],
        "scores": [[column[i] for i in rows] for column in columns],
        "weights": [c.weight for c in configs],
        "names": [getattr(c, "name", "") for c in configs],
        "extenders": {},
        "totals": {names[i]: totals[i] for i in rows},
        "thinned": {"rows": len(rows), "of": len(nodes)},
    }, observed=observed)
    return rows


def announce(scheduler: Any, pod: Any, rows: list[int], totals: list[int], names: list[str], host: str,
             observed: Any, ties: int | None = None) -> None:
    """The thinned ``selectHost`` event (after the choice, as the traced mirror's; ``ties``: how
    many nodes have the best score, when known)."""
    if ties is None:
        ties = totals.count(totals[rows[0]])
    emit("selectHost", f"selected {host}", data={
        "pod": traced.pod_key(pod),
        "ranked": [(names[i], totals[i]) for i in rows],
        "ties": ties,
        "last_node_index": scheduler.last_node_index - 1,
        "host": host,
        "thinned": {"rows": len(rows), "of": len(names)},
    }, observed=observed)
