"""Trace events, the tracer that records them, and ``emit`` — the one trace-point call.

Go: none — kschedlearn-only (DESIGN §6). A :class:`Tracer` is attached to a runtime from
outside (``runtime.tracer = Tracer(...)``); without one, :func:`emit` costs one attribute check.
"""

from __future__ import annotations

import ast
import functools
import inspect
import sys
import textwrap
from collections.abc import Callable
from typing import Any, NamedTuple

import attrs

from kschedlearn.sim.runtime import Goroutine, Runtime, current_goroutine
from kschedlearn.trace.events import Frame, ObservedCall, TraceEvent
from kschedlearn.trace.stages import CATALOGUE, Stage, stage as lookup_stage

# the runtime, the tracer and the observation layer's trace points are not part of the Go story
_SKIP_MODULES = ("kschedlearn.sim", "kschedlearn.trace", "kschedlearn.observe")


#: while an ``in_frame`` event is being recorded: the observed function's frame, which every
#: stack captured for that event (the event's own and its snapshot's) ends with
_in_frame: Frame | None = None


#: id(ObservedCall) -> (it, the Frame an ``in_frame`` event's stacks end with): one per trace
#: point (the wrappers make their ObservedCall once), without hashing its fields at every event
_IN_FRAMES: dict[int, tuple[ObservedCall, Frame]] = {}

#: frame object -> (the frame, its instruction offset then, the mirrored stack up to it, outermost
#: first), for the frames of recent stacks. While a frame is alive at the same instruction (so at
#: the same line), every frame outside it is suspended in its call, so its stack is still the
#: same: a capture walks only the frames that
#: are new since the last one (a trace event with a snapshot asks twice at the same point). A
#: generator or coroutine frame can be resumed by another caller, so it is walked through, never
#: memoised. Bounded (cleared when full); it keeps those frame objects alive until then.
_STACKS: dict[int, tuple[Any, int, tuple[Frame, ...]]] = {}
_REENTRANT = inspect.CO_GENERATOR | inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR | inspect.CO_ITERABLE_COROUTINE


#: id(code object) -> (the code, the globals it ran with, its module name when a mirrored
#: module's else "", line -> its Frame, [its frames put in ``_STACKS``, found there], instruction
#: offset -> its line's Frame): ``_is_mirrored_frame_module`` once per function, not once per
#: frame walked, and one Frame per code location. Keyed by id, the entry holding the code (so the
#: id stays its own): a code object's hash walks its bytecode and constants.
_CODE_MODULES: dict[int, tuple[Any, Any, str, dict[int, Frame], list[int], dict[int, Frame]]] = {}

#: a function whose frames were put in ``_STACKS`` this many times without one being found
#: there again is not remembered any more: its frames end before the next capture through them
#: (an informer's pop and handlers, one event each; the engine's Schedule, whose events stand at
#: different lines), and the memo only kept them — and their locals — alive until it was cleared
_UNFOUND_LIMIT = 64

#: (id(stack), id(frame)) -> (stack, frame, the stack extended by the frame): see ``_extended``
_EXTENDED: dict[tuple[int, int], tuple[tuple[Frame, ...], Frame, tuple[Frame, ...]]] = {}

#: the last capture: (its innermost mirrored frame, that frame's instruction offset, the
#: ``_in_frame`` and ``limit`` then, the stack) — an event with a snapshot captures twice at the same point, and
#: both get the same tuple
_last: tuple[Any, int, Frame | None, int, tuple[Frame, ...]] | None = None


#: while a snapshot is built for an event: (the recording frame, the event's stack): a capture
#: made from the snapshot function, with no mirrored frame in between, is that same stack
_event_point: tuple[Any, tuple[Frame, ...]] | None = None


def _snapshot_at(recording: Any, stack: tuple[Frame, ...] | None, snapshot_fn: Callable[..., Any],
                 stage: str, data: dict[str, Any]) -> Any:
    """``snapshot_fn(stage=, data=)``, its stack captures answered with the event's ``stack``."""
    global _event_point
    outer, _event_point = _event_point, ((recording, stack) if stack is not None else None)
    try:
        return snapshot_fn(stage=stage, data=data)
    finally:
        _event_point = outer


