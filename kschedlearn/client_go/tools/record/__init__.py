"""k8s.io/client-go/tools/record: the event broadcaster and recorder.

Go: package ``record``, staging/src/k8s.io/client-go/tools/record
https://github.com/kubernetes/kubernetes/tree/v1.6.1/staging/src/k8s.io/client-go/tools/record
"""

from kschedlearn.client_go.tools.record.event import (
    EventBroadcaster,
    EventRecorder,
    EventSink,
    new_broadcaster,
)

__all__ = ["EventBroadcaster", "EventRecorder", "EventSink", "new_broadcaster"]
