"""Port of plugin/pkg/scheduler/util/backoff_utils_test.go at v1.6.1.

Go: https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/util/backoff_utils_test.go

Differs from Go: the pod id is the ``namespace/name`` key the factory passes (Go: a
``types.NamespacedName``); the fake clock counts seconds from 0 (Go: a zero ``time.Time``).
The table's rows share one backoff and one clock, as in Go, so they run in order in one test.
"""

from __future__ import annotations

import attrs

from kschedlearn.scheduler.util.backoff_utils import create_pod_backoff_with_clock


@attrs.define(eq=False)
class FakeClock:
    """Go: the test's ``fakeClock`` — ``Now`` returns whatever the test last set."""

    t: float = 0.0

    def now(self) -> float:
        return self.t


# (pod id, expected duration, clock advance after the row) — Go's table, in order.
_ROWS = [
    ("default/foo", 1.0, 0.0),
    ("default/foo", 2.0, 0.0),
    ("default/foo", 4.0, 0.0),
    ("default/bar", 1.0, 120.0),
    ("default/foo", 1.0, 0.0),  # 'foo' was garbage-collected by the 120 s advance
]


def test_backoff() -> None:
    clock = FakeClock()
    backoff = create_pod_backoff_with_clock(1.0, 60.0, clock)
    got = []
    for pod_id, _expected, advance in _ROWS:
        got.append((pod_id, backoff.get_entry(pod_id)._get_backoff(backoff.max_duration)))
        clock.t += advance
        backoff.gc()
    assert got == [(pod_id, expected) for pod_id, expected, _ in _ROWS]

    backoff.per_pod_backoff["default/foo"].backoff = 60.0
    assert backoff.get_entry("default/foo")._get_backoff(backoff.max_duration) == 60.0
    # same name, other namespace: a separate entry
    assert backoff.get_entry("other/foo")._get_backoff(backoff.max_duration) == 1.0


def test_backoff_caps_at_max_duration() -> None:
    """kschedlearn-only: the doubling stops at the maximum (1, 2, 4 ... 32, 60, 60)."""
    backoff = create_pod_backoff_with_clock(1.0, 60.0, FakeClock())
    entry = backoff.get_entry("default/foo")
    assert [entry._get_backoff(backoff.max_duration) for _ in range(9)] == [1, 2, 4, 8, 16, 32, 60, 60, 60]
