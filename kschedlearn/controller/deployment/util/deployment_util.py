"""The Deployment controller's arithmetic: revisions, annotations, surge and unavailability.

Go: pkg/controller/deployment/util/deployment_util.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/controller/deployment/util/deployment_util.go

A Deployment owns one replica set per pod template it ever had. The *new* one has the current
template (compared ignoring the ``pod-template-hash`` label); every replica set carries its
revision (``deployment.kubernetes.io/revision``) and the size of the deployment when it was last
scaled (``desired-replicas``, ``max-replicas``), so a resize during a rollout is spread
proportionally. ``resolve_fenceposts`` turns ``maxSurge`` / ``maxUnavailable`` (an int or a
percentage; surge rounds up, unavailability down; both 0 → 1 unavailable) into numbers.

Differs from Go: values are frozen, so the functions Go writes to mutate their argument through
a pointer (``SetDeploymentRevision``, ``SetNewReplicaSetAnnotations``, ``SetReplicasAnnotations``,
``SetDeploymentCondition``, ...) return the updated value (with the boolean Go returns, if any)
and callers rebind it. Go's map iteration in ``FindOldReplicaSets`` (random order) is name order
here. The helpers kubectl and the e2e tests use (``GetAllReplicaSets``, ``ListReplicaSets``,
``ListPods`` and their ``V15`` / ``Internal`` twins, ``WaitForObservedDeployment``) are not
mirrored: the controller never calls them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import attrs

from kschedlearn import sim
from kschedlearn.api.v1 import PodTemplateSpec
from kschedlearn.apimachinery._gosort import reverse, sort_by_less
from kschedlearn.apimachinery.apis.meta import v1 as metav1
from kschedlearn.apimachinery.util import wait
from kschedlearn.apimachinery.util.intstr import get_value_from_int_or_percent
from kschedlearn.apis.extensions.v1beta1.types import (
    DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY,
    DEPLOYMENT_PROGRESSING,
    RECREATE_DEPLOYMENT_STRATEGY_TYPE,
    ROLLING_UPDATE_DEPLOYMENT_STRATEGY_TYPE,
    Deployment,
    DeploymentCondition,
    DeploymentStatus,
    ReplicaSet,
    ReplicaSetCondition,
)
from kschedlearn.controller import controller_utils as controller
from kschedlearn.controller.deployment.util.pod_util import update_pod_with_retries
from kschedlearn.trace import glog
from kschedlearn.trace.gofmt import sprintf
from kschedlearn.util import labels as labelsutil

# Go: the annotation keys and condition reasons of deployment_util.go#L50-L109.
REVISION_ANNOTATION = "deployment.kubernetes.io/revision"
REVISION_HISTORY_ANNOTATION = "deployment.kubernetes.io/revision-history"
DESIRED_REPLICAS_ANNOTATION = "deployment.kubernetes.io/desired-replicas"
MAX_REPLICAS_ANNOTATION = "deployment.kubernetes.io/max-replicas"
ROLLBACK_REVISION_NOT_FOUND = "DeploymentRollbackRevisionNotFound"
ROLLBACK_TEMPLATE_UNCHANGED = "DeploymentRollbackTemplateUnchanged"
ROLLBACK_DONE = "DeploymentRollback"
OVERLAP_ANNOTATION = "deployment.kubernetes.io/error-selector-overlapping-with"
REPLICA_SET_UPDATED_REASON = "ReplicaSetUpdated"
FAILED_RS_CREATE_REASON = "ReplicaSetCreateError"
NEW_REPLICA_SET_REASON = "NewReplicaSetCreated"
FOUND_NEW_RS_REASON = "FoundNewReplicaSet"
NEW_RS_AVAILABLE_REASON = "NewReplicaSetAvailable"
TIMED_OUT_REASON = "ProgressDeadlineExceeded"
PAUSED_DEPLOY_REASON = "DeploymentPaused"
RESUMED_DEPLOY_REASON = "DeploymentResumed"
MINIMUM_REPLICAS_AVAILABLE = "MinimumReplicasAvailable"
MINIMUM_REPLICAS_UNAVAILABLE = "MinimumReplicasUnavailable"

#: Go: annotations.LastAppliedConfigAnnotation (pkg/api/annotations).
LAST_APPLIED_CONFIG_ANNOTATION = "kubectl.kubernetes.io/last-applied-configuration"


def new_deployment_condition(cond_type: str, status: str, reason: str, message: str) -> DeploymentCondition:
    """Go: ``NewDeploymentCondition`` — deployment_util.go#L111-L121."""
    now = sim.now()
    return DeploymentCondition(type=cond_type, status=status, last_update_time=now, last_transition_time=now,
                               reason=reason, message=message)


