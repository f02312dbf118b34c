"""Where am I in the code: the mirrored Python function running at an event, and its Go twin.

Go: none — kschedlearn-only (Python Tutor's code pane). Built on what every event already
records: its goroutine's call stack (``TraceEvent.stack``: mirrored frames only, never the
runtime, the tracer or the observation layer) and what the event observed (``TraceEvent.observed``:
the call its trace point stands at, before or after it; the line that raised, for a crash). The
frame shown is the innermost one in *mirrored* code — a module under the mirrored packages whose
``Go:`` line is not ``kschedlearn-only`` — at the line making the observed call: always a Go-twin
statement, never a trace line.

The Go twin — the Go function's symbol, its exact line range, and the Go line standing for each
Python line — comes from the committed table ``simulation/data/go_twins.json`` (line numbers are
facts, derived by ``tools/go_twins.py`` from the v1.6.1 tree and the link table CI checks). A
frame of a Python helper with no Go twin of its own (``fifo._run_process``, the tail of both
queues' ``Pop``) gives way to the mirrored frame that called it, whose line is Go's. Without a
table entry the symbol and range come from the function's docstring ``Go:`` line and link.
"""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import json
import textwrap
import re
import sys
from pathlib import Path
from typing import Any

import attrs

from kschedlearn.trace import TraceEvent

GO_BLOB = "https://github.com/kubernetes/kubernetes/blob/v1.6.1/"
MIRRORED_PACKAGES = ("api", "apimachinery", "client_go", "client", "scheduler", "cmd", "apis", "controller", "util")
"""The packages that mirror Go (the same list ``tests/test_conformance.py`` checks)."""

_ROOT = Path(__file__).resolve().parents[2]
_FULL_LINK = re.compile(r"https://github\.com/kubernetes/kubernetes/blob/v1\.6\.1/([\w./-]+\.go)(?:#L(\d+)(?:-L(\d+))?)?")
_SHORT_LINK = re.compile(r"(?<![\w/.])([\w]+\.go)#L(\d+)(?:-L(\d+))?")
_GO_PATH = re.compile(r"Go:\s*([\w./-]+\.go)")
_GO_FUNC = re.compile(r"func\s+(?:\(\s*\w*\s*\*?\s*(\w+)\s*\)\s*)?(\w+)")
_GO_TYPE = re.compile(r"type\s+(\w+)")
_GO_NAME = re.compile(r"([A-Za-z_][\w.]*)")


@attrs.frozen
class SourceLine:
    """One line of the Python function shown in the source pane."""

    number: int
    text: str
    current: bool


@attrs.frozen
class CodeLocation:
    """The mirrored frame executing at an event (see the module docstring).

    ``phase``: ``"running"`` (the frame was executing this line when the event was emitted),
    ``"calling"`` (the event stands just before this line's call of ``calls``), ``"returned"``
    (``calls`` has just returned to this line), ``"raised"`` (a crash: the line that raised).
    ``calls`` names the function called (its Go symbol when it has one); ``fast_paths`` names
    what kschedlearn ran in the mirror's place for this event (the accelerated engine, a fast
    path beside the mirror), if anything.
    """

    python_file: str
    python_function: str
    python_line: int
    go_symbol: str
    go_url: str
    module: str
    phase: str = "running"
    calls: str = ""
    fast_paths: tuple[str, ...] = ()
    #: the Go twin: its file (under the v1.6.1 tree), its line range, the line standing for
    #: ``python_line`` (0 when the function has no table entry)
    go_file: str = ""
    go_range: tuple[int, int] = (0, 0)
    go_line: int = 0

    def source(self) -> tuple[SourceLine, ...]:
        """The Python source of the function, each line numbered, the current one marked."""
        return function_source(self.module, self.python_function, self.python_line)

    def go_source(self) -> Any:
        """The Go twin's text with the current Go line marked (a ``go_source.GoText``: fetched
        from the v1.6.1 tag when first shown, then cached; its ``problem`` says why not)."""
        from kschedlearn.simulation.go_source import GoText, go_text

        if not self.go_file:
            return GoText(self.go_url, problem="no Go twin recorded for this function" if not self.go_url
                          else f"Go source: {self.go_url}")
        return go_text(self.go_file, self.go_range[0], self.go_range[1], self.go_line, self.go_url)


