"""The house Digraph (``viz/dot.py``) writes the graphviz library's DOT text, byte for byte.

kschedlearn-only (issue 25): the remembered quoting against ``graphviz.quoting`` for any string
(quotes, backslashes, HTML-like labels, ``nohtml`` strings, keywords, ports), and every view of
two bundled scenarios at every stop built both ways.
"""

from __future__ import annotations

import collections
import warnings

import graphviz
import pytest
from graphviz import quoting
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.hypothesis_budget import examples

from kschedlearn import Simulation
from kschedlearn.viz import VIEWS, _common, dot

_TEXT = st.one_of(
    st.text(alphabet='ab_Z09.-"\\<>: \n{}|', max_size=12),
    st.sampled_from(["node", "Edge", "graph", "subgraph", "strict", "-4.2", ".42", "<<b>x</b>>", "", "a:b:c"]),
)
_STRINGS = st.one_of(_TEXT, _TEXT.map(graphviz.nohtml))
_ATTRS = st.dictionaries(st.sampled_from(["shape", "label", "color", "style", "node", "a b"]),
                         st.one_of(st.none(), _STRINGS), max_size=4)


@settings(max_examples=examples(300), deadline=None)
@given(text=_STRINGS, label=st.one_of(st.none(), _STRINGS), kwargs=_ATTRS, attributes=_ATTRS,
       ordered=st.booleans())
def test_quoting_is_the_library_s(text: str, label: str | None, kwargs: dict[str, str | None],
                                  attributes: dict[str, str | None], ordered: bool) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a string ending in an odd backslash warns, both ways
        assert dot.quote(text) == quoting.quote(text)
        assert dot.quote(text) == dot.quote(text)  # remembered
        assert dot.quote_edge(text) == quoting.quote_edge(text)
        mapping = collections.OrderedDict(reversed(list(kwargs.items()))) if ordered else kwargs
        for attrs_ in (attributes, list(attributes.items())):
            assert dot.a_list(label, kwargs=mapping, attributes=attrs_) == \
                quoting.a_list(label, kwargs=mapping, attributes=attrs_)
            assert dot.attr_list(label, kwargs=mapping, attributes=attrs_) == \
                quoting.attr_list(label, kwargs=mapping, attributes=attrs_)


def test_a_nohtml_string_is_not_taken_for_the_plain_one() -> None:
    assert dot.quote("<b>") == "<b>"
    assert dot.quote(graphviz.nohtml("<b>")) == '"<b>"'
    assert dot.quote("<b>") == "<b>"


@pytest.mark.parametrize("name", ["three-nodes", pytest.param("ha-failover", marks=pytest.mark.slow)])
def test_every_view_s_dot_is_the_library_s(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    sim = Simulation.from_scenario(name, seed=1)
    ev = sim.start()
    compared = 0
    while ev is not None:
        for view in VIEWS:
            house = sim.show(view, renderer="text").graph
            with monkeypatch.context() as m:
                m.setattr(_common, "Digraph", graphviz.Digraph)
                library = sim.show(view, renderer="text").graph
            assert type(house) is dot.Digraph and type(library) is graphviz.Digraph
            assert house.source == library.source, (name, ev.seq, view)
            compared += 1
        ev = sim.step()
    assert compared > 100
