"""Labels and label selectors.

Go: ``k8s.io/apimachinery/pkg/labels`` (labels.go, selector.go),
https://github.com/kubernetes/kubernetes/tree/v1.6.1/staging/src/k8s.io/apimachinery/pkg/labels
"""

from kschedlearn.apimachinery.labels.labels import (
    Labels,
    Set,
    conflicts,
    convert_selector_to_labels_map,
    equals,
    format_labels,
    merge,
)
from kschedlearn.apimachinery.labels.selector import (
    InternalSelector,
    InvalidSelectorError,
    Lexer,
    NothingSelector,
    Parser,
    ParserContext,
    Requirement,
    ScannedItem,
    Selector,
    Token,
    everything,
    new_requirement,
    new_selector,
    nothing,
    parse,
    parse_to_requirements,
    selector_from_set,
    selector_from_validated_set,
)

__all__ = [
    "InternalSelector",
    "InvalidSelectorError",
    "Labels",
    "Lexer",
    "NothingSelector",
    "Parser",
    "ParserContext",
    "Requirement",
    "ScannedItem",
    "Selector",
    "Set",
    "Token",
    "conflicts",
    "convert_selector_to_labels_map",
    "equals",
    "everything",
    "format_labels",
    "merge",
    "new_requirement",
    "new_selector",
    "nothing",
    "parse",
    "parse_to_requirements",
    "selector_from_set",
    "selector_from_validated_set",
]
