"""``ask(key, answer)``: a learner's prediction, checked against a simulation run.

Go: none — kschedlearn-only (issue 22 item 2: every "Try this" becomes a checked activity). A
notebook cell poses a question in prose and ends with ``ask("05/expire-time", None)``; the
learner replaces ``None`` with a prediction and runs the cell. Only then is the truth computed —
by running the simulation (or the mirrored structure) the question is about, never from a
stored answer — and the verdict, the simulated value and an explanation built from that run
are shown. The verdict is recorded in the learner's progress (kind ``prediction``).

A *code task* is the same with a function for an answer: ``check("02/app-index", fn)`` (see
:func:`kschedlearn.exercises.check`) runs the learner's function inside the mirrored code and
compares what it produces with what the real code produces (kind ``check``).

Activities are :class:`Activity` values listed by the ``activities_*`` modules; ``ask``
with an unknown key, or an answer of the wrong shape, shows a sentence saying what is expected
(never a traceback) and records nothing.
"""

from __future__ import annotations

import difflib
import html
import importlib
from collections.abc import Callable
from functools import cache
from typing import Any

import attrs

from kschedlearn.curriculum import progress
from kschedlearn.curriculum.markdown import inline, to_html

_BOX = ("border:1px solid #c5cae9;border-radius:6px;padding:6px 12px;margin:4px 0;background:#f8f9ff;"
        "line-height:1.45")


class AnswerError(ValueError):
    """An answer of the wrong shape (the message says what the activity expects)."""


@attrs.frozen
class Truth:
    """What the simulator says, and why (a sentence built from the run), and where to look."""

    value: Any
    explanation: str
    shown: str = ""
    where: str = ""

    @property
    def text(self) -> str:
        return self.shown or _show(self.value)


@attrs.frozen
class Activity:
    """One checked activity. ``truth()`` runs the simulation; ``parse`` turns an answer into the
    form ``truth().value`` has (raising :class:`AnswerError` with what is expected)."""

    key: str
    prompt: str
    expects: str
    truth: Callable[[], Truth]
    parse: Callable[[Any], Any]
    kind: str = "prediction"
    judge: Callable[[Any, Any], bool] = attrs.field(default=lambda got, want: got == want)
    run_answer: Callable[[Any], Any] | None = None
    """For a code task: runs the learner's function in the mirrored code, giving its result."""


#: the modules whose ``ACTIVITIES`` tuple lists the activities (by course unit)
ACTIVITY_MODULES = ("activities_intro", "activities_cache", "activities_more", "activities_companion")


@cache
def _registry() -> dict[str, Activity]:
    found: dict[str, Activity] = {}
    for name in ACTIVITY_MODULES:
        for a in importlib.import_module(f"kschedlearn.curriculum.{name}").ACTIVITIES:
            if a.key in found:
                raise ValueError(f"activity {a.key!r} is defined twice")
            found[a.key] = a
    return found


def get(key: str) -> Activity:
    """The activity ``key``; KeyError naming the close ones otherwise."""
    registry = _registry()
    if key in registry:
        return registry[key]
    close = difflib.get_close_matches(str(key), list(registry), n=3)
    raise KeyError(f"no activity {key!r}" + (f"; did you mean {', '.join(map(repr, close))}?" if close else ""))


def keys() -> tuple[str, ...]:
    """Every activity key."""
    return tuple(sorted(_registry()))


@attrs.frozen
class AskResult:
    """What one ``ask`` showed: the question, and (once answered) the verdict and the truth."""

    activity: Activity | None
    key: str
    answer: Any = None
    correct: bool | None = None
    truth: Truth | None = None
    message: str = ""
    recorded: bool = False

    @property
    def answered(self) -> bool:
        return self.correct is not None

    def __str__(self) -> str:
        head = f"[{self.key}] " + (self.activity.prompt if self.activity else "")
        if self.message:
            return f"{head}\n{self.message}"
        if self.truth is None:
            return f"{head}\nYour prediction: replace None with {self.activity.expects if self.activity else 'it'}."
        mark = "Right." if self.correct else f"Not quite: you said {_show(self.answer)}."
        return f"{head}\n{mark} The simulator says: {self.truth.text}. {self.truth.explanation}"

    def _repr_html_(self) -> str:
        prompt = to_html(self.activity.prompt) if self.activity else ""
        parts = [f'<div class="kschedlearn-ask" style="{_BOX}"><b>Predict</b> '
                 f'<span style="color:#666">({html.escape(self.key)})</span>{prompt}']
        if self.message:
            parts.append(f'<div class="kschedlearn-ask-message" style="color:#8a1c1c">{inline(self.message)}</div>')
        elif self.truth is None and self.activity is not None:
            parts.append(f'<div style="color:#555"><i>Write your prediction in place of <code>None</code> '
                         f"({inline(self.activity.expects)}) and run the cell: the simulator answers.</i></div>")
        elif self.truth is not None:
            mark = ('<b style="color:#2e7d32">✓ Right.</b>' if self.correct else
                    f'<b style="color:#c62828">✗ Not quite</b> — you said <i>{html.escape(_show(self.answer))}</i>.')
            parts.append(f'<div class="kschedlearn-verdict">{mark} The simulator says: '
                         f"<b>{inline(self.truth.text)}</b>.{to_html(self.truth.explanation)}"
                         + (f'<div style="color:#555">{inline(self.truth.where)}</div>' if self.truth.where else "")
                         + "</div>")
        return "".join(parts) + "</div>"


