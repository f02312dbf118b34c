"""Trace points of a pod's journey through one scheduler, attached from outside.

Go: none — kschedlearn-only (DESIGN principle 5). Each point stands at a call the Go code makes:

- ``scheduleOne.pop`` — ``config.NextPod()`` returned a pod from podQueue;
- ``assume`` / ``finishBinding`` / ``forgetPod`` — after the cache calls of scheduleOne and of
  the binding goroutine;
- ``bind`` — just before the binding goroutine POSTs the Binding;
- ``cache.addPod`` (before: confirm or re-add) / ``cache.updatePod`` / ``cache.removePod`` — the
  assigned-pod informer's handlers reached the cache;
- ``cleanupAssumedPods`` (every second) and ``expirePod`` — before each sweep and expiry;
- ``error.backoff`` / ``error.requeue`` — the error handler's retry goroutine: after
  ``PodBackoff.GetEntry`` (nothing else in the scheduler calls it) and before
  ``podQueue.AddIfNotPresent`` (nor that);
- ``schedule.*`` / ``selectHost`` — the algorithm (:mod:`kschedlearn.observe.generic_scheduler`);
- ``fifo.*`` on podQueue and ``delta_fifo.*`` on the assigned-pod informer's queue.

Each trace point is one small *describe* function turning the call into the event's message and
data; ``cache.addPod``, ``bind``, ``cleanupAssumedPods`` and ``expirePod`` fire before their call
(pausing there shows the state just before it), the others right after it returned.
"""

from __future__ import annotations

import weakref
from bisect import bisect_left
from collections.abc import Callable
from typing import Any

import attrs

from kschedlearn.observe import views
from kschedlearn.observe.assumed_history import AssumedAt, AssumedHistory
from kschedlearn.observe.points import callee, deferring_here, observed_in, pod_key, point, unrecorded
from kschedlearn.observe.wrap import Call, Hook, MirrorMethods, on_field, on_method
from kschedlearn.scheduler.factory.factory import Binder, ConfigFactory
from kschedlearn.scheduler.schedulercache.cache import SchedulerCache
from kschedlearn.scheduler.schedulercache.node_info import get_pod_key
from kschedlearn.scheduler.util.backoff_utils import PodBackoff
from kschedlearn.client_go.tools.cache.fifo import FIFO
from kschedlearn.trace import register_stage
from kschedlearn.trace.stages import SCHED

_CACHE = SCHED + "schedulercache/cache.go"
_F = SCHED + "factory/factory.go"
register_stage("scheduleOne.pop", _F + "#L457-L465",
               "scheduleOne asked for the next pod: getNextPod popped it from podQueue (the FIFO).")
register_stage("assume", _CACHE + "#L109-L128",
               "AssumePod: the cache counts the pod on the chosen node before the API server knows — so the next pod already sees those resources as used.")
register_stage("bind", SCHED + "scheduler.go#L148-L225",
               "A goroutine POSTs the Binding to the API server; scheduleOne has already moved on to the next pod.")
register_stage("finishBinding", _CACHE + "#L134-L152",
               "The bind call returned: the assumed pod's 30 s expiry clock starts now.")
register_stage("forgetPod", _CACHE + "#L154-L181",
               "The binding failed: ForgetPod takes the assumed pod out of the cache again.")
register_stage("cache.addPod", _CACHE + "#L214-L246",
               "The assigned-pod informer delivered the bound pod: AddPod confirms the assumed pod (or adds it back if it had expired).")
register_stage("cache.updatePod", _CACHE + "#L248-L273", "A bound pod changed: UpdatePod swaps old for new in its NodeInfo.")
register_stage("cache.removePod", _CACHE + "#L275-L302", "A bound pod was deleted or finished: RemovePod frees its resources.")
register_stage("cleanupAssumedPods", _CACHE + "#L354-L377",
               "Every second the cache looks for assumed pods whose binding finished more than 30 s ago.")
register_stage("expirePod", _CACHE + "#L379-L386",
               "An assumed pod was never confirmed in time: it is dropped from the cache and its resources are freed.")
