"""The pod as a token (pipeline view) and the row-per-node decision view, checked on their DOT.

A whole ``three-nodes`` run is stepped event by event: at every stop about ``default/web-1`` the
view must put the followed pod's gold band where the simulator says the pod is — podQueue row →
scheduleOne (phase NextPod / predicates / priorities / selectHost) → cache row (assumed) + bind
goroutine → cache (binding finished) → DeltaFIFO row → processLoop → cache (added). Expected
places come from the scenario's own events, never from a hard-coded event number.
"""

from __future__ import annotations

import re

import pytest

from kschedlearn import Simulation
from kschedlearn.scenarios.scenario import bundled_names
from kschedlearn.trace.snapshot import Snapshot
from kschedlearn.viz import VIEWS
from kschedlearn.viz._common import ROWS_ATTR
from kschedlearn.viz.decision import select_host_explanation
from kschedlearn.viz.pipeline import pod_places
from kschedlearn.viz.render import RenderUnavailable, render_svg, render_wasm
from kschedlearn.widgets._zoom import ZOOM_LEVELS, zoomable

POD = "default/web-1"


# --- reading the DOT back -----------------------------------------------------------------

def record_leaves(label: str) -> list[str]:
    """The text fields of a record label, in Graphviz's field order (escapes undone)."""
    leaves: list[str] = []
    i = 0

    def fields() -> None:
        nonlocal i
        field()
        while i < len(label) and label[i] == "|":
            i += 1
            field()

    def field() -> None:
        nonlocal i
        if i < len(label) and label[i] == "{":
            i += 1
            fields()
            assert label[i] == "}", label
            i += 1
            return
        text = []
        while i < len(label) and label[i] not in "{}|":
            if label[i] == "\\" and i + 1 < len(label):
                i += 1
            text.append(label[i])
            i += 1
        leaves.append("".join(text).strip())

    fields()
    return leaves


def node_attrs(dot: str) -> dict[str, dict[str, str]]:
    """Node id -> its attributes (label and the row-band spec are what the tests read)."""
    out = {}
    for stmt in dot.split("\n\t"):
        m = re.match(r'(\w+) \[(.*)\]\s*$', stmt, re.S)
        if not m or "->" in stmt.split("[")[0]:
            continue
        body = m.group(2)
        attrs = dict(re.findall(r'(\w+)=("(?:[^"\\]|\\.)*"|[^ \]]+)', body))
        out[m.group(1)] = {k: (v[1:-1] if v.startswith('"') else v) for k, v in attrs.items()}
    return out


def bands(dot: str, mark: str) -> dict[str, list[list[str]]]:
    """Node id -> for each row band carrying ``mark``: the texts of its fields."""
    found: dict[str, list[list[str]]] = {}
    for node, attrs in node_attrs(dot).items():
        spec = attrs.get(ROWS_ATTR)
        if not spec or node == "legend":
            continue
        leaves = record_leaves(attrs["label"])
        for entry in spec.split(";"):
            kinds, _, idx = entry.partition(":")
            if mark in kinds.split("+"):
                found.setdefault(node, []).append([leaves[int(j)] for j in idx.split(",")])
    return found


# --- the token across a whole run ----------------------------------------------------------

def _expect(stage: str) -> tuple[str, str] | None:
    """(node with the gold band, text that band must contain) for a stop about the pod."""
    return {
        "fifo.add": ("podQueue", POD), "fifo.pop": ("scheduleOne", "NextPod"),
        "scheduleOne.pop": ("scheduleOne", "NextPod"), "schedule.start": ("scheduleOne", "predicates"),
        "schedule.predicate_node": ("scheduleOne", "predicates"), "schedule.predicates": ("scheduleOne", "predicates"),
        "schedule.priorities": ("scheduleOne", "priorities"), "selectHost": ("scheduleOne", "selectHost"),
        "assume": ("cache", "assumed"), "bind": ("bind", "POST binding"),
        "apiserver.bind": ("bind", "API server stored it"), "finishBinding": ("cache", "binding finished"),
        "delta_fifo.add": ("deltaFIFO", POD), "delta_fifo.pop": ("processLoop", "Pop"),
        "handler.OnAdd": ("processLoop", "handler"), "cache.addPod": ("processLoop", "cache.AddPod"),
    }.get(stage)


