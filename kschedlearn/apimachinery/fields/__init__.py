"""Fields and field selectors.

Go: ``k8s.io/apimachinery/pkg/fields`` (fields.go, selector.go, requirements.go),
https://github.com/kubernetes/kubernetes/tree/v1.6.1/staging/src/k8s.io/apimachinery/pkg/fields
"""

from kschedlearn.apimachinery.fields.fields import Fields, Set
from kschedlearn.apimachinery.fields.requirements import Requirement, Requirements
from kschedlearn.apimachinery.fields.selector import (
    AndTerm,
    HasTerm,
    InvalidEscapeSequence,
    InvalidFieldSelectorError,
    NotHasTerm,
    Selector,
    TransformFunc,
    UnescapedRune,
    escape_value,
    everything,
    one_term_equal_selector,
    parse_and_transform_selector,
    parse_selector,
    parse_selector_or_die,
    selector_from_set,
    unescape_value,
)

__all__ = [
    "AndTerm",
    "Fields",
    "HasTerm",
    "InvalidEscapeSequence",
    "InvalidFieldSelectorError",
    "NotHasTerm",
    "Requirement",
    "Requirements",
    "Selector",
    "Set",
    "TransformFunc",
    "UnescapedRune",
    "escape_value",
    "everything",
    "one_term_equal_selector",
    "parse_and_transform_selector",
    "parse_selector",
    "parse_selector_or_die",
    "selector_from_set",
    "unescape_value",
]
