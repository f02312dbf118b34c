"""How long a failed key waits before it is retried.

Go: staging/src/k8s.io/client-go/util/workqueue/default_rate_limiters.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/util/workqueue/default_rate_limiters.go#L27-L211
and the token bucket it uses, ``Bucket`` of github.com/juju/ratelimit, which the v1.6.1 tree
vendors (``vendor/github.com/juju/ratelimit/ratelimit.go``).

The controllers' default (``default_controller_rate_limiter``) is the larger of a per-key
exponential back-off (5 ms, 10 ms, 20 ms, ... at most 1000 s) and a shared bucket of 100 tokens
refilled at 10 per second.

Differs from Go: durations are float seconds of the virtual clock; the bucket computes in
integer nanoseconds like Go and converts at the end. Only the ``Take`` path of the juju bucket
is mirrored (:class:`Bucket`).
"""

from __future__ import annotations

import math
from typing import Any, Protocol

import attrs

from kschedlearn import sim
from kschedlearn.apimachinery.util.runtime import GoPanic

_NS = 1_000_000_000
_MAX_INT64 = (1 << 63) - 1


class RateLimiter(Protocol):
    """Go: ``RateLimiter`` — default_rate_limiters.go#L27-L35."""

    def when(self, item: Any) -> float: ...
    def forget(self, item: Any) -> None: ...
    def num_requeues(self, item: Any) -> int: ...


def default_controller_rate_limiter() -> MaxOfRateLimiter:
    """Go: ``DefaultControllerRateLimiter`` — default_rate_limiters.go#L37-L45."""
    return new_max_of_rate_limiter(
        new_item_exponential_failure_rate_limiter(0.005, 1000.0),
        # 10 qps, 100 bucket size.  This is only for retry speed and its only the overall factor (not per item)
        BucketRateLimiter(bucket=new_bucket_with_rate(10.0, 100)),
    )


@attrs.define(eq=False)
class Bucket:
    """A token bucket. Go: juju/ratelimit ``Bucket`` (ratelimit.go)."""

    start_time: float
    capacity: int
    quantum: int
    fill_interval_ns: int
    avail: int
    avail_tick: int = 0

    def take(self, count: int) -> float:
        """Take ``count`` tokens; return how long the caller must wait for them (seconds).

        Go: ``(*Bucket).Take`` / ``take`` with an infinite maxWait (ratelimit.go).
        """
        now_ns = _ns(sim.now() - self.start_time)
        if count <= 0:
            return 0.0
        current_tick = self._adjust(now_ns)
        avail = self.avail - count
        if avail >= 0:
            self.avail = avail
            return 0.0
        end_tick = current_tick + (-avail + self.quantum - 1) // self.quantum
        wait_ns = end_tick * self.fill_interval_ns - now_ns
        self.avail = avail
        return wait_ns / _NS

    def _adjust(self, now_ns: int) -> int:
        """Go: ``(*Bucket).adjust`` — refill for the ticks since the last adjustment."""
        current_tick = now_ns // self.fill_interval_ns
        if self.avail >= self.capacity:
            return current_tick
        self.avail += (current_tick - self.avail_tick) * self.quantum
        if self.avail > self.capacity:
            self.avail = self.capacity
        self.avail_tick = current_tick
        return current_tick

    def rate(self) -> float:
        """Go: ``(*Bucket).Rate`` (tokens per second)."""
        return 1e9 * float(self.quantum) / float(self.fill_interval_ns)


def new_bucket_with_rate(rate: float, capacity: int) -> Bucket:
    """A full bucket filled at ``rate`` tokens per second. Go: juju/ratelimit ``NewBucketWithRate``."""
    quantum = 1
    while quantum < 1 << 50:
        fill_interval_ns = int(1e9 * float(quantum) / rate)
        if fill_interval_ns > 0:
            tb = Bucket(start_time=sim.now(), capacity=capacity, quantum=quantum,
                        fill_interval_ns=fill_interval_ns, avail=capacity)
            if abs(tb.rate() - rate) / rate <= 0.01:
                return tb
        quantum = _next_quantum(quantum)
    raise GoPanic(f"cannot find suitable quantum for {rate:g}")


def _next_quantum(q: int) -> int:
    """Go: juju/ratelimit ``nextQuantum``."""
    q1 = q * 11 // 10
    if q1 == q:
        q1 += 1
    return q1


def _ns(seconds: float) -> int:
    return int(round(seconds * _NS))


@attrs.define(eq=False)
class BucketRateLimiter:
    """Go: ``BucketRateLimiter`` — default_rate_limiters.go#L47-L50."""

    bucket: Bucket

    def when(self, item: Any) -> float:
        return self.bucket.take(1)

    def num_requeues(self, item: Any) -> int:
        return 0

    def forget(self, item: Any) -> None:
        pass


