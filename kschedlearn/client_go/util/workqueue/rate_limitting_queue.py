"""A delaying work queue whose re-adds wait as long as a rate limiter says.

Go: staging/src/k8s.io/client-go/util/workqueue/rate_limitting_queue.go (Go's spelling)
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/util/workqueue/rate_limitting_queue.go#L19-L69

Differs from Go: Go embeds ``DelayingInterface``; here it is a field with forwarding methods.
"""

from __future__ import annotations

from typing import Any

import attrs

from kschedlearn.client_go.util.workqueue.default_rate_limiters import RateLimiter
from kschedlearn.client_go.util.workqueue.delaying_queue import (
    DelayingType,
    new_delaying_queue,
    new_named_delaying_queue,
)


def new_rate_limiting_queue(rate_limiter: RateLimiter) -> RateLimitingType:
    """Go: ``NewRateLimitingQueue`` — rate_limitting_queue.go#L35-L42."""
    return RateLimitingType(delaying_interface=new_delaying_queue(), rate_limiter=rate_limiter)


def new_named_rate_limiting_queue(rate_limiter: RateLimiter, name: str) -> RateLimitingType:
    """Go: ``NewNamedRateLimitingQueue`` — rate_limitting_queue.go#L44-L49."""
    return RateLimitingType(delaying_interface=new_named_delaying_queue(name), rate_limiter=rate_limiter)


@attrs.define(eq=False)
class RateLimitingType:
    """Go: ``rateLimitingType`` — rate_limitting_queue.go#L51-L56."""

    delaying_interface: DelayingType
    rate_limiter: RateLimiter

    # -- the embedded DelayingInterface (Go promotes these methods) ----------------------
    def add(self, item: Any) -> None:
        self.delaying_interface.add(item)

    def len(self) -> int:
        return self.delaying_interface.len()

    def get(self) -> tuple[Any, bool]:
        return self.delaying_interface.get()

    def done(self, item: Any) -> None:
        self.delaying_interface.done(item)

    def shut_down(self) -> None:
        self.delaying_interface.shut_down()

    def shutting_down(self) -> bool:
        return self.delaying_interface.shutting_down()

    def add_after(self, item: Any, duration: float) -> None:
        self.delaying_interface.add_after(item, duration)

    # -- its own ---------------------------------------------------------------------------
    def add_rate_limited(self, item: Any) -> None:
        """Go: ``(*rateLimitingType).AddRateLimited`` — rate_limitting_queue.go#L58-L61."""
        self.delaying_interface.add_after(item, self.rate_limiter.when(item))

    def num_requeues(self, item: Any) -> int:
        """Go: ``(*rateLimitingType).NumRequeues`` — rate_limitting_queue.go#L63-L65."""
        return self.rate_limiter.num_requeues(item)

    def forget(self, item: Any) -> None:
        """Go: ``(*rateLimitingType).Forget`` — rate_limitting_queue.go#L67-L69."""
        self.rate_limiter.forget(item)


__all__ = ["RateLimitingType", "new_named_rate_limiting_queue", "new_rate_limiting_queue"]
