"""The work queue: keys to process, each at most once in the line and never twice at a time.

Go: staging/src/k8s.io/client-go/util/workqueue/queue.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/util/workqueue/queue.go#L23-L172

A key added while it is queued is not queued twice (``dirty``); a key added while a worker is
processing it (``processing``) is queued again only when that worker calls ``done`` — so a
controller's sync for one key never runs in two workers at once, and changes seen meanwhile are
not lost.

Differs from Go: the metrics (``metrics.go``) are not kept; Go's ``set`` (a map) is a Python
``set`` and the line a ``list``.
"""

from __future__ import annotations

from typing import Any, Protocol

import attrs

from kschedlearn import sim


class Interface(Protocol):
    """Go: queue.go ``Interface`` (L23-L30)."""

    def add(self, item: Any) -> None: ...
    def len(self) -> int: ...
    def get(self) -> tuple[Any, bool]: ...
    def done(self, item: Any) -> None: ...
    def shut_down(self) -> None: ...
    def shutting_down(self) -> bool: ...


def new() -> Type:
    """Go: ``New`` — queue.go#L32-L35."""
    return new_named("")


def new_named(name: str) -> Type:
    """Go: ``NewNamed`` — queue.go#L37-L44 (Differs from Go: the name labels the queue's lock)."""
    lock = sim.Mutex(name=f"workqueue {name}".strip())
    return Type(name=name, cond=sim.Cond(lock))


@attrs.define(eq=False)
class Type:
    """Go: queue.go ``Type`` (L47-L67)."""

    name: str = ""
    queue: list[Any] = attrs.field(factory=list)
    dirty: set[Any] = attrs.field(factory=set)
    processing: set[Any] = attrs.field(factory=set)
    cond: sim.Cond = attrs.field(factory=lambda: sim.Cond(sim.Mutex(name="workqueue")))
    shutting_down_: bool = False

    def add(self, item: Any) -> None:
        """Mark ``item`` as needing processing. Go: ``(*Type).Add`` — queue.go#L86-L106."""
        with self.cond.lock:
            if self.shutting_down_:
                return
            if item in self.dirty:
                return
            self.dirty.add(item)
            if item in self.processing:
                return
            self.queue.append(item)
            self.cond.signal()

    def len(self) -> int:
        """Go: ``(*Type).Len`` — queue.go#L108-L115."""
        with self.cond.lock:
            return len(self.queue)

    def get(self) -> tuple[Any, bool]:
        """Block until an item can be processed: ``(item, shutdown)``.

        Go: ``(*Type).Get`` — queue.go#L117-L139
        """
        with self.cond.lock:
            while len(self.queue) == 0 and not self.shutting_down_:
                self.cond.wait()
            if len(self.queue) == 0:
                # We must be shutting down.
                return None, True
            item, self.queue = self.queue[0], self.queue[1:]
            self.processing.add(item)
            self.dirty.discard(item)
            return item, False

    def done(self, item: Any) -> None:
        """``item`` is processed; queue it again if it was added meanwhile.

        Go: ``(*Type).Done`` — queue.go#L141-L155
        """
        with self.cond.lock:
            self.processing.discard(item)
            if item in self.dirty:
                self.queue.append(item)
                self.cond.signal()

    def shut_down(self) -> None:
        """Ignore new items; workers exit once the line is drained. Go: queue.go#L157-L165."""
        with self.cond.lock:
            self.shutting_down_ = True
            self.cond.broadcast()

    def shutting_down(self) -> bool:
        """Go: ``(*Type).ShuttingDown`` — queue.go#L167-L172."""
        with self.cond.lock:
            return self.shutting_down_


__all__ = ["Interface", "Type", "new", "new_named"]
