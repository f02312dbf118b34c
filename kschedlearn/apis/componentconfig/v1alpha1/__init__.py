"""The versioned (v1alpha1) component configuration: only its defaulting functions are mirrored.

Go: https://github.com/kubernetes/kubernetes/tree/v1.6.1/pkg/apis/componentconfig/v1alpha1
"""

from kschedlearn.apis.componentconfig.v1alpha1.defaults import (
    set_defaults_kube_scheduler_configuration,
    set_defaults_leader_election_configuration,
)

__all__ = ["set_defaults_kube_scheduler_configuration", "set_defaults_leader_election_configuration"]
