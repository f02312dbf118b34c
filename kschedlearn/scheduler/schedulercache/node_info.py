"""NodeInfo: what the scheduler knows about one node, aggregated from the node and its pods.

Go: plugin/pkg/scheduler/schedulercache/node_info.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/node_info.go#L30-L392

A ``NodeInfo`` holds the node object (maybe none yet: pod events and node events come over
different watches), every pod placed there -- confirmed *and* merely assumed -- and running sums
of their requests, so that predicates and priorities never re-add containers. Every change bumps
``generation``; the scheduler's per-cycle snapshot re-clones only NodeInfos whose generation moved
(``SchedulerCache.update_node_name_to_info_map``).

1.6 has no ``usedPorts`` field here (host ports are recomputed by PodFitsHostPorts).

Differs from Go:
- Go's accessors can be called on a nil ``*NodeInfo``; Python cannot call a method on ``None``,
  so each nil-safe accessor also exists as a module-level function of the same name taking
  ``NodeInfo | None`` (``node_info.pods(None) == ()``).
- Go's ``(T, error)`` results raise instead; ``fmt.Errorf`` values become :class:`CacheError`.
- Resources absent from a Go nil map and from an allocated empty map look the same here.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

import attrs

from kschedlearn.apimachinery._goint import int64
from kschedlearn.apimachinery.util.runtime import GoPanic, NilPointerDereference  # re-exported: the cache raises them
from kschedlearn.api import v1
from kschedlearn.scheduler.algorithm.priorities.util.non_zero import get_nonzero_requests
from kschedlearn.scheduler.schedulercache.reconcile_affinity import reconcile_affinity

if TYPE_CHECKING:
    from kschedlearn.api.resource import Quantity
    from kschedlearn.api.v1 import Node, Pod, Taint

#: Go: v1.ConditionUnknown (re-exported for the nil-safe accessors' callers)
CONDITION_UNKNOWN = v1.CONDITION_UNKNOWN


class CacheError(Exception):
    """An error the cache returns (Go: a ``fmt.Errorf`` value); the message is Go's, verbatim.

    Differs from Go: Go returns plain ``error`` values; Python raises this class.
    """


@attrs.define
class Resource:
    """Summed compute resources: millicores, bytes, GPUs and opaque integer resources.

    Go: type Resource struct (node_info.go)
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/node_info.go#L65-L71
    """

    milli_cpu: int = 0
    memory: int = 0
    nvidia_gpu: int = 0
    opaque_int_resources: dict[str, int] = attrs.field(factory=dict)

    def resource_list(self) -> dict[str, Quantity]:
        """Turn the sums back into a resource list of quantities.

        Go: func (r *Resource) ResourceList() v1.ResourceList
        https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/node_info.go#L73-L83
        """
        from kschedlearn.api.resource import (  # noqa: PLC0415 - only this helper needs them
            BINARY_SI,
            DECIMAL_SI,
            new_milli_quantity,
            new_quantity,
        )

        result = {
            v1.RESOURCE_CPU: new_milli_quantity(self.milli_cpu, DECIMAL_SI),
            v1.RESOURCE_MEMORY: new_quantity(self.memory, BINARY_SI),
            v1.RESOURCE_NVIDIA_GPU: new_quantity(self.nvidia_gpu, DECIMAL_SI),
        }
        for r_name, r_quant in self.opaque_int_resources.items():
            result[r_name] = new_quantity(r_quant, DECIMAL_SI)
        return result

    def clone(self) -> Resource:
        """Copy, including a fresh opaque-resource map.

        Go: func (r *Resource) Clone() *Resource
        https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/node_info.go#L85-L96
        """
        # positional, in field order: three priorities copy the pod's request once per node
        return Resource(self.milli_cpu, self.memory, self.nvidia_gpu, dict(self.opaque_int_resources))

    def add_opaque(self, name: str, quantity: int) -> None:
        """Go: func (r *Resource) AddOpaque(name v1.ResourceName, quantity int64)

        https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/node_info.go#L98-L100
        """
        self.set_opaque(name, int64(self.opaque_int_resources.get(name, 0) + quantity))

    def set_opaque(self, name: str, quantity: int) -> None:
        """Go: func (r *Resource) SetOpaque(name v1.ResourceName, quantity int64)

        https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/node_info.go#L102-L108
        """
        self.opaque_int_resources[name] = quantity

    def go_string(self) -> str:
        """Go's ``%#v`` rendering of a ``*Resource``, used by ``NodeInfo.__str__``."""
        if self.opaque_int_resources:
            inner = ", ".join(f'"{k}":{v}' for k, v in self.opaque_int_resources.items())
            opaque = f"map[v1.ResourceName]int64{{{inner}}}"
        else:
            opaque = "map[v1.ResourceName]int64(nil)"
        return (
            f"&schedulercache.Resource{{MilliCPU:{self.milli_cpu}, Memory:{self.memory}, "
            f"NvidiaGPU:{self.nvidia_gpu}, OpaqueIntResources:{opaque}}}"
        )


