"""The operators a selector requirement can use.

Go: ``k8s.io/apimachinery/pkg/selection/operator.go`` (type ``Operator`` and its constants),
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/selection/operator.go

Differs from Go: ``Operator`` is a plain ``str`` alias; constant names are UPPER_SNAKE
(``selection.In`` → ``IN``, ``selection.DoesNotExist`` → ``DOES_NOT_EXIST``).
"""

from typing import TypeAlias

Operator: TypeAlias = str

DOES_NOT_EXIST: Operator = "!"
EQUALS: Operator = "="
DOUBLE_EQUALS: Operator = "=="
IN: Operator = "in"
NOT_EQUALS: Operator = "!="
NOT_IN: Operator = "notin"
EXISTS: Operator = "exists"
GREATER_THAN: Operator = "gt"
LESS_THAN: Operator = "lt"
