"""Go: pkg/apis/extensions/validation (https://github.com/kubernetes/kubernetes/tree/v1.6.1/pkg/apis/extensions/validation)."""

from kschedlearn.apis.extensions.validation.validation import *  # noqa: F403
from kschedlearn.apis.extensions.validation import validation

__all__ = list(validation.__all__)
