"""The GraphBuilder: informers on every deletable resource keep the owner/dependent graph.

Go: pkg/controller/garbagecollector/graph_builder.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/controller/garbagecollector/graph_builder.go

One monitor (an informer without resync) per resource puts every add, update and delete on
``graph_changes``; one goroutine (``process_graph_changes``) applies them to the graph and
hands the collector work: a node whose owner vanished goes to ``attempt_to_delete``, an owner
being deleted with the ``orphan`` finalizer to ``attempt_to_orphan``.

Differs from Go: the monitors are informers over the simulation's typed clients (Go lists and
watches metadata-only objects through a dynamic client pool and a REST mapper); each event
carries the apiVersion and kind of its monitor (Go's ``setObjectTypeMeta``). Sets and maps
iterate in insertion order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from kschedlearn.api.v1 import ObjectMeta, OwnerReference
from kschedlearn.apimachinery.util import wait
from kschedlearn.apimachinery.util.runtime import handle_error
from kschedlearn.apiserver.clientset import ResourceClient
from kschedlearn.client_go.tools.cache.controller import ResourceEventHandlerFuncs, new_informer
from kschedlearn.client_go.tools.cache.delta_fifo import DeletedFinalStateUnknown
from kschedlearn.client_go.tools.cache.listwatch import ListOptions, ListWatch, call_list, call_watch
from kschedlearn.client_go.util.workqueue.rate_limitting_queue import RateLimitingType
from kschedlearn.apiserver.finalizers import (
    FINALIZER_DELETE_DEPENDENTS,
    FINALIZER_ORPHAN_DEPENDENTS,
)
from kschedlearn.controller.garbagecollector.graph import ConcurrentUIDToNode, Node, ObjectReference
from kschedlearn.controller.garbagecollector.uid_cache import UIDCache
from kschedlearn import sim
from kschedlearn.trace import glog

ADD_EVENT, UPDATE_EVENT, DELETE_EVENT = 0, 1, 2
"""Go: ``eventType`` — graph_builder.go#L39."""

RESOURCE_RESYNC_TIME = 0.0
"""Go: ``ResourceResyncTime`` —
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/controller/garbagecollector/garbagecollector.go#L44"""

#: Go: ``ignoredResources`` — graph_builder.go#L197-L206 (the ones the simulation serves)
IGNORED_RESOURCES = frozenset({("", "v1", "bindings"), ("", "v1", "events")})


@attrs.frozen(eq=False)
class Event:
    """Go: ``event`` — graph_builder.go#L47-L52 (plus the monitor's apiVersion and kind).

    Compared by identity, as Go's ``*event`` pointers on the work queue are."""

    event_type: int
    obj: Any
    old_obj: Any = None
    api_version: str = ""
    kind: str = ""


@attrs.frozen
class MetadataOnlyObject:
    """Go: ``metaonly.MetadataOnlyObject`` — what a virtual delete event carries."""

    metadata: ObjectMeta
    api_version: str = ""
    kind: str = ""


@attrs.frozen
class OwnerRefPair:
    """Go: ``ownerRefPair`` — graph_builder.go#L265-L268."""

    old_ref: OwnerReference
    new_ref: OwnerReference


@attrs.frozen
class DeletableResource:
    """One monitored resource: its name and the apiVersion/kind its objects have.

    Go: an entry of ``deletableResources`` (a ``schema.GroupVersionResource``) with the kind the
    REST mapper gives it."""

    resource: str
    api_version: str
    kind: str