register_stage("error.backoff", _F + "#L514-L558",
               "The error handler from MakeDefaultErrorFunc waits out the pod's backoff (1 s, 2 s, 4 s ... 60 s) before re-reading it.")
register_stage("error.requeue", _F + "#L514-L558",
               "MakeDefaultErrorFunc's goroutine: after its backoff the pod is read again from the API server and put back with AddIfNotPresent.")

#: what a describe function returns: the event's message and its data
Description = tuple[str, dict[str, Any]]
Describe = Callable[..., Description]


def _after(stage: str, describe: Describe, fn: Callable[..., Any]) -> Callable[[Call], None]:
    def announce(call: Call) -> None:
        if unrecorded(stage):  # (e.g. the sorted assumed keys of every cleanupAssumedPods tick)
            return
        message, data = describe(call.receiver, *call.args)
        point(stage, message, data, fn, "returned")

    return announce


def _before(stage: str, describe: Describe, fn: Callable[..., Any]) -> Callable[[Call], None]:
    def announce(call: Call) -> None:
        if unrecorded(stage):
            return
        message, data = describe(call.receiver, *call.args)
        point(stage, message, data, fn, "calling")

    return announce


#: what a trace point built when read keeps of its call: the call -> what its describe function
#: reads, the live state read now (the cache's assumed keys, a pod's status) and immutable values
Capture = Callable[[Call], tuple[Any, ...]]


def _later(stage: str, capture: Capture, describe: Describe, fn: Callable[..., Any], phase: str) -> LaterPoint:
    """:func:`_after` / :func:`_before` (``phase``) of ``describe(*capture(call))``, whose message
    and data are built when the event is first read while nobody watches events as they come
    (``Tracer.record_described_later``): the hot trace points, once per pod."""
    return LaterPoint(stage, capture, describe, fn, phase, callee(fn, phase))


@attrs.define(eq=False)
class LaterPoint:
    """The hook of one :func:`_later` trace point. A value with its parts readable: a fast path
    standing in for the mirrored calls that reach it (``accelerated/informers.py``) records the
    very event it would."""

    stage: str
    capture: Capture
    describe: Describe
    fn: Callable[..., Any]
    phase: str
    #: ``callee(fn, phase)``
    described: Any

    def __call__(self, call: Call) -> None:
        stage = self.stage
        found = deferring_here(stage)
        if found is not None and found[2]:
            g, tracer, _ = found
            tracer.record_described_later(g.runtime, g, stage, self.describe, self.capture(call),
                                          observed_in(g.runtime, self.described))
        elif not unrecorded(stage):
            point(stage, *self.describe(*self.capture(call)), self.fn, self.phase)


# -- the scheduler cache -------------------------------------------------------------------

