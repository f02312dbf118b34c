"""Fake listers over plain lists of API objects, for tests and examples.

Go: plugin/pkg/scheduler/testing/fake_lister.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/testing/fake_lister.go
plus the node/PV/PVC info fakes that v1.6.1 declares inside
plugin/pkg/scheduler/algorithm/predicates/predicates_test.go
(``FakeNodeInfo``, ``FakeNodeListInfo``, ``FakePersistentVolumeClaimInfo``, ``FakePersistentVolumeInfo``).

Differs from Go: Go's slice types (``type FakePodLister []*v1.Pod``) become small frozen
classes holding a tuple; construct them from any iterable: ``FakePodLister([pod1, pod2])``.
Go's ``(T, error)`` returns become ``T`` or a raised ``LookupError`` carrying Go's message.
``FakePersistentVolumeClaimLister`` is a later Go addition kept here for convenience.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Iterator, Mapping

import attrs

from kschedlearn.apimachinery import labels
from kschedlearn.apimachinery.apis.meta import v1 as metav1

if TYPE_CHECKING:
    from kschedlearn.api.v1 import (
        Node,
        PersistentVolume,
        PersistentVolumeClaim,
        Pod,
        ReplicaSet,
        ReplicationController,
        Service,
        StatefulSet,
    )


def _go_map(m: Mapping[str, str]) -> str:
    """Format a string map as Go's ``%v`` prints it (``map[k1:v1 k2:v2]``, keys sorted)."""
    return "map[" + " ".join(f"{k}:{m[k]}" for k in sorted(m)) + "]"


def _items(value: Iterable[Any]) -> tuple:
    return tuple(value)


@attrs.frozen
class _FakeList:
    """Shared body of the slice-like fakes: iterable, sized, indexable."""

    items: tuple = attrs.field(converter=_items, factory=tuple)

    def __iter__(self) -> Iterator[Any]:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, i: int) -> Any:
        return self.items[i]


class FakeNodeLister(_FakeList):
    """Go: testing.FakeNodeLister — lists the nodes it was given."""

    def list(self) -> "list[Node]":
        """Go: FakeNodeLister.List"""
        return list(self.items)


class FakePodLister(_FakeList):
    """Go: testing.FakePodLister — lists the pods whose labels match the selector."""

    def list(self, selector: "labels.Selector") -> "list[Pod]":
        """Go: FakePodLister.List"""
        return [pod for pod in self.items if selector.matches(pod.metadata.labels)]


class FakeServiceLister(_FakeList):
    """Go: testing.FakeServiceLister"""

    def list(self, selector: "labels.Selector") -> "list[Service]":
        """Go: FakeServiceLister.List — every service, the selector is ignored (as in Go)."""
        return list(self.items)

    def get_pod_services(self, pod: "Pod") -> "list[Service]":
        """Services in the pod's namespace whose selector matches the pod's labels.

        Go: FakeServiceLister.GetPodServices (never an error, possibly empty).
        """
        services = []
        for service in self.items:
            if service.metadata.namespace != pod.metadata.namespace:
                continue
            selector = labels.selector_from_set(service.spec.selector)
            if selector.matches(pod.metadata.labels):
                services.append(service)
        return services


class FakeControllerLister(_FakeList):
    """Go: testing.FakeControllerLister"""

    def list(self, selector: "labels.Selector") -> "list[ReplicationController]":
        """Go: FakeControllerLister.List — every controller, the selector is ignored."""
        return list(self.items)

    def get_pod_controllers(self, pod: "Pod") -> "list[ReplicationController]":
        """RCs in the pod's namespace whose selector matches the pod; raises when none do.

        Go: FakeControllerLister.GetPodControllers
        """
        controllers = []
        for controller in self.items:
            if controller.metadata.namespace != pod.metadata.namespace:
                continue
            selector = labels.selector_from_set(controller.spec.selector)
            if selector.matches(pod.metadata.labels):
                controllers.append(controller)
        if not controllers:
            raise LookupError(
                f"Could not find Replication Controller for pod {pod.metadata.name} in namespace "
                f"{pod.metadata.namespace} with labels: {_go_map(pod.metadata.labels)}"
            )
        return controllers