@attrs.define(eq=False)
class GraphBuilder:
    """Go: ``GraphBuilder`` — graph_builder.go#L54-L80."""

    client: Any
    graph_changes: RateLimitingType
    uid_to_node: ConcurrentUIDToNode
    attempt_to_delete: RateLimitingType
    attempt_to_orphan: RateLimitingType
    absent_owner_cache: UIDCache
    monitors: list[Any] = attrs.field(factory=list)

    def controller_for(self, resource: DeletableResource) -> Any:
        """An informer on ``resource`` whose handlers enqueue graph changes.

        Go: ``(*GraphBuilder).controllerFor`` — graph_builder.go#L107-L158
        """
        glog.v(5).infof("create storage for resource %s", resource.resource)
        rc = ResourceClient(self.client.server, resource.resource, "", self.client.rate_limiter)

        def list_func(options: ListOptions) -> Any:
            return call_list(rc, options)

        def watch_func(options: ListOptions) -> Any:
            return call_watch(rc, options)

        def add_func(obj: Any) -> None:
            self.graph_changes.add(Event(ADD_EVENT, obj, None, resource.api_version, resource.kind))

        def update_func(old_obj: Any, new_obj: Any) -> None:
            self.graph_changes.add(Event(UPDATE_EVENT, new_obj, old_obj, resource.api_version, resource.kind))

        def delete_func(obj: Any) -> None:
            if isinstance(obj, DeletedFinalStateUnknown):
                obj = obj.obj
            self.graph_changes.add(Event(DELETE_EVENT, obj, None, resource.api_version, resource.kind))

        _, monitor = new_informer(ListWatch(list_func, watch_func), None, RESOURCE_RESYNC_TIME,
                                  ResourceEventHandlerFuncs(add_func, update_func, delete_func),
                                  name=f"garbagecollector {resource.resource}")
        return monitor

    def monitors_for_resources(self, resources: Sequence[DeletableResource]) -> None:
        """Go: ``(*GraphBuilder).monitorsForResources`` — graph_builder.go#L160-L179."""
        for resource in resources:
            group, _, version = resource.api_version.rpartition("/")
            if (group, version, resource.resource) in IGNORED_RESOURCES:
                glog.v(5).infof("ignore resource %s", resource.resource)
                continue
            self.monitors.append(self.controller_for(resource))

    def has_synced(self) -> bool:
        """Go: ``(*GraphBuilder).HasSynced`` — graph_builder.go#L181-L188."""
        return all(monitor.has_synced() for monitor in self.monitors)

    def run(self, stop_ch: sim.Chan) -> None:
        """Go: ``(*GraphBuilder).Run`` — graph_builder.go#L190-L195."""
        for monitor in self.monitors:
            sim.go(monitor.run, stop_ch, name="garbagecollector monitor")
        sim.go(wait.until, self.run_process_graph_changes, 1.0, stop_ch, name="garbagecollector graph changes")

    def enqueue_changes(self, e: Event) -> None:
        """Go: ``(*GraphBuilder).enqueueChanges`` — graph_builder.go#L208-L210."""
        self.graph_changes.add(e)

    def add_dependent_to_owners(self, n: Node, owners: Sequence[OwnerReference]) -> None:
        """Link ``n`` to each owner, making a *virtual* node for an owner not seen yet (and
        asking the collector to check it exists). Go: graph_builder.go#L212-L238."""
        for owner in owners:
            owner_node, ok = self.uid_to_node.read(owner.uid)
            if not ok:
                owner_node = Node(identity=ObjectReference(owner, n.identity.namespace))
                glog.v(5).infof("add virtual node.identity: %s\n\n", owner_node.identity)
                self.uid_to_node.write(owner_node)
                self.attempt_to_delete.add(owner_node)
            owner_node.add_dependent(n)

    def insert_node(self, n: Node) -> None:
        """Go: ``(*GraphBuilder).insertNode`` — graph_builder.go#L240-L245."""
        self.uid_to_node.write(n)
        self.add_dependent_to_owners(n, n.owners)

    def remove_dependent_from_owners(self, n: Node, owners: Sequence[OwnerReference]) -> None:
        """Go: ``(*GraphBuilder).removeDependentFromOwners`` — graph_builder.go#L247-L256."""
        for owner in owners:
            owner_node, ok = self.uid_to_node.read(owner.uid)
            if not ok:
                continue
            owner_node.delete_dependent(n)

    def remove_node(self, n: Node) -> None:
        """Go: ``(*GraphBuilder).removeNode`` — graph_builder.go#L258-L263."""
        self.uid_to_node.delete(n.identity.uid)
        self.remove_dependent_from_owners(n, n.owners)

    def add_unblocked_owners_to_delete_queue(self, removed: Sequence[OwnerReference],
                                             changed: Sequence[OwnerRefPair]) -> None:
        """An owner waiting for its blocking dependents is looked at again when one stops
        blocking it. Go: ``addUnblockedOwnersToDeleteQueue`` — graph_builder.go#L357-L382."""
        for ref in removed:
            if ref.block_owner_deletion:
                node, found = self.uid_to_node.read(ref.uid)
                if not found:
                    glog.v(5).infof("cannot find %s in uidToNode", ref.uid)
                    continue
                self.attempt_to_delete.add(node)
        for c in changed:
            was_blocked = bool(c.old_ref.block_owner_deletion)
            is_unblocked = not c.new_ref.block_owner_deletion
            if was_blocked and is_unblocked:
                node, found = self.uid_to_node.read(c.new_ref.uid)
                if not found:
                    glog.v(5).infof("cannot find %s in uidToNode", c.new_ref.uid)
                    continue
                self.attempt_to_delete.add(node)

    def process_transitions(self, old_obj: Any, new_meta: ObjectMeta, n: Node) -> None:
        """Go: ``(*GraphBuilder).processTransitions`` — graph_builder.go#L384-L399."""
        if starts_waiting_for_dependents_orphaned(old_obj, new_meta):
            glog.v(5).infof("add %s to the attemptToOrphan", n.identity)
            self.attempt_to_orphan.add(n)
            return
        if starts_waiting_for_dependents_deleted(old_obj, new_meta):
            glog.v(2).infof("add %s to the attemptToDelete, because it's waiting for its dependents to be deleted",
                            n.identity)
            n.mark_deleting_dependents()
            for dep in list(n.dependents):
                self.attempt_to_delete.add(dep)
            self.attempt_to_delete.add(n)

    def run_process_graph_changes(self) -> None:
        """Go: ``(*GraphBuilder).runProcessGraphChanges`` — graph_builder.go#L401-L404."""
        while self.process_graph_changes():
            pass

    def process_graph_changes(self) -> bool:
        """Apply one event to the graph. Go: ``(*GraphBuilder).processGraphChanges`` — graph_builder.go#L406-L499."""
        item, quit_ = self.graph_changes.get()
        if quit_:
            return False
        try:
            event = item
            if not isinstance(event, Event):
                handle_error(RuntimeError(f"expect a *event, got {item!r}"))
                return True
            obj = event.obj
            accessor = obj.metadata
            glog.v(5).infof("GraphBuilder process object: %s/%s, namespace %s, name %s, event type %v",
                            event.api_version, event.kind, accessor.namespace, accessor.name, event.event_type)
            existing_node, found = self.uid_to_node.read(accessor.uid)
            if event.event_type in (ADD_EVENT, UPDATE_EVENT) and not found:
                new_node = Node(
                    identity=ObjectReference(OwnerReference(api_version=event.api_version, kind=event.kind,
                                                            uid=accessor.uid, name=accessor.name),
                                             accessor.namespace),
                    owners=accessor.owner_references,
                    deleting_dependents=being_deleted(accessor) and has_delete_dependents_finalizer(accessor),
                    being_deleted=being_deleted(accessor),
                )
                self.insert_node(new_node)
                self.process_transitions(event.old_obj, accessor, new_node)
            elif event.event_type in (ADD_EVENT, UPDATE_EVENT) and found:
                assert existing_node is not None
                added, removed, changed = references_diffs(existing_node.owners, accessor.owner_references)
                if added or removed or changed:
                    self.add_unblocked_owners_to_delete_queue(removed, changed)
                    existing_node.owners = accessor.owner_references
                    self.add_dependent_to_owners(existing_node, added)
                    self.remove_dependent_from_owners(existing_node, removed)
                if being_deleted(accessor):
                    existing_node.mark_being_deleted()
                self.process_transitions(event.old_obj, accessor, existing_node)
            elif event.event_type == DELETE_EVENT:
                if not found:
                    glog.v(5).infof("%v doesn't exist in the graph, this shouldn't happen", accessor.uid)
                    return True
                assert existing_node is not None
                self.remove_node(existing_node)
                if existing_node.dependents:
                    self.absent_owner_cache.add(accessor.uid)
                for dep in list(existing_node.dependents):
                    self.attempt_to_delete.add(dep)
                for owner in existing_node.owners:
                    owner_node, found = self.uid_to_node.read(owner.uid)
                    if not found or not owner_node.is_deleting_dependents():
                        continue
                    self.attempt_to_delete.add(owner_node)
            return True
        finally:
            self.graph_changes.done(item)