def _cache_descriptions(scheduler_name: str) -> dict[str, Describe]:
    """One describe function per observed cache method (``cache`` is the SchedulerCache)."""

    def assumed(cache: Any, pod: Any) -> Description:
        return assumed_as(pod, assumed_keys(cache))

    def assumed_then(pod: Any, assumed: AssumedAt | list[str]) -> Description:
        return assumed_as(pod, assumed.keys() if type(assumed) is AssumedAt else assumed)

    def assumed_as(pod: Any, assumed: list[str]) -> Description:
        data = {"pod": pod_key(pod), "node": pod.spec.node_name, "assumed": assumed, "scheduler": scheduler_name}
        return f"assumed {pod_key(pod)} on {pod.spec.node_name}", data

    def binding_finished(cache: Any, pod: Any, now: float) -> Description:
        return binding_finished_at(pod, now + views.cache_ttl(cache))

    def binding_finished_at(pod: Any, deadline: float) -> Description:
        return f"{pod_key(pod)} may expire at t={deadline:g}s", {
            "pod": pod_key(pod), "deadline": deadline, "scheduler": scheduler_name}

    def forgotten(cache: Any, pod: Any) -> Description:
        return f"forgot {pod_key(pod)}", {
            "pod": pod_key(pod), "assumed": assumed_keys(cache), "scheduler": scheduler_name}

    def adding(cache: Any, pod: Any) -> Description:
        return adding_as(pod, views.pod_status(cache, pod_key(pod)))

    def adding_as(pod: Any, status: str) -> Description:
        if status == "assumed":
            what = "confirm the assumed pod"
        elif status == "unknown":
            what = "add (expired before, or scheduled by someone else)"
        else:
            what = "already added"
        return f"{pod_key(pod)} on {pod.spec.node_name}: {what}", {
            "pod": pod_key(pod), "node": pod.spec.node_name, "was_assumed": status == "assumed",
            "scheduler": scheduler_name}

    def updated(cache: Any, old_pod: Any, new_pod: Any) -> Description:
        return f"updated {pod_key(new_pod)}", {"pod": pod_key(new_pod), "scheduler": scheduler_name}

    def removed(cache: Any, pod: Any) -> Description:
        return f"removed {pod_key(pod)}", {"pod": pod_key(pod), "scheduler": scheduler_name}

    def sweeping(cache: Any, now: float) -> Description:
        keys = assumed_keys(cache)
        return f"{len(keys)} assumed pod(s) to check", {"assumed": keys, "now": now, "scheduler": scheduler_name}

    def expiring(cache: Any, key: str, pod_state: Any) -> Description:
        return f"{key} expired (deadline t={pod_state.deadline:g}s)", {
            "pod": key, "deadline": pod_state.deadline, "scheduler": scheduler_name}

    return {"assumed": assumed, "binding_finished": binding_finished, "forgotten": forgotten,
            "adding": adding, "updated": updated, "removed": removed, "sweeping": sweeping,
            "expiring": expiring, "assumed_as": assumed_as, "assumed_then": assumed_then, "binding_finished_at": binding_finished_at,
            "adding_as": adding_as}


def assumed_keys(cache: Any) -> list[str]:
    """``sorted(cache._assumed_pods)`` as a new list: from the cache's kept order when it has one."""
    order = _ASSUMED_ORDERS.get(cache)
    return order.keys_of(cache) if order is not None else views.assumed_keys(cache)


def assumed_keys_now(cache: Any) -> AssumedAt | list[str]:
    """:func:`assumed_keys`, or where the cache's kept order logs it, to be rebuilt when read
    (``AssumedAt.keys()``: an equal new list; no copy of up to 10,000 keys per event)."""
    order = _ASSUMED_ORDERS.get(cache)
    return order.now(cache) if order is not None else views.assumed_keys(cache)


# what the once-per-pod cache trace points read now (``_later``; the pods are frozen API objects)
def _assumed_now(call: Call) -> tuple[Any, ...]:
    return call.args[0], assumed_keys_now(call.receiver)


def _deadline_now(call: Call) -> tuple[Any, ...]:
    pod, now = call.args
    return pod, now + views.cache_ttl(call.receiver)


def status_now(call: Call) -> tuple[Any, ...]:
    pod = call.args[0]
    return pod, views.pod_status(call.receiver, pod_key(pod))


#: the cache methods that change its assumed set, and where each call names the pod's key
_ASSUMING = {"assume_pod": "pod", "forget_pod": "pod", "add_pod": "pod", "_expire_pod": "key"}
#: the cache methods that must be the mirror's for the kept order to be right (an exercise may
#: plug a learner's AddPod or expiry in, which may change the assumed set another way)
_ASSUMED_METHODS = MirrorMethods(("assume_pod", "forget_pod", "add_pod", "update_pod", "remove_pod", "_expire_pod",
                                  "_cleanup_assumed_pods", "_cleanup_expired_assumed_pods"),
                                 "kschedlearn.scheduler.schedulercache.cache", "SchedulerCache")


