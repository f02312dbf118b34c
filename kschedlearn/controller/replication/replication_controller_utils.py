"""The ReplicationManager's status helpers: compute the counts, write them, RC conditions.

Go: pkg/controller/replication/replication_controller_utils.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/controller/replication/replication_controller_utils.go

Differs from Go: values are frozen, so the condition helpers return the new status (Go sets it
through a pointer); errors are raised.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from kschedlearn import sim
from kschedlearn.api.v1 import (
    ReplicationControllerCondition,
    ReplicationControllerStatus,
    is_pod_available,
    is_pod_ready,
)
from kschedlearn.apimachinery.labels import Set
from kschedlearn.apimachinery.util.runtime import PANICS
from kschedlearn.trace import glog
from kschedlearn.trace.gofmt import sprintf

REPLICATION_CONTROLLER_REPLICA_FAILURE = "ReplicaFailure"
"""Go: v1.ReplicationControllerReplicaFailure."""
STATUS_UPDATE_RETRIES = 1
"""Go: ``statusUpdateRetries`` —
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/controller/replication/replication_controller.go#L54-L55"""


def update_replication_controller_status(c: Any, rc: Any, new_status: ReplicationControllerStatus) -> Any:
    """Write ``new_status`` unless nothing changed; one GET + retry after a failed write.

    Go: ``updateReplicationControllerStatus`` — replication_controller_utils.go#L32-L79
    """
    # This is the steady state. It happens when the rc doesn't have any expectations, since
    # we do a periodic relist every 30s. If the generations differ but the replicas are
    # the same, a caller might've resized to the same replica count.
    if (rc.status.replicas == new_status.replicas
            and rc.status.fully_labeled_replicas == new_status.fully_labeled_replicas
            and rc.status.ready_replicas == new_status.ready_replicas
            and rc.status.available_replicas == new_status.available_replicas
            and rc.metadata.generation == rc.status.observed_generation
            and rc.status.conditions == new_status.conditions):
        return rc
    # Save the generation number we acted on, otherwise we might wrongfully indicate
    # that we've seen a spec update when we retry.
    new_status = attrs.evolve(new_status, observed_generation=rc.metadata.generation)
    update_err: BaseException | None = None
    i = 0
    while True:
        glog.v(4).infof(sprintf("Updating status for rc: %s/%s, ", rc.metadata.namespace, rc.metadata.name)
                        + sprintf("replicas %d->%d (need %d), ", rc.status.replicas, new_status.replicas, rc.spec.replicas)
                        + sprintf("fullyLabeledReplicas %d->%d, ", rc.status.fully_labeled_replicas,
                                  new_status.fully_labeled_replicas)
                        + sprintf("readyReplicas %d->%d, ", rc.status.ready_replicas, new_status.ready_replicas)
                        + sprintf("availableReplicas %d->%d, ", rc.status.available_replicas,
                                  new_status.available_replicas)
                        + sprintf("sequence No: %v->%v", rc.status.observed_generation, new_status.observed_generation))
        rc = attrs.evolve(rc, status=new_status)
        try:
            return c.update_status(rc)
        except PANICS:
            raise
        except Exception as err:  # noqa: BLE001 - Go keeps updateErr
            update_err = err
        # Stop retrying if we exceed statusUpdateRetries - the replicationController will be requeued with a rate limit.
        if i >= STATUS_UPDATE_RETRIES:
            break
        # Update the controller with the latest resource version for the next poll
        rc = c.get(rc.metadata.name)  # a failed GET is raised: more interesting than the update failure
        i += 1
    assert update_err is not None
    raise update_err


def overlapping_controllers_less(a: Any, b: Any) -> bool:
    """Go: ``OverlappingControllers.Less`` — replication_controller_utils.go#L87-L92."""
    if a.metadata.creation_timestamp == b.metadata.creation_timestamp:
        return a.metadata.name < b.metadata.name
    return (a.metadata.creation_timestamp or float("-inf")) < (b.metadata.creation_timestamp or float("-inf"))


