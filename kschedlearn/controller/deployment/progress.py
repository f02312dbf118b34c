"""Progress of a rollout: the Progressing condition, the deadline, a stuck deployment requeued.

Go: pkg/controller/deployment/progress.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/controller/deployment/progress.go

Differs from Go: methods of ``DeploymentController`` in a mixin; ``has_failed`` also returns the
deployment it may have changed (through ``getAllReplicaSetsAndSyncRevision``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from kschedlearn import sim
from kschedlearn.apis.extensions.v1beta1.types import (
    DEPLOYMENT_PROGRESSING,
    DEPLOYMENT_REPLICA_FAILURE,
    REPLICA_SET_REPLICA_FAILURE,
    Deployment,
    DeploymentCondition,
    DeploymentStatus,
    ReplicaSet,
)
from kschedlearn.controller.deployment.sync import calculate_status
from kschedlearn.controller.deployment.util import deployment_util as util
from kschedlearn.trace import glog
from kschedlearn.trace.gofmt import sprintf

now_fn: Callable[[], float] = lambda: sim.now()  # noqa: E731 - Go: a package variable tests replace
"""Go: ``nowFn`` — progress.go#L195-L196."""


class ProgressMethods:
    """The methods of ``DeploymentController`` defined in progress.go (a mixin).

    Go: the methods of progress.go (kschedlearn-only grouping: Go spreads one type's methods over files)."""

    client: Any

    def has_failed(self, d: Deployment, rs_list: list[Any], pod_map: dict[str, list[Any]]) -> tuple[bool, Deployment]:
        """Whether the rollout ran past its progress deadline.

        Go: ``hasFailed`` — progress.go#L32-L74
        """
        if d.spec.progress_deadline_seconds is None or d.spec.rollback_to is not None or d.spec.paused:
            return False, d
        new_rs, old_rss, d = self.get_all_replica_sets_and_sync_revision(d, rs_list, pod_map, False)
        # There is a template change so we don't need to check for any progress right now.
        if new_rs is None:
            return False, d
        # Look at the status of the deployment - if there is already a NewRSAvailableReason
        # then we don't need to estimate any progress.
        cond = util.get_deployment_condition(d.status, DEPLOYMENT_PROGRESSING)
        if cond is not None and cond.reason == util.NEW_RS_AVAILABLE_REASON:
            return False, d
        all_rss = [*old_rss, new_rs]
        new_status = calculate_status(all_rss, new_rs, d)
        # If the deployment is complete or it is progressing, there is no need to check if it has timed out.
        if util.deployment_complete(d, new_status) or util.deployment_progressing(d, new_status):
            return False, d
        # Check if the deployment has timed out.
        return util.deployment_timed_out(d, new_status), d

    def sync_rollout_status(self, all_rss: list[Any], new_rs: ReplicaSet | None, d: Deployment) -> None:
        """Write the status of a rollout with its Progressing and ReplicaFailure conditions.

        Go: ``syncRolloutStatus`` — progress.go#L76-L159
        """
        new_status = calculate_status(all_rss, new_rs, d)
        # If there is no progressDeadlineSeconds set, remove any Progressing condition.
        if d.spec.progress_deadline_seconds is None:
            new_status = util.remove_deployment_condition(new_status, DEPLOYMENT_PROGRESSING)
        # If there is only one replica set that is active then that means we are not running
        # a new rollout and this is a resync where we don't need to estimate any progress.
        current_cond = util.get_deployment_condition(d.status, DEPLOYMENT_PROGRESSING)
        is_complete_deployment = (new_status.replicas == new_status.updated_replicas and current_cond is not None
                                  and current_cond.reason == util.NEW_RS_AVAILABLE_REASON)
        # Check for progress only if there is a progress deadline set and the latest rollout hasn't completed yet.
        if d.spec.progress_deadline_seconds is not None and not is_complete_deployment:
            if util.deployment_complete(d, new_status):
                # Update the deployment conditions with a message for the new replica set that
                # was successfully deployed. If the condition already exists, we ignore this update.
                msg = sprintf("ReplicaSet %q has successfully progressed.", new_rs.metadata.name)
                condition = util.new_deployment_condition(DEPLOYMENT_PROGRESSING, "True", util.NEW_RS_AVAILABLE_REASON, msg)
                new_status = util.set_deployment_condition(new_status, condition)
            elif util.deployment_progressing(d, new_status):
                # If there is any progress made, continue by not checking if the deployment failed.
                msg = sprintf("Deployment %q is progressing.", d.metadata.name)
                if new_rs is not None:
                    msg = sprintf("ReplicaSet %q is progressing.", new_rs.metadata.name)
                condition = util.new_deployment_condition(DEPLOYMENT_PROGRESSING, "True", util.REPLICA_SET_UPDATED_REASON, msg)
                # Update the current Progressing condition or add a new one; keep lastTransitionTime
                # of a condition that stays True, but always move lastUpdateTime.
                if current_cond is not None:
                    if current_cond.status == "True":
                        condition = attrs.evolve(condition, last_transition_time=current_cond.last_transition_time)
                    new_status = util.remove_deployment_condition(new_status, DEPLOYMENT_PROGRESSING)
                new_status = util.set_deployment_condition(new_status, condition)
            elif util.deployment_timed_out(d, new_status):
                # Update the deployment with a timeout condition. If the condition already exists, we ignore this update.
                msg = sprintf("Deployment %q has timed out progressing.", d.metadata.name)
                if new_rs is not None:
                    msg = sprintf("ReplicaSet %q has timed out progressing.", new_rs.metadata.name)
                condition = util.new_deployment_condition(DEPLOYMENT_PROGRESSING, "False", util.TIMED_OUT_REASON, msg)
                new_status = util.set_deployment_condition(new_status, condition)
        # Move failure conditions of all replica sets in deployment conditions. For now,
        # only one failure condition is returned from getReplicaFailures.
        replica_failure_cond = self.get_replica_failures(all_rss, new_rs)
        if len(replica_failure_cond) > 0:
            # There will be only one ReplicaFailure condition on the replica set.
            new_status = util.set_deployment_condition(new_status, replica_failure_cond[0])
        else:
            new_status = util.remove_deployment_condition(new_status, DEPLOYMENT_REPLICA_FAILURE)
        # Do not update if there is nothing new to add.
        if d.status == new_status:
            # Requeue the deployment if required.
            self.requeue_stuck_deployment(d, new_status)
            return
        new_deployment = attrs.evolve(d, status=new_status)
        self.client.extensions().deployments(new_deployment.metadata.namespace).update_status(new_deployment)

    def get_replica_failures(self, all_rss: list[Any], new_rs: ReplicaSet | None) -> list[DeploymentCondition]:
        """The ReplicaFailure conditions of the replica sets, the new one's first.

        Go: ``getReplicaFailures`` — progress.go#L161-L193
        """
        conditions = []
        if new_rs is not None:
            for c in new_rs.status.conditions:
                if c.type != REPLICA_SET_REPLICA_FAILURE:
                    continue
                conditions.append(util.replica_set_to_deployment_condition(c))
        # Return failures for the new replica set over failures from old replica sets.
        if len(conditions) > 0:
            return conditions
        for rs in all_rss:
            if rs is None:
                continue
            for c in rs.status.conditions:
                if c.type != REPLICA_SET_REPLICA_FAILURE:
                    continue
                conditions.append(util.replica_set_to_deployment_condition(c))
        return conditions

    def requeue_stuck_deployment(self, d: Deployment, new_status: DeploymentStatus) -> float:
        """Enqueue a deployment without progress for its deadline check: seconds until then,
        0 if now, -1 if not needed.

        Go: ``requeueStuckDeployment`` — progress.go#L198-L240
        """
        current_cond = util.get_deployment_condition(d.status, DEPLOYMENT_PROGRESSING)
        # Can't estimate progress if there is no deadline in the spec or progressing condition in the current status.
        if d.spec.progress_deadline_seconds is None or current_cond is None:
            return -1.0
        # No need to estimate progress if the rollout is complete or already timed out.
        if util.deployment_complete(d, new_status) or current_cond.reason == util.TIMED_OUT_REASON:
            return -1.0
        # If there is no sign of progress at this point then there is a high chance that the
        # deployment is stuck: resync it when its deadline would pass (lastUpdateTime + deadline - now).
        after = (current_cond.last_update_time or 0.0) + float(d.spec.progress_deadline_seconds) - now_fn()
        # If the remaining time is less than a second, then requeue the deployment immediately.
        if after < 1.0:
            glog.v(4).infof("Queueing up deployment %q for a progress check now", d.metadata.name)
            self.enqueue_rate_limited(d)
            return 0.0
        glog.v(4).infof("Queueing up deployment %q for a progress check after %ds", d.metadata.name, int(after))
        # Add a second to avoid milliseconds skew in AddAfter.
        self.enqueue_after(d, after + 1.0)
        return after


__all__ = ["ProgressMethods", "now_fn"]