@attrs.define(eq=False)
class AssumedOrder:
    """A cache's assumed keys, sorted, kept from the calls that change its assumed set — what
    ``assume``, ``forgetPod`` and ``cleanupAssumedPods`` show (``views.assumed_keys``: sorted
    anew at every event, up to 10,000 keys in a replay's burst of assumed pods). Used while
    the cache's methods are the mirror's and the kept count is the cache's; else sorted anew."""

    keys: list[str] = attrs.field(factory=list)
    #: False: a call the hooks could not follow; sorted anew at the next event
    valid: bool = False
    #: every change of ``keys``, for the events that keep a position instead of a copy
    history: AssumedHistory = attrs.field(factory=AssumedHistory)

    def around(self, name: str, before: Hook | None = None,
               after: Hook | None = None) -> Callable[[Callable[..., Any], Call], Any]:
        """The around hook of ``name`` (one of ``_ASSUMING``): the call's key after it. ``before``
        / ``after``: the method's trace point, run as a before / after hook of the same probe
        would — before the call; after it returned (not when it raised), once the key is noted —
        from this one hook (a probe with one around hook and nothing else makes one ``Call``:
        valgrind, ~4.5 K instructions less per call than an around and an after hook)."""
        by_pod = _ASSUMING[name] == "pod"

        def note(proceed: Callable[..., Any], call: Call) -> Any:
            if before is not None:
                before(call)
            try:
                result = proceed(*call.args, **call.kwargs)
            finally:
                if self.valid and call.args and not call.kwargs:
                    self._sync(call.receiver, get_pod_key(call.args[0]) if by_pod else call.args[0])
                else:  # (not the mirror's call shape)
                    self.valid = False
            if after is not None:
                call.result = result
                after(call)
            return result

        return note

    def _sync(self, cache: Any, key: Any) -> None:
        keys = self.keys
        if type(key) is not str:
            self.valid = False
            return
        i = bisect_left(keys, key)
        here = i < len(keys) and keys[i] == key
        if key in cache._assumed_pods:
            if not here:
                keys.insert(i, key)
                self.history.inserted(key, keys)
        elif here:
            del keys[i]
            self.history.deleted(key, keys)

    def noted(self, cache: Any, key: str) -> None:
        """What :meth:`around`'s hook does after a call of the mirror's shape for ``key`` (a fast
        path standing in for that call)."""
        if self.valid:
            self._sync(cache, key)

    def keys_of(self, cache: Any) -> list[str]:
        """``sorted(cache._assumed_pods)`` (a new list)."""
        self._check(cache)
        return list(self.keys)

    def now(self, cache: Any) -> AssumedAt:
        """:meth:`keys_of` as a position of the history, to be rebuilt when read."""
        self._check(cache)
        return self.history.now()

    def _check(self, cache: Any) -> None:
        assumed = cache._assumed_pods
        if not self.valid or len(self.keys) != len(assumed) or not _ASSUMED_METHODS.check(type(cache))[0]:
            self.keys = sorted(assumed)
            self.valid = True
            self.history.replaced(self.keys)


#: cache -> its AssumedOrder
_ASSUMED_ORDERS: weakref.WeakKeyDictionary[Any, AssumedOrder] = weakref.WeakKeyDictionary()


def assumed_order_of(cache: Any) -> AssumedOrder | None:
    """The AssumedOrder kept for ``cache`` (None: not kept)."""
    return _ASSUMED_ORDERS.get(cache)


def keep_assumed_order(cache: SchedulerCache,
                       points: dict[str, tuple[Hook | None, Hook | None]] | None = None) -> AssumedOrder:
    """Keep ``cache``'s assumed keys in order from its calls (this instance only). ``points``:
    method name -> (before, after) trace-point hooks of that method, run by the same hook
    (``AssumedOrder.around``; only when the order is made here)."""
    known = _ASSUMED_ORDERS.get(cache)
    if known is not None:
        return known
    order = _ASSUMED_ORDERS[cache] = AssumedOrder()
    for name in _ASSUMING:
        before, after = points.get(name, (None, None)) if points else (None, None)
        on_method(cache, name, around=order.around(name, before, after))
    return order


