"""Trace points of a pod's journey through one scheduler, attached from outside.

Go: none — kschedlearn-only. The mirrored code carries no line for the notebook (DESIGN
principle 5); this module wraps the methods of one running scheduler's objects so that the
notebook sees (and can pause at) each step of the seed article's flow:

- ``scheduleOne.pop`` — getNextPod returned a pod from podQueue;
- ``schedule.*`` / ``selectHost`` — the scheduling algorithm (``core/instrument.py``);
- ``assume`` / ``finishBinding`` / ``forgetPod`` — the scheduler cache's assumed-pod bookkeeping;
- ``bind`` — the binding goroutine is about to POST the Binding;
- ``cache.addPod`` (confirm or re-add) / ``cache.updatePod`` / ``cache.removePod`` — the
  assigned-pod informer's handlers reached the cache;
- ``cleanupAssumedPods`` (every second) and ``expirePod``;
- ``error.backoff`` / ``error.requeue`` — the error path (``factory/instrument.py``);
- ``fifo.*`` on podQueue and ``delta_fifo.*`` on the assigned-pod informer's queue.

How to read it: each trace point is one small *describe* function that turns the call's
arguments into a message and the event's data. :func:`after` and :func:`before` make a wrapper
that emits that description right after (or right before) the wrapped method runs;
:func:`instrument_cache` and :func:`instrument_binder` list which method gets which. Pausing at
a "before" point (``bind``, ``cache.addPod``, ``cleanupAssumedPods``, ``expirePod``) shows the
state just before the call; the others fire right after the call returns.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from kschedlearn.client_go.tools.cache.instrument import instrument_queue
from kschedlearn.scheduler.core.instrument import instrument_algorithm
from kschedlearn.scheduler.factory.instrument import instrument_error_path
from kschedlearn.trace import emit, observed_call, register_stage
from kschedlearn.trace.instrument import wrap_instance
from kschedlearn.trace.stages import SCHED

_CACHE = SCHED + "schedulercache/cache.go"
register_stage("scheduleOne.pop", SCHED + "factory/factory.go#L457-L465",
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

#: what a describe function returns: the event's message and its data
Description = tuple[str, dict[str, Any]]
Describe = Callable[..., Description]
WrapperFactory = Callable[[Callable[..., Any]], Callable[..., Any]]


def pod_key(pod: Any) -> str:
    """``namespace/name``, as the events name a pod."""
    return f"{pod.metadata.namespace}/{pod.metadata.name}"


# -- the two kinds of wrapper -------------------------------------------------------------

def after(stage: str, describe: Describe) -> WrapperFactory:
    """A wrapper factory: call the method, then emit ``stage`` with ``describe(self, *args)``."""

    def make(original: Callable[..., Any]) -> Callable[..., Any]:
        observed = observed_call(original, "returned")

        @functools.wraps(original)
        def wrapper(self: Any, *args: Any) -> Any:
            result = original(self, *args)
            message, data = describe(self, *args)
            emit(stage, message, data=data, observed=observed)
            return result

        return wrapper

    return make


def before(stage: str, describe: Describe) -> WrapperFactory:
    """A wrapper factory: emit ``stage`` with ``describe(self, *args)``, then call the method."""

    def make(original: Callable[..., Any]) -> Callable[..., Any]:
        observed = observed_call(original, "entering")

        @functools.wraps(original)
        def wrapper(self: Any, *args: Any) -> Any:
            message, data = describe(self, *args)
            emit(stage, message, data=data, observed=observed)
            return original(self, *args)

        return wrapper

    return make


# -- the scheduler cache -------------------------------------------------------------------

def _cache_descriptions(scheduler_name: str) -> dict[str, Describe]:
    """One describe function per wrapped cache method (``cache`` is the SchedulerCache)."""

    def assumed(cache: Any, pod: Any) -> Description:
        data = {"pod": pod_key(pod), "node": pod.spec.node_name, "assumed": cache.debug_assumed_keys(),
                "scheduler": scheduler_name}
        return f"assumed {pod_key(pod)} on {pod.spec.node_name}", data

    def binding_finished(cache: Any, pod: Any, now: float) -> Description:
        deadline = now + cache.debug_ttl()
        return f"{pod_key(pod)} may expire at t={deadline:g}s", {
            "pod": pod_key(pod), "deadline": deadline, "scheduler": scheduler_name}

    def forgotten(cache: Any, pod: Any) -> Description:
        return f"forgot {pod_key(pod)}", {
            "pod": pod_key(pod), "assumed": cache.debug_assumed_keys(), "scheduler": scheduler_name}

    def adding(cache: Any, pod: Any) -> Description:
        status = cache.debug_pod_status(pod_key(pod))
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
        keys = cache.debug_assumed_keys()
        return f"{len(keys)} assumed pod(s) to check", {"assumed": keys, "now": now, "scheduler": scheduler_name}

    def expiring(cache: Any, key: str, pod_state: Any) -> Description:
        return f"{key} expired (deadline t={pod_state.deadline:g}s)", {
            "pod": key, "deadline": pod_state.deadline, "scheduler": scheduler_name}

    return {"assumed": assumed, "binding_finished": binding_finished, "forgotten": forgotten,
            "adding": adding, "updated": updated, "removed": removed, "sweeping": sweeping,
            "expiring": expiring}


def instrument_cache(cache: Any, scheduler_name: str) -> Any:
    """Emit the cache's stages for this cache instance."""
    d = _cache_descriptions(scheduler_name)
    return wrap_instance(cache, {
        "assume_pod": after("assume", d["assumed"]),
        "_finish_binding": after("finishBinding", d["binding_finished"]),
        "forget_pod": after("forgetPod", d["forgotten"]),
        "add_pod": before("cache.addPod", d["adding"]),
        "update_pod": after("cache.updatePod", d["updated"]),
        "remove_pod": after("cache.removePod", d["removed"]),
        "_cleanup_assumed_pods": before("cleanupAssumedPods", d["sweeping"]),
        "_expire_pod": before("expirePod", d["expiring"]),
    }, tag="scheduler")


