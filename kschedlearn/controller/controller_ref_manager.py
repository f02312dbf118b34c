"""ControllerRefs: which controller owns a pod (or a replica set), adoption and release.

Go: pkg/controller/controller_ref_manager.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/controller/controller_ref_manager.go

1.6 is the release that made ControllerRef authoritative: a pod whose ``ownerReferences`` name a
controller (``controller: true``) belongs to that controller alone. A controller *adopts* an
orphan its selector matches (a strategic-merge patch adding itself as the controller, guarded by
the pod's UID) and *releases* a pod it owns whose labels no longer match (a patch deleting its
owner reference). Adoption is refused while the controller is being deleted (rechecked once per
sync with a live GET, see :func:`recheck_deletion_timestamp`).

Differs from Go: errors are raised; ``sync.Once`` is a flag (the cooperative runtime never runs
two claims of one manager at once); the match/adopt/release closures are local functions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import attrs

from kschedlearn.apimachinery.api.errors import is_invalid, is_not_found
from kschedlearn.apimachinery.util.errors import new_aggregate
from kschedlearn.apimachinery.util.runtime import PANICS
from kschedlearn.trace import glog
from kschedlearn.trace.gofmt import sprintf


def get_controller_of(controllee: Any) -> Any:
    """The owner reference with ``controller: true``, or None.

    Go: ``GetControllerOf`` — controller_ref_manager.go#L33-L44
    """
    owner_refs = controllee.metadata.owner_references
    for owner in owner_refs:
        if owner.controller is not None and owner.controller is True:
            return owner
    return None


@attrs.define(eq=False)
class BaseControllerRefManager:
    """Go: ``baseControllerRefManager`` — controller_ref_manager.go#L46-L53."""

    controller: Any
    selector: Any
    can_adopt_func: Callable[[], None] | None = None
    can_adopt_err: BaseException | None = None
    can_adopt_once: bool = False

    def can_adopt(self) -> None:
        """Run ``can_adopt_func`` once; raise its error (now and on every later call).

        Go: ``canAdopt`` — controller_ref_manager.go#L55-L62
        """
        if not self.can_adopt_once:
            self.can_adopt_once = True
            if self.can_adopt_func is not None:
                try:
                    self.can_adopt_func()
                except PANICS:
                    raise
                except Exception as err:  # noqa: BLE001 - Go keeps the returned error
                    self.can_adopt_err = err
        if self.can_adopt_err is not None:
            raise self.can_adopt_err

    def claim_object(self, obj: Any, match: Callable[[Any], bool], adopt: Callable[[Any], None],
                     release: Callable[[Any], None]) -> bool:
        """Adopt an orphan that matches, release an owned object that does not; True = ours now.

        Go: ``claimObject`` — controller_ref_manager.go#L64-L128
        """
        controller_ref = get_controller_of(obj)
        if controller_ref is not None:
            if controller_ref.uid != self.controller.metadata.uid:
                # Owned by someone else. Ignore.
                return False
            if match(obj):
                # We already own it and the selector matches.
                return True
            # Owned by us but selector doesn't match. Try to release, unless we're being deleted.
            if self.controller.metadata.deletion_timestamp is not None:
                return False
            try:
                release(obj)
            except PANICS:
                raise
            except Exception as err:
                # If the pod no longer exists, ignore the error.
                if is_not_found(err):
                    return False
                # Either someone else released it, or there was a transient error.
                raise
            # Successfully released.
            return False
        # It's an orphan.
        if self.controller.metadata.deletion_timestamp is not None or not match(obj):
            # Ignore if we're being deleted or selector doesn't match.
            return False
        # Selector matches. Try to adopt.
        try:
            adopt(obj)
        except PANICS:
            raise
        except Exception as err:
            # If the pod no longer exists, ignore the error.
            if is_not_found(err):
                return False
            # Either someone else claimed it first, or there was a transient error.
            raise
        # Successfully adopted.
        return True


