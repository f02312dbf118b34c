"""Controller: a reflector filling a queue plus a loop popping it; and the informers built on it.

Go: staging/src/k8s.io/client-go/tools/cache/controller.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/controller.go#L29-L349

``new_informer`` / ``new_indexer_informer`` wire the whole chain a learner follows (spec §9.6):
API server → Reflector → DeltaFIFO → ``process_loop`` → client store + handler calls
(``on_add`` / ``on_update`` / ``on_delete``). The scheduler's assigned-pod feed is one of these.

Differs from Go: ``Process`` functions raise instead of returning an error.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

import attrs

from kschedlearn import sim
from kschedlearn.apimachinery.util import wait
from kschedlearn.client_go.tools.cache.delta_fifo import (
    ADDED,
    DELETED,
    SYNC,
    UPDATED,
    deletion_handling_meta_namespace_key_func,
    new_delta_fifo,
)
from kschedlearn.client_go.tools.cache.fifo import FIFOClosedError, ProcessError
from kschedlearn.client_go.tools.cache.index import Indexers
from kschedlearn.client_go.tools.cache.listwatch import ListerWatcher
from kschedlearn.client_go.tools.cache.reflector import Reflector, new_reflector
from kschedlearn.client_go.tools.cache.store import Store, meta_namespace_key_func, new_indexer, new_store
from kschedlearn.client_go.util.clock import Clock, RealClock
from kschedlearn.sim import Chan

ProcessFunc = Callable[[Any], None]
"""Go: controller.go ``type ProcessFunc func(obj interface{}) error`` (raises on error)."""

ShouldResyncFunc = Callable[[], bool]
"""Go: controller.go ``type ShouldResyncFunc func() bool``."""


@attrs.define(eq=False)
class Config:
    """Everything a Controller needs.

    Go: controller.go ``type Config struct``
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/controller.go#L29-L64
    """

    queue: Any
    lister_watcher: ListerWatcher
    process: ProcessFunc
    object_type: type | None
    full_resync_period: float = 0.0
    should_resync: ShouldResyncFunc | None = None
    retry_on_error: bool = False


@attrs.define(eq=False, slots=False)
class Controller:
    """Runs a reflector into ``config.queue`` and pops the queue into ``config.process``.

    Go: controller.go ``type controller struct`` (and the ``Controller`` interface)
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/controller.go#L74-L80
    """

    config: Config
    reflector: Reflector | None = None
    clock: Clock = attrs.field(factory=RealClock)
    name: str | None = None  # kschedlearn-only: names the reflector (Go uses the caller's file:line)

    def run(self, stop_ch: Chan) -> None:
        """Start the reflector, then pop the queue until ``stop_ch`` closes (blocks).

        Go: ``(*controller).Run``
        https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/controller.go#L97-L122
        """

        def close_queue_on_stop() -> None:
            stop_ch.recv()
            self.config.queue.close()

        sim.go(close_queue_on_stop, name="controller close-queue-on-stop")
        r = new_reflector(self.config.lister_watcher, self.config.object_type,
                          self.config.queue, self.config.full_resync_period, name=self.name)
        r.should_resync = self.config.should_resync
        r.clock = self.clock
        self.reflector = r
        r.run_until(stop_ch)
        wait.until(self._process_loop, 1.0, stop_ch)

    def has_synced(self) -> bool:
        """True once the first list has been fully popped. Go: ``(*controller).HasSynced``."""
        return bool(self.config.queue.has_synced())

    def last_sync_resource_version(self) -> str:
        """Go: ``(*controller).LastSyncResourceVersion`` ("" before Run)."""
        if self.reflector is None:
            return ""
        return self.reflector.last_sync_resource_version()

    def _process_loop(self) -> None:
        """Pop and process forever; return only when the queue is closed.

        Go: ``(*controller).processLoop``
        https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/controller.go#L136-L158
        """
        while True:
            try:
                self.config.queue.pop(self.config.process)
            except FIFOClosedError:
                return
            except ProcessError as err:
                if self.config.retry_on_error:
                    # Put it back unless newer deltas for the key arrived meanwhile.
                    self.config.queue.add_if_not_present(err.item)


def new(c: Config, name: str | None = None) -> Controller:
    """Go: controller.go ``New(c *Config) Controller``."""
    return Controller(config=c, name=name)


class ResourceEventHandler(Protocol):
    """Receives notifications: ``on_add(obj)``, ``on_update(old, new)``, ``on_delete(obj)``.

    Go: controller.go ``type ResourceEventHandler interface``
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/controller.go#L160-L178

    ``on_delete`` may receive a ``DeletedFinalStateUnknown`` tombstone.
    """

    def on_add(self, obj: Any) -> None: ...
    def on_update(self, old_obj: Any, new_obj: Any) -> None: ...
    def on_delete(self, obj: Any) -> None: ...


@attrs.frozen
class ResourceEventHandlerFuncs:
    """A ResourceEventHandler from up to three functions (missing ones are skipped).

    Go: controller.go ``type ResourceEventHandlerFuncs struct`` and its methods
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/controller.go#L180-L187
    """

    add_func: Callable[[Any], None] | None = None
    update_func: Callable[[Any, Any], None] | None = None
    delete_func: Callable[[Any], None] | None = None

    def on_add(self, obj: Any) -> None:
        """Go: ``ResourceEventHandlerFuncs.OnAdd``.

        https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/controller.go#L189-L194
        """
        if self.add_func is not None:
            self.add_func(obj)

    def on_update(self, old_obj: Any, new_obj: Any) -> None:
        """Go: ``ResourceEventHandlerFuncs.OnUpdate``.

        https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/controller.go#L196-L201
        """
        if self.update_func is not None:
            self.update_func(old_obj, new_obj)

    def on_delete(self, obj: Any) -> None:
        """Go: ``ResourceEventHandlerFuncs.OnDelete``.

        https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/controller.go#L203-L208
        """
        if self.delete_func is not None:
            self.delete_func(obj)


def _informer_process(client_state: Store, h: ResourceEventHandler) -> ProcessFunc:
    """The Process function of NewInformer/NewIndexerInformer: apply Deltas oldest first.

    Go: controller.go, func NewInformer (``Process`` is the func literal inside it, lines 256-280)
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/controller.go#L220-L283
    """

    def process(obj: Any) -> None:
        for d in obj:
            if d.type in (SYNC, ADDED, UPDATED):
                old, exists = _get_or_missing(client_state, d.object)
                if exists:
                    client_state.update(d.object)
                    h.on_update(old, d.object)
                else:
                    client_state.add(d.object)
                    h.on_add(d.object)
            elif d.type == DELETED:
                client_state.delete(d.object)
                h.on_delete(d.object)

    return process


def _get_or_missing(store: Store, obj: Any) -> tuple[Any, bool]:
    """Go's ``old, exists, err := store.Get(obj); err == nil && exists``: an error = missing."""
    try:
        return store.get(obj)
    except Exception:  # noqa: BLE001 - Go treats a Get error as "not there" here
        return None, False


