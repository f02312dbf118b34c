"""Reflector: keeps a store in step with the API server by listing once, then watching.

Go: staging/src/k8s.io/client-go/tools/cache/reflector.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/reflector.go#L47-L421

The cycle (spec §9.5): list at resourceVersion "0" and ``replace`` the store; then watch from
the list's version, applying each event to the store. A watch that the server closes normally
is simply re-opened from the last seen version; a watch *error* (an ``ERROR`` event such as
410 "too old resource version", a failed watch call) or a "very short watch" makes
``list_and_watch`` return, and ``run``'s ``wait.until`` relists one second later.

Differs from Go:
- ``new_reflector`` takes an optional ``name``; Go derives it from the caller's ``file:line``
  by walking the goroutine stack. Without a name we use ``"reflector.go"`` plus the expected
  type, e.g. ``reflector(*v1.Pod)``.
- Go's ``(error)`` returns are raised exceptions; ``utilruntime.HandleError`` becomes an
  error-level glog line. ``io.EOF`` is Python's ``EOFError``; "connection refused" is
  ``ConnectionRefusedError``. Go also ``fmt.Printf``s a wrong-typed watch event; we only log.
- The resource version that Go's ``watchHandler`` updates through a ``*string`` lives in a
  one-element list.
"""

from __future__ import annotations

from typing import Any

import attrs

from kschedlearn import sim
from kschedlearn.apimachinery import watch
from kschedlearn.apimachinery.api import errors as apierrors
from kschedlearn.apimachinery.util import wait
from kschedlearn.client_go.tools.cache.listwatch import ListerWatcher, ListOptions
from kschedlearn.client_go.tools.cache.store import Store, meta_namespace_key_func
from kschedlearn.client_go.util.clock import Clock, RealClock
from kschedlearn.sim import Chan
from kschedlearn.trace import glog
from kschedlearn.trace.gofmt import sprintf

MIN_WATCH_TIMEOUT = 5 * 60.0
"""Go: reflector.go ``minWatchTimeout`` (5 minutes); watch timeouts are drawn in [5, 10) min."""

# Go: k8s.io/apimachinery/pkg/watch EventType values (re-exported for convenience).
EVENT_ADDED = watch.ADDED
EVENT_MODIFIED = watch.MODIFIED
EVENT_DELETED = watch.DELETED
EVENT_ERROR = watch.ERROR


class ErrorStopRequested(Exception):
    """The stop channel closed while watching. Go: reflector.go ``errorStopRequested``."""

    def __init__(self) -> None:
        super().__init__("Stop requested")


def from_object(obj: Any) -> Exception:
    """Turn an ``ERROR`` event's object into an error.

    Go: apimachinery/pkg/api/errors ``FromObject`` - a Status becomes its ``StatusError``
    (e.g. ``GoneError`` for 410), anything else ``unexpected object: %v``. Differs from Go:
    an exception object is used as is.
    """
    if isinstance(obj, Exception):
        return obj
    if isinstance(obj, apierrors.Status):
        return apierrors.from_object(obj)
    return RuntimeError(sprintf("unexpected object: %v", obj))


def _handle_error(message: str) -> None:
    """Go: apimachinery/pkg/util/runtime ``HandleError`` - logs the error and goes on."""
    glog.errorf("%s", message)


def type_name(t: type | None) -> str:
    """How Go's ``%v`` prints a ``reflect.Type`` of an API pointer, e.g. ``*v1.Pod``.

    Go: the ``%v`` of ``reflect.TypeOf(expectedType)`` in reflector.go's log lines.
    """
    return "<nil>" if t is None else f"*v1.{t.__name__}"


def go_duration(seconds: float) -> str:
    """Go's ``time.Duration.String()`` for whole and fractional seconds (``0s``, ``1m0s``).

    Go: time.Duration.String (Go standard library), used by the reflector's log lines.
    """
    if seconds == 0:
        return "0s"
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    frac = seconds - whole
    sec_text = f"{secs + frac:g}s"
    if hours:
        return f"{hours}h{minutes}m{sec_text}"
    if minutes:
        return f"{minutes}m{sec_text}"
    return sec_text