@attrs.define(eq=False)
class PodControllerRefManager(BaseControllerRefManager):
    """Go: ``PodControllerRefManager`` — controller_ref_manager.go#L130-L134."""

    controller_kind: tuple[str, str] = ("", "")  # (group/version, kind)
    pod_control: Any = None

    def claim_pods(self, pods: Sequence[Any], *filters: Callable[[Any], bool]) -> list[Any]:
        """The pods this controller owns after adopting and releasing (errors are aggregated).

        Go: ``ClaimPods`` — controller_ref_manager.go#L165-L215
        """
        claimed = []
        errlist = []

        def match(obj: Any) -> bool:
            pod = obj
            # Check selector first so filters only run on potentially matching Pods.
            if not self.selector.matches(pod.metadata.labels):
                return False
            for filter_ in filters:
                if not filter_(pod):
                    return False
            return True

        def adopt(obj: Any) -> None:
            self.adopt_pod(obj)

        def release(obj: Any) -> None:
            self.release_pod(obj)

        for pod in pods:
            try:
                ok = self.claim_object(pod, match, adopt, release)
            except PANICS:
                raise
            except Exception as err:  # noqa: BLE001 - collected like Go's errlist
                errlist.append(err)
                continue
            if ok:
                claimed.append(pod)
        aggregate = new_aggregate(errlist)
        if aggregate is not None:
            raise ClaimError(claimed, aggregate)
        return claimed

    def adopt_pod(self, pod: Any) -> None:
        """Patch the pod to name this controller as its controller.

        Go: ``AdoptPod`` — controller_ref_manager.go#L217-L230
        """
        try:
            self.can_adopt()
        except PANICS:
            raise
        except Exception as err:
            raise RuntimeError(sprintf("can't adopt Pod %v/%v (%v): %v", pod.metadata.namespace, pod.metadata.name,
                                       pod.metadata.uid, err)) from err
        # Note that ValidateOwnerReferences() will reject this patch if another
        # OwnerReference exists with controller=true.
        add_controller_patch = sprintf(
            '{"metadata":{"ownerReferences":[{"apiVersion":"%s","kind":"%s","name":"%s","uid":"%s","controller":true,"blockOwnerDeletion":true}],"uid":"%s"}}',
            self.controller_kind[0], self.controller_kind[1],
            self.controller.metadata.name, self.controller.metadata.uid, pod.metadata.uid)
        self.pod_control.patch_pod(pod.metadata.namespace, pod.metadata.name, add_controller_patch.encode())

    def release_pod(self, pod: Any) -> None:
        """Patch the pod to drop this controller's reference; 404 and 422 are ignored.

        Go: ``ReleasePod`` — controller_ref_manager.go#L232-L257
        """
        glog.v(2).infof("patching pod %s_%s to remove its controllerRef to %s/%s:%s",
                        pod.metadata.namespace, pod.metadata.name, self.controller_kind[0], self.controller_kind[1],
                        self.controller.metadata.name)
        delete_owner_ref_patch = sprintf('{"metadata":{"ownerReferences":[{"$patch":"delete","uid":"%s"}],"uid":"%s"}}',
                                         self.controller.metadata.uid, pod.metadata.uid)
        try:
            self.pod_control.patch_pod(pod.metadata.namespace, pod.metadata.name, delete_owner_ref_patch.encode())
        except PANICS:
            raise
        except Exception as err:
            if is_not_found(err):
                # If the pod no longer exists, ignore it.
                return
            if is_invalid(err):
                # Invalid: the pod has no owner reference, or its uid changed (deleted and recreated).
                return
            raise


class ClaimError(Exception):
    """Go's ``ClaimPods`` / ``ClaimReplicaSets`` return (claimed, aggregate error) together.

    Differs from Go: raised, carrying the claimed list as ``claimed``; its text is the aggregate's.
    """

    def __init__(self, claimed: list[Any], aggregate: Exception) -> None:
        super().__init__(str(aggregate))
        self.claimed = claimed
        self.aggregate = aggregate


def new_pod_controller_ref_manager(pod_control: Any, controller: Any, selector: Any,
                                   controller_kind: tuple[str, str],
                                   can_adopt: Callable[[], None] | None) -> PodControllerRefManager:
    """Go: ``NewPodControllerRefManager`` — controller_ref_manager.go#L136-L163."""
    return PodControllerRefManager(controller=controller, selector=selector, can_adopt_func=can_adopt,
                                   controller_kind=controller_kind, pod_control=pod_control)


