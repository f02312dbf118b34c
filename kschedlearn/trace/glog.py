"""Go's glog, as trace events: ``glog.v(4).infof(...)``, ``infof``, ``warningf``, ``errorf``, ``fatalf``.

Go: https://github.com/kubernetes/kubernetes/blob/v1.6.1/vendor/github.com/golang/glog/glog.go

Each call becomes a ``log`` trace event on the current runtime (level and verbosity in
``data``); a simulation's observation layer may attach trace points right after a given line
(``Observation.on_log``), whether or not its verbosity is on. Outside a traced runtime the line goes to Python's ``logging`` (logger
``kschedlearn.glog``). ``fatalf`` raises :class:`FatalError`, which kills the calling goroutine's
simulated process — exactly what ``glog.Fatalf`` (exit code 255) does to the Go binary.
"""

from __future__ import annotations

import logging
import sys
from typing import Any

import attrs

from kschedlearn.sim.runtime import current_goroutine
from kschedlearn.trace.core import emit
from kschedlearn.trace.gofmt import sprintf

_logger = logging.getLogger("kschedlearn.glog")
#: the format of a line whose text is already made (``info``, ``error``, ``fatalf``'s message)
_JOINED = "%s"
_PY_LEVEL = {"INFO": logging.DEBUG, "WARNING": logging.WARNING, "ERROR": logging.ERROR, "FATAL": logging.CRITICAL}


class FatalError(SystemExit):
    """``glog.Fatalf``: the process logs and exits with status 255."""

    def __init__(self, message: str) -> None:
        super().__init__(255)
        self.message = message

    def __str__(self) -> str:
        return self.message


def _log(level: str, verbosity: int, fmt: str, args: tuple[Any, ...]) -> None:
    """Record one line; format it only if somebody will read it.

    Go's ``glog.V(n)`` is a bool and ``Verbose.Infof`` on a false one returns before anything is
    formatted
    (https://github.com/kubernetes/kubernetes/blob/v1.6.1/vendor/github.com/golang/glog/glog.go#L1041-L1047);
    Python's logging also skips a disabled level. So the V(5) line of every ``FinishBinding``
    costs a level check, not a formatted message.
    """
    g = current_goroutine()
    runtime = g.runtime if g is not None else None
    tracer = runtime.tracer if runtime is not None else None
    if tracer is not None:
        if _enabled(g, tracer, verbosity, 3):
            emit("log", sprintf(fmt, *args), data={"level": level, "v": verbosity})
    else:
        py_level = _PY_LEVEL[level]
        if _logger.isEnabledFor(py_level):
            _logger.log(py_level, sprintf(fmt, *args))
    observation = runtime.observation if runtime is not None else None
    if observation is not None and observation.log_hooks:
        # the simulation's trace points at this line (kschedlearn.observe): the logging function
        # is one frame up, the mirrored line that logs two
        observation.after_log(fmt, args, sys._getframe(2))


def _enabled(g: Any, tracer: Any, verbosity: int, depth: int) -> bool:
    """Is ``V(verbosity)`` on in ``g``'s process? Its glog flags if its command line set any
    (``--v``, ``--vmodule``), else the tracer's ``log_verbosity``; ``depth`` frames up is the
    caller whose module ``--vmodule`` matches."""
    settings = g.process.glog
    if settings is None:
        return verbosity <= tracer.log_verbosity
    return verbosity == 0 or settings.enabled(verbosity, depth + 1)


@attrs.frozen
class Verbose:
    """What ``glog.V(n)`` returns: logs at INFO when verbosity ``n`` is enabled."""

    level: int

    def __bool__(self) -> bool:
        g = current_goroutine()
        tracer = g.runtime.tracer if g is not None else None
        return tracer is not None and _enabled(g, tracer, self.level, 2)

    def infof(self, fmt: str, *args: Any) -> None:
        _log("INFO", self.level, fmt, args)

    def info(self, *args: Any) -> None:
        _log("INFO", self.level, _JOINED, (" ".join(str(a) for a in args),))


def v(level: int) -> Verbose:
    """``glog.V(level)``."""
    return Verbose(level)


def infof(fmt: str, *args: Any) -> None:
    _log("INFO", 0, fmt, args)


def warningf(fmt: str, *args: Any) -> None:
    _log("WARNING", 0, fmt, args)


def errorf(fmt: str, *args: Any) -> None:
    _log("ERROR", 0, fmt, args)


def error(*args: Any) -> None:
    _log("ERROR", 0, _JOINED, (" ".join(str(a) for a in args),))


def fatalf(fmt: str, *args: Any) -> None:
    """Log at FATAL and end the process (raises :class:`FatalError`)."""
    message = sprintf(fmt, *args)
    _log("FATAL", 0, _JOINED, (message,))
    raise FatalError(message)
