"""One scheduling decision as plain data, built from trace events, and the ``decision`` view.

Go: none — kschedlearn-only (DESIGN §7 ``sim.decision(pod)``, §8). The events come from
``kschedlearn.scheduler.core.generic_scheduler``: ``schedule.predicate_node`` (one per node:
``pod, node, fits, predicates: {name: [reasons]}``), ``schedule.priorities`` (``pod, nodes,
scores[config][node_index], weights, names, extenders, totals``) and ``selectHost`` (``pod,
ranked, ties, host``). One attempt = the predicate events of a ``scheduleOne`` pass, then (if any
node fits) the priorities and the chosen host; with no fitting node Go returns a FitError.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import attrs
import graphviz

from kschedlearn.trace.snapshot import Snapshot
from kschedlearn.viz._common import FOLLOW_BG, IDLE_FG, MAX_NODES, esc, mark, new_digraph, record_table


@attrs.frozen
class NodeVerdict:
    """The predicates' verdict on one node: ``predicates`` maps name -> failure reasons."""

    node: str
    fits: bool
    predicates: tuple[tuple[str, tuple[str, ...]], ...] = ()


@attrs.frozen
class Decision:
    """Pod, per-node predicate verdicts, per-priority scores × weights, totals, chosen host.

    ``scores[i][j]`` is priority ``names[i]``'s score for ``scored_nodes[j]``; ``totals`` the
    weighted sum (plus extenders). ``host`` is "" when no node fits (Go's FitError) or the attempt
    has not reached selectHost yet.
    """

    pod: str
    verdicts: tuple[NodeVerdict, ...] = ()
    names: tuple[str, ...] = ()
    weights: tuple[int, ...] = ()
    scored_nodes: tuple[str, ...] = ()
    scores: tuple[tuple[int, ...], ...] = ()
    extenders: tuple[tuple[str, int], ...] = ()
    totals: tuple[tuple[str, int], ...] = ()
    ranked: tuple[tuple[str, int], ...] = ()
    ties: int = 0
    host: str = ""
    complete: bool = False

    @property
    def predicate_names(self) -> tuple[str, ...]:
        """Every predicate that ran, sorted (the order podFitsOnNode runs them here)."""
        return tuple(sorted({name for v in self.verdicts for name, _ in v.predicates}))

    @property
    def fit_error(self) -> bool:
        """True when every node failed the predicates (Go: FitError)."""
        return bool(self.verdicts) and not any(v.fits for v in self.verdicts)


def _field(event: Any, name: str) -> Any:
    return event[name] if isinstance(event, Mapping) else getattr(event, name)


def decisions_from_events(events: Iterable[Any], pod: str) -> list[Decision]:
    """Every scheduling attempt of ``pod`` (``"namespace/name"``), oldest first.

    ``events``: ``TraceEvent`` objects or their ``to_json()`` dicts.
    """
    attempts: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    for event in events:
        stage = _field(event, "stage")
        if stage not in ("schedule.start", "schedule.predicate_node", "schedule.priorities", "selectHost"):
            continue
        data = _field(event, "data")
        if data.get("pod") != pod:
            continue
        if stage == "schedule.start":  # Schedule() begins: a new attempt
            current = {"phase": "start", "verdicts": [], "priorities": None, "select": None}
            attempts.append(current)
            continue
        if stage == "schedule.predicate_node":
            if current is None or current["phase"] not in ("start", "predicates"):
                current = {"phase": "predicates", "verdicts": [], "priorities": None, "select": None}
                attempts.append(current)
            current["phase"] = "predicates"
            current["verdicts"].append(NodeVerdict(
                node=str(data["node"]), fits=bool(data["fits"]),
                predicates=tuple((k, tuple(v)) for k, v in sorted(data.get("predicates", {}).items())),
            ))
        elif current is not None and stage == "schedule.priorities":
            current["priorities"], current["phase"] = data, "priorities"
        elif current is not None:
            current["select"], current["phase"] = data, "done"
    return [_decision(pod, a) for a in attempts]


