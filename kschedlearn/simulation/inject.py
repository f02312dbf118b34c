"""``sim.inject.*``: change the running scenario by hand — each call forks the history.

Go: none — kschedlearn-only. Every method builds a timeline :class:`Action` and hands it to the
simulation, which applies it at the cursor (replaying the world up to there first if the cursor
is in the past; the old future is discarded, as in RaftScope).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from kschedlearn.api.v1 import Node, Pod
from kschedlearn.scenarios.scenario import Action
from kschedlearn.trace import TraceEvent

if TYPE_CHECKING:
    from kschedlearn.simulation.simulation import Simulation

ASSUME_TTL = 30.0


@attrs.define(eq=False)
class Injector:
    """The ``inject`` attribute of a :class:`~kschedlearn.Simulation`."""

    sim: Simulation

    def _do(self, kind: str, arg: Any) -> TraceEvent | None:
        return self.sim._inject(Action(at=self.sim.time, kind=kind, arg=arg))

    def fail_next_bind(self, n: int = 1, *, conflict: bool = False) -> TraceEvent | None:
        """The next ``n`` bindings are refused by the API server (500, or 409 with ``conflict``)."""
        return self._do("fault", {"fail_next": {"verb": "bind", "resource": "pods", "n": n,
                                                "error": "conflict" if conflict else "internal"}})

    def add_node(self, node: Node | dict[str, Any] | str, *, cpu: str = "4", memory: str = "8Gi",
                 pods: str = "110") -> TraceEvent | None:
        """Add a node: a Node, a manifest dict, or just a name (Ready, with the given capacity)."""
        if isinstance(node, str):
            node = Node.from_dict({
                "metadata": {"name": node, "labels": {"kubernetes.io/hostname": node}},
                "status": {"capacity": {"cpu": cpu, "memory": memory, "pods": pods},
                           "allocatable": {"cpu": cpu, "memory": memory, "pods": pods},
                           "conditions": [{"type": "Ready", "status": "True"}]},
            })
        elif isinstance(node, dict):
            node = Node.from_dict(node)
        elif not isinstance(node, Node):
            # checked before anything is forked, so a bad argument never costs the history
            raise TypeError(f"inject.add_node: expected a Node, a manifest dict or a name, got {type(node).__name__}")
        return self._do("create", node)

    def add_pod(self, pod: Pod | dict[str, Any]) -> TraceEvent | None:
        """Create a pod (a Pod or a manifest dict)."""
        if not isinstance(pod, (Pod, dict)):
            raise TypeError(f"inject.add_pod: expected a Pod or a manifest dict, got {type(pod).__name__}")
        return self._do("create", pod if isinstance(pod, Pod) else Pod.from_dict(pod))

    def remove_node(self, name: str) -> TraceEvent | None:
        return self._do("delete", f"node {name}")

    def cordon(self, name: str) -> TraceEvent | None:
        """Mark a node unschedulable (``kubectl cordon``)."""
        return self._do("cordon", name)

    def uncordon(self, name: str) -> TraceEvent | None:
        return self._do("uncordon", name)

    def delete_pod(self, key: str) -> TraceEvent | None:
        """Delete a pod by ``namespace/name`` (graceful if it is bound)."""
        return self._do("delete", f"pod {key}")

    def drop_watch(self, resource: str | None = "pods") -> TraceEvent | None:
        """Close the API server's watches (on ``resource``): reflectors re-watch or relist."""
        return self._do("fault", {"close_watches": {"resource": resource}})

    def stall_watch(self, seconds: float, resource: str | None = "pods") -> TraceEvent | None:
        """Hold back watch events for ``seconds`` (then deliver them in order)."""
        return self._do("fault", {"stall_watches": {"duration": seconds, "resource": resource}})

    def expire_watch_window(self, resource: str | None = "pods") -> TraceEvent | None:
        """Forget the watch history: reconnecting watches get "too old resource version"."""
        return self._do("fault", {"expire_watch_window": {"n": 0, "resource": resource}})

    def kill_scheduler(self, name: str) -> TraceEvent | None:
        """Kill one kube-scheduler replica's process (as ``kill -9``)."""
        if name not in self.sim.world.replicas:
            raise KeyError(f"no scheduler replica {name!r}; have {', '.join(self.sim.world.replicas)}")
        return self._do("kill", name)

    def jump_clock(self, seconds: float = ASSUME_TTL + 1.0) -> TraceEvent | None:
        """Move the virtual clock forward at once (default: past the 30 s assume TTL)."""
        return self._do("clock", seconds)
