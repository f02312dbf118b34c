"""Run a learner's code in a forked child process that the notebook kernel can always outlive.

Go: none (kschedlearn-only, DESIGN §10). ``run_in_child(work, seconds)`` forks (POSIX); the
child runs ``work(send)``, where ``send(item)`` pickles one plain-data item back to the parent
over a pipe as soon as it is ready. The parent waits at most ``seconds`` of wall time for the
whole job, then kills the child (SIGKILL: nothing the child does - a loop that catches
``BaseException``, a blocked wait - can outlast it). Whatever the child does to itself
(``os._exit``, a segfault, a stack overflow in C) only ends the child; the parent learns how it
ended from ``waitpid``. The child's ``print`` output goes to a capped buffer (runaway output costs
memory only up to ``OUTPUT_LIMIT`` characters) that comes back with the items.

Why fork and not a fresh interpreter: the learner's functions live in the notebook's
``__main__``; a forked child has them (and every import) already, so nothing has to be pickled
on the way in. Only results travel back, so they must be picklable plain data.

Where fork is missing (Windows) ``fork_available()`` is False and callers run in-process with the
SIGALRM time limit instead (``limits.time_limit``).
"""

from __future__ import annotations

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

import attrs

OUTPUT_LIMIT = 20_000
"""Characters of the child's printed output that are kept (the rest is counted, not kept)."""

_HEADER = struct.Struct("!Q")


def fork_available() -> bool:
    """True where ``os.fork`` exists (POSIX)."""
    return hasattr(os, "fork")


@attrs.frozen
class ChildRun:
    """What the parent saw of one child.

    ``items``: what the child sent, in order. ``ending``: "" when the child finished its work,
    else one sentence on why it did not ("time limit of 2 s reached", "the process was ended by
    os._exit(7)", "the process was killed by signal SIGSEGV"). ``output``: the child's printed
    text (capped), ``dropped``: how many characters of it were not kept.
    """

    items: tuple[Any, ...]
    ending: str
    timed_out: bool
    output: str = ""
    dropped: int = 0

    def output_note(self) -> str:
        """The kept output with a last line saying how much was dropped (if any)."""
        if not self.dropped:
            return self.output
        return self.output + f"\n[... {self.dropped:,} more characters of output were dropped]\n"

    def replay(self) -> None:
        """Write what the child printed to this process's stdout (the notebook cell shows it)."""
        text = self.output_note()
        if text:
            sys.stdout.write(text if text.endswith("\n") else text + "\n")


class _CappedText(io.TextIOBase):
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


def run_in_child(work: Callable[[Callable[[Any], None]], None], seconds: float) -> ChildRun:
    """Fork; run ``work(send)`` in the child; collect what it sends for at most ``seconds``."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        os.close(read_fd)
        _child(work, write_fd)
    os.close(write_fd)
    try:
        return _collect(pid, read_fd, float(seconds))
    except BaseException:  # KeyboardInterrupt in the notebook: the child must not outlive it
        _kill(pid)
        raise
    finally:
        os.close(read_fd)


def _child(work: Callable[[Callable[[Any], None]], None], write_fd: int) -> None:
    """The child's whole life: capture output, run ``work``, send the output, exit."""
    status = 0
    out = _CappedText(OUTPUT_LIMIT)
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)  # C-level writes and a native crash report go nowhere
        os.dup2(devnull, 2)
        sys.stdout = sys.stderr = out  # type: ignore[assignment]
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a notebook interrupt goes to the parent
        faulthandler.disable()  # a crash is reported by the parent from the exit status

        def send(item: Any) -> None:
            _write(write_fd, ("item", item))

        work(send)
    except BaseException:  # noqa: BLE001 - the harness itself failed; the parent reports it
        status = 1
        try:
            _write(write_fd, ("error", traceback.format_exc(limit=8)))
        except BaseException:  # noqa: BLE001
            pass
    finally:
        try:
            _write(write_fd, ("output", out.value(), out.dropped))
            _write(write_fd, ("done",))
        except BaseException:  # noqa: BLE001
            status = 1
        os._exit(status)


def _write(fd: int, message: tuple[Any, ...]) -> None:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    view = memoryview(_HEADER.pack(len(data)) + data)
    while view:
        view = view[os.write(fd, view):]


def _collect(pid: int, read_fd: int, seconds: float) -> ChildRun:
    deadline = time.monotonic() + seconds
    buffer = bytearray()
    items: list[Any] = []
    output, dropped, done, error = "", 0, False, ""
    eof = False
    while not eof:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        ready, _, _ = select.select([read_fd], [], [], left)
        if not ready:
            continue
        chunk = os.read(read_fd, 1 << 16)
        if not chunk:
            eof = True
        buffer += chunk
        for message in _messages(buffer):
            if message[0] == "item":
                items.append(message[1])
            elif message[0] == "output":
                output, dropped = message[1], message[2]
            elif message[0] == "error":
                error = message[1]
            elif message[0] == "done":
                done = True
    if not eof:
        _kill(pid)
        return ChildRun(tuple(items), f"time limit of {seconds:g} s reached", True, output, dropped)
    _, status = os.waitpid(pid, 0)
    if done and not error:
        return ChildRun(tuple(items), "", False, output, dropped)
    return ChildRun(tuple(items), error.strip().splitlines()[-1] if error else _describe_status(status),
                    False, output, dropped)


def _messages(buffer: bytearray) -> list[tuple[Any, ...]]:
    """Take every complete message off the front of ``buffer``."""
    out = []
    while len(buffer) >= _HEADER.size:
        (size,) = _HEADER.unpack_from(buffer)
        if len(buffer) < _HEADER.size + size:
            break
        out.append(pickle.loads(bytes(buffer[_HEADER.size:_HEADER.size + size])))
        del buffer[:_HEADER.size + size]
    return out


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass


def _describe_status(status: int) -> str:
    """How a child ended, as a learner reads it."""
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        try:
            name = signal.Signals(number).name
        except ValueError:
            name = f"signal {number}"
        return f"the process was killed by signal {name} (a crash below Python, e.g. in native code)"
    code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else status
    return f"the process was ended by os._exit({code}) before it finished"