@attrs.define(eq=False, slots=False)
class Reflector:
    """Watches one resource and mirrors every change into ``store``.

    Go: reflector.go ``type Reflector struct``
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/reflector.go#L47-L71
    """

    name: str
    expected_type: type | None
    store: Store
    lister_watcher: ListerWatcher
    period: float = 1.0
    resync_period: float = 0.0
    should_resync: Any = None  # Callable[[], bool] | None (Go: ShouldResync)
    clock: Clock = attrs.field(factory=RealClock)
    last_sync_resource_version_value: str = ""

    def run(self) -> None:
        """Start list-and-watch in a goroutine that never stops. Go: ``(*Reflector).Run``.

        https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/reflector.go#L184-L193
        """
        glog.v(3).infof("Starting reflector %v (%s) from %s", type_name(self.expected_type),
                        go_duration(self.resync_period), self.name)
        sim.go(wait.until, lambda: self._list_and_watch_or_log(wait.NEVER_STOP), self.period,
               wait.NEVER_STOP, name=f"reflector {self.name}")

    def run_until(self, stop_ch: Chan) -> None:
        """Start list-and-watch in a goroutine; returns at once; ends when ``stop_ch`` closes.

        Go: ``(*Reflector).RunUntil``
        https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/reflector.go#L195-L204
        """
        glog.v(3).infof("Starting reflector %v (%s) from %s", type_name(self.expected_type),
                        go_duration(self.resync_period), self.name)
        sim.go(wait.until, lambda: self._list_and_watch_or_log(stop_ch), self.period, stop_ch,
               name=f"reflector {self.name}")

    def _list_and_watch_or_log(self, stop_ch: Chan) -> None:
        """The closure Go passes to wait.Until: run ListAndWatch, HandleError its error.

        Go: the func literal of ``(*Reflector).RunUntil`` (and ``Run``)
        https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/reflector.go#L195-L204
        """
        try:
            self.list_and_watch(stop_ch)
        except Exception as err:  # Go: utilruntime.HandleError(err)
            _handle_error(str(err))

    def _resync_chan(self) -> tuple[Chan, Any]:
        """A channel that fires when a resync is due, and the timer's stop function.

        Go: ``(*Reflector).resyncChan``; with no resync period the channel never fires.
        """
        if self.resync_period == 0:
            return Chan(name="neverExitWatch"), lambda: False
        t = self.clock.new_timer(self.resync_period)
        return t.c, t.stop

    def list_and_watch(self, stop_ch: Chan) -> None:
        """List everything, then watch until an error, a stop, or a very short watch.

        Go: ``(*Reflector).ListAndWatch``
        https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/reflector.go#L232-L328

        Raises on list errors (the caller logs them); returns normally when a watch ends
        with an error, so that ``wait.until`` relists after ``period``.
        """
        glog.v(3).infof("Listing and watching %v from %s", type_name(self.expected_type), self.name)
        resync_ch, cleanup = self._resync_chan()
        first_cleanup = cleanup  # Go's `defer cleanup()` binds the first timer's Stop
        try:
            options = ListOptions(resource_version="0")
            try:
                lst = self.lister_watcher.list(options)
            except Exception as err:
                raise RuntimeError(sprintf("%s: Failed to list %v: %v", self.name,
                                                type_name(self.expected_type), err)) from err
            try:
                resource_version = lst.metadata.resource_version
                items = list(lst.items)
            except AttributeError as err:
                raise RuntimeError(sprintf("%s: Unable to understand list result %v: %v",
                                                self.name, lst, err)) from err
            try:
                self._sync_with(items, resource_version)
            except Exception as err:
                raise RuntimeError(sprintf("%s: Unable to sync list result: %v",
                                                self.name, err)) from err
            self._set_last_sync_resource_version(resource_version)

            resync_errc = Chan(1, name="resyncerrc")
            cancel_ch = Chan(name="cancelCh")
            try:
                self._watch_forever(resource_version, resync_ch, cleanup, resync_errc,
                                    cancel_ch, stop_ch)
            finally:
                cancel_ch.close()
        finally:
            first_cleanup()

    def _watch_forever(self, resource_version: str, resync_ch: Chan, cleanup: Any,
                       resync_errc: Chan, cancel_ch: Chan, stop_ch: Chan) -> None:
        """The second half of ListAndWatch: the resync goroutine and the watch loop.

        Go: reflector.go ListAndWatch lines 263-327 (kept in one Go function; split here only
        so that each half stays readable).
        https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/reflector.go#L232-L328
        """

        def resync_loop() -> None:
            nonlocal resync_ch, cleanup
            while True:
                index, _, _ = sim.select(("recv", resync_ch), ("recv", stop_ch), ("recv", cancel_ch))
                if index != 0:
                    return
                if self.should_resync is None or self.should_resync():
                    glog.v(4).infof("%s: forcing resync", self.name)
                    try:
                        self.store.resync()
                    except Exception as err:
                        resync_errc.send(err)
                        return
                cleanup()
                resync_ch, cleanup = self._resync_chan()

        sim.go(resync_loop, name=f"reflector {self.name} resync")

        rv = [resource_version]
        while True:
            timeout_seconds = int(MIN_WATCH_TIMEOUT * (sim.current_runtime().rand.random() + 1.0))
            options = ListOptions(resource_version=rv[0], timeout_seconds=timeout_seconds)
            try:
                w = self.lister_watcher.watch(options)
            except Exception as err:
                if isinstance(err, EOFError):
                    pass  # the watch closed normally
                else:
                    _handle_error(sprintf("%s: Failed to watch %v: %v", self.name,
                                               type_name(self.expected_type), err))
                # An unreachable API server: re-watch where we left off instead of relisting.
                if isinstance(err, ConnectionRefusedError):
                    sim.sleep(1.0)
                    continue
                return
            try:
                self._watch_handler(w, rv, resync_errc, stop_ch)
            except ErrorStopRequested:
                return
            except Exception as err:
                glog.warningf("%s: watch of %v ended with: %v", self.name,
                              type_name(self.expected_type), err)
                return

    def _sync_with(self, items: list[Any], resource_version: str) -> None:
        """Replace the store's content with ``items``. Go: ``(*Reflector).syncWith``.

        https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/reflector.go#L330-L337
        """
        found = list(items)
        self.store.replace(found, resource_version)

    def _watch_handler(self, w: Any, resource_version: list[str], errc: Chan,
                       stop_ch: Chan) -> None:
        """Apply the events of ``w`` to the store until it closes, errors or we are stopped.

        Go: ``(*Reflector).watchHandler``
        https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/reflector.go#L339-L407

        Raises ``ErrorStopRequested``, the resync error, the ``ERROR`` event's status error,
        or ``very short watch``; returns normally when the server closed a useful watch.
        """
        start = self.clock.now()
        event_count = 0
        try:
            while True:
                index, event, ok = sim.select(("recv", stop_ch), ("recv", errc),
                                              ("recv", w.result_chan()))
                if index == 0:
                    raise ErrorStopRequested()
                if index == 1:
                    raise event
                if not ok:
                    break
                if event.type == EVENT_ERROR:
                    raise from_object(event.object)
                if self._handle_event(event, resource_version):
                    event_count += 1
        finally:
            w.stop()
        watch_duration = self.clock.now() - start
        if watch_duration < 1.0 and event_count == 0:
            glog.v(4).infof("%s: Unexpected watch close - watch lasted less than a second and "
                            "no items received", self.name)
            raise RuntimeError("very short watch")
        glog.v(4).infof("%s: Watch close - %v total %v items received", self.name,
                        type_name(self.expected_type), event_count)

    def _handle_event(self, event: Any, resource_version: list[str]) -> bool:
        """One iteration of watchHandler's loop body; False when the event was skipped.

        Go: reflector.go watchHandler, the ``case event, ok := <-w.ResultChan()`` branch.
        https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/reflector.go#L339-L407
        """
        obj = event.object
        if self.expected_type is not None and type(obj) is not self.expected_type:
            _handle_error(sprintf("%s: expected type %v, but watch event object had type %v",
                                       self.name, type_name(self.expected_type), type_name(type(obj))))
            return False
        try:
            new_resource_version = obj.metadata.resource_version
        except AttributeError:
            _handle_error(sprintf("%s: unable to understand watch event %v", self.name, event))
            return False
        if event.type == EVENT_ADDED:
            self._store_op(self.store.add, obj, "unable to add watch event object (%v) to store: %v")
        elif event.type == EVENT_MODIFIED:
            self._store_op(self.store.update, obj,
                           "unable to update watch event object (%v) to store: %v")
        elif event.type == EVENT_DELETED:
            self._store_op(self.store.delete, obj,
                           "unable to delete watch event object (%v) from store: %v")
        else:
            _handle_error(sprintf("%s: unable to understand watch event %v", self.name, event))
        resource_version[0] = new_resource_version
        self._set_last_sync_resource_version(new_resource_version)
        return True

    def _store_op(self, op: Any, obj: Any, fmt: str) -> None:
        """Apply a store operation; log (do not raise) its error, as Go does.

        Go: reflector.go watchHandler, its ``r.store.Add`` / ``Update`` / ``Delete`` calls (no Go
        function of its own: the source pane shows the caller's line, which is Go's).
        """
        try:
            op(obj)
        except Exception as err:
            _handle_error(sprintf("%s: " + fmt, self.name, obj, err))

    def last_sync_resource_version(self) -> str:
        """The RV of the last list or watch event. Go: ``(*Reflector).LastSyncResourceVersion``."""
        return self.last_sync_resource_version_value

    def _set_last_sync_resource_version(self, v: str) -> None:
        """Go: ``(*Reflector).setLastSyncResourceVersion``."""
        self.last_sync_resource_version_value = v


