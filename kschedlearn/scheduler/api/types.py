"""Types of the scheduler API: what a priority function hands back for one node.

Go: plugin/pkg/scheduler/api/types.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/api/types.go

Differs from Go: only ``HostPriority`` lives here so far; the Policy types of the same Go file
are added by the policy work in their own section below.
"""

from __future__ import annotations

import attrs

# --------------------------------------------------------------------------------------------
# Priorities: HostPriority / HostPriorityList
# --------------------------------------------------------------------------------------------


@attrs.frozen(kw_only=True)
class HostPriority:
    """The score one priority function gave one node (``host`` is the node name).

    Go: type HostPriority struct { Host string; Score int }
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/api/types.go#L160-L166
    Differs from Go: frozen; code that changes a score in place (the reduce functions) replaces
    the list element with ``attrs.evolve(hp, score=...)``.
    """

    host: str
    score: int


HostPriorityList = list[HostPriority]
"""Go: type HostPriorityList []HostPriority (a plain Python list of HostPriority)."""
