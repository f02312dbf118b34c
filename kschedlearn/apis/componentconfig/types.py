"""The scheduler's configuration struct and the leader-election settings inside it.

Go: pkg/apis/componentconfig/types.go (KubeSchedulerConfiguration, LeaderElectionConfiguration)
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/apis/componentconfig/types.go#L566-L624

Every field starts at Go's zero value; :mod:`kschedlearn.apis.componentconfig.v1alpha1.defaults`
fills in the defaults, and the flag set writes into these objects while parsing (that is why
they are mutable ``attrs.define`` classes, not frozen values).

Differs from Go: durations (``metav1.Duration``) are float seconds; ``TypeMeta`` is left out.
"""

from __future__ import annotations

from typing import Any

import attrs


@attrs.define(kw_only=True)
class LeaderElectionConfiguration:
    """Go: componentconfig.LeaderElectionConfiguration.

    ``lease_duration``: how long a candidate waits, after last seeing the record change, before
    taking over; ``renew_deadline``: how long the leader keeps retrying a renewal before giving
    up; ``retry_period``: the pause between attempts. All in seconds.
    """

    leader_elect: bool = False
    lease_duration: float = 0.0
    renew_deadline: float = 0.0
    retry_period: float = 0.0


@attrs.define(kw_only=True)
class KubeSchedulerConfiguration:
    """Go: componentconfig.KubeSchedulerConfiguration (what ``/configz`` serves).

    ``hard_pod_affinity_symmetric_weight`` must be 0..100, but 1.6 checks that only when the
    scheduler is created (``CreateFromKeys``), not when the flag is parsed.
    """

    port: int = 0
    address: str = ""
    algorithm_provider: str = ""
    policy_config_file: str = ""
    enable_profiling: bool = False
    enable_contention_profiling: bool = False
    content_type: str = ""
    kube_api_qps: float = 0.0
    kube_api_burst: int = 0
    scheduler_name: str = ""
    hard_pod_affinity_symmetric_weight: int = 0
    failure_domains: str = ""
    leader_election: LeaderElectionConfiguration = attrs.field(factory=LeaderElectionConfiguration)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (v1alpha1 field names) that ``/configz`` prints under ``componentconfig``.

        Differs from Go: durations are written with Go's ``Duration.String`` form ("15s"), as
        ``metav1.Duration`` marshals them.
        """
        from kschedlearn.apis.componentconfig.duration import format_duration

        le = self.leader_election
        return {
            "kind": "", "apiVersion": "",
            "port": self.port,
            "address": self.address,
            "algorithmProvider": self.algorithm_provider,
            "policyConfigFile": self.policy_config_file,
            "enableProfiling": self.enable_profiling,
            "enableContentionProfiling": self.enable_contention_profiling,
            "contentType": self.content_type,
            "kubeAPIQPS": self.kube_api_qps,
            "kubeAPIBurst": self.kube_api_burst,
            "schedulerName": self.scheduler_name,
            "hardPodAffinitySymmetricWeight": self.hard_pod_affinity_symmetric_weight,
            "failureDomains": self.failure_domains,
            "leaderElection": {
                "leaderElect": le.leader_elect,
                "leaseDuration": format_duration(le.lease_duration),
                "renewDeadline": format_duration(le.renew_deadline),
                "retryPeriod": format_duration(le.retry_period),
            },
        }
