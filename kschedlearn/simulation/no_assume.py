"""The "assume off" switch: what 1.6 would do if scheduleOne did not assume (kschedlearn-only).

Go: none — kschedlearn-only. Kubernetes has no such option: 1.6's scheduleOne always calls
``schedulerCache.AssumePod`` before it starts the binding goroutine
(lines 177-188 of https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/scheduler.go#L148-L225).
This switch exists so that a learner can see *why* it does: with it off, the cache learns about
a pod only when the assigned-pod informer delivers it after the binding, so a burst of pods is
scheduled against a cache that does not yet count the pods just placed — and a node is
double-booked, past its allocatable resources.

It is bolted on from outside, like the trace points in ``scheduler/instrument.py``: the mirrored
``scheduler.py`` and ``cache.py`` are untouched. On one replica's scheduler cache it replaces

- ``assume_pod`` with a no-op that emits the stage ``assume.skipped`` (nothing is counted);
- ``forget_pod`` with a no-op: there is nothing to forget (1.6's ForgetPod would dereference a
  nil pod state for a pod it never assumed — a panic — so a failed bind would crash the replica
  instead of showing what the switch is about).

``finish_binding`` needs no change: it already ignores a pod that is not assumed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kschedlearn.trace import emit, register_stage
from kschedlearn.trace.instrument import wrap_instance

register_stage(
    "assume.skipped", "",
    "kschedlearn-only (assume switched off): scheduleOne did not assume the pod, so the cache does not "
    "count it until the assigned-pod informer delivers it after the binding.")

TAG = "no-assume"


def _key(pod: Any) -> str:
    return f"{pod.metadata.namespace}/{pod.metadata.name}"


def _skip_assume(scheduler_name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    def factory(original: Callable[..., Any]) -> Callable[..., Any]:
        def assume_pod(self: Any, pod: Any) -> None:
            emit("assume.skipped", f"did not assume {_key(pod)} on {pod.spec.node_name} (assume is off)",
                 data={"pod": _key(pod), "node": pod.spec.node_name, "scheduler": scheduler_name})

        assume_pod.__doc__ = original.__doc__
        return assume_pod

    return factory


def _skip_forget(original: Callable[..., Any]) -> Callable[..., Any]:
    def forget_pod(self: Any, pod: Any) -> None:
        return None

    forget_pod.__doc__ = original.__doc__
    return forget_pod


def switch_off_assume(running: Any) -> None:
    """Make one running scheduler (``app.server.RunningScheduler``) skip AssumePod/ForgetPod."""
    cache = running.scheduler.config.scheduler_cache
    wrap_instance(cache, {"assume_pod": _skip_assume(running.s.scheduler_name),
                          "forget_pod": _skip_forget}, tag=TAG)


__all__ = ["switch_off_assume", "TAG"]
