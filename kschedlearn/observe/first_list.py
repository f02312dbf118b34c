"""Fast pops for the assigned-pod informer's DeltaFIFO: its first list without the hooks' cost.

Go: none — kschedlearn-only, put in place from outside by ``accelerated/informers.py`` (for
``engine="accelerated"``); nothing in ``client_go`` knows about it. The informer's first list
hands it every bound pod of the cluster (150,000 at 5,000 nodes), and each pop went through
eleven layers of observation hooks around the mirror's few statements — the queue's two, the
Process field's, the handler's, the cache's four — and a stack walk for the ``cache.addPod``
event: a fifth of a whole replay's run. For a pop whose outcome those layers cannot change (see
:meth:`FirstList.around`) :class:`FirstList` makes the mirror's state changes itself, in the
mirror's order, and records the very event the trace point would, with the stack it would
capture (the same at every such pop); any other pop is the mirror's. The same holds for the
updates of pods the cache holds as added (the kubelet's status writes after each binding: Process's
OnUpdate, the cache's UpdatePod; :meth:`FirstList._update_front`); the NodeInfo sums of both are
``observe/node_sums.py``'s.

It lives in the observation layer because its frame stands between ``processLoop`` and the
mirror's ``Pop`` when it lets the mirror pop: a trace event's stack shows mirrored frames only,
and this package's frames are not among them.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import attrs

from kschedlearn.api.v1 import Pod
from kschedlearn.client_go.tools.cache.controller import ResourceEventHandlerFuncs, _get_or_missing
from kschedlearn.client_go.tools.cache.delta_fifo import ADDED, SYNC, UPDATED, DeltaFIFO, Deltas
from kschedlearn.observe import informers as observe_informers
from kschedlearn.observe import queues as observe_queues
from kschedlearn.observe import scheduler as observe_scheduler
from kschedlearn.observe.sharing import _Watch, watch_of
from kschedlearn.observe.views import pod_status
from kschedlearn.observe.first_list_onlookers import (_ADD_POD_TO_CACHE, _PROCESS, _STAGE, _handing, _inner_frames,
                                                      _quiet, _record, _take_front)
from kschedlearn.observe.node_sums import (_MIRROR_NODE_INFO, _MIRROR_ON_UPDATE, _MIRROR_UPDATE, _MIRRORED, _Sums,
                                           _first_of)
from kschedlearn.observe.wrap import (Call, MirrorMethods, closure_cells, field_probe_parts, instance_hooks, is_probe,
                                      on_method, site_of)
from kschedlearn.scheduler.factory.factory import ConfigFactory
from kschedlearn.scheduler.schedulercache.cache import SchedulerCache, _PodState
from kschedlearn.scheduler.schedulercache.node_info import NodeInfo, get_pod_key
from kschedlearn.sim.runtime import current_goroutine
from kschedlearn.trace.core import capture_stack
from kschedlearn.trace.events import Frame

# -- the assigned-pod informer's pops -----------------------------------------------------------

#: what :meth:`FirstList.around` answers when the mirror must pop
_MIRROR = object()
#: the mirror's methods a fast pop makes the statements of (an exercise may swap one in)
_MIRROR_CACHE = MirrorMethods(("add_pod", "_add_pod"), "kschedlearn.scheduler.schedulercache.cache",
                              "SchedulerCache")
_MIRROR_QUEUE = MirrorMethods(("pop",), "kschedlearn.client_go.tools.cache.delta_fifo", "DeltaFIFO")
_MIRROR_HANDLERS = MirrorMethods(("on_add",), "kschedlearn.client_go.tools.cache.controller",
                                 "ResourceEventHandlerFuncs")
#: the same for an update of a pod the informer's store holds (OnUpdate -> UpdatePod)
_UPDATE_EVENTS = ("handler.OnUpdate", "cache.updatePod")
_UPDATE_POD_IN_CACHE = ConfigFactory.update_pod_in_cache
#: the cache's ``cache.updatePod`` point (an after hook made by ``observe/scheduler._after``)
_AFTER_POINT = site_of(observe_scheduler._after, "announce")
#: the code of each hook a fast pop stands in for, where it is a closure
_POPPING = site_of(observe_queues._popping, "around")
_WATCHING = site_of(_Watch.around_for, "around")
_ASSUMED_NOTE = site_of(observe_scheduler.AssumedOrder.around, "note")
_ON_ADD_POINT = site_of(observe_informers._handler_point, "announce")


@attrs.define(eq=False)
class _Parts:
    """What one fast pop works on, found behind the probes it stands in for."""

    client_state: Any
    cache: Any
    point: observe_scheduler.LaterPoint
    order: observe_scheduler.AssumedOrder
    #: the queue's and the cache's watches (None: not watched, as when no snapshot is taken)
    queue_watch: _Watch | None
    cache_watch: _Watch | None
    #: what the parts were found from: the probes, the Process function, the mirror's methods
    held: tuple[Any, ...]
    #: the hooks of the four probes a fast pop stands in for, and how many each held
    hooks: tuple[Any, ...]
    counts: tuple[int, ...]
    #: the informer's handler (a ResourceEventHandlerFuncs: the Process function's ``h``)
    handler: Any = None
    #: the hook lists of ``hooks`` (:func:`_hook_lists`), whose lengths ``counts`` are
    lists: tuple[list[Any], ...] = ()

    def unchanged(self, queue: Any, process: Any, rt: Any) -> bool:
        """Whether the same probes with as many hooks, the same Process function and the same
        mirror's methods are in place (identities and lengths: asked at every pop)."""
        held = self.held
        on_add = ResourceEventHandlerFuncs.__dict__["on_add"]
        observation = rt.observation
        return (queue.__dict__.get("pop") is held[0] and process is held[1] and on_add is held[2]
                and self.cache.__dict__.get("add_pod") is held[3] and SchedulerCache.__dict__["add_pod"] is held[4]
                and SchedulerCache.__dict__["_add_pod"] is held[5] and DeltaFIFO.__dict__["pop"] is held[6]
                and (observation.hooks.get(on_add) if observation is not None else None) is held[7]
                and getattr(on_add, "original", None) is held[8]
                and tuple(map(len, self.lists)) == self.counts)