def get_deployment_condition(status: DeploymentStatus, cond_type: str) -> DeploymentCondition | None:
    """Go: ``GetDeploymentCondition`` — deployment_util.go#L123-L132."""
    for c in status.conditions:
        if c.type == cond_type:
            return c
    return None


def set_deployment_condition(status: DeploymentStatus, condition: DeploymentCondition) -> DeploymentStatus:
    """Add or replace a condition (unchanged when status and reason are the same).

    Go: ``SetDeploymentCondition`` — deployment_util.go#L146-L159 (returns the new status).
    """
    current_cond = get_deployment_condition(status, condition.type)
    if current_cond is not None and current_cond.status == condition.status and current_cond.reason == condition.reason:
        return status
    # Do not update lastTransitionTime if the status of the condition doesn't change.
    if current_cond is not None and current_cond.status == condition.status:
        condition = attrs.evolve(condition, last_transition_time=current_cond.last_transition_time)
    new_conditions = filter_out_condition(status.conditions, condition.type)
    return attrs.evolve(status, conditions=(*new_conditions, condition))


def remove_deployment_condition(status: DeploymentStatus, cond_type: str) -> DeploymentStatus:
    """Go: ``RemoveDeploymentCondition`` — deployment_util.go#L161-L164 (returns the new status)."""
    return attrs.evolve(status, conditions=filter_out_condition(status.conditions, cond_type))


def filter_out_condition(conditions: Sequence[DeploymentCondition], cond_type: str) -> tuple[DeploymentCondition, ...]:
    """Go: ``filterOutCondition`` — deployment_util.go#L166-L176."""
    return tuple(c for c in conditions if c.type != cond_type)


def replica_set_to_deployment_condition(cond: ReplicaSetCondition) -> DeploymentCondition:
    """Go: ``ReplicaSetToDeploymentCondition`` — deployment_util.go#L178-L189."""
    return DeploymentCondition(type=cond.type, status=cond.status, last_transition_time=cond.last_transition_time,
                               last_update_time=cond.last_transition_time, reason=cond.reason, message=cond.message)


def set_deployment_revision(deployment: Deployment, revision: str) -> tuple[Deployment, bool]:
    """Go: ``SetDeploymentRevision`` — deployment_util.go#L191-L204 (returns the deployment too)."""
    updated = False
    if deployment.metadata.annotations.get(REVISION_ANNOTATION, "") != revision:
        annotations = {**deployment.metadata.annotations, REVISION_ANNOTATION: revision}
        deployment = attrs.evolve(deployment, metadata=attrs.evolve(deployment.metadata, annotations=annotations))
        updated = True
    return deployment, updated


def max_revision(all_rss: Sequence[ReplicaSet]) -> int:
    """The highest revision among the replica sets. Go: ``MaxRevision`` — deployment_util.go#L206-L218."""
    max_ = 0
    for rs in all_rss:
        try:
            v = revision(rs)
        except ValueError as err:
            # Skip the replica sets when it failed to parse their revision information
            glog.v(4).infof("Error: %v. Couldn't parse revision for replica set %#v, deployment controller will skip "
                            "it when reconciling revisions.", err, rs)
            continue
        if v > max_:
            max_ = v
    return max_


def last_revision(all_rss: Sequence[ReplicaSet]) -> int:
    """The second highest revision (the one before the current). Go: ``LastRevision`` — deployment_util.go#L220-L235."""
    max_, sec_max = 0, 0
    for rs in all_rss:
        try:
            v = revision(rs)
        except ValueError as err:
            glog.v(4).infof("Error: %v. Couldn't parse revision for replica set %#v, deployment controller will skip "
                            "it when reconciling revisions.", err, rs)
            continue
        if v >= max_:
            sec_max = max_
            max_ = v
        elif v > sec_max:
            sec_max = v
    return sec_max


def revision(obj: Any) -> int:
    """The revision annotation as an int (0 when absent). Go: ``Revision`` — deployment_util.go#L237-L248."""
    v = obj.metadata.annotations.get(REVISION_ANNOTATION)
    if v is None:
        return 0
    return _parse_int64(v)