def where(event: TraceEvent | None) -> CodeLocation | None:
    """The innermost mirrored frame at ``event`` (None when no mirrored code is on its stack,
    e.g. an event from the API server or an injection made by hand)."""
    if event is None:
        return None
    observed = event.observed
    if observed is not None and observed.phase == "raised" and is_mirrored_module(observed.module):
        return locate(observed.module, observed.function, observed.line, "raised")
    frames = [f for f in reversed(event.stack) if is_mirrored_module(f.module)]
    frame = next((f for f in frames if go_twin(f.module, f.function) is not None), frames[0] if frames else None)
    if frame is None:
        if observed is not None and observed.phase == "calling" and is_mirrored_module(observed.module):
            # a goroutine about to start in a mirrored function (``go c.Run(stop)``): its first line
            return _entering(observed.module, observed.function)
        return None
    loc = locate(frame.module, frame.function, frame.line, "running")
    if observed is None:
        return loc
    phase = observed.phase if observed.phase in ("calling", "returned") else "running"
    return attrs.evolve(loc, phase=phase, calls=_callee_name(observed.module, observed.function),
                        fast_paths=observed.fast_paths)


def _entering(module: str, function: str) -> CodeLocation | None:
    """``module.function`` at its first statement, about to run."""
    fn = _resolve(module, function)
    if fn is None:
        return None
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(inspect.unwrap(fn))))
        start = inspect.getsourcelines(inspect.unwrap(fn))[1]
    except (OSError, TypeError, SyntaxError):
        return None
    body = tree.body[0].body if tree.body and hasattr(tree.body[0], "body") else []
    if body and isinstance(body[0], ast.Expr) and isinstance(getattr(body[0], "value", None), ast.Constant):
        body = body[1:]
    line = start + body[0].lineno - 1 if body else start
    return locate(module, function, line, "entering")


def _callee_name(module: str, function: str) -> str:
    """The Go symbol of a called mirrored function, else its Python name."""
    if not function:
        return ""
    twin = go_twin(module, function)
    if twin is not None:
        return str(twin["symbol"])
    if is_mirrored_module(module):
        symbol = go_reference(module, function)[0]
        if symbol:
            return symbol
    return function


def locate(module: str, function: str, line: int, phase: str = "running") -> CodeLocation:
    """A :class:`CodeLocation` for ``module.function`` at ``line``."""
    twin = go_twin(module, function)
    if twin is None:
        symbol, url = go_reference(module, function)
        return CodeLocation(python_file=_repo_path(module), python_function=function, python_line=line,
                            go_symbol=symbol, go_url=url, module=module, phase=phase)
    first, last = twin["range"]
    return CodeLocation(
        python_file=_repo_path(module), python_function=function, python_line=line,
        go_symbol=twin["symbol"], go_url=f"{GO_BLOB}{twin['go_file']}#L{first}-L{last}", module=module,
        phase=phase, go_file=twin["go_file"], go_range=(first, last), go_line=go_line_of(module, function, line))


_TWINS = Path(__file__).resolve().parent / "data" / "go_twins.json"


@functools.cache
def _twins() -> dict[str, dict[str, Any]]:
    try:
        return json.loads(_TWINS.read_text(encoding="utf-8"))  # type: ignore[no-any-return]
    except (OSError, ValueError):
        return {}


def go_twin(module: str, function: str) -> dict[str, Any] | None:
    """The table entry of ``module.function`` (a nested function is its enclosing one's)."""
    return _twins().get(f"{module}:{function.split('.<locals>')[0]}")


def go_line_of(module: str, function: str, line: int) -> int:
    """The Go line standing for Python ``line`` of ``module.function`` (0 if unknown): the
    table pairs each Python line, by its text in order, with a Go line."""
    twin = go_twin(module, function)
    if twin is None:
        return 0
    start, lines = _source_block(module, function.split(".<locals>")[0])
    if not lines or not start <= line < start + len(lines):
        return 0
    pairs = twin["lines"]
    k = 0
    found = 0
    for number, text in enumerate(lines, start):
        text = text.strip()
        if k < len(pairs) and pairs[k][0] == text:
            if number == line:
                return int(pairs[k][1])
            found = int(pairs[k][1])
            k += 1
        elif number == line:
            return found  # a line the table does not know (blank, comment, docstring): the one before
    return 0


@functools.cache
def is_mirrored_module(module: str) -> bool:
    """A module of a mirrored package whose ``Go:`` line is not ``kschedlearn-only``."""
    parts = module.split(".")
    if len(parts) < 2 or parts[0] != "kschedlearn" or parts[1] not in MIRRORED_PACKAGES:
        return False
    if parts[-1] == "instrument":
        return False
    mod = sys.modules.get(module) or _import(module)
    doc = (mod.__doc__ or "") if mod is not None else ""
    go_lines = [line for line in doc.splitlines() if line.lstrip().startswith("Go:")]
    return "kschedlearn-only" not in (go_lines[0] if go_lines else doc)


