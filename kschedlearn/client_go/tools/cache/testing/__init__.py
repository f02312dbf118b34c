"""Test helpers of client-go tools/cache: a fake watcher and a fake list/watch source.

Go: staging/src/k8s.io/client-go/tools/cache/testing/fake_controller_source.go
https://github.com/kubernetes/kubernetes/tree/v1.6.1/staging/src/k8s.io/client-go/tools/cache/testing
"""

from kschedlearn.client_go.tools.cache.testing.fake_controller_source import (
    FakeControllerSource,
    FakeList,
    FakeListMeta,
    FakeWatcher,
    WatchEvent,
    new_fake_controller_source,
)

__all__ = [
    "FakeControllerSource", "FakeList", "FakeListMeta", "FakeWatcher", "WatchEvent",
    "new_fake_controller_source",
]
