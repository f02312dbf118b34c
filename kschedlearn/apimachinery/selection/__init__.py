"""Selector operators shared by label and field selectors.

Go: ``k8s.io/apimachinery/pkg/selection`` (operator.go),
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/selection/operator.go
"""

from kschedlearn.apimachinery.selection.operator import (
    DOES_NOT_EXIST,
    DOUBLE_EQUALS,
    EQUALS,
    EXISTS,
    GREATER_THAN,
    IN,
    LESS_THAN,
    NOT_EQUALS,
    NOT_IN,
    Operator,
)

__all__ = [
    "DOES_NOT_EXIST",
    "DOUBLE_EQUALS",
    "EQUALS",
    "EXISTS",
    "GREATER_THAN",
    "IN",
    "LESS_THAN",
    "NOT_EQUALS",
    "NOT_IN",
    "Operator",
]
