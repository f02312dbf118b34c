"""The ``leader_election`` view: scheduler replicas competing for one Endpoints lease.

Go: none — kschedlearn-only (DESIGN §8); the lock is client/leaderelection's Endpoints record
(``control-plane.alpha.kubernetes.io/leader`` annotation: holderIdentity, leaseDurationSeconds,
acquireTime, renewTime, leaderTransitions). The holder renews; the others retry and may take
over once ``renewTime + leaseDuration`` has passed.
"""

from __future__ import annotations

import graphviz

from kschedlearn.trace.snapshot import Snapshot
from kschedlearn.viz._common import (
    ACTIVE, FOLLOW_BG, IDLE_FG, NEW_FG, esc, node_id, fmt_time, mark, new_digraph, record_table,
)


def _record_attrs(snap: Snapshot, changed: set[str]) -> dict[str, str]:
    lead = snap.leader
    assert lead is not None
    expires = (lead.renew_time + lead.lease_duration) if lead.renew_time is not None else None
    state = ""
    if expires is not None:
        state = f"  (in {fmt_time(expires - snap.time)})" if expires >= snap.time else "  (EXPIRED)"
    rows = [[esc(name), mark(value, new=name in changed)] for name, value in (
        ("holderIdentity", lead.holder or "(none)"),
        ("leaseDurationSeconds", f"{lead.lease_duration:g}"),
        ("acquireTime", fmt_time(lead.acquire_time)),
        ("renewTime", fmt_time(lead.renew_time)),
        ("leaderTransitions", lead.transitions),
        ("lease expires", fmt_time(expires) + state),
    )]
    return record_table("leader record (Endpoints annotation)", [], rows, rankdir="LR")


def leader_election(snapshot: Snapshot, previous_snapshot: Snapshot | None = None, *,
                    follow_pod: str | None = None) -> graphviz.Digraph:
    """Draw candidates, the holder, the lease and its times (see the module docstring)."""
    snap, prev = snapshot, previous_snapshot
    g = new_digraph("leader_election", rankdir="LR",
                    label=f"leader election — t={snap.time:.3f}s  event #{snap.seq}")
    lead = snap.leader
    if lead is None:
        g.node("none", "no leader election in this run (or not started yet)", shape="note", fontcolor=IDLE_FG)
        return g
    before = prev.leader if prev is not None else None
    changed: set[str] = set()
    if before is not None:
        for field, name in (("holder", "holderIdentity"), ("renew_time", "renewTime"),
                            ("acquire_time", "acquireTime"), ("transitions", "leaderTransitions")):
            if getattr(before, field) != getattr(lead, field):
                changed.add(name)
        if "renewTime" in changed or "holderIdentity" in changed:
            changed.add("lease expires")
    g.node("record", **_record_attrs(snap, changed))
    alive = {p.name: p.alive for p in snap.processes or ()}
    candidates = list(lead.candidates)
    if lead.holder and lead.holder not in candidates:
        candidates.append(lead.holder)
    for name in candidates:
        is_holder = name == lead.holder
        dead = alive.get(name) is False
        label = name + ("\n(leader)" if is_holder else "\n(standby)") + ("\n✗ process exited" if dead else "")
        style: dict[str, str] = {"shape": "box", "style": "rounded"}
        if is_holder:
            style.update(style="rounded,filled,bold", fillcolor=FOLLOW_BG)
        if dead:
            style.update(color=IDLE_FG, fontcolor=IDLE_FG)
        if "holderIdentity" in changed and is_holder:
            style.update(color=NEW_FG, penwidth="3")
        g.node(node_id("cand", name), label, **style)
        if is_holder:
            active = "renewTime" in changed
            g.edge(node_id("cand", name), "record", label="renews (tryAcquireOrRenew)",
                   **({"color": ACTIVE, "penwidth": "2.5"} if active else {}))
        else:
            g.edge(node_id("cand", name), "record", label="retries until the lease expires", style="dashed",
                   color=IDLE_FG)
    return g