def _at_event_point(f: Any) -> bool:
    """Whether the walk from ``f`` outwards reaches the recording frame before a mirrored one."""
    recording = _event_point[0]  # type: ignore[index]
    while f is not None and f is not recording:
        known_code = _CODE_MODULES.get(id(f.f_code))
        if known_code is None or known_code[0] is not f.f_code or known_code[1] is not f.f_globals:
            known_code = _code_module(f.f_code, f.f_globals)
        if known_code[2]:
            return False
        f = f.f_back
    return f is recording


def capture_stack(limit: int = 40) -> tuple[Frame, ...]:
    """The mirrored-code frames of the running goroutine (the innermost ``limit``), outermost first.

    The memos compare a frame's instruction offset (``f_lasti``, a field), not its line: CPython
    computes ``f_lineno`` by decoding the code's line table from its start at every read, about
    half of a capture's cost (``benchmarks/README.md``, replay6). An
    offset is always at one line, so a frame at the same offset is at the same line; the line of
    an offset is read once per code object (not while a trace function runs: a debugger's jump
    sets ``f_lineno`` itself)."""
    global _last
    if _event_point is not None and limit == 40 and _at_event_point(sys._getframe(1)):
        return _event_point[1]
    new: list[tuple[Any, int, Frame, list[int]]] = []  # innermost first
    prefix: tuple[Frame, ...] = ()
    innermost = None
    tracing = sys.gettrace() is not None
    f = sys._getframe(1)
    while f is not None:
        code = f.f_code
        known_code = _CODE_MODULES.get(id(code))
        if known_code is None or known_code[0] is not code or known_code[1] is not f.f_globals:
            known_code = _code_module(code, f.f_globals)
        mod = known_code[2]
        if mod:
            at = f.f_lasti
            if innermost is None:
                innermost = f
                last = _last
                if last is not None and last[0] is f and last[1] == at and last[2] is _in_frame and last[3] == limit:
                    return last[4]
            known = _STACKS.get(id(f))
            if known is not None and known[0] is f and known[1] == at:
                known_code[4][1] += 1
                prefix = known[2]
                break
            frame = None if tracing else known_code[5].get(at)
            if frame is None:
                frame = _frame(f, mod, known_code[3])
                if not tracing:
                    known_code[5][at] = frame
            new.append((f, at, frame, known_code[4]))
        f = f.f_back
    if len(_STACKS) > 512:
        _STACKS.clear()
    stack = prefix
    for frame_obj, at, frame, counts in reversed(new):
        stack = _extended(stack, frame)
        # the innermost frame is remembered by ``_last`` only: it is new at nearly every event
        # (``checkNode`` once per node), and a memo holding it would keep its locals alive too
        if frame_obj is not innermost and not frame_obj.f_code.co_flags & _REENTRANT \
                and (counts[1] or counts[0] < _UNFOUND_LIMIT):
            counts[0] += 1
            _STACKS[id(frame_obj)] = (frame_obj, at, stack)
    stack = stack[-limit:] if len(stack) > limit else stack
    if _in_frame is not None:  # an in_frame event: the observed function's frame ends it
        stack = _extended(stack, _in_frame)
    _last = None
    if innermost is not None and not innermost.f_code.co_flags & _REENTRANT:
        _last = (innermost, innermost.f_lasti, _in_frame, limit, stack)
    return stack


def forget_frames() -> None:
    """Drop the frame objects the stack memos hold (``Runtime.close``'s companion): a frame
    keeps its locals, and so a discarded simulation, alive."""
    global _last
    _STACKS.clear()
    _last = None


def _extended(stack: tuple[Frame, ...], frame: Frame) -> tuple[Frame, ...]:
    """``(*stack, frame)``, the same tuple each time for the same two (Frames are made once per
    code line): equal stacks — every node's ``schedule.predicate_node`` of every pod — are one
    object that the kept events and snapshots share, not one tuple each."""
    known = _EXTENDED.get((id(stack), id(frame)))
    if known is not None and known[0] is stack and known[1] is frame:
        return known[2]
    if len(_EXTENDED) > 4096:
        _EXTENDED.clear()
    out = (*stack, frame)
    _EXTENDED[(id(stack), id(frame))] = (stack, frame, out)
    return out


def _code_module(code: Any, f_globals: Any) -> tuple[Any, Any, str, dict[int, Frame], list[int], dict[int, Frame]]:
    if len(_CODE_MODULES) > 8192:  # (code exec'd again and again, e.g. a notebook's cells)
        _CODE_MODULES.clear()
    name = f_globals.get("__name__", "")
    entry = _CODE_MODULES[id(code)] = (code, f_globals, name if _is_mirrored_frame_module(name) else "", {}, [0, 0],
                                       {})
    return entry


