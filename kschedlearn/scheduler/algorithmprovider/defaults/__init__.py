"""The default algorithm providers (DefaultProvider, ClusterAutoscalerProvider).

Go: plugin/pkg/scheduler/algorithmprovider/defaults
https://github.com/kubernetes/kubernetes/tree/v1.6.1/plugin/pkg/scheduler/algorithmprovider/defaults
"""

from kschedlearn.scheduler.algorithmprovider.defaults.defaults import (
    CLUSTER_AUTOSCALER_PROVIDER,
    DEFAULT_MAX_AZURE_DISK_VOLUMES,
    DEFAULT_MAX_EBS_VOLUMES,
    DEFAULT_MAX_GCE_PD_VOLUMES,
    KUBE_MAX_PD_VOLS,
    EquivalencePod,
    get_equivalence_pod,
    register_defaults,
)

__all__ = [
    "CLUSTER_AUTOSCALER_PROVIDER",
    "DEFAULT_MAX_AZURE_DISK_VOLUMES",
    "DEFAULT_MAX_EBS_VOLUMES",
    "DEFAULT_MAX_GCE_PD_VOLUMES",
    "KUBE_MAX_PD_VOLS",
    "EquivalencePod",
    "get_equivalence_pod",
    "register_defaults",
]
