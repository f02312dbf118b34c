"""A tiny kubelet: bound pods start Running; Job-like pods Succeed after a while.

Go: none — kschedlearn-only. Real kubelets run containers; here one process stands in for all
of them so that scenarios can show what happens *after* binding: a pod that completes
(phase Succeeded) leaves the assigned-pod watch (``status.phase!=Succeeded``), the informer
delivers a Delete, and the scheduler cache frees its resources.

A pod is "Job-like" when it carries the annotation ``kschedlearn.io/run-seconds`` (a number):
it Succeeds that many virtual seconds after it started running.
"""

from __future__ import annotations

from typing import Any

import attrs

from kschedlearn import sim
from kschedlearn.api.v1 import (
    CONDITION_TRUE,
    POD_READY,
    POD_RUNNING,
    POD_SUCCEEDED,
    Pod,
    PodCondition,
    update_pod_condition,
)
from kschedlearn.apimachinery.api.errors import StatusError, is_conflict, is_not_found
from kschedlearn.apimachinery.watch import ADDED, DELETED, ERROR, MODIFIED
from kschedlearn.trace import emit, register_stage

RUN_SECONDS_ANNOTATION = "kschedlearn.io/run-seconds"
RELIST_PERIOD = 1.0
"""Seconds between a failed list/watch and the relist (a reflector's ``period``: time.Second)."""
STATUS_ATTEMPTS = 30
"""Status writes tried before the kubelet gives up on one phase change."""

register_stage("kubelet.start", "", "The (simulated) kubelet started the pod's containers: phase Running.")
register_stage("kubelet.complete", "", "The pod's work is done: phase Succeeded. The assigned-pod watch drops it and the cache frees its resources.")


@attrs.define(eq=False)
class KubeletSim:
    """One process standing in for the kubelets of every node."""

    client: Any
    startup_delay: float = 1.0
    #: also report the pod Ready (condition ``Ready=True`` with the time it started): set in
    #: worlds that run the controller manager, whose controllers count ready and available pods
    #: (off elsewhere, so the traces of the scheduler-only scenarios stay as they were)
    report_ready: bool = False
    process: sim.Process | None = None
    started: set[str] = attrs.field(factory=set)
    errors: list[str] = attrs.field(factory=list)  # API errors it survived (for tests and views)

    def run(self) -> None:
        """Watch bound pods and play them out (runs forever in its goroutine).

        As a reflector does (``wait.Until(r.ListAndWatch, r.period)`` with ``period`` = 1 s): a
        failed list or watch, or an ERROR event (e.g. "too old resource version"), ends one
        ``list_and_watch`` and a relist follows a second later; a watch the server closes is
        re-opened from the last resource version seen. An API error never ends this process.
        """
        while True:
            try:
                self.list_and_watch()
            except StatusError as err:
                self.errors.append(str(err))
            sim.sleep(RELIST_PERIOD)

    def list_and_watch(self) -> None:
        """One list, then watches from the listed resource version until one fails."""
        pods = self.client.core_v1().pods("").list(field_selector="spec.nodeName!=", resource_version="")
        for pod in pods.items:
            self._observe(pod)
        rv = pods.metadata.resource_version
        while True:
            w = self.client.core_v1().pods("").watch(field_selector="spec.nodeName!=", resource_version=rv)
            while True:
                event, ok = w.result_chan().recv()
                if not ok:
                    break  # closed by the server: watch again from rv
                if event.type == ERROR:
                    self.errors.append(f"watch error event: {getattr(event.object, 'message', event.object)}")
                    return  # relist
                if event.type in (ADDED, MODIFIED, DELETED):
                    rv = event.object.metadata.resource_version or rv
                if event.type in (ADDED, MODIFIED):
                    self._observe(event.object)

    def _observe(self, pod: Pod) -> None:
        # (the phase first: the list at start holds every bound pod, nearly all Running, and
        # needs no key for them)
        if pod.status.phase != "Pending" or pod.metadata.deletion_timestamp is not None:
            return
        key = f"{pod.metadata.namespace}/{pod.metadata.name}"
        if key in self.started:
            return
        self.started.add(key)
        sim.go(self._play, pod.metadata.namespace, pod.metadata.name, name=f"kubelet {key}")

    def _play(self, namespace: str, name: str) -> None:
        sim.sleep(self.startup_delay)
        pod = self._set_phase(namespace, name, POD_RUNNING)
        if pod is None:
            return
        emit("kubelet.start", f"{namespace}/{name} is Running on {pod.spec.node_name}",
             data={"pod": f"{namespace}/{name}", "node": pod.spec.node_name})
        run_seconds = pod.metadata.annotations.get(RUN_SECONDS_ANNOTATION)
        if run_seconds is None:
            return
        sim.sleep(float(run_seconds))
        if self._set_phase(namespace, name, POD_SUCCEEDED) is not None:
            emit("kubelet.complete", f"{namespace}/{name} Succeeded",
                 data={"pod": f"{namespace}/{name}"})

    def _set_phase(self, namespace: str, name: str, phase: str) -> Pod | None:
        """Write ``phase`` to the pod's status; None when the pod is gone or being deleted.

        A Conflict (the scheduler's own status writes) is retried at once with a fresh read;
        any other API error after ``RELIST_PERIOD`` (the kubelet's status manager retries too).
        """
        pods = self.client.core_v1().pods(namespace)
        conflicts = 0
        for _ in range(STATUS_ATTEMPTS):
            try:
                pod = pods.get(name)
                if pod.metadata.deletion_timestamp is not None:
                    return None
                status = attrs.evolve(pod.status, phase=phase)
                if self.report_ready and phase == POD_RUNNING:
                    _, status = update_pod_condition(status, PodCondition(type=POD_READY, status=CONDITION_TRUE),
                                                     now=sim.now())
                return pods.update_status(attrs.evolve(pod, status=status))
            except StatusError as err:
                if is_not_found(err):
                    return None
                if is_conflict(err) and conflicts < 5:
                    conflicts += 1
                    continue
                self.errors.append(str(err))
                sim.sleep(RELIST_PERIOD)
        return None


def start_kubelet_sim(runtime: sim.Runtime, client: Any, startup_delay: float = 1.0, *,
                      report_ready: bool = False) -> KubeletSim:
    """Start the kubelet simulation in a process of its own."""
    kubelet = KubeletSim(client=client, startup_delay=startup_delay, report_ready=report_ready)
    kubelet.process = runtime.new_process("kubelet-sim")
    runtime.go(kubelet.run, name="kubelet-sim watch", process=kubelet.process)
    return kubelet