def _parse_int64(s: str) -> int:
    """Go: ``strconv.ParseInt(s, 10, 64)`` (raises ValueError with Go's text)."""
    body = s[1:] if s[:1] in "+-" else s
    if not body or not body.isascii() or not body.isdigit():
        raise ValueError(f'strconv.ParseInt: parsing "{s}": invalid syntax')
    return int(s)


def set_new_replica_set_annotations(deployment: Deployment, new_rs: ReplicaSet, new_revision: str,
                                    exists: bool) -> tuple[ReplicaSet, bool]:
    """Copy the deployment's annotations to its new replica set and raise its revision.

    Go: ``SetNewReplicaSetAnnotations`` — deployment_util.go#L250-L286 (returns the replica set too).
    Note 1.6 compares revisions as *strings* (``oldRevision < newRevision``): "9" < "10" is false.
    """
    # First, copy deployment's annotations (except for apply and revision annotations)
    new_rs, annotation_changed = copy_deployment_annotations_to_replica_set(deployment, new_rs)
    # Then, update replica set's revision annotation
    annotations = dict(new_rs.metadata.annotations)
    old_revision = annotations.get(REVISION_ANNOTATION, "")
    ok = REVISION_ANNOTATION in annotations
    # The newRS's revision should be the greatest among all RSes; update it only when it is smaller.
    if old_revision < new_revision:
        annotations[REVISION_ANNOTATION] = new_revision
        annotation_changed = True
        glog.v(4).infof("Updating replica set %q revision to %s", new_rs.metadata.name, new_revision)
    # If a revision annotation already existed and this replica set was updated with a new revision
    # then that means we are rolling back to this replica set. Preserve the old revisions.
    if ok and annotation_changed:
        revision_history_annotation = annotations.get(REVISION_HISTORY_ANNOTATION, "")
        old_revisions = revision_history_annotation.split(",")
        if len(old_revisions[0]) == 0:
            annotations[REVISION_HISTORY_ANNOTATION] = old_revision
        else:
            old_revisions.append(old_revision)
            annotations[REVISION_HISTORY_ANNOTATION] = ",".join(old_revisions)
    new_rs = attrs.evolve(new_rs, metadata=attrs.evolve(new_rs.metadata, annotations=annotations))
    # If the new replica set is about to be created, we need to add replica annotations to it.
    if not exists:
        new_rs, updated = set_replicas_annotations(new_rs, deployment.spec.replicas,
                                                   deployment.spec.replicas + max_surge(deployment))
        if updated:
            annotation_changed = True
    return new_rs, annotation_changed


ANNOTATIONS_TO_SKIP = {
    LAST_APPLIED_CONFIG_ANNOTATION: True,
    REVISION_ANNOTATION: True,
    REVISION_HISTORY_ANNOTATION: True,
    DESIRED_REPLICAS_ANNOTATION: True,
    MAX_REPLICAS_ANNOTATION: True,
    OVERLAP_ANNOTATION: True,
}
"""Go: ``annotationsToSkip`` — deployment_util.go#L288-L295."""


def skip_copy_annotation(key: str) -> bool:
    """Go: ``skipCopyAnnotation`` — deployment_util.go#L297-L302."""
    return ANNOTATIONS_TO_SKIP.get(key, False)


def copy_deployment_annotations_to_replica_set(deployment: Deployment, rs: ReplicaSet) -> tuple[ReplicaSet, bool]:
    """Go: ``copyDeploymentAnnotationsToReplicaSet`` — deployment_util.go#L304-L323 (returns the replica set too)."""
    rs_annotations_changed = False
    annotations = dict(rs.metadata.annotations)
    for k, v in deployment.metadata.annotations.items():
        # newRS revision is updated automatically in getNewReplicaSet; don't copy the deployment's.
        if skip_copy_annotation(k) or annotations.get(k, "") == v:
            continue
        annotations[k] = v
        rs_annotations_changed = True
    return attrs.evolve(rs, metadata=attrs.evolve(rs.metadata, annotations=annotations)), rs_annotations_changed


def set_deployment_annotations_to(deployment: Deployment, rollback_to_rs: ReplicaSet) -> Deployment:
    """Go: ``SetDeploymentAnnotationsTo`` — deployment_util.go#L325-L335 (returns the deployment)."""
    annotations = get_skipped_annotations(deployment.metadata.annotations)
    for k, v in rollback_to_rs.metadata.annotations.items():
        if not skip_copy_annotation(k):
            annotations[k] = v
    return attrs.evolve(deployment, metadata=attrs.evolve(deployment.metadata, annotations=annotations))


