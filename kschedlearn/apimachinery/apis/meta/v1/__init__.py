"""``metav1``: the LabelSelector type and its helpers.

Go: ``k8s.io/apimachinery/pkg/apis/meta/v1`` (types.go, helpers.go),
https://github.com/kubernetes/kubernetes/tree/v1.6.1/staging/src/k8s.io/apimachinery/pkg/apis/meta/v1
"""

from kschedlearn.apimachinery.apis.meta.v1.helpers import (
    format_label_selector,
    label_selector_as_map,
    label_selector_as_selector,
)
from kschedlearn.apimachinery.apis.meta.v1.types import (
    LABEL_SELECTOR_OP_DOES_NOT_EXIST,
    LABEL_SELECTOR_OP_EXISTS,
    LABEL_SELECTOR_OP_IN,
    LABEL_SELECTOR_OP_NOT_IN,
    LabelSelector,
    LabelSelectorOperator,
    LabelSelectorRequirement,
)

__all__ = [
    "LABEL_SELECTOR_OP_DOES_NOT_EXIST",
    "LABEL_SELECTOR_OP_EXISTS",
    "LABEL_SELECTOR_OP_IN",
    "LABEL_SELECTOR_OP_NOT_IN",
    "LabelSelector",
    "LabelSelectorOperator",
    "LabelSelectorRequirement",
    "format_label_selector",
    "label_selector_as_map",
    "label_selector_as_selector",
]
