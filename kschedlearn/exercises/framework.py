"""The exercise checker: cases, time limits, learner-error explanations, pass/fail reports.

Go: none (kschedlearn-only, DESIGN §10). A *task* names one real piece of the v1.6.1 scheduler
that the learner re-implements; its *cases* are ported from the Go test tables. ``run_checks``
calls the learner's function through a guard that

- (in-process only) stops it after a time limit (``limits.time_limit``); in the sandbox the
  parent's budget applies instead (``runner``, ``sandbox``),
- fails the case when the function changed an input it must only read (``protect``),
- turns any exception it raises into a ``LearnerFailure`` that keeps only the learner's own
  traceback frames (the checker's and the mirror's frames are noise to a learner),
- rejects a return value of the wrong type with a sentence naming both types,

so a broken answer can never take the kernel or the simulation down with it.
"""

from __future__ import annotations

import html
import sys
import traceback
from collections.abc import Callable
from typing import Any

import attrs

from kschedlearn.exercises.limits import TimeLimitExceeded, time_limit
from kschedlearn.exercises.plug_in_report import PlugInReport, counting
from kschedlearn.exercises.protect import first_change, fingerprint

MESSAGE_LIMIT = 2_000
"""Characters of one message a report keeps: a learner's value or exception text can be huge
(an exception carrying 10 MB made an 11-case report 110 MB)."""

DEFAULT_TIME_LIMIT = 10.0
"""Seconds one check (all of a task's cases, in the sandbox) may run before it is stopped; in
the in-process fallback, seconds per case."""


class WrongTypeError(TypeError):
    """The learner's function returned a value of the wrong type."""


class LearnerFailure(BaseException):
    """The learner's function raised ``original`` (or returned a wrong type).

    A ``BaseException`` so that it passes through ``except Exception`` blocks in the mirrored
    code that called the learner's function (e.g. inside a patched DeltaFIFO).
    """

    def __init__(self, original: BaseException, frames: list[str]) -> None:
        super().__init__(original)
        self.original = original
        self.frames = frames

    def describe(self) -> str:
        """One paragraph: the exception and where in the learner's code it happened."""
        kind = type(self.original).__name__
        text = f"{kind}: {clip(str(self.original), MESSAGE_LIMIT // 4)}" if str(self.original) else kind
        if not self.frames:
            return text
        return text + " - " + "; ".join(self.frames)


