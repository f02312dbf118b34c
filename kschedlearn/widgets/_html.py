"""Small HTML builders for the explorer: inline SVG, the narration line and the trace log.

Go: none — kschedlearn-only (DESIGN §9). Pure functions of trace events, so they are easy to
test and cheap to call on every step.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from kschedlearn.trace import TraceEvent
from kschedlearn.widgets._zoom import zoomable

_TD = ' style="padding:0 6px;text-align:left"'
GO_SOURCE_PREFIX = "https://github.com/kubernetes/kubernetes/blob/v1.6.1/"


def inline_svg(svg: str, key: str = "") -> str:
    """SVG text ready to be set as ``innerHTML``: the XML prolog and DOCTYPE are dropped
    (they mean nothing inside HTML), and the drawing is fitted to the pane with zoom and pan
    controls (:func:`kschedlearn.widgets._zoom.zoomable`)."""
    start = svg.find("<svg")
    body = svg[start:] if start >= 0 else svg
    return zoomable(body, key=key)


def go_link(go_ref: str) -> str:
    """A link to the Go source at v1.6.1, labelled with the path and lines (empty if none)."""
    if not go_ref:
        return ""
    label = go_ref.removeprefix(GO_SOURCE_PREFIX)
    return (f'<a href="{html.escape(go_ref, quote=True)}" target="_blank" rel="noopener noreferrer" '
            f'class="kschedlearn-go-link" style="color:#1565c0;text-decoration:underline">Go source: {html.escape(label)}</a>')


def narration(event: TraceEvent | None, *, finished: bool = False) -> str:
    """What just happened and why, in plain words, with a link to the Go lines doing it."""
    if event is None:
        return "<i>Nothing has happened yet: press Step.</i>"
    parts = [
        f'<div class="kschedlearn-narration">'
        f"<b>#{event.seq} · t={event.time:g}s · {html.escape(event.stage)}</b>",
    ]
    if event.goroutine:
        parts.append(f" <span style='color:#666'>({html.escape(event.goroutine)})</span>")
    if event.why:
        parts.append(f"<div>{html.escape(event.why)}</div>")
    if event.message:
        parts.append(f"<div><code>{html.escape(event.message)}</code></div>")
    link = go_link(event.go_ref)
    if link:
        parts.append(f"<div>{link}</div>")
    if finished:
        parts.append("<div><i>The scenario has run to its end.</i></div>")
    parts.append("</div>")
    return "".join(parts)


def trace_window(count: int, cursor: int, size: int) -> range:
    """Indices of up to ``size`` events around ``cursor``: mostly the past, a little future."""
    if count <= 0 or size <= 0:
        return range(0)
    ahead = min(size // 4, max(count - 1 - cursor, 0))
    stop = min(count, max(cursor, 0) + ahead + 1)
    start = max(0, stop - size)
    return range(start, stop)


def trace_log(events: Sequence[TraceEvent], cursor: int, size: int = 12) -> str:
    """A small table of the events around the cursor; the current one is highlighted."""
    rows = []
    for i in trace_window(len(events), cursor, size):
        ev = events[i]
        style = "background:#fff3b0;font-weight:bold" if i == cursor else ("color:#999" if i > cursor else "")
        rows.append(
            f'<tr style="{style}"><td{_TD}>{ev.seq}</td><td{_TD}>{ev.time:g}</td>'
            f"<td{_TD}>{html.escape(ev.stage)}</td><td{_TD}>{html.escape(ev.message)}</td></tr>"
        )
    return (
        '<table class="kschedlearn-trace" style="font-family:monospace;font-size:11px;'
        'line-height:1.3;border-collapse:collapse">'
        f"<tr><th{_TD}>#</th><th{_TD}>t (s)</th><th{_TD}>stage</th><th{_TD}>message</th></tr>"
        + "".join(rows) + "</table>"
    )
