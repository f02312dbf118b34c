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

from kschedlearn.trace import TraceEvent
from kschedlearn.trace.snapshot import Snapshot
from kschedlearn.viz._common import (
    FOLLOW_BG, IDLE_FG, MAX_NODES, ROW_CHANGED, ROW_FOLLOW, esc, mark, new_digraph, record_table,
)


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
    has not reached selectHost yet. ``ranked`` is selectHost's sorted list, ``ties`` how many
    share the max score, ``last_node_index`` the round-robin counter it used (None if unknown).
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
    last_node_index: int | None = None

    @property
    def predicate_names(self) -> tuple[str, ...]:
        """Every predicate that ran, sorted (the order podFitsOnNode runs them here)."""
        return tuple(sorted({name for v in self.verdicts for name, _ in v.predicates}))

    @property
    def fit_error(self) -> bool:
        """True when every node failed the predicates (Go: FitError)."""
        return bool(self.verdicts) and not any(v.fits for v in self.verdicts)


def _field(event: Any, name: str) -> Any:
    if type(event) is TraceEvent:  # (asking the Mapping ABC for every event was most of the view)
        return getattr(event, name)
    return event[name] if isinstance(event, Mapping) else getattr(event, name)


#: the stages an attempt is made of (every other event is passed over)
_ATTEMPT_STAGES = frozenset({"schedule.start", "schedule.predicate_node", "schedule.priorities", "selectHost"})


def decisions_from_events(events: Iterable[Any], pod: str) -> list[Decision]:
    """Every scheduling attempt of ``pod`` (``"namespace/name"``), oldest first.

    ``events``: ``TraceEvent`` objects or their ``to_json()`` dicts.
    """
    parse = AttemptParse(pod)
    parse.feed(events)
    return parse.decisions()


class AttemptParse:
    """:func:`decisions_from_events` that can be fed more events later: the attempts of ``pod``
    read so far and the one in progress (the decision view is drawn at every step; reading only
    the events recorded since the last drawing spares a walk of the whole trace each time)."""

    def __init__(self, pod: str) -> None:
        self.pod = pod
        self._attempts: list[dict[str, Any]] = []
        self._current: dict[str, Any] | None = None

    def feed(self, events: Iterable[Any]) -> None:
        """Read ``events`` (the ones after those fed before, in order)."""
        pod, attempts, current = self.pod, self._attempts, self._current
        for event in events:
            stage = _field(event, "stage")
            if stage not in _ATTEMPT_STAGES:
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
        self._current = current

    def decisions(self) -> list[Decision]:
        """The attempts read so far, as :class:`Decision` values (new ones at every call)."""
        return [_decision(self.pod, a) for a in self._attempts]


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
        last_node_index=int(sel["last_node_index"]) if "last_node_index" in sel else None,
        complete=bool(sel) or (bool(verdicts) and not any(v.fits for v in verdicts)),
    )


def decision_from_events(events: Iterable[Any], pod: str) -> Decision | None:
    """The latest scheduling attempt of ``pod``, or None if it never reached the predicates."""
    found = decisions_from_events(events, pod)
    return found[-1] if found else None


def _priority_header(name: str, weight: int) -> str:
    """Two short lines, so the column stays narrow: ``Least`` / ``Requested ×1`` (the Go name
    without its ``Priority`` suffix, split at the capital nearest the middle)."""
    base = name[:-len("Priority")] if name.endswith("Priority") and name != "Priority" else name
    caps = [i for i, ch in enumerate(base) if ch.isupper() and i > 0]
    if not caps:
        return f"{base}\n×{weight}"
    cut = min(caps, key=lambda i: abs(len(base) - 2 * i))
    return f"{base[:cut]}\n{base[cut:]} ×{weight}"


def _predicate_cell(v: NodeVerdict, total: int) -> str:
    failed = [(name, reasons) for name, reasons in v.predicates if reasons]
    if not failed and v.fits:
        return f"✓ all {total} pass"
    # one line: a taller cell would push its column's rows out of line with the others
    return "; ".join(f"✗ {name}: {', '.join(reasons)}" for name, reasons in failed) or "✗ does not fit"


