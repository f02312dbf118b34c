"""A PodBackoff's view: the empty table answered at once equals the entries' walk.

kschedlearn-only (issue 25, teach5): ``views.backoff_state`` is asked at every snapshot, and the
backoff nearly always has no entry; the early answer is checked against the walk it skips, and a
table with entries (the step-aside case) still walks them, sorted by key.
"""

from __future__ import annotations

from kschedlearn.observe.views import backoff_state
from kschedlearn.scheduler.util.backoff_utils import BackoffEntry, create_default_pod_backoff


def _walk(backoff: object) -> tuple[tuple[str, float, float, bool], ...]:
    """The entries' walk (what ``backoff_state`` does with entries)."""
    table = backoff.per_pod_backoff  # type: ignore[attr-defined]
    return tuple((k, e.backoff, e.last_update, e.req_in_flight == 1) for k, e in sorted(table.items()))


def test_empty_backoff_is_the_empty_walk() -> None:
    backoff = create_default_pod_backoff()
    assert backoff_state(backoff) == _walk(backoff) == ()


def test_entries_are_walked_by_key() -> None:
    backoff = create_default_pod_backoff()
    backoff.per_pod_backoff["ns/b"] = BackoffEntry(backoff=2.0, last_update=5.0)
    backoff.per_pod_backoff["ns/a"] = BackoffEntry(backoff=1.0, last_update=3.0)
    backoff.per_pod_backoff["ns/a"].req_in_flight = 1
    assert backoff_state(backoff) == _walk(backoff) == (("ns/a", 1.0, 3.0, True), ("ns/b", 2.0, 5.0, False))
    backoff.per_pod_backoff.clear()
    assert backoff_state(backoff) == ()
