"""Go: pkg/apis/apps/validation (https://github.com/kubernetes/kubernetes/tree/v1.6.1/pkg/apis/apps/validation)."""

from kschedlearn.apis.apps.validation.validation import *  # noqa: F403
from kschedlearn.apis.apps.validation import validation

__all__ = list(validation.__all__)