def references_diffs(old: Sequence[OwnerReference], new: Sequence[OwnerReference]
                     ) -> tuple[list[OwnerReference], list[OwnerReference], list[OwnerRefPair]]:
    """(added, removed, changed) ownerReferences, by UID. Go: ``referencesDiffs`` — graph_builder.go#L270-L300."""
    old_uid_to_ref = {ref.uid: ref for ref in old}
    new_uid_to_ref = {ref.uid: ref for ref in new}
    added = [ref for uid, ref in new_uid_to_ref.items() if uid not in old_uid_to_ref]
    removed = [ref for uid, ref in old_uid_to_ref.items() if uid not in new_uid_to_ref]
    changed = [OwnerRefPair(old_uid_to_ref[uid], new_uid_to_ref[uid]) for uid in old_uid_to_ref
               if uid in new_uid_to_ref and old_uid_to_ref[uid] != new_uid_to_ref[uid]]
    return added, removed, changed


def deletion_starts(old_obj: Any, new_meta: ObjectMeta) -> bool:
    """The update that gave the object its deletion timestamp. Go: ``deletionStarts`` — graph_builder.go#L302-L319."""
    if old_obj is None:
        return new_meta.deletion_timestamp is not None
    return being_deleted(new_meta) and not being_deleted(old_obj.metadata)


