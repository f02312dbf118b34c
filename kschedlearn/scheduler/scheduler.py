"""The scheduler loop: pop a pod, run the algorithm, assume it, bind it in the background.

Go: plugin/pkg/scheduler/scheduler.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/scheduler.go#L39-L225

Differs from Go: ``metrics.Register()`` (global Prometheus registration) becomes a
:class:`~kschedlearn.scheduler.metrics.metrics.SchedulerMetrics` owned by the Config; time is
the simulation's virtual clock.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

import attrs

from kschedlearn import sim
from kschedlearn.api.v1 import (
    CONDITION_FALSE,
    EVENT_TYPE_NORMAL,
    EVENT_TYPE_WARNING,
    POD_REASON_UNSCHEDULABLE,
    POD_SCHEDULED,
    Binding,
    ObjectMeta,
    ObjectReference,
    PodCondition,
)
from kschedlearn.apimachinery.util import wait
from kschedlearn.apimachinery.util.runtime import PANICS
from kschedlearn.scheduler.schedulercache.node_info import CacheError
from kschedlearn.scheduler.metrics.metrics import SchedulerMetrics, since_in_microseconds
from kschedlearn.trace import glog


class Binder(Protocol):
    """Go: scheduler.Binder."""

    def bind(self, binding: Binding) -> None: ...


class PodConditionUpdater(Protocol):
    """Go: scheduler.PodConditionUpdater."""

    def update(self, pod: Any, pod_condition: PodCondition) -> None: ...


@attrs.define(eq=False)
class Config:
    """Everything scheduleOne needs. Go: scheduler.Config (scheduler.go#L84-L112)."""

    scheduler_cache: Any
    node_lister: Any
    algorithm: Any
    binder: Binder
    pod_condition_updater: PodConditionUpdater
    next_pod: Callable[[], Any]
    error: Callable[[Any, BaseException], None]
    stop_everything: sim.Chan
    recorder: Any = None
    metrics: SchedulerMetrics = attrs.field(factory=SchedulerMetrics)


@attrs.define(eq=False, slots=False)
class Scheduler:
    """Go: scheduler.Scheduler — watches for new unscheduled pods and binds them to nodes."""

    config: Config

    def stop_everything(self) -> None:
        """Go: Scheduler.StopEverything — close the stop channel."""
        self.config.stop_everything.close()

    def run(self) -> None:
        """Start the scheduling loop: ``go wait.Until(scheduleOne, 0, StopEverything)``.

        Go: Scheduler.Run — scheduler.go#L143-L146. Period 0: scheduleOne runs back to back;
        it blocks inside NextPod while the queue is empty.
        """
        sim.go(wait.until, self.schedule_one, 0.0, self.config.stop_everything,
               name="scheduler.scheduleOne loop")

    def schedule_one(self) -> None:
        """Schedule one pod: the heart of kube-scheduler 1.6.

        Go: Scheduler.scheduleOne — scheduler.go#L148-L225
        """
        pod = self.config.next_pod()
        if pod.metadata.deletion_timestamp is not None:
            self.config.recorder.eventf(pod, EVENT_TYPE_WARNING, "FailedScheduling",
                                        "skip schedule deleting pod: %v/%v",
                                        pod.metadata.namespace, pod.metadata.name)
            glog.v(3).infof("Skip schedule deleting pod: %v/%v", pod.metadata.namespace, pod.metadata.name)
            return

        glog.v(3).infof("Attempting to schedule pod: %v/%v", pod.metadata.namespace, pod.metadata.name)
        start = sim.now()
        try:
            dest = self.config.algorithm.schedule(pod, self.config.node_lister)
        except PANICS:
            raise  # a panic is no returned error: it ends scheduleOne and (wait.Until) the process
        except Exception as err:  # noqa: BLE001 - Go's returned error
            glog.v(1).infof("Failed to schedule pod: %v/%v", pod.metadata.namespace, pod.metadata.name)
            self.config.error(pod, err)
            self.config.recorder.eventf(pod, EVENT_TYPE_WARNING, "FailedScheduling", "%v", err)
            try:
                self.config.pod_condition_updater.update(pod, PodCondition(
                    type=POD_SCHEDULED, status=CONDITION_FALSE,
                    reason=POD_REASON_UNSCHEDULABLE, message=str(err),
                ))
            except PANICS:
                raise
            except Exception:  # noqa: BLE001 - Go discards Update's returned error
                pass
            return
        self.config.metrics.scheduling_algorithm_latency.observe(since_in_microseconds(start, sim.now()))

        # Assume optimistically, then bind in the background: the next pod can be scheduled
        # while this binding is in flight, already seeing this pod's resources as used.
        # Go copies the pod by value and sets NodeName: attrs.evolve is that copy.
        assumed = attrs.evolve(pod, spec=attrs.evolve(pod.spec, node_name=dest))
        try:
            self.config.scheduler_cache.assume_pod(assumed)
        except CacheError as err:  # Go logs and returns (no requeue)
            glog.errorf("scheduler cache AssumePod failed: %v", err)
            return

        sim.go(self._bind, pod, assumed, dest, start, name=f"bind {pod.metadata.namespace}/{pod.metadata.name}")

    def _bind(self, pod: Any, assumed: Any, dest: str, start: float) -> None:
        """The goroutine scheduleOne starts for the API call (Go: an anonymous func).

        Go: the goroutine inside scheduleOne (lines 190-224 of scheduler.go), scheduler.go#L148-L225. Its ``defer metrics.E2eSchedulingLatency.Observe(
        metrics.SinceInMicroseconds(start))`` evaluates the argument when the defer statement
        runs — at the start of the goroutine — so 1.6's "e2e" latency leaves out the binding
        time. Reproduced: the value is computed here, observed on return.
        """
        e2e = since_in_microseconds(start, sim.now())
        try:
            b = Binding(
                metadata=ObjectMeta(namespace=pod.metadata.namespace, name=pod.metadata.name),
                target=ObjectReference(kind="Node", name=dest),
            )
            binding_start = sim.now()
            bind_err: BaseException | None = None
            try:
                self.config.binder.bind(b)
            except PANICS:
                raise
            except Exception as err:  # noqa: BLE001 - Go's returned error
                bind_err = err
            try:
                self.config.scheduler_cache.finish_binding(assumed)
            except CacheError as err:
                glog.errorf("scheduler cache FinishBinding failed: %v", err)
            if bind_err is not None:
                glog.v(1).infof("Failed to bind pod: %v/%v", pod.metadata.namespace, pod.metadata.name)
                try:
                    self.config.scheduler_cache.forget_pod(assumed)
                except CacheError as err:  # a Go panic (1.6's ForgetPod nil dereference) is not caught
                    glog.errorf("scheduler cache ForgetPod failed: %v", err)
                self.config.error(pod, bind_err)
                self.config.recorder.eventf(pod, EVENT_TYPE_NORMAL, "FailedScheduling",
                                            "Binding rejected: %v", bind_err)
                try:
                    self.config.pod_condition_updater.update(pod, PodCondition(
                        type=POD_SCHEDULED, status=CONDITION_FALSE, reason="BindingRejected",
                    ))
                except PANICS:
                    raise
                except Exception:  # noqa: BLE001 - Go discards Update's returned error
                    pass
                return
            self.config.metrics.binding_latency.observe(since_in_microseconds(binding_start, sim.now()))
            self.config.recorder.eventf(pod, EVENT_TYPE_NORMAL, "Scheduled",
                                        "Successfully assigned %v to %v", pod.metadata.name, dest)
        finally:
            self.config.metrics.e2e_scheduling_latency.observe(e2e)


def new(c: Config) -> Scheduler:
    """Go: scheduler.New."""
    return Scheduler(config=c)


def new_from_configurator(c: Any, *modifiers: Callable[[Config], None]) -> Scheduler:
    """Build the Config with ``c.create()``, let each modifier adjust it, wrap it.

    Go: scheduler.NewFromConfigurator — scheduler.go#L124-L141
    """
    cfg = c.create()
    for modifier in modifiers:
        modifier(cfg)
    return Scheduler(config=cfg)
