"""The Recreate strategy: every old pod goes before any new one is created.

Go: pkg/controller/deployment/recreate.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/controller/deployment/recreate.go

Differs from Go: methods of ``DeploymentController`` in a mixin.
"""

from __future__ import annotations

from typing import Any

from kschedlearn.apis.extensions.v1beta1.types import Deployment, ReplicaSet
from kschedlearn.controller import controller_utils as controller
from kschedlearn.controller.deployment.sync import calculate_status


class RecreateMethods:
    """The methods of ``DeploymentController`` defined in recreate.go (a mixin).

    Go: the methods of recreate.go (kschedlearn-only grouping: Go spreads one type's methods over files)."""

    def rollout_recreate(self, d: Deployment, rs_list: list[Any], pod_map: dict[str, list[Any]]) -> None:
        """Go: ``rolloutRecreate`` — recreate.go#L26-L78."""
        # Don't create a new RS if not already existed, so that we avoid scaling up before scaling down
        new_rs, old_rss, d = self.get_all_replica_sets_and_sync_revision(d, rs_list, pod_map, False)
        all_rss = [*old_rss, new_rs]
        active_old_rss = controller.filter_active_replica_sets(old_rss)
        # scale down old replica sets
        scaled_down = self.scale_down_old_replica_sets_for_recreate(active_old_rss, d)
        if scaled_down:
            # Update DeploymentStatus
            self.sync_rollout_status(all_rss, new_rs, d)
            return
        new_status = calculate_status(all_rss, new_rs, d)
        # Do not process a deployment when it has old pods running.
        if new_status.updated_replicas == 0:
            for pod_list in pod_map.values():
                if len(pod_list) > 0:
                    self.sync_rollout_status(all_rss, new_rs, d)
                    return
        # If we need to create a new RS, create it now
        if new_rs is None:
            new_rs, old_rss, d = self.get_all_replica_sets_and_sync_revision(d, rs_list, pod_map, True)
            all_rss = [*old_rss, new_rs]
        # scale up new replica set
        scaled_up = self.scale_up_new_replica_set_for_recreate(new_rs, d)
        if scaled_up:
            # Update DeploymentStatus
            self.sync_rollout_status(all_rss, new_rs, d)
            return
        # Sync deployment status
        self.sync_rollout_status(all_rss, new_rs, d)

    def scale_down_old_replica_sets_for_recreate(self, old_rss: list[Any], deployment: Deployment) -> bool:
        """Go: ``scaleDownOldReplicaSetsForRecreate`` — recreate.go#L80-L99."""
        scaled = False
        for i, rs in enumerate(old_rss):
            # Scaling not required.
            if rs.spec.replicas == 0:
                continue
            scaled_rs, updated_rs = self.scale_replica_set_and_record_event(rs, 0, deployment)
            if scaled_rs:
                old_rss[i] = updated_rs
                scaled = True
        return scaled

    def scale_up_new_replica_set_for_recreate(self, new_rs: ReplicaSet, deployment: Deployment) -> bool:
        """Go: ``scaleUpNewReplicaSetForRecreate`` — recreate.go#L101-L105."""
        scaled, _ = self.scale_replica_set_and_record_event(new_rs, deployment.spec.replicas, deployment)
        return scaled


__all__ = ["RecreateMethods"]
