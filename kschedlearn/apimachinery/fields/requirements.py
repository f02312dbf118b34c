"""One field-selector condition as data.

Go: ``k8s.io/apimachinery/pkg/fields/requirements.go`` (``Requirement``, ``Requirements``),
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/fields/requirements.go
"""

from __future__ import annotations

import attrs

from kschedlearn.apimachinery.selection import Operator


@attrs.frozen
class Requirement:
    """``field <operator> value`` — only ``=`` and ``!=`` occur. Go: requirements.go ``Requirement``."""

    operator: Operator
    field: str
    value: str


Requirements = list[Requirement]