def _frame(f: Any, mod: str, lines: dict[int, Frame]) -> Frame:
    line = f.f_lineno
    frame = lines.get(line)
    if frame is None:
        code = f.f_code
        frame = lines[line] = Frame(code.co_qualname if hasattr(code, "co_qualname") else code.co_name, mod, line)
    return frame


def _is_mirrored_frame_module(mod: str) -> bool:
    return mod.startswith("kschedlearn.") and not mod.startswith(_SKIP_MODULES)


@functools.cache
def _statement_lines(code: Any) -> tuple[int, int]:
    """(first, last) statement line of a function, skipping its docstring; the last statement
    is looked for inside trailing ``with`` / ``try`` blocks (where Go's body ends after a
    ``defer mu.Unlock()``)."""
    try:
        lines, start = inspect.getsourcelines(code)
        tree = ast.parse(textwrap.dedent("".join(lines)))
    except (OSError, TypeError, SyntaxError):
        return code.co_firstlineno, code.co_firstlineno
    node = tree.body[0]
    body = list(getattr(node, "body", ()))
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
        body = body[1:]
    if not body:
        return start, start
    last: ast.stmt = body[-1]
    while isinstance(last, (ast.With, ast.AsyncWith, ast.Try)) and last.body:
        last = last.body[-1]
    return start + body[0].lineno - 1, start + last.lineno - 1


def observed_call(fn: Callable[..., Any], phase: str, *, in_frame: bool = False) -> ObservedCall:
    """Describe ``fn`` as the function a ``"returned"`` or ``"entering"`` trace point observes
    (``in_frame``: see :class:`ObservedCall`)."""
    fn = inspect.unwrap(fn)
    first, last = _statement_lines(fn.__code__)
    return ObservedCall(fn.__qualname__, fn.__module__, last if phase == "returned" else first, phase, in_frame)


def raised_at(exc: BaseException) -> ObservedCall | None:
    """The innermost kschedlearn frame (not the runtime, tracer or wrappers) ``exc`` went through."""
    found = None
    tb = exc.__traceback__
    while tb is not None:
        f = tb.tb_frame
        mod = f.f_globals.get("__name__", "")
        if _is_mirrored_frame_module(mod):
            name = f.f_code.co_qualname if hasattr(f.f_code, "co_qualname") else f.f_code.co_name
            found = ObservedCall(name, mod, tb.tb_lineno, "raised")
        tb = tb.tb_next
    return found


