"""Run a learner's code in a forked child process that the notebook kernel can always outlive,
and that leaves nothing behind.

Go: none (kschedlearn-only, DESIGN §10). ``run_in_child(work, seconds)`` forks (POSIX) two
processes: a small **supervisor** that runs only this module's code, and under it the
**worker** that runs ``work(send)``, where ``send(item)`` pickles one plain-data item back to
the parent over a pipe as soon as it is ready. The parent waits at most ``seconds`` of wall time
for the whole job, then stops it. What the learner's code does to the worker (``os._exit``, a
segfault, a loop catching ``BaseException``, a blocked wait) only ends the worker; the parent
learns how it ended from the supervisor.

Nothing a check starts outlives it:

- the supervisor leads a process group of its own, which the worker and everything the learner's
  code starts (``subprocess``, ``os.fork``) belong to; on Linux it is also the *child
  subreaper* of all of them, so a process that leaves the group (``setsid``) or whose parent
  exits is still found (``/proc``) and stopped;
- when the worker ends, the supervisor stops every process still running under it (SIGSTOP,
  then SIGKILL, until none is left), reaps them and tells the parent how many there were: the
  report says "your function left 3 processes running; they were stopped";
- when the parent stops the job (the time limit, an interrupt) it asks the supervisor to do the
  same, and kills the whole group after it;
- when the parent dies (a kernel killed with SIGKILL), the kernel sends the supervisor SIGTERM
  (``PR_SET_PDEATHSIG`` through ``prctl``), and the worker SIGKILL when the supervisor dies; the
  supervisor also notices the end of a pipe only the parent holds. Either way it stops everything
  under it before it exits.

Output: the worker's ``print`` output goes to a capped buffer (``OUTPUT_LIMIT`` characters kept,
the rest counted); what reaches its file descriptors 1 and 2 (``os.write``, C code, a
subprocess writing to the inherited stdout) goes through a pipe that the supervisor drains and
caps the same way. Both come back with the items; ``ChildRun.notes()`` puts "printed N
characters" and "left N processes running" in the report.

Why fork and not a fresh interpreter: the learner's functions live in the notebook's
``__main__``; a forked child has them (and every import) already, so nothing has to be pickled
on the way in. Only results travel back, so they must be picklable plain data.

Where fork is missing (Windows) ``fork_available()`` is False and callers run in-process with the
SIGALRM time limit instead (``limits.time_limit``).
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import sys
import time
from collections.abc import Callable
from typing import Any

import attrs

from kschedlearn.exercises.sandbox_child import (
    HEADER, LIFELINES, OUTPUT_LIMIT, CappedText, prctl_function, supervise,
)

_CappedText = CappedText  # (the old name, used by callers that capture output in-process)

STOP_WAIT = 2.0
"""Seconds the parent gives the supervisor to stop everything before it kills the group."""



def fork_available() -> bool:
    """True where ``os.fork`` exists (POSIX)."""
    return hasattr(os, "fork")


@attrs.frozen
class ChildRun:
    """What the parent saw of one child.

    ``items``: what the child sent, in order. ``ending``: "" when the child finished its work,
    else one sentence on why it did not ("time limit of 2 s reached", "the process was ended by
    os._exit(7)", "the process was killed by signal SIGSEGV"). ``output``: the child's printed
    text (capped), ``dropped``: how many characters of it were not kept. ``left_running``: how
    many processes the learner's code had started that were still running when the work ended
    (they were stopped).
    """

    items: tuple[Any, ...]
    ending: str
    timed_out: bool
    output: str = ""
    dropped: int = 0
    left_running: int = 0

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

    def notes(self) -> tuple[str, ...]:
        """Sentences for the report: output that was dropped, processes that were stopped."""
        return notes_for(len(self.output) + self.dropped, self.dropped, self.left_running)


def notes_for(printed: int, dropped: int, left_running: int) -> tuple[str, ...]:
    out = []
    if dropped:
        out.append(f"Your code printed {printed:,} characters; the first {printed - dropped:,} are shown and "
                   f"the other {dropped:,} were dropped.")
    if left_running:
        s = "es" if left_running != 1 else ""
        out.append(f"Your function left {left_running} process{s} running; "
                   f"{'they were' if left_running != 1 else 'it was'} stopped.")
    return tuple(out)


# -- the parent ----------------------------------------------------------------------------
def run_in_child(work: Callable[[Callable[[Any], None]], None], seconds: float) -> ChildRun:
    """Fork; run ``work(send)`` in the worker; collect what it sends for at most ``seconds``."""
    return start_child(work, seconds).collect()


@attrs.define(eq=False)
class RunningChild:
    """A sandbox started by ``start_child``: the parent may do other work, then ``collect()``."""

    pid: int
    read_fd: int
    life_write: int
    seconds: float
    deadline: float
    result: ChildRun | None = None

    def collect(self) -> ChildRun:
        """Wait for the child (at most until its deadline), stop everything under it, report."""
        if self.result is not None:
            return self.result
        try:
            self.result = _collect(self.pid, self.read_fd, self.seconds, self.deadline)
            return self.result
        except BaseException:  # KeyboardInterrupt in the notebook: nothing may outlive it
            _stop(self.pid, self.read_fd, bytearray())
            _reap(self.pid)
            raise
        finally:
            self._close()

    def stop(self) -> None:
        """Stop it now (the caller failed meanwhile): everything under it is killed and reaped."""
        if self.result is not None:
            return
        try:
            _stop(self.pid, self.read_fd, bytearray())
            _reap(self.pid)
        finally:
            self.result = ChildRun((), "stopped by the caller", False)
            self._close()

    def _close(self) -> None:
        os.close(self.read_fd)
        os.close(self.life_write)
        LIFELINES.discard(self.life_write)


def start_child(work: Callable[[Callable[[Any], None]], None], seconds: float) -> RunningChild:
    """Fork the supervisor and worker for ``work`` now; its ``seconds`` start counting now."""
    prctl = prctl_function()
    read_fd, write_fd = os.pipe()
    life_read, life_write = os.pipe()  # only the parent holds life_write: EOF = the parent is gone
    parent = os.getpid()
    LIFELINES.add(life_write)
    pid = os.fork()
    if pid == 0:  # the supervisor: never returns
        supervise(work, read_fd, write_fd, life_read, parent, prctl)
    os.close(write_fd)
    os.close(life_read)
    try:
        os.setpgid(pid, pid)  # also done by the child; whichever runs first wins the race
    except OSError:
        pass
    return RunningChild(pid, read_fd, life_write, float(seconds), time.monotonic() + float(seconds))


def _collect(pid: int, read_fd: int, seconds: float, deadline: float) -> ChildRun:
    buffer = bytearray()
    state = _Received()
    eof = False
    while not eof and state.ended is None:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        ready, _, _ = select.select([read_fd], [], [], left)
        if not ready:
            continue
        chunk = os.read(read_fd, 1 << 16)
        eof = not chunk
        buffer += chunk
        state.take(_messages(buffer))
    timed_out = state.ended is None and not eof
    if timed_out:
        _stop(pid, read_fd, buffer, state)
    supervisor = _reap(pid)
    output, dropped = state.output_total()
    left_running = state.ended[1] if state.ended else 0
    items = tuple(state.items)
    if timed_out:
        return ChildRun(items, f"time limit of {seconds:g} s reached", True, output, dropped, left_running)
    status = state.ended[0] if state.ended else None
    if state.done and not state.error:
        return ChildRun(items, "", False, output, dropped, left_running)
    ending = (state.error.strip().splitlines()[-1] if state.error
              else _describe_status(status) if status is not None
              else _supervisor_gone(supervisor))
    return ChildRun(items, ending, False, output, dropped, left_running)


@attrs.define(eq=False)
class _Received:
    items: list[Any] = attrs.field(factory=list)
    output: str = ""
    dropped: int = 0
    fd_output: str = ""
    fd_dropped: int = 0
    done: bool = False
    error: str = ""
    ended: tuple[int | None, int] | None = None  # (the worker's wait status, processes stopped)

    def take(self, messages: list[tuple[Any, ...]]) -> None:
        for message in messages:
            kind = message[0]
            if kind == "item":
                self.items.append(message[1])
            elif kind == "output":
                self.output, self.dropped = message[1], message[2]
            elif kind == "error":
                self.error = message[1]
            elif kind == "done":
                self.done = True
            elif kind == "ended":
                self.ended = (message[1], message[2])
                self.fd_output, self.fd_dropped = message[3], message[4]

    def output_total(self) -> tuple[str, int]:
        """Python-level and file-descriptor output together, capped at ``OUTPUT_LIMIT``."""
        text = self.output + self.fd_output
        kept = text[:OUTPUT_LIMIT]
        return kept, self.dropped + self.fd_dropped + len(text) - len(kept)


def _stop(pid: int, read_fd: int, buffer: bytearray, state: _Received | None = None) -> None:
    """Ask the supervisor to stop everything (it reports how many it stopped), then kill the group."""
    state = state or _Received()
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        pass
    deadline = time.monotonic() + STOP_WAIT
    while state.ended is None:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        try:
            ready, _, _ = select.select([read_fd], [], [], left)
        except (OSError, ValueError):
            break
        if not ready:
            continue
        chunk = os.read(read_fd, 1 << 16)
        if not chunk:
            break
        buffer += chunk
        state.take(_messages(buffer))
    _kill_group(pid)


def _kill_group(pid: int) -> None:
    """SIGKILL the supervisor's process group (while its zombie keeps the group id reserved)."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _reap(pid: int) -> int | None:
    """Kill what is left of the supervisor's group (its zombie still reserves the group id, so
    no other process can have it), then wait for the supervisor; its wait status."""
    _kill_group(pid)
    try:
        return os.waitpid(pid, 0)[1]
    except ChildProcessError:
        return None


def _messages(buffer: bytearray) -> list[tuple[Any, ...]]:
    """Take every complete message off the front of ``buffer``."""
    out = []
    while len(buffer) >= HEADER.size:
        (size,) = HEADER.unpack_from(buffer)
        if len(buffer) < HEADER.size + size:
            break
        out.append(pickle.loads(bytes(buffer[HEADER.size:HEADER.size + size])))
        del buffer[:HEADER.size + size]
    return out


def _supervisor_gone(status: int | None) -> str:
    """Why the work stopped when the supervisor died before it could say how the worker ended."""
    how = f" by signal {_signal_name(os.WTERMSIG(status))}" if status is not None and os.WIFSIGNALED(status) else ""
    return (f"the sandbox's supervisor process was killed{how} before the work ended (did your code kill "
            "its parent process, or its process group?); the work was stopped with it")


def _describe_status(status: int) -> str:
    """How a child ended, as a learner reads it."""
    if os.WIFSIGNALED(status):
        return (f"the process was killed by signal {_signal_name(os.WTERMSIG(status))} (a crash below Python, "
                "e.g. in native code)")
    code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else status
    return f"the process was ended by os._exit({code}) before it finished"


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return str(number)
