"""kube-controller-manager in the views: the process that creates the pods kube-scheduler places.

Go: none — kschedlearn-only (DESIGN §8). When a world runs the controller manager (a process
named ``kube-controller-manager`` in the snapshot), the ``pipeline`` view gains a source node
feeding the API server — the ReplicationManager, ReplicaSet, Deployment and StatefulSet
controllers POST pods without a node, which the scheduler's reflector then puts in podQueue —
and a dashed edge for the DaemonSet controller, whose pods are born with ``spec.nodeName`` set
and go straight to the assigned-pod side, never through podQueue. The ``startup`` view gains a
box with the controller manager's goroutines (its controllers' workers).
"""

from __future__ import annotations

import graphviz

from kschedlearn.trace.snapshot import Snapshot
from kschedlearn.viz._common import ACTIVE, IDLE_FG, esc, mark, record_table

PROCESS = "kube-controller-manager"
#: the trace stages of the controllers' pod traffic (kschedlearn/observe/controllers.py)
CREATE_STAGES = ("controller.expect", "controller.observed", "controller.adopt", "controller.release")
BIND_STAGES = ("daemonset.bind",)


def runs_controller_manager(snap: Snapshot) -> bool:
    """Does the snapshot's world run kube-controller-manager?"""
    return any(p.name == PROCESS for p in snap.processes or ())


def add_pod_source(g: graphviz.Digraph, snap: Snapshot) -> None:
    """The ``pipeline`` view's source node and its two edges into the API server."""
    if not runs_controller_manager(snap):
        return
    alive = next(p.alive for p in snap.processes or () if p.name == PROCESS)
    title = "kube-controller-manager" + ("" if alive else " (crashed)")
    g.node("controllers", f"{title}\nReplicationManager · ReplicaSet · Deployment\nDaemonSet · StatefulSet",
           shape="box", style="rounded" if alive else "rounded,dashed", fontcolor="black" if alive else IDLE_FG)
    active = snap.stage in CREATE_STAGES
    g.edge("controllers", "apiserver", label="POST pods\n(nodeName \"\")",
           **({"color": ACTIVE, "penwidth": "3", "fontcolor": ACTIVE} if active else {}))
    bind = snap.stage in BIND_STAGES
    g.edge("controllers", "apiserver", label="DaemonSet: POST pods\nwith nodeName set\n(never in podQueue)",
           style="dashed", **({"color": ACTIVE, "penwidth": "3", "fontcolor": ACTIVE} if bind else {}))


def add_startup_box(g: graphviz.Digraph, snap: Snapshot) -> None:
    """The ``startup`` view's box: the controller manager's goroutines, its controllers' workers."""
    if not runs_controller_manager(snap):
        return
    names: dict[str, int] = {}
    for gr in snap.goroutines or ():
        if gr.process == PROCESS and gr.state not in ("done", "killed"):
            names[gr.name] = names.get(gr.name, 0) + 1
    rows = [[mark(esc(name)), esc(str(n))] for name, n in sorted(names.items())]
    g.node("controller_manager", **record_table("kube-controller-manager (a process of its own)",
                                                ["goroutine", "count"], rows, empty="(not started, or crashed)"))


__all__ = ["add_pod_source", "add_startup_box", "runs_controller_manager"]
