"""Go: pkg/util/labels (https://github.com/kubernetes/kubernetes/tree/v1.6.1/pkg/util/labels)."""

from kschedlearn.util.labels.labels import *  # noqa: F403
from kschedlearn.util.labels import labels

__all__ = list(labels.__all__)
