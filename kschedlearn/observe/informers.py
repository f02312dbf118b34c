"""Trace points of client-go's informer machinery: reflectors, controllers, event handlers.

Go: none — kschedlearn-only (DESIGN principle 5: ``reflector.go`` and ``controller.go`` carry no
notebook lines). Each point stands at a call the Go code makes:

- ``reflector.list`` — after ``ListAndWatch``'s ``syncWith`` replaced the store with the list;
- ``reflector.watch_start`` — before ``ListAndWatch`` calls ``listerWatcher.Watch``;
- ``reflector.watch_event`` — before ``watchHandler`` applies one event of the expected type
  (the method is looked up when called: an exercise's handler is observed the same way);
- ``reflector.relist`` — after the error that makes ``ListAndWatch`` return is logged (its
  ``HandleError`` or ``glog.Warningf``): ``wait.Until`` lists again a second later;
- ``controller.process_loop`` — ``processLoop``'s ``Pop`` hands the key's Deltas to the
  controller's ``Process`` function;
- ``handler.OnAdd`` / ``OnUpdate`` / ``OnDelete`` — an informer calls a
  ``ResourceEventHandlerFuncs`` method (NewInformer's ``Process`` closure, a shared informer's
  processorListener).

Reflectors and controllers are reached where they are made: the ``NewReflector`` calls of
``controller.Run`` and ``ConfigFactory.Run``, the ``New`` call of ``sharedIndexInformer.Run``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kschedlearn.api.v1 import Node
from kschedlearn.client_go.tools.cache import controller, reflector, shared_informer
from kschedlearn.client_go.tools.cache.controller import ResourceEventHandlerFuncs
from kschedlearn.client_go.tools.cache.delta_fifo import Deltas
from kschedlearn.client_go.tools.cache.reflector import Reflector, type_name
from kschedlearn.client_go.tools.cache.store import meta_namespace_key_func
from kschedlearn.observe.observation import Observation
from kschedlearn.observe.points import point, unrecorded
from kschedlearn.observe.sharing import takes_snapshots, watch_queue
from kschedlearn.observe.views import is_queue, object_key
from kschedlearn.observe.wrap import Call, on_field, on_method, site_of
from kschedlearn.scheduler.factory import factory
from kschedlearn.sim.runtime import current_goroutine
from kschedlearn.trace import register_stage
from kschedlearn.trace.stages import CLIENT_GO_CACHE

_R = CLIENT_GO_CACHE + "reflector.go"
_C = CLIENT_GO_CACHE + "controller.go"
register_stage("reflector.list", _R + "#L232-L328",
               "ListAndWatch lists every object (at resourceVersion \"0\") and replaces its store with "
               "them: a fresh starting point from which the watch continues.")
register_stage("reflector.watch_start", _R + "#L232-L328",
               "ListAndWatch opens a watch from the last resourceVersion it has seen, with a random "
               "server-side timeout of 5 to 10 minutes.")
register_stage("reflector.watch_event", _R + "#L339-L407",
               "watchHandler: one watch event arrives and is applied to the store (Add, Update or Delete).")
register_stage("reflector.relist", _R + "#L232-L328",
               "ListAndWatch returned (a watch error such as 410 Gone, a failed call or a very short "
               "watch): wait.Until will list everything again one second later.")
register_stage("controller.process_loop", _C + "#L136-L158",
               "The controller pops one key's Deltas from its queue and processes them (updating the "
               "client store and calling the event handlers).")
register_stage("controller.Run", _C + "#L97-L122",
               "controller.Run starts the goroutine that closes the queue on stop, creates the Reflector "
               "(NewReflector) and runs it, then runs processLoop every second until stopped.")
register_stage("NewReflector", _R + "#L89-L97",
               "NewReflector: a Reflector over a ListerWatcher and a store (here the informer's DeltaFIFO, or "
               "podQueue), not yet running; RunUntil starts its list-and-watch loop.")
for _kind, _lines in (("OnAdd", "#L189-L194"), ("OnUpdate", "#L196-L201"), ("OnDelete", "#L203-L208")):
    register_stage(f"handler.{_kind}", _C + _lines,
                   f"An informer delivers a notification to a resource event handler's {_kind}.")


def _safe_key(obj: Any) -> str:
    try:
        return meta_namespace_key_func(obj)
    except Exception:  # noqa: BLE001 - only for the trace line
        return "<no key>"


# -- reflectors ------------------------------------------------------------------------------

def _listed(call: Call) -> None:
    r: Reflector = call.receiver
    items, resource_version = call.args
    point("reflector.list", f"{r.name}: listed {len(items)} {type_name(r.expected_type)} at RV {resource_version}",
          {"name": r.name, "count": len(items), "resource_version": resource_version}, Reflector._sync_with)


def _watching(call: Call) -> None:
    r: Reflector = call.local("self")
    options = call.args[0]
    point("reflector.watch_start",
          f"{r.name}: watch from RV {options.resource_version} (timeout {options.timeout_seconds}s)",
          {"name": r.name, "resource_version": options.resource_version, "timeout_seconds": options.timeout_seconds},
          type(call.receiver).watch, "calling")


def _event_arriving(call: Call) -> None:
    """Before the watch handler applies an event: only one the handler will apply (of the
    expected type, with metadata), as the announcement stood after those checks."""
    r: Reflector = call.receiver
    event = call.args[0]
    obj = event.object
    if r.expected_type is not None and type(obj) is not r.expected_type:
        return
    try:
        obj.metadata.resource_version
    except AttributeError:
        return
    if unrecorded("reflector.watch_event"):
        return
    try:
        resource_version = obj.metadata.resource_version
    except AttributeError:
        return
    point("reflector.watch_event", f"{r.name}: {event.type} {_safe_key(obj)}",
          {"name": r.name, "type": event.type, "key": _safe_key(obj), "resource_version": resource_version},
          Reflector._handle_event, "calling")


def _relisting(what: str, err: BaseException, r: Reflector) -> None:
    point("reflector.relist", f"{r.name}: {what}", {"name": r.name, "reason": str(err)}, None)


def observe_reflector(r: Reflector) -> Reflector:
    """The trace points of one reflector."""
    on_method(r, "_sync_with", site=site_of(Reflector.list_and_watch), after=_listed)
    on_method(r.lister_watcher, "watch", site=site_of(Reflector._watch_forever), before=_watching)
    on_method(r, "_handle_event", before=_event_arriving)
    return r


def _observe_new_reflector(call: Call) -> None:
    r = call.result
    observe_reflector(r)
    point("NewReflector", f"{r.name}: a Reflector for {type_name(r.expected_type)} into {type(r.store).__name__}",
          {"name": r.name, "store": type(r.store).__name__}, reflector.new_reflector)


def _controller_running(call: Call) -> None:
    c = call.receiver
    point("controller.Run", f"{c.name or 'controller'}: reflector into {type(c.config.queue).__name__}, then processLoop",
          {"name": c.name or ""}, controller.Controller.run, "calling")


# -- controllers and handlers -------------------------------------------------------------------

def _describe(obj: Any) -> str:
    if isinstance(obj, Deltas) and len(obj) > 0:
        newest = obj.newest()
        return f"{object_key(newest.object)} {[d.type for d in obj]}"  # type: ignore[union-attr]
    return object_key(obj)


def _pop_data(obj: Any) -> dict[str, Any]:
    if isinstance(obj, Deltas) and len(obj) > 0:
        return {"key": object_key(obj.newest().object), "deltas": [d.type for d in obj]}  # type: ignore[union-attr]
    return {"key": object_key(obj)}


def _processing(call: Call) -> None:
    if unrecorded("controller.process_loop"):  # (a thinned history: an informer's first list)
        return
    obj = call.args[0]
    point("controller.process_loop", f"pop {_describe(obj)}", _pop_data(obj), None, "calling")


def observe_controller(c: Any) -> Any:
    """``controller.process_loop`` on one controller: its Process function is called."""
    on_field(c.config, "process", before=_processing)
    return c


def _observe_new_controller(call: Call) -> None:
    c = call.result
    observe_controller(c)
    g = current_goroutine()
    if (getattr(c.config, "object_type", None) is Node and is_queue(c.config.queue)
            and takes_snapshots(g.runtime if g is not None else None)):
        # the shared node informer's DeltaFIFO is a snapshot part ("nodeInformer"): its changes
        # are followed from its creation on (observe/indexes.py), before anything pops it
        watch_queue(c.config.queue)


def _handler_point(kind: str) -> Any:
    def announce(call: Call) -> None:
        if unrecorded(f"handler.{kind}"):
            return
        obj = call.args[2] if kind == "OnUpdate" else call.args[1]
        key = object_key(obj)
        point(f"handler.{kind}", f"{kind} {key}", {"key": key}, getattr(ResourceEventHandlerFuncs,
                                                                      f"on_{kind[2:].lower()}"), "calling")

    return announce


def observe_informer_factory(factory_: Any, on_start: Callable[[Any], None] | None = None) -> Any:
    """``informerFactory.Start`` on one shared informer factory: which informers each call
    started (``on_start(stop_ch)`` is told the stop channel)."""
    before_start: list[set[Any]] = []

    def remember(call: Call) -> None:
        if on_start is not None:
            on_start(call.args[0])
        before_start.append({t for t, started in call.receiver.started_informers.items() if started})

    def announce(call: Call) -> None:
        already = before_start.pop()
        started = [t.__name__ for t in call.receiver.informers if t not in already
                   and call.receiver.started_informers.get(t, False)]
        point("informerFactory.Start", f"started informers: {', '.join(started) or 'none'}", {"started": started},
              type(call.receiver).start)

    on_method(factory_, "start", before=remember, after=announce)
    return factory_


def observe_informers(observation: Observation) -> None:
    """Every reflector, controller and event handler of this simulation's informers."""
    on = observation.on_attribute
    on(controller, "new_reflector", site=site_of(controller.Controller.run), after=_observe_new_reflector)
    on(factory, "new_reflector", site=site_of(factory.ConfigFactory.run), after=_observe_new_reflector)
    on(shared_informer, "new_controller", site=site_of(shared_informer.SharedIndexInformer.run),
       after=_observe_new_controller)
    on(controller.Controller, "run", before=_controller_running)
    on(ResourceEventHandlerFuncs, "on_add", before=_handler_point("OnAdd"))
    on(ResourceEventHandlerFuncs, "on_update", before=_handler_point("OnUpdate"))
    on(ResourceEventHandlerFuncs, "on_delete", before=_handler_point("OnDelete"))
    on(reflector, "_handle_error", site=site_of(Reflector._list_and_watch_or_log),
       after=lambda c: _relisting(str(c.local("err")), c.local("err"), c.local("self")))
    on(reflector, "_handle_error", site=site_of(Reflector._watch_forever), after=_watch_call_failed)
    observation.on_log(site_of(Reflector._watch_forever), "%s: watch of %v ended with: %v",
                       lambda c: _relisting(f"watch ended with: {c.local('err')}", c.local("err"), c.local("self")))


def _watch_call_failed(call: Call) -> None:
    err = call.local("err")
    if isinstance(err, ConnectionRefusedError):
        return  # ListAndWatch sleeps and watches again: no relist
    _relisting(f"watch call failed: {err}", err, call.local("self"))


__all__ = ["observe_controller", "observe_informer_factory", "observe_informers", "observe_reflector"]
