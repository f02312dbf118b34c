"""Adding and removing one label on label maps and selectors (the pod-template-hash).

Go: pkg/util/labels/labels.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/util/labels/labels.go

Differs from Go: maps and selectors are frozen values or fresh dicts, so ``add_label`` and
``add_label_to_selector`` return the changed value (Go changes the given map or selector in
place when it is not nil) and the caller stores it back.
"""

from __future__ import annotations

from collections.abc import Mapping

from kschedlearn.apimachinery.apis.meta.v1 import LabelSelector, LabelSelectorRequirement


def clone_and_add_label(labels: Mapping[str, str], label_key: str, label_value: str) -> dict[str, str]:
    """A copy of ``labels`` with one more label. Go: ``CloneAndAddLabel`` — labels.go#L23-L37."""
    if label_key == "":
        # Don't need to add a label.
        return dict(labels)
    new_labels = dict(labels)
    new_labels[label_key] = label_value
    return new_labels


def clone_and_remove_label(labels: Mapping[str, str], label_key: str) -> dict[str, str]:
    """A copy of ``labels`` without ``label_key``. Go: ``CloneAndRemoveLabel`` — labels.go#L39-L53."""
    if label_key == "":
        return dict(labels)
    new_labels = dict(labels)
    new_labels.pop(label_key, None)
    return new_labels


def add_label(labels: Mapping[str, str] | None, label_key: str, label_value: str) -> dict[str, str]:
    """Go: ``AddLabel`` — labels.go#L55-L66 (see the module docstring)."""
    if label_key == "":
        return dict(labels or {})
    new_labels = dict(labels or {})
    new_labels[label_key] = label_value
    return new_labels


def clone_selector_and_add_label(selector: LabelSelector, label_key: str, label_value: str) -> LabelSelector:
    """A copy of ``selector`` whose matchLabels also require ``label_key=label_value``.

    Go: ``CloneSelectorAndAddLabel`` — labels.go#L68-L106
    """
    if label_key == "":
        return selector
    match_labels = dict(selector.match_labels)
    match_labels[label_key] = label_value
    match_expressions = tuple(LabelSelectorRequirement(key=me.key, operator=me.operator, values=tuple(me.values))
                              for me in selector.match_expressions)
    return LabelSelector(match_labels=match_labels, match_expressions=match_expressions)


def add_label_to_selector(selector: LabelSelector, label_key: str, label_value: str) -> LabelSelector:
    """Go: ``AddLabelToSelector`` — labels.go#L108-L119 (see the module docstring)."""
    if label_key == "":
        return selector
    return LabelSelector(match_labels={**selector.match_labels, label_key: label_value},
                         match_expressions=selector.match_expressions)


def selector_has_label(selector: LabelSelector, label_key: str) -> bool:
    """Go: ``SelectorHasLabel`` — labels.go#L121-L124."""
    return len(selector.match_labels.get(label_key, "")) > 0


__all__ = ["add_label", "add_label_to_selector", "clone_and_add_label", "clone_and_remove_label",
           "clone_selector_and_add_label", "selector_has_label"]
