"""The in-process time limit: SIGALRM after N seconds, without stealing anyone else's alarm.

Go: none (kschedlearn-only, DESIGN §10). Used where the fork sandbox is unavailable and by the
mirrored code's own learner hooks; ``sandbox`` is the primary guard.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


class TimeLimitExceeded(BaseException):
    """Raised inside the learner's code by SIGALRM when a case runs too long.

    A ``BaseException`` so that a learner's ``except Exception`` cannot swallow it.
    """


@contextmanager
def time_limit(seconds: float | None) -> Iterator[None]:
    """Raise ``TimeLimitExceeded`` in the running code after ``seconds`` of wall time.

    Uses ``setitimer(ITIMER_REAL)`` and a SIGALRM handler, which Python only allows in the main
    thread; elsewhere (or with ``seconds`` None / 0) the body runs without a limit.

    An alarm armed before (pytest-timeout's, a notebook's own) is never replaced: the timer is
    set to whichever deadline comes first, an alarm at the earlier deadline goes to the previous
    handler, and on exit the previous timer is re-armed with what is left of it.
    """
    usable = (
        seconds
        and hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
    )
    if not usable:
        yield
        return
    ours = time.monotonic() + float(seconds)  # type: ignore[arg-type]
    previous = signal.getsignal(signal.SIGALRM)
    old_delay, old_interval = signal.getitimer(signal.ITIMER_REAL)
    theirs = [time.monotonic() + old_delay] if old_delay > 0 else []

    def on_alarm(signum: int, frame: Any) -> None:
        if theirs and time.monotonic() >= theirs[0] - 1e-3:
            del theirs[:]  # the earlier alarm is due: its owner handles it, then ours is re-armed
            signal.setitimer(signal.ITIMER_REAL, _first_delay(ours, None))
            if callable(previous):
                previous(signum, frame)
            return
        raise TimeLimitExceeded(f"stopped after {seconds:g} s")

    signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, _first_delay(ours, theirs[0] if theirs else None))
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if theirs:  # give the previous timer back what is left of it
            signal.setitimer(signal.ITIMER_REAL, max(theirs[0] - time.monotonic(), 1e-6), old_interval)


def _first_delay(ours: float, theirs: float | None) -> float:
    """Seconds from now to the earlier of two monotonic deadlines (at least 1 µs)."""
    first = ours if theirs is None else min(ours, theirs)
    return max(first - time.monotonic(), 1e-6)