def _import(module: str) -> Any:
    try:
        return importlib.import_module(module)
    except ImportError:
        return None


def _repo_path(module: str) -> str:
    mod = sys.modules.get(module)
    path = getattr(mod, "__file__", None)
    if path:
        return _repo_file(path)
    return module.replace(".", "/") + ".py"


@functools.cache
def _repo_file(path: str) -> str:
    """A module file's path relative to the repository, once per file: ``Path.resolve`` asks the
    file system for every component of the path, and ``where`` asks at every stop (four fifths of
    ``locate``'s time)."""
    try:
        return Path(path).resolve().relative_to(_ROOT).as_posix()
    except ValueError:
        return Path(path).as_posix()


def _resolve(module: str, function: str) -> Any:
    """The function object for a qualified name; a nested function resolves to its outermost
    enclosing function (``new.<locals>.run`` → ``new``)."""
    obj: Any = sys.modules.get(module) or _import(module)
    for part in function.split(".<locals>")[0].split("."):
        obj = getattr(obj, part, None)
        if obj is None:
            return None
    return obj


@functools.cache
def go_reference(module: str, function: str) -> tuple[str, str]:
    """(Go symbol, Go URL) from the function's docstring; the URL falls back to the module's Go
    file (no line range) when the function's docstring gives none."""
    mod = sys.modules.get(module) or _import(module)
    module_doc = (getattr(mod, "__doc__", "") or "") if mod is not None else ""
    go_path = _module_go_path(module_doc)
    fn = _resolve(module, function)
    doc = inspect.getdoc(fn) or "" if fn is not None and not inspect.ismodule(fn) else ""
    symbol = _go_symbol(doc)
    url = ""
    full = _FULL_LINK.search(doc)
    if full is not None and full.group(2):
        url = _url(full.group(1), full.group(2), full.group(3))
    else:
        short = _SHORT_LINK.search(doc)
        if short is not None and go_path and go_path.rsplit("/", 1)[-1] == short.group(1):
            url = _url(go_path, short.group(2), short.group(3))
        elif short is not None and go_path:
            url = _url(go_path.rsplit("/", 1)[0] + "/" + short.group(1), short.group(2), short.group(3))
        elif go_path:
            url = GO_BLOB + go_path
    return symbol, url


def _url(path: str, first: str, last: str | None) -> str:
    return f"{GO_BLOB}{path}#L{first}" + (f"-L{last}" if last else "")


def _module_go_path(doc: str) -> str:
    full = _FULL_LINK.search(doc)
    if full is not None:
        return full.group(1)
    m = _GO_PATH.search(doc)
    return m.group(1) if m is not None else ""


def _go_symbol(doc: str) -> str:
    """``Go: func (cache *schedulerCache) AssumePod(...)`` → ``schedulerCache.AssumePod``;
    ``Go: genericScheduler.selectHost — ...`` → ``genericScheduler.selectHost``."""
    line = next((ln.strip()[3:].strip() for ln in doc.splitlines() if ln.strip().startswith("Go:")), "")
    if not line:
        return ""
    func = _GO_FUNC.match(line)
    if func is not None:
        return f"{func.group(1)}.{func.group(2)}" if func.group(1) else func.group(2)
    typ = _GO_TYPE.match(line)
    if typ is not None:
        return typ.group(1)
    name = _GO_NAME.match(line)
    return name.group(1).rstrip(".") if name is not None else ""


@functools.cache
def _source_block(module: str, function: str) -> tuple[int, tuple[str, ...]]:
    fn = _resolve(module, function)
    try:
        lines, start = inspect.getsourcelines(inspect.unwrap(fn))
    except (OSError, TypeError):
        return 0, ()
    return start, tuple(line.rstrip("\n") for line in lines)


def function_source(module: str, function: str, line: int) -> tuple[SourceLine, ...]:
    """The source lines of ``module.function`` with ``line`` marked current."""
    start, lines = _source_block(module, function)
    return tuple(SourceLine(start + i, text, start + i == line) for i, text in enumerate(lines))


__all__ = ["CodeLocation", "SourceLine", "where", "locate", "go_reference", "go_twin", "go_line_of",
           "is_mirrored_module", "function_source", "MIRRORED_PACKAGES"]
