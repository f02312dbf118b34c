"""Field-level validation errors, printed exactly as Go prints them.

Go: ``k8s.io/apimachinery/pkg/util/validation/field/errors.go``
(https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/util/validation/field/errors.go)
and the aggregate's ``Error()`` of ``pkg/util/errors/errors.go``
(https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/util/errors/errors.go).

Differs from Go: a field path is the string Go's ``*field.Path`` prints (``spec.containers[0].name``,
``metadata.labels[app]``), built with :func:`child`, :func:`index` and :func:`key`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import attrs

NOT_FOUND = "Not found"
REQUIRED = "Required value"
DUPLICATE = "Duplicate value"
INVALID = "Invalid value"
NOT_SUPPORTED = "Unsupported value"
FORBIDDEN = "Forbidden"
TOO_LONG = "Too long"
_NO_VALUE = (REQUIRED, FORBIDDEN, TOO_LONG)
#: Go: the ``ErrorType`` constants behind those texts (a StatusCause's ``reason``)
CAUSE_TYPES = {NOT_FOUND: "FieldValueNotFound", REQUIRED: "FieldValueRequired", DUPLICATE: "FieldValueDuplicate",
               INVALID: "FieldValueInvalid", NOT_SUPPORTED: "FieldValueNotSupported",
               FORBIDDEN: "FieldValueForbidden", TOO_LONG: "FieldValueTooLong"}


def child(path: str, *names: str) -> str:
    """Go: ``Path.Child`` — ``spec`` → ``spec.containers``."""
    for name in names:
        path = f"{path}.{name}" if path else name
    return path


def index(path: str, i: int) -> str:
    """Go: ``Path.Index`` — ``spec.containers`` → ``spec.containers[0]``."""
    return f"{path}[{i}]"


def key(path: str, k: str) -> str:
    """Go: ``Path.Key`` — ``metadata.labels`` → ``metadata.labels[app]``."""
    return f"{path}[{k}]"


def go_value(value: Any) -> str:
    """Go: errors.go ``ErrorBody``'s printing of the bad value (``null``, ``true``, numbers,
    ``%q`` strings); also how ``%#v`` prints a struct's string fields."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # Go's %q for the strings we see
    return str(value)


@attrs.frozen
class Error:
    """One field error. Go: ``field.Error`` (``Error()`` = ``<field>: <body>``)."""

    type: str
    field: str
    bad_value: Any = None
    detail: str = ""

    def error_body(self) -> str:
        """Go: ``Error.ErrorBody``."""
        body = self.type if self.type in _NO_VALUE else f"{self.type}: {go_value(self.bad_value)}"
        return f"{body}: {self.detail}" if self.detail else body

    def __str__(self) -> str:
        return f"{self.field}: {self.error_body()}"


def required(path: str, detail: str = "") -> Error:
    """Go: errors.go ``Required``."""
    return Error(REQUIRED, path, "", detail)


def invalid(path: str, value: Any, detail: str) -> Error:
    """Go: errors.go ``Invalid``."""
    return Error(INVALID, path, value, detail)


def duplicate(path: str, value: Any) -> Error:
    """Go: errors.go ``Duplicate``."""
    return Error(DUPLICATE, path, value)


def not_supported(path: str, value: Any, valid: Sequence[str]) -> Error:
    """Go: errors.go ``NotSupported``."""
    return Error(NOT_SUPPORTED, path, value, "supported values: " + ", ".join(valid) if valid else "")


def forbidden(path: str, detail: str) -> Error:
    """Go: errors.go ``Forbidden``."""
    return Error(FORBIDDEN, path, "", detail)


def to_aggregate(errs: Sequence[Error]) -> str:
    """Go: ``ErrorList.ToAggregate().Error()`` — one error as is, several as ``[a, b]`` (duplicates dropped)."""
    seen: list[str] = []
    for e in errs:
        if str(e) not in seen:
            seen.append(str(e))
    return seen[0] if len(seen) == 1 else "[" + ", ".join(seen) + "]"


__all__ = ["Error", "child", "index", "key", "required", "invalid", "duplicate", "not_supported", "forbidden",
           "to_aggregate", "REQUIRED", "INVALID", "NOT_SUPPORTED", "DUPLICATE", "FORBIDDEN"]
