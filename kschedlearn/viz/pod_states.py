"""The ``pod_states`` view: the scheduler cache's pod state machine.

Go: none — kschedlearn-only (DESIGN §8); the machine is the one drawn in the comment of
schedulercache/cache.go (https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/cache.go#L79-L386):
Initial → Assumed (AssumePod) → Added (AddPod confirms) → Deleted (RemovePod); an Assumed pod
whose binding finished and whose TTL ran out is Expired (cleanupAssumedPods); ForgetPod takes an
Assumed pod back to Initial. A pod's current state is derived from the cache and the API server.
"""

from __future__ import annotations

import graphviz

from kschedlearn.trace.snapshot import Snapshot
from kschedlearn.viz._common import (
    ACTIVE, FOLLOW_BG, IDLE_FG, MAX_ROWS, new_digraph, thinned_caption,
)

STATES = ("Initial", "Assumed", "Added", "Deleted", "Expired")
_TRANSITIONS = (
    ("Initial", "Assumed", "AssumePod"),
    ("Assumed", "Added", "AddPod (confirm)"),
    ("Assumed", "Initial", "ForgetPod"),
    ("Assumed", "Expired", "cleanupAssumedPods\n(bound + TTL passed)"),
    ("Added", "Added", "UpdatePod"),
    ("Added", "Deleted", "RemovePod"),
    ("Expired", "Added", "AddPod (late)"),
)


def pod_state(snapshot: Snapshot, pod: str, previous_snapshot: Snapshot | None = None) -> str:
    """The cache state of ``pod`` (``"namespace/name"``): one of :data:`STATES`.

    A pod absent from the cache is Deleted if the API server no longer has it (or it is
    terminating) after the cache knew it, Expired if it was assumed in the previous snapshot, its
    deadline has passed and the API server still has it, Initial otherwise (e.g. ForgetPod).
    """
    cache = snapshot.cache
    if cache is not None:
        for ps in cache.pod_states:
            if ps.key == pod:
                return "Assumed" if ps.assumed else "Added"
    prev_state = None
    if previous_snapshot is not None and previous_snapshot.cache is not None:
        prev_state = next((p for p in previous_snapshot.cache.pod_states if p.key == pod), None)
    api = snapshot.apiserver
    in_api = None if api is None else next((p for p in api.pods if p.key == pod), None)
    gone = api is not None and (in_api is None or in_api.deletion_timestamp is not None)
    if prev_state is not None:
        if gone:
            return "Deleted"
        if prev_state.assumed:
            # Only cleanupAssumedPods removes a pod *after* its deadline; ForgetPod (a failed
            # bind, which in 1.6 also ran FinishBinding first) removes it before.
            expired = (prev_state.binding_finished and prev_state.deadline is not None
                       and snapshot.time > prev_state.deadline)
            return "Expired" if expired else "Initial"
        return "Deleted"
    if gone and in_api is not None:
        return "Deleted"
    return "Initial"


def _all_pods(snapshot: Snapshot) -> list[str]:
    keys = set()
    if snapshot.cache is not None:
        keys.update(p.key for p in snapshot.cache.pod_states)
    if snapshot.apiserver is not None:
        keys.update(p.key for p in snapshot.apiserver.pods)
    return sorted(keys)


def pod_states(snapshot: Snapshot, previous_snapshot: Snapshot | None = None, *,
               follow_pod: str | None = None) -> graphviz.Digraph:
    """Draw the state machine; mark the followed pod's state, or list every pod per state."""
    snap, prev = snapshot, previous_snapshot
    g = new_digraph("pod_states", rankdir="LR",
                    label=f"pod states in the scheduler cache — t={snap.time:.3f}s  event #{snap.seq}"
                    + (f"  following {follow_pod}" if follow_pod else "") + thinned_caption(snap, ("cache",)))
    members: dict[str, list[str]] = {s: [] for s in STATES}
    for key in ([follow_pod] if follow_pod else _all_pods(snap)):
        members[pod_state(snap, key, prev)].append(key)
    before: dict[str, str] = {}
    if prev is not None:
        for key in ([follow_pod] if follow_pod else _all_pods(prev)):
            before[key] = pod_state(prev, key)
    for state in STATES:
        keys = members[state]
        lines = [state]
        if not follow_pod:
            lines[0] += f" ({len(keys)})"
            lines += keys[:MAX_ROWS] + ([f"… and {len(keys) - MAX_ROWS} more"] if len(keys) > MAX_ROWS else [])
        style: dict[str, str] = {"shape": "ellipse" if state != "Initial" else "circle"}
        if follow_pod and keys:
            style.update(style="filled,bold", fillcolor=FOLLOW_BG, penwidth="2.5")
        elif not keys:
            style.update(fontcolor=IDLE_FG, color=IDLE_FG)
        changed = [k for k in keys if prev is not None and before.get(k, "Initial") != state]
        if changed:
            style.update(color=ACTIVE, penwidth="3")
        g.node(state, "\n".join(lines), **style)
    moved = {(before.get(k, "Initial"), s) for s in STATES for k in members[s] if prev is not None}
    for src, dst, label in _TRANSITIONS:
        extra = {"color": ACTIVE, "penwidth": "2.5", "fontcolor": ACTIVE} if (src, dst) in moved else {}
        g.edge(src, dst, label=label, **extra)
    return g
