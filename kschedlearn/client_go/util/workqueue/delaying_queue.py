"""A work queue that can add an item later: ``add_after(item, duration)``.

Go: staging/src/k8s.io/client-go/util/workqueue/delaying_queue.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/util/workqueue/delaying_queue.go#L27-L246

A goroutine of its own (``waiting_loop``) holds the delayed items sorted by ready time and adds
each to the queue when its time comes; it wakes at the first ready time, at a 10 s heartbeat, or
when ``add_after`` hands it a new item through a buffered channel.

Differs from Go: Go embeds ``Interface`` in ``delayingType``; here the wrapped queue is a field
and the methods forward to it explicitly. Times are the virtual clock's float seconds; the retry
metric is not kept.
"""

from __future__ import annotations

import bisect
from typing import Any

import attrs

from kschedlearn import sim
from kschedlearn.apimachinery.util.runtime import handle_crash
from kschedlearn.client_go.util.clock import Clock, RealClock
from kschedlearn.client_go.util.workqueue.queue import Interface, new_named

MAX_WAIT = 10.0
"""Go: ``maxWait`` — delaying_queue.go#L121-L124 (the heartbeat)."""
_WAITING_FOR_ADD_CAPACITY = 1000


@attrs.frozen
class WaitFor:
    """Go: ``waitFor`` — delaying_queue.go#L87-L91."""

    data: Any
    ready_at: float


def new_delaying_queue() -> DelayingType:
    """Go: ``NewDelayingQueue`` — delaying_queue.go#L35-L38."""
    return _new_delaying_queue(RealClock(), "")


def new_named_delaying_queue(name: str) -> DelayingType:
    """Go: ``NewNamedDelayingQueue`` — delaying_queue.go#L40-L42."""
    return _new_delaying_queue(RealClock(), name)


def _new_delaying_queue(clock: Clock, name: str) -> DelayingType:
    """Go: ``newDelayingQueue`` — delaying_queue.go#L44-L58 (starts ``waitingLoop``)."""
    ret = DelayingType(
        interface=new_named(name),
        clock=clock,
        heartbeat=clock.tick(MAX_WAIT),  # type: ignore[attr-defined]
        stop_ch=sim.Chan(name=f"{name} delaying stop"),
        waiting_time_by_entry={},
        waiting_for_add_ch=sim.Chan(_WAITING_FOR_ADD_CAPACITY, name=f"{name} waitingForAdd"),
    )
    sim.go(ret.waiting_loop, name=f"workqueue {name} waitingLoop".replace("  ", " "))
    return ret