@attrs.frozen(eq=False, repr=False)
class ResourceView:
    """A read-only copy of a :class:`Resource`, what a reader of Go's by-value ``Resource`` gets.

    Go: the ``Resource`` value that NodeInfo.RequestedResource() & co. return
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/node_info.go#L65-L71
    Differs from Go: immutable, so one view serves every caller until the NodeInfo changes
    (its ``generation`` moves) instead of a fresh copy per call; equal to a ``Resource`` with
    the same fields; ``clone()`` gives a mutable ``Resource``.
    """

    milli_cpu: int = 0
    memory: int = 0
    nvidia_gpu: int = 0
    opaque_int_resources: Mapping[str, int] = attrs.field(factory=lambda: MappingProxyType({}))

    @classmethod
    def of(cls, r: Resource) -> ResourceView:
        """Freeze the current values of ``r`` (kschedlearn-only)."""
        return cls(r.milli_cpu, r.memory, r.nvidia_gpu, MappingProxyType(dict(r.opaque_int_resources)))

    def clone(self) -> Resource:
        """Go: func (r *Resource) Clone() *Resource — a mutable copy."""
        return Resource(self.milli_cpu, self.memory, self.nvidia_gpu, dict(self.opaque_int_resources))

    def resource_list(self) -> dict[str, Quantity]:
        """Go: func (r *Resource) ResourceList() v1.ResourceList"""
        return self.clone().resource_list()

    def go_string(self) -> str:
        """Go's ``%#v`` rendering (as ``Resource.go_string``)."""
        return self.clone().go_string()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, (Resource, ResourceView)):
            return NotImplemented
        return (self.milli_cpu, self.memory, self.nvidia_gpu, dict(self.opaque_int_resources)) == (
            other.milli_cpu, other.memory, other.nvidia_gpu, dict(other.opaque_int_resources))

    __hash__ = None  # type: ignore[assignment] - equal to a mutable Resource, so unhashable

    def __repr__(self) -> str:
        # prints as the Resource it is a view of (what learners saw before views existed)
        return repr(self.clone())


