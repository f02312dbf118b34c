"""HTML for the explorer's source pane and its banner (crashes, the end of the scenario).

Go: none — kschedlearn-only (DESIGN §9; Python Tutor's code pane). Functions of a
:class:`~kschedlearn.simulation.where.CodeLocation` and of crash records, so the live widget and
the static HTML of a saved notebook show the same thing: the mirrored Python function and, beside
it, its Go twin (fetched from the v1.6.1 tag on first view, then cached:
``kschedlearn.simulation.go_source``). No script is needed: each side shows a window of its
function around the current line, so that line is always in view; long lines wrap.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from kschedlearn.simulation.checks import ProcessCrash
from kschedlearn.simulation.go_source import GoLine
from kschedlearn.simulation.where import GO_BLOB, CodeLocation, SourceLine

#: a function longer than this is shown as its ``def`` line plus a window around the current line
#: (``WINDOW`` lines before and after it), so that the current line is always in view
WINDOW = 5
_PHASES = {
    "running": "running this line",
    "calling": "about to call {calls}",
    "returned": "{calls} has just returned here",
    "entering": "a goroutine is about to run this function (its first statement)",
    "raised": "raised here",
}
# long lines wrap (never cut off at the right); a long function scrolls inside its own box
_PRE = ("margin:0;padding:4px 0;font-family:var(--jp-code-font-family,monospace);font-size:12px;"
        "line-height:1.45;background:var(--jp-cell-editor-background,#f7f7f7);overflow:auto;"
        "white-space:pre-wrap;overflow-wrap:anywhere")
_COLUMN = "flex:1 1 300px;min-width:0"


def _signature_end(lines: Sequence[SourceLine]) -> int:
    head = 1
    while head < len(lines) and not lines[head - 1].text.rstrip().endswith(":"):
        head += 1  # a signature spread over several lines ends with ':'
    return head


def _fold_docstring(lines: Sequence[SourceLine]) -> list[SourceLine]:
    """The docstring shrinks to its first line (the Go link is in the pane's header)."""
    head = _signature_end(lines)
    if head >= len(lines):
        return list(lines)
    first = lines[head].text.strip()
    quote = first[:3]
    if quote not in ('"""', "'''") or (len(first) > 3 and first.endswith(quote)):
        return list(lines)
    end = next((i for i in range(head + 1, len(lines)) if quote in lines[i].text), None)
    if end is None or any(line.current for line in lines[head:end + 1]):
        return list(lines)
    text = lines[head].text.rstrip()
    text = text if len(text) <= 72 else text[:71].rstrip() + "…"
    folded = SourceLine(lines[head].number, text + f" … {quote}", False)
    return [*lines[:head], folded, *lines[end + 1:]]


def _window(lines: Sequence[SourceLine]) -> list[SourceLine | None]:
    """All lines of a short function (docstring folded); else its signature, a gap (None) and
    the lines around the current one."""
    lines = _fold_docstring(lines)
    if len(lines) <= 2 * WINDOW + 4:
        return list(lines)
    current = next((i for i, line in enumerate(lines) if line.current), 0)
    head = _signature_end(lines)
    start, stop = max(current - WINDOW, head), min(current + WINDOW + 1, len(lines))
    shown: list[SourceLine | None] = list(lines[:head])
    if start > head:
        shown.append(None)
    shown.extend(lines[start:stop])
    if stop < len(lines):
        shown.append(None)
    return shown


def _line_html(line: SourceLine | GoLine | None, kind: str = "source") -> str:
    if line is None:
        return f'<span class="kschedlearn-{kind}-gap" style="color:#999;display:block">      ⋮</span>'
    number = f'<span style="color:#999;user-select:none">{line.number:5d}  </span>'
    text = html.escape(line.text) or " "
    if line.current:
        return (f'<span class="kschedlearn-{kind}-current" style="display:block;background:#fff3b0;'
                f'box-shadow:inset 3px 0 0 #f9a825;font-weight:bold">{number}{text}</span>')
    return f'<span class="kschedlearn-{kind}-line" style="display:block">{number}{text}</span>'


def _go_window(lines: Sequence[GoLine]) -> list[GoLine | None]:
    """The Go function whole when short; else its first line and a window around the current one."""
    if len(lines) <= 2 * WINDOW + 4:
        return list(lines)
    current = next((i for i, line in enumerate(lines) if line.current), 0)
    start, stop = max(current - WINDOW, 1), min(current + WINDOW + 1, len(lines))
    shown: list[GoLine | None] = [lines[0]]
    if start > 1:
        shown.append(None)
    shown.extend(lines[start:stop])
    if stop < len(lines):
        shown.append(None)
    return shown


def go_column(loc: CodeLocation) -> str:
    """The right half: the Go twin's text with the Go line of the current statement highlighted,
    or why it cannot be shown (with the link)."""
    text = loc.go_source()
    label = (f'<div style="color:#666;font-size:11px">Go · {html.escape(loc.go_symbol or "?")} · v1.6.1'
             f'{" line " + str(loc.go_line) if loc.go_line else ""}</div>')
    if text.problem:
        url = html.escape(text.url, quote=True)
        body = (f'<div class="kschedlearn-go-unreachable" style="color:#6d4c00;background:#fff8e1;padding:4px 6px">'
                f'{html.escape(text.problem.split(": http")[0])}: '
                f'<a href="{url}" target="_blank" rel="noopener noreferrer" style="overflow-wrap:anywhere">'
                f"{html.escape(text.url)}</a></div>")
        return f'<div class="kschedlearn-go" style="{_COLUMN}">{label}{body}</div>'
    lines = "".join(_line_html(line, "go") for line in _go_window(text.lines))
    return (f'<div class="kschedlearn-go" style="{_COLUMN}">{label}'
            f'<pre class="kschedlearn-go-code" style="{_PRE}">{lines}</pre></div>')


def go_anchor(loc: CodeLocation) -> str:
    """The link to the Go function (new tab), labelled with its symbol and file lines."""
    if not loc.go_url:
        return '<span style="color:#999">no Go twin recorded</span>'
    label = loc.go_url.removeprefix(GO_BLOB)
    symbol = f"{html.escape(loc.go_symbol)} · " if loc.go_symbol else ""
    return (f'<a class="kschedlearn-source-go" href="{html.escape(loc.go_url, quote=True)}" target="_blank" '
            f'rel="noopener noreferrer" style="color:#1565c0;text-decoration:underline;overflow-wrap:anywhere">'
            f"Go: {symbol}{html.escape(label)}</a>")


def source_pane(loc: CodeLocation | None) -> str:
    """The source pane: the mirrored Python function with the current Go-twin statement
    highlighted, beside the Go function it mirrors with the corresponding Go line highlighted;
    above them the phase (which call the trace point stands at), the files and the Go link;
    below them, the fast paths that ran in the mirror's place, if any."""
    if loc is None:
        return ('<div class="kschedlearn-source"><i style="color:#666">No mirrored code runs at this '
                "event (an API server step, the scenario's timeline or a change made by hand).</i></div>")
    lines = loc.source()
    body = "".join(_line_html(line) for line in _window(lines))
    phase = _PHASES.get(loc.phase, loc.phase).format(calls=html.escape(loc.calls or "the call"))
    fast = "".join(
        f'<div class="kschedlearn-source-fast-path" style="color:#4a148c;background:#f3e5f5;padding:2px 6px;'
        f'margin-top:2px">⚡ {html.escape(note)}</div>' for note in loc.fast_paths)
    return (
        '<div class="kschedlearn-source" style="min-width:0;width:100%;line-height:1.4">'
        '<div class="kschedlearn-source-head" style="display:flex;flex-wrap:wrap;gap:2px 12px;'
        'align-items:baseline;margin-bottom:2px">'
        f'<span><b class="kschedlearn-source-function">{html.escape(loc.python_function)}</b>'
        f' <span style="color:#666">{phase} · line {loc.python_line}</span></span>'
        f"<span>{go_anchor(loc)}</span></div>"
        '<div class="kschedlearn-source-columns" style="display:flex;flex-wrap:wrap;gap:6px;align-items:flex-start">'
        f'<div class="kschedlearn-python" style="{_COLUMN}">'
        f'<div style="color:#666;font-size:11px">Python · {html.escape(loc.python_file)}</div>'
        f'<pre class="kschedlearn-source-code" style="{_PRE}">{body}</pre></div>'
        f"{go_column(loc)}</div>{fast}</div>"
    )


def banner(crashes: Sequence[ProcessCrash], cursor: int, ended: str = "") -> str:
    """A crash at the cursor (red), crashes earlier on (amber), the end of the scenario (blue)."""
    parts = []
    for crash in crashes:
        where = ""
        if crash.location is not None:
            # (the compact strip hides this part: the source pane right under it names the same
            # function, line and Go link)
            where = (f"<span class='kschedlearn-crash-where'> — raised in "
                     f"<code>{html.escape(crash.location.python_function)}</code> "
                     f"({html.escape(crash.location.python_file)}:{crash.location.python_line}) · "
                     f"{go_anchor(crash.location)}</span>")
        if crash.seq == cursor:
            parts.append(
                '<div class="kschedlearn-banner kschedlearn-crash" style="background:#fdecea;color:#8a1c1c;'
                'border-left:4px solid #d32f2f;padding:4px 8px;margin:2px 0;line-height:1.5">'
                f"<b>✖ {html.escape(crash.process)} crashed here</b> (event {crash.seq}, t={crash.time:g}s"
                f"{', during ' + html.escape(crash.stage) if crash.stage else ''}): "
                f"<code>{html.escape(crash.error)}</code>{where}</div>")
        else:
            parts.append(
                '<div class="kschedlearn-banner kschedlearn-crashed" style="background:#fff8e1;color:#6d4c00;'
                'border-left:4px solid #f9a825;padding:2px 8px;margin:2px 0;line-height:1.5">'
                f"{html.escape(crash.process)} is not running: it crashed at event {crash.seq} "
                f"(t={crash.time:g}s): <code>{html.escape(crash.error)}</code></div>")
    if ended:
        parts.append(
            '<div class="kschedlearn-banner kschedlearn-ended" style="background:#e3f2fd;color:#0d47a1;'
            f'border-left:4px solid #1976d2;padding:2px 8px;margin:2px 0;line-height:1.5">■ Nothing more to run: {html.escape(ended)}.'
            " Go Back, jump on the timeline, or change what happens below.</div>")
    return "".join(parts)


__all__ = ["source_pane", "banner", "go_anchor", "go_column", "WINDOW"]
