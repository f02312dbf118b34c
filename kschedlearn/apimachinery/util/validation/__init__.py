"""Go: ``k8s.io/apimachinery/pkg/util/validation``.

https://github.com/kubernetes/kubernetes/tree/v1.6.1/staging/src/k8s.io/apimachinery/pkg/util/validation
"""

from kschedlearn.apimachinery.util.validation.validation import (
    DNS1123_SUBDOMAIN_MAX_LENGTH,
    LABEL_VALUE_MAX_LENGTH,
    empty_error,
    is_dns1123_subdomain,
    is_qualified_name,
    is_valid_label_value,
    max_len_error,
    regex_error,
)

__all__ = [
    "DNS1123_SUBDOMAIN_MAX_LENGTH",
    "LABEL_VALUE_MAX_LENGTH",
    "empty_error",
    "is_dns1123_subdomain",
    "is_qualified_name",
    "is_valid_label_value",
    "max_len_error",
    "regex_error",
]
