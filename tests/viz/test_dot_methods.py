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
