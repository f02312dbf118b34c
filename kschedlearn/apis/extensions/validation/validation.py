"""The 1.6 API server's validation of Deployments, DaemonSets, ReplicaSets and Scale.

Go: ``pkg/apis/extensions/validation/validation.go``
(https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/apis/extensions/validation/validation.go)

Objects are validated after defaulting (as Go validates the internal object the decoder
defaulted). Bad composite values print as Go's ``%#v`` (:mod:`kschedlearn.api.validation._gosharp`).

Differs from Go: the ``Validate*Update`` functions leave ``ValidateObjectMetaUpdate`` (immutable
metadata) to the API server's ``BeforeUpdate`` step (:meth:`kschedlearn.apiserver.server.APIServer._validate`
runs it once for every update), where Go's run it a second time.
"""

from __future__ import annotations

from typing import Any

from kschedlearn.api.validation import validation as apivalidation
from kschedlearn.api.validation._gosharp import go_value_of, label_selector, string_map
from kschedlearn.apimachinery.apis.meta import v1 as metav1
from kschedlearn.apimachinery.util.validation import field as f
from kschedlearn.apimachinery.util.validation.validation import is_valid_percent
from kschedlearn.apis.extensions.v1beta1.types import (
    ON_DELETE_DAEMON_SET_STRATEGY_TYPE,
    RECREATE_DEPLOYMENT_STRATEGY_TYPE,
    ROLLING_UPDATE_DAEMON_SET_STRATEGY_TYPE,
    ROLLING_UPDATE_DEPLOYMENT_STRATEGY_TYPE,
)

Errors = list[f.Error]


def _selector(selector: Any) -> tuple[Any, bool]:
    """``metav1.LabelSelectorAsSelector`` -> (selector, ok)."""
    try:
        return metav1.label_selector_as_selector(selector), True
    except ValueError:
        return None, False


def _labels_value(labels: Any) -> Any:
    return go_value_of(string_map(labels, nil_if_empty=True))


# -- DaemonSets ------------------------------------------------------------------------------

def validate_daemon_set(ds: Any) -> Errors:
    """Go: ``ValidateDaemonSet`` — validation.go#L92-L97."""
    errs = apivalidation.validate_object_meta(ds.metadata, True)
    errs += validate_daemon_set_spec(ds.spec, "spec")
    return errs


def validate_daemon_set_update(ds: Any, old_ds: Any) -> Errors:
    """Go: ``ValidateDaemonSetUpdate`` — validation.go#L99-L105 (see the module docstring)."""
    errs = validate_daemon_set_spec_update(ds.spec, old_ds.spec, "spec")
    errs += validate_daemon_set_spec(ds.spec, "spec")
    return errs


def validate_daemon_set_spec_update(new_spec: Any, old_spec: Any, path: str) -> Errors:
    """``templateGeneration`` moves with the template. Go: ``ValidateDaemonSetSpecUpdate`` — validation.go#L107-L124."""
    errs: Errors = []
    # TemplateGeneration shouldn't be decremented
    if new_spec.template_generation < old_spec.template_generation:
        errs.append(f.invalid(f.child(path, "templateGeneration"), new_spec.template_generation, "must not be decremented"))
    # TemplateGeneration should be increased when and only when template is changed
    template_updated = new_spec.template != old_spec.template
    if new_spec.template_generation == old_spec.template_generation and template_updated:
        errs.append(f.invalid(f.child(path, "templateGeneration"), new_spec.template_generation,
                              "must be incremented upon template update"))
    elif new_spec.template_generation > old_spec.template_generation and not template_updated:
        errs.append(f.invalid(f.child(path, "templateGeneration"), new_spec.template_generation,
                              "must not be incremented without template update"))
    return errs


