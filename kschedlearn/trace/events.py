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


@attrs.frozen(weakref_slot=True)
class TraceEvent:
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
