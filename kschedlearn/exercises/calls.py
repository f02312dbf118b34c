"""The learner's function, call by call: what each call got and gave, and where two runs part.

Go: none (kschedlearn-only, DESIGN §10). A verdict such as "same outcome as the real scheduler"
must be backed by what was measured, and final placements alone do not back it: a priority that
always answers 5 can still end with the same placements. So every plug-in run records each call
of the plugged-in function (``CallLog.wrap``): its inputs as text (``subject``: the pod, the
node, the queue it popped from ...) and what it returned or raised - for a function that changes
state (a cache, a queue, a store) also that state after the call (``result``). The reference
run records the reference function the same way, plugged in the same way, so the two runs
differ only in the function. Both runs are deterministic, so up to the first call whose
result differs they are identical: that call had the same inputs in both runs, and
``compare_calls`` reports it (its number, its inputs, yours vs the real one).

How a task's calls are described is its ``CallView`` (``registry.Task.call_view``); the default
describes pods, nodes, NodeInfos, numbers, strings and containers of them, and skips the
machinery objects (a cache, a queue) that a state-changing task's view describes instead.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Mapping
from typing import Any

import attrs

MAX_KEPT = 20_000
"""Calls kept per run with their text; later calls only feed the run's digest and count."""

_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")
_SHOW = 160
_LONG = 2_000


# -- describing values -------------------------------------------------------------------
def describe(value: Any, depth: int = 0) -> str:
    """A value as a learner reads it, and as two runs are compared (no memory addresses); a
    long text keeps its start and a digest of the whole (so two still compare exactly)."""
    text = _describe(value, depth)
    return text if depth else bounded(text)


def bounded(text: str) -> str:
    """``text``, or its start and a digest of the whole when it is long (still compares exactly)."""
    if len(text) <= _LONG:
        return text
    digest = hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()[:16]
    return f"{text[:_LONG]} [... {len(text):,} characters in all, sha256 {digest}]"


def _describe(value: Any, depth: int) -> str:
    kind = type(value).__name__
    if value is None or isinstance(value, (bool, int, float, str, bytes)):
        return repr(value)
    if isinstance(value, BaseException):
        original = getattr(value, "original", None)  # a LearnerFailure: the learner's own exception
        if isinstance(original, BaseException):
            value = original
        text = str(value)
        return f"{type(value).__name__}: {text}" if text else type(value).__name__
    named = _named(value)
    if named:
        return named
    if depth > 4:
        return f"<{kind}>"
    if isinstance(value, Mapping):
        items = sorted(value.items(), key=lambda kv: repr(kv[0]))
        return "{" + ", ".join(f"{describe(k, depth + 1)}: {describe(v, depth + 1)}" for k, v in items) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(describe(v, depth + 1) for v in value) + "]"
    if isinstance(value, (set, frozenset)):
        return "{" + ", ".join(sorted(describe(v, depth + 1) for v in value)) + "}"
    if attrs.has(type(value)):
        fields = ", ".join(f"{f.name}={describe(getattr(value, f.name, None), depth + 1)}"
                           for f in attrs.fields(type(value)) if not f.metadata.get("memo"))
        return f"{kind}({fields})"
    return _ADDRESS.sub("", repr(value))


def _named(value: Any) -> str:
    """Short names for the API objects and scheduler values every task passes around."""
    kind = type(value).__name__
    meta = getattr(value, "metadata", None)
    if kind == "Pod" and meta is not None:
        rv = f" (resourceVersion {meta.resource_version})" if meta.resource_version else ""
        return f"pod {meta.namespace}/{meta.name}{rv}"
    if kind == "Node" and meta is not None:
        return f"node {meta.name}"
    if kind == "NodeInfo" and callable(getattr(value, "node", None)):
        node = value.node()
        return f"node {node.metadata.name}" if node is not None else "a NodeInfo without a node"
    if kind == "HostPriority":
        return f"{value.host}={value.score}"
    if kind == "Delta":
        return f"{value.type} {describe(value.object)}"
    return ""


