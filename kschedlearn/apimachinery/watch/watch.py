"""Watch events and the watch interface a Reflector consumes.

Go: ``k8s.io/apimachinery/pkg/watch/watch.go`` (Interface, EventType, Event, FakeWatcher),
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/watch/watch.go

Differs from Go: the result channel is a :class:`kschedlearn.sim.Chan`; ``EventType`` values are
plain strings ("ADDED", ...), as on the wire.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import attrs

from kschedlearn.sim import Chan

__all__ = ["ADDED", "DELETED", "ERROR", "MODIFIED", "Event", "EventType", "FakeWatcher",
           "Interface", "new_fake"]

EventType = str

ADDED: EventType = "ADDED"
MODIFIED: EventType = "MODIFIED"
DELETED: EventType = "DELETED"
ERROR: EventType = "ERROR"


@attrs.frozen
class Event:
    """One change seen by a watch: ``type`` and the object after the change.

    For ERROR events ``object`` is a ``Status`` (e.g. 410 "too old resource version").

    Go: watch.Event.
    """

    type: EventType
    object: Any


@runtime_checkable
class Interface(Protocol):
    """Anything that can be watched: events arrive on ``result_chan()`` until it is closed.

    Go: watch.Interface.
    """

    def result_chan(self) -> Chan:
        """The channel events arrive on; closed when the watch ends."""
        ...

    def stop(self) -> None:
        """Stop watching; the result channel is closed soon after. Safe to call twice."""
        ...


@attrs.define(eq=False)
class FakeWatcher:
    """A watch fed by hand, for tests.

    Go: watch.FakeWatcher (NewFake). Differs from Go: ``capacity`` > 0 gives a buffered
    channel (Go's RaceFreeFakeWatcher uses 100), so a test outside any goroutine can feed it.
    """

    capacity: int = 0
    stopped: bool = False
    _result: Chan = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        self._result = Chan(self.capacity, name="fake-watch")

    def result_chan(self) -> Chan:
        return self._result

    def stop(self) -> None:
        if not self.stopped:
            self.stopped = True
            self._result.close()

    def is_stopped(self) -> bool:
        return self.stopped

    def reset(self) -> None:
        """Go: FakeWatcher.Reset — a fresh, open channel."""
        self.stopped = False
        self._result = Chan(self.capacity, name="fake-watch")

    def add(self, obj: Any) -> None:
        self._result.send(Event(ADDED, obj))

    def modify(self, obj: Any) -> None:
        self._result.send(Event(MODIFIED, obj))

    def delete(self, last_value: Any) -> None:
        self._result.send(Event(DELETED, last_value))

    def error(self, err_value: Any) -> None:
        self._result.send(Event(ERROR, err_value))

    def action(self, action: EventType, obj: Any) -> None:
        self._result.send(Event(action, obj))


def new_fake(capacity: int = 0) -> FakeWatcher:
    """Go: watch.NewFake (and, with ``capacity=100``, NewRaceFreeFake)."""
    return FakeWatcher(capacity)
