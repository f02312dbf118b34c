"""What a plug-in reports: the learner's function inside the real code, step by step, with its calls.

Go: none (kschedlearn-only, DESIGN §10). ``plug_in(task, fn)`` (the small experiment) and
``plug_in(task, fn, simulation)`` (the live run, ``live``) answer with a :class:`PlugInReport`;
:func:`counting` is how the experiments measure how often the learner's function was called.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

import attrs


@attrs.frozen
class PlugInReport:
    """What changed when the learner's function ran inside the real code.

    ``rows`` are ``(what, reference, yours)``: the same step with the mirrored (Go-faithful)
    implementation and with the learner's one. ``calls``: how many times the learner's function
    was called (measured; None where not counted). ``difference``: the first call where it gave
    something else than the reference at the same inputs (see ``calls.CallComparison``).
    ``refused``: why it was not plugged in at all (nothing ran). ``notes``: what the sandbox saw
    (output dropped, processes stopped, mirror globals restored).
    """

    task_id: str
    title: str
    rows: tuple[tuple[str, str, str], ...] = attrs.field(converter=lambda rows: _clipped(rows))
    note: str = ""
    calls: int | None = None
    difference: str = ""
    refused: str = ""
    notes: tuple[str, ...] = ()
    function: str = "function"
    what: str = ""
    """How the summary names what was called ("" = ``your <function>()``)."""
    baseline: str = "the scheduler's"

    @property
    def changed(self) -> tuple[str, ...]:
        return tuple(what for what, ref, yours in self.rows if ref != yours)

    @property
    def same(self) -> bool:
        """Ran, was called at least once (where counted), and nothing differed."""
        return not self.refused and self.calls != 0 and not self.difference and not self.changed

    def summary(self) -> str:
        name = self.what or f"your {self.function}()"
        if self.refused:
            return f"Not plugged into {self.title}: {self.refused}"
        if self.calls == 0:
            return f"Plugged into {self.title}: {name} was never called, so nothing was tested."
        counted = f" (called {self.calls} time{'s' if self.calls != 1 else ''})" if self.calls else ""
        if self.difference:
            return f"Plugged into {self.title}: {name}{counted} differs from the reference at {self.difference}."
        if not self.changed:
            return f"Plugged into {self.title}: {name} behaves exactly like {self.baseline}{counted}."
        return f"Plugged into {self.title}: {len(self.changed)} step(s) differ from {self.baseline} own code{counted}."

    def __str__(self) -> str:
        lines = [self.summary()]
        if self.note:
            lines.append(self.note)
        lines += list(self.notes)
        for what, ref, yours in self.rows:
            mark = "  " if ref == yours else "≠ "
            lines.append(f"{mark}{what}: scheduler={ref} | yours={yours}")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        rows = []
        for what, ref, yours in self.rows:
            colour = "" if ref == yours else ' style="background:#fff3cd"'
            rows.append(f"<tr{colour}><td>{html.escape(what)}</td><td>{html.escape(ref)}</td>"
                        f"<td>{html.escape(yours)}</td></tr>")
        note = "".join(f"<p>{html.escape(n)}</p>" for n in (self.note, *self.notes) if n)
        return (f"<p><b>{html.escape(self.summary())}</b></p>{note}"
                "<table><thead><tr><th>step</th><th>scheduler's code</th><th>your code</th></tr>"
                f"</thead><tbody>{''.join(rows)}</tbody></table>")


_CELL_LIMIT = 2_000


def _clipped(rows: Any) -> tuple[tuple[str, str, str], ...]:
    """Each cell at most ``_CELL_LIMIT`` characters (a learner's value can be huge)."""
    def cell(text: str) -> str:
        text = str(text)
        return text if len(text) <= _CELL_LIMIT else f"{text[:_CELL_LIMIT]} [... {len(text) - _CELL_LIMIT:,} more characters]"
    return tuple(tuple(cell(c) for c in row) for row in rows)  # type: ignore[misc]


class _Counting:
    """The learner's function, counting its calls (``calls``); otherwise transparent."""

    def __init__(self, fn: Callable[..., Any]) -> None:
        self.fn = fn
        self.calls = 0
        self.__name__ = getattr(fn, "__name__", "function")
        self.__qualname__ = getattr(fn, "__qualname__", self.__name__)
        self.__doc__ = getattr(fn, "__doc__", None)
        self.__wrapped__ = fn
        code = getattr(fn, "__code__", None)
        if code is not None:
            self.__code__ = code  # learner_frames() finds the learner's lines through it

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.calls += 1
        return self.fn(*args, **kwargs)


def counting(fn: Callable[..., Any]) -> _Counting:
    """``fn`` with a call counter (``.calls``)."""
    return _Counting(fn)


__all__ = ["PlugInReport", "counting"]
