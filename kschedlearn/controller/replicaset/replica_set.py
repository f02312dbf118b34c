"""The ReplicaSet controller: keeps each ReplicaSet at ``spec.replicas`` pods.

Go: pkg/controller/replicaset/replica_set.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/controller/replicaset/replica_set.go

The twin of :mod:`kschedlearn.controller.replication.replication_controller` (Go keeps two
copies that differ in the selector type and a few lines; so does the mirror).
Informer handlers turn ReplicaSet and pod events into keys on a rate-limited work queue; ``workers``
goroutines pop keys and run ``sync_replication_controller``: list the namespace's pods, claim
them by ControllerRef (adopting matching orphans), and — once the expectations of the previous
round were observed — create or delete the difference, at most ``burst_replicas`` (500) at a
time, each create in a goroutine of its own. There is no slow-start batching in 1.6 (it came
in 1.7): a diff of 50 sends 50 creates at once, limited only by the client's QPS (20, burst
30), and the scheduler's podQueue receives them as fast as they are stored.

Differs from Go: errors are raised; Go's ``defer`` becomes ``try``/``finally``; the metrics
registration of the rate limiter is not mirrored; ``api.Scheme.DeepCopy`` of the RC is not
needed (values are frozen). Go's ``sync.WaitGroup`` and error channel are the runtime's. The
Deployment controller's replica sets are kept by this controller.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from kschedlearn import sim
from kschedlearn.api.v1 import EventSource, OwnerReference, is_pod_ready
from kschedlearn.apimachinery import labels
from kschedlearn.apimachinery.api.errors import is_not_found
from kschedlearn.apimachinery.labels import Set
from kschedlearn.apimachinery.util import wait
from kschedlearn.apimachinery.util.runtime import PANICS, handle_crash, handle_error
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
    new_pod_controller_ref_manager,
    recheck_deletion_timestamp,
)
from kschedlearn.apimachinery.apis.meta import v1 as metav1
from kschedlearn.controller.replicaset.replica_set_utils import calculate_status, update_replica_set_status
from kschedlearn.trace import glog
from kschedlearn.trace.gofmt import sprintf

BURST_REPLICAS = 500
"""Go: ``BurstReplicas`` — replica_set.go#L53-L55."""

CONTROLLER_KIND = ("extensions/v1beta1", "ReplicaSet")
"""Go: ``controllerKind`` — replica_set.go#L61-L62 (group/version, kind)."""


