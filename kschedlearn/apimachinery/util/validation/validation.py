"""Syntax rules for label keys and values, with Go's exact error texts.

Go: ``k8s.io/apimachinery/pkg/util/validation/validation.go`` (IsQualifiedName,
IsValidLabelValue, IsDNS1123Subdomain, IsValidPercent, MaxLenError, RegexError, EmptyError),
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/util/validation/validation.go

Only the checks the label selectors and the API server's validation need are mirrored. Each returns a list of error strings
(empty = valid), as in Go.
"""

from __future__ import annotations

import re

_QNAME_CHAR_FMT = "[A-Za-z0-9]"
_QNAME_EXT_CHAR_FMT = "[-A-Za-z0-9_.]"
_QUALIFIED_NAME_FMT = "(" + _QNAME_CHAR_FMT + _QNAME_EXT_CHAR_FMT + "*)?" + _QNAME_CHAR_FMT
_QUALIFIED_NAME_ERR_MSG = (
    "must consist of alphanumeric characters, '-', '_' or '.', "
    "and must start and end with an alphanumeric character"
)
_QUALIFIED_NAME_MAX_LENGTH = 63
_QUALIFIED_NAME_RE = re.compile("^" + _QUALIFIED_NAME_FMT + "$")

_LABEL_VALUE_FMT = "(" + _QUALIFIED_NAME_FMT + ")?"
_LABEL_VALUE_ERR_MSG = (
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', "
    "and must start and end with an alphanumeric character"
)
LABEL_VALUE_MAX_LENGTH = 63
_LABEL_VALUE_RE = re.compile("^" + _LABEL_VALUE_FMT + "$")

_DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
_DNS1123_SUBDOMAIN_FMT = _DNS1123_LABEL_FMT + "(\\." + _DNS1123_LABEL_FMT + ")*"
_DNS1123_SUBDOMAIN_ERR_MSG = (
    "a DNS-1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', "
    "and must start and end with an alphanumeric character"
)
DNS1123_SUBDOMAIN_MAX_LENGTH = 253
_DNS1123_SUBDOMAIN_RE = re.compile("^" + _DNS1123_SUBDOMAIN_FMT + "$")


def _full_match(regex: re.Pattern[str], value: str) -> bool:
    # Go's "$" never matches before a trailing newline; Python's does, so use fullmatch.
    return regex.fullmatch(value) is not None


def is_qualified_name(value: str) -> list[str]:
    """Check a label key: ``[prefix/]name`` with a DNS-subdomain prefix and a 63-char name.

    Go: validation.go ``IsQualifiedName``.
    """
    errs: list[str] = []
    parts = value.split("/")
    if len(parts) == 1:
        name = parts[0]
    elif len(parts) == 2:
        prefix, name = parts
        if len(prefix) == 0:
            errs.append("prefix part " + empty_error())
        else:
            errs.extend("prefix part " + m for m in is_dns1123_subdomain(prefix))
    else:
        return errs + [
            "a qualified name "
            + regex_error(_QUALIFIED_NAME_ERR_MSG, _QUALIFIED_NAME_FMT, "MyName", "my.name", "123-abc")
            + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"
        ]
    if len(name) == 0:
        errs.append("name part " + empty_error())
    elif len(name) > _QUALIFIED_NAME_MAX_LENGTH:
        errs.append("name part " + max_len_error(_QUALIFIED_NAME_MAX_LENGTH))
    if not _full_match(_QUALIFIED_NAME_RE, name):
        errs.append(
            "name part "
            + regex_error(_QUALIFIED_NAME_ERR_MSG, _QUALIFIED_NAME_FMT, "MyName", "my.name", "123-abc")
        )
    return errs


def is_valid_label_value(value: str) -> list[str]:
    """Check a label value: empty, or up to 63 alphanumerics with ``-_.`` inside.

    Go: validation.go ``IsValidLabelValue``.
    """
    errs: list[str] = []
    if len(value) > LABEL_VALUE_MAX_LENGTH:
        errs.append(max_len_error(LABEL_VALUE_MAX_LENGTH))
    if not _full_match(_LABEL_VALUE_RE, value):
        errs.append(regex_error(_LABEL_VALUE_ERR_MSG, _LABEL_VALUE_FMT, "MyValue", "my_value", "12345"))
    return errs


def is_dns1123_subdomain(value: str) -> list[str]:
    """Go: validation.go ``IsDNS1123Subdomain``."""
    errs: list[str] = []
    if len(value) > DNS1123_SUBDOMAIN_MAX_LENGTH:
        errs.append(max_len_error(DNS1123_SUBDOMAIN_MAX_LENGTH))
    if not _full_match(_DNS1123_SUBDOMAIN_RE, value):
        errs.append(regex_error(_DNS1123_SUBDOMAIN_ERR_MSG, _DNS1123_SUBDOMAIN_FMT, "example.com"))
    return errs


def empty_error() -> str:
    """Go: validation.go ``EmptyError``."""
    return "must be non-empty"


def max_len_error(length: int) -> str:
    """Go: validation.go ``MaxLenError``."""
    return f"must be no more than {length} characters"


def regex_error(msg: str, fmt: str, *examples: str) -> str:
    """Explain a failed regular-expression check, with examples. Go: validation.go ``RegexError``."""
    if not examples:
        return msg + " (regex used for validation is '" + fmt + "')"
    shown = " or ".join("'" + e + "', " for e in examples)
    return msg + " (e.g. " + shown + "regex used for validation is '" + fmt + "')"


_DNS1123_LABEL_ERR_MSG = (
    "a DNS-1123 label must consist of lower case alphanumeric characters or '-', "
    "and must start and end with an alphanumeric character"
)
DNS1123_LABEL_MAX_LENGTH = 63
_DNS1123_LABEL_RE = re.compile("^" + _DNS1123_LABEL_FMT + "$")


def is_dns1123_label(value: str) -> list[str]:
    """Go: validation.go ``IsDNS1123Label`` (namespaces, container names)."""
    errs: list[str] = []
    if len(value) > DNS1123_LABEL_MAX_LENGTH:
        errs.append(max_len_error(DNS1123_LABEL_MAX_LENGTH))
    if not _full_match(_DNS1123_LABEL_RE, value):
        errs.append(regex_error(_DNS1123_LABEL_ERR_MSG, _DNS1123_LABEL_FMT, "my-name", "123-abc"))
    return errs


def is_valid_port_num(port: int) -> list[str]:
    """Go: validation.go ``IsValidPortNum`` (1..65535)."""
    return [] if 1 <= port <= 65535 else [inclusive_range_error(1, 65535)]


_PERCENT_FMT = "[0-9]+%"
_PERCENT_ERR_MSG = "a valid percent string must be a numeric string followed by an ending '%'"
_PERCENT_RE = re.compile("^" + _PERCENT_FMT + "$")


def is_valid_percent(percent: str) -> list[str]:
    """Go: validation.go ``IsValidPercent`` (validation.go#L259-L264): a Deployment's or
    DaemonSet's ``maxSurge`` / ``maxUnavailable`` given as a string."""
    if not _full_match(_PERCENT_RE, percent):
        return [regex_error(_PERCENT_ERR_MSG, _PERCENT_FMT, "1%", "93%")]
    return []


def inclusive_range_error(lo: int, hi: int) -> str:
    """Go: validation.go ``InclusiveRangeError``."""
    return f"must be between {lo} and {hi}, inclusive"
