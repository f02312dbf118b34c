"""Solutions for notebook 02: API objects, labels and selectors.

Go: staging/src/k8s.io/apimachinery/pkg/labels/selector.go (Requirement.Matches)
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/labels/selector.go#L161-L216
"""

from __future__ import annotations

from collections.abc import Mapping


def requirement_matches(key: str, operator: str, values: list[str], labels: Mapping[str, str]) -> bool:
    """Whether ``labels`` satisfy the requirement ``key <operator> values``.

    Go: Requirement.Matches, selector.go#L161-L216. ``operator`` is one of ``"in"``, ``"="``,
    ``"=="`` (the value must be one of ``values``), ``"notin"``, ``"!="`` (it must not be),
    ``"exists"``, ``"!"`` (does not exist), ``"gt"``, ``"lt"`` (``values`` holds one integer;
    compare the label as a base-10 integer - a value that is not an integer does not match).
    Anything else matches nothing. A selector matches when all its requirements do.
    """
    if operator in ("in", "=", "=="):
        return key in labels and labels[key] in values
    if operator in ("notin", "!="):
        return key not in labels or labels[key] not in values
    if operator == "exists":
        return key in labels
    if operator == "!":
        return key not in labels
    if operator in ("gt", "lt"):
        if key not in labels or len(values) != 1:
            return False
        try:
            have, want = int(labels[key], 10), int(values[0], 10)
        except ValueError:
            return False
        return have > want if operator == "gt" else have < want
    return False
