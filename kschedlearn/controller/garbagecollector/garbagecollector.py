"""The GarbageCollector: deletes dependents whose owners are gone; orphans on request.

Go: pkg/controller/garbagecollector/garbagecollector.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/controller/garbagecollector/garbagecollector.go

The GraphBuilder keeps a graph of owners and dependents from informers on every deletable
resource. Workers of ``attempt_to_delete`` look at one node: if none of its owners exists any
more, the object is deleted — with no propagation policy, so a ReplicaSet deleted this way gets
1.6's default for its kind (orphan: its pods stay, their ownerReference removed). Workers of
``attempt_to_orphan`` take an owner being deleted with the ``orphan`` finalizer, remove its
reference from every dependent, then the finalizer from the owner (whose deletion completes).

Differs from Go: see :mod:`.graph_builder` and :mod:`.operations` (typed clients instead of the
dynamic client pool); ``Register()`` of the metrics is not mirrored.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from kschedlearn import sim
from kschedlearn.api.v1 import ObjectMeta, OwnerReference
from kschedlearn.apimachinery.api.errors import is_not_found
from kschedlearn.apimachinery.util import wait
from kschedlearn.apimachinery.util.runtime import handle_error
from kschedlearn.apiserver.finalizers import (
    DELETE_PROPAGATION_FOREGROUND,
    FINALIZER_DELETE_DEPENDENTS,
    FINALIZER_ORPHAN_DEPENDENTS,
)
from kschedlearn.client_go.tools.cache.shared_informer import wait_for_cache_sync
from kschedlearn.client_go.util.workqueue.default_rate_limiters import default_controller_rate_limiter
from kschedlearn.client_go.util.workqueue.rate_limitting_queue import (
    RateLimitingType,
    new_named_rate_limiting_queue,
)
from kschedlearn.controller.garbagecollector.errors import RestMappingError
from kschedlearn.controller.garbagecollector.graph import ConcurrentUIDToNode, Node, ObjectReference
from kschedlearn.controller.garbagecollector.graph_builder import (
    DELETE_EVENT,
    DeletableResource,
    Event,
    GraphBuilder,
    MetadataOnlyObject,
    has_delete_dependents_finalizer,
)
from kschedlearn.controller.garbagecollector.operations import Operations
from kschedlearn.controller.garbagecollector.patch import delete_owner_ref_patch, patch_to_unblock_owner_references
from kschedlearn.controller.garbagecollector.uid_cache import UIDCache, new_uid_cache
from kschedlearn.trace import glog
from kschedlearn.trace.gofmt import sprintf


@attrs.define(eq=False)
class GarbageCollector(Operations):
    """Go: ``GarbageCollector`` — garbagecollector.go#L46-L72."""

    client: Any
    attempt_to_delete: RateLimitingType
    attempt_to_orphan: RateLimitingType
    dependency_graph_builder: GraphBuilder
    absent_owner_cache: UIDCache

    def run(self, workers: int, stop_ch: sim.Chan) -> None:
        """Start the graph builder, wait for its monitors, then the workers.

        Go: ``(*GarbageCollector).Run`` — garbagecollector.go#L106-L126
        """
        try:
            glog.infof("Garbage Collector: Initializing")
            self.dependency_graph_builder.run(stop_ch)
            if not wait_for_cache_sync(stop_ch, self.dependency_graph_builder.has_synced):
                return
            glog.infof("Garbage Collector: All resource monitors have synced. Proceeding to collect garbage")
            for _ in range(workers):
                sim.go(wait.until, self.run_attempt_to_delete_worker, 1.0, stop_ch, name="gc attemptToDelete worker")
                sim.go(wait.until, self.run_attempt_to_orphan_worker, 1.0, stop_ch, name="gc attemptToOrphan worker")
            stop_ch.recv()
            glog.infof("Garbage Collector: Shutting down")
        finally:
            self.dependency_graph_builder.graph_changes.shut_down()
            self.attempt_to_orphan.shut_down()
            self.attempt_to_delete.shut_down()

    def has_synced(self) -> bool:
        """Go: ``(*GarbageCollector).HasSynced`` — garbagecollector.go#L128-L130."""
        return self.dependency_graph_builder.has_synced()

    def run_attempt_to_delete_worker(self) -> None:
        """Go: ``runAttemptToDeleteWorker`` — garbagecollector.go#L132-L135."""
        while self.attempt_to_delete_worker():
            pass

    def attempt_to_delete_worker(self) -> bool:
        """Go: ``attemptToDeleteWorker`` — garbagecollector.go#L137-L161."""
        item, quit_ = self.attempt_to_delete.get()
        if quit_:
            return False
        try:
            n = item
            if not isinstance(n, Node):
                handle_error(RuntimeError(f"expect *node, got {item!r}"))
                return True
            try:
                self.attempt_to_delete_item(n)
            except RestMappingError as err:
                handle_error(RuntimeError(sprintf("Ignore syncing item %v: %s", n, err.message())))
                return True
            except Exception as err:  # noqa: BLE001 - Go: err != nil
                handle_error(RuntimeError(sprintf("Error syncing item %v: %v", n, err)))
                self.attempt_to_delete.add_rate_limited(item)
            return True
        finally:
            self.attempt_to_delete.done(item)

    def is_dangling(self, reference: OwnerReference, item: Node) -> tuple[bool, Any]:
        """(does the reference point at nothing, the owner's latest state if it exists).

        Go: ``(*GarbageCollector).isDangling`` — garbagecollector.go#L177-L220
        """
        if self.absent_owner_cache.has(reference.uid):
            glog.v(5).infof("according to the absentOwnerCache, object %s's owner %s/%s, %s does not exist",
                            item.identity.uid, reference.api_version, reference.kind, reference.name)
            return True, None
        ref = ObjectReference(reference, item.identity.namespace)
        try:
            owner = self.get_object(ref)
        except RestMappingError:
            raise
        except Exception as err:
            if is_not_found(err):
                self.absent_owner_cache.add(reference.uid)
                glog.v(5).infof("object %s's owner %s/%s, %s is not found", item.identity.uid,
                                reference.api_version, reference.kind, reference.name)
                return True, None
            raise
        if owner.metadata.uid != reference.uid:
            glog.v(5).infof("object %s's owner %s/%s, %s is not found, UID mismatch", item.identity.uid,
                            reference.api_version, reference.kind, reference.name)
            self.absent_owner_cache.add(reference.uid)
            return True, None
        return False, owner

    def classify_references(self, item: Node, latest_references: Sequence[OwnerReference]
                            ) -> tuple[list[OwnerReference], list[OwnerReference], list[OwnerReference]]:
        """(solid, dangling, waitingForDependentsDeletion) owner references.

        Go: ``(*GarbageCollector).classifyReferences`` — garbagecollector.go#L222-L251
        """
        solid: list[OwnerReference] = []
        dangling: list[OwnerReference] = []
        waiting_for_dependents_deletion: list[OwnerReference] = []
        for reference in latest_references:
            is_dangling, owner = self.is_dangling(reference, item)
            if is_dangling:
                dangling.append(reference)
                continue
            owner_accessor = owner.metadata
            if owner_accessor.deletion_timestamp is not None and has_delete_dependents_finalizer(owner_accessor):
                waiting_for_dependents_deletion.append(reference)
            else:
                solid.append(reference)
        return solid, dangling, waiting_for_dependents_deletion

    def generate_virtual_delete_event(self, identity: ObjectReference) -> None:
        """Go: ``generateVirtualDeleteEvent`` — garbagecollector.go#L253-L260."""
        event = Event(DELETE_EVENT, object_reference_to_metadata_only_object(identity), None,
                      identity.api_version, identity.kind)
        glog.v(5).infof("generating virtual delete event for %s\n\n", identity)
        self.dependency_graph_builder.enqueue_changes(event)

    def attempt_to_delete_item(self, item: Node) -> None:
        """Delete the object if none of its owners exists (or wait, or unlink dangling owners).

        Go: ``(*GarbageCollector).attemptToDeleteItem`` — garbagecollector.go#L270-L365
        """
        glog.v(2).infof("processing item %s", item.identity)
        if item.is_being_deleted() and not item.is_deleting_dependents():
            glog.v(5).infof("processing item %s returned at once, because its DeletionTimestamp is non-nil",
                            item.identity)
            return
        try:
            latest = self.get_object(item.identity)
        except RestMappingError:
            raise
        except Exception as err:
            if is_not_found(err):
                glog.v(5).infof("item %v not found, generating a virtual delete event", item.identity)
                self.generate_virtual_delete_event(item.identity)
                return
            raise
        if latest.metadata.uid != item.identity.uid:
            glog.v(5).infof("UID doesn't match, item %v not found, generating a virtual delete event", item.identity)
            self.generate_virtual_delete_event(item.identity)
            return
        if item.is_deleting_dependents():
            self.process_deleting_dependents_item(item)
            return
        owner_references = latest.metadata.owner_references
        if len(owner_references) == 0:
            glog.v(2).infof("object %s's doesn't have an owner, continue on next item", item.identity)
            return
        solid, dangling, waiting_for_dependents_deletion = self.classify_references(item, owner_references)
        glog.v(5).infof("classify references of %s.\nsolid: %v\ndangling: %v\nwaitingForDependentsDeletion: %v\n",
                        item.identity, solid, dangling, waiting_for_dependents_deletion)
        if solid:
            glog.v(2).infof("object %s has at least one existing owner: %v, will not garbage collect", solid,
                            item.identity)
            if dangling or waiting_for_dependents_deletion:
                glog.v(2).infof("remove dangling references %v and waiting references %v for object %s", dangling,
                                waiting_for_dependents_deletion, item.identity)
            patch = delete_owner_ref_patch(item.identity.uid, *owner_refs_to_uids(dangling),
                                           *owner_refs_to_uids(waiting_for_dependents_deletion))
            self.patch_object(item.identity, patch)
            return
        if waiting_for_dependents_deletion and item.dependents_length() != 0:
            for dep in item.get_dependents():
                if dep.is_deleting_dependents():
                    glog.v(2).infof("processing object %s, some of its owners and its dependent [%s] have "
                                    "FinalizerDeletingDependents, to prevent potential cycle, its ownerReferences are "
                                    "going to be modified to be non-blocking, then the object is going to be deleted "
                                    "with Foreground", item.identity, dep.identity)
                    self.patch_object(item.identity, patch_to_unblock_owner_references(item))
                    break
            glog.v(2).infof("at least one owner of object %s has FinalizerDeletingDependents, and the object itself "
                            "has dependents, so it is going to be deleted with Foreground", item.identity)
            self.delete_object(item.identity, DELETE_PROPAGATION_FOREGROUND)
            return
        glog.v(2).infof("delete object %s with Default", item.identity)
        self.delete_object(item.identity, None)

    def process_deleting_dependents_item(self, item: Node) -> None:
        """Go: ``processDeletingDependentsItem`` — garbagecollector.go#L367-L381."""
        blocking_dependents = item.blocking_dependents()
        if not blocking_dependents:
            glog.v(2).infof("remove DeleteDependents finalizer for item %s", item.identity)
            self.remove_finalizer(item, FINALIZER_DELETE_DEPENDENTS)
            return
        for dep in blocking_dependents:
            if not dep.is_deleting_dependents():
                glog.v(2).infof("adding %s to attemptToDelete, because its owner %s is deletingDependents",
                                dep.identity, item.identity)
                self.attempt_to_delete.add(dep)

    def orphan_dependents(self, owner: ObjectReference, dependents: Sequence[Node]) -> None:
        """Remove ``owner`` from every dependent's ownerReferences.

        Go: ``(*GarbageCollector).orphanDependents`` — garbagecollector.go#L383-L402 (whose
        collected errors are never returned: ``failedDependents`` stays empty)
        """
        errors_slice = []
        for dependent in dependents:
            patch = delete_owner_ref_patch(dependent.identity.uid, owner.uid)
            try:
                self.patch_object(dependent.identity, patch)
            except Exception as err:  # noqa: BLE001 - Go: err != nil && !IsNotFound
                if not is_not_found(err):
                    errors_slice.append(sprintf("orphaning %s failed with %v", dependent.identity, err))
        glog.v(5).infof("successfully updated all dependents of owner %s", owner)

    def run_attempt_to_orphan_worker(self) -> None:
        """Go: ``runAttemptToOrphanWorker`` — garbagecollector.go#L404-L407."""
        while self.attempt_to_orphan_worker():
            pass

    def attempt_to_orphan_worker(self) -> bool:
        """Orphan the dependents of one owner, then drop its ``orphan`` finalizer.

        Go: ``attemptToOrphanWorker`` — garbagecollector.go#L409-L446
        """
        item, quit_ = self.attempt_to_orphan.get()
        if quit_:
            return False
        try:
            owner = item
            if not isinstance(owner, Node):
                handle_error(RuntimeError(f"expect *node, got {item!r}"))
                return True
            dependents = list(owner.dependents)
            try:
                self.orphan_dependents(owner.identity, dependents)
            except Exception as err:  # noqa: BLE001
                glog.v(5).infof("orphanDependents for %s failed with %v", owner.identity, err)
                self.attempt_to_orphan.add_rate_limited(item)
                return True
            try:
                self.remove_finalizer(owner, FINALIZER_ORPHAN_DEPENDENTS)
            except Exception as err:  # noqa: BLE001
                glog.v(5).infof("removeOrphanFinalizer for %s failed with %v", owner.identity, err)
                self.attempt_to_orphan.add_rate_limited(item)
            return True
        finally:
            self.attempt_to_orphan.done(item)

    def graph_has_uid(self, uids: Sequence[str]) -> bool:
        """Go: ``GraphHasUID`` — garbagecollector.go#L448-L459."""
        return any(self.dependency_graph_builder.uid_to_node.read(u)[1] for u in uids)


