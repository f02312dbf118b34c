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
from kschedlearn.scenarios.validate import suggest
from kschedlearn.simulation import arguments as args
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
        args.whole_number("inject.fail_next_bind", "n", n, low=1)
        args.flag("inject.fail_next_bind", "conflict", conflict)
        return self._do("fault", {"fail_next": {"verb": "bind", "resource": "pods", "n": n,
                                                "error": "conflict" if conflict else "internal"}})

    def add_node(self, node: Node | dict[str, Any] | str, *, cpu: str = "4", memory: str = "8Gi",
                 pods: str = "110") -> TraceEvent | None:
        """Add a node: a Node, a manifest dict, or just a name (Ready, with the given capacity)."""
        if isinstance(node, str):
            if node in self.sim.known_nodes():
                raise args.SimulationError(f"inject.add_node: node {node!r} already exists")
            for param, value in (("cpu", cpu), ("memory", memory), ("pods", pods)):
                _quantity(param, value)
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
        self._check_new("add_node", "Node", node.metadata.name, node.metadata.name, self.sim.known_nodes())
        return self._do("create", node)

    def add_pod(self, pod: Pod | dict[str, Any]) -> TraceEvent | None:
        """Create a pod (a Pod or a manifest dict)."""
        if not isinstance(pod, (Pod, dict)):
            raise TypeError(f"inject.add_pod: expected a Pod or a manifest dict, got {type(pod).__name__}")
        obj = pod if isinstance(pod, Pod) else Pod.from_dict(pod)
        self._check_new("add_pod", "Pod", obj.metadata.name, f"{obj.metadata.namespace or 'default'}/{obj.metadata.name}",
                        self.sim.known_pods())
        return self._do("create", obj)

    def _check_new(self, call: str, kind: str, name: str, key: str, known: set[str]) -> None:
        """Checked before anything forks: the API server would refuse these (Go's validation)."""
        if not args.DNS_NAME.match(name or ""):
            raise args.SimulationError(
                f"inject.{call}: {kind} {name!r}: metadata.name: a DNS-1123 subdomain must consist of lower "
                "case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character")
        if self.sim.cursor >= len(self.sim.trace) - 1 and key in known and self._stored(kind, key):
            raise args.SimulationError(f"inject.{call}: {kind} {key!r} already exists")

    def _stored(self, kind: str, key: str) -> bool:
        if kind == "Node":
            return self.sim.world.api.storage.get("nodes", ("", key)) is not None
        ns, _, name = key.partition("/")
        return self.sim.world.api.storage.get("pods", (ns, name)) is not None

    def remove_node(self, name: str) -> TraceEvent | None:
        return self._do("delete", f"node {args.node_name('inject.remove_node', name, self.sim.known_nodes())}")

    def cordon(self, name: str) -> TraceEvent | None:
        """Mark a node unschedulable (``kubectl cordon``)."""
        return self._do("cordon", args.node_name("inject.cordon", name, self.sim.known_nodes()))

    def uncordon(self, name: str) -> TraceEvent | None:
        return self._do("uncordon", args.node_name("inject.uncordon", name, self.sim.known_nodes()))

    def delete_pod(self, key: str) -> TraceEvent | None:
        """Delete a pod by ``namespace/name`` (graceful if it is bound)."""
        return self._do("delete", f"pod {args.pod_key('inject.delete_pod', key, self.sim.known_pods())}")

    def drop_watch(self, resource: str | None = "pods") -> TraceEvent | None:
        """Close the API server's watches (on ``resource``): reflectors re-watch or relist."""
        return self._do("fault", {"close_watches": {"resource": _resource("inject.drop_watch", resource)}})

    def stall_watch(self, seconds: float, resource: str | None = "pods") -> TraceEvent | None:
        """Hold back watch events for ``seconds`` (then deliver them in order)."""
        duration = args.seconds("inject.stall_watch", "seconds", seconds)
        return self._do("fault", {"stall_watches": {"duration": duration,
                                                    "resource": _resource("inject.stall_watch", resource)}})

    def expire_watch_window(self, resource: str | None = "pods") -> TraceEvent | None:
        """Forget the watch history: reconnecting watches get "too old resource version"."""
        return self._do("fault", {"expire_watch_window": {
            "n": 0, "resource": _resource("inject.expire_watch_window", resource)}})

    def kill_scheduler(self, name: str) -> TraceEvent | None:
        """Kill one kube-scheduler replica's process (as ``kill -9``)."""
        replicas = list(self.sim.world.replicas)
        if not isinstance(name, str) or name not in replicas:
            raise KeyError(f"inject.kill_scheduler: no scheduler replica {name!r}" + suggest(str(name), replicas))
        return self._do("kill", name)

    def jump_clock(self, seconds: float = ASSUME_TTL + 1.0) -> TraceEvent | None:
        """Move the virtual clock forward at once (default: past the 30 s assume TTL)."""
        return self._do("clock", args.seconds("inject.jump_clock", "seconds", seconds))


#: resources whose watches the fault hooks can act on (None: all of them)
WATCHED = ("pods", "nodes", "services", "replicationcontrollers", "replicasets", "statefulsets",
           "persistentvolumes", "persistentvolumeclaims", "endpoints", "events")


def _resource(call: str, value: str | None) -> str | None:
    if value is None:
        return None
    return args.one_of(call, "resource", value, WATCHED)


def _quantity(param: str, value: object) -> None:
    from kschedlearn.api.resource import QuantityError, parse_quantity

    try:
        parse_quantity(value)  # type: ignore[arg-type]
    except QuantityError as err:
        raise args.SimulationError(f"inject.add_node: {param}: {err}") from None
