"""Lock objects for leader election (only the Endpoints lock exists in 1.6).

Go: https://github.com/kubernetes/kubernetes/tree/v1.6.1/pkg/client/leaderelection/resourcelock
"""

from kschedlearn.client.leaderelection.resourcelock.endpointslock import (
    ENDPOINT_NOT_INITIALIZED,
    EndpointsLock,
    LockNotInitializedError,
)
from kschedlearn.client.leaderelection.resourcelock.interface import (
    ENDPOINTS_RESOURCE_LOCK,
    LEADER_ELECTION_RECORD_ANNOTATION_KEY,
    Interface,
    LeaderElectionRecord,
    RecordDecodeError,
    ResourceLockConfig,
    new,
)

__all__ = [
    "ENDPOINTS_RESOURCE_LOCK", "ENDPOINT_NOT_INITIALIZED", "EndpointsLock", "Interface",
    "LEADER_ELECTION_RECORD_ANNOTATION_KEY", "LeaderElectionRecord", "LockNotInitializedError",
    "RecordDecodeError", "ResourceLockConfig", "new",
]
