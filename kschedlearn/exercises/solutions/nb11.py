"""Solutions for notebook 11: 1.6's quirks - find the bug.

Go: (*SelectorSpread).CalculateSpreadPriority
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/selector_spreading.go#L96-L192
(its zone score, line 177, fixed upstream by PR #55172)
"""

from __future__ import annotations


def the_bug() -> tuple[str, str, str]:
    """Name the function with the bug, the line as it is, and the line as it should be.

    Go: the scenario quirk-selector-spread-nan. Return ``(function, buggy line, fixed line)``:
    the Python function of ``kschedlearn.scheduler.algorithm.priorities.selector_spreading``
    (``SelectorSpread.calculate_spread_priority`` or one of the module's helpers), one line of its
    source exactly as written (leading spaces do not matter), and the line to put in its place.
    Read the function with ``inspect.getsource``; a good fix changes only the case the scenario
    shows and nothing else.
    """
    return ("_zone_share", "return math.nan", "return 1.0")