@attrs.define(eq=False)
class FirstList:
    """Fast pops for one assigned-pod informer's DeltaFIFO (see the module docstring): the
    outermost around hook of its ``pop``."""

    #: the last parts found, and the stack of the last ``processLoop`` frame seen
    _parts: _Parts | None = None
    _stack: tuple[Any, int, tuple[Frame, ...]] | None = None
    #: how many pops it made (for tests), and how many of them were updates
    pops: int = 0
    updates: int = 0
    #: the parts an update's pop works on besides ``_parts`` (found at the first update)
    _update_parts: _UpdateParts | None = None
    #: the NodeInfo sums made here
    _sums: _Sums = attrs.field(factory=lambda: _Sums())
    #: the last fast pop's checks, while only this goroutine's own pops have run since
    #: (:meth:`_is_calm`): (the goroutine, the runtime's version when that pop ended, the queue,
    #: :func:`_quiet`'s answer then); None when the next pop checks everything again
    _calm: tuple[Any, int, Any, bool] | None = None
    #: while calm: the sums' (:meth:`_Sums.usable`) and the updates' checks passed
    _sums_ok: bool = False
    _updates_ok: bool = False

    def around(self, proceed: Callable[..., Any], call: Call) -> Any:
        """``Pop(process)``: the front item popped and added (or updated) here when that is what
        the mirror and its hooks would do and leave — one Sync, Added or Updated delta of a Pod
        that the informer's store does not hold and that the scheduler cache does not hold
        either or holds as assumed on the same node (or: that the store holds and the cache
        holds as added on the same node, see :meth:`_update_front`), no hook of the pop recording
        an event of its own, the ``cache.addPod`` event recorded deferred or, when only the
        snapshot builder looks, at once (``first_list_onlookers._quiet``), the mirror's methods,
        no tracer or profiler in the interpreter — else the mirror pops. The queue's and the
        cache's watches (snapshots) are counted as their hooks count the mirror's calls."""
        item = self._pop(call)
        if item is _MIRROR:
            self._unsettle()  # (the mirror's pop runs the hooks: anything may change)
            return proceed(*call.args, **call.kwargs)
        self.pops += 1
        return item

    def _unsettle(self) -> None:
        """The next pop checks everything again (:meth:`_is_calm`)."""
        self._calm = None
        self._sums_ok = self._updates_ok = False

    def _is_calm(self, queue: Any, process: Any, g: Any) -> bool:
        """Whether the last pop was a fast pop of ``queue`` by ``g`` that did not wait, and
        nothing but ``g``'s own statements ran since: the runtime's version bumps at every change
        of a goroutine's state, so an unchanged version (since before that pop) means ``g`` never parked or paused — no
        other goroutine, no driver (where a learner's code, an exercise or a new hook runs) had
        a turn. Such a pop ran no hook and called no listener (:meth:`_settles`), and the
        mirror's ``processLoop`` between two pops changes no probe or method: what the last
        pop's checks found still holds. The first list's pops come so, one after the other."""
        calm = self._calm
        return (calm is not None and calm[0] is g and calm[1] == g.runtime.version and calm[2] is queue
                and self._parts is not None and self._parts.held[1] is process)

    @staticmethod
    def _settles(parts: _Parts, tracer: Any, quiet: bool) -> bool:
        """Whether a fast pop ran nothing but this module's and the mirror's statements: no watch
        (snapshots) counted it, and its event was deferred or not recorded (no listener or
        snapshot function saw it)."""
        return parts.queue_watch is None and parts.cache_watch is None and (not quiet or tracer.can_defer())

    def _pop(self, call: Call) -> Any:
        if call.kwargs or len(call.args) != 1 or sys.gettrace() is not None or sys.getprofile() is not None:
            return _MIRROR
        queue = call.receiver
        g = current_goroutine()
        if type(queue) is not DeltaFIFO or g is None or queue._lock.locked:
            return _MIRROR
        rt = g.runtime
        if self._is_calm(queue, call.args[0], g):
            parts, quiet = self._parts, self._calm[3]  # type: ignore[index]
        else:
            self._unsettle()
            parts = self._found(queue, call.args[0], rt)
            quiet = _quiet(rt.tracer) if parts is not None else None
            if quiet is None:
                return _MIRROR
        self._calm = None
        if not queue._queue:
            self._sums_ok = self._updates_ok = False  # (it may wait: checked again after)
            return self._wait_and_pop(queue, call, parts, g) if not queue._closed else _MIRROR
        version = rt.version  # (a fast pop parks nobody and wakes nobody: else it does not settle)
        with queue._lock:  # (free: taken at once)
            item = self._pop_front(queue, call, parts, g, waited=False, quiet=quiet)
            if item is not _MIRROR and rt.version == version and self._settles(parts, rt.tracer, quiet):
                item = self._drain(queue, call, parts, g, quiet, item)
                if rt.version == version:
                    self._calm = (g, version, queue, quiet)
        return item

    def _drain(self, queue: Any, call: Call, parts: _Parts, g: Any, quiet: bool, item: Any) -> Any:
        """The pops ``processLoop`` makes next, made in this call while each is a fast pop: after
        a pop that settles (:meth:`_settles`) the next is calm (:meth:`_is_calm`; between the two
        only processLoop's statements run: no hook, no other goroutine), so these leave what they
        leave one call at a time, without the probe's dispatch and the lock per item (the first
        list: 150,000 pops at 5,000 nodes). Stops at an item the mirror pops (``_pop_front``
        checks before it changes anything), an empty queue or a pop that changed a goroutine's
        state (the runtime's version: the next pop checks everything); returns the last item
        (processLoop reads one only when Process failed, which a fast pop's does not)."""
        rt = g.runtime
        version = rt.version
        while queue._queue and rt.version == version:
            after = self._pop_front(queue, call, parts, g, waited=False, quiet=quiet)
            if after is _MIRROR:
                break
            self.pops += 1
            item = after
        return item

    def _wait_and_pop(self, queue: Any, call: Call, parts: _Parts, g: Any) -> Any:
        """An empty queue: wait as the mirror's Pop waits (its lock, its condition; a blocked
        popper counts as inside the queue for its watch), then pop the front as
        :meth:`_pop_front` does. When that front is not for a fast pop, the mirror pops it:
        the lock is let go and taken again by the mirror's Pop with nothing in between — nobody
        else waits for this lock, which only its one popper holds across a park."""
        w = parts.queue_watch
        flights = w.pop_entered(call) if w is not None else None
        try:
            with queue._lock:
                while not queue._queue and not queue._closed:
                    queue._cond.wait()
                if not queue._queue:
                    return _MIRROR  # closed: the mirror's Pop raises
                return self._pop_front(queue, call, parts, g, waited=True, flights=flights)
        finally:
            if w is not None:
                w.pop_left(flights)  # type: ignore[arg-type]

    def _pop_front(self, queue: Any, call: Call, parts: _Parts, g: Any, *, waited: bool,
                   quiet: bool | None = None, flights: list[Any] | None = None) -> Any:
        """With the queue's lock held: pop and add the front item when that is a fast pop
        (``waited``: the popper waited for it, and the world may have changed meanwhile — the
        queue's watch counts it inside the Pop since, ``flights``; else ``quiet`` is what
        :func:`_quiet` answered just before)."""
        key = queue._queue[0]
        item = queue._items.get(key)
        if type(item) is not Deltas or len(item) != 1 or item[0].type not in (SYNC, ADDED, UPDATED):
            return _MIRROR
        pod = item[0].object
        rt = g.runtime
        tracer = rt.tracer
        record = _quiet(tracer) if waited or quiet is None else quiet
        cache = parts.cache
        if type(pod) is not Pod or record is None or cache._mu.locked \
                or (waited and not parts.unchanged(queue, call.args[0], rt)):
            return _MIRROR
        old, exists = _get_or_missing(parts.client_state, pod)
        if exists:  # (Process: the store holds it — OnUpdate, whatever the delta's type)
            return self._update_front(queue, key, item, old, pod, parts, rt, (call, flights))
        cache_key = get_pod_key(pod)
        state = cache._pod_states.get(cache_key)
        # AddPod's two quiet branches: a pod it does not hold (added), an assumed one on the
        # node it was assumed on (confirmed); not a pod added before or moved (an error, a warning)
        confirm = state is not None and bool(cache._assumed_pods.get(cache_key, False))
        if state is not None and (not confirm or state.pod.spec.node_name != pod.spec.node_name):
            return _MIRROR
        stack = None
        if record and tracer.capture_stacks:
            stack = self._stack_at(call.caller)
            if stack is None:
                return _MIRROR
        self._add(queue, (key, item), pod, cache_key, confirm, parts, rt, g, tracer if record else None, stack,
                  (call, flights))
        return item

    def _update_front(self, queue: Any, key: str, item: Deltas, old: Any, pod: Pod, parts: _Parts, rt: Any,
                      popping: tuple[Call, list[Any] | None]) -> Any:
        """The front item, an update of a pod the informer's store holds (``old``): popped and
        applied here when the mirror's UpdatePod takes its quiet branch — the cache holds the pod
        as added (not assumed) on the same node, and its NodeInfo holds it — and no hook on the
        way records an event or could do something else (:class:`_UpdateParts`); else
        ``_MIRROR`` (the mirror pops)."""
        if type(old) is not Pod or not (self._updates_ok or self._updates_usable(parts, rt)):
            return _MIRROR
        cache = parts.cache
        cache_key = get_pod_key(old)  # (UpdatePod's key: the old object's)
        state = cache._pod_states.get(cache_key)
        n = cache._nodes.get(old.spec.node_name)
        if state is None or cache._assumed_pods.get(cache_key, False) \
                or state.pod.spec.node_name != pod.spec.node_name or type(n) is not NodeInfo:
            return _MIRROR  # (an error, the fatal node mismatch, a panic: the mirror's)
        at = _first_of(n._pods, cache_key)
        if at < 0:
            return _MIRROR  # (removePod's error)
        sums = self._sums
        try:
            requests = (sums.requests(old), sums.requests(pod)) if self._sums_usable(cache) else None
        except Exception:  # noqa: BLE001 - the mirror's calculateResource fails as it would there
            return _MIRROR
        self._update(queue, (key, item), old, pod, parts, rt, (n, cache_key, at, requests), popping)
        self.updates += 1  # (and ``around`` counts the pop)
        return item

    def _updates_usable(self, parts: _Parts, rt: Any) -> bool:
        """Whether no update point is kept and the update's probes and methods are as
        :class:`_UpdateParts` found them (remembered while calm)."""
        tracer = rt.tracer
        if tracer is not None and any(map(tracer.wants, _UPDATE_EVENTS)):
            return False
        found = self._update_parts
        if found is None or not found.unchanged(parts, rt):
            self._update_parts = found = _find_update(parts, rt)
            if found is None:
                return False
        self._updates_ok = True
        return True

    def _sums_usable(self, cache: Any) -> bool:
        """:meth:`_Sums.usable` (remembered while calm)."""
        if self._sums_ok:
            return True
        self._sums_ok = ok = self._sums.usable(cache)
        return ok

    def _update(self, queue: Any, front: tuple[str, Deltas], old: Pod, pod: Pod, parts: _Parts, rt: Any,
                where: tuple[NodeInfo, str, int, tuple[Any, Any] | None],
                popping: tuple[Call, list[Any] | None]) -> None:
        """The state changes of the mirror's pop, process, OnUpdate, updatePodInCache and
        UpdatePod and of the hooks around them, in their order (the queue's lock held; the
        cache's is free). ``where``: the old pod's NodeInfo, its key, its place there and the two
        pods' requests when :class:`_Sums` makes removePod and addPod (else the cache's own
        updatePod does, through their probes); ``popping``: see :func:`_handing`."""
        _handing(queue, front, parts.queue_watch, popping, self._updated, old, pod, parts, rt, where, popping[0])

    def _updated(self, old: Pod, pod: Pod, parts: _Parts, rt: Any, where: tuple[NodeInfo, str, int, tuple[Any, Any] | None],
                 call: Call) -> None:
        """:meth:`_update`'s changes while the Process function runs (``call``: the Pop's)."""
        parts.client_state.update(pod)
        cache = parts.cache
        cache_watch = parts.cache_watch
        flight = cache_watch.entered("update_pod", Call(cache, (old, pod), {}, call.caller)) \
            if cache_watch is not None else None
        try:
            n, cache_key, at, requests = where
            with cache._mu:
                if requests is not None and requests[0] is not None and requests[1] is not None:
                    self._sums.remove(cache, n, old, cache_key, at, requests[0])
                    self._sums.add(cache, pod, requests[1])
                else:
                    cache._update_pod(old, pod)
        finally:
            if cache_watch is not None:
                cache_watch.left(flight)
        observation = rt.observation
        if observation is not None and observation.fast_paths_ran:
            # (what the unrecorded cache.updatePod event does after the call: the NodeInfo
            # fast paths that ran inside it are not shown by any event)
            observation.fast_paths_ran.clear()

    def _add(self, queue: Any, front: tuple[str, Deltas], pod: Pod, cache_key: str, confirm: bool, parts: _Parts,
             rt: Any, g: Any, tracer: Any, stack: tuple[Frame, ...] | None,
             popping: tuple[Call, list[Any] | None]) -> None:
        """The state changes of the mirror's pop, process, OnAdd, addPodToCache and AddPod and of
        the hooks around them, in their order (the queue's lock held; the cache's is free);
        ``popping``: see :func:`_handing`."""
        _handing(queue, front, parts.queue_watch, popping, self._added, pod, cache_key, confirm, parts, rt, g,
                 tracer, stack, popping[0])

    def _added(self, pod: Pod, cache_key: str, confirm: bool, parts: _Parts, rt: Any, g: Any, tracer: Any,
               stack: tuple[Frame, ...] | None, call: Call) -> None:
        """:meth:`_add`'s changes while the Process function runs (``call``: the Pop's)."""
        parts.client_state.add(pod)
        observation = rt.observation
        if observation is not None and observation.fast_paths_ran:
            observation.fast_paths_ran.clear()  # (what the hooks' unrecorded events do)
        cache = parts.cache
        if tracer is not None:
            _record(tracer, rt, g, parts.point, (pod, pod_status(cache, cache_key)), stack)
        cache_watch = parts.cache_watch
        flight = cache_watch.entered("add_pod", Call(cache, (pod,), {}, call.caller)) if cache_watch is not None else None
        try:
            with cache._mu:
                if confirm:
                    del cache._assumed_pods[cache_key]
                    cache._pod_states[cache_key].deadline = None
                else:
                    self._add_to_node(cache, pod)
                    cache._pod_states[cache_key] = _PodState(pod=pod)
        finally:
            if cache_watch is not None:
                cache_watch.left(flight)
        parts.order.noted(cache, cache_key)

    def _add_to_node(self, cache: Any, pod: Pod) -> None:
        """``cache._add_pod(pod)``, by :class:`_Sums` when it may (the cache's lock held)."""
        sums = self._sums
        found = None
        if self._sums_usable(cache):
            try:
                found = sums.requests(pod)
            except Exception:  # noqa: BLE001 - then the mirror's addPod fails as it would
                found = None
        if found is None:
            cache._add_pod(pod)
        else:
            sums.add(cache, pod, found)

    def _found(self, queue: Any, process: Any, rt: Any) -> _Parts | None:
        """The parts behind the probes, when every probe holds exactly the hooks a fast pop
        stands in for (remembered while they stay as they were: :meth:`_Parts.unchanged`)."""
        known = self._parts
        if known is not None and known.unchanged(queue, process, rt):
            return known
        on_add = ResourceEventHandlerFuncs.__dict__["on_add"]
        observation = rt.observation
        on_add_hooks = observation.hooks.get(on_add) if observation is not None and is_probe(on_add) else None
        self._parts = parts = self._find(queue, instance_hooks(queue, "pop"), process, field_probe_parts(process),
                                         on_add, on_add_hooks)
        return parts

    def _find(self, queue: Any, pop_hooks: Any, process: Any, field: Any, on_add: Any, on_add_hooks: Any) -> _Parts | None:
        # the queue is watched (a third around hook) only when snapshots are taken
        queue_watch = watch_of(queue)
        if pop_hooks is None or field is None or pop_hooks.before or pop_hooks.after \
                or len(pop_hooks.around) != (2 if queue_watch is None else 3):
            return None
        mine, popping, *watching = (hook for site, hook in pop_hooks.around)
        if (any(site is not None for site, _ in pop_hooks.around) or getattr(mine, "__func__", None) is not FirstList.around
                or getattr(mine, "__self__", None) is not self or getattr(popping, "__code__", None) is not _POPPING
                or (queue_watch is not None and (getattr(watching[0], "__func__", None) is not _Watch._around_pop
                                                 or watching[0].__self__ is not queue_watch))):
            return None
        original, field_hooks = field
        if (getattr(original, "__code__", None) is not _PROCESS or field_hooks.after or field_hooks.around
                or [h for _, h in field_hooks.before] != [observe_informers._processing]
                or any(site is not None for site, _ in field_hooks.before)):
            return None
        cells = dict(zip(_PROCESS.co_freevars, (c.cell_contents for c in original.__closure__)))
        client_state, handler = cells.get("client_state"), cells.get("h")
        if type(handler) is not ResourceEventHandlerFuncs or not _MIRROR_HANDLERS.check(ResourceEventHandlerFuncs)[0]:
            return None
        if is_probe(on_add) and on_add_hooks is not None and (
                on_add_hooks.after or on_add_hooks.around or len(on_add_hooks.before) != 1
                or getattr(on_add_hooks.before[0][1], "__code__", None) is not _ON_ADD_POINT
                or on_add_hooks.before[0][0] is not None):
            return None
        add = handler.add_func
        factory = getattr(add, "__self__", None)
        if getattr(add, "__func__", None) is not _ADD_POD_TO_CACHE or type(factory) is not ConfigFactory:
            return None
        cache = factory.scheduler_cache
        if type(cache) is not SchedulerCache or not _MIRROR_CACHE.check(SchedulerCache)[0] \
                or not _MIRROR_QUEUE.check(DeltaFIFO)[0]:
            return None
        add_hooks = instance_hooks(cache, "add_pod")
        order = observe_scheduler.assumed_order_of(cache)
        cache_watch = watch_of(cache)
        if add_hooks is None or order is None:
            return None
        point = _add_point(add_hooks, cache_watch is not None)
        if type(point) is not observe_scheduler.LaterPoint or point.stage != _STAGE \
                or point.capture is not observe_scheduler.status_now:
            return None
        held = (queue.__dict__.get("pop"), process, on_add, cache.__dict__.get("add_pod"),
                SchedulerCache.__dict__["add_pod"], SchedulerCache.__dict__["_add_pod"], DeltaFIFO.__dict__["pop"],
                on_add_hooks, getattr(on_add, "original", None))
        hooks = (pop_hooks, field_hooks, on_add_hooks, add_hooks)
        lists = _hook_lists(hooks)
        return _Parts(client_state, cache, point, order, queue_watch, cache_watch, held, hooks,
                      tuple(map(len, lists)), handler, lists)

    def _stack_at(self, caller: Any) -> tuple[Frame, ...] | None:
        """The stack a ``cache.addPod`` event captures when ``caller`` (``processLoop``'s frame,
        calling Pop) pops a pod the informer adds; None when the capture does not end there."""
        known = self._stack
        # (the frame's instruction offset, not f_lineno, which decodes the line table at every
        # read: an offset is at one line; fast pops stand aside while a trace function could jump)
        if known is not None and known[0] is caller and known[1] == caller.f_lasti:
            return known[2]
        outer = capture_stack(limit=sys.maxsize)  # (this package's frames are not in it)
        code = caller.f_code
        if not outer or outer[-1].function != code.co_qualname or outer[-1].line != caller.f_lineno:
            return None
        stack = (*outer, *_inner_frames())
        stack = stack[-40:] if len(stack) > 40 else stack  # (capture_stack's limit)
        self._stack = (caller, caller.f_lasti, stack)
        return stack


