"""The Endpoints-backed lock: the record lives in an annotation of ``kube-system/kube-scheduler``.

Go: pkg/client/leaderelection/resourcelock/endpointslock.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/client/leaderelection/resourcelock/endpointslock.go#L29-L103

The Endpoints object is used only as a place to hang the annotation; it has no addresses.
Optimistic concurrency does the real locking: ``update`` sends the resourceVersion of the copy
last read, so when two candidates race, the second write gets a 409 Conflict.

Differs from Go: API objects are frozen, so Go's in-place edit of ``el.e.Annotations``
becomes ``attrs.evolve`` with a copied annotation map.
"""

from __future__ import annotations

from typing import Any

import attrs

from kschedlearn.api.v1 import Endpoints, ObjectMeta
from kschedlearn.client.leaderelection.resourcelock.interface import (
    LEADER_ELECTION_RECORD_ANNOTATION_KEY,
    LeaderElectionRecord,
    ResourceLockConfig,
)

_URL = (
    "https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/client/leaderelection/"
    "resourcelock/endpointslock.go#L29-L103"
)

ENDPOINT_NOT_INITIALIZED = "endpoint not initialized, call get or create first"


class LockNotInitializedError(RuntimeError):
    """Go: the ``errors.New("endpoint not initialized, ...")`` of ``EndpointsLock.Update``."""

    def __init__(self) -> None:
        super().__init__(ENDPOINT_NOT_INITIALIZED)


@attrs.define(eq=False)
class EndpointsLock:
    """A leader-election lock stored on an Endpoints object.

    Go: resourcelock.EndpointsLock (endpointslock.go). ``client`` is a clientset
    (``client.core().endpoints(ns)``); ``_e`` is the last copy read or written.
    """

    endpoints_meta: ObjectMeta
    client: Any
    lock_config: ResourceLockConfig
    _e: Endpoints | None = attrs.field(default=None, repr=False)

    def _endpoints(self) -> Any:
        return self.client.core().endpoints(self.endpoints_meta.namespace)

    def get(self) -> LeaderElectionRecord:
        """Read the Endpoints and decode the record; an absent annotation is an empty record.

        Go: EndpointsLock.Get. Raises the API error (``NotFoundError`` if there is no object)
        or :class:`RecordDecodeError` for a malformed annotation.
        """
        record = LeaderElectionRecord()
        self._e = self._endpoints().get(self.endpoints_meta.name)
        record_bytes = self._e.metadata.annotations.get(LEADER_ELECTION_RECORD_ANNOTATION_KEY)
        if record_bytes is not None:
            record = LeaderElectionRecord.from_json(record_bytes)
        return record

    def create(self, ler: LeaderElectionRecord) -> None:
        """Create the Endpoints with only the record annotation. Go: EndpointsLock.Create.

        https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/client/leaderelection/resourcelock/endpointslock.go#L56-L72
        """
        record_bytes = ler.to_json()
        self._e = self._endpoints().create(Endpoints(metadata=ObjectMeta(
            name=self.endpoints_meta.name,
            namespace=self.endpoints_meta.namespace,
            annotations={LEADER_ELECTION_RECORD_ANNOTATION_KEY: record_bytes},
        )))

    def update(self, ler: LeaderElectionRecord) -> None:
        """Write the record into the copy last read and PUT it (Conflict if someone wrote since).

        Go: EndpointsLock.Update -- the copy is the one from the last get/create, with its
        resourceVersion. Differs from Go: ``attrs.evolve`` instead of mutating the map.
        https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/client/leaderelection/resourcelock/endpointslock.go#L74-L86
        """
        if self._e is None:
            raise LockNotInitializedError()
        record_bytes = ler.to_json()
        annotations = dict(self._e.metadata.annotations)
        annotations[LEADER_ELECTION_RECORD_ANNOTATION_KEY] = record_bytes
        self._e = attrs.evolve(self._e, metadata=attrs.evolve(self._e.metadata, annotations=annotations))
        self._e = self._endpoints().update(self._e)

    def record_event(self, s: str) -> None:
        """Emit a Normal ``LeaderElection`` event "<identity> <s>" on the Endpoints object.

        Go: EndpointsLock.RecordEvent -- Go passes the finished text as the *format* string
        of ``Eventf``, so a ``%`` in the identity would be mangled; kept as is.
        """
        events = f"{self.lock_config.identity} {s}"
        assert self._e is not None  # Go dereferences el.e: only called after get/create worked
        self.lock_config.event_recorder.eventf(
            Endpoints(metadata=self._e.metadata), "Normal", "LeaderElection", events,
        )

    def describe(self) -> str:
        """``namespace/name`` of the lock object. Go: EndpointsLock.Describe."""
        return f"{self.endpoints_meta.namespace}/{self.endpoints_meta.name}"

    def identity(self) -> str:
        """The candidate's identity (the host name in the scheduler). Go: EndpointsLock.Identity."""
        return self.lock_config.identity