# -- the binder and getNextPod -------------------------------------------------------------

def instrument_binder(binder: Any, scheduler_name: str) -> Any:
    """Emit ``bind`` just before the Binding is POSTed."""

    def posting(binder: Any, binding: Any) -> Description:
        pod = f"{binding.metadata.namespace}/{binding.metadata.name}"
        return f"POST binding {pod} → {binding.target.name}", {
            "pod": pod, "node": binding.target.name, "scheduler": scheduler_name}

    return wrap_instance(binder, {"bind": before("bind", posting)}, tag="scheduler")


def _announcing_next_pod(next_pod: Callable[[], Any], scheduler_name: str) -> Callable[[], Any]:
    """``config.next_pod`` (a function, not a method), emitting ``scheduleOne.pop`` on return."""

    def traced_next_pod() -> Any:
        pod = next_pod()
        emit("scheduleOne.pop", f"scheduleOne got {pod_key(pod)}",
             data={"pod": pod_key(pod), "scheduler": scheduler_name})
        return pod

    return traced_next_pod


def instrument_scheduler(running: Any) -> None:
    """Attach every trace point to one running scheduler (``app.server.RunningScheduler``)."""
    config = running.scheduler.config
    name = running.s.scheduler_name
    factory = running.config_factory
    instrument_cache(config.scheduler_cache, name)
    instrument_binder(config.binder, name)
    instrument_algorithm(config.algorithm)
    instrument_error_path(factory)
    instrument_queue(factory.pod_queue, "podQueue")
    instrument_queue(factory.scheduled_pod_populator.config.queue, "assignedPods")
    config.next_pod = _announcing_next_pod(config.next_pod, name)