@attrs.define(eq=False)
class _UpdateParts:
    """What an update's pop checks besides :class:`_Parts`: the OnUpdate probe and its one
    handler point, the handler's updatePodInCache of the same cache, the cache's ``update_pod``
    probe holding only the ``cache.updatePod`` point (and the cache's watch), no probe on
    ``_update_pod``, the mirror's methods."""

    #: (OnUpdate, its observation hooks, the cache's update_pod and _update_pod attributes)
    held: tuple[Any, ...]
    hooks: tuple[Any, ...]
    counts: tuple[int, ...]
    lists: tuple[list[Any], ...]

    def unchanged(self, parts: _Parts, rt: Any) -> bool:
        """Whether what was found is still in place (identities and lengths; asked at every
        update's pop after :meth:`_Parts.unchanged` or ``_found`` passed)."""
        held = self.held
        on_update = ResourceEventHandlerFuncs.__dict__["on_update"]
        observation = rt.observation
        cache_dict = parts.cache.__dict__
        return (on_update is held[0]
                and (observation.hooks.get(on_update) if observation is not None else None) is held[1]
                and cache_dict.get("update_pod") is held[2] and cache_dict.get("_update_pod") is held[3]
                and parts.handler is held[4] and _MIRRORED.holds() and tuple(map(len, self.lists)) == self.counts)


