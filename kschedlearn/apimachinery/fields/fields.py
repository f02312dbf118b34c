"""Field maps (``metadata.name``, ``spec.nodeName``, ``status.phase`` ...).

Go: ``k8s.io/apimachinery/pkg/fields/fields.go`` (``Fields`` interface, ``Set``),
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/fields/fields.go

Differs from Go: the ``Fields`` interface (``Has``/``Get``) is any ``Mapping[str, str]``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kschedlearn.apimachinery.fields.selector import Selector

Fields = Mapping[str, str]


class Set(dict[str, str]):
    """A flat map of field paths to values. Go: fields.go ``Set``.

    Differs from Go: a ``dict`` subclass; ``get(field)`` defaults to ``""`` like Go's ``Get``.
    """

    def string(self) -> str:
        """``f1=v1,f2=v2`` sorted by field. Go: fields.go ``Set.String``."""
        return ",".join(f"{key}={self[key]}" for key in sorted(self))

    def __str__(self) -> str:
        return self.string()

    def has(self, field: str) -> bool:
        """Go: fields.go ``Set.Has``."""
        return field in self

    def get(self, field: str, default: str = "") -> str:  # type: ignore[override]
        """The value of ``field``, or ``""`` when absent. Go: fields.go ``Set.Get``."""
        return super().get(field, default)

    def as_selector(self) -> Selector:
        """A selector matching exactly these fields. Go: fields.go ``Set.AsSelector``."""
        from kschedlearn.apimachinery.fields.selector import selector_from_set

        return selector_from_set(self)
