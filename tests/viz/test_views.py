"""Views: golden DOT text, rendering with every renderer, change highlighting, the node cap.

Goldens live in tests/viz/golden/*.dot. After an intended change to a view, regenerate them with
``.venv/bin/python tests/viz/make_goldens.py`` and review the diff before committing.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from viz_samples import (
    GOLDENS, big, build_golden, busy, busy_prev, decision_events, empty, startup_mid, startup_prev,
)

from kschedlearn.trace.snapshot import Snapshot
from kschedlearn.viz import VIEWS, View, decision_from_events, decisions_from_events, pod_state, show
from kschedlearn.viz._common import FOLLOW_BG, FOLLOW_MARK, NEW_FG, NEW_MARK, ROWS_ATTR
from kschedlearn.viz.render import render_svg

GOLDEN = Path(__file__).resolve().parent / "golden"
RENDERERS = ["wasm", "text"] + (["dot"] if shutil.which("dot") else [])


@pytest.mark.parametrize("name", sorted(GOLDENS), ids=sorted(GOLDENS))
def test_golden_dot(name: str) -> None:
    assert build_golden(name) == (GOLDEN / f"{name}.dot").read_text(encoding="utf-8")


@pytest.mark.parametrize("renderer", RENDERERS)
@pytest.mark.parametrize("view", sorted(VIEWS))
@pytest.mark.parametrize("factory", [empty, busy, startup_mid], ids=["empty", "busy", "startup"])
def test_every_view_renders(view: str, factory, renderer: str) -> None:
    snap = factory()
    kwargs = {"record": decision_from_events(decision_events(), "default/web-1")} if view == "decision" else {}
    svg = show(view, snap, follow_pod="default/web-1", renderer=renderer, **kwargs).svg()
    assert svg.lstrip().startswith(("<?xml", "<svg"))
    assert "</svg>" in svg
    if renderer != "text":
        assert "class=\"graph\"" in svg  # a real layout, not the DOT-text fallback


def test_wasm_draws_table_cells() -> None:
    # the in-process Graphviz has no HTML labels; our record tables must show their cell text
    svg = render_svg(build_golden("pipeline_busy"), "wasm")
    assert "default/web&#45;2" in svg and "podQueue (FIFO)" in svg


def test_mimebundle_has_svg_and_text() -> None:
    view = show("pipeline", busy(), renderer="text")
    bundle = view._repr_mimebundle_()
    assert set(bundle) == {"image/svg+xml", "text/plain"}
    assert "pipeline" in bundle["text/plain"]
    assert view.dot() == view.graph.source


def test_pipeline_marks_new_and_followed_items() -> None:
    dot = VIEWS["pipeline"](busy(), busy_prev(), follow_pod="default/web-1").source
    assert f"{NEW_MARK}default/web-3" in dot  # newly queued in podQueue
    assert f"{FOLLOW_MARK}{NEW_MARK}default/web-1" in dot  # new in the DeltaFIFO and followed
    # rows, not whole tables: the followed + new row is a band, the node itself stays unfilled
    assert f'{ROWS_ATTR}="follow+changed:' in dot and FOLLOW_BG not in dot and NEW_FG not in dot
    assert "color=\"#1f77b4\"" in dot  # the handler → cache edge of the current stage
    without_prev = "\n".join(line for line in VIEWS["pipeline"](busy()).source.splitlines()
                             if not line.lstrip().startswith("legend "))  # the legend shows both marks
    assert NEW_MARK not in without_prev and FOLLOW_MARK not in without_prev


def test_cache_view_marks_changes_and_ttl() -> None:
    dot = VIEWS["cache"](busy(), busy_prev(), follow_pod="default/web-1").source
    assert f"{FOLLOW_MARK}{NEW_MARK}default/web-1  ⏳ assumed, bound, expires in 27.5s" in dot
    assert f"{NEW_MARK}[###-------] 1100m / 4000m" in dot  # cpu request grew on node-2
    assert "penwidth=3" in dot  # node-3 is new since busy_prev


def test_cache_view_caps_at_150_nodes() -> None:
    dot = VIEWS["cache"](big(1000)).source
    assert dot.count("shape=record") == 150
    assert "… and 850 more nodes" in dot
    followed = VIEWS["cache"](big(1000), follow_pod="default/p-999").source
    assert "node-0999" in followed and dot.count("shape=record") == 150


def _node_stmt(dot: str, node: str) -> str:
    start = dot.index(f"\t{node} [")
    return dot[start:dot.index("]", start)]


def test_startup_frames_visited_current_and_new() -> None:
    dot = VIEWS["startup"](startup_mid(), startup_prev()).source
    assert "f8 [label=\"NewConfigFactory" in dot
    f8 = _node_stmt(dot, "f8")
    assert "fillcolor=\"#1f77b4\"" in f8 and "penwidth=3" in f8  # current, newly reached
    assert "fillcolor=\"#d8ecd8\"" in _node_stmt(dot, "f0")  # visited
    assert "dashed" in _node_stmt(dot, "f2")  # main's flag and log set-up: passed, not in this trace
    assert "dashed" in _node_stmt(dot, "f3")  # app.Run: passed, no trace point of its own
    assert "#888888" in _node_stmt(dot, "f9")  # ahead
    assert f"{NEW_MARK}kube-scheduler/recorder.StartLogging" in dot


def test_decision_record_from_events() -> None:
    d = decision_from_events(decision_events(), "default/web-1")
    assert d is not None and d.host == "node-2" and d.complete
    assert [v.node for v in d.verdicts if v.fits] == ["node-2"]
    assert dict(d.verdicts[0].predicates)["PodFitsResources"] == ("Insufficient cpu",)
    assert d.totals == (("node-2", 16),)
    # a second attempt (FitError: nothing fits) starts a new record
    again = decision_events()[:1]
    again[0] = {**again[0], "data": {**again[0]["data"], "node": "node-1"}}
    both = decisions_from_events(decision_events() + again, "default/web-1")
    assert len(both) == 2 and both[1].fit_error and both[1].host == ""
    assert decision_from_events(decision_events(), "default/other") is None


def test_pod_state_derivation() -> None:
    assert pod_state(busy(), "default/web-1") == "Assumed"
    assert pod_state(busy(), "default/db-0") == "Added"
    assert pod_state(busy(), "default/web-2") == "Initial"
    gone = Snapshot(seq=41, time=50.0, cache=busy_prev().cache, apiserver=busy().apiserver)
    assert pod_state(gone, "default/web-1", busy()) == "Expired"
    assert pod_state(empty(), "default/x") == "Initial"


def test_views_accept_empty_snapshot_and_none_parts() -> None:
    for name, fn in VIEWS.items():
        assert fn(empty()).source.startswith("digraph"), name


def test_show_rejects_unknown_view() -> None:
    with pytest.raises(ValueError, match="unknown view 'nope'"):
        show("nope", empty())


def test_view_wraps_digraph() -> None:
    v = View(VIEWS["pod_states"](busy()), renderer="text")
    assert "Assumed (1)" in v.dot()
