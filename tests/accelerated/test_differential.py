"""The accelerated engine gives exactly the mirror's outcomes, scores and trace (CI size).

kschedlearn-only. 500 generated scenarios (see ``differential.py``): every step's host or
error text and failed-predicate map, every ``schedule.*``/``selectHost`` trace event
(predicate verdicts per node, per-priority scores, weights, totals, round-robin index).
Full size: ``benchmarks/differential_full.py``.
"""

from __future__ import annotations

import pytest
from differential import run

CI_SCENARIOS = 500


@pytest.mark.parametrize("traced", [True, False], ids=["traced", "untraced"])
@pytest.mark.parametrize("chunk", range(10), ids=lambda c: f"seeds-{c * 50}-{c * 50 + 49}")
def test_accelerated_equals_mirrored(chunk: int, traced: bool) -> None:
    """Traced: every trace event too; untraced: the outcomes (the engine's shortcut path)."""
    scheduled = 0
    for seed in range(chunk * CI_SCENARIOS // 10, (chunk + 1) * CI_SCENARIOS // 10):
        mirrored, accelerated = run(seed, traced=traced)
        assert accelerated == mirrored, f"scenario seed {seed} differs ({'traced' if traced else 'untraced'})"
        scheduled += sum(1 for step in mirrored if isinstance(step[0], list) and step[0][0] == "host")
    assert scheduled > 0  # the scenarios do place pods (not only errors)
