"""SharedIndexInformer: one reflector + indexer shared by many event handlers.

Go: staging/src/k8s.io/client-go/tools/cache/shared_informer.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/shared_informer.go#L32-L581

Every handler (``processorListener``) gets its own unbounded pending list and two goroutines:
``pop`` moves notifications one by one into an unbuffered channel, ``run`` takes them out and
calls the handler. So each handler sees its events in order, but handlers do not wait for each
other, and the shared cache may already be newer than the event a handler is looking at
(spec §9.7). Resyncs go only to handlers whose own resync period is due.

Differs from Go: locks are the runtime's cooperative mutexes (a ``sync.RWMutex`` read lock is
taken exclusively). The mutation detector is always the dummy (see ``mutation_detector``).
"""

from __future__ import annotations

from typing import Any

import attrs

from kschedlearn import sim
from kschedlearn.apimachinery.util import wait
from kschedlearn.client_go.tools.cache.controller import (
    Config,
    Controller,
    ResourceEventHandler,
)
from kschedlearn.client_go.tools.cache.controller import new as new_controller
from kschedlearn.client_go.tools.cache.delta_fifo import (
    ADDED,
    DELETED,
    SYNC,
    UPDATED,
    deletion_handling_meta_namespace_key_func,
    new_delta_fifo,
)
from kschedlearn.client_go.tools.cache.index import Indexers
from kschedlearn.client_go.tools.cache.listwatch import ListerWatcher
from kschedlearn.client_go.tools.cache.mutation_detector import (
    CacheMutationDetector,
    new_cache_mutation_detector,
)
from kschedlearn.client_go.tools.cache.reflector import go_duration, type_name
from kschedlearn.client_go.tools.cache.store import meta_namespace_key_func, new_indexer
from kschedlearn.client_go.util.clock import Clock, RealClock
from kschedlearn.sim import Chan
from kschedlearn.trace import glog

SYNCED_POLL_PERIOD = 0.1
"""Go: shared_informer.go ``syncedPollPeriod`` (100ms)."""

MINIMUM_RESYNC_PERIOD = 1.0
"""Go: shared_informer.go ``minimumResyncPeriod`` (1s)."""


def wait_for_cache_sync(stop_ch: Chan, *cache_syncs: Any) -> bool:
    """Poll every 100ms until every ``has_synced`` function returns True; False if stopped.

    Go: shared_informer.go ``WaitForCacheSync``
    """

    def condition() -> bool:
        return all(sync_func() for sync_func in cache_syncs)

    try:
        wait.poll_until(SYNCED_POLL_PERIOD, condition, stop_ch)
    except wait.ErrWaitTimeout:
        glog.v(2).infof("stop requested")
        return False
    glog.v(4).infof("caches populated")
    return True


@attrs.frozen
class _UpdateNotification:
    """Go: shared_informer.go ``updateNotification``."""

    old_obj: Any
    new_obj: Any


@attrs.frozen
class _AddNotification:
    """Go: shared_informer.go ``addNotification``."""

    new_obj: Any


@attrs.frozen
class _DeleteNotification:
    """Go: shared_informer.go ``deleteNotification``."""

    old_obj: Any