@attrs.define(eq=False)
class NodeInfo:
    """Node-level aggregate: the node, its pods, and their summed requests.

    Go: type NodeInfo struct (node_info.go)
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/node_info.go#L32-L63
    Differs from Go: private fields carry a leading underscore; ``generation`` is public as the
    contract says (Go tests and the cache read it directly).
    """

    _node: Node | None = None
    _pods: list[Pod] = attrs.field(factory=list)
    _pods_with_affinity: list[Pod] = attrs.field(factory=list)
    _requested_resource: Resource = attrs.field(factory=Resource)
    _nonzero_request: Resource = attrs.field(factory=Resource)
    _allocatable_resource: Resource = attrs.field(factory=Resource)
    _allowed_pod_number: int = 0
    _taints: tuple[Taint, ...] = ()
    _taints_err: Exception | None = None
    # Go's zero ConditionStatus is "", not "Unknown": a NodeInfo that never saw a node says "".
    _memory_pressure_condition: str = ""
    _disk_pressure_condition: str = ""
    generation: int = 0
    # kschedlearn-only: the read-only resource views, valid while generation == _views_generation
    _views_generation: int = attrs.field(default=-1, init=False, repr=False, metadata={"memo": True})
    _views: tuple[ResourceView, ResourceView, ResourceView] | None = attrs.field(
        default=None, init=False, repr=False, metadata={"memo": True})

    def _resource_views(self) -> tuple[ResourceView, ResourceView, ResourceView]:
        """(requested, nonzero, allocatable) frozen at this generation; refreshed after a change."""
        if self._views is None or self._views_generation != self.generation:
            self._views = (ResourceView.of(self._requested_resource), ResourceView.of(self._nonzero_request),
                           ResourceView.of(self._allocatable_resource))
            self._views_generation = self.generation
        return self._views

    # --- accessors (Go: Node(), Pods(), ...) -------------------------------------------------

    def node(self) -> Node | None:
        """Go: func (n *NodeInfo) Node() *v1.Node

        https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/node_info.go#L127-L133
        """
        return self._node

    def pods(self) -> list[Pod]:
        """All pods on this node, assumed ones included.

        Go: func (n *NodeInfo) Pods() []*v1.Pod
        https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/node_info.go#L135-L141
        """
        return self._pods

    def pods_with_affinity(self) -> list[Pod]:
        """Pods with pod (anti-)affinity.

        Go: func (n *NodeInfo) PodsWithAffinity() []*v1.Pod
        https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/node_info.go#L143-L149
        """
        return self._pods_with_affinity

    def allowed_pod_number(self) -> int:
        """Go: func (n *NodeInfo) AllowedPodNumber() int

        https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/node_info.go#L151-L156
        """
        return self._allowed_pod_number

    def taints(self) -> tuple[Taint, ...]:
        """Go: func (n *NodeInfo) Taints() ([]v1.Taint, error) -- the error is always nil in 1.6.

        https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/node_info.go#L158-L163
        """
        if self._taints_err is not None:
            raise self._taints_err
        return self._taints

    def memory_pressure_condition(self) -> str:
        """Go: func (n *NodeInfo) MemoryPressureCondition() v1.ConditionStatus

        https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/node_info.go#L165-L170
        """
        return self._memory_pressure_condition

    def disk_pressure_condition(self) -> str:
        """Go: func (n *NodeInfo) DiskPressureCondition() v1.ConditionStatus

        https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/node_info.go#L172-L177
        """
        return self._disk_pressure_condition

    def requested_resource(self) -> ResourceView:
        """Sum of the pods' requests.

        Go: func (n *NodeInfo) RequestedResource() Resource
        https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/node_info.go#L179-L185

        Differs from Go: Go returns a copy of the struct (sharing the opaque map); Python
        returns a read-only :class:`ResourceView`, so callers cannot change the cache by
        accident, shared by all callers until the NodeInfo changes.
        """
        return self._resource_views()[0]

    def nonzero_request(self) -> ResourceView:
        """Sum with defaults for missing cpu/memory.

        Go: func (n *NodeInfo) NonZeroRequest() Resource
        https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/node_info.go#L187-L193
        Differs from Go: returns a read-only view (see ``requested_resource``).
        """
        return self._resource_views()[1]

    def allocatable_resource(self) -> ResourceView:
        """Go: func (n *NodeInfo) AllocatableResource() Resource

        https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/node_info.go#L195-L201
        Differs from Go: returns a read-only view (see ``requested_resource``).
        """
        return self._resource_views()[2]

    def clone(self) -> NodeInfo:
        """Copy with fresh resource structs and shallow copies of the pod and taint lists.

        Go: func (n *NodeInfo) Clone() *NodeInfo
        https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/node_info.go#L203-L225
        """
        return NodeInfo(
            node=self._node,
            pods=list(self._pods),
            pods_with_affinity=list(self._pods_with_affinity),
            requested_resource=self._requested_resource.clone(),
            nonzero_request=self._nonzero_request.clone(),
            allocatable_resource=self._allocatable_resource.clone(),
            allowed_pod_number=self._allowed_pod_number,
            taints=tuple(self._taints),
            taints_err=self._taints_err,
            memory_pressure_condition=self._memory_pressure_condition,
            disk_pressure_condition=self._disk_pressure_condition,
            generation=self.generation,
        )

    def __str__(self) -> str:
        """Go: func (n *NodeInfo) String() string

        https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/node_info.go#L227-L234
        """
        names = " ".join(pod.metadata.name for pod in self._pods)
        return (
            f"&NodeInfo{{Pods:[{names}], "
            f"RequestedResource:{self._requested_resource.go_string()}, "
            f"NonZeroRequest: {self._nonzero_request.go_string()}}}"
        )

    # --- mutation ------------------------------------------------------------------------------

    def add_pod(self, pod: Pod) -> None:
        """Add the pod and its requests to the sums; bump the generation.

        Go: func (n *NodeInfo) addPod(pod *v1.Pod)
        https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/node_info.go#L241-L260
        Differs from Go: unexported in Go (only the cache calls it); public here as the
        contract lists it, because tests and the exercise checker build NodeInfos directly.
        """
        res, non0_cpu, non0_mem = calculate_resource(pod)
        self._requested_resource.milli_cpu = int64(self._requested_resource.milli_cpu + res.milli_cpu)
        self._requested_resource.memory = int64(self._requested_resource.memory + res.memory)
        self._requested_resource.nvidia_gpu = int64(self._requested_resource.nvidia_gpu + res.nvidia_gpu)
        for r_name, r_quant in res.opaque_int_resources.items():
            self._requested_resource.add_opaque(r_name, r_quant)
        self._nonzero_request.milli_cpu = int64(self._nonzero_request.milli_cpu + non0_cpu)
        self._nonzero_request.memory = int64(self._nonzero_request.memory + non0_mem)
        self._pods.append(pod)
        if _has_pod_affinity_constraints(pod):
            self._pods_with_affinity.append(pod)
        self.generation += 1

    def remove_pod(self, pod: Pod) -> None:
        """Remove the pod with the same key and subtract *the given pod's* requests.

        Removal swaps the last pod into the hole, so pod order changes (as in Go).

        Go: func (n *NodeInfo) removePod(pod *v1.Pod) error
        https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/node_info.go#L262-L311
        1.6 quirk: when the pod is not found Go builds its error from ``n.node.Name``; on a
        NodeInfo that has no node object that read is a nil dereference, i.e. a panic.
        """
        k1 = get_pod_key(pod)
        for i, other in enumerate(self._pods_with_affinity):
            if get_pod_key(other) == k1:
                self._pods_with_affinity[i] = self._pods_with_affinity[-1]
                self._pods_with_affinity.pop()
                break
        for i, other in enumerate(self._pods):
            if get_pod_key(other) == k1:
                self._pods[i] = self._pods[-1]
                self._pods.pop()
                res, non0_cpu, non0_mem = calculate_resource(pod)
                self._requested_resource.milli_cpu = int64(self._requested_resource.milli_cpu - res.milli_cpu)
                self._requested_resource.memory = int64(self._requested_resource.memory - res.memory)
                self._requested_resource.nvidia_gpu = int64(self._requested_resource.nvidia_gpu - res.nvidia_gpu)
                for r_name, r_quant in res.opaque_int_resources.items():
                    self._requested_resource.add_opaque(r_name, -r_quant)
                self._nonzero_request.milli_cpu = int64(self._nonzero_request.milli_cpu - non0_cpu)
                self._nonzero_request.memory = int64(self._nonzero_request.memory - non0_mem)
                self.generation += 1
                return
        if self._node is None:
            raise NilPointerDereference()
        raise CacheError(
            f"no corresponding pod {pod.metadata.name} in pods of node {self._node.metadata.name}"
        )

    def set_node(self, node: Node) -> None:
        """Record the node: allocatable, allowed pod count, taints, pressure conditions.

        Resources missing from ``allocatable`` keep their old values, and a pressure condition
        that disappears keeps its old status -- Go only overwrites what it sees.

        Go: func (n *NodeInfo) SetNode(node *v1.Node) error
        https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/node_info.go#L338-L371
        """
        self._node = node
        for r_name, r_quant in node.status.allocatable.items():
            if r_name == v1.RESOURCE_CPU:
                self._allocatable_resource.milli_cpu = r_quant.milli_value()
            elif r_name == v1.RESOURCE_MEMORY:
                self._allocatable_resource.memory = r_quant.value()
            elif r_name == v1.RESOURCE_NVIDIA_GPU:
                self._allocatable_resource.nvidia_gpu = r_quant.value()
            elif r_name == v1.RESOURCE_PODS:
                self._allowed_pod_number = r_quant.value()
            elif v1.is_opaque_int_resource_name(r_name):
                self._allocatable_resource.set_opaque(r_name, r_quant.value())
        self._taints = node.spec.taints
        for cond in node.status.conditions:
            if cond.type == v1.NODE_MEMORY_PRESSURE:
                self._memory_pressure_condition = cond.status
            elif cond.type == v1.NODE_DISK_PRESSURE:
                self._disk_pressure_condition = cond.status
            # other condition types are not cached
        self.generation += 1

    def remove_node(self, node: Node) -> None:
        """Forget the node object but keep the pods (their delete events may still be coming).

        Go: func (n *NodeInfo) RemoveNode(node *v1.Node) error
        https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/node_info.go#L373-L387
        """
        self._node = None
        self._allocatable_resource = Resource()
        self._allowed_pod_number = 0
        self._taints, self._taints_err = (), None
        self._memory_pressure_condition = CONDITION_UNKNOWN
        self._disk_pressure_condition = CONDITION_UNKNOWN
        self.generation += 1


