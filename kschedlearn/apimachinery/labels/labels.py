"""Label maps.

Go: ``k8s.io/apimachinery/pkg/labels/labels.go`` (``Labels`` interface, ``Set``),
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/labels/labels.go

Differs from Go: the ``Labels`` interface (``Has``/``Get``) is any ``Mapping[str, str]``; selectors
accept plain dicts as well as :class:`Set`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kschedlearn.apimachinery.labels.selector import Selector

Labels = Mapping[str, str]


class Set(dict[str, str]):
    """A map of label keys to values.

    Go: labels.go ``Set`` (``map[string]string`` with methods).

    Differs from Go: a ``dict`` subclass; ``get(key)`` defaults to ``""`` like Go's ``Get``
    instead of ``None``.
    """

    def string(self) -> str:
        """``k1=v1,k2=v2`` sorted by key. Go: labels.go ``Set.String``."""
        return ",".join(f"{key}={self[key]}" for key in sorted(self))

    def __str__(self) -> str:
        return self.string()

    def has(self, label: str) -> bool:
        """Go: labels.go ``Set.Has``."""
        return label in self

    def get(self, label: str, default: str = "") -> str:  # type: ignore[override]
        """The value of ``label``, or ``""`` when absent. Go: labels.go ``Set.Get``."""
        return super().get(label, default)

    def as_selector(self) -> Selector:
        """A selector matching exactly these labels. Go: labels.go ``Set.AsSelector``."""
        from kschedlearn.apimachinery.labels.selector import selector_from_set

        return selector_from_set(self)

    def as_selector_pre_validated(self) -> Selector:
        """Go: labels.go ``Set.AsSelectorPreValidated``."""
        from kschedlearn.apimachinery.labels.selector import selector_from_validated_set

        return selector_from_validated_set(self)


def format_labels(label_map: Mapping[str, str] | None) -> str:
    """``Set(label_map).String()``, or ``<none>`` when empty. Go: labels.go ``FormatLabels``."""
    text = Set(label_map or {}).string()
    return text if text else "<none>"


def conflicts(labels1: Mapping[str, str], labels2: Mapping[str, str]) -> bool:
    """True when a key has different values in the two maps. Go: labels.go ``Conflicts``."""
    small, big = (labels1, labels2) if len(labels1) <= len(labels2) else (labels2, labels1)
    return any(key in big and big[key] != value for key, value in small.items())


def merge(labels1: Mapping[str, str], labels2: Mapping[str, str]) -> Set:
    """Union of two maps; ``labels2`` wins on clashes. Go: labels.go ``Merge``."""
    merged = Set(labels1)
    merged.update(labels2)
    return merged


def equals(labels1: Mapping[str, str], labels2: Mapping[str, str]) -> bool:
    """Same keys with the same values. Go: labels.go ``Equals``."""
    return dict(labels1) == dict(labels2)
