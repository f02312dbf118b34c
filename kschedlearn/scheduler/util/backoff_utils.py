"""Per-pod retry backoff: 1 s, 2 s, 4 s … up to 60 s, one retry in flight per pod.

Go: plugin/pkg/scheduler/util/backoff_utils.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/util/backoff_utils.go#L28-L135

Differs from Go: the ``realClock`` reads the simulation's virtual clock; ``try_wait`` sleeps on
it. Go's atomic compare-and-swap on ``reqInFlight`` is a plain check-and-set here (goroutines
never interleave between the check and the set on the cooperative runtime).
"""

from __future__ import annotations

from typing import Protocol

import attrs

from kschedlearn import sim
from kschedlearn.trace import glog


class Clock(Protocol):
    """Go: util.clock — the one method the backoff needs."""

    def now(self) -> float: ...


@attrs.define(eq=False)
class RealClock:
    """Go: util.realClock — here the current goroutine's virtual clock."""

    def now(self) -> float:
        return sim.now()


@attrs.define(eq=False)
class BackoffEntry:
    """Go: util.backoffEntry — the current delay, when it was last touched, one-in-flight flag."""

    backoff: float
    last_update: float
    req_in_flight: int = 0

    def _try_lock(self) -> bool:
        """Go: backoffEntry.tryLock (atomic CompareAndSwapInt32 0 → 1)."""
        if self.req_in_flight == 0:
            self.req_in_flight = 1
            return True
        return False

    def _unlock(self) -> None:
        """Go: backoffEntry.unlock — a second unlock is a logic error and panics."""
        if self.req_in_flight != 1:
            raise RuntimeError(f"unexpected state on unlocking: {self!r}")
        self.req_in_flight = 0

    def try_wait(self, max_duration: float) -> bool:
        """Sleep this pod's current backoff unless another retry is already sleeping.

        Go: backoffEntry.TryWait — returns False (and logs) when a request is in flight.
        """
        if not self._try_lock():
            return False
        try:
            sim.sleep(self._get_backoff(max_duration))
        finally:
            self._unlock()
        return True

    def _get_backoff(self, max_duration: float) -> float:
        """Return the current delay and double the stored one (capped at ``max_duration``).

        Go: backoffEntry.getBackoff
        https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/util/backoff_utils.go#L70-L79
        """
        duration = self.backoff
        new_duration = duration * 2
        if new_duration > max_duration:
            new_duration = max_duration
        self.backoff = new_duration
        glog.v(4).infof("Backing off %s", f"{duration:g}s")
        return duration


@attrs.define(eq=False, slots=False)
class PodBackoff:
    """Go: util.PodBackoff — one entry per pod key."""

    per_pod_backoff: dict[str, BackoffEntry] = attrs.field(factory=dict)
    lock: sim.Mutex = attrs.field(factory=lambda: sim.Mutex("PodBackoff"))
    clock: Clock = attrs.field(factory=RealClock)
    default_duration: float = 1.0
    max_duration: float = 60.0

    def max_duration_(self) -> float:
        """Go: PodBackoff.MaxDuration()."""
        return self.max_duration

    def get_entry(self, pod_id: str) -> BackoffEntry:
        """Get or create the entry of ``pod_id`` and stamp it with now.

        Go: PodBackoff.GetEntry
        """
        with self.lock:
            entry = self.per_pod_backoff.get(pod_id)
            if entry is None:
                entry = BackoffEntry(backoff=self.default_duration, last_update=self.clock.now())
                self.per_pod_backoff[pod_id] = entry
            entry.last_update = self.clock.now()
            return entry

    def gc(self) -> None:
        """Forget entries untouched for longer than ``max_duration`` (their delay restarts at 1 s).

        Go: PodBackoff.Gc
        """
        with self.lock:
            now = self.clock.now()
            for pod_id in list(self.per_pod_backoff):
                if now - self.per_pod_backoff[pod_id].last_update > self.max_duration:
                    del self.per_pod_backoff[pod_id]


def create_pod_backoff(default_duration: float, max_duration: float) -> PodBackoff:
    """Go: util.CreatePodBackoff"""
    return create_pod_backoff_with_clock(default_duration, max_duration, RealClock())


def create_pod_backoff_with_clock(default_duration: float, max_duration: float, clock: Clock) -> PodBackoff:
    """Go: util.CreatePodBackoffWithClock"""
    return PodBackoff(clock=clock, default_duration=default_duration, max_duration=max_duration)


def create_default_pod_backoff() -> PodBackoff:
    """Go: util.CreateDefaultPodBackoff — 1 s initial, 60 s maximum."""
    return create_pod_backoff(1.0, 60.0)
