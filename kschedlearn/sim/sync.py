"""Go's ``sync`` package (Mutex, RWMutex, Cond, WaitGroup) and ``time`` timers on the runtime.

Go: https://pkg.go.dev/sync and https://pkg.go.dev/time (Timer, After, Sleep).

Differs from Go: waiters are woken in FIFO order (Go makes no promise), so runs are repeatable.
Taking a free lock outside any goroutine (the notebook inspecting a structure) is allowed;
waiting for a held one there raises :class:`WouldBlockError` instead of freezing the notebook.
"""

from __future__ import annotations

from collections import deque
from types import TracebackType
from typing import Any

import attrs

from kschedlearn.sim.chan import Chan
from kschedlearn.sim.runtime import Goroutine, Runtime, WouldBlockError, current_goroutine


def _park(what: str) -> Goroutine:
    g = current_goroutine()
    if g is None:
        raise WouldBlockError(f"{what} would block outside a goroutine")
    return g


@attrs.define(eq=False)
class Mutex:
    """``sync.Mutex``; usable as a context manager (``with mu:`` = Lock + deferred Unlock)."""

    name: str = ""
    locked: bool = attrs.field(default=False, init=False)
    _waiters: deque[Goroutine] = attrs.field(factory=deque, init=False, repr=False)

    def lock(self) -> None:
        if not self.locked:
            self.locked = True
            return
        g = _park(f"Lock of {self.name or 'mutex'}")
        self._waiters.append(g)
        g.runtime._park("blocked", f"mutex {self.name or ''}".strip())
        # ownership was handed to us by unlock()

    def unlock(self) -> None:
        if not self.locked:
            raise RuntimeError("sync: unlock of unlocked mutex")
        while self._waiters:
            g = self._waiters.popleft()
            if g.alive:
                g.runtime._wake(g)  # hand the lock over; it stays locked
                return
        self.locked = False

    def __enter__(self) -> Mutex:
        self.lock()
        return self

    def __exit__(
        self, et: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.unlock()


@attrs.define(eq=False)
class RWMutex(Mutex):
    """``sync.RWMutex``: readers share, a writer excludes everyone.

    Differs from Go: readers are treated as the writer here (one holder at a time). The runtime
    runs one goroutine at a time and readers never block while holding the lock in the code we
    mirror, so the observable behaviour is the same and the code stays simple.
    """

    def rlock(self) -> None:
        self.lock()

    def runlock(self) -> None:
        self.unlock()


@attrs.define(eq=False)
class Cond:
    """``sync.Cond`` bound to a :class:`Mutex` (``L`` in Go)."""

    lock: Mutex
    _waiters: deque[Goroutine] = attrs.field(factory=deque, init=False, repr=False)

    def wait(self) -> None:
        """Atomically unlock, sleep until signalled, then lock again."""
        g = _park("Cond.Wait")
        self._waiters.append(g)
        self.lock.unlock()
        try:
            g.runtime._park("blocked", f"cond {self.lock.name or ''}".strip())
        finally:
            self.lock.lock()

    def signal(self) -> None:
        while self._waiters:
            g = self._waiters.popleft()
            if g.alive:
                g.runtime._wake(g)
                return

    def broadcast(self) -> None:
        waiters, self._waiters = self._waiters, deque()
        for g in waiters:
            if g.alive:
                g.runtime._wake(g)


@attrs.define(eq=False)
class WaitGroup:
    """``sync.WaitGroup``."""

    count: int = 0
    _waiters: deque[Goroutine] = attrs.field(factory=deque, init=False, repr=False)

    def add(self, delta: int) -> None:
        self.count += delta
        if self.count < 0:
            raise RuntimeError("sync: negative WaitGroup counter")
        if self.count == 0:
            waiters, self._waiters = self._waiters, deque()
            for g in waiters:
                g.runtime._wake(g)

    def done(self) -> None:
        self.add(-1)

    def wait(self) -> None:
        if self.count == 0:
            return
        g = _park("WaitGroup.Wait")
        self._waiters.append(g)
        g.runtime._park("blocked", "WaitGroup")


@attrs.define(eq=False)
class Timer:
    """``time.Timer``: ``c`` receives the fire time once; ``stop``/``reset`` as Go."""

    runtime: Runtime = attrs.field(repr=False)
    c: Chan = attrs.field(factory=lambda: Chan(1, name="timer"))
    _handle: Any = attrs.field(default=None, init=False, repr=False)

    def _arm(self, d: float) -> None:
        def fire() -> None:
            self._handle = None
            self.c.try_send(self.runtime.now)

        self._handle = self.runtime.call_at(self.runtime.now + max(d, 0.0), fire)

    def stop(self) -> bool:
        """Returns True if the call stopped the timer, False if it had fired or was stopped."""
        if self._handle is None or self._handle.cancelled:
            return False
        self._handle.cancelled = True
        self._handle = None
        return True

    def reset(self, d: float) -> bool:
        active = self.stop()
        self._arm(d)
        return active


def new_timer(runtime: Runtime, d: float) -> Timer:
    """``time.NewTimer(d)`` on ``runtime``'s virtual clock."""
    t = Timer(runtime)
    t._arm(d)
    return t
