"""Watches of HTTP clients: stored changes turned into JSON lines, handed to the HTTP threads.

Go: the watch side of the cacher,
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apiserver/pkg/storage/cacher.go
(``cacheWatcher``: events since a resourceVersion, or every existing object as ADDED for a
watch without one; then live ones; a change that enters or leaves the filter is ADDED or
DELETED) and the watch encoder of ``staging/src/k8s.io/apiserver/pkg/endpoints/handlers/watch.go``
(one JSON object per event, or one length-prefixed protobuf ``WatchEvent`` frame; each object's
selfLink set by the route's namer, as ``WatchServer.Fixup`` does).

Differs from Go: kschedlearn-only. A client's watch is *not* part of the simulated world: it
listens to the API server's storage from outside (like the snapshot builder does), so opening
one never changes a trace. Lines are produced on the simulation's thread and read by the HTTP
thread through a thread-safe queue. When the simulation's history forks (a new world is built),
every open stream is closed, as a restarted apiserver would close them; clients re-list.
"""

from __future__ import annotations

import json
import queue
from typing import Any

import attrs

from kschedlearn.apimachinery.api.errors import Status, new_gone
from kschedlearn.apiserver.registry import RESOURCES
from kschedlearn.apiserver.rest import protobuf, tables
from kschedlearn.apiserver.rest.types import WatchRequest
from kschedlearn.apiserver.storage import HistoryEntry, WatchFilter

_CLOSED = b""


@attrs.define(eq=False)
class WatchStream:
    """One client's stream of encoded watch events (thread-safe)."""

    request: WatchRequest
    lines: queue.Queue[bytes] = attrs.field(factory=queue.Queue)
    closed: bool = False
    sent: list[bytes] = attrs.field(factory=list)  # every line produced, for tests and replay checks

    def put(self, line: bytes) -> None:
        if not self.closed:
            self.sent.append(line)
            self.lines.put(line)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.lines.put(_CLOSED)

    def get(self, timeout: float) -> bytes | None:
        """The next line, ``b""`` once closed, None if nothing came within ``timeout`` seconds."""
        try:
            return self.lines.get(timeout=timeout)
        except queue.Empty:
            return None


@attrs.define(eq=False)
class WatchHub:
    """All HTTP watches on one API server (attach once; :meth:`detach` when the world is gone)."""

    api: Any
    streams: list[tuple[WatchStream, WatchFilter]] = attrs.field(factory=list)
    _attached: bool = False

    def open(self, req: WatchRequest) -> WatchStream:
        """Start a stream: the history after ``req.resource_version`` (or a 410), then live events."""
        if not self._attached:
            self.api.storage.listeners.append(self._on_entry)
            self._attached = True
        info = RESOURCES[req.resource]
        flt = self.api._filter(info, req.namespace, req.label_selector, req.field_selector)
        stream = WatchStream(req)
        history = self.api.storage.history(req.resource)
        too_old = history.too_old_message(req.resource_version) if req.resource_version else None
        if too_old is not None:
            stream.put(_encode(req, "ERROR", new_gone(too_old).status().to_dict()))
            stream.close()
            return stream
        for event in self.api.watch_start(req.resource, flt, req.resource_version):
            self._put(stream, event)
        self.streams.append((stream, flt))
        return stream

    def _on_entry(self, resource: str, entry: HistoryEntry) -> None:
        for stream, flt in list(self.streams):
            if stream.closed:
                self.streams.remove((stream, flt))
            elif stream.request.resource == resource:
                self._send(stream, flt, entry)

    def _send(self, stream: WatchStream, flt: WatchFilter, entry: HistoryEntry) -> None:
        event = flt.translate(entry)
        if event is not None:
            self._put(stream, event)

    def _put(self, stream: WatchStream, event: Any) -> None:
        obj, req = event.object, stream.request
        if req.as_table:
            body = tables.table(req.resource, [obj], self.api.now(), obj.metadata.resource_version,
                                include_object=req.include_object, with_columns=not stream.sent)
        else:
            body = obj.to_dict() if req.link is None else req.link.link(obj.to_dict())
        try:
            stream.put(_encode(req, event.type, body))
        except protobuf.ProtobufError as err:  # a schema gap: end this client's watch, never the writer
            status = Status(message=f"kschedlearn: {err}", reason="InternalError", code=500)
            stream.put(_encode(req, "ERROR", status.to_dict()))
            stream.close()

    def detach(self) -> None:
        """Close every stream and stop listening (the world they watched is gone)."""
        for stream, _ in self.streams:
            stream.close()
        self.streams.clear()
        if self._attached:
            self.api.storage.listeners.remove(self._on_entry)
            self._attached = False


def _encode(req: WatchRequest, type_: str, obj: dict[str, Any]) -> bytes:
    """One event: a protobuf frame, or a JSON line (Go's JSON framer writes one object per line)."""
    if req.protobuf and not req.as_table:
        return protobuf.watch_frame(type_, obj)
    return json.dumps({"type": type_, "object": obj}, separators=(",", ":")).encode("utf-8") + b"\n"


__all__ = ["WatchHub", "WatchStream"]
