"""Charts for notebook 14 (where the time goes as the cluster grows).

Go: none — kschedlearn-only. Two drawings over plain data from
:mod:`kschedlearn.simulation.scale`:

- :class:`BarChart`: grouped horizontal bars written straight as SVG. The project draws with
  Graphviz only, and the in-process WebAssembly Graphviz has no HTML labels (see
  ``_common.record_table``), so a bar whose length means something is simpler as a few SVG
  rectangles than as a layout problem. Jupyter shows it through ``_repr_mimebundle_``
  (``image/svg+xml``), so a saved notebook keeps it.
- :func:`cost_structure`: the call tree of one ``Schedule`` (Graphviz), each box saying how its
  work grows and what it cost per pod at the measured sizes.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

import attrs
import graphviz

from kschedlearn.viz._common import esc, new_digraph

_PALETTE = ("#3f51b5", "#ef6c00", "#2e7d32", "#8e24aa", "#00838f", "#c62828", "#6d4c41", "#546e7a",
            "#9e9d24", "#ad1457", "#0277bd")
_LABEL_W, _BAR_W, _VALUE_W, _ROW_H = 190, 330, 140, 16


@attrs.frozen
class BarChart:
    """Grouped horizontal bars on one scale: ``groups`` = ((group title, ((label, value), ...)), ...).

    A label keeps its colour across groups, so the same stage can be followed from size to size.
    """

    title: str
    groups: tuple[tuple[str, tuple[tuple[str, float], ...]], ...]
    unit: str

    def svg(self) -> str:
        top = max((v for _, rows in self.groups for _, v in rows), default=0.0) or 1.0
        colors: dict[str, str] = {}
        parts: list[str] = []
        y = 22
        parts.append(f'<text x="4" y="14" font-weight="bold">{html.escape(self.title)}</text>')
        for group, rows in self.groups:
            y += 6
            parts.append(f'<text x="4" y="{y + 10}" font-style="italic">{html.escape(group)}</text>')
            y += _ROW_H
            for label, value in rows:
                color = colors.setdefault(label, _PALETTE[len(colors) % len(_PALETTE)])
                width = max(1.0, _BAR_W * value / top)
                parts.append(f'<text x="{_LABEL_W - 6}" y="{y + 11}" text-anchor="end">{html.escape(label)}</text>'
                             f'<rect x="{_LABEL_W}" y="{y + 2}" width="{width:.1f}" height="{_ROW_H - 4}" fill="{color}"/>'
                             f'<text x="{_LABEL_W + width + 4:.1f}" y="{y + 11}">{value:,.2f} {html.escape(self.unit)}</text>')
                y += _ROW_H
        w = _LABEL_W + _BAR_W + _VALUE_W
        return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{y + 6}" viewBox="0 0 {w} {y + 6}" '
                f'font-family="Helvetica,Arial,sans-serif" font-size="11"><rect width="100%" height="100%" fill="white"/>'
                + "".join(parts) + "</svg>")

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, str]:
        return {"image/svg+xml": self.svg(), "text/plain": f"<kschedlearn BarChart {self.title!r}>"}


def bar_chart(title: str, groups: Sequence[tuple[str, Sequence[tuple[str, float]]]], unit: str) -> BarChart:
    """A :class:`BarChart` from any sequences."""
    return BarChart(title, tuple((g, tuple((str(k), float(v)) for k, v in rows)) for g, rows in groups), unit)


def _ms(profiles: Sequence[Any], stages: Sequence[str]) -> str:
    cells = []
    for p in profiles:
        cells.append(f"{p.nodes:,} nodes / {p.bound:,} pods: {sum(p.per_pod_ms(s) for s in stages):.2f} ms/pod")
    return "\\l".join(esc(c) for c in cells) + "\\l"


def cost_structure(profiles: Sequence[Any]) -> graphviz.Digraph:
    """One ``Schedule`` call as a tree: predicates per node, map functions per node, SelectorSpread
    per node × its pods, InterPodAffinity over every node's pods with affinity terms — with the measured
    milliseconds per pod of each :class:`~kschedlearn.simulation.scale.StageProfile` in ``profiles``."""
    stages = {s for p in profiles for s, _ in p.seconds}
    spread = ["SelectorSpreadPriority"]
    ipa = ["InterPodAffinityPriority"]
    maps = sorted(s for s in stages if s.endswith("Priority") or s == "BalancedResourceAllocation")
    maps = [s for s in maps if s not in spread + ipa]
    g = new_digraph("cost", rankdir="LR", label="one Schedule(pod): what each part walks, and what it cost")
    g.attr("node", shape="box", fontname="Helvetica", fontsize="10")
    g.node("schedule", "genericScheduler.Schedule\\n(once per pod)")
    g.node("pred", "findNodesThatFit|Parallelize(16, nodes): every predicate on every node\\lO(nodes × predicates)\\l|"
           + _ms(profiles, ["predicates", "predicate metadata"]), shape="record")
    g.node("maps", "PrioritizeNodes: map functions|" + esc(", ".join(m.replace("Priority", "") for m in maps))
           + "\\lParallelize(16, nodes): O(nodes × priorities)\\l|" + _ms(profiles, maps), shape="record")
    g.node("spread", "SelectorSpread (old-style Function)|for each node: for each pod on it: match the\\l"
           "Service and RC selectors — O(all bound pods)\\l|" + _ms(profiles, spread),
           shape="record", style="filled", fillcolor="#ffe0b2")
    g.node("ipa", "InterPodAffinity (old-style Function)|every node: its pods with affinity terms\\l"
           "(all its pods if the pod has terms) — O(nodes + those pods)\\l|" + _ms(profiles, ipa), shape="record")
    g.node("rest", "the rest|node list, snapshot, score sums, selectHost, assume\\l|" + _ms(profiles, ["other"]),
           shape="record")
    for target in ("pred", "maps", "spread", "ipa", "rest"):
        g.edge("schedule", target)
    return g
