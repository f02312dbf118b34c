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

import heapq
from typing import Any

from kschedlearn.scheduler.core import generic_scheduler as mirror
from kschedlearn.scheduler.core import instrument as traced
from kschedlearn.trace import emit, observed_call
from kschedlearn.trace.instrument import untraced_class

#: how many of the best nodes a thinned event keeps
ROWS = 20

#: the selectHost event stands in the mirror's ``selectHost`` frame, as the traced mirror's does
_IN_SELECT_HOST = observed_call(mirror.GenericScheduler._select_host, "returned", in_frame=True)


def mirror_select_host(scheduler: Any) -> bool:
    """Whether ``scheduler``'s selectHost is the mirror's (not an exercise's plug-in)."""
    return getattr(untraced_class(scheduler), "_select_host", None) is mirror.GenericScheduler._select_host


def best_rows(totals: list[int], names: list[str]) -> list[int]:
    """Indices of the :data:`ROWS` best nodes, best first (score, then name, descending)."""
    if len(totals) > ROWS:  # (only the nodes scoring at least the ROWS-th best score are sorted)
        floor = heapq.nlargest(ROWS, totals)[-1]
        rows = [i for i, total in enumerate(totals) if total >= floor]
    else:
        rows = list(range(len(totals)))
    rows.sort(key=lambda i: (totals[i], names[i]), reverse=True)
    return rows[:ROWS]


def report(scheduler: Any, pod: Any, nodes: list[Any], columns: list[list[int]], totals: list[int],
           names: list[str]) -> list[int]:
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
    })
    return rows


def announce(scheduler: Any, pod: Any, rows: list[int], totals: list[int], names: list[str], host: str) -> None:
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
    }, observed=_IN_SELECT_HOST)
