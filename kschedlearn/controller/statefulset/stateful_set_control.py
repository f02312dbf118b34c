"""The StatefulSet's ordered control loop: create in order, one at a time; delete from the top.

Go: pkg/controller/statefulset/stateful_set_control.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/controller/statefulset/stateful_set_control.go

Each call does at most one create or one delete: pod ``n`` is created only once pods
``0 … n-1`` are Running and Ready; condemned pods (ordinal ≥ replicas) go from the highest
ordinal down, and only when every pod is healthy. So a StatefulSet's pods reach the scheduler
one by one, each after its predecessor runs.

Differs from Go: values are frozen (Go builds and sorts slices of pointers the same way).
"""

from __future__ import annotations

from typing import Any, Protocol

import attrs

from kschedlearn.apimachinery._gosort import sort_by_less
from kschedlearn.controller.statefulset.stateful_set_utils import (
    ascending_ordinal_less,
    get_ordinal,
    identity_matches,
    is_created,
    is_failed,
    is_healthy,
    is_running_and_ready,
    new_stateful_set_pod,
    storage_matches,
)
from kschedlearn.trace import glog


class StatefulSetControlInterface(Protocol):
    """Go: ``StatefulSetControlInterface`` — stateful_set_control.go#L30-L39."""

    def update_stateful_set(self, set_: Any, pods: list[Any]) -> None: ...


def new_default_stateful_set_control(pod_control: Any) -> DefaultStatefulSetControl:
    """Go: ``NewDefaultStatefulSetControl`` — stateful_set_control.go#L41-L47."""
    return DefaultStatefulSetControl(pod_control)


@attrs.define(eq=False)
class DefaultStatefulSetControl:
    """Go: ``defaultStatefulSetControl`` — stateful_set_control.go#L49-L51."""

    pod_control: Any

    def update_stateful_set(self, set_: Any, pods: list[Any]) -> None:
        """Go: ``UpdateStatefulSet`` — stateful_set_control.go#L53-L171."""
        replica_count = set_.spec.replicas
        # slice that will contain all Pods such that 0 <= getOrdinal(pod) < set.Spec.Replicas
        replicas: list[Any] = [None] * replica_count
        # slice that will contain all Pods such that set.Spec.Replicas <= getOrdinal(pod)
        condemned: list[Any] = []
        ready = 0
        unhealthy = 0
        # First we partition pods into two lists valid replicas and condemned Pods
        for pod in pods:
            # count the number of running and ready replicas
            if is_running_and_ready(pod):
                ready += 1
            ord_ = get_ordinal(pod)
            if 0 <= ord_ < replica_count:
                # insert it at the indirection of its ordinal
                replicas[ord_] = pod
            elif ord_ >= replica_count:
                # if the ordinal is greater than the number of replicas add it to the condemned list
                condemned.append(pod)
            # If the ordinal could not be parsed (ord < 0), ignore the Pod.
        # for any empty indices in the sequence [0,set.Spec.Replicas) create a new Pod
        for ord_ in range(replica_count):
            if replicas[ord_] is None:
                replicas[ord_] = new_stateful_set_pod(set_, ord_)
        # count the number of unhealthy pods
        for replica in replicas:
            if not is_healthy(replica):
                unhealthy += 1
        for pod in condemned:
            if not is_healthy(pod):
                unhealthy += 1
        # sort the condemned Pods by their ordinals
        sort_by_less(condemned, ascending_ordinal_less)
        # if the current number of replicas has changed update the statefulSets replicas
        if (set_.status.replicas != ready or set_.status.observed_generation is None
                or set_.metadata.generation > set_.status.observed_generation):
            self.pod_control.update_stateful_set_status(set_, ready, set_.metadata.generation)
        # If the StatefulSet is being deleted, don't do anything other than updating status.
        if set_.metadata.deletion_timestamp is not None:
            return
        # Examine each replica with respect to its ordinal
        for i in range(len(replicas)):
            # delete and recreate failed pods
            if is_failed(replicas[i]):
                glog.v(2).infof("StatefulSet %s is recreating failed Pod %s", set_.metadata.name,
                                replicas[i].metadata.name)
                self.pod_control.delete_stateful_pod(set_, replicas[i])
                replicas[i] = new_stateful_set_pod(set_, i)
            # If we find a Pod that has not been created we create the Pod immediately and return
            if not is_created(replicas[i]):
                self.pod_control.create_stateful_pod(set_, replicas[i])
                return
            # If we have a Pod that has been created but is not running and ready we can not make progress.
            if not is_running_and_ready(replicas[i]):
                glog.v(2).infof("StatefulSet %s is waiting for Pod %s to be Running and Ready", set_.metadata.name,
                                replicas[i].metadata.name)
                return
            # Enforce the StatefulSet invariants
            if identity_matches(set_, replicas[i]) and storage_matches(set_, replicas[i]):
                continue
            self.pod_control.update_stateful_pod(set_, replicas[i])
        # At this point, all of the current Replicas are Running and Ready, we can consider termination.
        # We will terminate Pods in a monotonically decreasing order over [len(pods),set.Spec.Replicas).
        if unhealthy > 0:
            glog.v(2).infof("StatefulSet %s is waiting on %d Pods", set_.metadata.name, unhealthy)
            return
        target = len(condemned) - 1
        if target >= 0:
            glog.v(2).infof("StatefulSet %s terminating Pod %s", set_.metadata.name, condemned[target].metadata.name)
            self.pod_control.delete_stateful_pod(set_, condemned[target])


__all__ = ["DefaultStatefulSetControl", "StatefulSetControlInterface", "new_default_stateful_set_control"]