def new_node_info(*pods: Pod) -> NodeInfo:
    """An empty NodeInfo (generation 0) with the given pods added.

    Go: func NewNodeInfo(pods ...*v1.Pod) *NodeInfo
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/node_info.go#L110-L125
    """
    ni = NodeInfo()
    for pod in pods:
        ni.add_pod(pod)
    return ni


def _has_pod_affinity_constraints(pod: Pod) -> bool:
    """Go: func hasPodAffinityConstraints(pod *v1.Pod) bool

    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/node_info.go#L236-L239
    """
    affinity = reconcile_affinity(pod)
    return affinity is not None and (
        affinity.pod_affinity is not None or affinity.pod_anti_affinity is not None
    )


def calculate_resource(pod: Pod) -> tuple[Resource, int, int]:
    """Sum a pod's requests over its regular containers (init containers are ignored here).

    Returns ``(requests, non_zero_milli_cpu, non_zero_memory)``.

    Go: func calculateResource(pod *v1.Pod) (res Resource, non0_cpu int64, non0_mem int64)
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/node_info.go#L313-L336
    Differs from Go: public (Go's is unexported) so the priorities and tests can reuse it.
    """
    res = Resource()
    non0_cpu = 0
    non0_mem = 0
    for c in pod.spec.containers:
        requests: Mapping[str, Quantity] = c.resources.requests
        for r_name, r_quant in requests.items():
            if r_name == v1.RESOURCE_CPU:
                res.milli_cpu = int64(res.milli_cpu + r_quant.milli_value())
            elif r_name == v1.RESOURCE_MEMORY:
                res.memory = int64(res.memory + r_quant.value())
            elif r_name == v1.RESOURCE_NVIDIA_GPU:
                res.nvidia_gpu = int64(res.nvidia_gpu + r_quant.value())
            elif v1.is_opaque_int_resource_name(r_name):
                res.add_opaque(r_name, r_quant.value())
        non0_cpu_req, non0_mem_req = get_nonzero_requests(requests)
        non0_cpu = int64(non0_cpu + non0_cpu_req)
        non0_mem = int64(non0_mem + non0_mem_req)
        # GPUs and opaque resources get no non-zero default.
    return res, non0_cpu, non0_mem


