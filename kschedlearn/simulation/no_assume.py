"""The "assume off" switch: what 1.6 would do if scheduleOne did not assume (kschedlearn-only).

Go: none — kschedlearn-only. Kubernetes has no such option: 1.6's scheduleOne always calls
``schedulerCache.AssumePod`` before it starts the binding goroutine
(lines 177-188 of https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/scheduler.go#L148-L225).
This switch exists so that a learner can see *why* it does: with it off, the cache learns about
a pod only when the assigned-pod informer delivers it after the binding, so a burst of pods is
scheduled against a cache that does not yet count the pods just placed — and a node is
double-booked, past its allocatable resources.

It is bolted on from outside, by probes of the observation layer on one replica's scheduler
cache (the mirrored ``scheduler.py`` and ``cache.py`` are untouched):

- ``assume_pod`` does nothing but emit the stage ``assume.skipped`` (nothing is counted);
- ``forget_pod`` does nothing: there is nothing to forget (1.6's ForgetPod would dereference a
  nil pod state for a pod it never assumed — a panic — so a failed bind would crash the replica
  instead of showing what the switch is about).

``finish_binding`` needs no change: it already ignores a pod that is not assumed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kschedlearn.observe.wrap import Call, on_method
from kschedlearn.trace import emit, register_stage

register_stage(
    "assume.skipped", "",
    "kschedlearn-only (assume switched off): scheduleOne did not assume the pod, so the cache does not "
    "count it until the assigned-pod informer delivers it after the binding.")


def _key(pod: Any) -> str:
    return f"{pod.metadata.namespace}/{pod.metadata.name}"


def switch_off_assume(cache: Any, scheduler_name: str) -> None:
    """Make one scheduler cache skip AssumePod and ForgetPod (see the module docstring)."""

    def skip_assume(proceed: Callable[..., Any], call: Call) -> None:
        pod = call.args[0]
        emit("assume.skipped", f"did not assume {_key(pod)} on {pod.spec.node_name} (assume is off)",
             data={"pod": _key(pod), "node": pod.spec.node_name, "scheduler": scheduler_name})

    def skip_forget(proceed: Callable[..., Any], call: Call) -> None:
        return None

    on_method(cache, "assume_pod", around=skip_assume)
    on_method(cache, "forget_pod", around=skip_forget)


__all__ = ["switch_off_assume"]
