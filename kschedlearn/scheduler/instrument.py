"""Trace points of a pod's journey through one scheduler, attached from outside.

Go: none — kschedlearn-only. Wraps the methods of one running scheduler's objects so that the
notebook sees (and can pause at) each step of the seed article's flow:

- ``scheduleOne.pop`` — getNextPod returned a pod from podQueue;
- ``assume`` / ``finishBinding`` / ``forgetPod`` — the scheduler cache's assumed-pod bookkeeping;
- ``bind`` — the binding goroutine is about to POST the Binding;
- ``cache.addPod`` (confirm or re-add) / ``cache.updatePod`` / ``cache.removePod`` — the
  assigned-pod informer's handlers reached the cache;
- ``cleanupAssumedPods`` (every second) and ``expirePod``;
- ``fifo.*`` on podQueue and ``delta_fifo.*`` on the assigned-pod informer's queue.

Pausing at a "before" point (``bind``, ``cache.addPod``, ``expirePod``) shows the state just
before the call; the others fire right after the call returns.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from kschedlearn.client_go.tools.cache.instrument import instrument_queue
from kschedlearn.trace import emit, observed_call, register_stage
from kschedlearn.trace.instrument import wrap_instance
from kschedlearn.trace.stages import K8S, SCHED

_CACHE = SCHED + "schedulercache/cache.go"
for _name, _ref, _why in [
    ("scheduleOne.pop", SCHED + "factory/factory.go#L458-L466",
     "scheduleOne asked for the next pod: getNextPod popped it from podQueue (the FIFO)."),
    ("assume", _CACHE + "#L99-L121",
     "AssumePod: the cache counts the pod on the chosen node before the API server knows — so the next pod already sees those resources as used."),
    ("bind", SCHED + "scheduler.go#L185-L200",
     "A goroutine POSTs the Binding to the API server; scheduleOne has already moved on to the next pod."),
    ("finishBinding", _CACHE + "#L123-L141",
     "The bind call returned: the assumed pod's 30 s expiry clock starts now."),
    ("forgetPod", _CACHE + "#L143-L167",
     "The binding failed: ForgetPod takes the assumed pod out of the cache again."),
    ("cache.addPod", _CACHE + "#L169-L204",
     "The assigned-pod informer delivered the bound pod: AddPod confirms the assumed pod (or adds it back if it had expired)."),
    ("cache.updatePod", _CACHE + "#L206-L232", "A bound pod changed: UpdatePod swaps old for new in its NodeInfo."),
    ("cache.removePod", _CACHE + "#L234-L258", "A bound pod was deleted or finished: RemovePod frees its resources."),
    ("cleanupAssumedPods", _CACHE + "#L340-L372",
     "Every second the cache looks for assumed pods whose binding finished more than 30 s ago."),
    ("expirePod", _CACHE + "#L374-L386",
     "An assumed pod was never confirmed in time: it is dropped from the cache and its resources are freed."),
]:
    register_stage(_name, _ref, _why)
del K8S


def _pod_key(pod: Any) -> str:
    return f"{pod.metadata.namespace}/{pod.metadata.name}"


def _after(stage: str, describe: Callable[..., tuple[str, dict[str, Any]]]) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    def factory(original: Callable[..., Any]) -> Callable[..., Any]:
        observed = observed_call(original, "returned")

        @functools.wraps(original)
        def wrapper(self: Any, *args: Any) -> Any:
            result = original(self, *args)
            message, data = describe(self, *args)
            emit(stage, message, data=data, observed=observed)
            return result

        return wrapper

    return factory


def _before(stage: str, describe: Callable[..., tuple[str, dict[str, Any]]]) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    def factory(original: Callable[..., Any]) -> Callable[..., Any]:
        observed = observed_call(original, "entering")

        @functools.wraps(original)
        def wrapper(self: Any, *args: Any) -> Any:
            message, data = describe(self, *args)
            emit(stage, message, data=data, observed=observed)
            return original(self, *args)

        return wrapper

    return factory


def _assumed(cache: Any) -> list[str]:
    return sorted(cache._assumed_pods)


def instrument_cache(cache: Any, scheduler_name: str) -> Any:
    """Emit the cache's stages for this cache instance."""
    return wrap_instance(cache, {
        "assume_pod": _after("assume", lambda c, pod: (
            f"assumed {_pod_key(pod)} on {pod.spec.node_name}",
            {"pod": _pod_key(pod), "node": pod.spec.node_name, "assumed": _assumed(c), "scheduler": scheduler_name})),
        "_finish_binding": _after("finishBinding", lambda c, pod, now: (
            f"{_pod_key(pod)} may expire at t={now + c._ttl:g}s",
            {"pod": _pod_key(pod), "deadline": now + c._ttl, "scheduler": scheduler_name})),
        "forget_pod": _after("forgetPod", lambda c, pod: (
            f"forgot {_pod_key(pod)}", {"pod": _pod_key(pod), "assumed": _assumed(c), "scheduler": scheduler_name})),
        "add_pod": _before("cache.addPod", lambda c, pod: (
            f"{_pod_key(pod)} on {pod.spec.node_name}: " + (
                "confirm the assumed pod" if _pod_key(pod) in c._assumed_pods else
                "add (expired before, or scheduled by someone else)" if _pod_key(pod) not in c._pod_states
                else "already added"),
            {"pod": _pod_key(pod), "node": pod.spec.node_name,
             "was_assumed": _pod_key(pod) in c._assumed_pods, "scheduler": scheduler_name})),
        "update_pod": _after("cache.updatePod", lambda c, old, new: (
            f"updated {_pod_key(new)}", {"pod": _pod_key(new), "scheduler": scheduler_name})),
        "remove_pod": _after("cache.removePod", lambda c, pod: (
            f"removed {_pod_key(pod)}", {"pod": _pod_key(pod), "scheduler": scheduler_name})),
        "_cleanup_assumed_pods": _before("cleanupAssumedPods", lambda c, now: (
            f"{len(c._assumed_pods)} assumed pod(s) to check", {"assumed": _assumed(c), "now": now, "scheduler": scheduler_name})),
        "_expire_pod": _before("expirePod", lambda c, key, ps: (
            f"{key} expired (deadline t={ps.deadline:g}s)", {"pod": key, "deadline": ps.deadline, "scheduler": scheduler_name})),
    }, tag="scheduler")


def instrument_binder(binder: Any, scheduler_name: str) -> Any:
    """Emit ``bind`` just before the Binding is POSTed."""
    return wrap_instance(binder, {
        "bind": _before("bind", lambda b, binding: (
            f"POST binding {binding.metadata.namespace}/{binding.metadata.name} → {binding.target.name}",
            {"pod": f"{binding.metadata.namespace}/{binding.metadata.name}", "node": binding.target.name,
             "scheduler": scheduler_name})),
    }, tag="scheduler")


def instrument_scheduler(running: Any) -> None:
    """Attach every trace point above to one running scheduler (``app.server.RunningScheduler``)."""
    sched = running.scheduler
    name = running.s.scheduler_name
    cfg = sched.config
    factory = running.config_factory
    instrument_cache(cfg.scheduler_cache, name)
    instrument_binder(cfg.binder, name)
    instrument_queue(factory.pod_queue, "podQueue")
    instrument_queue(factory.scheduled_pod_populator.config.queue, "assignedPods")
    next_pod = cfg.next_pod

    def traced_next_pod() -> Any:
        pod = next_pod()
        emit("scheduleOne.pop", f"scheduleOne got {_pod_key(pod)}",
             data={"pod": _pod_key(pod), "scheduler": name})
        return pod

    cfg.next_pod = traced_next_pod
