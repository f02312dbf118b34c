"""How Go's ``%#v`` prints the few composite values 1.6's validation errors quote.

Go: ``fmt`` (``%#v``), as ``field.Error.ErrorBody`` falls back to it for values that are not
numbers, booleans, strings or ``Stringer`` s:
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/util/validation/field/errors.go#L44-L84

Differs from Go: map keys are printed sorted (Go 1.7 prints them in map order, which varies
from run to run for maps of two or more keys).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any


class GoValue:
    """A bad value whose Go ``%#v`` text is already known (``field.go_value`` prints ``str``).

    kschedlearn-only (a carrier for the text)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"GoValue({self.text!r})"


def _q(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)


def string_map(m: Mapping[str, str] | None, *, nil_if_empty: bool = False) -> str:
    """``map[string]string{"a":"b"}`` (``map[string]string(nil)`` for a nil map). Go: ``%#v`` of a map."""
    if m is None or (nil_if_empty and not m):
        return "map[string]string(nil)"
    return "map[string]string{" + ", ".join(f"{_q(k)}:{_q(v)}" for k, v in sorted(m.items())) + "}"


def label_selector(selector: Any, type_name: str = "v1.LabelSelector") -> str:
    """``v1.LabelSelector{MatchLabels:..., MatchExpressions:...}`` (metav1's package name is ``v1``).

    Go: ``%#v`` of a ``*metav1.LabelSelector``."""
    if selector is None:
        return "null"
    exprs = selector.match_expressions
    if exprs:
        items = ", ".join(
            f"v1.LabelSelectorRequirement{{Key:{_q(e.key)}, Operator:{_q(e.operator)}, Values:[]string{{"
            + ", ".join(_q(v) for v in e.values) + "}}" for e in exprs)
        expr_text = f"[]v1.LabelSelectorRequirement{{{items}}}"
    else:
        expr_text = "[]v1.LabelSelectorRequirement(nil)"
    return (f"{type_name}{{MatchLabels:{string_map(selector.match_labels, nil_if_empty=True)}, "
            f"MatchExpressions:{expr_text}}}")


def go_value_of(text: str) -> GoValue:
    """Wrap a ready ``%#v`` text as a bad value."""
    return GoValue(text)


__all__ = ["GoValue", "go_value_of", "label_selector", "string_map"]