def validate_daemon_set_status(status: Any, path: str) -> Errors:
    """Go: ``validateDaemonSetStatus`` — validation.go#L126-L138."""
    nonneg = apivalidation.validate_nonnegative_field
    errs = nonneg(status.current_number_scheduled, f.child(path, "currentNumberScheduled"))
    errs += nonneg(status.number_misscheduled, f.child(path, "numberMisscheduled"))
    errs += nonneg(status.desired_number_scheduled, f.child(path, "desiredNumberScheduled"))
    errs += nonneg(status.number_ready, f.child(path, "numberReady"))
    errs += nonneg(status.observed_generation, f.child(path, "observedGeneration"))
    errs += nonneg(status.updated_number_scheduled, f.child(path, "updatedNumberScheduled"))
    errs += nonneg(status.number_available, f.child(path, "numberAvailable"))
    errs += nonneg(status.number_unavailable, f.child(path, "numberUnavailable"))
    return errs


def validate_daemon_set_status_update(ds: Any, old_ds: Any) -> Errors:
    """Go: ``ValidateDaemonSetStatusUpdate`` — validation.go#L140-L145."""
    return validate_daemon_set_status(ds.status, "status")


def validate_daemon_set_spec(spec: Any, path: str) -> Errors:
    """Go: ``ValidateDaemonSetSpec`` — validation.go#L147-L173."""
    errs = apivalidation.validate_label_selector(spec.selector, f.child(path, "selector"))
    selector, ok = _selector(spec.selector)
    if ok and not selector.matches(spec.template.metadata.labels):
        errs.append(f.invalid(f.child(path, "template", "metadata", "labels"), _labels_value(spec.template.metadata.labels),
                              "`selector` does not match template `labels`"))
    if spec.selector is not None and len(spec.selector.match_labels) + len(spec.selector.match_expressions) == 0:
        errs.append(f.invalid(f.child(path, "selector"), go_value_of(label_selector(spec.selector)),
                              "empty selector is not valid for daemonset."))
    errs += apivalidation.validate_pod_template_spec(spec.template, f.child(path, "template"))
    # Daemons typically run on more than one node, so mark Read-Write persistent disks as invalid.
    errs += apivalidation.validate_read_only_persistent_disks(spec.template.spec.volumes,
                                                              f.child(path, "template", "spec", "volumes"))
    # RestartPolicy has already been first-order validated as per ValidatePodTemplateSpec().
    if spec.template.spec.restart_policy != "Always":
        errs.append(f.not_supported(f.child(path, "template", "spec", "restartPolicy"),
                                    spec.template.spec.restart_policy, ["Always"]))
    errs += apivalidation.validate_nonnegative_field(spec.min_ready_seconds, f.child(path, "minReadySeconds"))
    errs += apivalidation.validate_nonnegative_field(spec.template_generation, f.child(path, "templateGeneration"))
    errs += validate_daemon_set_update_strategy(spec.update_strategy, f.child(path, "updateStrategy"))
    return errs


def validate_rolling_update_daemon_set(rolling_update: Any, path: str) -> Errors:
    """Go: ``ValidateRollingUpdateDaemonSet`` — validation.go#L175-L185."""
    errs = validate_positive_int_or_percent(rolling_update.max_unavailable, f.child(path, "maxUnavailable"))
    if get_int_or_percent_value(rolling_update.max_unavailable) == 0:
        # MaxUnavailable cannot be 0.
        errs.append(f.invalid(f.child(path, "maxUnavailable"), _int_or_string(rolling_update.max_unavailable), "cannot be 0"))
    # Validate that MaxUnavailable is not more than 100%.
    errs += is_not_more_than_100_percent(rolling_update.max_unavailable, f.child(path, "maxUnavailable"))
    return errs


def validate_daemon_set_update_strategy(strategy: Any, path: str) -> Errors:
    """Go: ``ValidateDaemonSetUpdateStrategy`` — validation.go#L187-L203."""
    errs: Errors = []
    if strategy.type == ON_DELETE_DAEMON_SET_STRATEGY_TYPE:
        pass
    elif strategy.type == ROLLING_UPDATE_DAEMON_SET_STRATEGY_TYPE:
        # Make sure RollingUpdate field isn't nil.
        if strategy.rolling_update is None:
            errs.append(f.required(f.child(path, "rollingUpdate"), ""))
            return errs
        errs += validate_rolling_update_daemon_set(strategy.rolling_update, f.child(path, "rollingUpdate"))
    else:
        valid_values = [ROLLING_UPDATE_DAEMON_SET_STRATEGY_TYPE, ON_DELETE_DAEMON_SET_STRATEGY_TYPE]
        errs.append(f.not_supported(path, go_value_of(_daemon_set_strategy(strategy)), valid_values))
    return errs


