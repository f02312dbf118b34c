"""Turning a structured ``LabelSelector`` into a ``labels.Selector``.

Go: ``k8s.io/apimachinery/pkg/apis/meta/v1/helpers.go`` (LabelSelectorAsSelector,
LabelSelectorAsMap, FormatLabelSelector),
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/helpers.go
"""

from __future__ import annotations

from kschedlearn.apimachinery import labels, selection
from kschedlearn.apimachinery._gostrconv import quote
from kschedlearn.apimachinery.apis.meta.v1.types import (
    LABEL_SELECTOR_OP_DOES_NOT_EXIST,
    LABEL_SELECTOR_OP_EXISTS,
    LABEL_SELECTOR_OP_IN,
    LABEL_SELECTOR_OP_NOT_IN,
    LabelSelector,
)
from kschedlearn.apimachinery.selection import Operator

_OPERATORS: dict[str, Operator] = {
    LABEL_SELECTOR_OP_IN: selection.IN,
    LABEL_SELECTOR_OP_NOT_IN: selection.NOT_IN,
    LABEL_SELECTOR_OP_EXISTS: selection.EXISTS,
    LABEL_SELECTOR_OP_DOES_NOT_EXIST: selection.DOES_NOT_EXIST,
}


def label_selector_as_selector(ps: LabelSelector | None) -> labels.Selector:
    """The ``labels.Selector`` a LabelSelector stands for.

    Go: helpers.go ``LabelSelectorAsSelector``. ``None`` (Go's nil) selects **nothing**; an
    empty selector selects **everything**. Raises :class:`labels.InvalidSelectorError` for an
    unknown operator (``"Foo" is not a valid pod selector operator``) or an invalid key/value.
    """
    if ps is None:
        return labels.nothing()
    if len(ps.match_labels) + len(ps.match_expressions) == 0:
        return labels.everything()
    selector = labels.new_selector()
    for k, v in ps.match_labels.items():
        r = labels.new_requirement(k, selection.EQUALS, [v])
        selector = selector.add(r)
    for expr in ps.match_expressions:
        op = _OPERATORS.get(expr.operator)
        if op is None:
            raise labels.InvalidSelectorError(f"{quote(expr.operator)} is not a valid pod selector operator")
        r = labels.new_requirement(expr.key, op, list(expr.values))
        selector = selector.add(r)
    return selector


def label_selector_as_map(ps: LabelSelector | None) -> dict[str, str] | None:
    """The old ``map[string]string`` form; only ``In`` with exactly one value converts.

    Go: helpers.go ``LabelSelectorAsMap``. Raises :class:`ValueError` with Go's message.
    Differs from Go: Go also returns the partial map alongside the error; here only the error.
    """
    if ps is None:
        return None
    selector = dict(ps.match_labels)
    for expr in ps.match_expressions:
        if expr.operator == LABEL_SELECTOR_OP_IN:
            if len(expr.values) != 1:
                raise ValueError(
                    f"operator {quote(expr.operator)} without a single value cannot be converted "
                    "into the old label selector format"
                )
            selector[expr.key] = expr.values[0]
        elif expr.operator in (
            LABEL_SELECTOR_OP_NOT_IN,
            LABEL_SELECTOR_OP_EXISTS,
            LABEL_SELECTOR_OP_DOES_NOT_EXIST,
        ):
            raise ValueError(
                f"operator {quote(expr.operator)} cannot be converted into the old label selector format"
            )
        else:
            raise ValueError(f"{quote(expr.operator)} is not a valid selector operator")
    return selector


def format_label_selector(label_selector: LabelSelector | None) -> str:
    """Selector text for display: ``<error>`` if invalid, ``<none>`` if empty.

    Go: helpers.go ``FormatLabelSelector``.
    """
    try:
        selector = label_selector_as_selector(label_selector)
    except ValueError:
        return "<error>"
    text = selector.string()
    return text if text else "<none>"
