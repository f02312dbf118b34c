"""Line ranges of the top-level declarations of one Go file (for the ``Go:`` link table).

Usage::

    python3 tools/go_ranges.py FILE.go [SYMBOL ...]

Prints ``symbol<TAB>start<TAB>end`` for every top-level ``func``, method, ``type``, ``var`` and
``const`` of the file (or only the named ones), where ``start`` is the first line of the doc
comment directly above the declaration (no blank line between) or the declaration's own line,
and ``end`` is the line of its closing brace or parenthesis. Methods are named ``(T).Name``
(pointer receivers too); each spec of a grouped ``var (...)``/``const (...)``/``type (...)`` is
listed on its own as well as the group (``const (...)`` with its first name).

The file is read from the path given; nothing of Go's source is kept here. It only tokenizes
enough Go (comments, interpreted and raw strings, runes) to match brackets.
kschedlearn-only tool; ``docs/go-links.tsv`` was derived with it from the v1.6.1 tree.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

_DECL = re.compile(r"^(func|type|var|const)\b")
_FUNC = re.compile(r"^func\s*(\(\s*(?:\w+\s+)?\*?\s*(\w+)[^)]*\)\s*)?(\w+)")
_NAMED = re.compile(r"^(type|var|const)\s+(\w+)")


def _bracket_depths(lines: list[str]) -> list[tuple[int, int]]:
    """For each line, the bracket depth ({ ( [ together) at its start and at its end."""
    depth = 0
    out = []
    in_raw = False
    in_block_comment = False
    for line in lines:
        start = depth
        i = 0
        n = len(line)
        while i < n:
            c = line[i]
            if in_raw:
                if c == "`":
                    in_raw = False
                i += 1
                continue
            if in_block_comment:
                if line.startswith("*/", i):
                    in_block_comment = False
                    i += 2
                else:
                    i += 1
                continue
            if line.startswith("//", i):
                break
            if line.startswith("/*", i):
                in_block_comment = True
                i += 2
                continue
            if c == "`":
                in_raw = True
            elif c in "\"'":
                i += 1
                while i < n and line[i] != c:
                    i += 2 if line[i] == "\\" else 1
            elif c in "{([":
                depth += 1
            elif c in "})]":
                depth -= 1
            i += 1
        out.append((start, depth))
    return out


def _doc_start(lines: list[str], decl: int) -> int:
    """Index of the first line of the // comment block directly above ``decl``."""
    i = decl
    while i > 0 and lines[i - 1].startswith("//"):
        i -= 1
    return i


def _end_of(depths: list[tuple[int, int]], first: int, base: int) -> int:
    """Index of the line where the bracket depth returns to ``base`` (the decl's last line)."""
    i = first
    while depths[i][1] > base:
        i += 1
    return i


def declarations(text: str) -> list[tuple[str, int, int]]:
    """``(symbol, start, end)`` with 1-based inclusive lines, in file order."""
    lines = text.splitlines()
    depths = _bracket_depths(lines)
    out: list[tuple[str, int, int]] = []
    for i, line in enumerate(lines):
        if depths[i][0] != 0 or not _DECL.match(line):
            continue
        start = _doc_start(lines, i)
        end = _end_of(depths, i, 0)
        kind = line.split()[0].split("(")[0]
        m = _FUNC.match(line) if kind == "func" else None
        if m is not None:
            name = f"({m.group(2)}).{m.group(3)}" if m.group(1) else m.group(3)
            out.append((name, start + 1, end + 1))
            continue
        grouped = re.match(rf"^{kind}\s*\($", line.rstrip())
        if not grouped:
            named = _NAMED.match(line)
            if named:
                out.append((named.group(2), start + 1, end + 1))
            continue
        members = _group_members(lines, depths, i, end)
        if members:
            out.append((f"{kind} ({members[0][0]}, ...)", start + 1, end + 1))
        out.extend(members)
    return out


def _group_members(lines: list[str], depths: list[tuple[int, int]], open_line: int, close_line: int) -> list[tuple[str, int, int]]:
    members = []
    j = open_line + 1
    while j < close_line:
        text = lines[j].strip()
        if depths[j][0] == 1 and text and not text.startswith("//"):
            m = re.match(r"^(\w+)", text)
            if m:
                k = j
                while k > open_line + 1 and lines[k - 1].strip().startswith("//"):
                    k -= 1
                end = _end_of(depths, j, 1)
                members.append((m.group(1), k + 1, end + 1))
                j = end + 1
                continue
        j += 1
    return members


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if argv else 2
    decls = declarations(Path(argv[0]).read_text(encoding="utf-8"))
    wanted = set(argv[1:])
    for name, start, end in decls:
        if not wanted or name in wanted:
            print(f"{name}\t{start}\t{end}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