@attrs.define(eq=False, slots=False)
class ProcessorListener:
    """One handler with its pending notifications. Go: shared_informer.go ``processorListener``.

    https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/shared_informer.go#L439-L465
    """

    handler: ResourceEventHandler
    requested_resync_period: float
    resync_period: float
    next_resync: float = 0.0
    pending_notifications: list[Any] = attrs.field(factory=list)
    next_ch: Chan = attrs.field(factory=lambda: Chan(name="listener.nextCh"))
    lock: sim.Mutex = attrs.field(factory=sim.Mutex)
    cond: sim.Cond = attrs.field(init=False)
    resync_lock: sim.Mutex = attrs.field(factory=sim.Mutex)

    @cond.default
    def _cond_default(self) -> sim.Cond:
        return sim.Cond(self.lock)

    def add(self, notification: Any) -> None:
        """Append to the pending list and wake ``pop``. Go: ``(*processorListener).add``."""
        with self.lock:
            self.pending_notifications.append(notification)
            self.cond.broadcast()

    def pop(self, stop_ch: Chan) -> None:
        """Move pending notifications, one at a time, into ``next_ch``.

        Go: ``(*processorListener).pop``
        """
        while True:
            notification, stopped = self._blocking_get(stop_ch)
            if stopped:
                return
            index, _, _ = sim.select(("recv", stop_ch), ("send", self.next_ch, notification))
            if index == 0:
                return

    def _blocking_get(self, stop_ch: Chan) -> tuple[Any, bool]:
        """Wait for a pending notification (or the stop). Go: pop's ``blockingGet`` closure."""
        with self.lock:
            while len(self.pending_notifications) == 0:
                index, _, _ = sim.select(("recv", stop_ch), default=True)
                if index == 0:
                    return None, True
                self.cond.wait()
            nt = self.pending_notifications.pop(0)
            return nt, False

    def run(self, stop_ch: Chan) -> None:
        """Take notifications from ``next_ch`` and call the handler.

        Go: ``(*processorListener).run``; on stop it wakes ``pop`` so that it can leave too.
        https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/shared_informer.go#L527-L554
        """
        while True:
            index, nxt, _ = sim.select(("recv", stop_ch), ("recv", self.next_ch))
            if index == 0:
                with self.lock:
                    self.cond.broadcast()
                return
            if isinstance(nxt, _UpdateNotification):
                self.handler.on_update(nxt.old_obj, nxt.new_obj)
            elif isinstance(nxt, _AddNotification):
                self.handler.on_add(nxt.new_obj)
            elif isinstance(nxt, _DeleteNotification):
                self.handler.on_delete(nxt.old_obj)
            else:
                glog.errorf("unrecognized notification: %v", nxt)

    def should_resync(self, now: float) -> bool:
        """Due for a resync? Never with period 0. Go: ``(*processorListener).shouldResync``."""
        with self.resync_lock:
            if self.resync_period == 0:
                return False
            return now >= self.next_resync

    def determine_next_resync(self, now: float) -> None:
        """Go: ``(*processorListener).determineNextResync``."""
        with self.resync_lock:
            self.next_resync = now + self.resync_period

    def set_resync_period(self, resync_period: float) -> None:
        """Go: ``(*processorListener).setResyncPeriod``."""
        with self.resync_lock:
            self.resync_period = resync_period


def new_process_listener(handler: ResourceEventHandler, requested_resync_period: float,
                         resync_period: float, now: float) -> ProcessorListener:
    """Go: shared_informer.go ``newProcessListener``."""
    ret = ProcessorListener(handler=handler, requested_resync_period=requested_resync_period,
                            resync_period=resync_period)
    ret.determine_next_resync(now)
    return ret


@attrs.define(eq=False)
class SharedProcessor:
    """Fans notifications out to listeners. Go: shared_informer.go ``sharedProcessor``."""

    clock: Clock
    listeners: list[ProcessorListener] = attrs.field(factory=list)
    syncing_listeners: list[ProcessorListener] = attrs.field(factory=list)
    listeners_lock: sim.Mutex = attrs.field(factory=sim.Mutex)

    def add_listener(self, listener: ProcessorListener) -> None:
        """Go: ``(*sharedProcessor).addListener`` (new listeners also get resyncs)."""
        with self.listeners_lock:
            self.listeners.append(listener)
            self.syncing_listeners.append(listener)

    def distribute(self, obj: Any, sync: bool) -> None:
        """Sync-caused notifications go only to listeners due for resync; others to all.

        Go: ``(*sharedProcessor).distribute``
        """
        with self.listeners_lock:
            targets = self.syncing_listeners if sync else self.listeners
            for listener in list(targets):
                listener.add(obj)

    def run(self, stop_ch: Chan) -> None:
        """Start every listener's run and pop goroutines. Go: ``(*sharedProcessor).run``."""
        with self.listeners_lock:
            for listener in self.listeners:
                sim.go(listener.run, stop_ch, name="processorListener.run")
                sim.go(listener.pop, stop_ch, name="processorListener.pop")

    def should_resync(self) -> bool:
        """Pick the listeners due for a resync now; True if there is any.

        Go: ``(*sharedProcessor).shouldResync`` (the reflector's ShouldResync)
        """
        with self.listeners_lock:
            self.syncing_listeners = []
            resync_needed = False
            now = self.clock.now()
            for listener in self.listeners:
                if listener.should_resync(now):
                    resync_needed = True
                    self.syncing_listeners.append(listener)
                    listener.determine_next_resync(now)
            return resync_needed

    def resync_check_period_changed(self, resync_check_period: float) -> None:
        """Go: ``(*sharedProcessor).resyncCheckPeriodChanged``."""
        with self.listeners_lock:
            for listener in self.listeners:
                resync_period = determine_resync_period(listener.requested_resync_period,
                                                        resync_check_period)
                listener.set_resync_period(resync_period)


