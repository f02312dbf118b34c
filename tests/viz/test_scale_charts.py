"""Notebook 14's charts: SVG bars on one scale, the cost tree's DOT (kschedlearn/viz/scale.py).

Go: none — kschedlearn-only. DOT text and SVG structure are compared, never pixels.
"""

from __future__ import annotations

import re

from kschedlearn.simulation.scale import StageProfile
from kschedlearn.viz.scale import bar_chart, cost_structure


def test_bars_share_one_scale_and_keep_colours_per_label() -> None:
    chart = bar_chart("t", [("a", [("x", 1.0), ("y", 4.0)]), ("b", [("x", 2.0)])], "ms")
    svg = chart.svg()
    widths = [float(w) for w in re.findall(r'<rect x="\d+" y="\d+" width="([\d.]+)"', svg)]
    assert widths[1] == max(widths) and widths[0] * 4 == widths[1] and widths[2] * 2 == widths[1]
    fills = re.findall(r'<rect x="\d+" y="\d+" width="[\d.]+" height="\d+" fill="([^"]+)"', svg)
    assert fills[0] == fills[2] != fills[1]
    assert chart._repr_mimebundle_()["image/svg+xml"] == svg and "4.00 ms" in svg


def test_bar_labels_are_escaped() -> None:
    assert "a&lt;b" in bar_chart("<t>", [("g", [("a<b", 1.0)])], "ms").svg()


def test_cost_structure_shows_each_stage_with_its_measured_cost() -> None:
    p = StageProfile("s", 10, 100, 2, (("SelectorSpreadPriority", 0.004), ("predicates", 0.002),
                                        ("LeastRequestedPriority", 0.001), ("other", 0.001)), 0.008)
    dot = cost_structure([p]).source
    assert "O(all bound pods)" in dot and "10 nodes / 100 pods: 2.00 ms/pod" in dot  # SelectorSpread: 4 ms / 2 pods
    assert "LeastRequested" in dot and "Parallelize(16, nodes)" in dot
