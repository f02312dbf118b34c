"""``apps/v1beta1``: StatefulSet, Deployment and Scale.

Go: https://github.com/kubernetes/kubernetes/tree/v1.6.1/pkg/apis/apps/v1beta1
"""

from kschedlearn.apis.apps.v1beta1.defaults import set_defaults_deployment, set_defaults_stateful_set
from kschedlearn.apis.apps.v1beta1.types import *  # noqa: F403
from kschedlearn.apis.apps.v1beta1 import types

__all__ = [*types.__all__, "set_defaults_deployment", "set_defaults_stateful_set"]
