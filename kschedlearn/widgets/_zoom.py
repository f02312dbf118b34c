"""Fit-to-pane, zoom and pan for a diagram shown as inline SVG, in plain HTML and CSS.

Go: none — kschedlearn-only (DESIGN §9). The explorer sets this HTML as an ``ipywidgets.HTML``
value. Zoom is CSS only — a radio group (one hidden radio per zoom level) whose ``:checked``
state picks the SVG's size and which "− / fit / +" labels show — so it works without a kernel
(a saved notebook's widget state, an nbconvert HTML page) and needs no front-end extension.
Pan: when zoomed in, the stage scrolls (scroll bars, wheel, trackpad); the arrow buttons scroll
it by a third of the stage (a one-line inline handler: where inline handlers are blocked, the
scroll bars still pan).

Fit (the default) scales the SVG to the pane's width and at most :data:`FIT_HEIGHT` high,
keeping its aspect ratio, so nothing is below the fold.
"""

from __future__ import annotations

import hashlib
import html
import re

ZOOM_LEVELS = (1.0, 1.5, 2.0, 3.0)
"""Zoom levels as multiples of the fitted width (level 0 is "fit")."""
FIT_HEIGHT = "var(--kschedlearn-fit-height, 70vh)"
"""The tallest a fitted diagram may be (CSS length): the explorer sets
``--kschedlearn-fit-height`` to the height its diagram area has left (see ``explorer._STYLE``);
elsewhere (a saved notebook's HTML) 70 % of the window."""

_PAN = (("◀", "-1,0", "pan left"), ("▶", "1,0", "pan right"), ("▲", "0,-1", "pan up"), ("▼", "0,1", "pan down"))


def _natural_px(svg_body: str) -> float | None:
    """The SVG's own width in CSS px (Graphviz writes ``width="123pt"``; 1pt = 4/3 px)."""
    m = re.search(r'<svg[^>]*\bwidth="([\d.]+)(pt|px)?"', svg_body)
    if m is None:
        return None
    return float(m.group(1)) * (4 / 3 if m.group(2) == "pt" else 1)


def _css(p: str, natural: float | None) -> str:
    # fit never enlarges a small diagram past its own size (its text would be huge)
    cap = f"max-width:min(100%,{natural:.0f}px)" if natural else "max-width:100%"
    rules = [
        f"#{p} .kz-radio{{position:absolute;opacity:0;width:0;height:0;pointer-events:none}}",
        # the zoom bar floats over the diagram's top-right corner: it takes no height of its own
        f"#{p} .kz-bar{{position:absolute;top:0;right:0;z-index:2;display:flex;gap:4px;align-items:center;"
        "padding:1px 3px;font:12px sans-serif;background:rgba(255,255,255,0.85);border-radius:3px}",
        f"#{p} .kz-bar label,#{p} .kz-bar button{{cursor:pointer;border:1px solid #bbb;border-radius:3px;"
        "background:#f4f4f4;padding:0 7px;line-height:20px;font:12px sans-serif;color:#222}",
        f"#{p} .kz-ctl{{display:none;gap:4px;align-items:center}}",
        f"#{p} .kz-pan{{display:none;gap:4px}}",
        f"#{p} .kz-stage{{overflow:auto;max-width:100%}}",
        f"#{p} .kz-stage svg{{display:block;width:100%;height:auto;max-height:{FIT_HEIGHT};{cap};margin:0 auto}}",
    ]
    for i, z in enumerate(ZOOM_LEVELS):
        rules.append(f"#{p}-{i}:checked~.kz-bar .kz-ctl-{i}{{display:inline-flex}}")
        if i:
            rules.append(f"#{p}-{i}:checked~.kz-bar .kz-pan{{display:inline-flex}}")
            rules.append(f"#{p}-{i}:checked~.kz-stage{{height:{FIT_HEIGHT}}}")
            rules.append(f"#{p}-{i}:checked~.kz-stage svg{{width:{z * 100:g}%;max-height:none;max-width:none}}")
    return "".join(rules)


def _controls(p: str) -> str:
    parts = []
    last = len(ZOOM_LEVELS) - 1
    for i, z in enumerate(ZOOM_LEVELS):
        minus = f'<label for="{p}-{i - 1}" title="zoom out" class="kz-out">−</label>' if i else ""
        plus = f'<label for="{p}-{i + 1}" title="zoom in" class="kz-in">+</label>' if i < last else ""
        fit = f'<label for="{p}-0" title="fit to the pane" class="kz-fit">fit</label>' if i else ""
        now = "fit to pane" if i == 0 else f"{z * 100:g}% of fit"
        parts.append(f'<span class="kz-ctl kz-ctl-{i}">{minus}{fit}{plus}'
                     f'<span class="kz-level" style="color:#666">zoom: {now}</span></span>')
    pan = "".join(
        f'<button type="button" title="{t}" class="kz-pan-btn" onclick="var s=this.closest(\'.kschedlearn-zoom\')'
        f'.querySelector(\'.kz-stage\');s.scrollBy({d.split(",")[0]}*s.clientWidth/3,{d.split(",")[1]}*s.clientHeight/3)">{a}</button>'
        for a, d, t in _PAN)
    return "".join(parts) + f'<span class="kz-pan">{pan}</span>'


def zoomable(svg_body: str, *, key: str = "") -> str:
    """HTML showing ``svg_body`` (an ``<svg>`` element) fitted to the pane, with zoom/pan controls.

    The radio group's name and ids come from a hash of the SVG and ``key`` (stable across runs,
    so a rebuilt notebook does not change for nothing).
    """
    p = "kz" + hashlib.sha1((key + "\0" + svg_body).encode("utf-8")).hexdigest()[:10]
    radios = "".join(
        # style="": JupyterLab touches a fresh input's inline style once, leaving style=""; with
        # it already there, the same state always serializes to the same HTML
        f'<input type="radio" class="kz-radio" name="{p}" id="{p}-{i}" value="{z:g}"'
        f'{" checked" if i == 0 else ""} aria-label="zoom {html.escape(f"{z * 100:g}")}%" style="">'
        for i, z in enumerate(ZOOM_LEVELS))
    return (f'<div class="kschedlearn-zoom" id="{p}" style="position:relative">'
            f"<style>{_css(p, _natural_px(svg_body))}</style>{radios}"
            f'<div class="kz-bar">{_controls(p)}</div>'
            f'<div class="kschedlearn-svg kz-stage">{svg_body}</div></div>')


__all__ = ["FIT_HEIGHT", "ZOOM_LEVELS", "zoomable"]
