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
    """Schedule one pod: take it from the queue, choose a node, assume it there, bind it in the background.

    Go: (*Scheduler).scheduleOne, scheduler.go#L148-L225. What it works with hangs off
    ``sched.config`` (Go's ``Config``, fields in snake_case: the next pod, the algorithm and the
    node lister, the scheduler cache, the binder, the error function, the event recorder, the
    pod-condition updater, the metrics); ``sim.go`` starts a goroutine, ``sim.now()`` is the clock.

    The contract — each point is a check, and ``plug_in_scenario`` compares whole runs stage by
    stage with the real scheduler:

    - a pod that is already being deleted is not scheduled (an event says so);
    - when no node fits, the pod goes to the error function (which backs it off and re-queues
      it), with a Warning event and the PodScheduled=False condition;
    - otherwise the cache counts the pod on its node *before* the API server hears of it, and
      the Binding is sent without making the scheduling loop wait for the answer;
    - a refused binding undoes the cache's count and takes the error way as well; an accepted
      one is announced with a Normal event;
    - the cache's errors are logged, never raised; the condition update's errors are ignored.

    Event reasons and texts, condition reasons and the exact order are Go's: read the Go source,
    ask ``hint("8.2", 2)``, or let the check's messages tell you.
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