@attrs.define(eq=False)
class ItemExponentialFailureRateLimiter:
    """``base_delay * 2^failures``, capped at ``max_delay``.

    Go: ``ItemExponentialFailureRateLimiter`` — default_rate_limiters.go#L65-L73
    """

    failures: dict[Any, int]
    base_delay: float
    max_delay: float

    def when(self, item: Any) -> float:
        """Go: ``When`` — default_rate_limiters.go#L89-L108."""
        exp = self.failures.get(item, 0)
        self.failures[item] = self.failures.get(item, 0) + 1
        # The backoff is capped such that 'calculated' value never overflows.
        backoff = float(_ns(self.base_delay)) * math.pow(2, float(exp))
        if backoff > _MAX_INT64:
            return self.max_delay
        calculated = int(backoff) / _NS
        if calculated > self.max_delay:
            return self.max_delay
        return calculated

    def num_requeues(self, item: Any) -> int:
        """Go: ``NumRequeues`` — default_rate_limiters.go#L110-L115."""
        return self.failures.get(item, 0)

    def forget(self, item: Any) -> None:
        """Go: ``Forget`` — default_rate_limiters.go#L117-L122."""
        self.failures.pop(item, None)


def new_item_exponential_failure_rate_limiter(base_delay: float, max_delay: float) -> ItemExponentialFailureRateLimiter:
    """Go: ``NewItemExponentialFailureRateLimiter`` — default_rate_limiters.go#L77-L83."""
    return ItemExponentialFailureRateLimiter(failures={}, base_delay=base_delay, max_delay=max_delay)


def default_item_based_rate_limiter() -> ItemExponentialFailureRateLimiter:
    """Go: ``DefaultItemBasedRateLimiter`` — default_rate_limiters.go#L85-L87."""
    return new_item_exponential_failure_rate_limiter(0.001, 1000.0)


@attrs.define(eq=False)
class ItemFastSlowRateLimiter:
    """``fast_delay`` for the first attempts, then ``slow_delay``.

    Go: ``ItemFastSlowRateLimiter`` — default_rate_limiters.go#L124-L132
    """

    failures: dict[Any, int]
    fast_delay: float
    slow_delay: float
    max_fast_attempts: int

    def when(self, item: Any) -> float:
        """Go: ``(*ItemFastSlowRateLimiter).When`` — one more failure; the fast or the slow delay."""
        self.failures[item] = self.failures.get(item, 0) + 1
        if self.failures[item] <= self.max_fast_attempts:
            return self.fast_delay
        return self.slow_delay

    def num_requeues(self, item: Any) -> int:
        return self.failures.get(item, 0)

    def forget(self, item: Any) -> None:
        self.failures.pop(item, None)


def new_item_fast_slow_rate_limiter(fast_delay: float, slow_delay: float, max_fast_attempts: int) -> ItemFastSlowRateLimiter:
    """Go: ``NewItemFastSlowRateLimiter`` — default_rate_limiters.go#L136-L143."""
    return ItemFastSlowRateLimiter(failures={}, fast_delay=fast_delay, slow_delay=slow_delay,
                                   max_fast_attempts=max_fast_attempts)


@attrs.define(eq=False)
class MaxOfRateLimiter:
    """The worst answer of several limiters. Go: ``MaxOfRateLimiter`` — default_rate_limiters.go#L172-L177."""

    limiters: tuple[Any, ...]

    def when(self, item: Any) -> float:
        """Go: ``(*MaxOfRateLimiter).When`` — the longest delay any limiter asks for."""
        ret = 0.0
        for limiter in self.limiters:
            curr = limiter.when(item)
            if curr > ret:
                ret = curr
        return ret

    def num_requeues(self, item: Any) -> int:
        """Go: ``(*MaxOfRateLimiter).NumRequeues`` — the most requeues any limiter counted."""
        ret = 0
        for limiter in self.limiters:
            curr = limiter.num_requeues(item)
            if curr > ret:
                ret = curr
        return ret

    def forget(self, item: Any) -> None:
        for limiter in self.limiters:
            limiter.forget(item)


def new_max_of_rate_limiter(*limiters: Any) -> MaxOfRateLimiter:
    """Go: ``NewMaxOfRateLimiter`` — default_rate_limiters.go#L191-L193."""
    return MaxOfRateLimiter(limiters=limiters)


__all__ = ["Bucket", "BucketRateLimiter", "ItemExponentialFailureRateLimiter", "ItemFastSlowRateLimiter",
           "MaxOfRateLimiter", "RateLimiter", "default_controller_rate_limiter", "default_item_based_rate_limiter",
           "new_bucket_with_rate", "new_item_exponential_failure_rate_limiter", "new_item_fast_slow_rate_limiter",
           "new_max_of_rate_limiter"]
