"""Deletion with finalizers: the ``orphan`` and ``foregroundDeletion`` dance of 1.6's generic store.

Go: the garbage-collection half of ``Store.Delete`` and ``Store.Update`` in
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go
(``shouldUpdateFinalizerOrphanDependents`` #L539-L580, ``shouldUpdateFinalizerDeleteDependents``
#L587-L623, ``shouldUpdateFinalizers`` #L627-L649, ``markAsDeleting`` #L654-L670,
``shouldDeleteDuringUpdate`` #L330-L345), and the strategies' ``DefaultGarbageCollectionPolicy``
(Orphan for replication controllers, replica sets, deployments, daemon sets and stateful sets:
1.6 kept the dependents of these kinds unless the client asked otherwise).

With garbage collection on (the API server's ``enable_garbage_collection``, which a world turns
on when it runs a controller manager with its garbage collector), a delete of such an object
without options — or with ``propagationPolicy: Orphan`` — does not remove it: it gets the
``orphan`` finalizer and a deletion timestamp; the garbage collector then removes the object's
ownerReference from every dependent and the finalizer from the object, and the update that
empties the finalizers deletes it. ``Foreground`` puts ``foregroundDeletion`` there instead (the
collector deletes the dependents first); ``Background`` deletes the object at once and leaves
its dependents to the collector.

Differs from Go: kschedlearn-only (the in-memory API server's store); pods keep their graceful
path (:meth:`~kschedlearn.apiserver.server.APIServer.delete`) and are not given finalizers here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

FINALIZER_ORPHAN_DEPENDENTS = "orphan"
"""Go: ``metav1.FinalizerOrphanDependents`` —
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/types.go#L76"""
FINALIZER_DELETE_DEPENDENTS = "foregroundDeletion"
"""Go: ``metav1.FinalizerDeleteDependents`` — types.go#L77."""

DELETE_PROPAGATION_ORPHAN = "Orphan"
DELETE_PROPAGATION_BACKGROUND = "Background"
DELETE_PROPAGATION_FOREGROUND = "Foreground"

#: the resources whose strategy's DefaultGarbageCollectionPolicy is OrphanDependents in 1.6
ORPHAN_BY_DEFAULT = frozenset({"replicationcontrollers", "replicasets", "deployments", "daemonsets", "statefulsets"})

#: the etcd key prefix of each resource (Go: each registry's ``NewREST`` prefix), for 1.6's
#: precondition message
ETCD_PREFIX = {"pods": "pods", "replicationcontrollers": "controllers", "replicasets": "replicasets",
               "deployments": "deployments", "daemonsets": "daemonsets", "statefulsets": "statefulsets",
               "services": "services/specs", "endpoints": "services/endpoints", "nodes": "minions",
               "events": "events", "persistentvolumes": "persistentvolumes",
               "persistentvolumeclaims": "persistentvolumeclaims"}


@attrs.frozen
class DeleteOptions:
    """What a delete asks for. Go: ``metav1.DeleteOptions`` (the fields the store reads)."""

    grace_period_seconds: int | None = None
    orphan_dependents: bool | None = None
    propagation_policy: str | None = None
    precondition_uid: str | None = None

    @classmethod
    def from_dict(cls, body: Any, query: dict[str, str] | None = None) -> DeleteOptions:
        """A ``DeleteOptions`` body (or, with no body, the query parameters), as the REST handler
        decodes it; fields of the wrong type are refused with a message naming them."""
        src: dict[str, Any] = dict(body) if isinstance(body, dict) else {}
        if not src and query:
            src = {k: v for k, v in query.items() if k in ("gracePeriodSeconds", "orphanDependents",
                                                             "propagationPolicy")}
            if "gracePeriodSeconds" in src:
                src["gracePeriodSeconds"] = _int(src["gracePeriodSeconds"], "gracePeriodSeconds")
            if "orphanDependents" in src:
                src["orphanDependents"] = src["orphanDependents"] in ("true", "1", "True")
        grace = src.get("gracePeriodSeconds")
        if grace is not None and (isinstance(grace, bool) or not isinstance(grace, int)):
            raise ValueError(f"DeleteOptions.gracePeriodSeconds: expected an integer, got {grace!r}")
        orphan = src.get("orphanDependents")
        if orphan is not None and not isinstance(orphan, bool):
            raise ValueError(f"DeleteOptions.orphanDependents: expected a boolean, got {orphan!r}")
        policy = src.get("propagationPolicy")
        if policy is not None and not isinstance(policy, str):
            raise ValueError(f"DeleteOptions.propagationPolicy: expected a string, got {policy!r}")
        pre = src.get("preconditions") or {}
        uid = pre.get("uid") if isinstance(pre, dict) else None
        return cls(grace, orphan, policy, uid)


