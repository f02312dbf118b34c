"""The sandbox's child processes: the supervisor and, under it, the worker that runs the learner's code.

Go: none (kschedlearn-only, DESIGN §10). ``sandbox.start_child`` forks :func:`supervise`; see
``sandbox``'s docstring for what each process does and why. This module holds only code that runs
in the children (and the small helpers both sides share: the message framing, the capped
output buffers, ``prctl``).
"""

from __future__ import annotations

import ctypes
import faulthandler
import io
import os
import pickle
import select
import signal
import struct
import sys
import time
import traceback
from collections.abc import Callable
from typing import Any

OUTPUT_LIMIT = 20_000
"""Characters of the child's printed output that are kept (the rest is counted, not kept)."""

HEADER = struct.Struct("!Q")
_PR_SET_PDEATHSIG = 1
_PR_SET_CHILD_SUBREAPER = 36
LIFELINES: set[int] = set()
"""Write ends of the parent's lifeline pipes of sandboxes running now: a new child closes them,
so that each supervisor's lifeline is held by the parent alone."""
_PRCTL: list[Any] = []


class CappedText(io.TextIOBase):
    """A text stream that keeps the first ``limit`` characters and counts the rest."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.kept: list[str] = []
        self.size = 0
        self.dropped = 0

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:  # type: ignore[override]
        text = str(text)
        room = self.limit - self.size
        if room > 0:
            self.kept.append(text[:room])
            self.size += min(room, len(text))
        self.dropped += max(0, len(text) - max(room, 0))
        return len(text)

    def value(self) -> str:
        return "".join(self.kept)


# -- prctl ---------------------------------------------------------------------------------
def prctl_function() -> Any:
    """libc's ``prctl`` (Linux), loaded in the parent: ``dlopen`` in a child forked from a
    threaded process (a Jupyter kernel) could wait for a lock another thread held."""
    if not _PRCTL:
        fn = None
        if sys.platform.startswith("linux"):
            try:
                fn = ctypes.CDLL(None, use_errno=True).prctl
            except (OSError, AttributeError):
                fn = None
        _PRCTL.append(fn)
    return _PRCTL[0]


def _prctl(fn: Any, option: int, value: int) -> bool:
    if fn is None:
        return False
    return fn(option, ctypes.c_ulong(value), ctypes.c_ulong(0), ctypes.c_ulong(0), ctypes.c_ulong(0)) == 0


# -- the supervisor ------------------------------------------------------------------------
def supervise(work: Callable[[Callable[[Any], None]], None], read_fd: int, write_fd: int,
                life_read: int, parent: int, prctl: Any) -> None:
    """The supervisor's whole life: start the worker, wait, stop everything under it, report."""
    me = os.getpid()
    stopping = [False]
    worker = [0]
    out = _CappedBytes(OUTPUT_LIMIT)

    def finish(status: int | None) -> None:
        stopped = _stop_all(me, worker[0])
        _drain(out_fd, out)
        try:
            write_message(write_fd, ("ended", status, stopped, out.text(), out.dropped))
        except BaseException:  # noqa: BLE001 - the parent is gone: nobody to tell
            pass
        os._exit(0)

    def on_stop(signum: int, frame: Any) -> None:  # the parent's stop request, or its death
        if stopping[0]:
            return
        stopping[0] = True
        if worker[0]:
            _signal(worker[0], signal.SIGKILL)
        finish(None)

    out_fd = -1
    try:
        os.close(read_fd)
        for fd in list(LIFELINES):
            _close(fd)
        os.setpgid(0, 0)
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a notebook interrupt goes to the parent
        signal.signal(signal.SIGTERM, on_stop)
        _prctl(prctl, _PR_SET_CHILD_SUBREAPER, 1)
        _prctl(prctl, _PR_SET_PDEATHSIG, signal.SIGTERM)
        if os.getppid() != parent:  # the parent died before the line above
            on_stop(signal.SIGTERM, None)
        out_fd, out_write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the worker
            os.close(out_fd)
            os.close(life_read)
            _prctl(prctl, _PR_SET_PDEATHSIG, signal.SIGKILL)
            if os.getppid() != me:
                os._exit(1)
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            _worker(work, write_fd, out_write)
        worker[0] = pid
        os.close(out_write)
        status = _wait_worker(pid, life_read, out_fd, out)
        if status is None:  # the parent is gone
            on_stop(signal.SIGTERM, None)
        stopping[0] = True
        finish(status)
    except BaseException:  # noqa: BLE001 - never return into the parent's code
        try:
            write_message(write_fd, ("error", traceback.format_exc(limit=8)))
        except BaseException:  # noqa: BLE001
            pass
        if worker[0]:
            _signal(worker[0], signal.SIGKILL)
        stopping[0] = True
        finish(None)
    finally:
        os._exit(0)


def _wait_worker(pid: int, life_read: int, out_fd: int, out: _CappedBytes) -> int | None:
    """The worker's wait status, or None when the parent died first."""
    pidfd = -1
    if hasattr(os, "pidfd_open"):
        try:
            pidfd = os.pidfd_open(pid)
        except OSError:
            pidfd = -1
    watched = [life_read, out_fd] + ([pidfd] if pidfd >= 0 else [])
    while True:
        ready, _, _ = select.select(watched, [], [], None if pidfd >= 0 else 0.02)
        if life_read in ready:
            return None
        if out_fd in ready and not _read_into(out_fd, out):
            watched.remove(out_fd)
        waited, status = os.waitpid(pid, os.WNOHANG)
        if waited:
            return status