@attrs.define(eq=False)
class DelayingType:
    """Go: ``delayingType`` — delaying_queue.go#L60-L85."""

    interface: Interface
    clock: Clock
    heartbeat: sim.Chan
    stop_ch: sim.Chan
    waiting_time_by_entry: dict[Any, float] | None
    waiting_for_add_ch: sim.Chan
    waiting_for_add: list[WaitFor] | None = attrs.field(factory=list)

    # -- the embedded Interface (Go promotes these methods) ------------------------------
    def add(self, item: Any) -> None:
        self.interface.add(item)

    def len(self) -> int:
        return self.interface.len()

    def get(self) -> tuple[Any, bool]:
        return self.interface.get()

    def done(self, item: Any) -> None:
        self.interface.done(item)

    def shutting_down(self) -> bool:
        return self.interface.shutting_down()

    # -- its own ---------------------------------------------------------------------------
    def shut_down(self) -> None:
        """Go: ``(*delayingType).ShutDown`` — delaying_queue.go#L93-L97."""
        self.interface.shut_down()
        self.stop_ch.close()

    def add_after(self, item: Any, duration: float) -> None:
        """Add ``item`` after ``duration`` seconds (at once if <= 0).

        Go: ``(*delayingType).AddAfter`` — delaying_queue.go#L99-L119
        """
        # don't add if we're already shutting down
        if self.shutting_down():
            return
        # immediately add things with no delay
        if duration <= 0:
            self.add(item)
            return
        sim.select(("recv", self.stop_ch),
                   ("send", self.waiting_for_add_ch, WaitFor(item, self.clock.now() + duration)))

    def waiting_loop(self) -> None:
        """Add delayed items when they are ready, until the queue shuts down.

        Go: ``(*delayingType).waitingLoop`` — delaying_queue.go#L126-L193
        """
        with handle_crash():
            # a placeholder channel to use when there are no items in our list
            never = sim.Chan(name="never")
            while True:
                if self.interface.shutting_down():
                    # discard waiting entries
                    self.waiting_for_add = None
                    self.waiting_time_by_entry = None
                    return
                now = self.clock.now()
                # Add ready entries
                ready_entries = 0
                for entry in self.waiting_for_add or ():
                    if entry.ready_at > now:
                        break
                    self.add(entry.data)
                    self.waiting_time_by_entry.pop(entry.data, None)  # type: ignore[union-attr]
                    ready_entries += 1
                self.waiting_for_add = (self.waiting_for_add or [])[ready_entries:]
                # Set up a wait for the first item's readyAt (if one exists)
                next_ready_at = never
                if len(self.waiting_for_add) > 0:
                    next_ready_at = self.clock.after(self.waiting_for_add[0].ready_at - now)
                index, wait_entry, _ = sim.select(("recv", self.stop_ch), ("recv", self.heartbeat),
                                                  ("recv", next_ready_at), ("recv", self.waiting_for_add_ch))
                if index == 0:
                    return
                if index == 3:
                    self._take(wait_entry)
                    drained = False
                    while not drained:
                        index, wait_entry, ok = sim.select(("recv", self.waiting_for_add_ch), default=True)
                        if index == 0:
                            self._take(wait_entry)
                        else:
                            drained = True

    def _take(self, wait_entry: WaitFor) -> None:
        """The body Go repeats for an entry received from ``waitingForAddCh``
        (twice in ``waitingLoop``, delaying_queue.go#L126-L193)."""
        if wait_entry.ready_at > self.clock.now():
            assert self.waiting_for_add is not None and self.waiting_time_by_entry is not None
            self.waiting_for_add = insert(self.waiting_for_add, self.waiting_time_by_entry, wait_entry)
        else:
            self.add(wait_entry.data)


def insert(entries: list[WaitFor], known_entries: dict[Any, float], entry: WaitFor) -> list[WaitFor]:
    """Insert ``entry`` into the list sorted by ready time (an item already waiting keeps the
    earlier of its two times). Go: ``insert`` — delaying_queue.go#L195-L229."""
    # if the entry is already in our retry list and the existing time is before the new one, just skip it
    existing_time = known_entries.get(entry.data)
    exists = entry.data in known_entries
    if exists and existing_time < entry.ready_at:  # type: ignore[operator]
        return entries
    # if the entry exists and is scheduled for later, go ahead and remove the entry
    if exists:
        existing_index = find_entry_index(entries, existing_time, entry.data)  # type: ignore[arg-type]
        if 0 <= existing_index < len(entries):
            entries = entries[:existing_index] + entries[existing_index + 1:]
    # Go: sort.Search for the first entry whose readyAt is after the new one's
    insertion_index = bisect.bisect_right([e.ready_at for e in entries], entry.ready_at)
    entries = entries[:insertion_index] + [entry] + entries[insertion_index:]
    known_entries[entry.data] = entry.ready_at
    return entries


def find_entry_index(entries: list[WaitFor], existing_time: float, data: Any) -> int:
    """Go: ``findEntryIndex`` — delaying_queue.go#L231-L246."""
    index = bisect.bisect_left([e.ready_at for e in entries], existing_time)
    # we know this is the earliest possible index, but there could be multiple with the same time
    while index < len(entries):
        if entries[index].data == data:
            break
        index += 1
    return index


__all__ = ["DelayingType", "MAX_WAIT", "WaitFor", "find_entry_index", "insert", "new_delaying_queue",
           "new_named_delaying_queue"]
