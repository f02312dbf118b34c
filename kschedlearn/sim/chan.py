"""Go channels and ``select`` on the deterministic runtime.

Go: the ``chan`` type and the ``select`` statement of the Go language
(https://go.dev/ref/spec#Channel_types, https://go.dev/ref/spec#Select_statements).

Differs from Go: when several ``select`` cases are ready Go picks one uniformly at random; here
the pick comes from the runtime's seeded RNG, so a run is reproducible.
"""

from __future__ import annotations

from collections import deque
from typing import Any

import attrs

from kschedlearn.sim.runtime import Goroutine, WouldBlockError, current_goroutine


class ChanClosedError(RuntimeError):
    """Go's panic ``send on closed channel`` / ``close of closed channel``."""


@attrs.define(eq=False)
class _SelectState:
    """Shared by every queue entry of one blocked send/recv/select: fired at most once."""

    g: Goroutine
    done: bool = False
    result: tuple[int, Any, bool] = (-1, None, False)


@attrs.define(eq=False)
class _Entry:
    state: _SelectState
    index: int
    value: Any = None

    def fire(self, value: Any, ok: bool) -> None:
        self.state.done = True
        self.state.result = (self.index, value, ok)
        self.state.g.runtime._wake(self.state.g)


#: a wait queue this long (and each power of two beyond) is swept of entries nobody waits on
_SWEEP_FROM = 64


def _enqueue(q: deque[_Entry], entry: _Entry) -> None:
    """Append ``entry`` to a wait queue, first dropping entries ``_first_live`` would skip (a
    finished select's other cases, a dead goroutine's): those at the head, and at lengths
    ``_SWEEP_FROM``, twice that, ... those anywhere.

    A channel nobody ever sends on or closes (``wait.NEVER_STOP``, selected on by every
    ``wait.Until`` loop) never reaches ``_first_live``, so its queue kept every waiter it ever
    had, and through them every finished world's goroutines and runtime (the fault campaign's
    200 worlds stayed alive in its test worker). Both conditions are final (a select is done
    once; a goroutine never comes back to life), so dropping them early leaves the live entries,
    in their order, as ``_first_live`` would find them. The head first (an older world's
    waiters), the sweeps at powers of two for a live waiter that stays at the head: O(1) per
    append on average.
    """
    while q and (q[0].state.done or not q[0].state.g.alive):
        q.popleft()
    n = len(q)
    if n >= _SWEEP_FROM and n & (n - 1) == 0:
        live = [e for e in q if not e.state.done and e.state.g.alive]
        if len(live) < n:
            q.clear()
            q.extend(live)
    q.append(entry)


def _first_live(q: deque[_Entry]) -> _Entry | None:
    while q:
        e = q[0]
        if e.state.done or not e.state.g.alive:
            q.popleft()
            continue
        return e
    return None