def _daemon_set_strategy(strategy: Any) -> str:
    ru = "(*extensions.RollingUpdateDaemonSet)(nil)" if strategy.rolling_update is None else "(*extensions.RollingUpdateDaemonSet)(0x…)"
    return f'extensions.DaemonSetUpdateStrategy{{Type:"{strategy.type}", RollingUpdate:{ru}}}'


# -- IntOrString fields ----------------------------------------------------------------------

def _int_or_string(value: Any) -> Any:
    """How ``%#v`` shows an ``intstr.IntOrString`` bad value (a struct: Type, IntVal, StrVal)."""
    if isinstance(value, str):
        return go_value_of(f'intstr.IntOrString{{Type:1, IntVal:0, StrVal:"{value}"}}')
    return go_value_of(f'intstr.IntOrString{{Type:0, IntVal:{int(value or 0)}, StrVal:""}}')


def validate_positive_int_or_percent(int_or_percent: Any, path: str) -> Errors:
    """Go: ``ValidatePositiveIntOrPercent`` — validation.go#L213-L226."""
    errs: Errors = []
    if isinstance(int_or_percent, str):
        for msg in is_valid_percent(int_or_percent):
            errs.append(f.invalid(path, _int_or_string(int_or_percent), msg))
    elif isinstance(int_or_percent, int):
        errs += apivalidation.validate_nonnegative_field(int_or_percent, path)
    else:
        errs.append(f.invalid(path, _int_or_string(int_or_percent), "must be an integer or percentage (e.g '5%%')"))
    return errs


def get_percent_value(int_or_string_value: Any) -> tuple[int, bool]:
    """Go: ``getPercentValue`` — validation.go#L228-L237."""
    if not isinstance(int_or_string_value, str):
        return 0, False
    if len(is_valid_percent(int_or_string_value)) != 0:
        return 0, False
    return int(int_or_string_value[:-1]), True


def get_int_or_percent_value(int_or_string_value: Any) -> int:
    """Go: ``getIntOrPercentValue`` — validation.go#L239-L245."""
    from kschedlearn.apimachinery.util.intstr import int_value

    value, is_percent = get_percent_value(int_or_string_value)
    if is_percent:
        return value
    return int_value(int_or_string_value or 0)


def is_not_more_than_100_percent(int_or_string_value: Any, path: str) -> Errors:
    """Go: ``IsNotMoreThan100Percent`` — validation.go#L247-L255."""
    value, is_percent = get_percent_value(int_or_string_value)
    if not is_percent or value <= 100:
        return []
    return [f.invalid(path, _int_or_string(int_or_string_value), "must not be greater than 100%")]


# -- Deployments -----------------------------------------------------------------------------

def validate_rolling_update_deployment(rolling_update: Any, path: str) -> Errors:
    """Go: ``ValidateRollingUpdateDeployment`` — validation.go#L257-L268."""
    errs = validate_positive_int_or_percent(rolling_update.max_unavailable, f.child(path, "maxUnavailable"))
    errs += validate_positive_int_or_percent(rolling_update.max_surge, f.child(path, "maxSurge"))
    if get_int_or_percent_value(rolling_update.max_unavailable) == 0 and get_int_or_percent_value(rolling_update.max_surge) == 0:
        # Both MaxSurge and MaxUnavailable cannot be zero.
        errs.append(f.invalid(f.child(path, "maxUnavailable"), _int_or_string(rolling_update.max_unavailable),
                              "may not be 0 when `maxSurge` is 0"))
    # Validate that MaxUnavailable is not more than 100%.
    errs += is_not_more_than_100_percent(rolling_update.max_unavailable, f.child(path, "maxUnavailable"))
    return errs