@pytest.fixture(scope="module")
def run() -> list[tuple[str, Snapshot, str]]:
    """(stage, snapshot, pipeline DOT) at every event of three-nodes that names web-1, plus the
    event right after the cache confirmed it."""
    sim = Simulation.from_scenario("three-nodes", seed=1)
    out = []
    confirmed = False
    while (ev := sim.step("event")) is not None:
        about = POD in (ev.data.get("pod"), ev.data.get("key"))
        if about or confirmed:
            out.append((ev.stage, sim.snapshot, sim.show("pipeline", renderer="text").dot()))
            if confirmed:
                break
        confirmed = confirmed or (about and ev.stage == "cache.addPod")
    return out


def test_token_follows_the_pod_through_every_stage(run: list[tuple[str, Snapshot, str]]) -> None:
    seen = []
    for stage, snap, dot in run:
        want = _expect(stage)
        if want is None:
            continue
        node, text = want
        gold = bands(dot, "follow")
        assert node in gold, (stage, gold)
        assert any(text in " ".join(row) for row in gold[node]), (stage, gold[node])
        seen.append(stage)
    for stage in ("fifo.add", "fifo.pop", "schedule.start", "schedule.priorities", "selectHost", "assume",
                  "bind", "finishBinding", "delta_fifo.add", "delta_fifo.pop", "cache.addPod"):
        assert stage in seen, f"the run never stopped at {stage} for {POD}"


def test_schedule_start_says_scheduleone_holds_the_pod(run: list[tuple[str, Snapshot, str]]) -> None:
    stage, snap, dot = next(r for r in run if r[0] == "schedule.start")
    assert f"scheduleOne holds {POD}" in dot
    assert pod_places(snap, POD)[0].place == "scheduleOne"
    # in no table: neither queue, nor the cache, holds it
    assert set(bands(dot, "follow")) == {"scheduleOne"}


def test_cache_states_and_bind_in_flight(run: list[tuple[str, Snapshot, str]]) -> None:
    by_stage = {}
    for stage, snap, dot in run:
        by_stage.setdefault(stage, (snap, dot))
    snap, dot = by_stage["bind"]
    assert [p.place for p in pod_places(snap, POD)] == ["bind", "cache"]
    assert "binding not finished" in pod_places(snap, POD)[1].detail
    assert set(bands(dot, "follow")) == {"bind", "cache"}
    snap, dot = by_stage["finishBinding"]
    assert "expires in 30.0s" in pod_places(snap, POD)[-1].detail
    last_stage, snap, dot = run[-1]  # the event after cache.addPod
    assert [p.place for p in pod_places(snap, POD)] == ["cache"]
    assert any("added (confirmed)" in " ".join(r) for r in bands(dot, "follow")["cache"])


def test_only_the_changed_row_is_outlined(run: list[tuple[str, Snapshot, str]]) -> None:
    stage, snap, dot = next(r for r in run if r[0] == "assume")
    changed = bands(dot, "changed")
    assert list(changed) == ["cache"] and len(changed["cache"]) == 1
    assert changed["cache"][0][0].endswith(POD) and "assumed" in changed["cache"][0]
    # whole tables are never filled any more
    cache = node_attrs(dot)["cache"]
    assert "fillcolor" not in cache and "style" not in cache


def test_legend_explains_the_marks(run: list[tuple[str, Snapshot, str]]) -> None:
    legend = node_attrs(run[0][2])["legend"]
    leaves = record_leaves(legend["label"])
    assert leaves[0] == "legend" and any("gold" in x for x in leaves) and any("outline" in x for x in leaves)
    assert legend[ROWS_ATTR] == "follow:1;changed:2"