@attrs.define(eq=False)
class Chan:
    """A Go channel; ``capacity=0`` is unbuffered (a send waits for a receiver)."""

    capacity: int = 0
    name: str = ""
    _buf: deque[Any] = attrs.field(factory=deque, init=False, repr=False)
    _recvq: deque[_Entry] = attrs.field(factory=deque, init=False, repr=False)
    _sendq: deque[_Entry] = attrs.field(factory=deque, init=False, repr=False)
    closed: bool = attrs.field(default=False, init=False)

    def __len__(self) -> int:
        return len(self._buf)

    # -- readiness checks and immediate operations --------------------------------------
    def _can_send(self) -> bool:
        return self.closed or _first_live(self._recvq) is not None or len(self._buf) < self.capacity

    def _can_recv(self) -> bool:
        return bool(self._buf) or self.closed or _first_live(self._sendq) is not None

    def _send_now(self, value: Any) -> None:
        if self.closed:
            raise ChanClosedError("send on closed channel")
        receiver = _first_live(self._recvq)
        if receiver is not None:
            self._recvq.popleft()
            receiver.fire(value, True)
        else:
            self._buf.append(value)

    def _recv_now(self) -> tuple[Any, bool]:
        if self._buf:
            value = self._buf.popleft()
            sender = _first_live(self._sendq)
            if sender is not None:  # a blocked sender may now put its value in the buffer
                self._sendq.popleft()
                self._buf.append(sender.value)
                sender.fire(None, True)
            return value, True
        sender = _first_live(self._sendq)
        if sender is not None:
            self._sendq.popleft()
            sender.fire(None, True)
            return sender.value, True
        return None, False  # closed and drained

    # -- public API ---------------------------------------------------------------------
    def send(self, value: Any) -> None:
        """``ch <- value``: blocks until a receiver takes it or buffer space frees up."""
        if self._can_send():
            self._send_now(value)
            return
        g = current_goroutine()
        if g is None:  # (the message built only then: a repr at every blocking send cost a fifth of it)
            raise WouldBlockError(f"send on {self!r} would block outside a goroutine")
        state = _SelectState(g)
        _enqueue(self._sendq, _Entry(state, 0, value))
        g.runtime._park("blocked", f"chan send {self.name or 'chan'}")
        if state.result[2] is False:
            raise ChanClosedError("send on closed channel")

    def recv(self) -> tuple[Any, bool]:
        """``v, ok := <-ch``: ok is False once the channel is closed and empty."""
        if self._can_recv():
            return self._recv_now()
        g = current_goroutine()
        if g is None:  # (as in send)
            raise WouldBlockError(f"receive from {self!r} would block outside a goroutine")
        state = _SelectState(g)
        _enqueue(self._recvq, _Entry(state, 0))
        g.runtime._park("blocked", f"chan receive {self.name or 'chan'}")
        _, value, ok = state.result
        return value, ok

    def try_send(self, value: Any) -> bool:
        """A ``select`` with one send case and a ``default``: True if sent."""
        if self._can_send():
            self._send_now(value)
            return True
        return False

    def close(self) -> None:
        """``close(ch)``: wakes every receiver (ok=False); blocked senders panic."""
        if self.closed:
            raise ChanClosedError("close of closed channel")
        self.closed = True
        while (e := _first_live(self._recvq)) is not None:
            self._recvq.popleft()
            e.fire(None, False)
        while (e := _first_live(self._sendq)) is not None:
            self._sendq.popleft()
            e.fire(None, False)


def _require_goroutine(what: str) -> Goroutine:
    g = current_goroutine()
    if g is None:
        raise WouldBlockError(f"{what} would block outside a goroutine")
    return g


def _select_text(cases: tuple[tuple[Any, ...], ...]) -> str:
    """What a goroutine blocked in ``select`` waits on (written only when someone reads it)."""
    names = ", ".join(f"{c[0]} {c[1].name or 'chan'}" for c in cases if c[1] is not None)
    return f"select [{names}]"


def select(*cases: tuple[Any, ...], default: bool = False) -> tuple[int, Any, bool]:
    """Go's ``select``: cases are ``("recv", ch)`` or ``("send", ch, value)``.

    Returns ``(index, value, ok)`` of the case that ran; with ``default=True`` and nothing
    ready, returns ``(-1, None, False)`` at once. A ``None`` channel never becomes ready, as a
    nil channel in Go.
    """
    ready = [
        i
        for i, case in enumerate(cases)
        if case[1] is not None
        and (case[1]._can_recv() if case[0] == "recv" else case[1]._can_send())
    ]
    if ready:
        if len(ready) == 1:
            pick = ready[0]
        else:  # (the running goroutine looked up only for a choice: one case is ready nearly always)
            g = current_goroutine()
            pick = ready[0] if g is None else g.runtime.rand.choice(ready)
        case = cases[pick]
        if case[0] == "recv":
            value, ok = case[1]._recv_now()
            return pick, value, ok
        case[1]._send_now(case[2])
        return pick, None, True
    if default:
        return -1, None, False
    g = _require_goroutine("select")
    state = _SelectState(g)
    for i, case in enumerate(cases):
        if case[1] is None:
            continue
        if case[0] == "recv":
            _enqueue(case[1]._recvq, _Entry(state, i))
        else:
            _enqueue(case[1]._sendq, _Entry(state, i, case[2]))
    g.runtime._park("blocked", lambda: _select_text(cases))
    index, value, ok = state.result
    if cases[index][0] == "send":
        if not ok:
            raise ChanClosedError("send on closed channel")
        return index, None, True
    return index, value, ok
