"""The Deployment controller: rolls a Deployment's pod template out through replica sets.

Go: pkg/controller/deployment/deployment_controller.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/controller/deployment/deployment_controller.go

A Deployment never touches pods itself: it creates one replica set per template
(``<name>-<pod-template-hash>``) and moves replicas between them by writing their
``spec.replicas``; the ReplicaSet controller creates and deletes the pods. ``sync_deployment``
picks the strategy (``RollingUpdate``: grow the new set up to ``replicas + maxSurge`` pods in
all, shrink old sets while at least ``replicas - maxUnavailable`` are available; ``Recreate``:
old sets to 0 first), handles scaling events proportionally, pauses, rollbacks and the
progress deadline.

Differs from Go: the methods of ``DeploymentController`` Go spreads over sync.go, rolling.go,
recreate.go, rollback.go and progress.go live in mixin classes of those modules (one Go type,
several files — the same split). Go mutates the deployment it syncs through its pointer; values
are frozen here, so the methods that do so return the updated deployment and callers rebind it
(a write's result is *not* what the caller keeps, as in Go, where ``d, err = UpdateStatus(d)``
only rebinds the callee's variable — so a second status write in one sync can meet a 409, as in
1.6). Errors are raised; ``maxRetries`` (5) still drops a key after five failures.
"""

from __future__ import annotations

from typing import Any

import attrs

from kschedlearn import sim
from kschedlearn.api.v1 import EventSource
from kschedlearn.apimachinery import labels
from kschedlearn.apimachinery.api.errors import is_not_found
from kschedlearn.apimachinery.apis.meta import v1 as metav1
from kschedlearn.apimachinery.util import wait
from kschedlearn.apimachinery.util.runtime import PANICS, handle_crash, handle_error
from kschedlearn.apis.extensions.v1beta1.types import (
    RECREATE_DEPLOYMENT_STRATEGY_TYPE,
    ROLLING_UPDATE_DEPLOYMENT_STRATEGY_TYPE,
)
from kschedlearn.client_go.kubernetes.typed.core.v1.event_expansion import EventSinkImpl
from kschedlearn.client_go.tools.cache.controller import ResourceEventHandlerFuncs
from kschedlearn.client_go.tools.cache.delta_fifo import DeletedFinalStateUnknown
from kschedlearn.client_go.tools.cache.shared_informer import wait_for_cache_sync
from kschedlearn.client_go.tools.cache.store import split_meta_namespace_key
from kschedlearn.client_go.tools.record.event import new_broadcaster
from kschedlearn.client_go.util.workqueue.default_rate_limiters import default_controller_rate_limiter
from kschedlearn.client_go.util.workqueue.rate_limitting_queue import (
    RateLimitingType,
    new_named_rate_limiting_queue,
)
from kschedlearn.controller import controller_utils as controller
from kschedlearn.controller.controller_ref_manager import (
    get_controller_of,
    new_replica_set_controller_ref_manager,
    recheck_deletion_timestamp,
)
from kschedlearn.controller.deployment.progress import ProgressMethods
from kschedlearn.controller.deployment.recreate import RecreateMethods
from kschedlearn.controller.deployment.rollback import RollbackMethods
from kschedlearn.controller.deployment.rolling import RollingMethods
from kschedlearn.controller.deployment.sync import SyncMethods
from kschedlearn.controller.deployment.util import deployment_util as util
from kschedlearn.trace import glog
from kschedlearn.trace.gofmt import sprintf

MAX_RETRIES = 5
"""Go: ``maxRetries`` — deployment_controller.go#L54-L55 (a key is dropped after five failed syncs)."""

CONTROLLER_KIND = ("extensions/v1beta1", "Deployment")
"""Go: ``controllerKind`` — deployment_controller.go#L58-L59."""

PodMap = dict[str, list[Any]]
"""Go: ``map[types.UID]*v1.PodList`` (replica set UID → its pods), in replica-set order."""


