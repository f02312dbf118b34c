"""One server-side watch: a filter, an unbounded queue, and a goroutine that delivers events.

Go: cacheWatcher (``input`` channel, ``process`` goroutine, ``Stop``) of
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apiserver/pkg/storage/cacher.go
together with the HTTP watch server's ``timeoutSeconds`` handling
(staging/src/k8s.io/apiserver/pkg/endpoints/handlers/watch.go).

Differs from Go: Go's cacheWatcher has a bounded input buffer and drops (terminates) a watcher
that falls too far behind; here the queue is unbounded, so a slow consumer only delays itself
and never blocks the server. The pump can be *stalled* (fault injection) to hold events back.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

import attrs

from kschedlearn import sim
from kschedlearn.apimachinery.watch import Event
from kschedlearn.apiserver.storage import WatchFilter


@attrs.define(eq=False)
class ServerWatch:
    """A live watch; implements ``watch.Interface`` (``result_chan()``, ``stop()``).

    ``close_when_drained``: end the watch once the queued events are delivered (used for the
    single ERROR event of a too-old resourceVersion).
    """

    wid: int
    resource: str
    filter: WatchFilter
    label_selector: str = ""
    field_selector: str = ""
    deadline: float | None = None
    close_when_drained: bool = False
    on_deliver: Callable[[ServerWatch, Event], None] | None = attrs.field(default=None, repr=False)
    on_stop: Callable[[ServerWatch], None] | None = attrs.field(default=None, repr=False)
    stalled_until: float | None = None
    stopped: bool = False
    delivered: int = 0
    pending: deque[Event] = attrs.field(factory=deque, repr=False)
    _result: sim.Chan = attrs.field(init=False, repr=False)
    _stop_ch: sim.Chan = attrs.field(init=False, repr=False)
    _kick: sim.Chan = attrs.field(init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        self._result = sim.Chan(0, name=f"watch-{self.wid}.result")
        self._stop_ch = sim.Chan(0, name=f"watch-{self.wid}.stop")
        self._kick = sim.Chan(1, name=f"watch-{self.wid}.kick")

    # -- watch.Interface -----------------------------------------------------------------
    def result_chan(self) -> sim.Chan:
        """Events arrive here; the channel is closed when the watch ends."""
        return self._result

    def stop(self) -> None:
        """End the watch (client side or server side); idempotent, never blocks."""
        if self.stopped:
            return
        self.stopped = True
        self._stop_ch.close()
        if self.on_stop is not None:
            self.on_stop(self)

    # -- server side ---------------------------------------------------------------------
    def enqueue(self, event: Event) -> None:
        """Queue an event for delivery (never blocks)."""
        if not self.stopped:
            self.pending.append(event)
            self._kick.try_send(None)

    def stall(self, until: float) -> None:
        """Hold events back until virtual time ``until``; they are then delivered in order."""
        self.stalled_until = until
        self._kick.try_send(None)

    def _wait(self, extra: sim.Chan | None, timeout: sim.Chan | None) -> str:
        cases: list[tuple[Any, ...]] = [("recv", self._stop_ch), ("recv", self._kick)]
        cases.append(("recv", timeout))
        cases.append(("recv", extra))
        index, _, _ = sim.select(*cases)
        return ("stop", "kick", "timeout", "extra")[index]

    def pump(self) -> None:
        """The delivery goroutine (runs on the API server's process)."""
        timers: list[sim.Timer] = []  # stopped on exit so no stale timer outlives the watch
        timeout = None
        if self.deadline is not None:
            timers.append(sim.new_timer(self.deadline - sim.now()))
            timeout = timers[-1].c
        try:
            while not self.stopped:
                now = sim.now()
                if self.stalled_until is not None and now < self.stalled_until:
                    timers.append(sim.new_timer(self.stalled_until - now))
                    what = self._wait(timers[-1].c, timeout)
                    timers.pop().stop()
                elif not self.pending:
                    if self.close_when_drained:
                        break
                    what = self._wait(None, timeout)
                else:
                    event = self.pending[0]
                    index, _, _ = sim.select(
                        ("send", self._result, event), ("recv", self._stop_ch),
                        ("recv", self._kick), ("recv", timeout),
                    )
                    what = ("sent", "stop", "kick", "timeout")[index]
                    if what == "sent":
                        self.pending.popleft()
                        self.delivered += 1
                        if self.on_deliver is not None:
                            self.on_deliver(self, event)
                if what == "timeout":
                    break
        finally:
            for timer in timers:
                timer.stop()
            self.stop()
            self.pending.clear()
            self._result.close()
