"""glog's command-line flags, one settings object per simulated process.

Go: the flags glog registers on Go's ``flag.CommandLine`` in its ``init``
https://github.com/kubernetes/kubernetes/blob/v1.6.1/vendor/github.com/golang/glog/glog.go#L398-L411
and ``log_dir`` in glog_file.go; kube-scheduler's ``main`` copies them onto pflag's command line
with ``flag.InitFlags`` (see ``kschedlearn.cmd.kube_scheduler.main_flags``).

What each flag does here: ``--v`` (shorthand ``-v``) and ``--vmodule`` choose which ``V(n)``
lines the process records, as in Go. ``--logtostderr``, ``--alsologtostderr``,
``--stderrthreshold``, ``--log-dir`` and ``--log-backtrace-at`` are parsed and validated with
glog's own rules and messages and kept in :class:`Logging`, but change nothing: a simulated
process writes its log lines as trace events, not to files or a terminal.

Differs from Go: glog's state is per binary (package globals); here one :class:`Logging` per
simulated process (``Process.glog``), since several processes run side by side. A process
without one records ``V(n)`` lines up to its tracer's ``log_verbosity``.
"""

from __future__ import annotations

import fnmatch
import sys
from typing import Any

import attrs



#: Go: glog's severityName, in order (infoLog = 0 ... fatalLog = 3).
SEVERITY_NAMES = ("INFO", "WARNING", "ERROR", "FATAL")
_ERR_VMODULE = "syntax error: expect comma-separated list of filename=N"
_ERR_TRACE = "syntax error: expect file.go:234"


def atoi(s: str) -> int:
    """Go 1.7's ``strconv.Atoi``: base 10 only, 64-bit, ParseInt's error texts."""
    body = s[1:] if s[:1] in ("+", "-") else s
    if body == "" or not body.isascii() or not body.isdigit():
        raise ValueError(f'strconv.ParseInt: parsing "{s}": invalid syntax')
    if len(body) > 19 or not -(1 << 63) <= int(s) < (1 << 63):
        raise ValueError(f'strconv.ParseInt: parsing "{s}": value out of range')
    return int(s)


@attrs.define(eq=False)
class Logging:
    """The part of glog's ``loggingT`` its flags set (defaults as after glog's ``init``).

    Go: type loggingT
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/vendor/github.com/golang/glog/glog.go#L418-L456
    """

    to_stderr: bool = False
    also_to_stderr: bool = False
    stderr_threshold: int = 2  # glog's init: errorLog
    verbosity: int = 0
    vmodule: tuple[tuple[str, int], ...] = ()
    trace_location: tuple[str, int] | None = None
    log_dir: str = ""

    def enabled(self, level: int, depth: int = 2) -> bool:
        """Go: ``V(level)``'s test -- the global level, else the caller's file against ``-vmodule``.

        The caller's "file" is its Python module's last name, which is its Go file's name by the
        project's naming rule (``generic_scheduler`` for generic_scheduler.go).
        """
        if self.verbosity >= level:
            return True
        if not self.vmodule:
            return False
        module = sys._getframe(depth).f_globals.get("__name__", "")
        file = module.rsplit(".", 1)[-1]
        for pattern, v in self.vmodule:
            if fnmatch.fnmatchcase(file, pattern):
                return v >= level
        return False


# -- the flag values (pflag's Value: string / set / type) ------------------------------------------
@attrs.define(eq=False)
class _Field:
    """One glog flag bound to a :class:`Logging` field; ``kind`` is Go's type name pflag shows."""

    logging: Logging
    field: str
    kind: str

    def string(self) -> str:
        value = getattr(self.logging, self.field)
        if self.kind == "bool":
            return "true" if value else "false"
        if self.kind == "moduleSpec":
            return ",".join(f"{p}={v}" for p, v in value)
        if self.kind == "traceLocation":
            return "" if value is None else f"{value[0]}:{value[1]}"
        return str(value)

    def set(self, s: str) -> None:
        setattr(self.logging, self.field, _PARSERS[self.kind](s))

    def type(self) -> str:
        return self.kind


def _parse_bool(s: str) -> bool:
    from kschedlearn.cmd.kube_scheduler.app.options.pflag import parse_bool

    return parse_bool(s)


def _parse_severity(s: str) -> int:
    """Go: (*severity).Set -- a name (any case) or a number."""
    if s.upper() in SEVERITY_NAMES:
        return SEVERITY_NAMES.index(s.upper())
    return atoi(s)


def _parse_vmodule(s: str) -> tuple[tuple[str, int], ...]:
    """Go: (*moduleSpec).Set -- ``pattern=N,...``; empty items skipped, N = 0 dropped."""
    out: list[tuple[str, int]] = []
    for pat in s.split(","):
        if pat == "":
            continue
        parts = pat.split("=")
        if len(parts) != 2 or parts[0] == "" or parts[1] == "":
            raise ValueError(_ERR_VMODULE)
        try:
            v = atoi(parts[1])
        except ValueError:
            raise ValueError(_ERR_VMODULE) from None
        if v < 0:
            raise ValueError("negative value for vmodule level")
        if v:
            out.append((parts[0], v))
    return tuple(out)


def _parse_trace_location(s: str) -> tuple[str, int] | None:
    """Go: (*traceLocation).Set -- ``file.go:N``; Go's "unset" branch falls through to the
    syntax check, so an empty value is an error too."""
    fields = s.split(":")
    if len(fields) != 2 or "." not in fields[0]:
        raise ValueError(_ERR_TRACE)
    try:
        line = atoi(fields[1])
    except ValueError:
        raise ValueError(_ERR_TRACE) from None
    if line <= 0:
        raise ValueError("negative or zero value for level")
    return fields[0], line


_PARSERS: dict[str, Any] = {
    "bool": _parse_bool,
    "string": lambda s: s,
    "Level": atoi,
    "severity": _parse_severity,
    "moduleSpec": _parse_vmodule,
    "traceLocation": _parse_trace_location,
}

#: (Go flag name, field, Go type, usage) in glog's registration order.
GLOG_FLAGS: tuple[tuple[str, str, str, str], ...] = (
    ("logtostderr", "to_stderr", "bool", "log to standard error instead of files"),
    ("alsologtostderr", "also_to_stderr", "bool", "log to standard error as well as files"),
    ("v", "verbosity", "Level", "log level for V logs"),
    ("stderrthreshold", "stderr_threshold", "severity", "logs at or above this threshold go to stderr"),
    ("vmodule", "vmodule", "moduleSpec", "comma-separated list of pattern=N settings for file-filtered logging"),
    ("log_backtrace_at", "trace_location", "traceLocation", "when logging hits line file:N, emit a stack trace"),
    ("log_dir", "log_dir", "string", "If non-empty, write log files in this directory"),
)


def go_flag_values(logging: Logging) -> list[tuple[str, _Field, str]]:
    """Each glog flag as (Go name, bound value, usage), for pflag's ``AddGoFlagSet``."""
    return [(name, _Field(logging, field, kind), usage) for name, field, kind, usage in GLOG_FLAGS]


__all__ = ["GLOG_FLAGS", "Logging", "SEVERITY_NAMES", "atoi", "go_flag_values"]
