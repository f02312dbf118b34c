"""Defaults of the scheduler configuration: port 10251, DefaultProvider, 50 QPS, 15s/10s/2s leases.

Go: pkg/apis/componentconfig/v1alpha1/defaults.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/apis/componentconfig/v1alpha1/defaults.go#L133-L174

Differs from Go: Go defaults a *versioned* ``v1alpha1.KubeSchedulerConfiguration`` (pointer
fields) and converts it to the internal type; here the same rules fill the zero fields of the
internal :class:`~kschedlearn.apis.componentconfig.types.KubeSchedulerConfiguration` directly.
"""

from __future__ import annotations

from kschedlearn.apis.componentconfig.types import (
    KubeSchedulerConfiguration,
    LeaderElectionConfiguration,
)

#: Go: ports.SchedulerPort (pkg/master/ports/ports.go#L26-L28).
SCHEDULER_PORT = 10251
#: Go: api.DefaultSchedulerName.
DEFAULT_SCHEDULER_NAME = "default-scheduler"
#: Go: api.DefaultHardPodAffinitySymmetricWeight (pkg/api/types.go#L3809-L3822).
DEFAULT_HARD_POD_AFFINITY_SYMMETRIC_WEIGHT = 1
#: Go: api.DefaultFailureDomains -- hostname, zone and region labels, comma-joined.
DEFAULT_FAILURE_DOMAINS = (
    "kubernetes.io/hostname,failure-domain.beta.kubernetes.io/zone,"
    "failure-domain.beta.kubernetes.io/region"
)
#: Go: the literal default algorithm provider name (factory.DefaultProvider).
DEFAULT_PROVIDER = "DefaultProvider"
#: Go: the protobuf content type the scheduler asks the API server for.
DEFAULT_CONTENT_TYPE = "application/vnd.kubernetes.protobuf"
DEFAULT_KUBE_API_QPS = 50.0
DEFAULT_KUBE_API_BURST = 100
DEFAULT_LEASE_DURATION = 15.0
DEFAULT_RENEW_DEADLINE = 10.0
DEFAULT_RETRY_PERIOD = 2.0


def set_defaults_kube_scheduler_configuration(obj: KubeSchedulerConfiguration) -> None:
    """Fill every zero field with its default (in place).

    Go: v1alpha1.SetDefaults_KubeSchedulerConfiguration (defaults.go#L133-L161). Profiling has
    no default here: its flag's literal default (true) sets it in ``AddFlags``.
    """
    if obj.port == 0:
        obj.port = SCHEDULER_PORT
    if obj.address == "":
        obj.address = "0.0.0.0"
    if obj.algorithm_provider == "":
        obj.algorithm_provider = DEFAULT_PROVIDER
    if obj.content_type == "":
        obj.content_type = DEFAULT_CONTENT_TYPE
    if obj.kube_api_qps == 0:
        obj.kube_api_qps = DEFAULT_KUBE_API_QPS
    if obj.kube_api_burst == 0:
        obj.kube_api_burst = DEFAULT_KUBE_API_BURST
    if obj.scheduler_name == "":
        obj.scheduler_name = DEFAULT_SCHEDULER_NAME
    if obj.hard_pod_affinity_symmetric_weight == 0:
        obj.hard_pod_affinity_symmetric_weight = DEFAULT_HARD_POD_AFFINITY_SYMMETRIC_WEIGHT
    if obj.failure_domains == "":
        obj.failure_domains = DEFAULT_FAILURE_DOMAINS
    set_defaults_leader_election_configuration(obj.leader_election)


def set_defaults_leader_election_configuration(obj: LeaderElectionConfiguration) -> None:
    """Zero durations become 15s / 10s / 2s (in place); ``leader_elect`` stays as it is.

    Go: v1alpha1.SetDefaults_LeaderElectionConfiguration (defaults.go#L163-L174).
    """
    if obj.lease_duration == 0:
        obj.lease_duration = DEFAULT_LEASE_DURATION
    if obj.renew_deadline == 0:
        obj.renew_deadline = DEFAULT_RENEW_DEADLINE
    if obj.retry_period == 0:
        obj.retry_period = DEFAULT_RETRY_PERIOD