def validate_deployment_strategy(strategy: Any, path: str) -> Errors:
    """Go: ``ValidateDeploymentStrategy`` — validation.go#L270-L289."""
    errs: Errors = []
    if strategy.type == RECREATE_DEPLOYMENT_STRATEGY_TYPE:
        if strategy.rolling_update is not None:
            errs.append(f.forbidden(f.child(path, "rollingUpdate"),
                                    "may not be specified when strategy `type` is '" + RECREATE_DEPLOYMENT_STRATEGY_TYPE + "'"))
    elif strategy.type == ROLLING_UPDATE_DEPLOYMENT_STRATEGY_TYPE:
        # This should never happen since it's set and checked in defaults.go
        if strategy.rolling_update is None:
            errs.append(f.required(f.child(path, "rollingUpdate"), "this should be defaulted and never be nil"))
        else:
            errs += validate_rolling_update_deployment(strategy.rolling_update, f.child(path, "rollingUpdate"))
    else:
        valid_values = [RECREATE_DEPLOYMENT_STRATEGY_TYPE, ROLLING_UPDATE_DEPLOYMENT_STRATEGY_TYPE]
        errs.append(f.not_supported(path, go_value_of(deployment_strategy_go_value(strategy)), valid_values))
    return errs


def deployment_strategy_go_value(strategy: Any) -> str:
    """``%#v`` of an ``extensions.DeploymentStrategy``. Differs from Go: a set pointer prints ``0x…``
    where Go prints its memory address."""
    ru = "(*extensions.RollingUpdateDeployment)(nil)" if strategy.rolling_update is None else "(*extensions.RollingUpdateDeployment)(0x…)"
    return f'extensions.DeploymentStrategy{{Type:"{strategy.type}", RollingUpdate:{ru}}}'


def validate_rollback(rollback: Any, path: str) -> Errors:
    """Go: ``ValidateRollback`` — validation.go#L291-L296 (the path says ``version``, as in 1.6)."""
    return apivalidation.validate_nonnegative_field(rollback.revision, f.child(path, "version"))


def validate_deployment_spec(spec: Any, path: str) -> Errors:
    """Go: ``ValidateDeploymentSpec`` — validation.go#L298-L335."""
    errs = apivalidation.validate_nonnegative_field(spec.replicas or 0, f.child(path, "replicas"))
    if spec.selector is None:
        errs.append(f.required(f.child(path, "selector"), ""))
    else:
        errs += apivalidation.validate_label_selector(spec.selector, f.child(path, "selector"))
        if len(spec.selector.match_labels) + len(spec.selector.match_expressions) == 0:
            errs.append(f.invalid(f.child(path, "selector"), go_value_of(label_selector(spec.selector)),
                                  "empty selector is not valid for deployment."))
    selector, ok = _selector(spec.selector)
    if not ok:
        errs.append(f.invalid(f.child(path, "selector"), go_value_of(label_selector(spec.selector)), "invalid label selector."))
    else:
        errs += validate_pod_template_spec_for_replica_set(spec.template, selector, spec.replicas or 0, f.child(path, "template"))
    errs += validate_deployment_strategy(spec.strategy, f.child(path, "strategy"))
    errs += apivalidation.validate_nonnegative_field(spec.min_ready_seconds, f.child(path, "minReadySeconds"))
    if spec.revision_history_limit is not None:
        # zero is a valid RevisionHistoryLimit
        errs += apivalidation.validate_nonnegative_field(spec.revision_history_limit, f.child(path, "revisionHistoryLimit"))
    if spec.rollback_to is not None:
        errs += validate_rollback(spec.rollback_to, f.child(path, "rollback"))
    if spec.progress_deadline_seconds is not None:
        errs += apivalidation.validate_nonnegative_field(spec.progress_deadline_seconds, f.child(path, "progressDeadlineSeconds"))
        if spec.progress_deadline_seconds <= spec.min_ready_seconds:
            errs.append(f.invalid(f.child(path, "progressDeadlineSeconds"), spec.progress_deadline_seconds,
                                  "must be greater than minReadySeconds."))
    return errs