def _find_update(parts: _Parts, rt: Any) -> _UpdateParts | None:
    """The :class:`_UpdateParts` of an informer whose fast pops' ``parts`` were found, when every
    probe on the way of an update holds exactly the hooks an update's pop stands in for."""
    handler = parts.handler
    cache = parts.cache
    if type(handler) is not ResourceEventHandlerFuncs or not _MIRROR_UPDATE.check(SchedulerCache)[0] \
            or not _MIRROR_ON_UPDATE.check(ResourceEventHandlerFuncs)[0] or not _MIRROR_NODE_INFO.check(NodeInfo)[0]:
        return None
    update = handler.update_func
    if getattr(update, "__func__", None) is not _UPDATE_POD_IN_CACHE \
            or getattr(getattr(update, "__self__", None), "scheduler_cache", None) is not cache:
        return None
    on_update = ResourceEventHandlerFuncs.__dict__["on_update"]
    observation = rt.observation
    on_update_hooks = observation.hooks.get(on_update) if observation is not None and is_probe(on_update) else None
    if on_update_hooks is not None and not _only_handler_point(on_update_hooks, "OnUpdate"):
        return None
    update_hooks = instance_hooks(cache, "update_pod")
    if "_update_pod" in cache.__dict__ or update_hooks is None \
            or not _only_update_point(update_hooks, parts.cache_watch is not None):
        return None
    held = (on_update, on_update_hooks, cache.__dict__.get("update_pod"), cache.__dict__.get("_update_pod"), handler)
    hooks = (on_update_hooks, update_hooks)
    lists = _hook_lists(hooks)
    return _UpdateParts(held, hooks, tuple(map(len, lists)), lists)