def _machinery(value: Any) -> bool:
    """Objects a default view leaves out of a call's inputs: the machinery a call works on (a
    cache, a queue, a scheduler: ``attrs.define(eq=False)`` or plain classes), which a
    state-changing task's view describes instead. Values (frozen attrs, API objects) are shown."""
    if value is None or isinstance(value, (bool, int, float, str, bytes, Mapping, list, tuple, set, frozenset)):
        return False
    if _named(value):
        return False
    return not (attrs.has(type(value)) and type(value).__eq__ is not object.__eq__)


def describe_inputs(args: tuple[Any, ...], kwargs: dict[str, Any]) -> str:
    """The default subject: the value-like arguments, in order."""
    shown = [describe(a) for a in args if not _machinery(a)]
    shown += [f"{k}={describe(v)}" for k, v in kwargs.items() if not _machinery(v)]
    return ", ".join(shown)


# -- views ---------------------------------------------------------------------------------
@attrs.frozen
class CallView:
    """How one task's calls are described.

    ``subject(args, kwargs)``: the inputs, taken before the call (a state-changing task puts the
    state it reads here). ``state(args, kwargs)``: taken after the call and added to the result
    (what the call changed). ``watch(args, kwargs)``: optional; returns the arguments to really
    pass (e.g. a handler that notes its calls) and a function giving those notes afterwards.
    """

    subject: Callable[[tuple[Any, ...], dict[str, Any]], str] = describe_inputs
    state: Callable[[tuple[Any, ...], dict[str, Any]], str] | None = None
    watch: Callable[[tuple[Any, ...], dict[str, Any]],
                    tuple[tuple[Any, ...], dict[str, Any], Callable[[], str]]] | None = None
    returns: bool = True
    """Whether the returned value is part of the result (False for functions returning None)."""


DEFAULT_VIEW = CallView()


# -- recording -----------------------------------------------------------------------------
@attrs.frozen
class Call:
    """One call: its number (from 1), its inputs and what it gave, as text."""

    number: int
    subject: str
    result: str


@attrs.frozen
class Calls:
    """One run's calls (plain data: it travels back from a sandbox child)."""

    function: str
    kept: tuple[Call, ...]
    count: int
    digest: str
    what: str = ""
    """How a report names what was called ("" = ``your <function>()``)."""
    started: int = 0
    """Calls started, the last ones possibly still running when the run ended (a Pop waiting for
    a pod that never comes); ``count`` is the calls that returned or raised."""


@attrs.define(eq=False)
class CallLog:
    """Records the calls of one run (``wrap``); ``calls()`` is the frozen record."""

    function: str
    what: str = ""
    _kept: list[Call] = attrs.field(factory=list)
    _count: int = 0
    _started: int = 0
    _hash: Any = attrs.field(factory=hashlib.sha256)

    @property
    def count(self) -> int:
        return self._count

    def record(self, subject: str, result: str) -> None:
        subject, result = bounded(subject), bounded(result)
        self._count += 1
        self._hash.update(f"{subject}\0{result}\1".encode("utf-8", "replace"))
        if len(self._kept) < MAX_KEPT:
            self._kept.append(Call(self._count, subject, result))

    def calls(self) -> Calls:
        return Calls(self.function, tuple(self._kept), self._count, self._hash.hexdigest(), self.what,
                     max(self._started, self._count))

    def wrap(self, fn: Callable[..., Any], view: CallView = DEFAULT_VIEW, label: str = "") -> Callable[..., Any]:
        """``fn`` recording each call; the wrapper keeps ``fn``'s name (tasks name the function)."""
        log = self

        def recorded(*args: Any, **kwargs: Any) -> Any:
            log._started += 1
            subject = view.subject(args, kwargs)
            if label:
                subject = f"{label}: {subject}" if subject else label
            notes: Callable[[], str] | None = None
            if view.watch is not None:
                args, kwargs, notes = view.watch(args, kwargs)
            try:
                got = fn(*args, **kwargs)
            except BaseException as exc:  # recorded, then passed on unchanged
                log.record(subject, _join(f"raised {describe(exc)}", notes, view, args, kwargs))
                raise
            log.record(subject, _join(describe(got) if view.returns else "returned", notes, view, args, kwargs))
            return got

        recorded.__name__ = getattr(fn, "__name__", self.function)
        recorded.__qualname__ = getattr(fn, "__qualname__", self.function)
        recorded.__wrapped__ = fn  # type: ignore[attr-defined]
        return recorded