def _read_into(fd: int, out: _CappedBytes) -> bool:
    try:
        chunk = os.read(fd, 1 << 16)
    except OSError:
        return False
    out.write(chunk)
    return bool(chunk)


def _drain(fd: int, out: _CappedBytes) -> None:
    """Read what is left of the worker's fd output (everyone writing to it is stopped now)."""
    if fd < 0:
        return
    deadline = time.monotonic() + 0.5
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], max(deadline - time.monotonic(), 0))
        if not ready or not _read_into(fd, out):
            return


class _CappedBytes:
    """Bytes written to the worker's file descriptors 1 and 2: the first ``limit`` kept."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.kept = bytearray()
        self.dropped = 0

    def write(self, data: bytes) -> None:
        room = self.limit - len(self.kept)
        self.kept += data[:max(room, 0)]
        self.dropped += max(0, len(data) - max(room, 0))

    def text(self) -> str:
        return self.kept.decode("utf-8", "replace")


def _stop_all(me: int, worker: int) -> int:
    """Stop every process under the supervisor; how many were running besides the worker.

    Without /proc (not Linux) nothing is counted here; the parent's group kill stops them."""
    counted: set[int] = set()
    for attempt in range(200):
        procs = _processes()
        alive = {p for p in _under(me, procs) if procs[p][2] not in ("Z", "X")}
        if not alive:
            break
        counted |= alive - {worker}
        for p in alive:  # freeze first, so a process that forks cannot outrun the kill
            _signal(p, signal.SIGSTOP)
        for p in alive:
            _signal(p, signal.SIGKILL)
        _reap_children()
        time.sleep(min(0.001 * attempt, 0.02))
    _reap_children()
    return len(counted)


def _processes() -> dict[int, tuple[int, int, str]]:
    """``{pid: (parent pid, process group, state)}`` from /proc (empty where there is none)."""
    out: dict[int, tuple[int, int, str]] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return out
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                data = f.read()
            fields = data[data.rindex(b")") + 2:].split()
            out[int(name)] = (int(fields[1]), int(fields[2]), fields[0].decode())
        except (OSError, ValueError, IndexError):
            continue
    return out


def _under(root: int, procs: dict[int, tuple[int, int, str]]) -> set[int]:
    """``root``'s descendants and the members of its process group (``root`` excluded)."""
    children: dict[int, list[int]] = {}
    for pid, (ppid, _, _) in procs.items():
        children.setdefault(ppid, []).append(pid)
    found: set[int] = set()
    todo = [root]
    while todo:
        for child in children.get(todo.pop(), ()):
            if child not in found:
                found.add(child)
                todo.append(child)
    found |= {pid for pid, (_, group, _) in procs.items() if group == root}
    found.discard(root)
    return found


def _signal(pid: int, sig: int) -> None:
    try:
        os.kill(pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def _reap_children() -> None:
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def _close(fd: int) -> None:
    try:
        os.close(fd)
    except OSError:
        pass


# -- the worker ----------------------------------------------------------------------------
def _worker(work: Callable[[Callable[[Any], None]], None], write_fd: int, out_write: int) -> None:
    """The worker's whole life: capture output, run ``work``, send the output, exit.

    A process the learner's code forks runs this same code; only the worker itself ever writes
    to the parent (a fork of it exits quietly where the worker would report).
    """
    me = os.getpid()
    status = 0
    out = CappedText(OUTPUT_LIMIT)

    def mine() -> bool:
        return os.getpid() == me

    try:
        os.dup2(out_write, 1)  # C-level writes go to the supervisor, which caps them
        os.dup2(out_write, 2)
        os.close(out_write)
        sys.stdout = sys.stderr = out  # type: ignore[assignment]
        _default_handlers()
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        faulthandler.disable()  # a crash is reported by the parent from the exit status

        def send(item: Any) -> None:
            if not mine():
                os._exit(0)
            write_message(write_fd, ("item", item))

        work(send)
    except BaseException:  # noqa: BLE001 - the harness itself failed; the parent reports it
        status = 1
        if mine():
            try:
                write_message(write_fd, ("error", traceback.format_exc(limit=8)))
            except BaseException:  # noqa: BLE001
                pass
    finally:
        if not mine():
            os._exit(0)
        try:
            write_message(write_fd, ("output", out.value(), out.dropped))
            write_message(write_fd, ("done",))
        except BaseException:  # noqa: BLE001
            status = 1
        os._exit(status)


def _default_handlers() -> None:
    """Signal handlers written in Python are the parent's code (a test runner's SIGALRM timeout,
    a library's SIGTERM cleanup); in the worker a signal does what it does to any process."""
    for number in signal.valid_signals():
        try:
            if callable(signal.getsignal(number)):
                signal.signal(number, signal.SIG_DFL)
        except (OSError, ValueError):
            continue


def write_message(fd: int, message: tuple[Any, ...]) -> None:
    """One pickled message, framed by its length, written whole."""
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    view = memoryview(HEADER.pack(len(data)) + data)
    while view:
        view = view[os.write(fd, view):]