def clip(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """``text``, or its first ``limit`` characters and how many more there were."""
    text = str(text)
    if len(text) <= limit:
        return text
    return f"{text[:limit]} [... {len(text) - limit:,} more characters]"


def learner_frames(exc: BaseException, fn: Callable[..., Any]) -> list[str]:
    """The traceback frames of ``exc`` that are in the learner's own source file."""
    code = getattr(fn, "__code__", None)
    if code is None:
        return []
    out = []
    for fs in traceback.extract_tb(exc.__traceback__):
        if fs.filename == code.co_filename:
            line = (fs.line or "").strip()
            out.append(f"line {fs.lineno} of {fs.name}(): {line}" if line else f"line {fs.lineno} of {fs.name}()")
    return out


def _type_name(returns: type | tuple[type, ...]) -> str:
    if isinstance(returns, tuple):
        return " or ".join(t.__name__ for t in returns)
    return returns.__name__


class InputChangedError(Exception):
    """The learner's function changed an input it must only read (a pod, a NodeInfo...)."""


def guard(
    fn: Callable[..., Any],
    returns: type | tuple[type, ...] | None,
    name: str,
    *,
    protected: tuple[str, ...] = (),
    params: tuple[str, ...] = (),
    interruptible: bool = True,
) -> Callable[..., Any]:
    """Wrap the learner's ``fn``: exceptions become ``LearnerFailure``, wrong types too.

    ``protected`` names parameters (by their names in ``params``, the reference signature) that
    ``fn`` must not change: they are fingerprinted before and after the call. With
    ``interruptible`` a ``KeyboardInterrupt`` passes through (the learner pressed stop); in a
    sandbox child it is the learner's own exception and is reported like any other.
    """
    passing: tuple[type[BaseException], ...] = (TimeLimitExceeded, LearnerFailure)
    if interruptible:
        passing += (KeyboardInterrupt,)

    def guarded(*args: Any, **kwargs: Any) -> Any:
        watched = _watched(args, kwargs, params, protected)
        before = {n: fingerprint(v, n) for n, v in watched.items()}
        depth = sys.getrecursionlimit()
        try:
            got = fn(*args, **kwargs)
        except passing:
            raise
        except BaseException as exc:  # anything the learner raised, SystemExit included
            sys.setrecursionlimit(depth)
            raise LearnerFailure(exc, learner_frames(exc, fn)) from None
        finally:
            sys.setrecursionlimit(depth)  # a limit the learner lowered would break the checker
        for n, value in watched.items():
            change = first_change(before[n], fingerprint(value, n))
            if change:
                raise LearnerFailure(InputChangedError(
                    f"{name}() changed its input {n!r}: {change}; it must only read it "
                    "(in the real scheduler that object belongs to the cache)"), [])
        if returns is not None and not isinstance(got, returns):
            shown = _short(got)
            raise LearnerFailure(
                WrongTypeError(
                    f"{name}() returned a {type(got).__name__} ({shown}), "
                    f"but it must return a {_type_name(returns)}"
                ),
                [],
            )
        return got

    guarded.__name__ = name
    guarded.__wrapped__ = fn  # type: ignore[attr-defined]
    return guarded


def _watched(args: tuple[Any, ...], kwargs: dict[str, Any], params: tuple[str, ...],
             protected: tuple[str, ...]) -> dict[str, Any]:
    """The protected arguments of one call, by parameter name."""
    if not protected:
        return {}
    named = dict(zip(params, args))
    named.update(kwargs)
    return {n: named[n] for n in protected if n in named}


def _short(value: Any, limit: int = 120) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


@attrs.frozen
class Case:
    """One check: given ``given`` (in words), the learner's function must produce ``expected``.

    ``run(fn)`` builds fresh inputs, calls the (guarded) learner function as often as the case
    needs and returns what it observed; it is compared with ``expected`` by ``==``. With
    ``expect_raises`` the case passes when the learner's function raises that exception type
    (``NotImplementedError`` never counts). ``why`` is the rule the case teaches.
    """

    name: str
    given: str
    expected: Any
    run: Callable[[Callable[..., Any]], Any]
    why: str = ""
    expect_raises: type[BaseException] | None = None
    show: Callable[[Any], str] = _short


PASS = "pass"
FAIL = "fail"
ERROR = "error"
NOT_IMPLEMENTED = "not implemented"
TIMEOUT = "time limit"
WRONG_TYPE = "wrong type"
CHANGED_INPUT = "changed input"


@attrs.frozen
class CaseResult:
    """The outcome of one case: a status from the constants above and a sentence for it."""

    name: str
    status: str
    message: str = attrs.field(converter=lambda text: clip(text))

    @property
    def passed(self) -> bool:
        return self.status == PASS


def run_case(case: Case, fn: Callable[..., Any], returns: Any, name: str, limit: float | None, *,
             protected: tuple[str, ...] = (), params: tuple[str, ...] = (),
             interruptible: bool = True) -> CaseResult:
    """Run one case against the learner's ``fn``; never raises (except KeyboardInterrupt when
    ``interruptible``). ``limit`` is the in-process time limit (None in a sandbox child, where
    the parent's budget applies)."""
    guarded = guard(fn, returns, name, protected=protected, params=params, interruptible=interruptible)
    try:
        with time_limit(limit):
            got = case.run(guarded)
    except TimeLimitExceeded:
        return timed_out(case, name, limit or 0.0)
    except LearnerFailure as failure:
        return _from_failure(case, failure, name)
    except Exception as exc:  # the case's own code failed: usually a wrong answer upstream
        return CaseResult(case.name, ERROR, (
            f"Given {case.given}, checking the result failed with {type(exc).__name__}: {exc}. "
            f"This usually means your function left the data structure in an unexpected state. {case.why}").strip())
    except BaseException as exc:  # noqa: BLE001 - only reached when not interruptible
        if interruptible:
            raise
        return CaseResult(case.name, ERROR, f"Given {case.given}, checking stopped with {type(exc).__name__}: {exc}")
    if case.expect_raises is not None:
        return CaseResult(case.name, FAIL, (
            f"Given {case.given}, expected your {name}() to raise "
            f"{case.expect_raises.__name__}, but it returned normally ({case.show(got)}). {case.why}"))
    if got == case.expected:
        return CaseResult(case.name, PASS, f"Given {case.given}: got {case.show(got)}.")
    return CaseResult(case.name, FAIL, (
        f"Given {case.given}, expected {case.show(case.expected)}, got {case.show(got)}. {case.why}").strip())


def timed_out(case: Case, name: str, limit: float) -> CaseResult:
    """The result of the case that was running when the time limit was reached."""
    return CaseResult(case.name, TIMEOUT, (
        f"Given {case.given}, your {name}() was still running after {limit:g} s (time limit of "
        f"{limit:g} s reached) and was stopped. Look for a loop that never ends, or a wait that "
        "nothing wakes up."))


def not_run(case: Case, status: str, reason: str) -> CaseResult:
    """A case that never ran because an earlier one used up the budget (or ended the process)."""
    return CaseResult(case.name, status, f"Not run: {reason}.")


def _from_failure(case: Case, failure: LearnerFailure, name: str) -> CaseResult:
    original = failure.original
    if isinstance(original, NotImplementedError):
        if "___" in str(original):  # a scaffold's blanks (kschedlearn.exercises.blanks) say where
            return CaseResult(case.name, NOT_IMPLEMENTED, f"{name}() raised NotImplementedError: {original}.")
        return CaseResult(case.name, NOT_IMPLEMENTED, (
            f"{name}() raised NotImplementedError: replace the TODO with your code."))
    if isinstance(original, WrongTypeError):
        return CaseResult(case.name, WRONG_TYPE, f"Given {case.given}: {original}.")
    if isinstance(original, InputChangedError):
        return CaseResult(case.name, CHANGED_INPUT, f"Given {case.given}: {original}.")
    if case.expect_raises is not None and isinstance(original, case.expect_raises):
        return CaseResult(case.name, PASS, (
            f"Given {case.given}: raised {type(original).__name__} as expected."))
    expected = (f"expected it to raise {case.expect_raises.__name__}" if case.expect_raises
                else f"expected {case.show(case.expected)}")
    return CaseResult(case.name, ERROR, (
        f"Given {case.given}, {expected}, but your {name}() raised {failure.describe()}. {case.why}").strip())


_STATUS_ICON = {PASS: "✅", FAIL: "❌", ERROR: "💥", NOT_IMPLEMENTED: "🚧", TIMEOUT: "⏱", WRONG_TYPE: "🔠",
                CHANGED_INPUT: "✏️"}


@attrs.frozen
class CheckReport:
    """The pass/fail table of one ``check``; Jupyter shows it as HTML, ``str()`` as text."""

    task_id: str
    title: str
    results: tuple[CaseResult, ...]
    notes: tuple[str, ...] = ()
    """What the sandbox saw besides the cases: output dropped, processes left running."""

    @property
    def passed(self) -> bool:
        return bool(self.results) and all(r.passed for r in self.results)

    @property
    def counts(self) -> tuple[int, int]:
        """(passed, total)."""
        return sum(r.passed for r in self.results), len(self.results)

    def summary(self) -> str:
        ok, total = self.counts
        if ok == total:
            return f"Task {self.task_id} ({self.title}): all {total} checks passed."
        return f"Task {self.task_id} ({self.title}): {ok} of {total} checks passed."

    def __str__(self) -> str:
        lines = [self.summary(), *self.notes]
        for r in self.results:
            lines.append(f"  [{r.status.upper():^15}] {r.name}")
            if not r.passed:
                lines.append(f"      {r.message}")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        rows = []
        for r in self.results:
            colour = "#e6f4ea" if r.passed else "#fce8e6"
            rows.append(
                f'<tr style="background:{colour}"><td>{_STATUS_ICON.get(r.status, "")} '
                f"{html.escape(r.status)}</td><td>{html.escape(r.name)}</td>"
                f'<td style="text-align:left">{html.escape(r.message)}</td></tr>'
            )
        notes = "".join(f"<p>{html.escape(n)}</p>" for n in self.notes)
        return (
            f"<p><b>{html.escape(self.summary())}</b></p>{notes}"
            '<table><thead><tr><th>result</th><th>case</th><th style="text-align:left">details</th>'
            f"</tr></thead><tbody>{''.join(rows)}</tbody></table>"
        )


@attrs.frozen
class Hint:
    """One layer of hints; displayed as Markdown."""

    task_id: str
    level: int
    levels: int
    text: str

    def __str__(self) -> str:
        return f"Hint {self.level}/{self.levels} for task {self.task_id}: {self.text}"

    def _repr_markdown_(self) -> str:
        return f"**Hint {self.level}/{self.levels} for task {self.task_id}.** {self.text}"


def outcome(fn: Callable[[], Any], show: Callable[[Any], str] = str, limit: float | None = DEFAULT_TIME_LIMIT) -> str:
    """Run ``fn`` under the time limit and describe what it returned or raised, in words.

    Used by the plug-in experiments so a failing learner function shows up as a row, not a
    traceback.
    """
    try:
        with time_limit(limit):
            return show(fn())
    except TimeLimitExceeded:
        return f"stopped after {limit:g} s"
    except LearnerFailure as failure:
        return f"raised {failure.describe()}"
    except Exception as exc:
        return f"raised {type(exc).__name__}: {exc}"


__all__ = [
    "CHANGED_INPUT", "DEFAULT_TIME_LIMIT", "ERROR", "FAIL", "NOT_IMPLEMENTED", "PASS", "TIMEOUT", "WRONG_TYPE",
    "MESSAGE_LIMIT", "Case", "CaseResult", "CheckReport", "Hint", "InputChangedError", "LearnerFailure",
    "PlugInReport", "clip",
    "TimeLimitExceeded", "WrongTypeError", "counting", "guard", "learner_frames", "not_run", "outcome", "run_case",
    "time_limit", "timed_out",
]
