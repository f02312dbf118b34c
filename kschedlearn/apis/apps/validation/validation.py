"""The 1.6 API server's validation of StatefulSets.

Go: ``pkg/apis/apps/validation/validation.go``
(https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/apis/apps/validation/validation.go)

Differs from Go: ``ValidateObjectMetaUpdate`` is not re-checked on updates (the embedded API
server carries immutable metadata over itself); container updates are compared whole.
"""

from __future__ import annotations

from typing import Any

import attrs

from kschedlearn.api.validation import validation as apivalidation
from kschedlearn.api.validation._gosharp import go_value_of, label_selector, string_map
from kschedlearn.apimachinery.apis.meta import v1 as metav1
from kschedlearn.apimachinery.util.validation import field as f

Errors = list[f.Error]


def validate_pod_template_spec_for_stateful_set(template: Any, selector: Any, path: str) -> Errors:
    """Labels must match; only labels and annotations are checked (1.6 skips the pod spec).

    Go: ``ValidatePodTemplateSpecForStatefulSet`` — validation.go#L41-L63
    """
    errs: Errors = []
    if template is None:
        errs.append(f.required(path, ""))
        return errs
    if not selector.empty():
        # Verify that the StatefulSet selector matches the labels in template.
        if not selector.matches(template.metadata.labels):
            errs.append(f.invalid(f.child(path, "metadata", "labels"),
                                  go_value_of(string_map(template.metadata.labels, nil_if_empty=True)),
                                  "`selector` does not match template `labels`"))
    errs += apivalidation.validate_labels(template.metadata.labels, f.child(path, "labels"))
    errs += apivalidation.validate_annotations(template.metadata.annotations, f.child(path, "annotations"))
    errs += apivalidation.validate_pod_specific_annotations(template.metadata.annotations, f.child(path, "annotations"))
    return errs


def validate_stateful_set_spec(spec: Any, path: str) -> Errors:
    """Go: ``ValidateStatefulSetSpec`` — validation.go#L65-L91."""
    errs = apivalidation.validate_nonnegative_field(spec.replicas or 0, f.child(path, "replicas"))
    if spec.selector is None:
        errs.append(f.required(f.child(path, "selector"), ""))
    else:
        errs += apivalidation.validate_label_selector(spec.selector, f.child(path, "selector"))
        if len(spec.selector.match_labels) + len(spec.selector.match_expressions) == 0:
            errs.append(f.invalid(f.child(path, "selector"), go_value_of(label_selector(spec.selector)),
                                  "empty selector is not valid for statefulset."))
    try:
        selector = metav1.label_selector_as_selector(spec.selector)
    except ValueError:
        errs.append(f.invalid(f.child(path, "selector"), go_value_of(label_selector(spec.selector)), ""))
    else:
        errs += validate_pod_template_spec_for_stateful_set(spec.template, selector, f.child(path, "template"))
    if spec.template.spec.restart_policy != "Always":
        errs.append(f.not_supported(f.child(path, "template", "spec", "restartPolicy"),
                                    spec.template.spec.restart_policy, ["Always"]))
    return errs


def validate_stateful_set(stateful_set: Any) -> Errors:
    """Go: ``ValidateStatefulSet`` — validation.go#L93-L98."""
    errs = apivalidation.validate_object_meta(stateful_set.metadata, True)
    errs += validate_stateful_set_spec(stateful_set.spec, "spec")
    return errs


def validate_stateful_set_update(stateful_set: Any, old_stateful_set: Any) -> Errors:
    """Only ``replicas`` and the containers may change.

    Go: ``ValidateStatefulSetUpdate`` — validation.go#L100-L123
    """
    errs: Errors = []
    # Go sets replicas and containers to the old ones, compares the specs, then restores them
    new_spec = attrs.evolve(stateful_set.spec, replicas=old_stateful_set.spec.replicas, template=attrs.evolve(
        stateful_set.spec.template, spec=attrs.evolve(stateful_set.spec.template.spec,
                                                      containers=old_stateful_set.spec.template.spec.containers)))
    if new_spec != old_stateful_set.spec:
        errs.append(f.forbidden("spec", "updates to statefulset spec for fields other than 'replicas' and "
                                        "'containers' are forbidden."))
    errs += apivalidation.validate_nonnegative_field(stateful_set.spec.replicas or 0, "spec.replicas")
    return errs


def validate_stateful_set_status_update(stateful_set: Any, old_stateful_set: Any) -> Errors:
    """Go: ``ValidateStatefulSetStatusUpdate`` — validation.go#L125-L131 (1.6 checks no status field)."""
    return []


__all__ = ["validate_pod_template_spec_for_stateful_set", "validate_stateful_set", "validate_stateful_set_spec",
           "validate_stateful_set_status_update", "validate_stateful_set_update"]
