"""Fill-in-the-blanks exercises: the ``___`` placeholder and the check that none is left.

Go: none (kschedlearn-only, issue 22 item 3: faded scaffolding). A scaffold stub (exercise 8.2a)
is the real function with some expressions replaced by ``___``; its first statement is
``no_blanks_left()``, which looks at the calling function's code (nested functions included)
and raises ``NotImplementedError`` naming the lines that still hold a ``___`` — so an unfinished
scaffold fails its checks as "not implemented", never with a confusing error from deep inside.
Once every blank is filled the call does nothing and can stay.
"""

from __future__ import annotations

import dis
import sys
from types import CodeType

import attrs


@attrs.frozen
class Blank:
    """The placeholder's value (never meant to be used: ``no_blanks_left`` stops before)."""

    def __repr__(self) -> str:
        return "___"


___ = Blank()
BLANK = "___"


def blank_lines(code: CodeType) -> tuple[int, ...]:
    """Source lines of ``code`` (and the functions defined inside it) that use the name ``___``."""
    lines: set[int] = set()
    todo = [code]
    while todo:
        c = todo.pop()
        if BLANK in c.co_names:
            starts = sorted((offset, line) for offset, line in dis.findlinestarts(c) if line is not None)
            for ins in dis.get_instructions(c):
                if ins.argval == BLANK:
                    line = next((ln for off, ln in reversed(starts) if off <= ins.offset), c.co_firstlineno)
                    lines.add(line)
        todo.extend(k for k in c.co_consts if isinstance(k, CodeType))
    return tuple(sorted(lines))


def no_blanks_left() -> None:
    """Raise ``NotImplementedError`` if the calling function still has a ``___`` anywhere in it."""
    frame = sys._getframe(1)
    code = frame.f_code
    lines = blank_lines(code)
    if lines:
        first = code.co_firstlineno
        shown = ", ".join(str(n - first + 1) for n in lines)
        raise NotImplementedError(f"{code.co_name}: fill in every ___ first ({len(lines)} line(s) still have "
                                  f"one: line {shown} of the function)")


__all__ = ["Blank", "___", "blank_lines", "no_blanks_left"]