def calculate_status(rc: Any, filtered_pods: Sequence[Any], manage_replicas_err: BaseException | None
                     ) -> ReplicationControllerStatus:
    """The RC's status from the pods it owns (and the ReplicaFailure condition).

    Go: ``calculateStatus`` — replication_controller_utils.go#L94-L136
    """
    new_status = rc.status
    # Count the number of pods that have labels matching the labels of the pod
    # template of the replication controller, the matching pods may have more
    # labels than are in the template.
    fully_labeled_replicas_count = 0
    ready_replicas_count = 0
    available_replicas_count = 0
    template_label = Set(rc.spec.template.metadata.labels).as_selector_pre_validated()
    for pod in filtered_pods:
        if template_label.matches(pod.metadata.labels):
            fully_labeled_replicas_count += 1
        if is_pod_ready(pod):
            ready_replicas_count += 1
            if is_pod_available(pod, rc.spec.min_ready_seconds, sim.now()):
                available_replicas_count += 1
    failure_cond = get_condition(rc.status, REPLICATION_CONTROLLER_REPLICA_FAILURE)
    if manage_replicas_err is not None and failure_cond is None:
        reason = ""
        diff = len(filtered_pods) - rc.spec.replicas
        if diff < 0:
            reason = "FailedCreate"
        elif diff > 0:
            reason = "FailedDelete"
        cond = new_replication_controller_condition(REPLICATION_CONTROLLER_REPLICA_FAILURE, "True", reason,
                                                    str(manage_replicas_err))
        new_status = set_condition(new_status, cond)
    elif manage_replicas_err is None and failure_cond is not None:
        new_status = remove_condition(new_status, REPLICATION_CONTROLLER_REPLICA_FAILURE)
    return attrs.evolve(new_status, replicas=len(filtered_pods), fully_labeled_replicas=fully_labeled_replicas_count,
                        ready_replicas=ready_replicas_count, available_replicas=available_replicas_count)


def new_replication_controller_condition(cond_type: str, status: str, reason: str, msg: str
                                         ) -> ReplicationControllerCondition:
    """Go: ``NewReplicationControllerCondition`` — replication_controller_utils.go#L138-L147."""
    return ReplicationControllerCondition(type=cond_type, status=status, last_transition_time=sim.now(),
                                          reason=reason, message=msg)


def get_condition(status: ReplicationControllerStatus, cond_type: str) -> ReplicationControllerCondition | None:
    """Go: ``GetCondition`` — replication_controller_utils.go#L149-L158."""
    for c in status.conditions:
        if c.type == cond_type:
            return c
    return None


def set_condition(status: ReplicationControllerStatus, condition: ReplicationControllerCondition
                  ) -> ReplicationControllerStatus:
    """Go: ``SetCondition`` — replication_controller_utils.go#L160-L168 (returns the new status)."""
    current_cond = get_condition(status, condition.type)
    if current_cond is not None and current_cond.status == condition.status and current_cond.reason == condition.reason:
        return status
    new_conditions = filter_out_condition(status.conditions, condition.type)
    return attrs.evolve(status, conditions=(*new_conditions, condition))


def remove_condition(status: ReplicationControllerStatus, cond_type: str) -> ReplicationControllerStatus:
    """Go: ``RemoveCondition`` — replication_controller_utils.go#L170-L173 (returns the new status)."""
    return attrs.evolve(status, conditions=filter_out_condition(status.conditions, cond_type))


def filter_out_condition(conditions: Sequence[ReplicationControllerCondition], cond_type: str
                         ) -> tuple[ReplicationControllerCondition, ...]:
    """Go: ``filterOutCondition`` — replication_controller_utils.go#L175-L185."""
    return tuple(c for c in conditions if c.type != cond_type)


__all__ = ["REPLICATION_CONTROLLER_REPLICA_FAILURE", "STATUS_UPDATE_RETRIES", "calculate_status", "filter_out_condition",
           "get_condition", "new_replication_controller_condition", "overlapping_controllers_less", "remove_condition",
           "set_condition", "update_replication_controller_status"]
