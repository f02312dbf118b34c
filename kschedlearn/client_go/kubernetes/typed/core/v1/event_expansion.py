"""The event sink the controllers hand their event broadcasters.

Go: staging/src/k8s.io/client-go/kubernetes/typed/core/v1/event_expansion.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/kubernetes/typed/core/v1/event_expansion.go#L148-L163

Differs from Go: Go wraps ``v1core.New(restClient).Events("")`` and writes each event into the
event's own namespace; here the sink holds the clientset and does the same. ``Patch`` (Go's
update of a repeated event) is the clientset's update.
"""

from __future__ import annotations

from typing import Any

import attrs


@attrs.define(eq=False)
class EventSinkImpl:
    """Go: ``EventSinkImpl`` — event_expansion.go#L148-L151."""

    interface: Any

    def create(self, event: Any) -> Any:
        """Go: ``(*EventSinkImpl).Create``."""
        return self.interface.core_v1().events(event.metadata.namespace).create(event)

    def update(self, event: Any) -> Any:
        """Go: ``(*EventSinkImpl).Update``."""
        return self.interface.core_v1().events(event.metadata.namespace).update(event)


__all__ = ["EventSinkImpl"]