def test_expired_pod_leaves_a_ghost_row() -> None:
    sim = Simulation.from_scenario("assume-expiry", seed=1)
    ev = sim.run_until(stage="expirePod")
    assert ev is not None
    pod = ev.data["pod"]
    sim.step("event")
    places = pod_places(sim.snapshot, pod, _previous(sim))
    assert places and places[-1].place == "cache" and places[-1].detail.startswith("expired")
    dot = sim.show("pipeline", pod=pod, renderer="text").dot()
    assert any("expired" in " ".join(r) for r in bands(dot, "follow")["cache"])


def _previous(sim: Simulation) -> Snapshot | None:
    from kschedlearn.simulation.views import previous_snapshot

    return previous_snapshot(sim)


def test_holders_survive_json() -> None:
    sim = Simulation.from_scenario("three-nodes", seed=1)
    sim.run_until(stage="schedule.priorities", pod=POD)
    snap = sim.snapshot
    assert snap.holders and snap.holders[0].pod == POD and snap.holders[0].phase == "schedule.priorities"
    assert Snapshot.from_json(snap.to_json()) == snap


# --- the rendered bands --------------------------------------------------------------------

def _wasm() -> bool:
    try:
        render_wasm("digraph { a }")
    except RenderUnavailable:
        return False
    return True


@pytest.mark.skipif(not _wasm(), reason="wasm Graphviz not installed")
def test_rendered_band_covers_the_row_text() -> None:
    sim = Simulation.from_scenario("three-nodes", seed=1)
    sim.run_until(stage="assume", pod=POD)
    svg = render_svg(sim.show("pipeline").dot(), "wasm")
    group = svg[svg.index("<title>cache</title>"):]
    group = group[:group.index("</g>")]
    band = re.search(r'<polygon class="kschedlearn-row kschedlearn-row-follow[^"]*"[^>]*points="([^"]+)"', group)
    assert band is not None
    xs, ys = zip(*((float(a), float(b)) for a, b in (p.split(",") for p in band.group(1).split())))
    inside = [t for x, y, t in re.findall(r'<text[^>]* x="([-\d.]+)" y="([-\d.]+)"[^>]*>([^<]*)</text>', group)
              if min(xs) <= float(x) <= max(xs) and min(ys) <= float(y) <= max(ys)]
    assert inside[0].endswith("default/web&#45;1") and "assumed" in inside
    assert group.count("kschedlearn-row-outline") == 1  # one changed row


# --- the decision view ---------------------------------------------------------------------

def _decision_dot(scenario: str, stage: str, pod: str) -> tuple[str, object]:
    sim = Simulation.from_scenario(scenario, seed=1)
    assert sim.run_until(stage=stage, pod=pod) is not None
    return sim.show("decision", pod=pod, renderer="text").dot(), sim.decision(pod)[-1]


def _columns(dot: str) -> list[list[str]]:
    """The decision table's columns (header lines first), from its record label."""
    label = node_attrs(dot)["table"]["label"]
    inner = label[label.index("|{") + 2:label.rindex("}}")]
    cols, depth, start = [], 0, 0
    for i, ch in enumerate(inner):
        if ch == "{" and (i == 0 or inner[i - 1] != "\\"):
            depth += 1
            start = i if depth == 1 else start
        elif ch == "}" and inner[i - 1] != "\\":
            depth -= 1
            if depth == 0:
                cols.append(record_leaves(inner[start + 1:i]))
    return cols


def test_decision_nodes_are_rows_with_points_and_totals() -> None:
    dot, d = _decision_dot("three-nodes", "assume", POD)
    cols = _columns(dot)
    nodes = [v.node for v in d.verdicts]
    assert [c.split()[-1] if "chosen" not in c else c.split()[1] for c in cols[0][1:]] == nodes
    assert all(c == f"✓ all {len(d.predicate_names)} pass" for c in cols[1][1:])  # one ✓ column
    assert len(cols) == 2 + len(d.names) + 1
    totals = dict(d.totals)
    for j, name in enumerate(d.names):
        i = d.scored_nodes.index(nodes[0])
        assert cols[2 + j][1] == f"{d.scores[j][i]} ×{d.weights[j]} = {d.scores[j][i] * d.weights[j]}"
    assert [c.split()[0] for c in cols[-1][1:]] == [str(totals[n]) for n in nodes]
    gold = bands(dot, "follow")["table"]
    assert len(gold) == 1 and gold[0][0].endswith(f"{d.host}  ← chosen")
    assert f"{d.host} has the highest total" in dot


