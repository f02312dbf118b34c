"""NodeLabel priority: favour (or avoid) nodes that carry a given label (policy argument).

Go: plugin/pkg/scheduler/algorithm/priorities/node_label.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/node_label.go#L29-L60

Configured from a policy file's ``labelPreference`` argument (label + presence).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

import attrs

from kschedlearn.scheduler.algorithm.priorities.balanced_resource_allocation import NodeNotFoundError
from kschedlearn.scheduler.api.types import HostPriority
# Go's NodeInfo accessors are nil-safe: a node missing from nodeNameToInfo is a nil *NodeInfo, whose
# Node() is nil, Pods() empty, ... (node_info.go); ni.<accessor>(info) is that call, for None too.
from kschedlearn.scheduler.schedulercache import node_info as ni

if TYPE_CHECKING:
    from kschedlearn.api.v1 import Pod
    from kschedlearn.scheduler.algorithm.types import PriorityMapFunction, PriorityReduceFunction
    from kschedlearn.scheduler.schedulercache.node_info import NodeInfo


@attrs.frozen(kw_only=True)
class NodeLabelPrioritizer:
    """Remembers which label to look for and whether its presence is wanted.

    Go: type NodeLabelPrioritizer struct { label string; presence bool }
    """

    label: str
    presence: bool

    def calculate_node_label_priority_map(self, pod: "Optional[Pod]", meta: Any, node_info: "NodeInfo") -> HostPriority:
        """10 when the node's label presence is what the policy wants, else 0.

        The label's *value* is ignored; only whether the key exists matters.

        Go: func (n *NodeLabelPrioritizer) CalculateNodeLabelPriorityMap(pod *v1.Pod, meta interface{}, nodeInfo *schedulercache.NodeInfo) (schedulerapi.HostPriority, error)
        https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/node_label.go#L42-L60
        Differs from Go: raises ``NodeNotFoundError`` instead of returning an error.
        """
        node = ni.node(node_info)
        if node is None:
            raise NodeNotFoundError()

        exists = self.label in node.metadata.labels
        score = 0
        if (exists and self.presence) or (not exists and not self.presence):
            score = 10
        return HostPriority(host=node.metadata.name, score=score)


def new_node_label_priority(
    label: str, presence: bool
) -> "tuple[PriorityMapFunction, Optional[PriorityReduceFunction]]":
    """Build the map function (there is no reduce) for one ``labelPreference`` policy entry.

    Go: func NewNodeLabelPriority(label string, presence bool) (algorithm.PriorityMapFunction, algorithm.PriorityReduceFunction)
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/node_label.go#L34-L40
    """
    label_prioritizer = NodeLabelPrioritizer(label=label, presence=presence)
    return label_prioritizer.calculate_node_label_priority_map, None
