"""The house ``graphviz.Digraph``: the same DOT text, quoted without the library's per-call overhead.

Go: none — kschedlearn-only (DESIGN §8). Every view builds its diagram through
``graphviz.Digraph.node`` / ``edge`` / ``attr``; each call quotes its name and every attribute
with ``graphviz.quoting.quote`` (two regular expressions per string, behind a decorator that
checks positional arguments), and the views' attribute names and values repeat from node to
node and step to step. In the suite's every-view-at-every-step tests that quoting was half the
CPU (issue 25). :class:`Digraph` is a ``graphviz.Digraph`` (``source``, ``pipe``, subgraphs and
every other method are the library's) whose quoting hooks — the ``Quote`` mixin's ``_quote``,
``_quote_edge``, ``_a_list`` and ``_attr_list`` — remember the library's answer for each string
(the cache is per string *and* type, so a ``graphviz.nohtml`` string is never taken for the
plain one) and assemble attribute lists exactly as ``graphviz.quoting.a_list`` does.
``tests/viz/test_dot.py`` checks that every view's DOT text is the library's, byte for byte.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import graphviz
from graphviz import quoting


@functools.lru_cache(maxsize=16384, typed=True)
def quote(identifier: str) -> str:
    """``graphviz.quoting.quote``'s answer for ``identifier``, remembered."""
    return quoting.quote(identifier)


def quote_edge(identifier: str) -> str:
    """``graphviz.quoting.quote_edge`` (``node:port:compass``) with the remembered quoting."""
    node, _, rest = identifier.partition(":")
    parts = [quote(node)]
    if rest:
        port, _, compass = rest.partition(":")
        parts.append(quote(port))
        if compass:
            parts.append(compass)
    return ":".join(parts)


def _items(mapping: Any) -> Iterable[tuple[str, Any]]:
    # as graphviz's mapping_items: a plain dict's items sorted, any other mapping's in its order
    return sorted(mapping.items()) if type(mapping) is dict else mapping.items()


def a_list(label: str | None = None, kwargs: Mapping[str, Any] | None = None,
           attributes: Mapping[str, Any] | Iterable[tuple[str, Any]] | None = None) -> str:
    """``graphviz.quoting.a_list``: ``label=… k=v …``, ``None`` values left out."""
    result = [f"label={quote(label)}"] if label is not None else []
    if kwargs:
        result += [f"{quote(k)}={quote(v)}" for k, v in _items(kwargs) if v is not None]
    if attributes:
        pairs = _items(attributes) if hasattr(attributes, "items") else attributes
        result += [f"{quote(k)}={quote(v)}" for k, v in pairs if v is not None]
    return " ".join(result)


def attr_list(label: str | None = None, kwargs: Mapping[str, Any] | None = None,
              attributes: Mapping[str, Any] | Iterable[tuple[str, Any]] | None = None) -> str:
    """``graphviz.quoting.attr_list``: `` [a_list]``, or ``""`` when there is nothing to list."""
    content = a_list(label, kwargs=kwargs, attributes=attributes)
    return f" [{content}]" if content else ""


def _unchecked(method: Callable[..., Any], supported: int) -> Callable[..., Any]:
    """``method`` (a ``graphviz.Digraph`` method behind the library's positional-argument check)
    calling the library's own body at once when at most ``supported`` arguments come
    positionally — the check would pass — and the checked method otherwise (which warns)."""
    body = method.__wrapped__

    @functools.wraps(body)
    def call(self: graphviz.Digraph, *args: Any, **kwargs: Any) -> Any:
        if len(args) > supported:
            return method(self, *args, **kwargs)
        return body(self, *args, **kwargs)

    return call


_library_subgraph = _unchecked(graphviz.Digraph.subgraph, 1)


class Digraph(graphviz.Digraph):
    """``graphviz.Digraph`` with the remembered quoting (see the module docstring), whose
    ``node``, ``edge``, ``attr`` and ``subgraph`` skip the library's positional-argument check
    when it would pass (a decorator around each call: a quarter of a view's time), and whose
    ``subgraph()`` context does not copy the parent's body first."""

    _quote = staticmethod(quote)
    _quote_edge = staticmethod(quote_edge)
    _a_list = staticmethod(a_list)
    _attr_list = staticmethod(attr_list)

    node = _unchecked(graphviz.Digraph.node, 2)
    edge = _unchecked(graphviz.Digraph.edge, 3)
    attr = _unchecked(graphviz.Digraph.attr, 1)

    def subgraph(self, graph: graphviz.Digraph | None = None, *args: Any, **kwargs: Any) -> Any:
        """``graphviz.Digraph.subgraph``. Called without a graph, the library builds the new
        subgraph from a copy of this graph's settings *and body*, then replaces the body with
        the one asked for (none): the body is left out of that copy here (the same subgraph, in
        O(1) instead of O(lines drawn so far)); the subgraph is added to ``self.body`` when its
        ``with`` block ends, as in the library."""
        if graph is not None:
            return _library_subgraph(self, graph, *args, **kwargs)
        body, self.body = self.body, []
        try:
            return _library_subgraph(self, graph, *args, **kwargs)
        finally:
            self.body = body


def same_rank(g: graphviz.Digraph, nodes: Iterable[str]) -> None:
    """``with g.subgraph() as r: r.attr(rank="same")``, then ``r.node(n)`` for each of ``nodes``.

    On the house :class:`Digraph` the subgraph's lines are written from the library's own line
    formats without building it: a ``Digraph`` each (its ``__init__`` and the ``subgraph``
    context manager were a seventh of the startup view, which asks for one per row). Any other
    graph, or one with graph / node / edge attribute mappings (the subgraph would copy them),
    goes through the library."""
    if type(g) is not Digraph or g.graph_attr or g.node_attr or g.edge_attr:
        with g.subgraph() as r:
            r.attr(rank="same")
            for node in nodes:
                r.node(node)
        return
    inner = [g._attr_plain(g._a_list(None, kwargs={"rank": "same"})), *(g._node(g._quote(node), "") for node in nodes)]
    # (a subgraph's lines are indented once more inside its parent, as the library does)
    g.body += [f"\t{line}" for line in (g._subgraph_plain(""), *inner, g._tail)]


__all__ = ["Digraph", "a_list", "attr_list", "quote", "quote_edge", "same_rank"]
