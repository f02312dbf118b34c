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

from operator import is_
from typing import Any

import attrs

from kschedlearn.scheduler.core import generic_scheduler as mirror
from kschedlearn.observe import generic_scheduler as traced
from kschedlearn.trace import emit

#: how many of the best nodes a thinned event keeps
ROWS = 20

def mirror_select_host(scheduler: Any) -> bool:
    """Whether ``scheduler``'s selectHost is the mirror's (not an exercise's plug-in)."""
    from kschedlearn.observe.wrap import mirror_function

    return mirror_function(type(scheduler), "_select_host", mirror.__name__, "GenericScheduler._select_host")


def best_rows(totals: list[int], names: list[str]) -> list[int]:
    """Indices of the :data:`ROWS` best nodes, best first (score, then name, descending)."""
    rows: list[int] = []
    for score in sorted(set(totals), reverse=True):  # a few distinct scores, often one
        tied = [i for i, total in enumerate(totals) if total == score]
        tied.sort(key=names.__getitem__, reverse=True)
        rows.extend(tied[:ROWS - len(rows)])
        if len(rows) >= ROWS:
            break
    return rows


@attrs.define(eq=False)
class NodeNames:
    """The name list of the last node list seen: the same list object while the nodes are the
    very same objects in the same order (an event's data is read, never edited)."""

    nodes: list[Any] = attrs.field(factory=list)
    names: list[str] = attrs.field(factory=list)

    def of(self, nodes: list[Any]) -> list[str]:
        if len(nodes) != len(self.nodes) or not all(map(is_, nodes, self.nodes)):
            self.nodes, self.names = list(nodes), [n.metadata.name for n in nodes]
        return self.names


@attrs.define(eq=False)
class Memo:
    """What a thinned trace's events reuse from one pod to the next."""

    start: NodeNames = attrs.field(factory=NodeNames)
    filtered: NodeNames = attrs.field(factory=NodeNames)


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
           names: list[str], observed: Any) -> list[int]:
    """The thinned ``schedule.priorities`` event; returns the rows it kept."""
    rows = best_rows(totals, names)
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
             observed: Any) -> None:
    """The thinned ``selectHost`` event (after the choice, as the traced mirror's)."""
    best = totals[rows[0]]
    ties = totals.count(best)
    emit("selectHost", f"selected {host}", data={
        "pod": traced.pod_key(pod),
        "ranked": [(names[i], totals[i]) for i in rows],
        "ties": ties,
        "last_node_index": scheduler.last_node_index - 1,
        "host": host,
        "thinned": {"rows": len(rows), "of": len(names)},
    }, observed=observed)