def new_informer(lw: ListerWatcher, obj_type: type | None, resync_period: float,
                 h: ResourceEventHandler, name: str | None = None) -> tuple[Store, Controller]:
    """A store plus a controller that keeps it filled and calls ``h`` on every change.

    Go: controller.go ``NewInformer``
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/controller.go#L220-L283

    The DeltaFIFO gets the client store as its known objects, so a relist can detect deletions
    missed while the watch was down (tombstones) and resyncs replay known objects.
    """
    client_state = new_store(deletion_handling_meta_namespace_key_func)
    fifo = new_delta_fifo(meta_namespace_key_func, None, client_state)
    cfg = Config(queue=fifo, lister_watcher=lw, object_type=obj_type,
                 full_resync_period=resync_period, retry_on_error=False,
                 process=_informer_process(client_state, h))
    return client_state, new(cfg, name=name)


def new_indexer_informer(lw: ListerWatcher, obj_type: type | None, resync_period: float,
                         h: ResourceEventHandler, indexers: Indexers,
                         name: str | None = None) -> tuple[Any, Controller]:
    """Like ``new_informer`` with an Indexer as the client state.

    Go: controller.go ``NewIndexerInformer``
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/controller.go#L285-L349
    """
    client_state = new_indexer(deletion_handling_meta_namespace_key_func, indexers)
    fifo = new_delta_fifo(meta_namespace_key_func, None, client_state)
    cfg = Config(queue=fifo, lister_watcher=lw, object_type=obj_type,
                 full_resync_period=resync_period, retry_on_error=False,
                 process=_informer_process(client_state, h))
    return client_state, new(cfg, name=name)


__all__ = [
    "Config", "Controller", "ProcessFunc", "ResourceEventHandler",
    "ResourceEventHandlerFuncs", "ShouldResyncFunc", "new", "new_indexer_informer",
    "new_informer",
]
