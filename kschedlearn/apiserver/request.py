"""Decoding a request's options: resourceVersion strings and label/field selectors.

Go: the ListOptions handling of the REST handlers
(https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apiserver/pkg/endpoints/handlers/rest.go)
and the field label conversion check (``field label not supported: <label>``).

Differs from Go: kschedlearn-only module; selectors may be given as strings or as already
parsed ``labels.Selector`` / ``fields.Selector`` values.
"""

from __future__ import annotations

from typing import Any

from kschedlearn.apimachinery import fields, labels
from kschedlearn.apimachinery.api.errors import new_bad_request
from kschedlearn.apiserver.fieldsets import supported_fields
from kschedlearn.apiserver.registry import ResourceInfo

Selector = Any  # a selector string, a parsed labels/fields Selector, or None


def parse_resource_version(rv: str) -> int:
    """A request's resourceVersion as an int ("" → 0); garbage is a 400 Bad Request."""
    if rv in ("", None):
        return 0
    try:
        value = int(rv)
    except (TypeError, ValueError):
        raise new_bad_request(f"invalid resource version {rv!r}") from None
    if value < 0:
        raise new_bad_request(f"invalid resource version {rv!r}")
    return value


def parse_label_selector(sel: Selector) -> Any:
    """A ``labels.Selector`` (None/"" → everything); a syntax error is a 400 Bad Request."""
    if sel is None or sel == "":
        return labels.everything()
    if isinstance(sel, str):
        try:
            return labels.parse(sel)
        except ValueError as exc:
            raise new_bad_request(f"invalid label selector {sel!r}: {exc}") from None
    return sel


def parse_field_selector(info: ResourceInfo, sel: Selector) -> Any:
    """A ``fields.Selector`` whose labels the kind supports (else 400, as Go's conversion)."""
    if sel is None or sel == "":
        return fields.everything()
    if isinstance(sel, str):
        try:
            sel = fields.parse_selector(sel)
        except ValueError as exc:
            raise new_bad_request(f"invalid field selector: {exc}") from None
    allowed = supported_fields(info.resource)
    for req in sel.requirements():
        if req.field not in allowed:
            raise new_bad_request(f"field label not supported: {req.field}")
    return sel
