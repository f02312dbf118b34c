"""The client-side token bucket behind ``--kube-api-qps`` / ``--kube-api-burst``.

Go: staging/src/k8s.io/client-go/util/flowcontrol/throttle.go (NewTokenBucketRateLimiter,
backed by juju/ratelimit)
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/util/flowcontrol/throttle.go#L47-L58

Every request of a client takes one token; the bucket holds ``burst`` tokens and refills at
``qps`` per second. ``accept()`` blocks until a token is free — which is why a burst of pods
is bound at about ``qps`` per second once the first ``burst`` requests are spent (the 1.6
scheduler's ~50 binds/s ceiling with the defaults 50/100).

Differs from Go: time is the simulation's virtual clock (``accept`` sleeps the calling
goroutine); outside a goroutine ``accept`` never blocks (it just takes a token if it can).
"""

from __future__ import annotations

import attrs

from kschedlearn import sim
from kschedlearn.sim.runtime import current_goroutine


@attrs.define(eq=False)
class TokenBucketRateLimiter:
    """Go: flowcontrol.tokenBucketRateLimiter."""

    qps: float
    burst: int
    _tokens: float = attrs.field(init=False)
    _last: float | None = attrs.field(default=None, init=False)

    def __attrs_post_init__(self) -> None:
        self._tokens = float(self.burst)

    def _refill(self, now: float) -> None:
        if self._last is not None:
            self._tokens = min(float(self.burst), self._tokens + (now - self._last) * self.qps)
        self._last = now

    def try_accept(self) -> bool:
        """Go: TryAccept — take a token if one is available now."""
        g = current_goroutine()
        self._refill(g.runtime.now if g is not None else (self._last or 0.0))
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        return False

    def accept(self) -> None:
        """Go: Accept — wait (virtual time) until a token is available, then take it."""
        g = current_goroutine()
        if g is None:
            self.try_accept()
            return
        self._refill(g.runtime.now)
        # Reserve the token now (the balance may go negative) and sleep until it exists:
        # later callers queue behind us, as with juju/ratelimit's Wait.
        self._tokens -= 1.0
        if self._tokens < 0.0:
            sim.sleep(-self._tokens / self.qps)

    def qps_(self) -> float:
        """Go: QPS()."""
        return self.qps


def new_token_bucket_rate_limiter(qps: float, burst: int) -> TokenBucketRateLimiter:
    """Go: flowcontrol.NewTokenBucketRateLimiter."""
    return TokenBucketRateLimiter(qps, burst)