def get_pod_key(pod: Pod) -> str:
    """The cache's key for a pod: ``namespace/name`` (just ``name`` without a namespace).

    Go: func getPodKey(pod *v1.Pod) (string, error) -- clientcache.MetaNamespaceKeyFunc
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/node_info.go#L389-L392
    Differs from Go: computed here directly; Go's key function can only fail for objects
    without metadata, which a typed Pod always has.
    """
    if pod.metadata.namespace:
        return f"{pod.metadata.namespace}/{pod.metadata.name}"
    return pod.metadata.name


# --- nil-safe accessors: Go allows these calls on a nil *NodeInfo ---------------------------------
# kschedlearn-only detail: each helper returns what the method returns, reading the field (or the
# views memo) itself — one Python call less on the per-node path (the priorities call these ~10
# times per node); the methods stay the mirror's, and nothing swaps them.

def node(n: NodeInfo | None) -> Node | None:
    """Go: (*NodeInfo)(nil).Node() == nil

    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/node_info.go#L127-L133
    """
    return None if n is None else n._node  # noqa: SLF001 - NodeInfo.node()'s body, one call less


def pods(n: NodeInfo | None) -> list[Pod]:
    """Go: (*NodeInfo)(nil).Pods() == nil (an empty list here)

    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/node_info.go#L135-L141
    """
    return [] if n is None else n._pods  # noqa: SLF001 - NodeInfo.pods()'s body


