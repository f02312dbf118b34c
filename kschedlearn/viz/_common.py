"""Shared drawing helpers: colours, HTML-label cells, text bars, the size cap.

Go: none — kschedlearn-only (DESIGN §8). Everything here is a pure function of its arguments.
"""

from __future__ import annotations

from collections.abc import Sequence

from typing import Any

import graphviz

from kschedlearn.viz.dot import Digraph

MAX_NODES = 150
"""Whole-cluster views draw at most this many cluster nodes and summarise the rest."""
MAX_ROWS = 12
"""Rows shown per queue / per node table before "… and N more"."""

FOLLOW_BG = "#ffe066"  # the followed pod, wherever it is
NEW_FG = "#c0392b"  # items that appeared since the previous snapshot
ACTIVE = "#1f77b4"  # the step that just happened
CHANGED_BG = "#dbe9f6"  # a row the step just taken changed (with an ACTIVE outline)
VISITED_BG = "#d8ecd8"
IDLE_FG = "#888888"
FONT = "Helvetica"


def new_digraph(name: str, *, rankdir: str = "LR", label: str = "") -> graphviz.Digraph:
    """A Digraph with the house style (fonts, plain-text node shapes for HTML tables)."""
    g = Digraph(name)
    g.attr(rankdir=rankdir, fontname=FONT, fontsize="11", labelloc="t")
    if label:
        g.attr(label=label)
    g.attr("node", fontname=FONT, fontsize="10")
    g.attr("edge", fontname=FONT, fontsize="9")
    return g


def thinned_caption(snap: Any, parts: tuple[str, ...] | None = None) -> str:
    """The caption's line saying which drawn parts a thinned snapshot did not refresh ("" when
    none): ``parts`` the parts the view draws ("cache", "queues"; None: any)."""
    shown = tuple(p for p in getattr(snap, "thinned", ()) if parts is None or p.split(".")[0] in parts)
    if not shown:
        return ""
    names = " and ".join("the cache" if p == "cache" else f"the {p.split('.', 1)[1]} queue" for p in shown)
    return f"\\nthinned: {names} as at event #{snap.thinned_as_of} ({snap.thinned_why})"


FOLLOW_MARK = "▶ "  # prefixes the followed pod's cells (record labels cannot colour one cell)
NEW_MARK = "✚ "  # prefixes items new since the previous snapshot


def esc(text: object) -> str:
    """Escape text for a record label field (``{}|<>`` and quotes are special there)."""
    out = str(text)
    for ch in "\\{}|<>\"":
        out = out.replace(ch, "\\" + ch)
    return out.replace("\n", "\\n")


def mark(text: object, *, new: bool = False, follow: bool = False) -> str:
    """One table cell: escaped text with the follow / new markers in front."""
    return (FOLLOW_MARK if follow else "") + (NEW_MARK if new else "") + esc(text)


ROW_FOLLOW = "follow"
"""Row mark: the followed pod is here (filled gold)."""
ROW_CHANGED = "changed"
"""Row mark: this row changed in the step just taken (outlined in the active colour)."""
ROWS_ATTR = "kschedlearn_rows"
"""DOT node attribute naming the record fields to highlight (read by ``render.highlight_rows``)."""


def record_table(title: str, header: list[str], rows: list[list[str]], *, footer: list[str] = (),
                 rankdir: str = "TB", empty: str = "(empty)",
                 row_marks: Sequence[str] | None = None) -> dict[str, str]:
    """Node attributes for a ``shape=record`` table: a title, aligned columns, footer lines.

    Cells must already be escaped (use :func:`mark`). Differs from the obvious HTML-table design:
    the in-process WebAssembly Graphviz has no HTML-label support, so tables are records laid out
    column by column (so rows line up). Highlighting: without ``row_marks``, by markers plus the
    node's colours (gold fill when a cell follows the pod, a red border when something is new);
    with ``row_marks`` (one string per row: ``""``, ``"follow"``, ``"changed"`` or
    ``"follow+changed"``) the node is left plain and :data:`ROWS_ATTR` lists each marked row's
    fields, which the renderer paints as one band per row (``render.highlight_rows``).
    """
    marks = list(row_marks) if row_marks is not None and rows else None
    if not rows:
        rows = [[esc(empty)] + [" "] * (len(header) - 1)] if header else [[esc(empty)]]
    ncols = max(len(header), max(len(r) for r in rows))
    columns = []
    for j in range(ncols):
        head = [esc(header[j])] if j < len(header) else []
        cells = head + [(r[j] if j < len(r) and r[j] else " ") for r in rows]
        columns.append("{" + "|".join(cells) + "}")
    parts = [esc(title), "{" + "|".join(columns) + "}"] + [esc(line) for line in footer]
    body = "|".join(parts)
    label = "{" + body + "}" if rankdir in ("TB", "BT") else body
    attrs = {"label": label, "shape": "record"}
    if row_marks is not None:
        if marks:
            per_col = len(rows) + (1 if header else 0)
            offset = 1 + (1 if header else 0)
            spec = [(m, [offset + j * per_col + r for j in range(ncols)])
                    for r, m in enumerate(marks) if m]
            if spec:
                attrs[ROWS_ATTR] = ";".join(f"{m}:{','.join(map(str, leaves))}" for m, leaves in spec)
        return attrs
    flat = " ".join(" ".join(r) for r in rows)
    if FOLLOW_MARK.strip() in flat:
        attrs.update(style="filled", fillcolor=FOLLOW_BG)
    if NEW_MARK.strip() in flat:
        attrs.update(color=NEW_FG, penwidth="2")
    return attrs


def cap(items: Sequence[str], limit: int, keep: str | None = None) -> tuple[list[str], int]:
    """The first ``limit`` items (always including ``keep`` if present) and how many were cut."""
    shown = list(items[:limit])
    if keep is not None and keep in items and keep not in shown and shown:
        shown[-1] = keep
    return shown, len(items) - len(shown)


def text_bar(used: float, total: float, width: int = 10) -> str:
    """``[######----]`` with the used fraction of ``total`` (over-commit shows ``!``)."""
    if total <= 0:
        return "[" + "?" * width + "]"
    filled = min(width, round(width * used / total))
    over = "!" if used > total else ""
    return "[" + "#" * filled + "-" * (width - filled) + "]" + over


def fmt_time(t: float | None) -> str:
    """Virtual seconds, short."""
    return "-" if t is None else f"{t:.1f}s"


def fmt_mem(b: int) -> str:
    """Bytes as Mi/Gi (binary, like kubectl)."""
    for unit, size in (("Gi", 1 << 30), ("Mi", 1 << 20), ("Ki", 1 << 10)):
        if b >= size:
            value = b / size
            return f"{value:.0f}{unit}" if value == int(value) else f"{value:.1f}{unit}"
    return str(b)


def node_id(prefix: str, name: str) -> str:
    """A DOT node id; never contains ``:`` (in an edge, ``a:b`` means node ``a``, port ``b``)."""
    return f"{prefix}__{name}".replace(":", "_")