def determine_resync_period(desired: float, check: float) -> float:
    """A handler's effective resync period given the informer's check period.

    Go: shared_informer.go ``determineResyncPeriod``
    """
    if desired == 0:
        return desired
    if check == 0:
        glog.warningf("The specified resyncPeriod %v is invalid because this shared informer "
                      "doesn't support resyncing", go_duration(desired))
        return 0.0
    if desired < check:
        glog.warningf("The specified resyncPeriod %v is being increased to the minimum "
                      "resyncCheckPeriod %v", go_duration(desired), go_duration(check))
        return check
    return desired


@attrs.define(eq=False)
class DummyController:
    """What ``get_controller`` returns: only HasSynced means anything.

    Go: shared_informer.go ``dummyController``
    """

    informer: SharedIndexInformer

    def run(self, stop_ch: Chan) -> None:
        """Does nothing (the informer runs its own controller)."""

    def has_synced(self) -> bool:
        return self.informer.has_synced()

    def last_sync_resource_version(self) -> str:
        return ""


@attrs.define(eq=False, slots=False)
class SharedIndexInformer:
    """Go: shared_informer.go ``type sharedIndexInformer struct``
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/shared_informer.go#L120-L150
    """

    indexer: Any
    lister_watcher: ListerWatcher
    object_type: type | None
    resync_check_period: float
    default_event_handler_resync_period: float
    processor: SharedProcessor
    cache_mutation_detector: CacheMutationDetector
    clock: Clock
    controller: Controller | None = None
    started: bool = False
    started_lock: sim.Mutex = attrs.field(factory=sim.Mutex)
    block_deltas: sim.Mutex = attrs.field(factory=sim.Mutex)
    stop_ch: Chan | None = None
    name: str | None = None  # kschedlearn-only: names the reflector in logs and traces

    def run(self, stop_ch: Chan) -> None:
        """Build the DeltaFIFO and controller, start the listeners, run the controller (blocks).

        Go: ``(*sharedIndexInformer).Run``
        https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/shared_informer.go#L185-L214
        """
        fifo = new_delta_fifo(meta_namespace_key_func, None, self.indexer)
        cfg = Config(queue=fifo, lister_watcher=self.lister_watcher, object_type=self.object_type,
                     full_resync_period=self.resync_check_period, retry_on_error=False,
                     should_resync=self.processor.should_resync, process=self.handle_deltas)
        with self.started_lock:
            self.controller = new_controller(cfg, name=self.name)
            self.controller.clock = self.clock
            self.started = True
        self.stop_ch = stop_ch
        self.cache_mutation_detector.run(stop_ch)
        self.processor.run(stop_ch)
        self.controller.run(stop_ch)

    def is_started(self) -> bool:
        """Go: ``(*sharedIndexInformer).isStarted``."""
        with self.started_lock:
            return self.started

    def has_synced(self) -> bool:
        """Go: ``(*sharedIndexInformer).HasSynced`` (False before Run)."""
        with self.started_lock:
            if self.controller is None:
                return False
            return self.controller.has_synced()

    def last_sync_resource_version(self) -> str:
        """Go: ``(*sharedIndexInformer).LastSyncResourceVersion``."""
        with self.started_lock:
            if self.controller is None:
                return ""
            return self.controller.last_sync_resource_version()

    def get_store(self) -> Any:
        """Go: ``(*sharedIndexInformer).GetStore``."""
        return self.indexer

    def get_indexer(self) -> Any:
        """Go: ``(*sharedIndexInformer).GetIndexer``."""
        return self.indexer

    def add_indexers(self, indexers: Indexers) -> None:
        """Go: ``(*sharedIndexInformer).AddIndexers`` - only before Run."""
        with self.started_lock:
            if self.started:
                raise RuntimeError("informer has already started")
            self.indexer.add_indexers(indexers)

    def get_controller(self) -> DummyController:
        """Go: ``(*sharedIndexInformer).GetController``."""
        return DummyController(self)

    def add_event_handler(self, handler: ResourceEventHandler) -> None:
        """Go: ``(*sharedIndexInformer).AddEventHandler`` (the default resync period)."""
        self.add_event_handler_with_resync_period(handler, self.default_event_handler_resync_period)

    def add_event_handler_with_resync_period(self, handler: ResourceEventHandler,
                                             resync_period: float) -> None:
        """Register a handler; after start it first receives the current store as adds.

        Go: ``(*sharedIndexInformer).AddEventHandlerWithResyncPeriod``
        https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/shared_informer.go#L286-L334
        """
        with self.started_lock:
            if resync_period > 0:
                if resync_period < MINIMUM_RESYNC_PERIOD:
                    glog.warningf("resyncPeriod %d is too small. Changing it to the minimum "
                                  "allowed value of %d", _nanos(resync_period),
                                  _nanos(MINIMUM_RESYNC_PERIOD))
                    resync_period = MINIMUM_RESYNC_PERIOD
                if resync_period < self.resync_check_period:
                    if self.started:
                        glog.warningf("resyncPeriod %d is smaller than resyncCheckPeriod %d and the "
                                      "informer has already started. Changing it to %d",
                                      _nanos(resync_period), _nanos(self.resync_check_period),
                                      _nanos(self.resync_check_period))
                        resync_period = self.resync_check_period
                    else:
                        # Lower the check period to this handler's and re-derive the others.
                        self.resync_check_period = resync_period
                        self.processor.resync_check_period_changed(resync_period)
            listener = new_process_listener(
                handler, resync_period,
                determine_resync_period(resync_period, self.resync_check_period), self.clock.now())
            if not self.started:
                self.processor.add_listener(listener)
                return
            # Joining a running informer: hold back deltas, replay the store as adds, release.
            with self.block_deltas:
                self.processor.add_listener(listener)
                sim.go(listener.run, self.stop_ch, name="processorListener.run")
                sim.go(listener.pop, self.stop_ch, name="processorListener.pop")
                for item in self.indexer.list():
                    listener.add(_AddNotification(new_obj=item))

    def handle_deltas(self, obj: Any) -> None:
        """Apply one key's Deltas to the indexer and notify the listeners.

        Go: ``(*sharedIndexInformer).HandleDeltas``
        https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/shared_informer.go#L336-L365
        """
        with self.block_deltas:
            for d in obj:
                if d.type in (SYNC, ADDED, UPDATED):
                    is_sync = d.type == SYNC
                    self.cache_mutation_detector.add_object(d.object)
                    old, exists = self._get(d.object)
                    if exists:
                        self.indexer.update(d.object)
                        self.processor.distribute(_UpdateNotification(old, d.object), is_sync)
                    else:
                        self.indexer.add(d.object)
                        self.processor.distribute(_AddNotification(d.object), is_sync)
                elif d.type == DELETED:
                    self.indexer.delete(d.object)
                    self.processor.distribute(_DeleteNotification(d.object), False)

    def _get(self, obj: Any) -> tuple[Any, bool]:
        """Go's ``old, exists, err := s.indexer.Get(obj); err == nil && exists``."""
        try:
            return self.indexer.get(obj)
        except Exception:  # noqa: BLE001 - an error counts as "not there", as in Go
            return None, False