def test_decision_spells_out_failing_predicates_and_fit_error() -> None:
    sim = Simulation.from_scenario("unschedulable-then-fits", seed=1)
    ev = sim.run_until(lambda e: e.stage == "schedule.predicate_node" and not e.data["fits"])
    assert ev is not None
    pod = ev.data["pod"]
    sim.run_until(stage="schedule.start")  # the attempt is over when the next one begins
    d = next(x for x in sim.decision(pod) if x.fit_error)
    from kschedlearn.viz.decision import decision

    dot = decision(sim.snapshot, record=d).source
    failed = [v for v in d.verdicts if not v.fits][0]
    name, reasons = next((n, r) for n, r in failed.predicates if r)
    assert f"✗ {name}: {', '.join(reasons)}" in dot
    assert "FitError" in select_host_explanation(d)


def test_decision_explains_the_round_robin_tie_break() -> None:
    sim = Simulation.from_scenario("bind-failure", seed=1)
    ties = []
    while (ev := sim.run_until(stage="selectHost")) is not None:
        if ev.data["ties"] > 1:
            ties.append(ev)
        if len(ties) == 2:
            break
    assert len(ties) == 2
    for ev in ties:
        d = sim.decision(ev.data["pod"])
        d = next(x for x in reversed(d) if x.last_node_index == ev.data["last_node_index"])
        text = select_host_explanation(d)
        n, k = ev.data["ties"], ev.data["last_node_index"]
        assert f"{n} nodes tied" in text
        assert f"lastNodeIndex {k} mod {n} ties = {k % n} → {ev.data['host']}" in text
        assert d.ranked[k % n][0] == ev.data["host"]


# --- fit / zoom HTML -----------------------------------------------------------------------

def test_zoomable_is_css_only_and_fits_by_default() -> None:
    svg = '<svg width="800pt" height="400pt" viewBox="0 0 800 400"><g/></svg>'
    out = zoomable(svg)
    assert out == zoomable(svg)  # stable ids
    assert out.count('type="radio"') == len(ZOOM_LEVELS) and out.count(" checked") == 1
    assert "width:100%;height:auto;max-height:" in out  # fit: the pane's width, capped height
    assert "max-width:min(100%,1067px)" in out  # never enlarged past its own 800pt
    assert svg in out and "<script" not in out
    for z in ZOOM_LEVELS[1:]:
        assert f"width:{z * 100:g}%" in out
    assert 'title="zoom in"' in out and 'title="zoom out"' in out and 'title="fit to the pane"' in out


def test_every_view_is_fitted_in_the_explorer() -> None:
    from kschedlearn.widgets.explorer import Explorer

    sim = Simulation.from_scenario("three-nodes", seed=1)
    sim.run_until(stage="assume", pod=POD)
    ex = Explorer(sim)
    for name in VIEWS:
        ex.w["view"].value = name
        assert "kschedlearn-zoom" in ex.w["views"][name].value, name


@pytest.mark.parametrize("scenario", bundled_names())
def test_gold_bands_are_exactly_where_the_caption_says(scenario: str) -> None:
    """In every bundled scenario, at the first 60 stage stops: the nodes with a gold band are the
    places :func:`pod_places` lists (the caption's sentences), no more, no fewer."""
    sim = Simulation.from_scenario(scenario, seed=1)
    if not sim.follow:
        pytest.skip("scenario follows no pod")
    ev, stops = sim.start(), 0
    while ev is not None and stops < 60:
        stops += 1
        dot = sim.show("pipeline", renderer="text").dot()
        places = {p.place for p in pod_places(sim.snapshot, sim.follow, _previous(sim))}
        assert set(bands(dot, "follow")) == places, (scenario, ev.seq, ev.stage)
        ev = sim.step()
