"""A small Markdown-to-HTML renderer for the course's own short texts (prompts, verdicts).

Go: none — kschedlearn-only (issue 22 item 5: predict prompts and verdicts render Markdown, no
raw backticks). It knows only what the project's texts use: `code`, **bold**, *italic*,
[links](url), paragraphs (blank lines) and ``- `` bullet lists. Everything else is escaped, so a
pod name or an error message can never inject HTML.
"""

from __future__ import annotations

import html
import re

_CODE = re.compile(r"`([^`]+)`")
_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_ITALIC = re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])")
_CODE_STYLE = "background:rgba(0,0,0,0.05);padding:0 2px;border-radius:2px;font-size:92%"


def inline(text: str) -> str:
    """One line of Markdown as inline HTML (escaped first; code spans are left alone)."""
    out: list[str] = []
    pos = 0
    for m in _CODE.finditer(text):
        out.append(_spans(text[pos:m.start()]))
        out.append(f'<code style="{_CODE_STYLE}">{html.escape(m.group(1))}</code>')
        pos = m.end()
    out.append(_spans(text[pos:]))
    return "".join(out)


def _spans(text: str) -> str:
    escaped = html.escape(text, quote=False)

    def link(m: re.Match[str]) -> str:
        url = html.unescape(m.group(2))
        if not url.startswith(("https://", "http://", "../", "./")) and not re.match(r"^[\w.-]+\.ipynb", url):
            return m.group(0)
        return (f'<a href="{html.escape(url, quote=True)}" target="_blank" rel="noopener noreferrer">'
                f"{m.group(1)}</a>")

    escaped = _LINK.sub(link, escaped)
    escaped = _BOLD.sub(r"<b>\1</b>", escaped)
    return _ITALIC.sub(r"<i>\1</i>", escaped)


def to_html(text: str) -> str:
    """Paragraphs and ``- `` bullet lists of inline Markdown."""
    blocks: list[str] = []
    for para in re.split(r"\n\s*\n", text.strip()):
        lines = [line.strip() for line in para.splitlines() if line.strip()]
        if lines and all(line.startswith("- ") for line in lines):
            items = "".join(f"<li>{inline(line[2:])}</li>" for line in lines)
            blocks.append(f'<ul style="margin:2px 0 2px 18px;padding:0">{items}</ul>')
        elif lines:
            blocks.append(f'<p style="margin:2px 0">{inline(" ".join(lines))}</p>')
    return "".join(blocks)


def plain(text: str) -> str:
    """The text without Markdown marks (for places that show plain text, e.g. radio labels)."""
    text = _LINK.sub(r"\1", text)
    text = _BOLD.sub(r"\1", text)
    text = _ITALIC.sub(r"\1", text)
    return _CODE.sub(r"\1", text)


__all__ = ["inline", "plain", "to_html"]
