"""Mirror of ``k8s.io/apimachinery/pkg/watch``: the watch Event and Interface.

Go: https://github.com/kubernetes/kubernetes/tree/v1.6.1/staging/src/k8s.io/apimachinery/pkg/watch
"""

from kschedlearn.apimachinery.watch.watch import (
    ADDED,
    DELETED,
    ERROR,
    MODIFIED,
    Event,
    EventType,
    FakeWatcher,
    Interface,
    new_fake,
)

__all__ = ["ADDED", "DELETED", "ERROR", "MODIFIED", "Event", "EventType", "FakeWatcher",
           "Interface", "new_fake"]
