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
from kschedlearn.api.v1 import POD_RUNNING, POD_SUCCEEDED, Pod
from kschedlearn.apimachinery.watch import ADDED, ERROR, MODIFIED
from kschedlearn.trace import emit, register_stage

RUN_SECONDS_ANNOTATION = "kschedlearn.io/run-seconds"

register_stage("kubelet.start", "", "The (simulated) kubelet started the pod's containers: phase Running.")
register_stage("kubelet.complete", "", "The pod's work is done: phase Succeeded. The assigned-pod watch drops it and the cache frees its resources.")


@attrs.define(eq=False)
class KubeletSim:
    """One process standing in for the kubelets of every node."""

    client: Any
    startup_delay: float = 1.0
    process: sim.Process | None = None
    started: set[str] = attrs.field(factory=set)

    def run(self) -> None:
        """Watch bound pods and play them out (runs forever in its goroutine)."""
        rv = ""
        while True:
            pods = self.client.core_v1().pods("").list(field_selector="spec.nodeName!=", resource_version=rv)
            for pod in pods.items:
                self._observe(pod)
            w = self.client.core_v1().pods("").watch(
                field_selector="spec.nodeName!=", resource_version=pods.metadata.resource_version)
            while True:
                event, ok = w.result_chan().recv()
                if not ok:
                    break
                if event.type == ERROR:
                    break
                if event.type in (ADDED, MODIFIED):
                    self._observe(event.object)

    def _observe(self, pod: Pod) -> None:
        key = f"{pod.metadata.namespace}/{pod.metadata.name}"
        if key in self.started or pod.status.phase != "Pending" or pod.metadata.deletion_timestamp is not None:
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
        pods = self.client.core_v1().pods(namespace)
        for _ in range(5):  # retry on conflicts with the scheduler's own status writes
            try:
                pod = pods.get(name)
            except Exception:  # noqa: BLE001 - the pod is gone
                return None
            if pod.metadata.deletion_timestamp is not None:
                return None
            try:
                return pods.update_status(attrs.evolve(pod, status=attrs.evolve(pod.status, phase=phase)))
            except Exception:  # noqa: BLE001 - Conflict: read again
                continue
        return None


def start_kubelet_sim(runtime: sim.Runtime, client: Any, startup_delay: float = 1.0) -> KubeletSim:
    """Start the kubelet simulation in a process of its own."""
    kubelet = KubeletSim(client=client, startup_delay=startup_delay)
    kubelet.process = runtime.new_process("kubelet-sim")
    runtime.go(kubelet.run, name="kubelet-sim watch", process=kubelet.process)
    return kubelet
