"""Graphviz views of a trace snapshot, and an SVG renderer that needs no system Graphviz.

Go: none — kschedlearn-only (DESIGN §8). Every view is a pure function
``(snapshot, previous_snapshot=None, *, follow_pod=None) -> graphviz.Digraph``; wrap the result
in :class:`View` (or call :func:`show`) to display it in Jupyter as SVG.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import graphviz

from kschedlearn.viz.cache_view import cache
from kschedlearn.viz.decision import Decision, NodeVerdict, decision, decision_from_events, decisions_from_events
from kschedlearn.viz.leader_election import leader_election
from kschedlearn.viz.pipeline import pipeline
from kschedlearn.viz.pod_states import pod_state, pod_states
from kschedlearn.viz.render import RenderUnavailable, View, render_svg, warm_up
from kschedlearn.viz.startup import startup

VIEWS: dict[str, Callable[..., graphviz.Digraph]] = {
    "pipeline": pipeline,
    "startup": startup,
    "cache": cache,
    "decision": decision,
    "pod_states": pod_states,
    "leader_election": leader_election,
}
"""View name -> view function (the names ``sim.show(name)`` accepts)."""


def show(name: str, snapshot: Any, previous_snapshot: Any = None, *, follow_pod: str | None = None,
         renderer: str = "auto", **kwargs: Any) -> View:
    """Build view ``name`` and wrap it for display (extra keyword arguments go to the view)."""
    try:
        fn = VIEWS[name]
    except KeyError:
        raise ValueError(f"viz.show: unknown view {name!r}; choose one of {sorted(VIEWS)}") from None
    graph = fn(snapshot, previous_snapshot, follow_pod=follow_pod, **kwargs)
    return View(graph, renderer=renderer, title=name)


__all__ = [
    "VIEWS", "Decision", "NodeVerdict", "RenderUnavailable", "View", "cache", "decision",
    "decision_from_events", "decisions_from_events", "leader_election", "pipeline", "pod_state",
    "pod_states", "render_svg", "show", "startup", "warm_up",
]