@attrs.define(eq=False)
class DeploymentController(SyncMethods, RollingMethods, RecreateMethods, RollbackMethods, ProgressMethods):
    """Go: ``DeploymentController`` — deployment_controller.go#L61-L93."""

    client: Any
    event_recorder: Any
    queue: RateLimitingType
    rs_control: Any = None
    sync_handler: Any = None
    enqueue_deployment: Any = None
    d_lister: Any = None
    rs_lister: Any = None
    pod_lister: Any = None
    d_lister_synced: Any = None
    rs_lister_synced: Any = None
    pod_lister_synced: Any = None

    def run(self, workers: int, stop_ch: sim.Chan) -> None:
        """Go: ``(*DeploymentController).Run`` — deployment_controller.go#L142-L160."""
        with handle_crash():
            try:
                glog.infof("Starting deployment controller")
                if not wait_for_cache_sync(stop_ch, self.d_lister_synced, self.rs_lister_synced,
                                           self.pod_lister_synced):
                    handle_error(RuntimeError("timed out waiting for caches to sync"))
                    return
                for _ in range(workers):
                    sim.go(wait.until, self.worker, 1.0, stop_ch, name="deployment worker")
                stop_ch.recv()
                glog.infof("Shutting down deployment controller")
            finally:
                self.queue.shut_down()

    def add_deployment(self, obj: Any) -> None:
        """Go: ``addDeployment`` — deployment_controller.go#L162-L166."""
        d = obj
        glog.v(4).infof("Adding deployment %s", d.metadata.name)
        self.enqueue_deployment(d)

    def update_deployment(self, old: Any, cur: Any) -> None:
        """Go: ``updateDeployment`` — deployment_controller.go#L168-L173."""
        old_d, cur_d = old, cur
        glog.v(4).infof("Updating deployment %s", old_d.metadata.name)
        self.enqueue_deployment(cur_d)

    def delete_deployment(self, obj: Any) -> None:
        """Go: ``deleteDeployment`` — deployment_controller.go#L175-L191."""
        d = obj
        if isinstance(obj, DeletedFinalStateUnknown):
            d = obj.obj
            if getattr(type(d), "kind", "") != "Deployment":
                handle_error(RuntimeError(sprintf("Tombstone contained object that is not a Deployment %#v", obj)))
                return
        glog.v(4).infof("Deleting deployment %s", d.metadata.name)
        self.enqueue_deployment(d)

    def add_replica_set(self, obj: Any) -> None:
        """A replica set appeared: wake its Deployment, or those that may adopt it.

        Go: ``addReplicaSet`` — deployment_controller.go#L193-L225
        """
        rs = obj
        if rs.metadata.deletion_timestamp is not None:
            # On a restart of the controller manager, it's possible for an object to
            # show up in a state that is already pending deletion.
            self.delete_replica_set(rs)
            return
        # If it has a ControllerRef, that's all that matters.
        controller_ref = get_controller_of(rs)
        if controller_ref is not None:
            d = self.resolve_controller_ref(rs.metadata.namespace, controller_ref)
            if d is None:
                return
            glog.v(4).infof("ReplicaSet %s added.", rs.metadata.name)
            self.enqueue_deployment(d)
            return
        # Otherwise, it's an orphan. Get a list of all matching Deployments and sync
        # them to see if anyone wants to adopt it.
        ds = self.get_deployments_for_replica_set(rs)
        if not ds:
            return
        glog.v(4).infof("Orphan ReplicaSet %s added.", rs.metadata.name)
        for d in ds:
            self.enqueue_deployment(d)

    def get_deployments_for_replica_set(self, rs: Any) -> list[Any] | None:
        """Go: ``getDeploymentsForReplicaSet`` — deployment_controller.go#L227-L245."""
        try:
            deployments = self.d_lister.get_deployments_for_replica_set(rs)
        except PANICS:
            raise
        except Exception:  # noqa: BLE001 - Go returns nil on the error
            return None
        if len(deployments) == 0:
            return None
        if len(deployments) > 1:
            glog.v(4).infof("user error! more than one deployment is selecting replica set %s/%s with labels: %#v, "
                            "returning %s/%s", rs.metadata.namespace, rs.metadata.name, rs.metadata.labels,
                            deployments[0].metadata.namespace, deployments[0].metadata.name)
        return deployments

    def update_replica_set(self, old: Any, cur: Any) -> None:
        """Go: ``updateReplicaSet`` — deployment_controller.go#L247-L294."""
        cur_rs, old_rs = cur, old
        if cur_rs.metadata.resource_version == old_rs.metadata.resource_version:
            # Periodic resync will send update events for all known replica sets.
            return
        cur_controller_ref = get_controller_of(cur_rs)
        old_controller_ref = get_controller_of(old_rs)
        controller_ref_changed = cur_controller_ref != old_controller_ref
        if controller_ref_changed and old_controller_ref is not None:
            # The ControllerRef was changed. Sync the old controller, if any.
            d = self.resolve_controller_ref(old_rs.metadata.namespace, old_controller_ref)
            if d is not None:
                self.enqueue_deployment(d)
        # If it has a ControllerRef, that's all that matters.
        if cur_controller_ref is not None:
            d = self.resolve_controller_ref(cur_rs.metadata.namespace, cur_controller_ref)
            if d is None:
                return
            glog.v(4).infof("ReplicaSet %s updated.", cur_rs.metadata.name)
            self.enqueue_deployment(d)
            return
        # Otherwise, it's an orphan. If anything changed, sync matching controllers
        # to see if anyone wants to adopt it now.
        label_changed = cur_rs.metadata.labels != old_rs.metadata.labels
        if label_changed or controller_ref_changed:
            ds = self.get_deployments_for_replica_set(cur_rs)
            if not ds:
                return
            glog.v(4).infof("Orphan ReplicaSet %s updated.", cur_rs.metadata.name)
            for d in ds:
                self.enqueue_deployment(d)

    def delete_replica_set(self, obj: Any) -> None:
        """Go: ``deleteReplicaSet`` — deployment_controller.go#L296-L330."""
        rs = obj
        if isinstance(obj, DeletedFinalStateUnknown):
            rs = obj.obj
            if getattr(type(rs), "kind", "") != "ReplicaSet":
                handle_error(RuntimeError(sprintf("Tombstone contained object that is not a ReplicaSet %#v", obj)))
                return
        controller_ref = get_controller_of(rs)
        if controller_ref is None:
            # No controller should care about orphans being deleted.
            return
        d = self.resolve_controller_ref(rs.metadata.namespace, controller_ref)
        if d is None:
            return
        glog.v(4).infof("ReplicaSet %s deleted.", rs.metadata.name)
        self.enqueue_deployment(d)

    def delete_pod(self, obj: Any) -> None:
        """Wake a Recreate Deployment once all of its pods are gone.

        Go: ``deletePod`` — deployment_controller.go#L332-L371
        """
        pod = obj
        if isinstance(obj, DeletedFinalStateUnknown):
            pod = obj.obj
            if getattr(type(pod), "kind", "") != "Pod":
                handle_error(RuntimeError(sprintf("Tombstone contained object that is not a pod %#v", obj)))
                return
        glog.v(4).infof("Pod %s deleted.", pod.metadata.name)
        d = self.get_deployment_for_pod(pod)
        if d is not None and d.spec.strategy.type == RECREATE_DEPLOYMENT_STRATEGY_TYPE:
            # Sync if this Deployment now has no more Pods.
            try:
                rs_list = self.get_replica_sets_for_deployment(d)
                pod_map = self.get_pod_map_for_deployment(d, rs_list)
            except PANICS:
                raise
            except Exception:  # noqa: BLE001 - Go returns on the error
                return
            num_pods = 0
            for pod_list in pod_map.values():
                num_pods += len(pod_list)
            if num_pods == 0:
                self.enqueue_deployment(d)

    def enqueue(self, deployment: Any) -> None:
        """Go: ``enqueue`` — deployment_controller.go#L373-L381."""
        key = controller.key_func(deployment)
        self.queue.add(key)

    def enqueue_rate_limited(self, deployment: Any) -> None:
        """Go: ``enqueueRateLimited`` — deployment_controller.go#L383-L391."""
        key = controller.key_func(deployment)
        self.queue.add_rate_limited(key)

    def enqueue_after(self, deployment: Any, after: float) -> None:
        """Enqueue after ``after`` seconds. Go: ``enqueueAfter`` — deployment_controller.go#L393-L402."""
        key = controller.key_func(deployment)
        self.queue.add_after(key, after)

    def get_deployment_for_pod(self, pod: Any) -> Any:
        """The Deployment that owns the replica set that owns the pod.

        Go: ``getDeploymentForPod`` — deployment_controller.go#L404-L430
        """
        controller_ref = get_controller_of(pod)
        if controller_ref is None:
            # No controller owns this Pod.
            return None
        if controller_ref.kind != "ReplicaSet":
            # Not a pod owned by a replica set.
            return None
        try:
            rs = self.rs_lister.replica_sets(pod.metadata.namespace).get(controller_ref.name)
        except PANICS:
            raise
        except Exception as err:  # noqa: BLE001 - Go logs and returns nil
            glog.v(4).infof("Cannot get replicaset %q for pod %q: %v", controller_ref.name, pod.metadata.name, err)
            return None
        if rs.metadata.uid != controller_ref.uid:
            glog.v(4).infof("Cannot get replicaset %q for pod %q: %v", controller_ref.name, pod.metadata.name, None)
            return None
        # Now find the Deployment that owns that ReplicaSet.
        controller_ref = get_controller_of(rs)
        if controller_ref is None:
            return None
        return self.resolve_controller_ref(rs.metadata.namespace, controller_ref)

    def resolve_controller_ref(self, namespace: str, controller_ref: Any) -> Any:
        """Go: ``resolveControllerRef`` — deployment_controller.go#L432-L451."""
        # We can't look up by UID, so look up by Name and then verify UID.
        # Don't even try to look up by Name if it's the wrong Kind.
        if controller_ref.kind != CONTROLLER_KIND[1]:
            return None
        try:
            d = self.d_lister.deployments(namespace).get(controller_ref.name)
        except PANICS:
            raise
        except Exception:  # noqa: BLE001 - Go returns nil on the error
            return None
        if d.metadata.uid != controller_ref.uid:
            # The controller we found with this Name is not the same one that the ControllerRef points to.
            return None
        return d

    def worker(self) -> None:
        """Go: ``worker`` — deployment_controller.go#L453-L458."""
        while self.process_next_work_item():
            pass

    def process_next_work_item(self) -> bool:
        """Go: ``processNextWorkItem`` — deployment_controller.go#L460-L471."""
        key, quit_ = self.queue.get()
        if quit_:
            return False
        try:
            err: BaseException | None = None
            try:
                self.sync_handler(key)
            except PANICS:
                raise
            except Exception as exc:  # noqa: BLE001 - Go: err
                err = exc
            self.handle_err(err, key)
            return True
        finally:
            self.queue.done(key)

    def handle_err(self, err: BaseException | None, key: Any) -> None:
        """Forget on success; retry rate-limited up to five times; then drop the key.

        Go: ``handleErr`` — deployment_controller.go#L473-L488
        """
        if err is None:
            self.queue.forget(key)
            return
        if self.queue.num_requeues(key) < MAX_RETRIES:
            glog.v(2).infof("Error syncing deployment %v: %v", key, err)
            self.queue.add_rate_limited(key)
            return
        handle_error(err)
        glog.v(2).infof("Dropping deployment %q out of the queue: %v", key, err)
        self.queue.forget(key)

    def get_replica_sets_for_deployment(self, d: Any) -> list[Any]:
        """The replica sets this Deployment owns, after adopting and releasing by ControllerRef.

        Go: ``getReplicaSetsForDeployment`` — deployment_controller.go#L490-L518
        """
        # List all ReplicaSets to find those we own but that no longer match our selector.
        rs_list = self.rs_lister.replica_sets(d.metadata.namespace).list(labels.everything())
        try:
            deployment_selector = metav1.label_selector_as_selector(d.spec.selector)
        except ValueError as err:
            raise RuntimeError(sprintf("deployment %s/%s has invalid label selector: %v", d.metadata.namespace,
                                       d.metadata.name, err)) from err

        # If any adoptions are attempted, we should first recheck for deletion with
        # an uncached quorum read sometime after listing ReplicaSets (see #42639).
        def get_fresh() -> Any:
            fresh = self.client.extensions_v1beta1().deployments(d.metadata.namespace).get(d.metadata.name)
            if fresh.metadata.uid != d.metadata.uid:
                raise RuntimeError(sprintf("original Deployment %v/%v is gone: got uid %v, wanted %v",
                                           d.metadata.namespace, d.metadata.name, fresh.metadata.uid, d.metadata.uid))
            return fresh

        can_adopt_func = recheck_deletion_timestamp(get_fresh)
        cm = new_replica_set_controller_ref_manager(self.rs_control, d, deployment_selector, CONTROLLER_KIND,
                                                    can_adopt_func)
        return cm.claim_replica_sets(rs_list)

    def get_pod_map_for_deployment(self, d: Any, rs_list: list[Any]) -> PodMap:
        """The pods of the Deployment, grouped by the replica set that controls them.

        Go: ``getPodMapForDeployment`` — deployment_controller.go#L520-L554
        """
        # Get all Pods that potentially belong to this Deployment.
        selector = metav1.label_selector_as_selector(d.spec.selector)
        pods = self.pod_lister.pods(d.metadata.namespace).list(selector)
        # Group Pods by their controller (if it's in rsList).
        pod_map: PodMap = {}
        for rs in rs_list:
            pod_map[rs.metadata.uid] = []
        for pod in pods:
            # Ignore inactive Pods since that's what ReplicaSet does.
            if not controller.is_pod_active(pod):
                continue
            controller_ref = get_controller_of(pod)
            if controller_ref is None:
                continue
            # Only append if we care about this UID.
            if controller_ref.uid in pod_map:
                pod_map[controller_ref.uid].append(pod)
        return pod_map

    def sync_deployment(self, key: str) -> None:
        """Sync one Deployment (see the module docstring for what it decides).

        Go: ``syncDeployment`` — deployment_controller.go#L556-L686
        """
        start_time = sim.now()
        glog.v(4).infof("Started syncing deployment %q (%v)", key, start_time)
        try:
            self._sync_deployment_body(key)
        finally:
            glog.v(4).infof("Finished syncing deployment %q (%v)", key, f"{sim.now() - start_time:g}s")

    def _sync_deployment_body(self, key: str) -> None:
        """``syncDeployment`` after its deferred log line (deployment_controller.go#L556-L686).

        Differs from Go: one Go function, split in two so the ``defer`` above is a ``finally``
        around this whole body.
        """
        namespace, name = split_meta_namespace_key(key)
        try:
            deployment = self.d_lister.deployments(namespace).get(name)
        except PANICS:
            raise
        except Exception as err:
            if is_not_found(err):
                glog.v(2).infof("Deployment %v has been deleted", key)
                return
            handle_error(RuntimeError(sprintf("Unable to retrieve deployment %v from store: %v", key, err)))
            raise
        # Deep-copy otherwise we are mutating our cache.
        d = util.deployment_deep_copy(deployment)
        everything = metav1.LabelSelector()
        if d.spec.selector == everything:
            self.event_recorder.eventf(d, "Warning", "SelectingAll",
                                       "This deployment is selecting all pods. A non-empty selector is required.")
            if d.status.observed_generation < d.metadata.generation:
                d = attrs.evolve(d, status=attrs.evolve(d.status, observed_generation=d.metadata.generation))
                try:
                    self.client.extensions().deployments(d.metadata.namespace).update_status(d)
                except PANICS:
                    raise
                except Exception:  # noqa: BLE001, S110 - Go ignores the error of this write
                    pass
            return
        # This is the point at which we used to add/remove the overlap annotation.
        # Now we always remove it if it exists, because it is obsolete as of 1.6.
        if util.OVERLAP_ANNOTATION in d.metadata.annotations:
            annotations = {k: v for k, v in d.metadata.annotations.items() if k != util.OVERLAP_ANNOTATION}
            d = attrs.evolve(d, metadata=attrs.evolve(d.metadata, annotations=annotations))
            try:
                d = self.client.extensions_v1beta1().deployments(d.metadata.namespace).update_status(d)
            except PANICS:
                raise
            except Exception as err:
                raise RuntimeError(sprintf("couldn't remove obsolete overlap annotation from deployment %v: %v",
                                           key, err)) from err
        # List ReplicaSets owned by this Deployment, while reconciling ControllerRef
        # through adoption/orphaning.
        rs_list = self.get_replica_sets_for_deployment(d)
        # List all Pods owned by this Deployment, grouped by their ReplicaSet.
        pod_map = self.get_pod_map_for_deployment(d, rs_list)
        if d.metadata.deletion_timestamp is not None:
            self.sync_status_only(d, rs_list, pod_map)
            return
        # The cleanup policy runs only when there is no rollback request.
        if d.spec.rollback_to is None:
            _, old_rss, d = self.get_all_replica_sets_and_sync_revision(d, rs_list, pod_map, False)
            # So far the cleanup policy was executed once a deployment was paused, scaled up/down, or it
            # succesfully completed deploying a replica set. Decouple it from the strategies and have it
            # run almost unconditionally - cleanupDeployment is safe by default.
            try:
                self.cleanup_deployment(old_rss, d)
            except PANICS:
                raise
            except Exception:  # noqa: BLE001, S110 - Go ignores cleanupDeployment's error here
                pass
        # Update deployment conditions with an Unknown condition when pausing/resuming a deployment.
        d = self.check_paused_conditions(d)
        _, d = self.has_failed(d, rs_list, pod_map)
        if d.spec.paused:
            self.sync(d, rs_list, pod_map)
            return
        # rollback is not re-entrant in case the underlying replica sets are updated with a new
        # revision so we should ensure that we won't proceed to update replica sets until we
        # make sure that the deployment has cleaned up its rollback spec in subsequent enqueues.
        if d.spec.rollback_to is not None:
            self.rollback(d, rs_list, pod_map)
            return
        scaling_event, d = self.is_scaling_event(d, rs_list, pod_map)
        if scaling_event:
            self.sync(d, rs_list, pod_map)
            return
        if d.spec.strategy.type == RECREATE_DEPLOYMENT_STRATEGY_TYPE:
            self.rollout_recreate(d, rs_list, pod_map)
            return
        if d.spec.strategy.type == ROLLING_UPDATE_DEPLOYMENT_STRATEGY_TYPE:
            self.rollout_rolling(d, rs_list, pod_map)
            return
        raise RuntimeError(sprintf("unexpected deployment strategy type: %s", d.spec.strategy.type))


