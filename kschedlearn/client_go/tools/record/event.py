"""Events: ``recorder.eventf(pod, "Warning", "FailedScheduling", ...)`` → Event objects.

Go: staging/src/k8s.io/client-go/tools/record/event.go (+ events_cache.go)
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/record/event.go

How it flows, as in Go: the recorder hands each event to the broadcaster; a broadcaster
goroutine passes it to every watcher; ``start_recording_to_sink`` is one watcher, which writes
it to the API server (``create``, or ``patch``-like ``update`` of the earlier copy when the
same event repeats).

Differs from Go: the 1.6 ``EventCorrelator`` has two parts. Its *logger* (identical events →
one object whose ``count`` and ``lastTimestamp`` go up) is reproduced. Its *aggregator*
(more than 10 similar events with different messages in 10 minutes → one
"(combined from similar events)" event) and its token-bucket spam filter are not; no
scheduler scenario produces that many distinct messages for one object. Writes are not
retried (Go retries 12 times, 10 s apart, on server errors).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

import attrs

from kschedlearn import sim
from kschedlearn.api.v1 import Event, EventSource, ObjectMeta, ObjectReference
from kschedlearn.trace import glog
from kschedlearn.trace.gofmt import sprintf

MAX_QUEUED_EVENTS = 1000


class EventSink(Protocol):
    """Go: record.EventSink — create and update (patch) Event objects."""

    def create(self, event: Event) -> Event: ...
    def update(self, event: Event) -> Event: ...


@attrs.define(eq=False)
class EventBroadcaster:
    """Go: record.eventBroadcasterImpl over a watch.Broadcaster (queue length 1000)."""

    runtime: sim.Runtime | None = None
    _watchers: list[Callable[[Event], None]] = attrs.field(factory=list, init=False)
    _incoming: sim.Chan = attrs.field(factory=lambda: sim.Chan(MAX_QUEUED_EVENTS, name="events"), init=False)
    _started: bool = attrs.field(default=False, init=False)
    # kschedlearn-only: the last event-name timestamp handed out (see EventRecorder._make_event)
    _last_nanos: int = attrs.field(default=0, init=False)

    def _ensure_loop(self) -> None:
        if self._started:
            return
        self._started = True

        def loop() -> None:
            while True:
                event, ok = self._incoming.recv()
                if not ok:
                    return
                for watcher in list(self._watchers):
                    watcher(event)

        if sim.current_goroutine() is not None:
            sim.go(loop, name="record.Broadcaster.loop")
        elif self.runtime is not None:
            self.runtime.go(loop, name="record.Broadcaster.loop")

    def start_event_watcher(self, event_handler: Callable[[Event], None]) -> None:
        """Go: eventBroadcasterImpl.StartEventWatcher."""
        self._watchers.append(event_handler)
        self._ensure_loop()

    def start_recording_to_sink(self, sink: EventSink) -> None:
        """Go: StartRecordingToSink — write every event to the API server (with the logger).

        https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/record/event.go#L110-L122
        """
        correlator = _EventLogger()

        def record_to_sink(event: Event) -> None:
            updated, is_repeat = correlator.observe(event)
            try:
                if is_repeat and updated.metadata.resource_version:
                    stored = sink.update(updated)
                else:
                    stored = sink.create(attrs.evolve(
                        updated, metadata=attrs.evolve(updated.metadata, resource_version="")))
                correlator.remember(stored)
            except Exception as err:  # noqa: BLE001 - Go logs and drops after its retries
                glog.errorf("Unable to write event '%v' (may retry after sleeping)", err)

        self.start_event_watcher(record_to_sink)

    def start_logging(self, logf: Callable[..., None]) -> None:
        """Go: (eventBroadcasterImpl).StartLogging — logs each event with glog (type, reason, message).

        https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/record/event.go#L212-L219
        """
        self.start_event_watcher(lambda e: logf(
            "Event(%v): type: '%v' reason: '%v' %v", e.involved_object.name, e.type, e.reason, e.message))

    def new_recorder(self, source: EventSource) -> EventRecorder:
        """Go: eventBroadcasterImpl.NewRecorder."""
        return EventRecorder(source=source, broadcaster=self)

    def _action(self, event: Event) -> None:
        self._ensure_loop()
        if not self._incoming.try_send(event):
            glog.errorf("event queue full, dropping event %v", event.metadata.name)


def new_broadcaster(runtime: sim.Runtime | None = None) -> EventBroadcaster:
    """Go: record.NewBroadcaster."""
    return EventBroadcaster(runtime=runtime)


@attrs.define(eq=False)
class EventRecorder:
    """Go: record.recorderImpl."""

    source: EventSource
    broadcaster: EventBroadcaster

    def event(self, obj: Any, event_type: str, reason: str, message: str) -> None:
        """Go: recorderImpl.Event."""
        self._generate_event(obj, event_type, reason, message)

    def eventf(self, obj: Any, event_type: str, reason: str, message_fmt: str, *args: Any) -> None:
        """Go: recorderImpl.Eventf."""
        self._generate_event(obj, event_type, reason, sprintf(message_fmt, *args))

    def _generate_event(self, obj: Any, event_type: str, reason: str, message: str) -> None:
        ref = get_reference(obj)
        if event_type not in ("Normal", "Warning"):
            glog.errorf("Unsupported event type: '%v'", event_type)
            return
        self.broadcaster._action(self._make_event(ref, event_type, reason, message))

    def _make_event(self, ref: ObjectReference, event_type: str, reason: str, message: str) -> Event:
        """Go: recorderImpl.makeEvent — name ``<object>.<hex unix nanos>``, count 1."""
        g = sim.current_goroutine()
        now = g.runtime.now if g is not None else (self.broadcaster.runtime.now if self.broadcaster.runtime else 0.0)
        nanos = int(round(now * 1e9)) + _EPOCH_NANOS
        # Differs from Go: virtual time stands still while goroutines run, so two events of one
        # object at the same instant would get the same name and the second would be refused
        # (AlreadyExists) and lost. Go's wall clock always moves on between two events; keep
        # the names unique by moving on by 1 ns when the clock has not.
        nanos = max(nanos, self.broadcaster._last_nanos + 1)
        self.broadcaster._last_nanos = nanos
        namespace = ref.namespace or "default"
        return Event(
            metadata=ObjectMeta(name=f"{ref.name}.{nanos:x}", namespace=namespace),
            involved_object=ref,
            reason=reason,
            message=message,
            first_timestamp=now,
            last_timestamp=now,
            count=1,
            type=event_type,
            source=self.source,
        )


# 2017-04-03T00:00:00Z in Unix nanoseconds: the simulated clock's zero (docs/contracts.md)
_EPOCH_NANOS = 1491177600 * 10**9


def get_reference(obj: Any) -> ObjectReference:
    """Go: v1.GetReference — kind, namespace, name, uid, apiVersion, resourceVersion."""
    meta = obj.metadata
    return ObjectReference(
        kind=getattr(type(obj), "kind", type(obj).__name__),
        namespace=meta.namespace,
        name=meta.name,
        uid=meta.uid,
        api_version=getattr(type(obj), "api_version", "v1"),
        resource_version=meta.resource_version,
    )


def _event_key(event: Event) -> tuple[str, ...]:
    """Go: getEventKey — source, involved object, type, reason, message."""
    ref = event.involved_object
    return (event.source.component, event.source.host, ref.kind, ref.namespace, ref.name,
            ref.uid, ref.api_version, event.type, event.reason, event.message)


@attrs.define(eq=False)
class _EventLogger:
    """Go: eventLogger (events_cache.go) — repeats of an identical event bump ``count``."""

    cache: dict[tuple[str, ...], Event] = attrs.field(factory=dict)

    def observe(self, event: Event) -> tuple[Event, bool]:
        last = self.cache.get(_event_key(event))
        if last is None:
            return event, False
        return attrs.evolve(
            last, count=last.count + 1, last_timestamp=event.last_timestamp, message=event.message
        ), True

    def remember(self, stored: Event) -> None:
        self.cache[_event_key(stored)] = stored
