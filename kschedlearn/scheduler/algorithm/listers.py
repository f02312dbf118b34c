"""Read-only views of cluster objects that predicates and priorities consult.

Go: the lister interfaces of plugin/pkg/scheduler/algorithm/types.go (a file of their own,
listers.go, only from 1.7)
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/types.go

Differs from Go: Go interfaces become ``typing.Protocol`` classes; methods that return
``(T, error)`` return ``T`` and raise on error. The fake listers of Go's test package live in
``kschedlearn.scheduler.testing.fake_lister`` (Go: plugin/pkg/scheduler/testing).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from kschedlearn.api.v1 import Node, Pod, ReplicaSet, ReplicationController, Service, StatefulSet
    from kschedlearn.apimachinery.labels import Selector


@runtime_checkable
class NodeLister(Protocol):
    """Anything that can list the nodes to schedule onto.

    Go: algorithm.NodeLister (``List() ([]*v1.Node, error)``)
    """

    def list(self) -> "list[Node]": ...


@runtime_checkable
class PodLister(Protocol):
    """Anything that can list pods matching a label selector (in the scheduler: the cache).

    Go: algorithm.PodLister (``List(labels.Selector) ([]*v1.Pod, error)``)
    """

    def list(self, selector: "Selector") -> "list[Pod]": ...


@runtime_checkable
class ServiceLister(Protocol):
    """Lists services, and finds the services whose selector matches a pod.

    Go: algorithm.ServiceLister
    """

    def list(self, selector: "Selector") -> "list[Service]": ...

    def get_pod_services(self, pod: "Pod") -> "list[Service]": ...


@runtime_checkable
class ControllerLister(Protocol):
    """Lists replication controllers, and finds those whose selector matches a pod.

    Go: algorithm.ControllerLister
    """

    def list(self, selector: "Selector") -> "list[ReplicationController]": ...

    def get_pod_controllers(self, pod: "Pod") -> "list[ReplicationController]": ...


@runtime_checkable
class ReplicaSetLister(Protocol):
    """Finds the ReplicaSets whose selector matches a pod.

    Go: algorithm.ReplicaSetLister
    """

    def get_pod_replica_sets(self, pod: "Pod") -> "list[ReplicaSet]": ...


@runtime_checkable
class StatefulSetLister(Protocol):
    """Finds the StatefulSets whose selector matches a pod.

    Go: algorithm.StatefulSetLister
    """

    def get_pod_stateful_sets(self, pod: "Pod") -> "list[StatefulSet]": ...


class EmptyControllerLister:
    """A ControllerLister that knows no controllers (used by ServiceSpreadingPriority).

    Go: algorithm.EmptyControllerLister
    Differs from Go: Go returns ``nil, nil``; here an empty list.
    """

    def list(self, selector: "Selector") -> "list[ReplicationController]":
        """Go: EmptyControllerLister.List — always empty."""
        return []

    def get_pod_controllers(self, pod: "Pod") -> "list[ReplicationController]":
        """Go: EmptyControllerLister.GetPodControllers — always empty, never an error."""
        return []


class EmptyReplicaSetLister:
    """A ReplicaSetLister that knows no ReplicaSets.

    Go: algorithm.EmptyReplicaSetLister
    """

    def get_pod_replica_sets(self, pod: "Pod") -> "list[ReplicaSet]":
        """Go: EmptyReplicaSetLister.GetPodReplicaSets — always empty."""
        return []


class EmptyStatefulSetLister:
    """A StatefulSetLister that knows no StatefulSets.

    Go: algorithm.EmptyStatefulSetLister
    """

    def get_pod_stateful_sets(self, pod: "Pod") -> "list[StatefulSet]":
        """Go: EmptyStatefulSetLister.GetPodStatefulSets — always empty."""
        return []
