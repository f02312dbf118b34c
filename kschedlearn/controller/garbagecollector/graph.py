"""The collector's graph: one node per object, linked to its owners and dependents.

Go: pkg/controller/garbagecollector/graph.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/controller/garbagecollector/graph.go

Differs from Go: no locks (the goroutines of a simulation never run at the same time); a
node's ``dependents`` set is an insertion-ordered dict (Go's map iterates in random order).
"""

from __future__ import annotations

import attrs

from kschedlearn.api.v1 import OwnerReference
from kschedlearn.trace.gofmt import sprintf


@attrs.frozen
class ObjectReference:
    """An owner reference plus the namespace: what identifies a node.

    Go: ``objectReference`` — graph.go#L27-L31 (``String`` #L33-L35)
    """

    owner_reference: OwnerReference
    namespace: str = ""

    @property
    def api_version(self) -> str:
        return self.owner_reference.api_version

    @property
    def kind(self) -> str:
        return self.owner_reference.kind

    @property
    def name(self) -> str:
        return self.owner_reference.name

    @property
    def uid(self) -> str:
        return self.owner_reference.uid

    def __str__(self) -> str:
        return sprintf("[%s/%s, namespace: %s, name: %s, uid: %s]", self.api_version, self.kind, self.namespace,
                       self.name, self.uid)


@attrs.define(eq=False)
class Node:
    """Go: ``node`` — graph.go#L37-L59."""

    identity: ObjectReference
    dependents: dict[Node, None] = attrs.field(factory=dict)
    #: the object is being deleted and waits for its dependents (foregroundDeletion)
    deleting_dependents: bool = False
    being_deleted: bool = False
    owners: tuple[OwnerReference, ...] = ()

    def mark_being_deleted(self) -> None:
        """Go: ``(*node).markBeingDeleted`` — graph.go#L61-L67."""
        self.being_deleted = True

    def is_being_deleted(self) -> bool:
        """Go: ``(*node).isBeingDeleted`` — graph.go#L69-L73."""
        return self.being_deleted

    def mark_deleting_dependents(self) -> None:
        """Go: ``(*node).markDeletingDependents`` — graph.go#L75-L79."""
        self.deleting_dependents = True

    def is_deleting_dependents(self) -> bool:
        """Go: ``(*node).isDeletingDependents`` — graph.go#L81-L85."""
        return self.deleting_dependents

    def add_dependent(self, dependent: Node) -> None:
        """Go: ``(*node).addDependent`` — graph.go#L87-L91."""
        self.dependents[dependent] = None

    def delete_dependent(self, dependent: Node) -> None:
        """Go: ``(*node).deleteDependent`` — graph.go#L93-L97."""
        self.dependents.pop(dependent, None)

    def dependents_length(self) -> int:
        """Go: ``(*node).dependentsLength`` — graph.go#L99-L103."""
        return len(self.dependents)

    def get_dependents(self) -> list[Node]:
        """Go: ``(*node).getDependents`` — graph.go#L105-L116."""
        return list(self.dependents)

    def blocking_dependents(self) -> list[Node]:
        """The dependents whose reference to this node has ``blockOwnerDeletion: true``.

        Go: ``(*node).blockingDependents`` — graph.go#L118-L135
        """
        ret = []
        for dep in self.get_dependents():
            for owner in dep.owners:
                if owner.uid == self.identity.uid and owner.block_owner_deletion:
                    ret.append(dep)
        return ret

    def __repr__(self) -> str:
        return f"Node({self.identity})"


@attrs.define(eq=False)
class ConcurrentUIDToNode:
    """Go: ``concurrentUIDToNode`` — graph.go#L137-L140."""

    uid_to_node: dict[str, Node] = attrs.field(factory=dict)

    def write(self, node: Node) -> None:
        """Go: ``Write`` — graph.go#L142-L146."""
        self.uid_to_node[node.identity.uid] = node

    def read(self, uid: str) -> tuple[Node | None, bool]:
        """Go: ``Read`` — graph.go#L148-L153."""
        n = self.uid_to_node.get(uid)
        return n, n is not None

    def delete(self, uid: str) -> None:
        """Go: ``Delete`` — graph.go#L155-L159."""
        self.uid_to_node.pop(uid, None)


__all__ = ["ConcurrentUIDToNode", "Node", "ObjectReference"]
