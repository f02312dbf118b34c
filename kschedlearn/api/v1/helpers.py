"""Helpers over API objects that the 1.6 scheduler calls.

Go: ``pkg/api/v1/helpers.go``,
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/api/v1/helpers.go

Only the helpers the scheduler uses are mirrored: opaque resource names, node
selector requirements as a label selector, taint/toleration matching and the two
alpha annotations (affinity, preferAvoidPods). ``Toleration.tolerates_taint``,
``Taint.match_taint`` and ``Taint.to_string`` are methods of the value classes.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from kschedlearn.api.errors import ManifestError
from kschedlearn.api.v1._gojson import decode_go_json
from kschedlearn.api.v1._gojson_check import unmarshal_error
from kschedlearn.api.v1._gojson_types import ANNOTATION_STRINGS, ANNOTATION_STRUCTS
from kschedlearn.api.v1.meta import OwnerReference
from kschedlearn.api.v1.node import AvoidPods, Taint
from kschedlearn.api.v1.pod import (
    NODE_SELECTOR_OP_DOES_NOT_EXIST,
    NODE_SELECTOR_OP_EXISTS,
    NODE_SELECTOR_OP_GT,
    NODE_SELECTOR_OP_IN,
    NODE_SELECTOR_OP_LT,
    NODE_SELECTOR_OP_NOT_IN,
    RESOURCE_OPAQUE_INT_PREFIX,
    Affinity,
    NodeSelectorRequirement,
    Toleration,
)
from kschedlearn.apimachinery import labels, selection

__all__ = [
    "add_or_update_toleration_in_pod",
    "match_toleration",
    "AFFINITY_ANNOTATION_KEY",
    "PREFER_AVOID_PODS_ANNOTATION_KEY",
    "get_affinity_from_pod_annotations",
    "get_avoid_pods_from_node_annotations",
    "get_controller_of",
    "is_opaque_int_resource_name",
    "node_selector_requirements_as_selector",
    "opaque_int_resource_name",
    "tolerations_tolerate_taint",
    "tolerations_tolerate_taints_with_filter",
]

#: Go: v1.AffinityAnnotationKey (read only with the AffinityInAnnotations alpha gate).
AFFINITY_ANNOTATION_KEY = "scheduler.alpha.kubernetes.io/affinity"
#: Go: v1.PreferAvoidPodsAnnotationKey (JSON AvoidPods on a node).
PREFER_AVOID_PODS_ANNOTATION_KEY = "scheduler.alpha.kubernetes.io/preferAvoidPods"

# Node selector operator -> label selector operator (the switch in Go).
_NODE_SELECTOR_OPS: Mapping[str, str] = {
    NODE_SELECTOR_OP_IN: selection.IN,
    NODE_SELECTOR_OP_NOT_IN: selection.NOT_IN,
    NODE_SELECTOR_OP_EXISTS: selection.EXISTS,
    NODE_SELECTOR_OP_DOES_NOT_EXIST: selection.DOES_NOT_EXIST,
    NODE_SELECTOR_OP_GT: selection.GREATER_THAN,
    NODE_SELECTOR_OP_LT: selection.LESS_THAN,
}


def is_opaque_int_resource_name(name: str) -> bool:
    """Whether ``name`` carries the opaque integer resource prefix.

    Go: IsOpaqueIntResourceName, https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/api/v1/helpers.go#L33-L37
    """
    return name.startswith(RESOURCE_OPAQUE_INT_PREFIX)


def opaque_int_resource_name(name: str) -> str:
    """``name`` with the opaque integer prefix added (unchanged if already there).

    Go: OpaqueIntResourceName, https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/api/v1/helpers.go#L39-L47
    """
    if is_opaque_int_resource_name(name):
        return name
    return f"{RESOURCE_OPAQUE_INT_PREFIX}{name}"


def node_selector_requirements_as_selector(nsm: Sequence[NodeSelectorRequirement]) -> labels.Selector:
    """Turn node selector requirements into a label selector (ANDed).

    An empty list gives ``labels.nothing()`` (matches no node), as in Go.
    Raises ValueError ``"<op>" is not a valid node selector operator`` for an unknown
    operator, and whatever ``labels.new_requirement`` raises for bad keys/values.

    Go: NodeSelectorRequirementsAsSelector, https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/api/v1/helpers.go#L203-L235
    """
    if len(nsm) == 0:
        return labels.nothing()
    selector = labels.new_selector()
    for expr in nsm:
        op = _NODE_SELECTOR_OPS.get(expr.operator)
        if op is None:
            raise ValueError(f"{json.dumps(expr.operator)} is not a valid node selector operator")
        r = labels.new_requirement(expr.key, op, list(expr.values))
        selector = selector.add(r)
    return selector


def tolerations_tolerate_taint(tolerations: Sequence[Toleration], taint: Taint) -> bool:
    """Whether any toleration tolerates ``taint``.

    Go: TolerationsTolerateTaint, https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/api/v1/helpers.go#L346-L354
    """
    for toleration in tolerations:
        if toleration.tolerates_taint(taint):
            return True
    return False


def tolerations_tolerate_taints_with_filter(
    tolerations: Sequence[Toleration],
    taints: Sequence[Taint],
    apply_filter: Callable[[Taint], bool] | None,
) -> bool:
    """Whether every taint selected by ``apply_filter`` (all when None) is tolerated.

    Go: TolerationsTolerateTaintsWithFilter, https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/api/v1/helpers.go#L358-L376
    """
    if len(taints) == 0:
        return True
    for taint in taints:
        if apply_filter is not None and not apply_filter(taint):
            continue
        if not tolerations_tolerate_taint(tolerations, taint):
            return False
    return True


def _decode_annotation(annotations: Mapping[str, str], key: str, gotype: str) -> Any:
    """The annotation's JSON, or the error Go's ``json.Unmarshal`` into ``gotype`` gives.

    The ``ManifestError``'s ``msg`` is exactly Go's text (``json: cannot unmarshal number 1.5
    into Go value of type int32``; ``_gojson_check``), which 1.6's API validation quotes.
    """
    text = annotations[key]
    go_error = unmarshal_error(text, gotype, ANNOTATION_STRUCTS, ANNOTATION_STRINGS)
    if go_error:
        raise ManifestError(f"annotation {key}", "", go_error)
    try:
        return json.loads(text)
    except (json.JSONDecodeError, RecursionError) as err:  # only what Go's scan accepts gets here
        raise ManifestError(f"annotation {key}", "", f"invalid JSON: {err}") from None


def get_avoid_pods_from_node_annotations(annotations: Mapping[str, str]) -> AvoidPods:
    """Decode the node's preferAvoidPods annotation; empty AvoidPods when absent.

    Raises ManifestError (a ValueError) when the JSON is malformed or does not fit.

    Go: GetAvoidPodsFromNodeAnnotations, https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/api/v1/helpers.go#L445-L454

    Differs from Go: returns the value or raises, instead of ``(value, err)``.
    """
    if len(annotations) > 0 and annotations.get(PREFER_AVOID_PODS_ANNOTATION_KEY, "") != "":
        data = _decode_annotation(annotations, PREFER_AVOID_PODS_ANNOTATION_KEY, "v1.AvoidPods")
        # Go: json.Unmarshal — keys match case-insensitively (codec.decode_go_json)
        return decode_go_json(AvoidPods, data, path=f"annotation {PREFER_AVOID_PODS_ANNOTATION_KEY}")
    return AvoidPods()


def get_affinity_from_pod_annotations(annotations: Mapping[str, str]) -> Affinity | None:
    """Decode the alpha affinity annotation of a pod; None when absent.

    Raises ManifestError (a ValueError) when the JSON is malformed or does not fit.

    Go: GetAffinityFromPodAnnotations, https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/api/v1/helpers.go#L580-L593

    Differs from Go: returns the value or raises, instead of ``(value, err)``.
    """
    if len(annotations) > 0 and annotations.get(AFFINITY_ANNOTATION_KEY, "") != "":
        data = _decode_annotation(annotations, AFFINITY_ANNOTATION_KEY, "v1.Affinity")
        # Go: json.Unmarshal — keys match case-insensitively (codec.decode_go_json)
        return decode_go_json(Affinity, data, path=f"annotation {AFFINITY_ANNOTATION_KEY}")
    return None


def get_controller_of(obj: Any) -> OwnerReference | None:
    """The first owner reference marked ``controller: true`` of an object (or its ObjectMeta).

    Go: GetControllerOf in pkg/controller/controller_ref_manager.go (1.6; the scheduler's
    priorities/util GetControllerRef does the same),
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/controller/controller_ref_manager.go#L33-L44

    Differs from Go: lives here, next to the other object helpers; accepts an object
    with ``metadata`` as well as an ObjectMeta.
    """
    meta = getattr(obj, "metadata", obj)
    for ref in meta.owner_references:
        if ref.controller is not None and ref.controller:
            return ref
    return None


def match_toleration(t: Toleration, toleration_to_match: Toleration) -> bool:
    """Same key, effect, operator and value.

    Go: (*Toleration).MatchToleration, https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/api/v1/helpers.go#L307-L315
    """
    return (t.key == toleration_to_match.key and t.effect == toleration_to_match.effect
            and t.operator == toleration_to_match.operator and t.value == toleration_to_match.value)


def add_or_update_toleration_in_pod(pod: Any, toleration: Toleration) -> tuple[Any, bool]:
    """The pod with ``toleration`` added (or replacing a matching one); whether it changed.

    Go: AddOrUpdateTolerationInPod, https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/api/v1/helpers.go#L279-L305

    Differs from Go: returns the changed pod (Go sets ``pod.Spec.Tolerations``) and no error (Go's is always nil).
    """
    import attrs  # noqa: PLC0415 - only this helper changes a pod

    pod_tolerations = pod.spec.tolerations
    new_tolerations = []
    updated = False
    for existing in pod_tolerations:
        if match_toleration(toleration, existing):
            if toleration == existing:
                return pod, False
            new_tolerations.append(toleration)
            updated = True
            continue
        new_tolerations.append(existing)
    if not updated:
        new_tolerations.append(toleration)
    return attrs.evolve(pod, spec=attrs.evolve(pod.spec, tolerations=tuple(new_tolerations))), True