def pods_with_affinity(n: NodeInfo | None) -> list[Pod]:
    """Go: (*NodeInfo)(nil).PodsWithAffinity() == nil (an empty list here)

    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/node_info.go#L143-L149
    """
    return [] if n is None else n._pods_with_affinity  # noqa: SLF001 - the method's body


def allowed_pod_number(n: NodeInfo | None) -> int:
    """Go: (*NodeInfo)(nil).AllowedPodNumber() == 0

    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/node_info.go#L151-L156
    """
    return 0 if n is None else n._allowed_pod_number  # noqa: SLF001 - the method's body


def taints(n: NodeInfo | None) -> tuple[Taint, ...]:
    """Go: (*NodeInfo)(nil).Taints() == (nil, nil)

    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/node_info.go#L158-L163
    """
    return () if n is None else n.taints()


def memory_pressure_condition(n: NodeInfo | None) -> str:
    """Go: (*NodeInfo)(nil).MemoryPressureCondition() == v1.ConditionUnknown

    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/node_info.go#L165-L170
    """
    return CONDITION_UNKNOWN if n is None else n.memory_pressure_condition()


def disk_pressure_condition(n: NodeInfo | None) -> str:
    """Go: (*NodeInfo)(nil).DiskPressureCondition() == v1.ConditionUnknown

    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/node_info.go#L172-L177
    """
    return CONDITION_UNKNOWN if n is None else n.disk_pressure_condition()


def requested_resource(n: NodeInfo | None) -> Resource:
    """Go: (*NodeInfo)(nil).RequestedResource() == Resource{}

    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/node_info.go#L179-L185
    """
    return Resource() if n is None else n._resource_views()[0]  # noqa: SLF001 - the method's body


def nonzero_request(n: NodeInfo | None) -> Resource:
    """Go: (*NodeInfo)(nil).NonZeroRequest() == Resource{}

    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/node_info.go#L187-L193
    """
    return Resource() if n is None else n._resource_views()[1]  # noqa: SLF001 - the method's body


def allocatable_resource(n: NodeInfo | None) -> Resource:
    """Go: (*NodeInfo)(nil).AllocatableResource() == Resource{}

    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/node_info.go#L195-L201
    """
    return Resource() if n is None else n._resource_views()[2]  # noqa: SLF001 - the method's body
