"""Build a fresh node-name -> NodeInfo map from lists of pods and nodes.

Go: plugin/pkg/scheduler/schedulercache/util.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/util.go#L21-L39

In 1.6 only tests call this; the running scheduler keeps its map up to date incrementally with
``SchedulerCache.update_node_name_to_info_map``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from kschedlearn.scheduler.schedulercache.node_info import NodeInfo, new_node_info

if TYPE_CHECKING:
    from kschedlearn.api.v1 import Node, Pod


def create_node_name_to_info_map(pods: Iterable[Pod], nodes: Iterable[Node]) -> dict[str, NodeInfo]:
    """Group pods by ``spec.node_name``, then attach each node object.

    Go: func CreateNodeNameToInfoMap(pods []*v1.Pod, nodes []*v1.Node) map[string]*NodeInfo
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/util.go#L21-L39
    """
    node_name_to_info: dict[str, NodeInfo] = {}
    for pod in pods:
        node_name = pod.spec.node_name
        if node_name not in node_name_to_info:
            node_name_to_info[node_name] = new_node_info()
        node_name_to_info[node_name].add_pod(pod)
    for node in nodes:
        if node.metadata.name not in node_name_to_info:
            node_name_to_info[node.metadata.name] = new_node_info()
        node_name_to_info[node.metadata.name].set_node(node)
    return node_name_to_info