def _table(d: Decision, prev: Decision | None) -> dict[str, str]:
    """Nodes as rows: the predicates' verdict in one column (✓, or each failing predicate with
    its reasons), then score × weight = points per priority, then the total."""
    preds = d.predicate_names
    # every header cell has two lines, so all columns' rows line up
    header = ["node\n\u00a0", f"predicates\n({len(preds)} run)",
              *(_priority_header(n, w) for n, w in zip(d.names, d.weights)), "total\n(points)"]
    index = {n: j for j, n in enumerate(d.scored_nodes)}
    totals = dict(d.totals)
    best = max(totals.values()) if totals else None
    prev_totals = dict(prev.totals) if prev is not None else None
    rows, marks = [], []
    for v in d.verdicts[:MAX_NODES]:
        chosen = v.node == d.host
        cells = [mark(v.node + ("  ← chosen" if chosen else ""), follow=chosen), esc(_predicate_cell(v, len(preds)))]
        j = index.get(v.node)
        for i in range(len(d.names)):
            score = d.scores[i][j] if j is not None and i < len(d.scores) else None
            cells.append(esc("—" if score is None else f"{score} ×{d.weights[i]} = {score * d.weights[i]}"))
        total = totals.get(v.node)
        moved = prev_totals is not None and prev_totals.get(v.node) != total
        tie = total is not None and total == best and d.ties > 1
        cells.append(mark("—" if total is None else f"{total}" + ("  (max, tied)" if tie else "  (max)" if total == best else ""),
                          new=moved))
        rows.append(cells)
        marks.append("+".join(m for m, on in ((ROW_FOLLOW, chosen), (ROW_CHANGED, moved)) if on))
    hidden = len(d.verdicts) - MAX_NODES
    footer = [f"… and {hidden} more nodes"] if hidden > 0 else []
    fits = sum(1 for v in d.verdicts if v.fits)
    title = (f"decision for {d.pod}: {fits} of {len(d.verdicts)} nodes fit"
             + ("  ·  priorities: score ×weight = points" if d.names else ""))
    return record_table(title, header, rows, footer=footer, row_marks=marks)


def select_host_explanation(d: Decision) -> str:
    """selectHost in words: the max total, how many nodes tied, ``lastNodeIndex mod ties``.

    Go (generic_scheduler.go selectHost): sort by score descending, then host name descending;
    ``ix := lastNodeIndex % firstAfterMaxScore``; the host at ``ix`` wins.
    """
    if d.fit_error:
        return f"FitError: pod {d.pod} fits on none of {len(d.verdicts)} nodes — no priorities, no host"
    if not d.host:
        return "in progress…"
    if not d.ranked:
        return f"selectHost → {d.host}"
    top = d.ranked[0][1]
    tied = [h for h, _ in d.ranked[:d.ties]] if d.ties else [d.ranked[0][0]]
    if len(tied) <= 1:
        return f"selectHost: {d.host} has the highest total ({top}) → {d.host}"
    ix = (f"lastNodeIndex {d.last_node_index} mod {len(tied)} ties = {d.last_node_index % len(tied)}"
          if d.last_node_index is not None else "round-robin (lastNodeIndex mod ties)")
    shown = ", ".join(f"[{i}] {h}" for i, h in enumerate(tied[:8])) + (f", … ({len(tied) - 8} more)" if len(tied) > 8 else "")
    return (f"selectHost: {len(tied)} nodes tied at the max total {top}\n"
            f"in selectHost's order (score, then host name, descending): {shown}\n"
            f"{ix} → {d.host}")


def decision(snapshot: Snapshot | None, previous_snapshot: Snapshot | None = None, *,
             follow_pod: str | None = None, record: Decision | None = None,
             previous_record: Decision | None = None) -> graphviz.Digraph:
    """Draw a :class:`Decision`: one row per node — predicates (✓ or the failing reasons), each
    priority's score × weight, the total — and the selectHost tie-break in words.

    ``record`` is the decision to draw (build it with :func:`decision_from_events`); the snapshot
    only titles the diagram. ``previous_record`` highlights totals that changed.
    """
    when = f" — t={snapshot.time:.3f}s  event #{snapshot.seq}" if snapshot is not None else ""
    g = new_digraph("decision", rankdir="TB", label=f"scheduling decision{when}")
    g.attr(nodesep="0.2", ranksep="0.2")
    if record is None:
        g.node("none", f"no scheduling attempt recorded{' for ' + follow_pod if follow_pod else ''} yet",
               shape="note", fontcolor=IDLE_FG)
        return g
    if not record.verdicts and not record.complete:
        g.node("none", f"{record.pod}: a new scheduling attempt has started (Schedule) —\n"
               "the predicates have not reported on any node yet", shape="note", fontcolor=IDLE_FG)
        return g
    g.node("table", **_table(record, previous_record))
    outcome = select_host_explanation(record)
    g.node("outcome", outcome, shape="box", style="rounded,filled", fontsize="11",
           fillcolor=FOLLOW_BG if record.host else "#f6d3d0")
    g.edge("table", "outcome")
    return g
