"""The scheduler cache's interface and the life cycle of a pod inside it.

Go: plugin/pkg/scheduler/schedulercache/interface.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/interface.go#L24-L96

Why a cache at all: binding a pod is an API call that takes time, and the confirmation comes back
later on the assigned-pod watch. If the scheduler waited for it, it could place one pod per round
trip. Instead it *assumes* the pod onto the chosen node at once (so the next pod already sees the
node's resources as taken), binds in the background, and lets the watch *confirm* it later.

Pod states (only Assumed and Added are stored; Initial, Expired and Deleted mean "not cached")::

    Initial --assume_pod--> Assumed --add_pod--> Added --remove_pod--> Deleted
       ^                     |    |                ^  |
       +-----forget_pod------+    |                |  +--update_pod--+
                                  | (expire:       |  ^              |
                                  |  TTL after     |  +--------------+
                                  |  finish_binding)
                                  v                |
                               Expired ---add_pod--+
    Initial ---add_pod---> Added        (a pod placed by someone else)

The source states three assumptions: no pod is assumed twice; a pod may be Added without ever
being Assumed (another scheduler placed it); a pod that was never Added is never Updated or
Removed. Breaking them gives errors -- and, in 1.6, sometimes a crash (see ``cache.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from kschedlearn.api.v1 import Node, Pod
    from kschedlearn.apimachinery.labels import Selector
    from kschedlearn.scheduler.schedulercache.node_info import NodeInfo


class Cache(Protocol):
    """What the scheduler (and the informer handlers) may ask of the cache.

    Go: type Cache interface (interface.go)
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/interface.go#L24-L96
    Differs from Go: methods raise ``CacheError`` instead of returning ``error``.
    """

    def assume_pod(self, pod: Pod) -> None:
        """Place ``pod`` on ``pod.spec.node_name`` before the binding is confirmed."""

    def finish_binding(self, pod: Pod) -> None:
        """The bind call returned: from now on the assumed pod may expire after the TTL."""

    def forget_pod(self, pod: Pod) -> None:
        """Undo an assumption (the bind failed)."""

    def add_pod(self, pod: Pod) -> None:
        """Confirm an assumed pod, or add back one that expired or was placed by others."""

    def update_pod(self, old_pod: Pod, new_pod: Pod) -> None:
        """Replace an added pod's object (its requests may have changed)."""

    def remove_pod(self, pod: Pod) -> None:
        """Drop an added pod (deleted, or finished)."""

    def add_node(self, node: Node) -> None:
        """Record a node object."""

    def update_node(self, old_node: Node, new_node: Node) -> None:
        """Replace a node object."""

    def remove_node(self, node: Node) -> None:
        """Forget a node object (its NodeInfo stays while pods remain)."""

    def update_node_name_to_info_map(self, node_name_to_info: dict[str, NodeInfo]) -> None:
        """Refresh the caller's snapshot, cloning only NodeInfos whose generation changed."""

    def list(self, selector: Selector) -> list[Pod]:  # noqa: A003 - Go's method name
        """All cached pods (assumed included) whose labels match ``selector``."""
