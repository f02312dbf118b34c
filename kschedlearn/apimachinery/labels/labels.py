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


def convert_selector_to_labels_map(selector: str) -> Set:
    """Read ``k1=v1,k2=v2`` (spaces around keys and values allowed) into a validated :class:`Set`.

    Go: labels.go#L155-L181 ``ConvertSelectorToLabelsMap``

    Differs from Go: an invalid pair raises :class:`InvalidSelectorError` with Go's message
    instead of returning the map read so far beside the error.
    """
    from kschedlearn.apimachinery.labels.selector import _validate_label_key, _validate_label_value

    labels_map = Set()
    if len(selector) == 0:
        return labels_map
    labels = selector.split(",")
    for label in labels:
        parts = label.split("=")
        if len(parts) != 2:
            # Go formats the []string with %s: "[a b]".
            raise _invalid_selector(f"invalid selector: [{' '.join(parts)}]")
        key = _trim_space(parts[0])
        _validate_label_key(key)
        value = _trim_space(parts[1])
        _validate_label_value(value)
        labels_map[key] = value
    return labels_map


# Python's str.isspace also counts the separators U+001C..U+001F, Go's unicode.IsSpace does not.
_GO_SPACE = "".join(chr(c) for c in range(0x3001) if chr(c).isspace() and not 0x1C <= c <= 0x1F)


def _trim_space(s: str) -> str:
    """Go's ``strings.TrimSpace``: strip leading and trailing ``unicode.IsSpace`` characters."""
    return s.strip(_GO_SPACE)


def _invalid_selector(message: str) -> Exception:
    """The selector module's error type, imported late (selector.py imports nothing from here)."""
    from kschedlearn.apimachinery.labels.selector import InvalidSelectorError

    return InvalidSelectorError(message)