def validate_deployment_status(status: Any, path: str) -> Errors:
    """Go: ``ValidateDeploymentStatus`` — validation.go#L337-L362."""
    nonneg = apivalidation.validate_nonnegative_field
    errs = nonneg(status.observed_generation, f.child(path, "observedGeneration"))
    errs += nonneg(status.replicas, f.child(path, "replicas"))
    errs += nonneg(status.updated_replicas, f.child(path, "updatedReplicas"))
    errs += nonneg(status.ready_replicas, f.child(path, "readyReplicas"))
    errs += nonneg(status.available_replicas, f.child(path, "availableReplicas"))
    errs += nonneg(status.unavailable_replicas, f.child(path, "unavailableReplicas"))
    msg = "cannot be greater than status.replicas"
    if status.updated_replicas > status.replicas:
        errs.append(f.invalid(f.child(path, "updatedReplicas"), status.updated_replicas, msg))
    if status.ready_replicas > status.replicas:
        errs.append(f.invalid(f.child(path, "readyReplicas"), status.ready_replicas, msg))
    if status.available_replicas > status.replicas:
        errs.append(f.invalid(f.child(path, "availableReplicas"), status.available_replicas, msg))
    if status.ready_replicas > 0 and status.available_replicas > status.ready_replicas:
        errs.append(f.invalid(f.child(path, "availableReplicas"), status.available_replicas, "cannot be greater than readyReplicas"))
    return errs


def validate_deployment_update(update: Any, old: Any) -> Errors:
    """Go: ``ValidateDeploymentUpdate`` — validation.go#L364-L368 (see the module docstring)."""
    return validate_deployment_spec(update.spec, "spec")


def validate_deployment_status_update(update: Any, old: Any) -> Errors:
    """Go: ``ValidateDeploymentStatusUpdate`` — validation.go#L370-L374."""
    return validate_deployment_status(update.status, "status")


def validate_deployment(obj: Any) -> Errors:
    """Go: ``ValidateDeployment`` — validation.go#L376-L380."""
    errs = apivalidation.validate_object_meta(obj.metadata, True)
    errs += validate_deployment_spec(obj.spec, "spec")
    return errs


# -- Scale and ReplicaSets -------------------------------------------------------------------

def validate_scale(scale: Any) -> Errors:
    """Go: ``ValidateScale`` — validation.go#L542-L551."""
    errs = apivalidation.validate_object_meta(scale.metadata, True)
    if scale.spec.replicas < 0:
        errs.append(f.invalid("spec.replicas", scale.spec.replicas, "must be greater than or equal to 0"))
    return errs


def validate_replica_set(rs: Any) -> Errors:
    """Go: ``ValidateReplicaSet`` — validation.go#L559-L564."""
    errs = apivalidation.validate_object_meta(rs.metadata, True)
    errs += validate_replica_set_spec(rs.spec, "spec")
    return errs


def validate_replica_set_update(rs: Any, old_rs: Any) -> Errors:
    """Go: ``ValidateReplicaSetUpdate`` — validation.go#L566-L572 (see the module docstring)."""
    return validate_replica_set_spec(rs.spec, "spec")


def validate_replica_set_status_update(rs: Any, old_rs: Any) -> Errors:
    """Go: ``ValidateReplicaSetStatusUpdate`` — validation.go#L574-L580."""
    return validate_replica_set_status(rs.status, "status")