def get_skipped_annotations(annotations: dict[str, str]) -> dict[str, str]:
    """Go: ``getSkippedAnnotations`` — deployment_util.go#L337-L345."""
    return {k: v for k, v in annotations.items() if skip_copy_annotation(k)}


def find_active_or_latest(new_rs: ReplicaSet | None, old_rss: list[ReplicaSet]) -> ReplicaSet | None:
    """The only active replica set, or the newest when none is active; None when several are.

    Go: ``FindActiveOrLatest`` — deployment_util.go#L347-L369 (it sorts ``oldRSs`` in place, newest first).
    """
    if new_rs is None and len(old_rss) == 0:
        return None
    sort_by_less(old_rss, reverse(controller.replica_sets_by_creation_timestamp_less))
    all_rss = controller.filter_active_replica_sets([*old_rss, new_rs])
    if len(all_rss) == 0:
        # If there is no active replica set then we should return the newest.
        if new_rs is not None:
            return new_rs
        return old_rss[0]
    if len(all_rss) == 1:
        return all_rss[0]
    return None


def get_desired_replicas_annotation(rs: ReplicaSet) -> tuple[int, bool]:
    """Go: ``GetDesiredReplicasAnnotation`` — deployment_util.go#L371-L374."""
    return get_int_from_annotation(rs, DESIRED_REPLICAS_ANNOTATION)


def get_max_replicas_annotation(rs: ReplicaSet) -> tuple[int, bool]:
    """Go: ``getMaxReplicasAnnotation`` — deployment_util.go#L376-L378."""
    return get_int_from_annotation(rs, MAX_REPLICAS_ANNOTATION)


def get_int_from_annotation(rs: ReplicaSet, annotation_key: str) -> tuple[int, bool]:
    """Go: ``getIntFromAnnotation`` — deployment_util.go#L380-L391."""
    annotation_value = rs.metadata.annotations.get(annotation_key)
    if annotation_value is None:
        return 0, False
    try:
        int_value = _atoi(annotation_value)
    except ValueError:
        glog.v(2).infof("Cannot convert the value %q with annotation key %q for the replica set %q",
                        annotation_value, annotation_key, rs.metadata.name)
        return 0, False
    return int_value, True


def _atoi(s: str) -> int:
    """Go: ``strconv.Atoi`` (raises ValueError)."""
    return _parse_int64(s)


def set_replicas_annotations(rs: ReplicaSet, desired_replicas: int, max_replicas: int) -> tuple[ReplicaSet, bool]:
    """Record the deployment size and its maximum on the replica set.

    Go: ``SetReplicasAnnotations`` — deployment_util.go#L393-L410 (returns the replica set too).
    """
    updated = False
    annotations = dict(rs.metadata.annotations)
    desired_string = sprintf("%d", desired_replicas)
    if annotations.get(DESIRED_REPLICAS_ANNOTATION, "") != desired_string:
        annotations[DESIRED_REPLICAS_ANNOTATION] = desired_string
        updated = True
    max_string = sprintf("%d", max_replicas)
    if annotations.get(MAX_REPLICAS_ANNOTATION, "") != max_string:
        annotations[MAX_REPLICAS_ANNOTATION] = max_string
        updated = True
    return attrs.evolve(rs, metadata=attrs.evolve(rs.metadata, annotations=annotations)), updated


def max_unavailable(deployment: Deployment) -> int:
    """Go: ``MaxUnavailable`` — deployment_util.go#L412-L420."""
    if not is_rolling_update(deployment) or deployment.spec.replicas == 0:
        return 0
    # Error caught by validation
    ru = deployment.spec.strategy.rolling_update
    _, max_unavailable_ = resolve_fenceposts(ru.max_surge, ru.max_unavailable, deployment.spec.replicas)
    return max_unavailable_


def min_available(deployment: Deployment) -> int:
    """Go: ``MinAvailable`` — deployment_util.go#L433-L439."""
    if not is_rolling_update(deployment):
        return 0
    return deployment.spec.replicas - max_unavailable(deployment)