def _only_handler_point(hooks: Any, kind: str) -> bool:
    """Whether ``hooks`` (the OnUpdate probe's) hold only the ``handler.<kind>`` point, for any caller."""
    if hooks.after or hooks.around or len(hooks.before) != 1 or hooks.before[0][0] is not None:
        return False
    announce = hooks.before[0][1]
    return getattr(announce, "__code__", None) is _ON_ADD_POINT and closure_cells(announce).get("kind") == kind


def _only_update_point(hooks: Any, watched: bool) -> bool:
    """Whether the cache's ``update_pod`` probe holds only the ``cache.updatePod`` point as its
    after hook, and the cache's watch as its around hook when ``watched``, for any caller."""
    if hooks.before or len(hooks.after) != 1 or len(hooks.around) != (1 if watched else 0) \
            or any(site is not None for site, _ in (*hooks.after, *hooks.around)):
        return False
    announce = hooks.after[0][1]
    if getattr(announce, "__code__", None) is not _AFTER_POINT or closure_cells(announce).get("stage") != _UPDATE_EVENTS[1]:
        return False
    return not watched or getattr(hooks.around[0][1], "__code__", None) is _WATCHING


def _add_point(add_hooks: Any, watched: bool) -> Any:
    """The ``cache.addPod`` trace point behind the cache's ``add_pod`` probe, when the probe holds
    the assumed order's hook (``AssumedOrder.around``'s ``note``) running that point before the
    call and nothing after it — or the same hook and the point as a before hook of its own —
    then the cache's watch's hook when ``watched``, and nothing else; else None."""
    if add_hooks.after or len(add_hooks.before) > 1 or len(add_hooks.around) != (2 if watched else 1) \
            or any(site is not None for site, _ in (*add_hooks.before, *add_hooks.around)):
        return None
    note, *watching = (hook for _, hook in add_hooks.around)
    if getattr(note, "__code__", None) is not _ASSUMED_NOTE \
            or (watched and getattr(watching[0], "__code__", None) is not _WATCHING):
        return None
    cells = dict(zip(_ASSUMED_NOTE.co_freevars, (c.cell_contents for c in note.__closure__)))
    inside, after = cells.get("before"), cells.get("after")
    if after is not None:
        return None
    if add_hooks.before:
        return add_hooks.before[0][1] if inside is None else None
    return inside


def _hook_lists(hooks: tuple[Any, ...]) -> tuple[list[Any], ...]:
    """The before, after and around lists of each of ``hooks`` (None: no probe there — whether
    one appears is seen by the identity of what holds it): their lengths, asked at every pop,
    say whether a hook was added."""
    return tuple(lst for h in hooks if h is not None for lst in (h.before, h.after, h.around))


def first_list(queue: Any) -> FirstList | None:
    """Put :class:`FirstList`'s pops in front of one DeltaFIFO's ``pop`` (its outermost hook: put
    in place before the trace points' own); returns it (None for another kind of queue)."""
    if type(queue) is not DeltaFIFO:
        return None
    fast = FirstList()
    on_method(queue, "pop", around=fast.around)
    return fast


__all__ = ["FirstList", "first_list"]