def _nanos(seconds: float) -> int:
    """Go prints these durations with ``%d``, i.e. in nanoseconds."""
    return int(round(seconds * 1e9))


def new_shared_informer(lw: ListerWatcher, obj_type: type | None,
                        resync_period: float) -> SharedIndexInformer:
    """Go: shared_informer.go ``NewSharedInformer`` (no indexers)."""
    return new_shared_index_informer(lw, obj_type, resync_period, {})


def new_shared_index_informer(lw: ListerWatcher, obj_type: type | None,
                              default_event_handler_resync_period: float, indexers: Indexers,
                              name: str | None = None) -> SharedIndexInformer:
    """Go: shared_informer.go ``NewSharedIndexInformer``
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/shared_informer.go#L76-L90
    """
    real_clock = RealClock()
    return SharedIndexInformer(
        processor=SharedProcessor(clock=real_clock),
        indexer=new_indexer(deletion_handling_meta_namespace_key_func, indexers),
        lister_watcher=lw,
        object_type=obj_type,
        resync_check_period=default_event_handler_resync_period,
        default_event_handler_resync_period=default_event_handler_resync_period,
        cache_mutation_detector=new_cache_mutation_detector(type_name(obj_type)),
        clock=real_clock,
        name=name,
    )


__all__ = [
    "DummyController", "MINIMUM_RESYNC_PERIOD", "ProcessorListener", "SYNCED_POLL_PERIOD",
    "SharedIndexInformer", "SharedProcessor",
    "determine_resync_period", "new_process_listener", "new_shared_index_informer",
    "new_shared_informer", "wait_for_cache_sync",
]
