"""The Deployment controller's bookkeeping: find the new and old replica sets, scale, status.

Go: pkg/controller/deployment/sync.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/controller/deployment/sync.go

``get_new_replica_set`` creates the replica set of the current template (named
``<deployment>-<hash>``, revision = the highest old one + 1, owned by the Deployment through a
ControllerRef) or brings an existing one up to date; ``scale`` spreads a resize over the active
replica sets in proportion to their sizes; ``calculate_status`` sums the replica sets' counts.

Differs from Go: these are methods of ``DeploymentController`` (a mixin here; Go: the same type
in another file). Where Go mutates the deployment through its pointer, the method returns the
changed deployment for the caller to keep (see the package docstring); a freshly written object
Go only assigns to the callee's variable is not returned.
"""

from __future__ import annotations

from typing import Any

import attrs

from kschedlearn.apimachinery.api.errors import is_already_exists, is_not_found
from kschedlearn.apimachinery._gosort import sort_by_less
from kschedlearn.apimachinery.util.errors import ErrPreconditionViolated, new_aggregate
from kschedlearn.apimachinery.util.runtime import PANICS
from kschedlearn.apis.extensions.v1beta1.types import (
    DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY,
    DEPLOYMENT_AVAILABLE,
    DEPLOYMENT_PROGRESSING,
    Deployment,
    DeploymentStatus,
    ReplicaSet,
    ReplicaSetSpec,
)
from kschedlearn.api.v1 import ObjectMeta, OwnerReference
from kschedlearn.controller import controller_utils as controller
from kschedlearn.controller.deployment.util import deployment_util as deploymentutil
from kschedlearn.controller.deployment.util.pod_util import get_pod_template_spec_hash
from kschedlearn.controller.deployment.util.replicaset_util import get_replica_set_hash, update_rs_with_retries
from kschedlearn.trace import glog
from kschedlearn.trace.gofmt import sprintf
from kschedlearn.util import labels as labelsutil