@attrs.define(eq=False)
class Tracer:
    """Records :class:`TraceEvent` s and decides where to pause.

    ``breakpoint``: a predicate over events; when it returns True the emitting goroutine pauses
    and control returns to whoever drives the runtime. ``snapshot_fn``: builds the immutable
    state snapshot stored on events (every ``snapshot_every`` events; 0 = never).
    ``log_verbosity``: glog ``V(n)`` lines above this level are not recorded.
    """

    breakpoint: Callable[[TraceEvent], bool] | None = None
    snapshot_fn: Callable[..., Any] | None = None  # called as snapshot_fn(stage=..., data=...)
    snapshot_every: int = 1
    capture_stacks: bool = True
    log_verbosity: int = 10
    #: the events materialised so far, in seq order (read through :attr:`events`)
    _log: list[TraceEvent] = attrs.field(factory=list, alias="events", repr=False)
    listeners: list[Callable[[TraceEvent], None]] = attrs.field(factory=list)
    #: exceptions raised by listeners, with the event they were called for. A listener runs
    #: inside whichever simulated goroutine emitted the event; letting its error escape would
    #: kill that (innocent) process, so it is kept here instead.
    listener_errors: list[tuple[TraceEvent, BaseException]] = attrs.field(factory=list)
    #: what trace points keep per run (e.g. the recording twins of the predicate map), so that
    #: it goes with the tracer rather than outliving the run in a module-level cache
    memo: dict[Any, Any] = attrs.field(factory=dict, repr=False)
    #: the stages recorded (None: every stage); ``emit`` of any other does nothing, and trace
    #: points that compute their data first ask :meth:`wants` (a thinned history for big clusters)
    keep: frozenset[str] | None = None
    #: whether :meth:`record_group` may keep a group of events unmaterialised until read (False:
    #: every event is built as it is recorded — the tests compare the two)
    defer: bool = True
    #: what was recorded after the first group still unmaterialised: groups (each the plain
    #: tuple of a :class:`DeferredEvents`' fields) and events, in seq order (empty when nothing
    #: is deferred; then events go straight to ``_log``)
    _tail: list[TraceEvent | tuple[Any, ...]] = attrs.field(factory=list, init=False, repr=False)
    #: how many events were recorded (materialised or not): the next event's seq
    _count: int = attrs.field(default=0, init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        self._count = len(self._log)

    @property
    def events(self) -> list[TraceEvent]:
        """Every event recorded so far, in seq order (``events[i].seq == i``).

        Groups recorded deferred (:meth:`record_group`) are materialised here, at the first
        read after them: each of their events is then exactly the one an eager recording makes.
        The list is the same object from one read to the next; events recorded after a deferred
        group join it at the next read.
        """
        if self._tail:
            self._materialise()
        return self._log

    def _materialise(self) -> None:
        built: list[TraceEvent] = []
        for item in self._tail:
            if type(item) is tuple:  # (a deferred group: the fields of a DeferredEvents)
                built.extend(DeferredEvents._make(item).materialise())
            else:
                built.append(item)
        self._log.extend(built)  # (all or nothing: a group that cannot be built stays pending)
        self._tail = []

    def can_defer(self) -> bool:
        """Whether a group of events recorded now may stay unmaterialised until read: nobody
        looks at events as they are recorded (no breakpoint, no listener, no snapshot)."""
        return (self.defer and self.breakpoint is None and not self.listeners
                and (self.snapshot_fn is None or not self.snapshot_every))

    def record_group(
        self,
        rt: Runtime,
        g: Goroutine,
        stage: str,
        count: int,
        rows: Callable[..., list[tuple[str, dict[str, Any]]]],
        args: tuple[Any, ...],
        observed: ObservedCall | None = None,
    ) -> None:
        """Record ``count`` events of ``stage`` emitted one after the other at the same point of
        goroutine ``g`` (the same time and stack) — what ``count`` calls of ``emit(stage,
        message, data=data, observed=observed)`` record, one per ``(message, data)`` of
        ``rows(*args)`` — without building them: ``rows`` is called when they are first read.

        The caller checks :meth:`can_defer` and :meth:`wants` first (else it emits them one by
        one); ``rows(*args)`` must give the same answer whenever it is called (``args`` are not
        changed afterwards)."""
        self._defer(rt, g, stage, count, rows, args, observed, None)

    def record_later(
        self,
        rt: Runtime,
        g: Goroutine,
        stage: str,
        message: str,
        build_data: Callable[..., dict[str, Any]],
        args: tuple[Any, ...],
        observed: ObservedCall | None = None,
    ) -> None:
        """:meth:`record_group` of one event, ``emit(stage, message, data=build_data(*args),
        observed=observed)``, its data built when it is first read (same conditions)."""
        self._defer(rt, g, stage, 1, build_data, args, observed, message)

    def record_described_later(
        self,
        rt: Runtime,
        g: Goroutine,
        stage: str,
        describe: Callable[..., tuple[str, dict[str, Any]]],
        args: tuple[Any, ...],
        observed: ObservedCall | None = None,
        stack: tuple[Frame, ...] | None = None,
    ) -> None:
        """:meth:`record_group` of one event whose message and data are both built when it is
        first read: ``emit(stage, *describe(*args), observed=observed)`` (same conditions).

        ``stack``: the stack :meth:`record` would capture here, when the caller already knows
        it (a kschedlearn-only fast path standing in for mirrored frames that did not run)."""
        self._defer(rt, g, stage, 1, _described, (describe, *args), observed, None, stack)

    def _defer(self, rt: Runtime, g: Goroutine, stage: str, count: int, rows: Callable[..., Any],
               args: tuple[Any, ...], observed: ObservedCall | None, message: str | None,
               stack: tuple[Frame, ...] | None = None) -> None:
        """Append the deferred group of the three ``record_*`` methods above (``message``: set for
        one event whose ``rows`` builds only its data; ``stack``: given by the caller): the plain
        tuple of a :class:`DeferredEvents`' fields, the fewest objects made per group (a traced
        pod records eight; the named tuple is made when they are read)."""
        if not self.capture_stacks:
            stack = ()
        elif stack is None:
            stack = self._stack(observed)
        self._tail.append((self._count, count, rt.now, g.name, g.process.name,
                           CATALOGUE.get(stage) or lookup_stage(stage), stack, observed, rows, args, message))
        self._count += count

    def deferring(self, stage: str) -> bool | None:
        """For an event of ``stage``: None when it is not recorded (:meth:`wants`), else whether it
        may be recorded deferred (:meth:`can_defer`) — the two questions in one call."""
        if self.keep is not None and stage not in self.keep:
            return None
        # (can_defer's condition, not a call of it: asked by every once-per-pod trace point)
        return (self.defer and self.breakpoint is None and not self.listeners
                and (self.snapshot_fn is None or not self.snapshot_every))

    @staticmethod
    def _stack(observed: ObservedCall | None) -> tuple[Frame, ...]:
        """The stack a deferred group keeps: what :meth:`record` captures for ``observed``."""
        global _in_frame
        if observed is not None and observed.in_frame:
            _in_frame = in_frame_of(observed)
            try:
                return capture_stack()
            finally:
                _in_frame = None
        return capture_stack()

    def wants(self, stage: str) -> bool:
        """Whether an event of ``stage`` would be recorded."""
        return self.keep is None or stage in self.keep

    def record(
        self,
        rt: Runtime,
        g: Goroutine | None,
        stage: str,
        message: str,
        why: str | None,
        data: dict[str, Any] | None,
        observed: ObservedCall | None = None,
    ) -> TraceEvent:
        if observed is None or not observed.in_frame:
            return self._record(rt, g, stage, message, why, data, observed)
        return self.record_in_frame(rt, g, stage, message, why, data, observed, in_frame_of(observed))

    def record_in_frame(
        self,
        rt: Runtime,
        g: Goroutine | None,
        stage: str,
        message: str,
        why: str | None,
        data: dict[str, Any] | None,
        observed: ObservedCall,
        frame: Frame,
    ) -> TraceEvent:
        """:meth:`record` of an ``in_frame`` event whose closing ``frame`` (:func:`in_frame_of`
        ``observed``) the caller already holds — a trace-point wrapper computes it once."""
        global _in_frame
        _in_frame = frame
        try:
            return self._record(rt, g, stage, message, why, data, observed)
        finally:
            _in_frame = None

    def _record(
        self,
        rt: Runtime,
        g: Goroutine | None,
        stage: str,
        message: str,
        why: str | None,
        data: dict[str, Any] | None,
        observed: ObservedCall | None,
        stack: tuple[Frame, ...] | None = None,
    ) -> TraceEvent:
        info = CATALOGUE.get(stage) or lookup_stage(stage)
        seq = self._count
        if not data:
            data = {}
        if stack is None or not self.capture_stacks or g is None:
            stack = capture_stack() if (self.capture_stacks and g is not None) else ()
        snap = None
        if self.snapshot_fn is not None and self.snapshot_every and seq % self.snapshot_every == 0:
            snap = _snapshot_at(sys._getframe(), stack if (self.capture_stacks and g is not None) else None,
                                self.snapshot_fn, stage, data)
        # positional, in TraceEvent's field order: seq, time, goroutine, process, stage, go_ref,
        # message, why, data, stack, snapshot, observed
        event = TraceEvent(
            seq, rt.now, g.name if g is not None else "", g.process.name if g is not None else "",
            stage, info.go_ref, message, why if why is not None else info.why, data, stack, snap, observed,
        )
        (self._tail if self._tail else self._log).append(event)
        self._count += 1
        for listener in self.listeners:
            try:
                listener(event)
            except Exception as err:  # noqa: BLE001 - see listener_errors
                self.listener_errors.append((event, err))
        return event

    def record_at(self, rt: Runtime, g: Goroutine, stage: str, message: str, data: dict[str, Any],
                  observed: ObservedCall | None, stack: tuple[Frame, ...] | None) -> TraceEvent:
        """What ``emit(stage, message, data=data, observed=observed)`` records in goroutine ``g``
        when no breakpoint is set (the caller checks: nothing pauses here), its snapshot and
        listeners included, with ``stack`` the stack it would capture there (None: captured
        here) — for a kschedlearn-only fast path standing in for mirrored frames that did not
        run (``observe/first_list.py``); the snapshot's own capture is answered with it."""
        if stack is None:
            return self.record(rt, g, stage, message, None, data, observed)
        return self._record(rt, g, stage, message, None, data, observed, stack)

    def on_exit(self, rt: Runtime, g: Goroutine, code: int, stdout: str) -> None:
        """A simulated process printed ``stdout`` and called ``os.Exit(code)``."""
        self.record(rt, g, "process.exit", stdout.rstrip("\n"), None, {"stdout": stdout, "exit_code": code})

    def on_crash(self, rt: Runtime, g: Goroutine, exc: BaseException) -> None:
        self.record(
            rt, g, "process.crash", f"{g.process.name} exited: {type(exc).__name__}: {exc}",
            None, {"process": g.process.name, "error": f"{type(exc).__name__}: {exc}"},
            raised_at(exc),
        )


class DeferredEvents(NamedTuple):
    """Events of one stage recorded together and not built yet (:meth:`Tracer.record_group`):
    seqs ``seq`` .. ``seq + count - 1``, one time, goroutine, stack and stage (its narration);
    ``rows()`` (with ``args``) gives each one's message and data (or, for one event with a
    ``message``, its data). Machinery, not a value: nothing outside the tracer holds one. The
    tracer keeps the plain tuple of these fields (``Tracer._defer``; valgrind: an attrs class's
    thirteen-argument ``__init__`` cost ~3.3 K instructions per group) and reads it as this
    named tuple when the events are built."""

    seq: int
    count: int
    time: float
    goroutine: str
    process: str
    stage: Stage
    stack: tuple[Frame, ...]
    observed: ObservedCall | None
    rows: Callable[..., Any]
    args: tuple[Any, ...] = ()
    #: set for one event (:meth:`Tracer.record_later`): its message, and ``rows`` builds its data
    message: str | None = None

    def materialise(self) -> list[TraceEvent]:
        """The events, exactly as :meth:`Tracer.record` builds them one by one (no snapshot:
        a group is deferred only when no snapshot is taken)."""
        rows = self.rows(*self.args) if self.message is None else [(self.message, self.rows(*self.args))]
        if len(rows) != self.count:
            raise ValueError(f"deferred {self.stage.name} events: {self.count} recorded, {len(rows)} rows")
        seq, time, goroutine, process, stage = self.seq, self.time, self.goroutine, self.process, self.stage.name
        go_ref, why, stack, observed = self.stage.go_ref, self.stage.why, self.stack, self.observed
        return [TraceEvent(seq + i, time, goroutine, process, stage, go_ref, message, why, data or {}, stack, None, observed)
                for i, (message, data) in enumerate(rows)]


def _described(describe: Callable[..., tuple[str, dict[str, Any]]], *args: Any) -> list[tuple[str, dict[str, Any]]]:
    """The one row of :meth:`Tracer.record_described_later`'s event."""
    return [describe(*args)]


def in_frame_of(observed: ObservedCall) -> Frame:
    """The Frame the stacks of an ``in_frame`` event observing ``observed`` end with (one per
    trace point, looked up by the ObservedCall's identity)."""
    known = _IN_FRAMES.get(id(observed))
    if known is None or known[0] is not observed:
        if len(_IN_FRAMES) > 1024:
            _IN_FRAMES.clear()
        known = _IN_FRAMES[id(observed)] = (observed, Frame(observed.function, observed.module, observed.line))
    return known[1]


def emit(
    stage: str,
    message: str = "",
    *,
    why: str | None = None,
    data: dict[str, Any] | None = None,
    runtime: Runtime | None = None,
    observed: ObservedCall | None = None,
) -> TraceEvent | None:
    """Record a trace point on the current runtime's tracer; maybe pause here.

    ``observed``: set by trace-point wrappers (:func:`observed_call`) to the mirrored function
    they wrap, so ``Simulation.where()`` can name it. Returns the event, or None when no tracer
    is attached.
    """
    g = current_goroutine()
    rt = g.runtime if g is not None else runtime
    if rt is None or rt.tracer is None:
        return None
    tracer: Tracer = rt.tracer
    if tracer.keep is not None and stage not in tracer.keep:
        return None
    if observed is None or not observed.in_frame:  # (what Tracer.record does first)
        event = tracer._record(rt, g, stage, message, why, data, observed)
    else:
        event = tracer.record_in_frame(rt, g, stage, message, why, data, observed, in_frame_of(observed))
    if g is not None and tracer.breakpoint is not None and tracer.breakpoint(event):
        rt.pause(event)
    return event
