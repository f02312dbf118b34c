"""The house Digraph's ``node`` / ``edge`` / ``attr`` / ``subgraph`` are the library's.

kschedlearn-only (issue 25): ``viz/dot.py`` calls the library's own method bodies without its
positional-argument check when the check would pass, and builds a ``subgraph()`` context without
copying the parent's body first. The same calls on a ``graphviz.Digraph`` and on the house one
give the same DOT text; where the library warns (too many positional arguments) the house one
steps aside to the checked method and warns the same.
"""

from __future__ import annotations

import warnings

import graphviz
import pytest

from kschedlearn.viz import dot


def _draw(g: graphviz.Digraph) -> str:
    g.attr(rankdir="LR", label="a \"title\"")
    g.attr("node", shape="box")
    g.node("a", "A <1>", color="red")
    g.node("b", label=graphviz.nohtml("<b>"), _attributes={"style": "dashed"})
    g.edge("a:p:n", "b", "ab", weight="2")
    with g.subgraph() as r:
        r.attr(rank="same")
        r.node("a")
        r.node("c", fontsize="9")
    with g.subgraph(name="cluster_x", graph_attr={"color": "blue"}) as c:
        c.edge("c", "d")
    inner = graphviz.Digraph(name="inner") if type(g) is graphviz.Digraph else dot.Digraph(name="inner")
    inner.node("e")
    g.subgraph(inner)
    g.node("f")
    return g.source


def test_the_same_calls_give_the_library_s_text() -> None:
    assert _draw(dot.Digraph("g")) == _draw(graphviz.Digraph("g"))


def test_a_subgraph_starts_empty_and_joins_at_the_end_of_its_block() -> None:
    g = dot.Digraph("g")
    g.node("x")
    with g.subgraph() as r:
        assert r.body == [] and g.body == ["\tx\n"]
        r.node("y")
    assert g.body == ["\tx\n", "\t{\n", "\t\ty\n", "\t}\n"]


@pytest.mark.parametrize("call", [
    lambda g: g.node("a", "label", {"color": "red"}),
    lambda g: g.edge("a", "b", "label", {"color": "red"}),
    lambda g: g.attr("node", {"shape": "box"}),
])
def test_too_many_positional_arguments_warn_as_in_the_library(call) -> None:
    texts = []
    for cls in (graphviz.Digraph, dot.Digraph):
        g = cls("g")
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            call(g)
        assert [type(w.message) for w in caught] == [DeprecationWarning]
        texts.append((g.source, str(caught[0].message)))
    assert texts[0] == texts[1]


def _same_rank_by_the_library(g: graphviz.Digraph, nodes: list[str]) -> None:
    with g.subgraph() as r:
        r.attr(rank="same")
        for node in nodes:
            r.node(node)


@pytest.mark.parametrize("attrs", [{}, {"graph_attr": {"color": "blue"}}, {"node_attr": {"shape": "box"}},
                                   {"edge_attr": {"style": "dashed"}}], ids=["plain", "graph", "node", "edge"])
def test_same_rank_adds_the_library_s_subgraph_lines(attrs: dict[str, dict[str, str]]) -> None:
    """``dot.same_rank`` writes the lines of a ``rank=same`` subgraph without building it: the same
    text as the library's subgraph with the same nodes (names that need quoting, a port-like
    name, a keyword), and through the library when the graph has attribute mappings to copy."""
    nodes = ["a", "node with space", "g0", "edge", 'q"uote', "a:b", "ünïcode"]
    house, library = dot.Digraph("g", **attrs), graphviz.Digraph("g", **attrs)
    for g in (house, library):
        g.attr(rankdir="TB")
        g.node("x")
    dot.same_rank(house, nodes)
    _same_rank_by_the_library(library, nodes)
    dot.same_rank(house, ["x"])
    _same_rank_by_the_library(library, ["x"])
    dot.same_rank(library, ["x"])  # not the house graph: the library's own subgraph
    _same_rank_by_the_library(house, ["x"])
    assert house.source == library.source
    assert house.source.count("rank=same") == 3
