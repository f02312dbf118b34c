"""The ReplicaSet controller's status helpers: compute the counts, write them, RS conditions.

Go: pkg/controller/replicaset/replica_set_utils.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/controller/replicaset/replica_set_utils.go

The twin of :mod:`kschedlearn.controller.replication.replication_controller_utils` (Go keeps two
copies; so does the mirror).

Differs from Go: values are frozen, so the condition helpers return the new status (Go sets it
through a pointer); errors are raised.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from kschedlearn import sim
from kschedlearn.api.v1 import ReplicaSetCondition, ReplicaSetStatus, is_pod_available, is_pod_ready
from kschedlearn.apimachinery.labels import Set
from kschedlearn.apimachinery.util.runtime import PANICS
from kschedlearn.trace import glog
from kschedlearn.trace.gofmt import sprintf

REPLICA_SET_REPLICA_FAILURE = "ReplicaFailure"
"""Go: extensions.ReplicaSetReplicaFailure."""
STATUS_UPDATE_RETRIES = 1
"""Go: ``statusUpdateRetries`` —
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/controller/replicaset/replica_set.go#L57-L58"""


def update_replica_set_status(c: Any, rs: Any, new_status: ReplicaSetStatus) -> Any:
    """Write ``new_status`` unless nothing changed; one GET + retry after a failed write.

    Go: ``updateReplicaSetStatus`` — replica_set_utils.go#L35-L91
    """
    # This is the steady state. It happens when the ReplicaSet doesn't have any expectations, since
    # we do a periodic relist every 30s. If the generations differ but the replicas are
    # the same, a caller might've resized to the same replica count.
    if (rs.status.replicas == new_status.replicas
            and rs.status.fully_labeled_replicas == new_status.fully_labeled_replicas
            and rs.status.ready_replicas == new_status.ready_replicas
            and rs.status.available_replicas == new_status.available_replicas
            and rs.metadata.generation == rs.status.observed_generation
            and rs.status.conditions == new_status.conditions):
        return rs
    # Save the generation number we acted on, otherwise we might wrongfully indicate
    # that we've seen a spec update when we retry.
    new_status = attrs.evolve(new_status, observed_generation=rs.metadata.generation)
    update_err: BaseException | None = None
    i = 0
    while True:
        glog.v(4).infof(sprintf("Updating status for ReplicaSet: %s/%s, ", rs.metadata.namespace, rs.metadata.name)
                        + sprintf("replicas %d->%d (need %d), ", rs.status.replicas, new_status.replicas, rs.spec.replicas)
                        + sprintf("fullyLabeledReplicas %d->%d, ", rs.status.fully_labeled_replicas,
                                  new_status.fully_labeled_replicas)
                        + sprintf("readyReplicas %d->%d, ", rs.status.ready_replicas, new_status.ready_replicas)
                        + sprintf("availableReplicas %d->%d, ", rs.status.available_replicas,
                                  new_status.available_replicas)
                        + sprintf("sequence No: %v->%v", rs.status.observed_generation, new_status.observed_generation))
        rs = attrs.evolve(rs, status=new_status)
        try:
            return c.update_status(rs)
        except PANICS:
            raise
        except Exception as err:  # noqa: BLE001 - Go keeps updateErr
            update_err = err
        # Stop retrying if we exceed statusUpdateRetries - the replicaSet will be requeued with a rate limit.
        if i >= STATUS_UPDATE_RETRIES:
            break
        # Update the ReplicaSet with the latest resource version for the next poll
        rs = c.get(rs.metadata.name)  # a failed GET is raised: more interesting than the update failure
        i += 1
    assert update_err is not None
    raise update_err


def calculate_status(rs: Any, filtered_pods: Sequence[Any], manage_replicas_err: BaseException | None
                     ) -> ReplicaSetStatus:
    """The ReplicaSet's status from the pods it owns (and the ReplicaFailure condition).

    Go: ``calculateStatus`` — replica_set_utils.go#L93-L135
    """
    new_status = rs.status
    # Count the number of pods that have labels matching the labels of the pod
    # template of the replica set, the matching pods may have more
    # labels than are in the template.
    fully_labeled_replicas_count = 0
    ready_replicas_count = 0
    available_replicas_count = 0
    template_label = Set(rs.spec.template.metadata.labels).as_selector_pre_validated()
    for pod in filtered_pods:
        if template_label.matches(pod.metadata.labels):
            fully_labeled_replicas_count += 1
        if is_pod_ready(pod):
            ready_replicas_count += 1
            if is_pod_available(pod, rs.spec.min_ready_seconds, sim.now()):
                available_replicas_count += 1
    failure_cond = get_condition(rs.status, REPLICA_SET_REPLICA_FAILURE)
    if manage_replicas_err is not None and failure_cond is None:
        reason = ""
        diff = len(filtered_pods) - rs.spec.replicas
        if diff < 0:
            reason = "FailedCreate"
        elif diff > 0:
            reason = "FailedDelete"
        cond = new_replica_set_condition(REPLICA_SET_REPLICA_FAILURE, "True", reason,
                                                    str(manage_replicas_err))
        new_status = set_condition(new_status, cond)
    elif manage_replicas_err is None and failure_cond is not None:
        new_status = remove_condition(new_status, REPLICA_SET_REPLICA_FAILURE)
    return attrs.evolve(new_status, replicas=len(filtered_pods), fully_labeled_replicas=fully_labeled_replicas_count,
                        ready_replicas=ready_replicas_count, available_replicas=available_replicas_count)


def new_replica_set_condition(cond_type: str, status: str, reason: str, msg: str) -> ReplicaSetCondition:
    """Go: ``NewReplicaSetCondition`` — replica_set_utils.go#L137-L146."""
    return ReplicaSetCondition(type=cond_type, status=status, last_transition_time=sim.now(),
                                          reason=reason, message=msg)


def get_condition(status: ReplicaSetStatus, cond_type: str) -> ReplicaSetCondition | None:
    """Go: ``GetCondition`` — replica_set_utils.go#L148-L157."""
    for c in status.conditions:
        if c.type == cond_type:
            return c
    return None


def set_condition(status: ReplicaSetStatus, condition: ReplicaSetCondition) -> ReplicaSetStatus:
    """Go: ``SetCondition`` — replica_set_utils.go#L159-L168 (returns the new status)."""
    current_cond = get_condition(status, condition.type)
    if current_cond is not None and current_cond.status == condition.status and current_cond.reason == condition.reason:
        return status
    new_conditions = filter_out_condition(status.conditions, condition.type)
    return attrs.evolve(status, conditions=(*new_conditions, condition))


def remove_condition(status: ReplicaSetStatus, cond_type: str) -> ReplicaSetStatus:
    """Go: ``RemoveCondition`` — replica_set_utils.go#L170-L173 (returns the new status)."""
    return attrs.evolve(status, conditions=filter_out_condition(status.conditions, cond_type))


def filter_out_condition(conditions: Sequence[ReplicaSetCondition], cond_type: str
                         ) -> tuple[ReplicaSetCondition, ...]:
    """Go: ``filterOutCondition`` — replica_set_utils.go#L175-L185."""
    return tuple(c for c in conditions if c.type != cond_type)


__all__ = ["REPLICA_SET_REPLICA_FAILURE", "STATUS_UPDATE_RETRIES", "calculate_status", "filter_out_condition",
           "get_condition", "new_replica_set_condition", "remove_condition", "set_condition", "update_replica_set_status"]
