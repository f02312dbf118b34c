"""Solutions for notebook 08: the pod backoff and scheduleOne.

Go: plugin/pkg/scheduler/util/backoff_utils.go, plugin/pkg/scheduler/scheduler.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/util/backoff_utils.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/scheduler.go#L148-L225
"""

from __future__ import annotations

import attrs

from kschedlearn import sim
from kschedlearn.api.v1 import (CONDITION_FALSE, EVENT_TYPE_NORMAL, EVENT_TYPE_WARNING, POD_REASON_UNSCHEDULABLE,
                                POD_SCHEDULED, Binding, ObjectMeta, ObjectReference, PodCondition)
from kschedlearn.scheduler.metrics.metrics import since_in_microseconds
from kschedlearn.scheduler.schedulercache.node_info import CacheError
from kschedlearn.scheduler.scheduler import Scheduler
from kschedlearn.scheduler.util.backoff_utils import BackoffEntry
from kschedlearn.trace import glog


def get_backoff(entry: BackoffEntry, max_duration: float) -> float:
    """Return how long to wait now, and double the entry's next wait (at most ``max_duration``).

    Go: (*backoffEntry).getBackoff, backoff_utils.go#L70-L79. The current wait is
    ``entry.backoff`` (seconds); store the doubled, capped value back in ``entry.backoff``.
    """
    duration = entry.backoff
    entry.backoff = min(duration * 2, max_duration)
    return duration


def schedule_one(sched: Scheduler) -> None:
    """Schedule one pod: pop it, run the algorithm, assume a copy, bind it in a goroutine.

    Go: (*Scheduler).scheduleOne, scheduler.go#L148-L225. ``cfg = sched.config`` holds
    ``next_pod()``, ``algorithm.schedule(pod, node_lister)``, ``scheduler_cache``
    (``assume_pod``, ``finish_binding``, ``forget_pod``), ``binder.bind(binding)``,
    ``error(pod, err)``, ``recorder.eventf(obj, type, reason, fmt, *args)``,
    ``pod_condition_updater.update(pod, condition)`` and ``metrics``. Start the binding
    goroutine with ``sim.go(fn, *args, name=...)``; ``sim.now()`` is the virtual clock.

    - A pod being deleted (``metadata.deletion_timestamp`` set): Warning event
      "FailedScheduling", "skip schedule deleting pod: %v/%v", and return.
    - ``schedule`` raises: call ``cfg.error(pod, err)``, record a Warning "FailedScheduling"
      event with ``"%v", err``, set the condition PodScheduled=False reason Unschedulable with
      the error's text (ignore the update's error), return.
    - Otherwise assume a *copy* of the pod with ``spec.node_name = dest`` (``attrs.evolve``);
      if ``assume_pod`` raises ``CacheError``, log and return.
    - Then, in a new goroutine: POST the Binding (``metadata`` = the pod's namespace/name,
      ``target`` = ``ObjectReference(kind="Node", name=dest)``), ``finish_binding(assumed)``;
      if the bind failed: ``forget_pod(assumed)``, ``cfg.error(pod, err)``, a Normal
      "FailedScheduling" event "Binding rejected: %v", condition PodScheduled=False reason
      "BindingRejected"; if it worked: a Normal "Scheduled" event
      "Successfully assigned %v to %v" (pod name, node).
    """
    cfg = sched.config
    pod = cfg.next_pod()
    if pod.metadata.deletion_timestamp is not None:
        cfg.recorder.eventf(pod, EVENT_TYPE_WARNING, "FailedScheduling", "skip schedule deleting pod: %v/%v",
                            pod.metadata.namespace, pod.metadata.name)
        return
    start = sim.now()
    try:
        dest = cfg.algorithm.schedule(pod, cfg.node_lister)
    except Exception as err:  # noqa: BLE001 - Go's returned error
        cfg.error(pod, err)
        cfg.recorder.eventf(pod, EVENT_TYPE_WARNING, "FailedScheduling", "%v", err)
        try:
            cfg.pod_condition_updater.update(pod, PodCondition(
                type=POD_SCHEDULED, status=CONDITION_FALSE, reason=POD_REASON_UNSCHEDULABLE, message=str(err)))
        except Exception:  # noqa: BLE001 - Go ignores Update's error
            pass
        return
    cfg.metrics.scheduling_algorithm_latency.observe(since_in_microseconds(start, sim.now()))
    assumed = attrs.evolve(pod, spec=attrs.evolve(pod.spec, node_name=dest))
    try:
        cfg.scheduler_cache.assume_pod(assumed)
    except CacheError as err:
        glog.errorf("scheduler cache AssumePod failed: %v", err)
        return

    def bind() -> None:
        e2e = since_in_microseconds(start, sim.now())
        b = Binding(metadata=ObjectMeta(namespace=pod.metadata.namespace, name=pod.metadata.name),
                    target=ObjectReference(kind="Node", name=dest))
        binding_start = sim.now()
        bind_err: BaseException | None = None
        try:
            cfg.binder.bind(b)
        except Exception as err:  # noqa: BLE001 - Go's returned error
            bind_err = err
        try:
            cfg.scheduler_cache.finish_binding(assumed)
        except CacheError as err:
            glog.errorf("scheduler cache FinishBinding failed: %v", err)
        if bind_err is not None:
            try:
                cfg.scheduler_cache.forget_pod(assumed)
            except CacheError as err:
                glog.errorf("scheduler cache ForgetPod failed: %v", err)
            cfg.error(pod, bind_err)
            cfg.recorder.eventf(pod, EVENT_TYPE_NORMAL, "FailedScheduling", "Binding rejected: %v", bind_err)
            try:
                cfg.pod_condition_updater.update(pod, PodCondition(
                    type=POD_SCHEDULED, status=CONDITION_FALSE, reason="BindingRejected"))
            except Exception:  # noqa: BLE001 - Go ignores Update's error
                pass
            cfg.metrics.e2e_scheduling_latency.observe(e2e)
            return
        cfg.metrics.binding_latency.observe(since_in_microseconds(binding_start, sim.now()))
        cfg.recorder.eventf(pod, EVENT_TYPE_NORMAL, "Scheduled", "Successfully assigned %v to %v",
                            pod.metadata.name, dest)
        cfg.metrics.e2e_scheduling_latency.observe(e2e)

    sim.go(bind, name=f"bind {pod.metadata.namespace}/{pod.metadata.name}")
