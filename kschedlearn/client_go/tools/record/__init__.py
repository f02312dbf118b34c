"""k8s.io/client-go/tools/record: the event broadcaster and recorder."""

from kschedlearn.client_go.tools.record.event import (
    EventBroadcaster,
    EventRecorder,
    EventSink,
    new_broadcaster,
)

__all__ = ["EventBroadcaster", "EventRecorder", "EventSink", "new_broadcaster"]
