"""The text renderer escapes the DOT source whole and splits it: the same SVG as line by line.

kschedlearn-only (issue 25): ``render_text`` used to escape each line on its own; escaping the
whole source once gives the same lines (``html.escape`` touches no line break). Compared with
the line-by-line way on generated text (every line break ``splitlines`` knows, markup, quotes).
"""

from __future__ import annotations

import html

from hypothesis import given, settings
from hypothesis import strategies as st
from tests.hypothesis_budget import examples

from kschedlearn.viz.render import render_text

_TEXT = st.lists(st.sampled_from(list("ab <>&\"' {}|\\") + ["\n", "\r", "\r\n", "\x0b", "\x0c", "\x1c",
                                                             "\x85", "\u2028", "é"]), max_size=40).map("".join)


def _line_by_line(dot_source: str, note: str = "") -> str:
    lines = ([f"({note})"] if note else []) + dot_source.splitlines()
    width = max((len(line) for line in lines), default=10) * 7 + 20
    height = len(lines) * 15 + 20
    body = "\n".join(f'<tspan x="10" dy="15">{html.escape(line) or " "}</tspan>' for line in lines)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}">\n'
            f'<text x="10" y="5" font-family="monospace" font-size="12" xml:space="preserve">\n'
            f"{body}\n</text>\n</svg>\n")


@settings(max_examples=examples(300), deadline=None)
@given(source=_TEXT, note=st.one_of(st.just(""), _TEXT.filter(lambda t: not any(c in t for c in "\n\r\x0b\x0c\x1c\x85\u2028"))))
def test_render_text_is_the_line_by_line_svg(source: str, note: str) -> None:
    assert render_text(source, note) == _line_by_line(source, note)


def test_a_note_and_an_empty_source() -> None:
    assert render_text("", "no dot") == _line_by_line("", "no dot")
    assert render_text("digraph { a -> b [label=\"<x>\"] }\n\n") == _line_by_line("digraph { a -> b [label=\"<x>\"] }\n\n")
