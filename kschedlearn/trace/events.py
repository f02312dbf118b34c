"""The recorded values: :class:`TraceEvent`, its stack :class:`Frame` s and the :class:`ObservedCall`.

Go: none — kschedlearn-only (DESIGN §6). :mod:`kschedlearn.trace.core` records them.
"""

from __future__ import annotations

from typing import Any

import attrs


@attrs.frozen
class Frame:
    """One frame of a goroutine's call stack, as the startup view shows it."""

    function: str
    module: str
    line: int


@attrs.frozen
class ObservedCall:
    """The mirrored function a trace point observes from outside, when the event is emitted by
    a wrapper around it (``scheduler/instrument.py``) or by a crash inside it.

    ``phase`` says where in that function the event stands: ``"returned"`` (an after-point: the
    function has just returned; ``line`` is its last statement), ``"entering"`` (a before-point:
    ``line`` is its first statement) or ``"raised"`` (a crash: ``line`` is where it raised).
    ``in_frame``: the trace point stands *inside* the function (at that line), as if the function
    itself had emitted it, so the event's stack (and its snapshot's) ends with this frame.
    """

    function: str
    module: str
    line: int
    phase: str
    in_frame: bool = False
    #: kschedlearn fast paths that ran in the mirror's place for this event (the source pane
    #: names them), e.g. the accelerated engine or SelectorSpread's inlined walk
    fast_paths: tuple[str, ...] = ()


class _Weakrefable:
    """TraceEvent's base, holding only its weak-reference slot (so that :class:`_EventFields`
    can have exactly TraceEvent's layout: see :func:`_new_event`)."""

    __slots__ = ("__weakref__",)


@attrs.frozen
class TraceEvent(_Weakrefable):
    """One recorded step: what happened, where in Go, why it matters, and the state after it."""

    seq: int
    time: float
    goroutine: str
    process: str
    stage: str
    go_ref: str
    message: str
    why: str = ""
    data: dict[str, Any] = attrs.field(factory=dict)
    stack: tuple[Frame, ...] = ()
    snapshot: Any = attrs.field(default=None, eq=False, repr=False)
    #: set when the event comes from a wrapper or a crash (not exported: stacks stay as they were)
    observed: ObservedCall | None = attrs.field(default=None, eq=False, repr=False)

    def to_json(self) -> dict[str, Any]:
        """Plain JSON-able form (without the snapshot)."""
        return {
            "seq": self.seq,
            "time": self.time,
            "goroutine": self.goroutine,
            "process": self.process,
            "stage": self.stage,
            "go_ref": self.go_ref,
            "message": self.message,
            "why": self.why,
            "data": self.data,
            "stack": [attrs.asdict(f) for f in self.stack],
        }



class _EventFields(_Weakrefable):
    """TraceEvent's fields, as plain slots of the same layout, without its frozen ``__setattr__``."""

    __slots__ = tuple(a.name for a in attrs.fields(TraceEvent))


def _new_event(seq: int, time: float, goroutine: str, process: str, stage: str, go_ref: str, message: str,
               why: str, data: dict[str, Any], stack: tuple[Frame, ...], snapshot: Any,
               observed: ObservedCall | None) -> TraceEvent:
    """``TraceEvent(seq, time, ...)`` at a third of the cost: a tracer builds one per node per pod.

    attrs' frozen ``__init__`` sets each of the twelve fields through ``object.__setattr__``
    (a call with a tuple of arguments, ~0.1 µs each). Here the fields are stored as plain slots
    of an :class:`_EventFields`, which is then made the TraceEvent it stands for by assigning its
    ``__class__`` — CPython allows it between two classes of one base and the same slots, and
    the object is from then on a TraceEvent like any other (frozen, equal to one built by
    ``TraceEvent(...)``; ``tests/trace/test_event_construction.py`` holds the two together).
    """
    event = object.__new__(_EventFields)
    event.seq = seq
    event.time = time
    event.goroutine = goroutine
    event.process = process
    event.stage = stage
    event.go_ref = go_ref
    event.message = message
    event.why = why
    event.data = data
    event.stack = stack
    event.snapshot = snapshot
    event.observed = observed
    event.__class__ = TraceEvent  # type: ignore[assignment]
    return event  # type: ignore[return-value]