def observe_cache(cache: SchedulerCache, scheduler_name: str, *, assume: bool = True) -> SchedulerCache:
    """The cache's stages, for this cache instance (``assume=False``: the "assume off" switch
    replaced AssumePod and ForgetPod, which then have no stage of their own)."""
    d = _cache_descriptions(scheduler_name)
    C = SchedulerCache
    # the two once-per-pod points of methods that change the assumed set run in the kept
    # order's own hook (one probe hook per call; see AssumedOrder.around)
    adding = _later("cache.addPod", status_now, d["adding_as"], C.add_pod, "calling")
    points: dict[str, tuple[Hook | None, Hook | None]] = {"add_pod": (adding, None)}
    if assume:
        points["assume_pod"] = (None, _later("assume", _assumed_now, d["assumed_then"], C.assume_pod, "returned"))
    if cache in _ASSUMED_ORDERS:  # (its order was kept before, without them: hooks of their own)
        for name, (before, after) in points.items():
            on_method(cache, name, before=before, after=after)
    else:
        keep_assumed_order(cache, points)
    if assume:
        on_method(cache, "forget_pod", after=_after("forgetPod", d["forgotten"], C.forget_pod))
    on_method(cache, "_finish_binding", after=_later("finishBinding", _deadline_now, d["binding_finished_at"],
                                                     C._finish_binding, "returned"))
    on_method(cache, "update_pod", after=_after("cache.updatePod", d["updated"], C.update_pod))
    on_method(cache, "remove_pod", after=_after("cache.removePod", d["removed"], C.remove_pod))
    on_method(cache, "_cleanup_assumed_pods", before=_before("cleanupAssumedPods", d["sweeping"],
                                                              C._cleanup_assumed_pods))
    on_method(cache, "_expire_pod", before=_before("expirePod", d["expiring"], C._expire_pod))
    return cache


# -- the binder and getNextPod -------------------------------------------------------------

def observe_binder(binder: Any, scheduler_name: str) -> Any:
    """``bind`` just before the Binding is POSTed."""

    def posting(binder: Any, binding: Any) -> Description:
        pod = f"{binding.metadata.namespace}/{binding.metadata.name}"
        return f"POST binding {pod} → {binding.target.name}", {
            "pod": pod, "node": binding.target.name, "scheduler": scheduler_name}

    on_method(binder, "bind", before=_before("bind", posting, Binder.bind))
    return binder


def observe_next_pod(config: Any, scheduler_name: str) -> None:
    """``scheduleOne.pop`` when ``config.NextPod()`` returns (the field holds getNextPod)."""

    def announce(call: Call) -> None:
        pod = call.result
        point("scheduleOne.pop", f"scheduleOne got {pod_key(pod)}",
              {"pod": pod_key(pod), "scheduler": scheduler_name}, ConfigFactory.get_next_pod)

    on_field(config, "next_pod", after=announce)


# -- the error path ------------------------------------------------------------------------

def observe_error_path(config_factory: ConfigFactory) -> None:
    """``error.backoff`` and ``error.requeue`` on one ConfigFactory's backoff and podQueue."""

    def backing_off(call: Call) -> None:
        pod_id, entry = call.args[0], call.result
        in_flight = entry.req_in_flight != 0  # TryWait is about to give up
        if in_flight:
            message = f"{pod_id}: another retry is already waiting — this one gives up"
        else:
            message = f"{pod_id}: backing off {entry.backoff:g}s"
        point("error.backoff", message, {"pod": pod_id, "backoff": entry.backoff, "in_flight": in_flight},
              PodBackoff.get_entry)

    def requeuing(call: Call) -> None:
        pod = call.args[0]
        pod_id = f"{pod.metadata.namespace}/{pod.metadata.name}"
        point("error.requeue", f"{pod_id} back into podQueue (AddIfNotPresent)", {"pod": pod_id},
              FIFO.add_if_not_present, "calling")

    if config_factory.pod_backoff is not None:
        on_method(config_factory.pod_backoff, "get_entry", after=backing_off)
    on_method(config_factory.pod_queue, "add_if_not_present", before=requeuing)


__all__ = ["AssumedOrder", "assumed_keys_now", "LaterPoint", "assumed_order_of", "keep_assumed_order", "observe_binder", "observe_cache", "observe_error_path", "observe_next_pod", "status_now"]
