"""Panics and ``HandleCrash``: what a Go panic is in Python, and how it ends a process.

Go: staging/src/k8s.io/apimachinery/pkg/util/runtime/runtime.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/util/runtime/runtime.go#L28-L80

A Go function reports an expected failure by *returning* an ``error``; mirrored code raises an
``Exception`` for that and the Go caller's ``if err != nil`` becomes an ``except``. A Go
*panic* is different: no ``if err != nil`` sees it, it unwinds the goroutine, and (unless a
``recover`` stops it — 1.6's ``HandleCrash`` re-panics) it kills the whole program. So every
``except`` that stands for a returned Go error lets :data:`PANICS` through first
(``except PANICS: raise``), and the simulated runtime records the exception escaping the
goroutine as a crash of its process.

Differs from Go: Python's own runtime errors stand for Go's runtime panics — ``AttributeError``
(reading through ``None``: a nil pointer dereference), ``IndexError`` (index out of range) and
``ZeroDivisionError`` (integer divide by zero) — beside the explicit :class:`GoPanic`.
``PanicHandlers`` is a tuple fixed at import (Go: a mutable package variable), ``ReallyCrash``
is always true (1.6's default), and logPanic prints no caller list (Go's is a list of Go
``file:line`` frames, which a Python mirror cannot reproduce).
"""

from __future__ import annotations

from collections.abc import Callable

from kschedlearn.trace import glog


class GoPanic(RuntimeError):
    """A Go ``panic(...)``: nothing in mirrored code catches it, so it kills the simulated process.

    Go: the built-in ``panic`` (no source symbol).
    Differs from Go: Go unwinds with ``panic``; Python raises, and the runtime records the
    exception escaping the goroutine as a crash of that process.
    """

    def go_value(self) -> str:
        """The panic value as Go's ``%#v`` prints it (a string value: quoted)."""
        return '"' + str(self).replace("\\", "\\\\").replace('"', '\\"') + '"'


class NilPointerDereference(GoPanic):
    """Go's runtime panic on reading through a nil pointer (1.6 quirks raise it, see cache.py).

    Go: the runtime error ``invalid memory address or nil pointer dereference``
    (no source symbol); a :class:`GoPanic`.
    """

    def __init__(self) -> None:
        super().__init__("runtime error: invalid memory address or nil pointer dereference")

    def go_value(self) -> str:
        # Go's runtime.errorString value holds the text without the "runtime error: " prefix.
        return '"invalid memory address or nil pointer dereference"'


PANICS: tuple[type[BaseException], ...] = (GoPanic, AttributeError, IndexError, ZeroDivisionError)
"""The exceptions that stand for a Go panic (see the module docstring). kschedlearn-only."""


def is_panic(err: BaseException) -> bool:
    """Whether ``err`` stands for a Go panic rather than a returned ``error``. kschedlearn-only."""
    return isinstance(err, PANICS)


def _log_panic(r: BaseException) -> None:
    """Go: logPanic — runtime.go#L63-L67 (``Observed a panic: %#v (%v)`` and the callers)."""
    value = r.go_value() if isinstance(r, GoPanic) else f"{type(r).__name__}({str(r)!r})"
    glog.errorf("Observed a panic: %s (%v)\n%v", value, r, "")


PANIC_HANDLERS: tuple[Callable[[BaseException], None], ...] = (_log_panic,)
"""Go: PanicHandlers — runtime.go#L35-L36."""


def handle_crash(*additional_handlers: Callable[[BaseException], None]) -> _HandleCrash:
    """``defer runtime.HandleCrash()``: on a panic, run the handlers, then panic again.

    Go: HandleCrash — runtime.go#L38-L61 (``ReallyCrash`` is true in 1.6, so it re-panics).
    Differs from Go: a ``with`` block around the deferred-to body instead of ``defer``; only
    :data:`PANICS` are recovered (``glog.Fatalf`` exits the process in Go, it is no panic); a
    panic already handled by an inner ``handle_crash`` (a Parallelize piece, see below) is
    passed on without running the handlers again. The ``with`` object is a small class rather
    than a ``contextlib`` generator: Parallelize enters one per node per priority pass, and the
    generator machinery cost more than the checks it guards.
    """
    if not additional_handlers:
        return _HANDLE_CRASH
    return _HandleCrash(additional_handlers)


class _HandleCrash:
    """The ``with handle_crash(...)`` block: nothing on entry, the recover-and-re-panic on exit."""

    __slots__ = ("additional_handlers",)

    def __init__(self, additional_handlers: tuple[Callable[[BaseException], None], ...]) -> None:
        self.additional_handlers = additional_handlers

    def __enter__(self) -> None:
        return None

    def __exit__(self, exc_type: type[BaseException] | None, r: BaseException | None, tb: object) -> bool:
        if r is None or not isinstance(r, PANICS):
            return False  # no panic (or no exception at all): nothing to recover
        # A Parallelize piece runs in its caller's goroutine here (Go: a worker goroutine whose
        # re-panic ends the program at once), so the caller's HandleCrash meets the same panic
        # again: it is handled, and logged, only once.
        if getattr(r, "_kschedlearn_crash_handled", False):
            return False
        r._kschedlearn_crash_handled = True  # type: ignore[union-attr]
        for fn in PANIC_HANDLERS:
            fn(r)
        for fn in self.additional_handlers:
            fn(r)
        return False  # re-panic: the exception goes on


#: the shared block for the common ``handle_crash()`` without extra handlers (it holds no state)
_HANDLE_CRASH = _HandleCrash(())


def handle_error(err: BaseException | None) -> None:
    """Report an error that cannot be returned: log it (``logError``) and go on.

    Go: HandleError — runtime.go#L97-L110 with ``ErrorHandlers`` = logError (glog.ErrorDepth).
    Differs from Go: the second handler, ``rudimentaryErrorBackoff`` (which sleeps so that at
    most one error per millisecond is logged process-wide), is not mirrored.
    """
    # this is sometimes called with a nil error.  We probably shouldn't fail and should do nothing instead
    if err is None:
        return
    glog.errorf("%v", err)