def max_surge(deployment: Deployment) -> int:
    """Go: ``MaxSurge`` — deployment_util.go#L441-L449."""
    if not is_rolling_update(deployment):
        return 0
    # Error caught by validation
    ru = deployment.spec.strategy.rolling_update
    max_surge_, _ = resolve_fenceposts(ru.max_surge, ru.max_unavailable, deployment.spec.replicas)
    return max_surge_


def get_proportion(rs: ReplicaSet | None, d: Deployment, deployment_replicas_to_add: int,
                   deployment_replicas_added: int) -> int:
    """This replica set's share of a resize. Go: ``GetProportion`` — deployment_util.go#L451-L472."""
    if (rs is None or rs.spec.replicas == 0 or deployment_replicas_to_add == 0
            or deployment_replicas_to_add == deployment_replicas_added):
        return 0
    rs_fraction = get_replica_set_fraction(rs, d)
    allowed = deployment_replicas_to_add - deployment_replicas_added
    if deployment_replicas_to_add > 0:
        # Use the minimum between the replica set fraction and the maximum allowed replicas when scaling up.
        return min(rs_fraction, allowed)
    # Use the maximum between the replica set fraction and the maximum allowed replicas when scaling down.
    return max(rs_fraction, allowed)


def get_replica_set_fraction(rs: ReplicaSet, d: Deployment) -> int:
    """Go: ``getReplicaSetFraction`` — deployment_util.go#L474-L496."""
    # If we are scaling down to zero then the fraction of this replica set is its whole size (negative)
    if d.spec.replicas == 0:
        return -rs.spec.replicas
    deployment_replicas = d.spec.replicas + max_surge(d)
    annotated_replicas, ok = get_max_replicas_annotation(rs)
    if not ok:
        # If we cannot find the annotation then fallback to the current deployment size.
        annotated_replicas = d.status.replicas
    # We should never proportionally scale up from zero which means rs.spec.replicas and annotatedReplicas
    # will never be zero here.
    new_rs_size = float(rs.spec.replicas * deployment_replicas) / float(annotated_replicas)
    return _round_to_int32(new_rs_size) - rs.spec.replicas


def _round_to_int32(a: float) -> int:
    """Go: client-go util/integer ``RoundToInt32`` (half away from zero)."""
    if a < 0:
        return int(a - 0.5)
    return int(a + 0.5)


def equal_ignore_hash(template1: PodTemplateSpec, template2: PodTemplateSpec) -> bool:
    """Same template, ignoring the ``pod-template-hash`` label.

    Go: ``EqualIgnoreHash`` — deployment_util.go#L759-L778
    """
    # First, compare template.Labels (ignoring hash)
    labels1, labels2 = template1.metadata.labels, template2.metadata.labels
    if len(labels1) > len(labels2):
        labels1, labels2 = labels2, labels1
    # We make sure len(labels2) >= len(labels1)
    for k, v in labels2.items():
        if labels1.get(k, "") != v and k != DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY:
            return False
    # Then, compare the templates without comparing their labels
    template1 = attrs.evolve(template1, metadata=attrs.evolve(template1.metadata, labels={}))
    template2 = attrs.evolve(template2, metadata=attrs.evolve(template2.metadata, labels={}))
    return template1 == template2


def find_new_replica_set(deployment: Deployment, rs_list: list[ReplicaSet]) -> ReplicaSet | None:
    """The oldest replica set with the deployment's template.

    Go: ``FindNewReplicaSet`` — deployment_util.go#L780-L795 (sorts ``rsList`` in place).
    """
    new_rs_template = get_new_replica_set_template(deployment)
    sort_by_less(rs_list, controller.replica_sets_by_creation_timestamp_less)
    for rs in rs_list:
        if equal_ignore_hash(rs.spec.template, new_rs_template):
            # We deterministically choose the oldest new ReplicaSet.
            return rs
    # new ReplicaSet does not exist.
    return None


