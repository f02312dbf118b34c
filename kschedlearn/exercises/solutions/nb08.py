"""Solutions for notebook 08: the pod backoff.

Go: plugin/pkg/scheduler/util/backoff_utils.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/util/backoff_utils.go
"""

from __future__ import annotations

from kschedlearn.scheduler.util.backoff_utils import BackoffEntry


def get_backoff(entry: BackoffEntry, max_duration: float) -> float:
    """Return how long to wait now, and double the entry's next wait (at most ``max_duration``).

    Go: (*backoffEntry).getBackoff, backoff_utils.go#L70-L79. The current wait is
    ``entry.backoff`` (seconds); store the doubled, capped value back in ``entry.backoff``.
    """
    duration = entry.backoff
    entry.backoff = min(duration * 2, max_duration)
    return duration