def being_deleted(meta: ObjectMeta) -> bool:
    """Go: ``beingDeleted`` — graph_builder.go#L321-L323."""
    return meta.deletion_timestamp is not None


def has_delete_dependents_finalizer(meta: ObjectMeta) -> bool:
    """Go: ``hasDeleteDependentsFinalizer`` — graph_builder.go#L325-L333."""
    return FINALIZER_DELETE_DEPENDENTS in meta.finalizers


def has_orphan_finalizer(meta: ObjectMeta) -> bool:
    """Go: ``hasOrphanFinalizer`` — graph_builder.go#L335-L343."""
    return FINALIZER_ORPHAN_DEPENDENTS in meta.finalizers


def starts_waiting_for_dependents_deleted(old_obj: Any, new_meta: ObjectMeta) -> bool:
    """Go: ``startsWaitingForDependentsDeleted`` — graph_builder.go#L345-L349."""
    return deletion_starts(old_obj, new_meta) and has_delete_dependents_finalizer(new_meta)


def starts_waiting_for_dependents_orphaned(old_obj: Any, new_meta: ObjectMeta) -> bool:
    """Go: ``startsWaitingForDependentsOrphaned`` — graph_builder.go#L351-L355."""
    return deletion_starts(old_obj, new_meta) and has_orphan_finalizer(new_meta)


__all__ = ["ADD_EVENT", "DELETE_EVENT", "DeletableResource", "Event", "GraphBuilder", "MetadataOnlyObject",
           "OwnerRefPair", "UPDATE_EVENT", "being_deleted", "deletion_starts", "has_delete_dependents_finalizer",
           "has_orphan_finalizer", "references_diffs", "starts_waiting_for_dependents_deleted",
           "starts_waiting_for_dependents_orphaned"]
