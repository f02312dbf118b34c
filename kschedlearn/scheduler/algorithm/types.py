"""Function shapes shared by the scheduling algorithm: predicates, priorities, metadata.

Go: plugin/pkg/scheduler/algorithm/types.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/types.go

Differs from Go: Go function types become ``typing`` aliases (``Callable``) and the
``PredicateFailureReason`` interface becomes a ``typing.Protocol``. Go's triple
``(fit, reasons, err)`` becomes a ``(fit, reasons)`` tuple; the error is raised.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Optional, Protocol, runtime_checkable

import attrs

if TYPE_CHECKING:  # imported only for type hints; avoids import cycles at runtime
    from kschedlearn.api.v1 import Node, Pod
    from kschedlearn.scheduler.schedulercache.node_info import NodeInfo


@runtime_checkable
class PredicateFailureReason(Protocol):
    """Why a predicate said "does not fit": anything with a ``get_reason()`` string.

    Go: algorithm.PredicateFailureReason (interface)
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/types.go#L65-L67
    """

    def get_reason(self) -> str: ...


FitPredicate = Callable[
    ["Pod", Any, "NodeInfo"], "tuple[bool, list[PredicateFailureReason]]"
]
"""A predicate: ``(pod, meta, node_info) -> (fits, reasons)``; raises on error.

Go: algorithm.FitPredicate. ``meta`` is whatever the metadata producer returned
(``PredicateMetadata`` or ``None``), exactly like Go's ``interface{}``.
Differs from Go: the ``error`` result is raised instead of returned.
"""

PriorityMapFunction = Callable[["Pod", Any, "NodeInfo"], Any]
"""Map step of a priority: ``(pod, meta, node_info) -> HostPriority``; raises on error.

Go: algorithm.PriorityMapFunction (returns schedulerapi.HostPriority).
"""

PriorityReduceFunction = Callable[["Pod", Any, "dict[str, NodeInfo]", list], None]
"""Reduce step of a priority: mutates the ``HostPriorityList`` in place, raises on error.

Go: algorithm.PriorityReduceFunction (pod, meta, nodeNameToInfo, result).
"""

MetadataProducer = Callable[["Pod", "dict[str, NodeInfo]"], Any]
"""Computes per-pod metadata once per scheduling attempt: ``(pod, node_name_to_info) -> meta``.

Go: algorithm.MetadataProducer (returns interface{}; may return nil).
"""

PriorityFunction = Callable[["Pod", "dict[str, NodeInfo]", "list[Node]"], list]
"""Old-style (deprecated in 1.6) whole-list priority: ``(pod, node_name_to_info, nodes) -> HostPriorityList``.

Go: algorithm.PriorityFunction
"""

GetEquivalencePodFunc = Callable[["Pod"], Any]
"""Go: algorithm.GetEquivalencePodFunc (unused by 1.6 scheduling)."""


@attrs.frozen(kw_only=True)
class PriorityConfig:
    """One configured priority: either ``function`` (old style) or ``map_fn`` (+ ``reduce``).

    Go: algorithm.PriorityConfig{Map, Reduce, Function, Weight}
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/types.go#L51-L58
    Differs from Go: ``Map`` is spelled ``map_fn`` so as not to shadow the builtin ``map``;
    ``name`` (the registry key, Go keeps it only as the map key) is carried along so that traces
    and the ``decision`` view can label each score column.
    """

    map_fn: Optional[PriorityMapFunction] = None
    reduce: Optional[PriorityReduceFunction] = None
    function: Optional[PriorityFunction] = None
    weight: int = 0
    name: str = attrs.field(default="", eq=False)


def empty_metadata_producer(pod: "Pod", node_name_to_info: "dict[str, NodeInfo]") -> None:
    """A metadata producer that produces nothing (``None``).

    Go: algorithm.EmptyMetadataProducer
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/types.go#L60-L63
    """
    return None
