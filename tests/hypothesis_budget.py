"""How many examples a property test tries: all of them in ``make test``, a fifth in ``make test-fast``.

``make test-fast`` is the inner loop (issue 25: "≤ 1 minute"): it sets ``KSCHEDLEARN_FAST_LOOP=1``
and every property test runs with a fifth of its examples (at least 20), the Go tables and unit
tests whole. ``make test`` (and CI) leaves the variable unset: every property runs the number of
examples its decorator names. Property tests with no count of their own take Hypothesis's
profile, which ``tests/conftest.py`` loads with the same budget.
"""

from __future__ import annotations

import os

FAST_LOOP = os.environ.get("KSCHEDLEARN_FAST_LOOP") == "1"

#: the fewest examples a property test tries in the fast loop
FAST_LOOP_FLOOR = 20


def examples(count: int) -> int:
    """``count`` in ``make test``; a fifth of it (at least :data:`FAST_LOOP_FLOOR`, at most
    ``count``) in ``make test-fast``."""
    if not FAST_LOOP:
        return count
    return min(count, max(FAST_LOOP_FLOOR, count // 5))
