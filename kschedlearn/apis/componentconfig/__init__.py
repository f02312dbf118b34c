"""Component configuration types (the scheduler's and leader election's settings).

Go: https://github.com/kubernetes/kubernetes/tree/v1.6.1/pkg/apis/componentconfig
"""

from kschedlearn.apis.componentconfig.types import (
    KubeSchedulerConfiguration,
    LeaderElectionConfiguration,
)

__all__ = ["KubeSchedulerConfiguration", "LeaderElectionConfiguration"]