def _show(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    return str(value)


def ask(key: str, answer: Any = None) -> AskResult:
    """Check a prediction against the simulator (``None``: show the question only)."""
    try:
        activity = get(key)
    except KeyError as err:
        return AskResult(None, str(key), answer, message=str(err.args[0]))
    if activity.kind != "prediction":
        return AskResult(activity, key, answer, message=(
            f"`{key}` is a code task: write the function and run `check({key!r}, your_function)`."))
    if answer is None:
        return AskResult(activity, key)
    return _judge(activity, answer)


def check_code(key: str, fn: Any) -> AskResult:
    """A code task: run ``fn`` inside the mirrored code and compare with the real code's result."""
    try:
        activity = get(key)
    except KeyError as err:
        return AskResult(None, str(key), fn, message=str(err.args[0]))
    if activity.kind != "check":
        return AskResult(activity, key, fn, message=f"`{key}` is a prediction: run `ask({key!r}, your_answer)`.")
    if not callable(fn):
        return AskResult(activity, key, fn, message=f"check({key!r}, fn): fn must be your function, "
                                                    f"got {type(fn).__name__}.")
    return _judge(activity, fn)


def _judge(activity: Activity, answer: Any) -> AskResult:
    try:
        given = activity.parse(answer)
    except AnswerError as err:
        return AskResult(activity, activity.key, answer, message=str(err))
    if activity.run_answer is not None:
        given, failed = _run_learner(activity, given)
        if failed:
            truth = activity.truth()
            rec = progress.record(activity.kind, activity.key, False, detail=failed)
            return AskResult(activity, activity.key, f"your function {failed}", False, truth, recorded=rec is not None)
    truth = activity.truth()
    correct = bool(activity.judge(given, truth.value))
    rec = progress.record(activity.kind, activity.key, correct)
    return AskResult(activity, activity.key, given, correct, truth, recorded=rec is not None)


#: seconds a code task's learner function may run (all of its calls together)
CODE_TASK_SECONDS = 10.0


def _run_learner(activity: Activity, fn: Any) -> tuple[Any, str]:
    """Run a code task's learner function inside the mirrored code, in a forked child (as the
    exercises' ``check`` does: an endless loop, an exit or a crash is reported, never reaches the
    kernel). Returns (result, "") or (None, what went wrong)."""
    from kschedlearn.exercises import sandbox

    run = activity.run_answer
    assert run is not None

    def work(send: Callable[[Any], None]) -> None:
        try:
            send(("ok", run(fn)))
        except BaseException as err:  # noqa: BLE001 - the learner's error is the report
            send(("raised", f"{type(err).__name__}: {err}"))

    if not sandbox.fork_available():
        try:
            return run(fn), ""
        except Exception as err:  # noqa: BLE001 - the learner's error is the report
            return None, f"raised {type(err).__name__}: {err}"
    child = sandbox.run_in_child(work, CODE_TASK_SECONDS)
    child.replay()
    if not child.items:
        return None, f"did not finish: {child.ending}"
    status, value = child.items[0]
    return (value, "") if status == "ok" else (None, f"raised {value}")


# --- answer parsers (each raises AnswerError saying what is expected) --------------------------


def number(answer: Any) -> float:
    """A number (int or float)."""
    if isinstance(answer, bool) or not isinstance(answer, (int, float)):
        raise AnswerError(f"this question wants a number, got {answer!r}")
    return float(answer)


def integer(answer: Any) -> int:
    """A whole number."""
    if isinstance(answer, bool) or not isinstance(answer, int):
        raise AnswerError(f"this question wants a whole number, got {answer!r}")
    return answer


def one_of(*options: str) -> Callable[[Any], str]:
    """One of ``options`` (case and surrounding blanks ignored)."""

    def parse(answer: Any) -> str:
        text = str(answer).strip().lower() if isinstance(answer, str) else None
        for o in options:
            if text == o.lower():
                return o
        raise AnswerError(f"answer one of {', '.join(repr(o) for o in options)}; got {answer!r}")

    parse.options = options  # type: ignore[attr-defined] - what a test or a hint may list
    return parse


def names(answer: Any) -> tuple[str, ...]:
    """A list of names (strings), in order."""
    if isinstance(answer, str):
        return (answer,)
    if not isinstance(answer, (list, tuple)) or not all(isinstance(a, str) for a in answer):
        raise AnswerError(f"this question wants a list of names (strings), got {answer!r}")
    return tuple(answer)


def name_set(answer: Any) -> frozenset[str]:
    """A set of names (order does not matter)."""
    return frozenset(names(answer))


def function(answer: Any) -> Any:
    """A function (code tasks)."""
    if not callable(answer):
        raise AnswerError(f"this task wants your function, got {type(answer).__name__}")
    return answer


def stage_name(answer: Any) -> str:
    """A trace stage's name (a close match is suggested for a typo)."""
    from kschedlearn.simulation.history import TEACHING_STAGES
    from kschedlearn.trace.stages import CATALOGUE

    if not isinstance(answer, str) or not answer.strip():
        raise AnswerError(f"this question wants a stage name such as 'assume', got {answer!r}")
    name = answer.strip()
    known = set(TEACHING_STAGES) | set(CATALOGUE)
    if name not in known:
        close = difflib.get_close_matches(name, sorted(known), n=3)
        raise AnswerError(f"{name!r} is not a trace stage" + (f"; did you mean {', '.join(map(repr, close))}?"
                                                                 if close else ""))
    return name


def text(answer: Any) -> str:
    """A short text (compared as written, blanks around it ignored)."""
    if not isinstance(answer, str) or not answer.strip():
        raise AnswerError(f"this question wants a text such as \"Insufficient memory\", got {answer!r}")
    return answer.strip()


def stage_list(answer: Any) -> tuple[str, ...]:
    """A list of Delta types in order (``["Deleted", "Sync"]``)."""
    types = ("Added", "Updated", "Deleted", "Sync")
    if isinstance(answer, str):
        answer = [answer]
    if not isinstance(answer, (list, tuple)) or not all(isinstance(a, str) and a in types for a in answer):
        raise AnswerError(f"answer a list of Delta types from {', '.join(types)}, in order; got {answer!r}")
    return tuple(answer)


def seconds(answer: Any) -> float:
    """A time in seconds."""
    if isinstance(answer, bool) or not isinstance(answer, (int, float)):
        raise AnswerError(f"this question wants a time in seconds (a number), got {answer!r}")
    return float(answer)


def near(tolerance: float) -> Callable[[Any, Any], bool]:
    """A judge for measured values: right within ``tolerance``."""
    return lambda got, want: abs(float(got) - float(want)) <= tolerance


def reasons_answer(answer: Any) -> frozenset[str]:
    """A list of failure reasons (empty if it fits)."""
    if isinstance(answer, str):
        answer = [answer]
    if not isinstance(answer, (list, tuple, set, frozenset)) or not all(isinstance(a, str) for a in answer):
        raise AnswerError(f"answer a list of failure reasons such as [\"Insufficient cpu\"] ([] if it fits); "
                          f"got {answer!r}")
    return frozenset(a.strip() for a in answer)


def score_list(answer: Any) -> tuple[int, ...]:
    """A list of whole-number scores."""
    if not isinstance(answer, (list, tuple)) or not all(isinstance(a, int) and not isinstance(a, bool) for a in answer):
        raise AnswerError(f"answer a list of whole numbers such as [10, 5, 0], got {answer!r}")
    return tuple(answer)


__all__ = ["Activity", "AnswerError", "AskResult", "Truth", "ask", "check_code", "function", "get", "integer", "keys",
           "name_set", "names", "near", "number", "one_of", "reasons_answer", "score_list", "seconds", "stage_list",
           "stage_name", "text"]