def new_deployment_controller(d_informer: Any, rs_informer: Any, pod_informer: Any, client: Any) -> DeploymentController:
    """Go: ``NewDeploymentController`` — deployment_controller.go#L95-L140."""
    event_broadcaster = new_broadcaster()
    event_broadcaster.start_logging(glog.infof)
    event_broadcaster.start_recording_to_sink(EventSinkImpl(client))
    dc = DeploymentController(
        client=client,
        event_recorder=event_broadcaster.new_recorder(EventSource(component="deployment-controller")),
        queue=new_named_rate_limiting_queue(default_controller_rate_limiter(), "deployment"),
    )
    dc.rs_control = controller.RealRSControl(kube_client=client, recorder=dc.event_recorder)
    d_informer.informer().add_event_handler(ResourceEventHandlerFuncs(
        add_func=dc.add_deployment,
        update_func=dc.update_deployment,
        # This will enter the sync loop and no-op, because the deployment has been deleted from the store.
        delete_func=dc.delete_deployment,
    ))
    rs_informer.informer().add_event_handler(ResourceEventHandlerFuncs(
        add_func=dc.add_replica_set,
        update_func=dc.update_replica_set,
        delete_func=dc.delete_replica_set,
    ))
    pod_informer.informer().add_event_handler(ResourceEventHandlerFuncs(delete_func=dc.delete_pod))
    dc.sync_handler = dc.sync_deployment
    dc.enqueue_deployment = dc.enqueue
    dc.d_lister = d_informer.lister()
    dc.rs_lister = rs_informer.lister()
    dc.pod_lister = pod_informer.lister()
    dc.d_lister_synced = d_informer.informer().has_synced
    dc.rs_lister_synced = rs_informer.informer().has_synced
    dc.pod_lister_synced = pod_informer.informer().has_synced
    return dc


__all__ = ["CONTROLLER_KIND", "DeploymentController", "MAX_RETRIES", "PodMap", "new_deployment_controller"]