@attrs.define(eq=False)
class ReplicaSetController:
    """Go: ``ReplicaSetController`` — replica_set.go#L64-L93."""

    kube_client: Any
    pod_control: Any
    burst_replicas: int
    expectations: controller.UIDTrackingControllerExpectations
    queue: RateLimitingType
    sync_handler: Any = None
    rs_lister: Any = None
    rs_lister_synced: Any = None
    pod_lister: Any = None
    pod_lister_synced: Any = None

    def run(self, workers: int, stop_ch: sim.Chan) -> None:
        """Wait for the caches, then run ``workers`` worker goroutines until ``stop_ch`` closes.

        Go: ``(*ReplicaSetController).Run`` — replica_set.go#L150-L168
        """
        with handle_crash():
            try:
                glog.infof("Starting ReplicaSet controller")
                if not wait_for_cache_sync(stop_ch, self.pod_lister_synced, self.rs_lister_synced):
                    handle_error(RuntimeError("timed out waiting for caches to sync"))
                    return
                for _ in range(workers):
                    sim.go(wait.until, self.worker, 1.0, stop_ch, name="replicaset worker")
                stop_ch.recv()
                glog.infof("Shutting down ReplicaSet Controller")
            finally:
                self.queue.shut_down()

    def get_pod_replica_sets(self, pod: Any) -> list[Any] | None:
        """The ReplicaSets selecting the pod (more than one is a user error). Go: replica_set.go#L170-L182."""
        try:
            rss = self.rs_lister.get_pod_replica_sets(pod)
        except PANICS:
            raise
        except Exception:  # noqa: BLE001 - Go returns nil on the error
            return None
        if len(rss) > 1:
            # ControllerRef will ensure we don't do anything crazy, but more than one
            # item in this list nevertheless constitutes user error.
            handle_error(RuntimeError(sprintf(
                "user error! more than one ReplicaSet is selecting pods with labels: %+v", pod.metadata.labels)))
        return rss

    def resolve_controller_ref(self, namespace: str, controller_ref: OwnerReference) -> Any:
        """The ReplicaSet a ControllerRef names, if it is of our kind and its UID matches.

        Go: ``resolveControllerRef`` — replica_set.go#L184-L203
        """
        # We can't look up by UID, so look up by Name and then verify UID.
        # Don't even try to look up by Name if it's the wrong Kind.
        if controller_ref.kind != CONTROLLER_KIND[1]:
            return None
        try:
            rs = self.rs_lister.replica_sets(namespace).get(controller_ref.name)
        except PANICS:
            raise
        except Exception:  # noqa: BLE001 - Go returns nil on the error
            return None
        if rs.metadata.uid != controller_ref.uid:
            # The controller we found with this Name is not the same one that the ControllerRef points to.
            return None
        return rs

    def update_rs(self, old: Any, cur: Any) -> None:
        """Go: ``updateRS`` — replica_set.go#L205-L226."""
        old_rs, cur_rs = old, cur
        if old_rs.status.replicas != cur_rs.status.replicas:
            glog.v(4).infof("Observed updated replica count for ReplicaSet: %v, %d->%d", cur_rs.metadata.name,
                            old_rs.status.replicas, cur_rs.status.replicas)
        self.enqueue_replica_set(cur)

    def add_pod(self, obj: Any) -> None:
        """A pod appeared: observe the creation for its ReplicaSet, or wake those that may adopt it.

        Go: ``addPod`` — replica_set.go#L228-L267
        """
        pod = obj
        if pod.metadata.deletion_timestamp is not None:
            # on a restart of the controller manager, it's possible a new pod shows up in a state that
            # is already pending deletion. Prevent the pod from being a creation observation.
            self.delete_pod(pod)
            return
        # If it has a ControllerRef, that's all that matters.
        controller_ref = get_controller_of(pod)
        if controller_ref is not None:
            rs = self.resolve_controller_ref(pod.metadata.namespace, controller_ref)
            if rs is None:
                return
            rs_key = controller.key_func(rs)
            glog.v(4).infof("Pod %s created: %#v.", pod.metadata.name, pod)
            self.expectations.creation_observed(rs_key)
            self.enqueue_replica_set(rs)
            return
        # Otherwise, it's an orphan. Get a list of all matching ReplicaSets and sync
        # them to see if anyone wants to adopt it.
        rss = self.get_pod_replica_sets(pod)
        if not rss:
            return
        glog.v(4).infof("Orphan Pod %s created: %#v.", pod.metadata.name, pod)
        for rs in rss:
            self.enqueue_replica_set(rs)

    def update_pod(self, old: Any, cur: Any) -> None:
        """Go: ``updatePod`` — replica_set.go#L269-L342."""
        cur_pod, old_pod = cur, old
        if cur_pod.metadata.resource_version == old_pod.metadata.resource_version:
            # Periodic resync will send update events for all known pods.
            return
        label_changed = cur_pod.metadata.labels != old_pod.metadata.labels
        if cur_pod.metadata.deletion_timestamp is not None:
            # A graceful delete first sets the deletion timestamp: treat it as the delete.
            self.delete_pod(cur_pod)
            if label_changed:
                # we don't need to check the oldPod.DeletionTimestamp because DeletionTimestamp cannot be unset.
                self.delete_pod(old_pod)
            return
        cur_controller_ref = get_controller_of(cur_pod)
        old_controller_ref = get_controller_of(old_pod)
        controller_ref_changed = cur_controller_ref != old_controller_ref
        if controller_ref_changed and old_controller_ref is not None:
            # The ControllerRef was changed. Sync the old controller, if any.
            rs = self.resolve_controller_ref(old_pod.metadata.namespace, old_controller_ref)
            if rs is not None:
                self.enqueue_replica_set(rs)
        # If it has a ControllerRef, that's all that matters.
        if cur_controller_ref is not None:
            rs = self.resolve_controller_ref(cur_pod.metadata.namespace, cur_controller_ref)
            if rs is None:
                return
            glog.v(4).infof("Pod %s updated, objectMeta %+v -> %+v.", cur_pod.metadata.name, old_pod.metadata,
                            cur_pod.metadata)
            self.enqueue_replica_set(rs)
            if not is_pod_ready(old_pod) and is_pod_ready(cur_pod) and rs.spec.min_ready_seconds > 0:
                glog.v(2).infof("ReplicaSet %q will be enqueued after %ds for availability check",
                                rs.metadata.name, rs.spec.min_ready_seconds)
                # Add a second to avoid milliseconds skew in AddAfter.
                self.enqueue_replica_set_after(rs, float(rs.spec.min_ready_seconds) + 1.0)
            return
        # Otherwise, it's an orphan. If anything changed, sync matching controllers
        # to see if anyone wants to adopt it now.
        if label_changed or controller_ref_changed:
            rss = self.get_pod_replica_sets(cur_pod)
            if not rss:
                return
            glog.v(4).infof("Orphan Pod %s updated, objectMeta %+v -> %+v.", cur_pod.metadata.name,
                            old_pod.metadata, cur_pod.metadata)
            for rs in rss:
                self.enqueue_replica_set(rs)

    def delete_pod(self, obj: Any) -> None:
        """A pod went (or a tombstone for it): observe the deletion for its ReplicaSet.

        Go: ``deletePod`` — replica_set.go#L344-L382
        """
        pod = obj
        if isinstance(obj, DeletedFinalStateUnknown):
            pod = obj.obj
            if getattr(type(pod), "kind", "") != "Pod":
                handle_error(RuntimeError(sprintf("tombstone contained object that is not a pod %#v", obj)))
                return
        elif getattr(type(obj), "kind", "") != "Pod":
            handle_error(RuntimeError(sprintf("couldn't get object from tombstone %+v", obj)))
            return
        controller_ref = get_controller_of(pod)
        if controller_ref is None:
            # No controller should care about orphans being deleted.
            return
        rs = self.resolve_controller_ref(pod.metadata.namespace, controller_ref)
        if rs is None:
            return
        rs_key = controller.key_func(rs)
        glog.v(4).infof("Pod %s/%s deleted through %v, timestamp %+v: %#v.", pod.metadata.namespace,
                        pod.metadata.name, "deletePod", pod.metadata.deletion_timestamp, pod)
        self.expectations.deletion_observed(rs_key, controller.pod_key(pod))
        self.enqueue_replica_set(rs)

    def enqueue_replica_set(self, obj: Any) -> None:
        """Go: ``enqueueReplicaSet`` — replica_set.go#L384-L392."""
        try:
            key = controller.key_func(obj)
        except PANICS:
            raise
        except Exception as err:  # noqa: BLE001 - Go reports and gives up
            handle_error(RuntimeError(sprintf("couldn't get key for object %+v: %v", obj, err)))
            return
        self.queue.add(key)

    def enqueue_replica_set_after(self, obj: Any, after: float) -> None:
        """Go: ``enqueueReplicaSetAfter`` — replica_set.go#L394-L402."""
        try:
            key = controller.key_func(obj)
        except PANICS:
            raise
        except Exception as err:  # noqa: BLE001 - Go reports and gives up
            handle_error(RuntimeError(sprintf("couldn't get key for object %+v: %v", obj, err)))
            return
        self.queue.add_after(key, after)

    def worker(self) -> None:
        """Go: ``worker`` — replica_set.go#L404-L409."""
        while self.process_next_work_item():
            pass
        glog.infof("replica set worker shutting down")

    def process_next_work_item(self) -> bool:
        """Pop one key, sync it, forget or rate-limit it. Go: ``processNextWorkItem`` — replica_set.go#L411-L428."""
        key, quit_ = self.queue.get()
        if quit_:
            return False
        try:
            try:
                self.sync_handler(key)
            except PANICS:
                raise
            except Exception as err:  # noqa: BLE001 - Go: err != nil
                self.queue.add_rate_limited(key)
                handle_error(err)
                return True
            self.queue.forget(key)
            return True
        finally:
            self.queue.done(key)

    def manage_replicas(self, filtered_pods: Sequence[Any], rs: Any) -> None:
        """Create or delete the difference between the pods owned and ``spec.replicas``.

        Go: ``manageReplicas`` — replica_set.go#L430-L529
        """
        diff = len(filtered_pods) - rs.spec.replicas
        try:
            rs_key = controller.key_func(rs)
        except PANICS:
            raise
        except Exception as err:  # noqa: BLE001 - Go reports and gives up
            handle_error(RuntimeError(sprintf("Couldn't get key for ReplicaSet %#v: %v", rs, err)))
            return
        if diff < 0:
            diff *= -1
            err_ch = sim.Chan(diff, name="errCh")
            if diff > self.burst_replicas:
                diff = self.burst_replicas
            self.expectations.expect_creations(rs_key, diff)
            wg = sim.WaitGroup()
            wg.add(diff)
            glog.v(2).infof("Too few %q/%q replicas, need %d, creating %d", rs.metadata.namespace, rs.metadata.name,
                            rs.spec.replicas, diff)

            def create() -> None:
                try:
                    controller_ref = OwnerReference(api_version=CONTROLLER_KIND[0], kind=CONTROLLER_KIND[1],
                                                    name=rs.metadata.name, uid=rs.metadata.uid,
                                                    block_owner_deletion=True, controller=True)
                    try:
                        self.pod_control.create_pods_with_controller_ref(rs.metadata.namespace, rs.spec.template,
                                                                         rs, controller_ref)
                    except PANICS:
                        raise
                    except Exception as err:  # noqa: BLE001 - Go: err != nil
                        # Decrement the expected number of creates because the informer won't observe this pod
                        glog.v(2).infof("Failed creation, decrementing expectations for replica set %q/%q",
                                        rs.metadata.namespace, rs.metadata.name)
                        self.expectations.creation_observed(rs_key)
                        err_ch.send(err)
                finally:
                    wg.done()

            for _ in range(diff):
                sim.go(create, name=f"create pod for rs {rs_key}")
            wg.wait()
        elif diff > 0:
            if diff > self.burst_replicas:
                diff = self.burst_replicas
            err_ch = sim.Chan(diff, name="errCh")
            glog.v(2).infof("Too many %q/%q replicas, need %d, deleting %d", rs.metadata.namespace, rs.metadata.name,
                            rs.spec.replicas, diff)
            filtered_pods = list(filtered_pods)
            # No need to sort pods if we are about to delete all of them
            if rs.spec.replicas != 0:
                # Sort the pods in the order such that not-ready < ready, unscheduled
                # < scheduled, and pending < running.
                controller.sort_active_pods(filtered_pods)
            # Snapshot the UIDs (ns/name) of the pods we're expecting to see deleted.
            deleted_pod_keys = []
            for i in range(diff):
                deleted_pod_keys.append(controller.pod_key(filtered_pods[i]))
            self.expectations.expect_deletions(rs_key, deleted_pod_keys)
            wg = sim.WaitGroup()
            wg.add(diff)

            def delete(ix: int) -> None:
                try:
                    try:
                        self.pod_control.delete_pod(rs.metadata.namespace, filtered_pods[ix].metadata.name, rs)
                    except PANICS:
                        raise
                    except Exception as err:  # noqa: BLE001 - Go: err != nil
                        # Decrement the expected number of deletes because the informer won't observe this deletion
                        pod_key = controller.pod_key(filtered_pods[ix])
                        glog.v(2).infof("Failed to delete %v, decrementing expectations for controller %q/%q",
                                        pod_key, rs.metadata.namespace, rs.metadata.name)
                        self.expectations.deletion_observed(rs_key, pod_key)
                        err_ch.send(err)
                finally:
                    wg.done()

            for i in range(diff):
                sim.go(delete, i, name=f"delete pod for rs {rs_key}")
            wg.wait()
        else:
            return
        index, err, _ = sim.select(("recv", err_ch), default=True)
        if index == 0 and err is not None:
            # all errors have been reported before and they're likely to be the same, so we'll only return the first one we hit.
            raise err

    def sync_replica_set(self, key: str) -> None:
        """Sync one ReplicaSet: claim its pods, fix the count if expectations allow, write its status.

        Go: ``syncReplicaSet`` — replica_set.go#L531-L622
        """
        start_time = sim.now()
        try:
            namespace, name = split_meta_namespace_key(key)
            try:
                rs = self.rs_lister.replica_sets(namespace).get(name)
            except PANICS:
                raise
            except Exception as err:
                if is_not_found(err):
                    glog.v(4).infof("ReplicaSet has been deleted %v", key)
                    self.expectations.delete_expectations(key)
                    return
                raise
            rs_needs_sync = self.expectations.satisfied_expectations(key)
            try:
                selector = metav1.label_selector_as_selector(rs.spec.selector)
            except ValueError as err:
                handle_error(RuntimeError(sprintf("Error converting pod selector to selector: %v", err)))
                return
            # list all pods to include the pods that don't match the rs`s selector
            # anymore but has the stale controller ref.
            all_pods = self.pod_lister.pods(rs.metadata.namespace).list(labels.everything())
            # Ignore inactive pods.
            filtered_pods = []
            for pod in all_pods:
                if controller.is_pod_active(pod):
                    filtered_pods.append(pod)

            # If any adoptions are attempted, we should first recheck for deletion with
            # an uncached quorum read sometime after listing Pods (see #42639).
            def get_fresh() -> Any:
                fresh = self.kube_client.extensions_v1beta1().replica_sets(rs.metadata.namespace).get(rs.metadata.name)
                if fresh.metadata.uid != rs.metadata.uid:
                    raise RuntimeError(sprintf("original ReplicaSet %v/%v is gone: got uid %v, wanted %v",
                                               rs.metadata.namespace, rs.metadata.name, fresh.metadata.uid,
                                               rs.metadata.uid))
                return fresh

            can_adopt_func = recheck_deletion_timestamp(get_fresh)
            cm = new_pod_controller_ref_manager(self.pod_control, rs, selector, CONTROLLER_KIND, can_adopt_func)
            # NOTE: filteredPods are pointing to objects from cache - if you need to
            # modify them, you need to copy it first.
            filtered_pods = cm.claim_pods(filtered_pods)
            manage_replicas_err: BaseException | None = None
            if rs_needs_sync and rs.metadata.deletion_timestamp is None:
                try:
                    self.manage_replicas(filtered_pods, rs)
                except PANICS:
                    raise
                except Exception as err:  # noqa: BLE001 - Go keeps manageReplicasErr
                    manage_replicas_err = err
            new_status = calculate_status(rs, filtered_pods, manage_replicas_err)
            # Always updates status as pods come up or die.
            # (Returning an error causes a requeue without forcing a hotloop.)
            updated_rs = update_replica_set_status(self.kube_client.extensions().replica_sets(rs.metadata.namespace),
                                                   rs, new_status)
            # Resync the ReplicaSet after MinReadySeconds as a last line of defense to guard against clock-skew.
            if (manage_replicas_err is None and updated_rs.spec.min_ready_seconds > 0
                    and updated_rs.status.ready_replicas == updated_rs.spec.replicas
                    and updated_rs.status.available_replicas != updated_rs.spec.replicas):
                self.enqueue_replica_set_after(updated_rs, float(updated_rs.spec.min_ready_seconds))
            if manage_replicas_err is not None:
                raise manage_replicas_err
        finally:
            glog.v(4).infof("Finished syncing replica set %q (%v)", key, _duration(sim.now() - start_time))