@attrs.define(eq=False)
class ReplicaSetControllerRefManager(BaseControllerRefManager):
    """Go: ``ReplicaSetControllerRefManager`` — controller_ref_manager.go#L259-L268."""

    controller_kind: tuple[str, str] = ("", "")
    rs_control: Any = None

    def claim_replica_sets(self, sets: Sequence[Any]) -> list[Any]:
        """The replica sets this Deployment owns after adopting and releasing.

        Go: ``ClaimReplicaSets`` — controller_ref_manager.go#L299-L337
        """
        claimed = []
        errlist = []

        def match(obj: Any) -> bool:
            return self.selector.matches(obj.metadata.labels)

        def adopt(obj: Any) -> None:
            self.adopt_replica_set(obj)

        def release(obj: Any) -> None:
            self.release_replica_set(obj)

        for rs in sets:
            try:
                ok = self.claim_object(rs, match, adopt, release)
            except PANICS:
                raise
            except Exception as err:  # noqa: BLE001 - collected like Go's errlist
                errlist.append(err)
                continue
            if ok:
                claimed.append(rs)
        aggregate = new_aggregate(errlist)
        if aggregate is not None:
            raise ClaimError(claimed, aggregate)
        return claimed

    def adopt_replica_set(self, rs: Any) -> None:
        """Go: ``AdoptReplicaSet`` — controller_ref_manager.go#L339-L352."""
        try:
            self.can_adopt()
        except PANICS:
            raise
        except Exception as err:
            raise RuntimeError(sprintf("can't adopt ReplicaSet %v/%v (%v): %v", rs.metadata.namespace,
                                       rs.metadata.name, rs.metadata.uid, err)) from err
        add_controller_patch = sprintf(
            '{"metadata":{"ownerReferences":[{"apiVersion":"%s","kind":"%s","name":"%s","uid":"%s","controller":true,"blockOwnerDeletion":true}],"uid":"%s"}}',
            self.controller_kind[0], self.controller_kind[1],
            self.controller.metadata.name, self.controller.metadata.uid, rs.metadata.uid)
        self.rs_control.patch_replica_set(rs.metadata.namespace, rs.metadata.name, add_controller_patch.encode())

    def release_replica_set(self, replica_set: Any) -> None:
        """Go: ``ReleaseReplicaSet`` — controller_ref_manager.go#L354-L375."""
        glog.v(2).infof("patching ReplicaSet %s_%s to remove its controllerRef to %s/%s:%s",
                        replica_set.metadata.namespace, replica_set.metadata.name, self.controller_kind[0],
                        self.controller_kind[1], self.controller.metadata.name)
        delete_owner_ref_patch = sprintf('{"metadata":{"ownerReferences":[{"$patch":"delete","uid":"%s"}],"uid":"%s"}}',
                                         self.controller.metadata.uid, replica_set.metadata.uid)
        try:
            self.rs_control.patch_replica_set(replica_set.metadata.namespace, replica_set.metadata.name,
                                              delete_owner_ref_patch.encode())
        except PANICS:
            raise
        except Exception as err:
            if is_not_found(err) or is_invalid(err):
                return
            raise


def new_replica_set_controller_ref_manager(rs_control: Any, controller: Any, selector: Any,
                                           controller_kind: tuple[str, str],
                                           can_adopt: Callable[[], None] | None) -> ReplicaSetControllerRefManager:
    """Go: ``NewReplicaSetControllerRefManager`` — controller_ref_manager.go#L270-L297."""
    return ReplicaSetControllerRefManager(controller=controller, selector=selector, can_adopt_func=can_adopt,
                                          controller_kind=controller_kind, rs_control=rs_control)


def recheck_deletion_timestamp(get_object: Callable[[], Any]) -> Callable[[], None]:
    """A ``can_adopt`` that GETs the controller fresh and refuses if it is being deleted.

    Go: ``RecheckDeletionTimestamp`` — controller_ref_manager.go#L377-L392
    """

    def can_adopt() -> None:
        try:
            obj = get_object()
        except PANICS:
            raise
        except Exception as err:
            raise RuntimeError(sprintf("can't recheck DeletionTimestamp: %v", err)) from err
        if obj.metadata.deletion_timestamp is not None:
            raise RuntimeError(sprintf("%v/%v has just been deleted at %v", obj.metadata.namespace,
                                       obj.metadata.name, obj.metadata.deletion_timestamp))

    return can_adopt


__all__ = ["BaseControllerRefManager", "ClaimError", "PodControllerRefManager", "ReplicaSetControllerRefManager",
           "get_controller_of", "new_pod_controller_ref_manager", "new_replica_set_controller_ref_manager",
           "recheck_deletion_timestamp"]
