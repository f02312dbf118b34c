"""The RollingUpdate strategy: grow the new replica set within maxSurge, shrink old ones within maxUnavailable.

Go: pkg/controller/deployment/rolling.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/controller/deployment/rolling.go

One sync makes at most one move: scale the new replica set up (never past
``replicas + maxSurge`` pods in all replica sets), else scale old ones down (never below
``replicas - maxUnavailable`` available pods, counting the new set's unavailable ones against
it), else only write the status. The pods' readiness, reported by the ReplicaSet controller,
paces the rollout.

Differs from Go: methods of ``DeploymentController`` in a mixin (Go: the same type in another file).
"""

from __future__ import annotations

from typing import Any

from kschedlearn.apimachinery._gosort import sort_by_less
from kschedlearn.apimachinery.util.runtime import PANICS
from kschedlearn.apis.extensions.v1beta1.types import Deployment, ReplicaSet
from kschedlearn.controller import controller_utils as controller
from kschedlearn.controller.deployment.util import deployment_util as deploymentutil
from kschedlearn.trace import glog
from kschedlearn.trace.gofmt import sprintf


class RollingMethods:
    """The methods of ``DeploymentController`` defined in rolling.go (a mixin).

    Go: the methods of rolling.go (kschedlearn-only grouping: Go spreads one type's methods over files)."""

    def rollout_rolling(self, d: Deployment, rs_list: list[Any], pod_map: dict[str, list[Any]]) -> None:
        """Go: ``rolloutRolling`` — rolling.go#L32-L62."""
        new_rs, old_rss, d = self.get_all_replica_sets_and_sync_revision(d, rs_list, pod_map, True)
        all_rss = [*old_rss, new_rs]
        # Scale up, if we can.
        scaled_up = self.reconcile_new_replica_set(all_rss, new_rs, d)
        if scaled_up:
            # Update DeploymentStatus
            self.sync_rollout_status(all_rss, new_rs, d)
            return
        # Scale down, if we can.
        scaled_down = self.reconcile_old_replica_sets(all_rss, controller.filter_active_replica_sets(old_rss), new_rs, d)
        if scaled_down:
            # Update DeploymentStatus
            self.sync_rollout_status(all_rss, new_rs, d)
            return
        # Sync deployment status
        self.sync_rollout_status(all_rss, new_rs, d)

    def reconcile_new_replica_set(self, all_rss: list[Any], new_rs: ReplicaSet, deployment: Deployment) -> bool:
        """Scale the new replica set toward ``replicas`` (up to the surge limit). Go: rolling.go#L64-L80."""
        if new_rs.spec.replicas == deployment.spec.replicas:
            # Scaling not required.
            return False
        if new_rs.spec.replicas > deployment.spec.replicas:
            # Scale down.
            scaled, _ = self.scale_replica_set_and_record_event(new_rs, deployment.spec.replicas, deployment)
            return scaled
        new_replicas_count = deploymentutil.new_rs_new_replicas(deployment, all_rss, new_rs)
        scaled, _ = self.scale_replica_set_and_record_event(new_rs, new_replicas_count, deployment)
        return scaled

    def reconcile_old_replica_sets(self, all_rss: list[Any], old_rss: list[Any], new_rs: ReplicaSet,
                                   deployment: Deployment) -> bool:
        """Scale old replica sets down as far as availability allows.

        Go: ``reconcileOldReplicaSets`` — rolling.go#L82-L148 (its errors end in ``false, nil``).
        """
        old_pods_count = deploymentutil.get_replica_count_for_replica_sets(old_rss)
        if old_pods_count == 0:
            # Can't scale down further
            return False
        all_pods_count = deploymentutil.get_replica_count_for_replica_sets(all_rss)
        glog.v(4).infof("New replica set %s/%s has %d available pods.", new_rs.metadata.namespace, new_rs.metadata.name,
                        new_rs.status.available_replicas)
        max_unavailable = deploymentutil.max_unavailable(deployment)
        # maxScaledDown := allPodsCount - minAvailable - newReplicaSetPodsUnavailable: the new set's
        # unavailable pods count against what old ones may lose (see rolling.go's worked examples).
        min_available = deployment.spec.replicas - max_unavailable
        new_rs_unavailable_pod_count = new_rs.spec.replicas - new_rs.status.available_replicas
        max_scaled_down = all_pods_count - min_available - new_rs_unavailable_pod_count
        if max_scaled_down <= 0:
            return False
        # Clean up unhealthy replicas first, otherwise unhealthy replicas will block deployment
        # and cause timeout. See https://github.com/kubernetes/kubernetes/issues/16737
        try:
            old_rss, cleanup_count = self.cleanup_unhealthy_replicas(old_rss, deployment, max_scaled_down)
        except PANICS:
            raise
        except Exception:  # noqa: BLE001 - Go: return false, nil
            return False
        glog.v(4).infof("Cleaned up unhealthy replicas from old RSes by %d", cleanup_count)
        # Scale down old replica sets, need check maxUnavailable to ensure we can scale down
        all_rss = [*old_rss, new_rs]
        try:
            scaled_down_count = self.scale_down_old_replica_sets_for_rolling_update(all_rss, old_rss, deployment)
        except PANICS:
            raise
        except Exception:  # noqa: BLE001 - Go: return false, nil
            return False
        glog.v(4).infof("Scaled down old RSes of deployment %s by %d", deployment.metadata.name, scaled_down_count)
        total_scaled_down = cleanup_count + scaled_down_count
        return total_scaled_down > 0

    def cleanup_unhealthy_replicas(self, old_rss: list[Any], deployment: Deployment,
                                   max_cleanup_count: int) -> tuple[list[Any], int]:
        """Scale old replica sets down by their unavailable replicas first (oldest first).

        Go: ``cleanupUnhealthyReplicas`` — rolling.go#L150-L184
        """
        sort_by_less(old_rss, controller.replica_sets_by_creation_timestamp_less)
        total_scaled_down = 0
        for i, target_rs in enumerate(old_rss):
            if total_scaled_down >= max_cleanup_count:
                break
            if target_rs.spec.replicas == 0:
                # cannot scale down this replica set.
                continue
            glog.v(4).infof("Found %d available pods in old RS %s/%s", target_rs.status.available_replicas,
                            target_rs.metadata.namespace, target_rs.metadata.name)
            if target_rs.spec.replicas == target_rs.status.available_replicas:
                # no unhealthy replicas found, no scaling required.
                continue
            scaled_down_count = min(max_cleanup_count - total_scaled_down,
                                    target_rs.spec.replicas - target_rs.status.available_replicas)
            new_replicas_count = target_rs.spec.replicas - scaled_down_count
            if new_replicas_count > target_rs.spec.replicas:
                raise RuntimeError(sprintf("when cleaning up unhealthy replicas, got invalid request to scale down "
                                           "%s/%s %d -> %d", target_rs.metadata.namespace, target_rs.metadata.name,
                                           target_rs.spec.replicas, new_replicas_count))
            _, updated_old_rs = self.scale_replica_set_and_record_event(target_rs, new_replicas_count, deployment)
            total_scaled_down += scaled_down_count
            old_rss[i] = updated_old_rs
        return old_rss, total_scaled_down

    def scale_down_old_replica_sets_for_rolling_update(self, all_rss: list[Any], old_rss: list[Any],
                                                       deployment: Deployment) -> int:
        """Scale old replica sets down while more than ``replicas - maxUnavailable`` are available.

        Go: ``scaleDownOldReplicaSetsForRollingUpdate`` — rolling.go#L186-L229
        """
        max_unavailable = deploymentutil.max_unavailable(deployment)
        # Check if we can scale down.
        min_available = deployment.spec.replicas - max_unavailable
        # Find the number of available pods.
        available_pod_count = deploymentutil.get_available_replica_count_for_replica_sets(all_rss)
        if available_pod_count <= min_available:
            # Cannot scale down.
            return 0
        glog.v(4).infof("Found %d available pods in deployment %s, scaling down old RSes", available_pod_count,
                        deployment.metadata.name)
        sort_by_less(old_rss, controller.replica_sets_by_creation_timestamp_less)
        total_scaled_down = 0
        total_scale_down_count = available_pod_count - min_available
        for target_rs in old_rss:
            if total_scaled_down >= total_scale_down_count:
                # No further scaling required.
                break
            if target_rs.spec.replicas == 0:
                # cannot scale down this ReplicaSet.
                continue
            # Scale down.
            scale_down_count = min(target_rs.spec.replicas, total_scale_down_count - total_scaled_down)
            new_replicas_count = target_rs.spec.replicas - scale_down_count
            if new_replicas_count > target_rs.spec.replicas:
                raise RuntimeError(sprintf("when scaling down old RS, got invalid request to scale down %s/%s %d -> %d",
                                           target_rs.metadata.namespace, target_rs.metadata.name,
                                           target_rs.spec.replicas, new_replicas_count))
            self.scale_replica_set_and_record_event(target_rs, new_replicas_count, deployment)
            total_scaled_down += scale_down_count
        return total_scaled_down


__all__ = ["RollingMethods"]