def new_reflector(lw: ListerWatcher, expected_type: type | None, store: Store,
                  resync_period: float, name: str | None = None) -> Reflector:
    """Go: reflector.go ``NewReflector`` / ``NewNamedReflector``
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/reflector.go#L89-L97

    Differs from Go: the name is given, not found by walking the caller's stack.
    """
    if name is None:
        name = f"reflector({type_name(expected_type)})"
    return Reflector(name=name, expected_type=expected_type, store=store, lister_watcher=lw,
                     period=1.0, resync_period=resync_period)


def new_namespace_keyed_indexer_and_reflector(
    lw: ListerWatcher, expected_type: type | None, resync_period: float
) -> tuple[Any, Reflector]:
    """An indexer keyed ``namespace/name`` with the namespace index, and its reflector.

    Go: reflector.go ``NewNamespaceKeyedIndexerAndReflector``
    """
    from kschedlearn.client_go.tools.cache.index import NAMESPACE_INDEX, meta_namespace_index_func
    from kschedlearn.client_go.tools.cache.store import new_indexer

    indexer = new_indexer(meta_namespace_key_func, {NAMESPACE_INDEX: meta_namespace_index_func})
    return indexer, new_reflector(lw, expected_type, indexer, resync_period)


__all__ = [
    "EVENT_ADDED", "EVENT_DELETED", "EVENT_ERROR", "EVENT_MODIFIED", "ErrorStopRequested",
    "MIN_WATCH_TIMEOUT", "Reflector", "from_object",
    "new_namespace_keyed_indexer_and_reflector", "new_reflector",
]
