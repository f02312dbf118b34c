"""In-memory fakes of the scheduler's listers, for tests and small examples.

Go: plugin/pkg/scheduler/testing
https://github.com/kubernetes/kubernetes/tree/v1.6.1/plugin/pkg/scheduler/testing
"""

from kschedlearn.scheduler.testing.fake_lister import (
    FakeControllerLister,
    FakeNodeInfo,
    FakeNodeLister,
    FakeNodeListInfo,
    FakePersistentVolumeClaimInfo,
    FakePersistentVolumeClaimLister,
    FakePersistentVolumeInfo,
    FakePodLister,
    FakePVCInfo,
    FakePVInfo,
    FakeReplicaSetLister,
    FakeServiceLister,
    FakeStatefulSetLister,
)

__all__ = [
    "FakeControllerLister",
    "FakeNodeInfo",
    "FakeNodeLister",
    "FakeNodeListInfo",
    "FakePersistentVolumeClaimInfo",
    "FakePersistentVolumeClaimLister",
    "FakePersistentVolumeInfo",
    "FakePodLister",
    "FakePVCInfo",
    "FakePVInfo",
    "FakeReplicaSetLister",
    "FakeServiceLister",
    "FakeStatefulSetLister",
]