def validate_replica_set_status(status: Any, path: str) -> Errors:
    """Go: ``ValidateReplicaSetStatus`` — validation.go#L582-L603."""
    nonneg = apivalidation.validate_nonnegative_field
    errs = nonneg(status.replicas, f.child(path, "replicas"))
    errs += nonneg(status.fully_labeled_replicas, f.child(path, "fullyLabeledReplicas"))
    errs += nonneg(status.ready_replicas, f.child(path, "readyReplicas"))
    errs += nonneg(status.available_replicas, f.child(path, "availableReplicas"))
    errs += nonneg(status.observed_generation, f.child(path, "observedGeneration"))
    msg = "cannot be greater than status.replicas"
    if status.fully_labeled_replicas > status.replicas:
        errs.append(f.invalid(f.child(path, "fullyLabeledReplicas"), status.fully_labeled_replicas, msg))
    if status.ready_replicas > status.replicas:
        errs.append(f.invalid(f.child(path, "readyReplicas"), status.ready_replicas, msg))
    if status.available_replicas > status.replicas:
        errs.append(f.invalid(f.child(path, "availableReplicas"), status.available_replicas, msg))
    if status.available_replicas > status.ready_replicas:
        errs.append(f.invalid(f.child(path, "availableReplicas"), status.available_replicas,
                              "cannot be greater than readyReplicas"))
    return errs


def validate_replica_set_spec(spec: Any, path: str) -> Errors:
    """Go: ``ValidateReplicaSetSpec`` — validation.go#L605-L628 (1.6's message says "deployment")."""
    errs = apivalidation.validate_nonnegative_field(spec.replicas or 0, f.child(path, "replicas"))
    errs += apivalidation.validate_nonnegative_field(spec.min_ready_seconds, f.child(path, "minReadySeconds"))
    if spec.selector is None:
        errs.append(f.required(f.child(path, "selector"), ""))
    else:
        errs += apivalidation.validate_label_selector(spec.selector, f.child(path, "selector"))
        if len(spec.selector.match_labels) + len(spec.selector.match_expressions) == 0:
            errs.append(f.invalid(f.child(path, "selector"), go_value_of(label_selector(spec.selector)),
                                  "empty selector is not valid for deployment."))
    selector, ok = _selector(spec.selector)
    if not ok:
        errs.append(f.invalid(f.child(path, "selector"), go_value_of(label_selector(spec.selector)), "invalid label selector."))
    else:
        errs += validate_pod_template_spec_for_replica_set(spec.template, selector, spec.replicas or 0, f.child(path, "template"))
    return errs


def validate_pod_template_spec_for_replica_set(template: Any, selector: Any, replicas: int, path: str) -> Errors:
    """Go: ``ValidatePodTemplateSpecForReplicaSet`` — validation.go#L630-L653."""
    errs: Errors = []
    if template is None:
        errs.append(f.required(path, ""))
        return errs
    if not selector.empty():
        # Verify that the ReplicaSet selector matches the labels in template.
        if not selector.matches(template.metadata.labels):
            errs.append(f.invalid(f.child(path, "metadata", "labels"), _labels_value(template.metadata.labels),
                                  "`selector` does not match template `labels`"))
    errs += apivalidation.validate_pod_template_spec(template, path)
    if replicas > 1:
        errs += apivalidation.validate_read_only_persistent_disks(template.spec.volumes, f.child(path, "spec", "volumes"))
    # RestartPolicy has already been first-order validated as per ValidatePodTemplateSpec().
    if template.spec.restart_policy != "Always":
        errs.append(f.not_supported(f.child(path, "spec", "restartPolicy"), template.spec.restart_policy, ["Always"]))
    return errs


__all__ = [
    "deployment_strategy_go_value", "get_int_or_percent_value", "is_not_more_than_100_percent",
    "validate_daemon_set", "validate_daemon_set_spec", "validate_daemon_set_status_update", "validate_daemon_set_update",
    "validate_deployment", "validate_deployment_spec", "validate_deployment_status", "validate_deployment_status_update",
    "validate_deployment_strategy", "validate_deployment_update", "validate_pod_template_spec_for_replica_set",
    "validate_positive_int_or_percent", "validate_replica_set", "validate_replica_set_spec",
    "validate_replica_set_status", "validate_replica_set_status_update", "validate_replica_set_update",
    "validate_rolling_update_deployment", "validate_scale",
]