def find_old_replica_sets(deployment: Deployment, rs_list: list[ReplicaSet], pod_list: Sequence[Any]
                          ) -> tuple[list[ReplicaSet], list[ReplicaSet]]:
    """(old replica sets with pods, all old replica sets) — found by walking the pods.

    Go: ``FindOldReplicaSets`` — deployment_util.go#L797-L837. 1.6 quirk: with no pods at all,
    no old replica set is returned (the loop that collects them runs once per pod).
    Differs from Go: the two maps are read back in name order (Go: random map order).
    """
    old_rss: dict[str, ReplicaSet] = {}
    all_old_rss: dict[str, ReplicaSet] = {}
    new_rs = find_new_replica_set(deployment, rs_list)
    for pod in pod_list:
        for rs in rs_list:
            rs_labels_selector = metav1.label_selector_as_selector(rs.spec.selector)
            # Filter out new replica set
            if new_rs is not None and rs.metadata.uid == new_rs.metadata.uid:
                continue
            all_old_rss[rs.metadata.name] = rs
            if rs_labels_selector.matches(pod.metadata.labels):
                old_rss[rs.metadata.name] = rs
    required_rss = [old_rss[k] for k in sorted(old_rss)]
    all_rss = [all_old_rss[k] for k in sorted(all_old_rss)]
    return required_rss, all_rss


def wait_for_replica_set_updated(c: Any, desired_generation: int, namespace: str, name: str) -> None:
    """Poll the lister (every 1 s, at most 1 min) until the replica set's status saw the generation.

    Go: ``WaitForReplicaSetUpdated`` — deployment_util.go#L839-L848
    """

    def condition() -> bool:
        rs = c.replica_sets(namespace).get(name)
        return rs.status.observed_generation >= desired_generation

    wait.poll_immediate(1.0, 60.0, condition)


def wait_for_pods_hash_populated(c: Any, desired_generation: int, namespace: str, name: str) -> None:
    """Poll until the replica set's status counts every pod as fully labeled.

    Go: ``WaitForPodsHashPopulated`` — deployment_util.go#L850-L860
    """

    def condition() -> bool:
        rs = c.replica_sets(namespace).get(name)
        return (rs.status.observed_generation >= desired_generation
                and rs.status.fully_labeled_replicas == rs.spec.replicas)

    wait.poll_immediate(1.0, 60.0, condition)


def label_pods_with_hash(pod_list: Sequence[Any], c: Any, pod_lister: Any, namespace: str, name: str,
                         hash_: str) -> None:
    """Add the ``pod-template-hash`` label to every pod that lacks it.

    Go: ``LabelPodsWithHash`` — deployment_util.go#L862-L884
    """
    from kschedlearn.apimachinery.util.errors import ErrPreconditionViolated

    for pod in pod_list:
        # Only label the pod that doesn't already have the new hash
        if pod.metadata.labels.get(DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY, "") != hash_:

            def apply_update(pod_to_update: Any) -> Any:
                # Precondition: the pod doesn't contain the new hash in its label.
                if pod_to_update.metadata.labels.get(DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY, "") == hash_:
                    raise ErrPreconditionViolated()
                return attrs.evolve(pod_to_update, metadata=attrs.evolve(pod_to_update.metadata, labels=labelsutil.add_label(
                    pod_to_update.metadata.labels, DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY, hash_)))

            try:
                update_pod_with_retries(c.core().pods(namespace), pod_lister, pod.metadata.namespace,
                                        pod.metadata.name, apply_update)
            except Exception as err:
                raise RuntimeError(sprintf("error in adding template hash label %s to pod %q: %v", hash_,
                                           pod.metadata.name, err)) from err
            glog.v(4).infof("Labeled pod %s/%s of ReplicaSet %s/%s with hash %s.", pod.metadata.namespace,
                            pod.metadata.name, namespace, name, hash_)


def get_new_replica_set_template(deployment: Deployment) -> PodTemplateSpec:
    """Go: ``GetNewReplicaSetTemplate`` — deployment_util.go#L886-L894."""
    # newRS will have the same template as in deployment spec.
    return PodTemplateSpec(metadata=deployment.spec.template.metadata, spec=deployment.spec.template.spec)


def set_from_replica_set_template(deployment: Deployment, template: PodTemplateSpec) -> Deployment:
    """Go: ``SetFromReplicaSetTemplate`` — deployment_util.go#L911-L919 (returns the deployment)."""
    metadata = attrs.evolve(template.metadata, labels=labelsutil.clone_and_remove_label(
        template.metadata.labels, DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY))
    return attrs.evolve(deployment, spec=attrs.evolve(deployment.spec, template=PodTemplateSpec(
        metadata=metadata, spec=template.spec)))


def get_replica_count_for_replica_sets(replica_sets: Sequence[ReplicaSet | None]) -> int:
    """Sum of ``spec.replicas``. Go: ``GetReplicaCountForReplicaSets`` — deployment_util.go#L921-L930."""
    return sum(rs.spec.replicas for rs in replica_sets if rs is not None)


