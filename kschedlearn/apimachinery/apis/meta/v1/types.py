"""``LabelSelector`` — the structured selector in Deployments, ReplicaSets, affinity terms ...

Go: ``k8s.io/apimachinery/pkg/apis/meta/v1/types.go`` (``LabelSelector``,
``LabelSelectorRequirement``, ``LabelSelectorOperator``),
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/types.go

Manifest form (camelCase, as kubectl prints it)::

    matchLabels: {app: web}
    matchExpressions:
    - {key: tier, operator: In, values: [frontend, api]}

Differs from Go: ``from_dict``/``to_dict`` replace JSON (un)marshalling; decoding errors are
:class:`kschedlearn.api.errors.ManifestError` naming the field path. Unknown keys are ignored,
as Go's JSON decoder ignores them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeAlias

import attrs

from kschedlearn.api.errors import ManifestError

LabelSelectorOperator: TypeAlias = str
LABEL_SELECTOR_OP_IN: LabelSelectorOperator = "In"
LABEL_SELECTOR_OP_NOT_IN: LabelSelectorOperator = "NotIn"
LABEL_SELECTOR_OP_EXISTS: LabelSelectorOperator = "Exists"
LABEL_SELECTOR_OP_DOES_NOT_EXIST: LabelSelectorOperator = "DoesNotExist"


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def _require_mapping(d: Any, path: str, obj: str) -> Mapping[str, Any]:
    if not isinstance(d, Mapping):
        raise ManifestError(obj, path, f"expected a mapping, got {type(d).__name__}")
    return d


def _require_str(v: Any, path: str, obj: str) -> str:
    if not isinstance(v, str):
        raise ManifestError(obj, path, f"expected a string, got {type(v).__name__} {v!r}")
    return v


@attrs.frozen(kw_only=True)
class LabelSelectorRequirement:
    """``key operator values`` with operator ``In``/``NotIn``/``Exists``/``DoesNotExist``.

    Go: types.go ``LabelSelectorRequirement``. The operator is *not* checked here (Go accepts any
    string when decoding); :func:`label_selector_as_selector` rejects unknown ones.
    """

    key: str
    operator: LabelSelectorOperator
    values: tuple[str, ...] = ()

    @classmethod
    def from_dict(cls, d: Any, *, path: str = "", obj: str = "") -> LabelSelectorRequirement:
        """Decode ``{key, operator, values}``; missing strings decode as ``""`` like Go."""
        m = _require_mapping(d, path, obj)
        raw_values = m.get("values")
        if raw_values is None:
            raw_values = []
        if not isinstance(raw_values, list | tuple):
            raise ManifestError(obj, _join(path, "values"), f"expected a list, got {type(raw_values).__name__}")
        values = tuple(
            _require_str(v, f"{_join(path, 'values')}[{i}]", obj) for i, v in enumerate(raw_values)
        )
        return cls(
            key=_require_str(m.get("key", ""), _join(path, "key"), obj),
            operator=_require_str(m.get("operator", ""), _join(path, "operator"), obj),
            values=values,
        )

    def to_dict(self) -> dict[str, Any]:
        """Manifest form; ``values`` omitted when empty (Go's ``omitempty``)."""
        out: dict[str, Any] = {"key": self.key, "operator": self.operator}
        if self.values:
            out["values"] = list(self.values)
        return out


@attrs.frozen(kw_only=True)
class LabelSelector:
    """``matchLabels`` AND ``matchExpressions``. Go: types.go ``LabelSelector``.

    An empty selector matches everything; a missing one (``None`` where a selector is
    optional) matches nothing — see :func:`label_selector_as_selector`.
    """

    match_labels: dict[str, str] = attrs.field(factory=dict)
    match_expressions: tuple[LabelSelectorRequirement, ...] = ()

    @classmethod
    def from_dict(cls, d: Any, *, path: str = "", obj: str = "") -> LabelSelector:
        """Decode ``{matchLabels, matchExpressions}``."""
        m = _require_mapping(d, path, obj)
        labels_path = _join(path, "matchLabels")
        raw_labels = m.get("matchLabels") or {}
        raw_labels = _require_mapping(raw_labels, labels_path, obj)
        match_labels = {
            _require_str(k, labels_path, obj): _require_str(v, _join(labels_path, str(k)), obj)
            for k, v in raw_labels.items()
        }
        exprs_path = _join(path, "matchExpressions")
        raw_exprs = m.get("matchExpressions") or []
        if not isinstance(raw_exprs, list | tuple):
            raise ManifestError(obj, exprs_path, f"expected a list, got {type(raw_exprs).__name__}")
        match_expressions = tuple(
            LabelSelectorRequirement.from_dict(e, path=f"{exprs_path}[{i}]", obj=obj)
            for i, e in enumerate(raw_exprs)
        )
        return cls(match_labels=match_labels, match_expressions=match_expressions)

    def to_dict(self) -> dict[str, Any]:
        """Manifest form; empty parts omitted (Go's ``omitempty``)."""
        out: dict[str, Any] = {}
        if self.match_labels:
            out["matchLabels"] = dict(self.match_labels)
        if self.match_expressions:
            out["matchExpressions"] = [e.to_dict() for e in self.match_expressions]
        return out