def _int(value: str, name: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise ValueError(f"DeleteOptions.{name}: expected an integer, got {value!r}") from None


def should_update_finalizer_orphan_dependents(resource: str, finalizers: Sequence[str],
                                              options: DeleteOptions) -> tuple[bool, bool]:
    """(must the ``orphan`` finalizer be added or removed, should the dependents be orphaned).

    Go: ``shouldUpdateFinalizerOrphanDependents`` — store.go#L534-L580: the options win over
    the object's finalizers, which win over the kind's default policy.
    """
    should_orphan = resource in ORPHAN_BY_DEFAULT
    has_orphan_finalizer = False
    for f in finalizers:
        if f == FINALIZER_ORPHAN_DEPENDENTS:
            should_orphan = True
            has_orphan_finalizer = True
        elif f == FINALIZER_DELETE_DEPENDENTS:  # Go's ``break`` here leaves the switch, not the loop
            should_orphan = False
    if options.orphan_dependents is not None:
        should_orphan = options.orphan_dependents
    if options.propagation_policy == DELETE_PROPAGATION_ORPHAN:
        should_orphan = True
    elif options.propagation_policy in (DELETE_PROPAGATION_BACKGROUND, DELETE_PROPAGATION_FOREGROUND):
        should_orphan = False
    return should_orphan != has_orphan_finalizer, should_orphan


def should_update_finalizer_delete_dependents(finalizers: Sequence[str], options: DeleteOptions) -> tuple[bool, bool]:
    """(must ``foregroundDeletion`` be added or removed, should the dependents go first).

    Go: ``shouldUpdateFinalizerDeleteDependents`` — store.go#L582-L623.
    """
    should_delete_dependent_in_foreground = False
    has_finalizer_delete_dependents = False
    for f in finalizers:
        if f == FINALIZER_DELETE_DEPENDENTS:
            should_delete_dependent_in_foreground = True
            has_finalizer_delete_dependents = True
        elif f == FINALIZER_ORPHAN_DEPENDENTS:
            should_delete_dependent_in_foreground = False
    if options.orphan_dependents is not None:
        should_delete_dependent_in_foreground = False
    if options.propagation_policy == DELETE_PROPAGATION_FOREGROUND:
        should_delete_dependent_in_foreground = True
    elif options.propagation_policy in (DELETE_PROPAGATION_BACKGROUND, DELETE_PROPAGATION_ORPHAN):
        should_delete_dependent_in_foreground = False
    return should_delete_dependent_in_foreground != has_finalizer_delete_dependents, should_delete_dependent_in_foreground


def should_update_finalizers(resource: str, finalizers: Sequence[str],
                             options: DeleteOptions) -> tuple[bool, tuple[str, ...]]:
    """(must the finalizers change, the new list). Go: ``shouldUpdateFinalizers`` — store.go#L625-L649."""
    should_update1, should_orphan = should_update_finalizer_orphan_dependents(resource, finalizers, options)
    should_update2, should_delete_dependent_in_foreground = should_update_finalizer_delete_dependents(
        finalizers, options)
    if not should_update1 and not should_update2:
        return False, tuple(finalizers)
    new_finalizers = [f for f in finalizers if f not in (FINALIZER_ORPHAN_DEPENDENTS, FINALIZER_DELETE_DEPENDENTS)]
    if should_orphan:
        new_finalizers.append(FINALIZER_ORPHAN_DEPENDENTS)
    if should_delete_dependent_in_foreground:
        new_finalizers.append(FINALIZER_DELETE_DEPENDENTS)
    return True, tuple(new_finalizers)


def mark_as_deleting(meta: Any, now: float) -> Any:
    """Deletion timestamp now, grace period 0, generation bumped once.

    Go: ``markAsDeleting`` — store.go#L651-L670
    """
    generation = meta.generation
    if meta.deletion_timestamp is None and generation > 0:
        generation += 1
    return attrs.evolve(meta, deletion_timestamp=now, deletion_grace_period_seconds=0, generation=generation)


def should_delete_during_update(new_meta: Any, old_meta: Any) -> bool:
    """An update that empties the finalizers of an object being deleted deletes it.

    Go: ``(*Store).shouldDeleteDuringUpdate`` — store.go#L324-L345
    """
    return len(new_meta.finalizers) == 0 and old_meta.deletion_grace_period_seconds == 0


def precondition_failed(resource: str, namespace: str, name: str, want_uid: str, uid: str) -> str:
    """1.6's storage error text for a delete whose UID precondition does not hold (etcd3
    ``checkPreconditions``, interpreted as a Conflict by ``InterpretDeleteError``)."""
    prefix = ETCD_PREFIX.get(resource, resource)
    key = f"/registry/{prefix}/{namespace}/{name}" if namespace else f"/registry/{prefix}/{name}"
    return (f"StorageError: invalid object, Code: 4, Key: {key}, ResourceVersion: 0, AdditionalErrorMsg: "
            f"Precondition failed: UID in precondition: {want_uid}, UID in object meta: {uid}")


__all__ = ["DELETE_PROPAGATION_BACKGROUND", "DELETE_PROPAGATION_FOREGROUND", "DELETE_PROPAGATION_ORPHAN",
           "DeleteOptions", "FINALIZER_DELETE_DEPENDENTS", "FINALIZER_ORPHAN_DEPENDENTS", "ORPHAN_BY_DEFAULT",
           "mark_as_deleting", "precondition_failed", "should_delete_during_update", "should_update_finalizers"]