def get_actual_replica_count_for_replica_sets(replica_sets: Sequence[ReplicaSet | None]) -> int:
    """Sum of ``status.replicas``. Go: ``GetActualReplicaCountForReplicaSets`` — deployment_util.go#L932-L941."""
    return sum(rs.status.replicas for rs in replica_sets if rs is not None)


def get_ready_replica_count_for_replica_sets(replica_sets: Sequence[ReplicaSet | None]) -> int:
    """Go: ``GetReadyReplicaCountForReplicaSets`` — deployment_util.go#L943-L952."""
    return sum(rs.status.ready_replicas for rs in replica_sets if rs is not None)


def get_available_replica_count_for_replica_sets(replica_sets: Sequence[ReplicaSet | None]) -> int:
    """Go: ``GetAvailableReplicaCountForReplicaSets`` — deployment_util.go#L954-L963."""
    return sum(rs.status.available_replicas for rs in replica_sets if rs is not None)


def is_rolling_update(deployment: Deployment) -> bool:
    """Go: ``IsRollingUpdate`` — deployment_util.go#L965-L968."""
    return deployment.spec.strategy.type == ROLLING_UPDATE_DEPLOYMENT_STRATEGY_TYPE


def deployment_complete(deployment: Deployment, new_status: DeploymentStatus) -> bool:
    """All replicas updated, no old ones, minimum availability met, generation observed.

    Go: ``DeploymentComplete`` — deployment_util.go#L970-L977
    """
    return (new_status.updated_replicas == deployment.spec.replicas
            and new_status.replicas == deployment.spec.replicas
            and new_status.available_replicas >= deployment.spec.replicas - max_unavailable(deployment)
            and new_status.observed_generation >= deployment.metadata.generation)


def deployment_progressing(deployment: Deployment, new_status: DeploymentStatus) -> bool:
    """Go: ``DeploymentProgressing`` — deployment_util.go#L979-L993."""
    old_status = deployment.status
    # Old replicas that need to be scaled down
    old_status_old_replicas = old_status.replicas - old_status.updated_replicas
    new_status_old_replicas = new_status.replicas - new_status.updated_replicas
    return (new_status.updated_replicas > old_status.updated_replicas
            or new_status_old_replicas < old_status_old_replicas
            or new_status.available_replicas > deployment.status.available_replicas)


now_fn: Callable[[], float] = lambda: sim.now()  # noqa: E731 - Go: a package variable tests replace
"""Go: ``nowFn`` — deployment_util.go#L995-L996 (the virtual clock here)."""


def deployment_timed_out(deployment: Deployment, new_status: DeploymentStatus) -> bool:
    """No progress for ``progressDeadlineSeconds`` (or already reported as timed out).

    Go: ``DeploymentTimedOut`` — deployment_util.go#L998-L1027
    """
    if deployment.spec.progress_deadline_seconds is None:
        return False
    # Look for the Progressing condition. If it doesn't exist, we have no base to estimate progress.
    condition = get_deployment_condition(new_status, DEPLOYMENT_PROGRESSING)
    if condition is None:
        return False
    if condition.reason == TIMED_OUT_REASON:
        return True
    from_ = condition.last_update_time or 0.0
    now = now_fn()
    delta = float(deployment.spec.progress_deadline_seconds)
    timed_out = from_ + delta < now
    glog.v(4).infof("Deployment %q timed out (%t) [last progress check: %v - now: %v]", deployment.metadata.name,
                    timed_out, from_, now)
    return timed_out


def new_rs_new_replicas(deployment: Deployment, all_rss: Sequence[ReplicaSet], new_rs: ReplicaSet) -> int:
    """How many replicas the new replica set may have now (the surge limit of a rolling update).

    Go: ``NewRSNewReplicas`` — deployment_util.go#L1029-L1058
    """
    if deployment.spec.strategy.type == ROLLING_UPDATE_DEPLOYMENT_STRATEGY_TYPE:
        # Check if we can scale up.
        max_surge_ = get_value_from_int_or_percent(deployment.spec.strategy.rolling_update.max_surge,
                                                   deployment.spec.replicas, True)
        # Find the total number of pods
        current_pod_count = get_replica_count_for_replica_sets(all_rss)
        max_total_pods = deployment.spec.replicas + max_surge_
        if current_pod_count >= max_total_pods:
            # Cannot scale up.
            return new_rs.spec.replicas
        # Scale up.
        scale_up_count = max_total_pods - current_pod_count
        # Do not exceed the number of desired replicas.
        scale_up_count = min(scale_up_count, deployment.spec.replicas - new_rs.spec.replicas)
        return new_rs.spec.replicas + scale_up_count
    if deployment.spec.strategy.type == RECREATE_DEPLOYMENT_STRATEGY_TYPE:
        return deployment.spec.replicas
    raise RuntimeError(sprintf("deployment type %v isn't supported", deployment.spec.strategy.type))