def _join(head: str, notes: Callable[[], str] | None, view: CallView, args: tuple[Any, ...],
          kwargs: dict[str, Any]) -> str:
    parts = [head]
    if notes is not None:
        parts.append(notes())
    if view.state is not None:
        try:
            parts.append(view.state(args, kwargs))
        except Exception as err:  # noqa: BLE001 - the learner left the state unreadable: that is the result
            parts.append(f"the state could not be read afterwards ({type(err).__name__}: {err})")
    return "; ".join(p for p in parts if p)


# -- comparing -----------------------------------------------------------------------------
@attrs.frozen
class CallDifference:
    """The first call where the learner's run and the reference run differ."""

    number: int
    subject: str
    yours: str
    real: str
    other_subject: str = ""
    """The reference call's inputs when they differ from the learner's (an earlier effect)."""

    def describe(self, function: str) -> str:
        if self.other_subject:
            return (f"call {self.number}, which got other inputs than the real run's: yours "
                    f"{_clip(self.subject)}, the real one {_clip(self.other_subject)} (something your "
                    "function did earlier changed the run)")
        where = f" ({_clip(self.subject)})" if self.subject else ""
        return f"call {self.number}{where}: yours {_clip(self.yours)}, the real one {_clip(self.real)}"


@attrs.frozen
class CallComparison:
    """The learner's calls against the reference's, in one scenario run (or rest of a run)."""

    function: str
    reference: Calls
    learner: Calls

    @property
    def calls(self) -> int:
        """How many times the learner's function was called (measured; calls still running when
        the run ended included)."""
        return self.learner.started

    @property
    def first_difference(self) -> CallDifference | None:
        ref, mine = self.reference.kept, self.learner.kept
        for a, b in zip(ref, mine):
            if a.subject != b.subject:
                return CallDifference(b.number, b.subject, b.result, a.result, other_subject=a.subject)
            if a.result != b.result:
                return CallDifference(b.number, b.subject, b.result, a.result)
        if self.reference.count != self.learner.count:
            n = min(self.reference.count, self.learner.count) + 1
            if self.learner.count < self.reference.count:
                real = ref[n - 1] if n - 1 < len(ref) else None
                return CallDifference(n, real.subject if real else "", "(no such call: your run ended sooner)",
                                      real.result if real else "(a call)")
            extra = mine[n - 1] if n - 1 < len(mine) else None
            return CallDifference(n, extra.subject if extra else "", extra.result if extra else "(a call)",
                                  "(no such call: the real run made only "
                                  f"{self.reference.count})")
        if self.reference.digest != self.learner.digest:
            return CallDifference(len(ref) + 1, "", f"a call after the first {len(ref):,} differs",
                                  "(calls past that are compared by digest only)")
        if self.reference.started != self.learner.started:
            return CallDifference(self.learner.count + 1, "",
                                  f"{self.learner.started - self.learner.count} call(s) still running at the end",
                                  f"{self.reference.started - self.reference.count} call(s) still running at the end")
        return None

    @property
    def same(self) -> bool:
        """Called at least once, and every call gave what the reference gave at the same inputs."""
        return self.learner.started > 0 and self.first_difference is None

    def sentence(self) -> str:
        """One sentence for a report."""
        name = self.learner.what or self.reference.what or f"your {self.function}()"
        n, k = self.learner.started, self.reference.started
        if n == 0:
            return (f"{name} was never called in this run (the reference was called {k} "
                    f"time{'s' if k != 1 else ''}), so it was not tested")
        diff = self.first_difference
        times = f"{n} time{'s' if n != 1 else ''}"
        if diff is None:
            return f"{name} was called {times} and gave what the reference gives on every call"
        return f"{name} was called {times} and differs from the reference at {diff.describe(self.function)}"


def compare_calls(reference: Calls, learner: Calls) -> CallComparison:
    return CallComparison(learner.function or reference.function, reference, learner)


def _clip(text: str, limit: int = _SHOW) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


__all__ = ["Call", "CallComparison", "CallDifference", "CallLog", "CallView", "Calls", "DEFAULT_VIEW",
           "compare_calls", "describe", "describe_inputs"]
