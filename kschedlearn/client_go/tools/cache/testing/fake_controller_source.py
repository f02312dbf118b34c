"""A fake API for reflector and informer tests: a watcher you push events into, and a source
that numbers changes like an API server's resourceVersion.

Go: staging/src/k8s.io/client-go/tools/cache/testing/fake_controller_source.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/testing/fake_controller_source.go
and ``watch.NewFake`` / ``watch.FakeWatcher`` from apimachinery/pkg/watch/watch.go.

Differs from Go: ``FakeWatcher`` lives here instead of the apimachinery watch package; the
source's broadcaster gives every watcher an effectively unbounded buffer (Go: a buffered
``watch.Broadcaster`` with a blocking distribute loop), and the per-change watch probability of
Go's ``Change`` is not used (the drop-watch variants are kept).
"""

from __future__ import annotations

from typing import Any

import attrs

from kschedlearn.client_go.tools.cache.listwatch import ListOptions
from kschedlearn.client_go.tools.cache.reflector import (
    EVENT_ADDED,
    EVENT_DELETED,
    EVENT_ERROR,
    EVENT_MODIFIED,
)
from kschedlearn.client_go.tools.cache.store import meta_namespace_key_func
from kschedlearn.sim import Chan


@attrs.frozen
class WatchEvent:
    """Go: watch.Event{Type, Object}."""

    type: str
    object: Any


@attrs.frozen
class FakeListMeta:
    """The ``metadata`` of a list result (only ``resource_version``).

    Go: the ``metav1.ListMeta`` of the list that FakeControllerSource.List returns.
    """

    resource_version: str = ""


@attrs.frozen
class FakeList:
    """A list result: ``items`` and ``metadata.resource_version`` (Go: ``v1.PodList``)."""

    items: tuple[Any, ...] = ()
    metadata: FakeListMeta = FakeListMeta()


@attrs.define(eq=False)
class FakeWatcher:
    """A watch you feed by hand; every push blocks until the reader takes it (unbuffered).

    Go: apimachinery/pkg/watch ``FakeWatcher`` / ``NewFake()``.
    """

    result: Chan = attrs.field(factory=lambda: Chan(name="FakeWatcher.result"))
    stopped: bool = False

    def stop(self) -> None:
        """Close the result channel once. Go: ``(*FakeWatcher).Stop``."""
        if not self.stopped:
            self.result.close()
            self.stopped = True

    def is_stopped(self) -> bool:
        return self.stopped

    def reset(self) -> None:
        """Go: ``(*FakeWatcher).Reset``."""
        self.stopped = False
        self.result = Chan(name="FakeWatcher.result")

    def result_chan(self) -> Chan:
        return self.result

    def add(self, obj: Any) -> None:
        self.result.send(WatchEvent(EVENT_ADDED, obj))

    def modify(self, obj: Any) -> None:
        self.result.send(WatchEvent(EVENT_MODIFIED, obj))

    def delete(self, last_value: Any) -> None:
        self.result.send(WatchEvent(EVENT_DELETED, last_value))

    def error(self, err_value: Any) -> None:
        self.result.send(WatchEvent(EVENT_ERROR, err_value))

    def action(self, action: str, obj: Any) -> None:
        self.result.send(WatchEvent(action, obj))


@attrs.define(eq=False)
class _BufferedWatcher:
    """A watcher of the fake source: events are buffered, never blocking the source."""

    source: FakeControllerSource
    result: Chan = attrs.field(factory=lambda: Chan(1 << 30, name="FakeControllerSource.watch"))
    stopped: bool = False

    def stop(self) -> None:
        if not self.stopped:
            self.stopped = True
            self.source._watchers.remove(self)
            self.result.close()

    def result_chan(self) -> Chan:
        return self.result


@attrs.define(eq=False)
class FakeControllerSource:
    """An in-memory list/watch source with a change log numbered 1, 2, 3, ...

    Go: fake_controller_source.go ``FakeControllerSource``. Objects must be attrs classes with
    ``metadata.resource_version`` (it is set with ``attrs.evolve``, Go: set in place).
    """

    items: dict[str, Any] = attrs.field(factory=dict)
    changes: list[WatchEvent] = attrs.field(factory=list)
    _watchers: list[_BufferedWatcher] = attrs.field(factory=list)

    def add(self, obj: Any) -> None:
        self.change(EVENT_ADDED, obj)

    def modify(self, obj: Any) -> None:
        self.change(EVENT_MODIFIED, obj)

    def delete(self, last_value: Any) -> None:
        self.change(EVENT_DELETED, last_value)

    def add_drop_watch(self, obj: Any) -> None:
        """Record an add without telling current watchers (Go: ``AddDropWatch``)."""
        self.change(EVENT_ADDED, obj, broadcast=False)

    def modify_drop_watch(self, obj: Any) -> None:
        self.change(EVENT_MODIFIED, obj, broadcast=False)

    def delete_drop_watch(self, last_value: Any) -> None:
        self.change(EVENT_DELETED, last_value, broadcast=False)

    def change(self, event_type: str, obj: Any, *, broadcast: bool = True) -> None:
        """Bump the version, stamp ``obj`` with it, record and broadcast. Go: ``Change``."""
        rv = str(len(self.changes) + 1)
        obj = attrs.evolve(obj, metadata=attrs.evolve(obj.metadata, resource_version=rv))
        key = meta_namespace_key_func(obj)
        if event_type in (EVENT_ADDED, EVENT_MODIFIED):
            self.items[key] = obj
        elif event_type == EVENT_DELETED:
            self.items.pop(key, None)
        event = WatchEvent(event_type, obj)
        self.changes.append(event)
        if broadcast:
            for w in list(self._watchers):
                w.result.send(event)

    def list(self, options: ListOptions) -> FakeList:
        """Every current object, at the version of the last change. Go: ``List``."""
        return FakeList(items=tuple(self.items.values()),
                        metadata=FakeListMeta(resource_version=str(len(self.changes))))

    def watch(self, options: ListOptions) -> _BufferedWatcher:
        """Replay the changes after ``options.resource_version``, then stream new ones.

        Go: ``(*FakeControllerSource).Watch``; a version beyond the log is an error.
        https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/testing/fake_controller_source.go#L228-L256
        Differs from Go: an empty resourceVersion counts as "0" (Go's ``strconv.Atoi`` fails on it).
        """
        rc = int(options.resource_version or "0")
        if rc > len(self.changes):
            raise ValueError("resource version in the future not supported by this fake")
        w = _BufferedWatcher(self)
        for event in self.changes[rc:]:
            w.result.send(event)
        self._watchers.append(w)
        return w

    def shutdown(self) -> None:
        """Close every watch. Go: ``Shutdown``."""
        for w in list(self._watchers):
            w.stop()


def new_fake_controller_source() -> FakeControllerSource:
    """Go: fake_controller_source.go ``NewFakeControllerSource``."""
    return FakeControllerSource()
