"""Why a predicate failed: the reason values that feed the scheduler's FitError.

Go: plugin/pkg/scheduler/algorithm/predicates/error.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/predicates/error.go#L25-L103

Differs from Go: Go's ``Err...`` package variables are module constants ``ERR_...`` (frozen
values, so comparing two reasons compares their contents, like Go's ``reflect.DeepEqual``).
The classes are values, not raised exceptions; ``error()`` gives Go's ``Error()`` text.
"""

from __future__ import annotations

import attrs


@attrs.frozen
class InsufficientResourceError:
    """A resource (cpu, memory, pods, gpu, opaque) the node cannot supply for the pod.

    Go: predicates.InsufficientResourceError
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/predicates/error.go#L45-L53
    """

    resource_name: str
    requested: int
    used: int
    capacity: int

    def error(self) -> str:
        """Go: InsufficientResourceError.Error()"""
        return (
            f"Node didn't have enough resource: {self.resource_name}, requested: {self.requested}, "
            f"used: {self.used}, capacity: {self.capacity}"
        )

    def get_reason(self) -> str:
        """Go: InsufficientResourceError.GetReason() — ``Insufficient <resource>``."""
        return f"Insufficient {self.resource_name}"

    def get_insufficient_amount(self) -> int:
        """How much is missing: requested - (capacity - used).

        Go: InsufficientResourceError.GetInsufficientAmount()
        """
        return self.requested - (self.capacity - self.used)

    def __str__(self) -> str:
        return self.error()


def new_insufficient_resource_error(
    resource_name: str, requested: int, used: int, capacity: int
) -> InsufficientResourceError:
    """Go: predicates.NewInsufficientResourceError"""
    return InsufficientResourceError(resource_name, requested, used, capacity)


@attrs.frozen
class PredicateFailureError:
    """A predicate failed; the reason is the predicate's registered name.

    Go: predicates.PredicateFailureError
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/predicates/error.go#L77-L79
    """

    predicate_name: str

    def error(self) -> str:
        """Go: PredicateFailureError.Error()"""
        return f"Predicate {self.predicate_name} failed"

    def get_reason(self) -> str:
        """Go: PredicateFailureError.GetReason()"""
        return self.predicate_name

    def __str__(self) -> str:
        return self.error()


def _new_predicate_failure_error(predicate_name: str) -> PredicateFailureError:
    """Go: predicates.newPredicateFailureError"""
    return PredicateFailureError(predicate_name)


@attrs.frozen
class FailureReason:
    """A free-text reason (used for HTTP extenders' messages).

    Go: predicates.FailureReason
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/predicates/error.go#L93-L95
    """

    reason: str

    def get_reason(self) -> str:
        """Go: FailureReason.GetReason()"""
        return self.reason


def new_failure_reason(msg: str) -> FailureReason:
    """Go: predicates.NewFailureReason"""
    return FailureReason(msg)


ERR_DISK_CONFLICT = _new_predicate_failure_error("NoDiskConflict")
ERR_VOLUME_ZONE_CONFLICT = _new_predicate_failure_error("NoVolumeZoneConflict")
ERR_NODE_SELECTOR_NOT_MATCH = _new_predicate_failure_error("MatchNodeSelector")
ERR_POD_AFFINITY_NOT_MATCH = _new_predicate_failure_error("MatchInterPodAffinity")
ERR_TAINTS_TOLERATIONS_NOT_MATCH = _new_predicate_failure_error("PodToleratesNodeTaints")
ERR_POD_NOT_MATCH_HOST_NAME = _new_predicate_failure_error("HostName")
ERR_POD_NOT_FITS_HOST_PORTS = _new_predicate_failure_error("PodFitsHostPorts")
ERR_NODE_LABEL_PRESENCE_VIOLATED = _new_predicate_failure_error("CheckNodeLabelPresence")
ERR_SERVICE_AFFINITY_VIOLATED = _new_predicate_failure_error("CheckServiceAffinity")
ERR_MAX_VOLUME_COUNT_EXCEEDED = _new_predicate_failure_error("MaxVolumeCount")
ERR_NODE_UNDER_MEMORY_PRESSURE = _new_predicate_failure_error("NodeUnderMemoryPressure")
ERR_NODE_UNDER_DISK_PRESSURE = _new_predicate_failure_error("NodeUnderDiskPressure")
# Used only by tests (Go says so too).
ERR_FAKE_PREDICATE = _new_predicate_failure_error("FakePredicateError")
