"""Leader election among scheduler replicas, through a lock record on an Endpoints object.

Go: https://github.com/kubernetes/kubernetes/tree/v1.6.1/pkg/client/leaderelection
"""

from kschedlearn.client.leaderelection.leaderelection import (
    DEFAULT_LEASE_DURATION,
    DEFAULT_RENEW_DEADLINE,
    DEFAULT_RETRY_PERIOD,
    JITTER_FACTOR,
    LeaderCallbacks,
    LeaderElectionConfig,
    LeaderElectionConfigError,
    LeaderElector,
    bind_flags,
    default_leader_election_configuration,
    new_leader_elector,
    run_or_die,
)

__all__ = [
    "DEFAULT_LEASE_DURATION", "DEFAULT_RENEW_DEADLINE", "DEFAULT_RETRY_PERIOD", "JITTER_FACTOR",
    "LeaderCallbacks", "LeaderElectionConfig", "LeaderElectionConfigError", "LeaderElector",
    "bind_flags", "default_leader_election_configuration", "new_leader_elector", "run_or_die",
]