def _duration(seconds: float) -> str:
    """Go's ``time.Duration.String()`` for the log line (``0s``, ``1.5s``)."""
    return f"{seconds:g}s"


def new_replica_set_controller(rs_informer: Any, pod_informer: Any, kube_client: Any,
                               burst_replicas: int) -> ReplicaSetController:
    """Wire the controller to its informers, client, recorder and queue.

    Go: ``NewReplicaSetController`` — replica_set.go#L95-L140
    """
    event_broadcaster = new_broadcaster()
    event_broadcaster.start_logging(glog.infof)
    event_broadcaster.start_recording_to_sink(EventSinkImpl(kube_client))
    rsc = ReplicaSetController(
        kube_client=kube_client,
        pod_control=controller.RealPodControl(
            kube_client=kube_client,
            recorder=event_broadcaster.new_recorder(EventSource(component="replicaset-controller"))),
        burst_replicas=burst_replicas,
        expectations=controller.new_uid_tracking_controller_expectations(controller.new_controller_expectations()),
        queue=new_named_rate_limiting_queue(default_controller_rate_limiter(), "replicaset"),
    )
    rs_informer.informer().add_event_handler(ResourceEventHandlerFuncs(
        add_func=rsc.enqueue_replica_set,
        update_func=rsc.update_rs,
        # This will enter the sync loop and no-op, because the replica set has been deleted from the store.
        delete_func=rsc.enqueue_replica_set,
    ))
    rsc.rs_lister = rs_informer.lister()
    rsc.rs_lister_synced = rs_informer.informer().has_synced
    pod_informer.informer().add_event_handler(ResourceEventHandlerFuncs(
        add_func=rsc.add_pod,
        # This invokes the ReplicaSet for every pod change, eg: host assignment.
        update_func=rsc.update_pod,
        delete_func=rsc.delete_pod,
    ))
    rsc.pod_lister = pod_informer.lister()
    rsc.pod_lister_synced = pod_informer.informer().has_synced
    rsc.sync_handler = rsc.sync_replica_set
    return rsc


__all__ = ["BURST_REPLICAS", "CONTROLLER_KIND", "ReplicaSetController", "new_replica_set_controller"]
