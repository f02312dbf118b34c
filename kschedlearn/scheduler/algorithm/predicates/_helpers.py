"""API helpers the predicates call that live outside the scheduler in Go.

Go:
- pkg/api/v1/helpers.go: NodeSelectorRequirementsAsSelector, TolerationsTolerateTaintsWithFilter,
  TolerationsTolerateTaint, Toleration.ToleratesTaint
  https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/api/v1/helpers.go#L205-L376
- pkg/kubelet/qos/qos.go: GetPodQOS
  https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/kubelet/qos/qos.go#L46-L110

Differs from Go: these belong to ``kschedlearn.api.v1`` / a kubelet mirror; they are kept
here (private) until those modules provide them, so the predicates can run on their own.
``NodeSelectorRequirementsAsSelector`` returns a small matcher with ``matches(labels)`` rather
than a ``labels.Selector``; key/value syntax validation of label names is not repeated.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping

import attrs

_OPS = ("In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt")


@attrs.frozen
class _NodeSelectorRequirementsSelector:
    """The AND of node selector requirements; an empty list matches nothing (Go: labels.Nothing())."""

    requirements: tuple = ()

    def matches(self, node_labels: Mapping[str, str]) -> bool:
        if not self.requirements:
            return False
        return all(_requirement_matches(r, node_labels) for r in self.requirements)


def _requirement_matches(req: Any, node_labels: Mapping[str, str]) -> bool:
    op, key, values = req.operator, req.key, tuple(req.values)
    if op == "In":
        return key in node_labels and node_labels[key] in values
    if op == "NotIn":
        return key not in node_labels or node_labels[key] not in values
    if op == "Exists":
        return key in node_labels
    if op == "DoesNotExist":
        return key not in node_labels
    # Gt / Lt: the label value must parse as an integer (else no match).
    if key not in node_labels:
        return False
    try:
        have = int(node_labels[key])
    except ValueError:
        return False
    want = int(values[0])
    return have > want if op == "Gt" else have < want


def _validate(req: Any) -> None:
    op, values = req.operator, tuple(req.values)
    if op not in _OPS:
        raise ValueError(f'"{op}" is not a valid node selector operator')
    if op in ("In", "NotIn") and len(values) == 0:
        raise ValueError("for 'in', 'notin' operators, values set can't be empty")
    if op in ("Exists", "DoesNotExist") and len(values) != 0:
        raise ValueError("values set must be empty for exists and does not exist")
    if op in ("Gt", "Lt"):
        if len(values) != 1:
            raise ValueError("for 'Gt', 'Lt' operators, exactly one value is required")
        try:
            int(values[0])
        except ValueError:
            raise ValueError("for 'Gt', 'Lt' operators, the value must be an integer") from None


def node_selector_requirements_as_selector(nsm: Iterable[Any]) -> _NodeSelectorRequirementsSelector:
    """Turn ``matchExpressions`` into a matcher; raises ``ValueError`` on a bad requirement.

    Go: v1.NodeSelectorRequirementsAsSelector (empty list -> labels.Nothing())
    """
    reqs = tuple(nsm)
    for r in reqs:
        _validate(r)
    return _NodeSelectorRequirementsSelector(reqs)


def toleration_tolerates_taint(toleration: Any, taint: Any) -> bool:
    """Go: (*v1.Toleration).ToleratesTaint"""
    if toleration.effect and toleration.effect != taint.effect:
        return False
    if toleration.key and toleration.key != taint.key:
        return False
    if toleration.operator in ("", "Equal"):
        return toleration.value == taint.value
    if toleration.operator == "Exists":
        return True
    return False


def tolerations_tolerate_taint(tolerations: Iterable[Any], taint: Any) -> bool:
    """Go: v1.TolerationsTolerateTaint — some toleration tolerates the taint."""
    return any(toleration_tolerates_taint(t, taint) for t in tolerations)


def tolerations_tolerate_taints_with_filter(
    tolerations: Iterable[Any], taints: Iterable[Any], apply_filter: Callable[[Any], bool] | None
) -> bool:
    """Every taint passing ``apply_filter`` must be tolerated; no taints -> True.

    Go: v1.TolerationsTolerateTaintsWithFilter
    """
    tolerations = tuple(tolerations)
    for taint in taints:
        if apply_filter is not None and not apply_filter(taint):
            continue
        if not tolerations_tolerate_taint(tolerations, taint):
            return False
    return True


def _positive(q: Any) -> bool:
    return q.milli_value() > 0


def get_pod_qos(pod: Any) -> str:
    """``BestEffort``, ``Guaranteed`` or ``Burstable`` from the regular containers' cpu/memory.

    Go: qos.GetPodQOS
    """
    requests: dict[str, int] = {}
    limits: dict[str, int] = {}
    is_guaranteed = True
    for container in pod.spec.containers:
        for name, q in container.resources.requests.items():
            if name in ("cpu", "memory") and _positive(q):
                requests[name] = requests.get(name, 0) + q.milli_value()
        qos_limits_found = set()
        for name, q in container.resources.limits.items():
            if name in ("cpu", "memory") and _positive(q):
                qos_limits_found.add(name)
                limits[name] = limits.get(name, 0) + q.milli_value()
        if qos_limits_found != {"cpu", "memory"}:
            is_guaranteed = False
    if not requests and not limits:
        return "BestEffort"
    if is_guaranteed:
        for name, req in requests.items():
            if limits.get(name) != req:
                is_guaranteed = False
                break
    if is_guaranteed and len(requests) == len(limits):
        return "Guaranteed"
    return "Burstable"