class SyncMethods:
    """The methods of ``DeploymentController`` defined in sync.go (a mixin).

    Go: the methods of sync.go (kschedlearn-only grouping: Go spreads one type's methods over files)."""

    client: Any
    event_recorder: Any
    rs_lister: Any
    pod_lister: Any

    def sync_status_only(self, d: Deployment, rs_list: list[Any], pod_map: dict[str, list[Any]]) -> None:
        """Only the status: used while the Deployment is being deleted.

        Go: ``syncStatusOnly`` — sync.go#L38-L47
        """
        new_rs, old_rss, d = self.get_all_replica_sets_and_sync_revision(d, rs_list, pod_map, False)
        all_rss = [*old_rss, new_rs]
        self.sync_deployment_status(all_rss, new_rs, d)

    def sync(self, d: Deployment, rs_list: list[Any], pod_map: dict[str, list[Any]]) -> None:
        """Reconcile a scaling event or a paused Deployment. Go: ``sync`` — sync.go#L49-L64."""
        new_rs, old_rss, d = self.get_all_replica_sets_and_sync_revision(d, rs_list, pod_map, False)
        # If we get an error while trying to scale, the deployment will be requeued
        # so we can abort this resync
        self.scale(d, new_rs, old_rss)
        all_rss = [*old_rss, new_rs]
        self.sync_deployment_status(all_rss, new_rs, d)

    def check_paused_conditions(self, d: Deployment) -> Deployment:
        """Add a Progressing=Unknown condition when the Deployment is paused or resumed.

        Go: ``checkPausedConditions`` — sync.go#L66-L98 (returns the deployment it changed)
        """
        if d.spec.progress_deadline_seconds is None:
            return d
        cond = deploymentutil.get_deployment_condition(d.status, DEPLOYMENT_PROGRESSING)
        if cond is not None and cond.reason == deploymentutil.TIMED_OUT_REASON:
            # If we have reported lack of progress, do not overwrite it with a paused condition.
            return d
        paused_cond_exists = cond is not None and cond.reason == deploymentutil.PAUSED_DEPLOY_REASON
        needs_update = False
        if d.spec.paused and not paused_cond_exists:
            condition = deploymentutil.new_deployment_condition(DEPLOYMENT_PROGRESSING, "Unknown",
                                                                deploymentutil.PAUSED_DEPLOY_REASON,
                                                                "Deployment is paused")
            d = attrs.evolve(d, status=deploymentutil.set_deployment_condition(d.status, condition))
            needs_update = True
        elif not d.spec.paused and paused_cond_exists:
            condition = deploymentutil.new_deployment_condition(DEPLOYMENT_PROGRESSING, "Unknown",
                                                                deploymentutil.RESUMED_DEPLOY_REASON,
                                                                "Deployment is resumed")
            d = attrs.evolve(d, status=deploymentutil.set_deployment_condition(d.status, condition))
            needs_update = True
        if not needs_update:
            return d
        self.client.extensions().deployments(d.metadata.namespace).update_status(d)
        return d

    def get_all_replica_sets_and_sync_revision(self, d: Deployment, rs_list: list[Any], pod_map: dict[str, list[Any]],
                                               create_if_not_existed: bool
                                               ) -> tuple[ReplicaSet | None, list[ReplicaSet], Deployment]:
        """(the new replica set, all old ones, the deployment with its revision brought up to date).

        Go: ``getAllReplicaSetsAndSyncRevision`` — sync.go#L100-L130 (returns the deployment too)
        """
        # List the deployment's RSes & Pods and apply pod-template-hash info to deployment's adopted RSes/Pods
        try:
            rs_list, pod_list = self.rs_and_pods_with_hash_key_synced(d, rs_list, pod_map)
        except PANICS:
            raise
        except Exception as err:
            raise RuntimeError(sprintf("error labeling replica sets and pods with pod-template-hash: %v", err)) from err
        _, all_old_rss = deploymentutil.find_old_replica_sets(d, rs_list, pod_list)
        # Get new replica set with the updated revision number
        new_rs, d = self.get_new_replica_set(d, rs_list, all_old_rss, create_if_not_existed)
        return new_rs, all_old_rss, d

    def rs_and_pods_with_hash_key_synced(self, d: Deployment, rs_list: list[Any], pod_map: dict[str, list[Any]]
                                         ) -> tuple[list[Any], list[Any]]:
        """The replica sets (each with the hash label in its selector) and all their pods.

        Go: ``rsAndPodsWithHashKeySynced`` — sync.go#L132-L155
        """
        synced_rs_list = []
        for rs in rs_list:
            # Add pod-template-hash information if it's not in the RS.
            synced_rs = self.add_hash_key_to_rs_and_pods(rs, pod_map.get(rs.metadata.uid, []))
            synced_rs_list.append(synced_rs)
        # Put all Pods from podMap into one list.
        synced_pod_list = []
        for pod_list in pod_map.values():
            synced_pod_list.extend(pod_list)
        return synced_rs_list, synced_pod_list

    def add_hash_key_to_rs_and_pods(self, rs: ReplicaSet, pod_list: list[Any]) -> ReplicaSet:
        """Adopt a pre-1.6 (or hand-made) replica set into the hash-label scheme: template label,
        then the pods' labels, then its own labels and selector.

        Go: ``addHashKeyToRSAndPods`` — sync.go#L157-L225
        """
        # If the rs already has the new hash label in its selector, it's done syncing
        if labelsutil.selector_has_label(rs.spec.selector, DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY):
            return rs
        hash_ = get_replica_set_hash(rs)

        # 1. Add hash template label to the rs. This ensures that any newly created pods will have the new label.
        def add_template_label(updated: ReplicaSet) -> ReplicaSet:
            # Precondition: the RS doesn't contain the new hash in its pod template label.
            if updated.spec.template.metadata.labels.get(DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY, "") == hash_:
                raise ErrPreconditionViolated()
            template = updated.spec.template
            template = attrs.evolve(template, metadata=attrs.evolve(template.metadata, labels=labelsutil.add_label(
                template.metadata.labels, DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY, hash_)))
            return attrs.evolve(updated, spec=attrs.evolve(updated.spec, template=template))

        try:
            updated_rs = update_rs_with_retries(self.client.extensions().replica_sets(rs.metadata.namespace),
                                                self.rs_lister, rs.metadata.namespace, rs.metadata.name,
                                                add_template_label)
        except PANICS:
            raise
        except Exception as err:
            raise RuntimeError(sprintf("error updating replica set %s/%s pod template label with template hash: %v",
                                       rs.metadata.namespace, rs.metadata.name, err)) from err
        # Make sure rs pod template is updated so that it won't create pods without the new label (orphaned pods).
        if updated_rs.metadata.generation > updated_rs.status.observed_generation:
            try:
                deploymentutil.wait_for_replica_set_updated(self.rs_lister, updated_rs.metadata.generation,
                                                            updated_rs.metadata.namespace, updated_rs.metadata.name)
            except PANICS:
                raise
            except Exception as err:
                raise RuntimeError(sprintf("error waiting for replica set %s/%s to be observed by controller: %v",
                                           updated_rs.metadata.namespace, updated_rs.metadata.name, err)) from err
            glog.v(4).infof("Observed the update of replica set %s/%s's pod template with hash %s.",
                            rs.metadata.namespace, rs.metadata.name, hash_)
        # 2. Update all pods managed by the rs to have the new hash label, so they will be correctly adopted.
        try:
            deploymentutil.label_pods_with_hash(pod_list, self.client, self.pod_lister, rs.metadata.namespace,
                                                rs.metadata.name, hash_)
        except PANICS:
            raise
        except Exception as err:
            raise RuntimeError(sprintf("error in adding template hash label %s to pods %+v: %s", hash_,
                                       [p.metadata.name for p in pod_list], err)) from err
        # We need to wait for the replicaset controller to observe the pods being labeled with pod template hash.
        try:
            deploymentutil.wait_for_pods_hash_populated(self.rs_lister, updated_rs.metadata.generation,
                                                        updated_rs.metadata.namespace, updated_rs.metadata.name)
        except PANICS:
            raise
        except Exception as err:
            raise RuntimeError(sprintf("Replica set %s/%s: error waiting for replicaset controller to observe pods "
                                       "being labeled with template hash: %v", updated_rs.metadata.namespace,
                                       updated_rs.metadata.name, err)) from err

        # 3. Update rs label and selector to include the new hash label
        def add_label_and_selector(updated: ReplicaSet) -> ReplicaSet:
            # Precondition: the RS doesn't contain the new hash in its label and selector.
            if (updated.metadata.labels.get(DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY, "") == hash_
                    and updated.spec.selector.match_labels.get(DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY, "") == hash_):
                raise ErrPreconditionViolated()
            metadata = attrs.evolve(updated.metadata, labels=labelsutil.add_label(
                updated.metadata.labels, DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY, hash_))
            selector = labelsutil.add_label_to_selector(updated.spec.selector, DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY, hash_)
            return attrs.evolve(updated, metadata=metadata, spec=attrs.evolve(updated.spec, selector=selector))

        try:
            updated_rs = update_rs_with_retries(self.client.extensions().replica_sets(rs.metadata.namespace),
                                                self.rs_lister, rs.metadata.namespace, rs.metadata.name,
                                                add_label_and_selector)
        except PANICS:
            raise
        except Exception as err:
            raise RuntimeError(sprintf("error updating ReplicaSet %s/%s label and selector with template hash: %v",
                                       rs.metadata.namespace, rs.metadata.name, err)) from err
        return updated_rs

    def get_new_replica_set(self, deployment: Deployment, rs_list: list[Any], old_rss: list[Any],
                            create_if_not_existed: bool) -> tuple[ReplicaSet | None, Deployment]:
        """The replica set of the current template (brought up to date, or created when asked),
        and the deployment as this function left the caller's copy.

        Go: ``getNewReplicaSet`` — sync.go#L227-L355
        """
        existing_new_rs = deploymentutil.find_new_replica_set(deployment, rs_list)
        # Calculate the max revision number among all old RSes
        max_old_revision = deploymentutil.max_revision(old_rss)
        # Calculate revision number for this new replica set
        new_revision = str(max_old_revision + 1)

        # Latest replica set exists. We need to sync its annotations and also update the revision
        # annotation in the deployment with the latest revision.
        if existing_new_rs is not None:
            rs_copy = existing_new_rs
            # Set existing new replica set's annotation
            rs_copy, annotations_updated = deploymentutil.set_new_replica_set_annotations(deployment, rs_copy,
                                                                                          new_revision, True)
            min_ready_seconds_needs_update = rs_copy.spec.min_ready_seconds != deployment.spec.min_ready_seconds
            if annotations_updated or min_ready_seconds_needs_update:
                rs_copy = attrs.evolve(rs_copy, spec=attrs.evolve(rs_copy.spec,
                                                                  min_ready_seconds=deployment.spec.min_ready_seconds))
                return self.client.extensions().replica_sets(rs_copy.metadata.namespace).update(rs_copy), deployment
            # Should use the revision in existingNewRS's annotation, since it set by before
            deployment, update_conditions = deploymentutil.set_deployment_revision(
                deployment, rs_copy.metadata.annotations.get(deploymentutil.REVISION_ANNOTATION, ""))
            # If no other Progressing condition has been recorded and we need to estimate the progress
            # of this deployment then it is likely that old users started caring about progress.
            cond = deploymentutil.get_deployment_condition(deployment.status, DEPLOYMENT_PROGRESSING)
            if deployment.spec.progress_deadline_seconds is not None and cond is None:
                msg = sprintf("Found new replica set %q", rs_copy.metadata.name)
                condition = deploymentutil.new_deployment_condition(DEPLOYMENT_PROGRESSING, "True",
                                                                    deploymentutil.FOUND_NEW_RS_REASON, msg)
                deployment = attrs.evolve(deployment, status=deploymentutil.set_deployment_condition(
                    deployment.status, condition))
                update_conditions = True
            if update_conditions:
                # Go: `deployment, err = ...UpdateStatus(deployment)` rebinds only this function's
                # variable; the caller keeps the changed copy it passed in.
                self.client.extensions().deployments(deployment.metadata.namespace).update_status(deployment)
            return rs_copy, deployment

        if not create_if_not_existed:
            return None, deployment

        # new ReplicaSet does not exist, create one.
        namespace = deployment.metadata.namespace
        pod_template_spec_hash = sprintf("%d", get_pod_template_spec_hash(deployment.spec.template))
        new_rs_template = deploymentutil.get_new_replica_set_template(deployment)
        new_rs_template = attrs.evolve(new_rs_template, metadata=attrs.evolve(
            new_rs_template.metadata, labels=labelsutil.clone_and_add_label(
                deployment.spec.template.metadata.labels, DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY, pod_template_spec_hash)))
        # Add podTemplateHash label to selector.
        new_rs_selector = labelsutil.clone_selector_and_add_label(deployment.spec.selector,
                                                                  DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY,
                                                                  pod_template_spec_hash)
        # Create new ReplicaSet
        new_rs = ReplicaSet(
            # Make the name deterministic, to ensure idempotence
            metadata=ObjectMeta(name=deployment.metadata.name + "-" + pod_template_spec_hash, namespace=namespace,
                                owner_references=(new_controller_ref(deployment),)),
            spec=ReplicaSetSpec(replicas=0, min_ready_seconds=deployment.spec.min_ready_seconds,
                                selector=new_rs_selector, template=new_rs_template),
        )
        all_rss = [*old_rss, new_rs]
        new_replicas_count = deploymentutil.new_rs_new_replicas(deployment, all_rss, new_rs)
        new_rs = attrs.evolve(new_rs, spec=attrs.evolve(new_rs.spec, replicas=new_replicas_count))
        # Set new replica set's annotation
        new_rs, _ = deploymentutil.set_new_replica_set_annotations(deployment, new_rs, new_revision, False)
        try:
            created_rs = self.client.extensions().replica_sets(namespace).create(new_rs)
        except PANICS:
            raise
        except Exception as err:
            # We may end up hitting this due to a slow cache or a fast resync of the deployment.
            if is_already_exists(err):
                raise
            msg = sprintf("Failed to create new replica set %q: %v", new_rs.metadata.name, err)
            if deployment.spec.progress_deadline_seconds is not None:
                cond = deploymentutil.new_deployment_condition(DEPLOYMENT_PROGRESSING, "False",
                                                               deploymentutil.FAILED_RS_CREATE_REASON, msg)
                deployment = attrs.evolve(deployment, status=deploymentutil.set_deployment_condition(
                    deployment.status, cond))
                # We don't really care about this error at this point, since we have a bigger issue to report.
                try:
                    self.client.extensions().deployments(deployment.metadata.namespace).update_status(deployment)
                except PANICS:
                    raise
                except Exception:  # noqa: BLE001, S110 - Go: `_, _ = ...UpdateStatus(deployment)`
                    pass
            self.event_recorder.eventf(deployment, "Warning", deploymentutil.FAILED_RS_CREATE_REASON, msg)
            raise
        if new_replicas_count > 0:
            self.event_recorder.eventf(deployment, "Normal", "ScalingReplicaSet", "Scaled up replica set %s to %d",
                                       created_rs.metadata.name, new_replicas_count)
        deployment, _ = deploymentutil.set_deployment_revision(deployment, new_revision)
        if deployment.spec.progress_deadline_seconds is not None:
            msg = sprintf("Created new replica set %q", created_rs.metadata.name)
            condition = deploymentutil.new_deployment_condition(DEPLOYMENT_PROGRESSING, "True",
                                                                deploymentutil.NEW_REPLICA_SET_REASON, msg)
            deployment = attrs.evolve(deployment, status=deploymentutil.set_deployment_condition(
                deployment.status, condition))
        # Go returns (createdRS, err): the write's error reaches the caller, the RS is already made
        self.client.extensions().deployments(deployment.metadata.namespace).update_status(deployment)
        return created_rs, deployment

    def scale(self, deployment: Deployment, new_rs: ReplicaSet | None, old_rss: list[Any]) -> None:
        """Spread a change of ``spec.replicas`` over the active replica sets.

        Go: ``scale`` — sync.go#L357-L458
        """
        # If there is only one active replica set then we should scale that up to the full count of the
        # deployment. If there is no active replica set, then we should scale up the newest replica set.
        active_or_latest = deploymentutil.find_active_or_latest(new_rs, old_rss)
        if active_or_latest is not None:
            if active_or_latest.spec.replicas == deployment.spec.replicas:
                return
            self.scale_replica_set_and_record_event(active_or_latest, deployment.spec.replicas, deployment)
            return
        # If the new replica set is saturated, old replica sets should be fully scaled down.
        # This case handles replica set adoption during a saturated new replica set.
        if deploymentutil.is_saturated(deployment, new_rs):
            for old in controller.filter_active_replica_sets(old_rss):
                self.scale_replica_set_and_record_event(old, 0, deployment)
            return
        # There are old replica sets with pods and the new replica set is not saturated.
        # We need to proportionally scale all replica sets (new and old) in case of a rolling deployment.
        if deploymentutil.is_rolling_update(deployment):
            all_rss = controller.filter_active_replica_sets([*old_rss, new_rs])
            all_rss_replicas = deploymentutil.get_replica_count_for_replica_sets(all_rss)
            allowed_size = 0
            if deployment.spec.replicas > 0:
                allowed_size = deployment.spec.replicas + deploymentutil.max_surge(deployment)
            # Number of additional replicas that can be either added or removed from the total
            # replicas count. These replicas should be distributed proportionally to the active replica sets.
            deployment_replicas_to_add = allowed_size - all_rss_replicas
            # When scaling up, scale up newer replica sets first; when scaling down, older ones first.
            scaling_operation = ""
            if deployment_replicas_to_add > 0:
                sort_by_less(all_rss, controller.replica_sets_by_size_newer_less)
                scaling_operation = "up"
            elif deployment_replicas_to_add < 0:
                sort_by_less(all_rss, controller.replica_sets_by_size_older_less)
                scaling_operation = "down"
            # Iterate over all active replica sets and estimate proportions for each of them.
            deployment_replicas_added = 0
            name_to_size: dict[str, int] = {}
            for rs in all_rss:
                # Estimate proportions if we have replicas to add, otherwise simply populate
                # nameToSize with the current sizes for each replica set.
                if deployment_replicas_to_add != 0:
                    proportion = deploymentutil.get_proportion(rs, deployment, deployment_replicas_to_add,
                                                               deployment_replicas_added)
                    name_to_size[rs.metadata.name] = rs.spec.replicas + proportion
                    deployment_replicas_added += proportion
                else:
                    name_to_size[rs.metadata.name] = rs.spec.replicas
            # Update all replica sets
            for i, rs in enumerate(all_rss):
                # Add/remove any leftovers to the largest replica set.
                if i == 0 and deployment_replicas_to_add != 0:
                    leftover = deployment_replicas_to_add - deployment_replicas_added
                    name_to_size[rs.metadata.name] = name_to_size[rs.metadata.name] + leftover
                    if name_to_size[rs.metadata.name] < 0:
                        name_to_size[rs.metadata.name] = 0
                # Return as soon as we fail, the deployment is requeued
                self.scale_replica_set(rs, name_to_size[rs.metadata.name], deployment, scaling_operation)

    def scale_replica_set_and_record_event(self, rs: ReplicaSet, new_scale: int,
                                           deployment: Deployment) -> tuple[bool, ReplicaSet]:
        """Go: ``scaleReplicaSetAndRecordEvent`` — sync.go#L460-L473."""
        # No need to scale
        if rs.spec.replicas == new_scale:
            return False, rs
        scaling_operation = "up" if rs.spec.replicas < new_scale else "down"
        return self.scale_replica_set(rs, new_scale, deployment, scaling_operation)

    def scale_replica_set(self, rs: ReplicaSet, new_scale: int, deployment: Deployment,
                          scaling_operation: str) -> tuple[bool, ReplicaSet]:
        """Write the replica set's new size (and the deployment-size annotations); record an event.

        Go: ``scaleReplicaSet`` — sync.go#L475-L498
        """
        rs_copy = rs
        size_needs_update = rs_copy.spec.replicas != new_scale
        rs_copy, annotations_need_update = deploymentutil.set_replicas_annotations(
            rs_copy, deployment.spec.replicas, deployment.spec.replicas + deploymentutil.max_surge(deployment))
        scaled = False
        if size_needs_update or annotations_need_update:
            rs_copy = attrs.evolve(rs_copy, spec=attrs.evolve(rs_copy.spec, replicas=new_scale))
            rs = self.client.extensions().replica_sets(rs_copy.metadata.namespace).update(rs_copy)
            if size_needs_update:
                scaled = True
                self.event_recorder.eventf(deployment, "Normal", "ScalingReplicaSet", "Scaled %s replica set %s to %d",
                                           scaling_operation, rs.metadata.name, new_scale)
        return scaled, rs

    def cleanup_deployment(self, old_rss: list[Any], deployment: Deployment) -> None:
        """Delete the oldest empty replica sets beyond ``revisionHistoryLimit``.

        Go: ``cleanupDeployment`` — sync.go#L500-L538
        """
        if deployment.spec.revision_history_limit is None:
            return
        # Avoid deleting replica set with deletion timestamp set
        cleanable_rses = controller.filter_replica_sets(
            old_rss, lambda rs: rs is not None and rs.metadata.deletion_timestamp is None)
        diff = len(cleanable_rses) - deployment.spec.revision_history_limit
        if diff <= 0:
            return
        sort_by_less(cleanable_rses, controller.replica_sets_by_creation_timestamp_less)
        glog.v(4).infof("Looking to cleanup old replica sets for deployment %q", deployment.metadata.name)
        err_list = []
        for i in range(diff):
            rs = cleanable_rses[i]
            # Avoid delete replica set with non-zero replica counts
            if (rs.status.replicas != 0 or rs.spec.replicas != 0
                    or rs.metadata.generation > rs.status.observed_generation or rs.metadata.deletion_timestamp is not None):
                continue
            glog.v(4).infof("Trying to cleanup replica set %q for deployment %q", rs.metadata.name,
                            deployment.metadata.name)
            try:
                self.client.extensions().replica_sets(rs.metadata.namespace).delete(rs.metadata.name)
            except PANICS:
                raise
            except Exception as err:  # noqa: BLE001 - collected like Go's errList
                if not is_not_found(err):
                    glog.v(2).infof("Failed deleting old replica set %v for deployment %v: %v", rs.metadata.name,
                                    deployment.metadata.name, err)
                    err_list.append(err)
        aggregate = new_aggregate(err_list)
        if aggregate is not None:
            raise aggregate

    def sync_deployment_status(self, all_rss: list[Any], new_rs: ReplicaSet | None, d: Deployment) -> None:
        """Write the status if it changed. Go: ``syncDeploymentStatus`` — sync.go#L540-L552."""
        new_status = calculate_status(all_rss, new_rs, d)
        if d.status == new_status:
            return
        new_deployment = attrs.evolve(d, status=new_status)
        self.client.extensions().deployments(new_deployment.metadata.namespace).update_status(new_deployment)

    def is_scaling_event(self, d: Deployment, rs_list: list[Any], pod_map: dict[str, list[Any]]
                         ) -> tuple[bool, Deployment]:
        """Whether an active replica set was sized for another deployment size (a resize).

        Go: ``isScalingEvent`` — sync.go#L592-L613 (returns the deployment too)
        """
        new_rs, old_rss, d = self.get_all_replica_sets_and_sync_revision(d, rs_list, pod_map, False)
        all_rss = [*old_rss, new_rs]
        for rs in controller.filter_active_replica_sets(all_rss):
            desired, ok = deploymentutil.get_desired_replicas_annotation(rs)
            if not ok:
                continue
            if desired != d.spec.replicas:
                return True, d
        return False, d