def is_saturated(deployment: Deployment, rs: ReplicaSet | None) -> bool:
    """The new replica set has (and knows it should have) all the replicas.

    Go: ``IsSaturated`` — deployment_util.go#L1060-L1073
    """
    if rs is None:
        return False
    desired_string = rs.metadata.annotations.get(DESIRED_REPLICAS_ANNOTATION, "")
    try:
        desired = _atoi(desired_string)
    except ValueError:
        return False
    return rs.spec.replicas == deployment.spec.replicas and desired == deployment.spec.replicas


def resolve_fenceposts(max_surge_: Any, max_unavailable_: Any, desired: int) -> tuple[int, int]:
    """maxSurge (rounded up) and maxUnavailable (rounded down) as numbers; both 0 → 1 unavailable.

    Go: ``ResolveFenceposts`` — deployment_util.go#L1101-L1129 (raises instead of returning the error).
    """
    surge = get_value_from_int_or_percent(max_surge_, desired, True)
    unavailable = get_value_from_int_or_percent(max_unavailable_, desired, False)
    if surge == 0 and unavailable == 0:
        # Both may resolve to zero by rounding maxUnavailable down: then allow one unavailable.
        unavailable = 1
    return surge, unavailable


def deployment_deep_copy(deployment: Deployment) -> Deployment:
    """Go: ``DeploymentDeepCopy`` — deployment_util.go#L1131-L1141 (values are frozen: the same value)."""
    return deployment


__all__ = [
    "ANNOTATIONS_TO_SKIP", "DESIRED_REPLICAS_ANNOTATION", "FAILED_RS_CREATE_REASON", "FOUND_NEW_RS_REASON",
    "MAX_REPLICAS_ANNOTATION", "MINIMUM_REPLICAS_AVAILABLE", "MINIMUM_REPLICAS_UNAVAILABLE", "NEW_REPLICA_SET_REASON",
    "NEW_RS_AVAILABLE_REASON", "OVERLAP_ANNOTATION", "PAUSED_DEPLOY_REASON", "REPLICA_SET_UPDATED_REASON",
    "RESUMED_DEPLOY_REASON", "REVISION_ANNOTATION", "REVISION_HISTORY_ANNOTATION", "ROLLBACK_DONE",
    "ROLLBACK_REVISION_NOT_FOUND", "ROLLBACK_TEMPLATE_UNCHANGED", "TIMED_OUT_REASON",
    "copy_deployment_annotations_to_replica_set", "deployment_complete", "deployment_deep_copy",
    "deployment_progressing", "deployment_timed_out", "equal_ignore_hash", "filter_out_condition",
    "find_active_or_latest", "find_new_replica_set", "find_old_replica_sets", "get_actual_replica_count_for_replica_sets",
    "get_available_replica_count_for_replica_sets", "get_deployment_condition", "get_desired_replicas_annotation",
    "get_int_from_annotation", "get_max_replicas_annotation", "get_new_replica_set_template", "get_proportion",
    "get_ready_replica_count_for_replica_sets", "get_replica_count_for_replica_sets", "get_replica_set_fraction",
    "get_skipped_annotations", "is_rolling_update", "is_saturated", "label_pods_with_hash", "last_revision",
    "max_revision", "max_surge", "max_unavailable", "min_available", "new_deployment_condition", "new_rs_new_replicas",
    "now_fn", "remove_deployment_condition", "replica_set_to_deployment_condition", "resolve_fenceposts", "revision",
    "set_deployment_annotations_to", "set_deployment_condition", "set_deployment_revision",
    "set_from_replica_set_template", "set_new_replica_set_annotations", "set_replicas_annotations",
    "skip_copy_annotation", "wait_for_pods_hash_populated", "wait_for_replica_set_updated",
]
