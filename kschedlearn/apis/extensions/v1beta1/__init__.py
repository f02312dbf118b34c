"""``extensions/v1beta1``: Deployment, DaemonSet, ReplicaSet and Scale as frozen attrs values.

Go: https://github.com/kubernetes/kubernetes/tree/v1.6.1/pkg/apis/extensions/v1beta1
"""

from kschedlearn.apis.extensions.v1beta1.defaults import (
    set_defaults_daemon_set,
    set_defaults_deployment,
    set_defaults_replica_set,
)
from kschedlearn.apis.extensions.v1beta1.types import *  # noqa: F403
from kschedlearn.apis.extensions.v1beta1 import types

__all__ = [*types.__all__, "set_defaults_daemon_set", "set_defaults_deployment", "set_defaults_replica_set"]