def calculate_status(all_rss: list[Any], new_rs: ReplicaSet | None, deployment: Deployment) -> DeploymentStatus:
    """The Deployment's counts from its replica sets, and its Available condition.

    Go: ``calculateStatus`` — sync.go#L554-L590
    """
    available_replicas = deploymentutil.get_available_replica_count_for_replica_sets(all_rss)
    total_replicas = deploymentutil.get_replica_count_for_replica_sets(all_rss)
    unavailable_replicas = total_replicas - available_replicas
    # If unavailableReplicas is negative, the Deployment has more available replicas than desired.
    if unavailable_replicas < 0:
        unavailable_replicas = 0
    status = DeploymentStatus(
        observed_generation=deployment.metadata.generation,
        replicas=deploymentutil.get_actual_replica_count_for_replica_sets(all_rss),
        updated_replicas=deploymentutil.get_actual_replica_count_for_replica_sets([new_rs]),
        ready_replicas=deploymentutil.get_ready_replica_count_for_replica_sets(all_rss),
        available_replicas=available_replicas,
        unavailable_replicas=unavailable_replicas,
    )
    # Copy conditions one by one so we won't mutate the original object.
    status = attrs.evolve(status, conditions=tuple(deployment.status.conditions))
    if available_replicas >= deployment.spec.replicas - deploymentutil.max_unavailable(deployment):
        min_availability = deploymentutil.new_deployment_condition(DEPLOYMENT_AVAILABLE, "True",
                                                                   deploymentutil.MINIMUM_REPLICAS_AVAILABLE,
                                                                   "Deployment has minimum availability.")
        status = deploymentutil.set_deployment_condition(status, min_availability)
    else:
        no_min_availability = deploymentutil.new_deployment_condition(DEPLOYMENT_AVAILABLE, "False",
                                                                      deploymentutil.MINIMUM_REPLICAS_UNAVAILABLE,
                                                                      "Deployment does not have minimum availability.")
        status = deploymentutil.set_deployment_condition(status, no_min_availability)
    return status


def new_controller_ref(d: Deployment) -> OwnerReference:
    """The ControllerRef pointing to the Deployment. Go: ``newControllerRef`` — sync.go#L615-L627."""
    return OwnerReference(api_version="extensions/v1beta1", kind="Deployment", name=d.metadata.name,
                          uid=d.metadata.uid, block_owner_deletion=True, controller=True)


__all__ = ["SyncMethods", "calculate_status", "new_controller_ref"]