def object_reference_to_metadata_only_object(ref: ObjectReference) -> MetadataOnlyObject:
    """Go: ``objectReferenceToMetadataOnlyObject`` — garbagecollector.go#L163-L175."""
    return MetadataOnlyObject(ObjectMeta(namespace=ref.namespace, uid=ref.uid, name=ref.name),
                              ref.api_version, ref.kind)


def owner_refs_to_uids(refs: Sequence[OwnerReference]) -> list[str]:
    """Go: ``ownerRefsToUIDs`` — garbagecollector.go#L262-L268."""
    return [ref.uid for ref in refs]


def new_garbage_collector(client: Any, deletable_resources: Sequence[DeletableResource]) -> GarbageCollector:
    """Two work queues, the absent-owner cache (500 UIDs), the graph builder and its monitors.

    Go: ``NewGarbageCollector`` — garbagecollector.go#L74-L104
    """
    attempt_to_delete = new_named_rate_limiting_queue(default_controller_rate_limiter(),
                                                      "garbage_collector_attempt_to_delete")
    attempt_to_orphan = new_named_rate_limiting_queue(default_controller_rate_limiter(),
                                                      "garbage_collector_attempt_to_orphan")
    absent_owner_cache = new_uid_cache(500)
    gb = GraphBuilder(
        client=client,
        graph_changes=new_named_rate_limiting_queue(default_controller_rate_limiter(),
                                                    "garbage_collector_graph_changes"),
        uid_to_node=ConcurrentUIDToNode(),
        attempt_to_delete=attempt_to_delete,
        attempt_to_orphan=attempt_to_orphan,
        absent_owner_cache=absent_owner_cache,
    )
    gb.monitors_for_resources(deletable_resources)
    return GarbageCollector(client=client, attempt_to_delete=attempt_to_delete, attempt_to_orphan=attempt_to_orphan,
                            dependency_graph_builder=gb, absent_owner_cache=absent_owner_cache)


__all__ = ["GarbageCollector", "new_garbage_collector", "object_reference_to_metadata_only_object",
           "owner_refs_to_uids"]