class FakeReplicaSetLister(_FakeList):
    """Go: testing.FakeReplicaSetLister"""

    def get_pod_replica_sets(self, pod: "Pod") -> "list[ReplicaSet]":
        """ReplicaSets in the pod's namespace whose selector matches the pod; raises when none do.

        Go: FakeReplicaSetLister.GetPodReplicaSets
        """
        rss = []
        for rs in self.items:
            if rs.metadata.namespace != pod.metadata.namespace:
                continue
            selector = metav1.label_selector_as_selector(rs.spec.selector)
            if selector.matches(pod.metadata.labels):
                rss.append(rs)
        if not rss:
            raise LookupError(
                f"Could not find ReplicaSet for pod {pod.metadata.name} in namespace "
                f"{pod.metadata.namespace} with labels: {_go_map(pod.metadata.labels)}"
            )
        return rss


class FakeStatefulSetLister(_FakeList):
    """Go: testing.FakeStatefulSetLister"""

    def get_pod_stateful_sets(self, pod: "Pod") -> "list[StatefulSet]":
        """StatefulSets in the pod's namespace whose selector matches the pod; raises when none do.

        Go: FakeStatefulSetLister.GetPodStatefulSets
        """
        sss = []
        for ss in self.items:
            if ss.metadata.namespace != pod.metadata.namespace:
                continue
            selector = metav1.label_selector_as_selector(ss.spec.selector)
            if selector.matches(pod.metadata.labels):
                sss.append(ss)
        if not sss:
            raise LookupError(
                f"Could not find StatefulSet for pod {pod.metadata.name} in namespace "
                f"{pod.metadata.namespace} with labels: {_go_map(pod.metadata.labels)}"
            )
        return sss


class FakePersistentVolumeClaimLister(_FakeList):
    """Go (later versions): testing.FakePersistentVolumeClaimLister, reduced to ``get``.

    kschedlearn-only in 1.6 (1.6's tests build PVC infos inline).
    """

    def get(self, namespace: str, name: str) -> "PersistentVolumeClaim":
        """Return the claim ``namespace/name`` or raise ``LookupError``."""
        for pvc in self.items:
            if pvc.metadata.name == name and pvc.metadata.namespace == namespace:
                return pvc
        raise LookupError(f'persistentvolumeclaim "{name}" not found')


@attrs.frozen
class FakeNodeInfo:
    """A node-info getter that answers every name with the same node.

    Go: predicates_test.go ``FakeNodeInfo`` (GetNodeInfo ignores the name).
    """

    node: "Node"

    def get_node_info(self, node_name: str) -> "Node":
        """Go: FakeNodeInfo.GetNodeInfo"""
        return self.node


class FakeNodeListInfo(_FakeList):
    """A node-info getter over a list of nodes, looked up by name.

    Go: predicates_test.go ``FakeNodeListInfo``
    """

    def get_node_info(self, node_name: str) -> "Node":
        """Go: FakeNodeListInfo.GetNodeInfo — raises ``Unable to find node: <name>``."""
        for node in self.items:
            if node.metadata.name == node_name:
                return node
        raise LookupError(f"Unable to find node: {node_name}")


class FakePersistentVolumeClaimInfo(_FakeList):
    """Go: predicates_test.go ``FakePersistentVolumeClaimInfo``"""

    def get_persistent_volume_claim_info(self, namespace: str, pvc_id: str) -> "PersistentVolumeClaim":
        """Go: FakePersistentVolumeClaimInfo.GetPersistentVolumeClaimInfo"""
        for pvc in self.items:
            if pvc.metadata.name == pvc_id and pvc.metadata.namespace == namespace:
                return pvc
        raise LookupError(f"Unable to find persistent volume claim: {namespace}/{pvc_id}")


class FakePersistentVolumeInfo(_FakeList):
    """Go: predicates_test.go ``FakePersistentVolumeInfo``"""

    def get_persistent_volume_info(self, pv_id: str) -> "PersistentVolume":
        """Go: FakePersistentVolumeInfo.GetPersistentVolumeInfo"""
        for pv in self.items:
            if pv.metadata.name == pv_id:
                return pv
        raise LookupError(f"Unable to find persistent volume: {pv_id}")


# Short aliases named in the project brief.
FakePVInfo = FakePersistentVolumeInfo
FakePVCInfo = FakePersistentVolumeClaimInfo