def _decision(pod: str, attempt: dict[str, Any]) -> Decision:
    pri, sel = attempt["priorities"] or {}, attempt["select"] or {}
    verdicts = tuple(attempt["verdicts"])
    return Decision(
        pod=pod, verdicts=verdicts,
        names=tuple(str(n) for n in pri.get("names", ())),
        weights=tuple(int(w) for w in pri.get("weights", ())),
        scored_nodes=tuple(pri.get("nodes", ())),
        scores=tuple(tuple(int(s) for s in per) for per in pri.get("scores", ())),
        extenders=tuple(sorted((str(k), int(v)) for k, v in pri.get("extenders", {}).items())),
        totals=tuple((str(k), int(v)) for k, v in pri.get("totals", {}).items()),
        ranked=tuple((str(h), int(s)) for h, s in sel.get("ranked", ())),
        ties=int(sel.get("ties", 0)), host=str(sel.get("host", "")),
        complete=bool(sel) or (bool(verdicts) and not any(v.fits for v in verdicts)),
    )


def decision_from_events(events: Iterable[Any], pod: str) -> Decision | None:
    """The latest scheduling attempt of ``pod``, or None if it never reached the predicates."""
    found = decisions_from_events(events, pod)
    return found[-1] if found else None


def _table(d: Decision, prev: Decision | None) -> dict[str, str]:
    preds = d.predicate_names
    header = ["node", *preds, *(f"{n} ×{w}" for n, w in zip(d.names, d.weights)), "total"]
    index = {n: j for j, n in enumerate(d.scored_nodes)}
    totals = dict(d.totals)
    prev_totals = dict(prev.totals) if prev is not None else None
    rows = []
    for v in d.verdicts[:MAX_NODES]:
        chosen = v.node == d.host
        reasons = dict(v.predicates)
        cells = [mark(v.node + ("  ← chosen" if chosen else ""), follow=chosen)]
        for p in preds:
            failed = reasons.get(p)
            cells.append(esc("—" if failed is None else ("✓" if not failed else "✗ " + "; ".join(failed))))
        j = index.get(v.node)
        for i in range(len(d.names)):
            score = d.scores[i][j] if j is not None and i < len(d.scores) else None
            cells.append(esc("" if score is None else f"{score} → {score * d.weights[i]}"))
        total = totals.get(v.node)
        moved = prev_totals is not None and prev_totals.get(v.node) != total
        cells.append(mark("" if total is None else total, new=moved))
        rows.append(cells)
    hidden = len(d.verdicts) - MAX_NODES
    footer = [f"… and {hidden} more nodes"] if hidden > 0 else []
    return record_table(f"decision for {d.pod}", header, rows, footer=footer)


def decision(snapshot: Snapshot | None, previous_snapshot: Snapshot | None = None, *,
             follow_pod: str | None = None, record: Decision | None = None,
             previous_record: Decision | None = None) -> graphviz.Digraph:
    """Draw a :class:`Decision`: predicates × nodes with reasons, priorities × weights, totals, host.

    ``record`` is the decision to draw (build it with :func:`decision_from_events`); the snapshot
    only titles the diagram. ``previous_record`` highlights totals that changed.
    """
    when = f" — t={snapshot.time:.3f}s  event #{snapshot.seq}" if snapshot is not None else ""
    g = new_digraph("decision", rankdir="TB", label=f"scheduling decision{when}")
    if record is None:
        g.node("none", f"no scheduling attempt recorded{' for ' + follow_pod if follow_pod else ''} yet",
               shape="note", fontcolor=IDLE_FG)
        return g
    g.node("table", **_table(record, previous_record))
    if record.fit_error:
        outcome = f"FitError: pod {record.pod} fits on none of {len(record.verdicts)} nodes"
    elif record.host:
        outcome = (f"selectHost → {record.host}"
                   + (f"  (round-robin among {record.ties} tied)" if record.ties > 1 else ""))
    else:
        outcome = "in progress…"
    g.node("outcome", outcome, shape="box", style="rounded,filled",
           fillcolor=FOLLOW_BG if record.host else "#f6d3d0")
    g.edge("table", "outcome")
    return g
