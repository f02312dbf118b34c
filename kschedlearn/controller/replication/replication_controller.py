"""The ReplicationManager: keeps each ReplicationController at ``spec.replicas`` pods.

Go: pkg/controller/replication/replication_controller.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/controller/replication/replication_controller.go

Informer handlers turn RC and pod events into RC keys on a rate-limited work queue; ``workers``
goroutines pop keys and run ``sync_replication_controller``: list the namespace's pods, claim
them by ControllerRef (adopting matching orphans), and — once the expectations of the previous
round were observed — create or delete the difference, at most ``burst_replicas`` (500) at a
time, each create in a goroutine of its own. There is no slow-start batching in 1.6 (it came
in 1.7): a diff of 50 sends 50 creates at once, limited only by the client's QPS (20, burst
30), and the scheduler's podQueue receives them as fast as they are stored.

Differs from Go: errors are raised; Go's ``defer`` becomes ``try``/``finally``; the metrics
registration of the rate limiter is not mirrored; ``api.Scheme.DeepCopy`` of the RC is not
needed (values are frozen). Go's ``sync.WaitGroup`` and error channel are the runtime's.
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
from kschedlearn.controller.replication.replication_controller_utils import (
    calculate_status,
    update_replication_controller_status,
)
from kschedlearn.trace import glog
from kschedlearn.trace.util_trace import new_trace
from kschedlearn.trace.gofmt import sprintf

BURST_REPLICAS = 500
"""Go: ``BurstReplicas`` — replication_controller.go#L50-L52."""

CONTROLLER_KIND = ("v1", "ReplicationController")
"""Go: ``controllerKind`` — replication_controller.go#L58-L59 (group/version, kind)."""


@attrs.define(eq=False)
class ReplicationManager:
    """Go: ``ReplicationManager`` — replication_controller.go#L61-L88."""

    kube_client: Any
    pod_control: Any
    burst_replicas: int
    expectations: controller.UIDTrackingControllerExpectations
    queue: RateLimitingType
    sync_handler: Any = None
    rc_lister: Any = None
    rc_lister_synced: Any = None
    pod_lister: Any = None
    pod_lister_synced: Any = None

    def run(self, workers: int, stop_ch: sim.Chan) -> None:
        """Wait for the caches, then run ``workers`` worker goroutines until ``stop_ch`` closes.

        Go: ``(*ReplicationManager).Run`` — replication_controller.go#L145-L163
        """
        with handle_crash():
            try:
                glog.infof("Starting RC Manager")
                if not wait_for_cache_sync(stop_ch, self.pod_lister_synced, self.rc_lister_synced):
                    handle_error(RuntimeError("timed out waiting for caches to sync"))
                    return
                for _ in range(workers):
                    sim.go(wait.until, self.worker, 1.0, stop_ch, name="replicationmanager worker")
                stop_ch.recv()
                glog.infof("Shutting down RC Manager")
            finally:
                self.queue.shut_down()

    def get_pod_controllers(self, pod: Any) -> list[Any] | None:
        """The RCs selecting the pod (more than one is a user error). Go: replication_controller.go#L165-L177."""
        try:
            rcs = self.rc_lister.get_pod_controllers(pod)
        except PANICS:
            raise
        except Exception:  # noqa: BLE001 - Go returns nil on the error
            return None
        if len(rcs) > 1:
            # ControllerRef will ensure we don't do anything crazy, but more than one
            # item in this list nevertheless constitutes user error.
            handle_error(RuntimeError(sprintf(
                "user error! more than one ReplicationController is selecting pods with labels: %+v",
                pod.metadata.labels)))
        return rcs

    def resolve_controller_ref(self, namespace: str, controller_ref: OwnerReference) -> Any:
        """The RC a ControllerRef names, if it is of our kind and its UID matches.

        Go: ``resolveControllerRef`` — replication_controller.go#L179-L198
        """
        # We can't look up by UID, so look up by Name and then verify UID.
        # Don't even try to look up by Name if it's the wrong Kind.
        if controller_ref.kind != CONTROLLER_KIND[1]:
            return None
        try:
            rc = self.rc_lister.replication_controllers(namespace).get(controller_ref.name)
        except PANICS:
            raise
        except Exception:  # noqa: BLE001 - Go returns nil on the error
            return None
        if rc.metadata.uid != controller_ref.uid:
            # The controller we found with this Name is not the same one that the ControllerRef points to.
            return None
        return rc

    def update_rc(self, old: Any, cur: Any) -> None:
        """Go: ``updateRC`` — replication_controller.go#L200-L225."""
        old_rc, cur_rc = old, cur
        # TODO: Remove when #31981 is resolved!
        glog.infof("Observed updated replication controller %v. Desired pod count change: %d->%d",
                   cur_rc.metadata.name, old_rc.spec.replicas, cur_rc.spec.replicas)
        if old_rc.status.replicas != cur_rc.status.replicas:
            glog.v(4).infof("Observed updated replica count for rc: %v, %d->%d", cur_rc.metadata.name,
                            old_rc.status.replicas, cur_rc.status.replicas)
        self.enqueue_controller(cur)

    def add_pod(self, obj: Any) -> None:
        """A pod appeared: observe the creation for its RC, or wake the RCs that may adopt it.

        Go: ``addPod`` — replication_controller.go#L227-L266
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
            rc = self.resolve_controller_ref(pod.metadata.namespace, controller_ref)
            if rc is None:
                return
            rs_key = controller.key_func(rc)
            glog.v(4).infof("Pod %s created: %#v.", pod.metadata.name, pod)
            self.expectations.creation_observed(rs_key)
            self.enqueue_controller(rc)
            return
        # Otherwise, it's an orphan. Get a list of all matching ReplicationControllers and sync
        # them to see if anyone wants to adopt it.
        rcs = self.get_pod_controllers(pod)
        if not rcs:
            return
        glog.v(4).infof("Orphan Pod %s created: %#v.", pod.metadata.name, pod)
        for rc in rcs:
            self.enqueue_controller(rc)

    def update_pod(self, old: Any, cur: Any) -> None:
        """Go: ``updatePod`` — replication_controller.go#L268-L341."""
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
            rc = self.resolve_controller_ref(old_pod.metadata.namespace, old_controller_ref)
            if rc is not None:
                self.enqueue_controller(rc)
        # If it has a ControllerRef, that's all that matters.
        if cur_controller_ref is not None:
            rc = self.resolve_controller_ref(cur_pod.metadata.namespace, cur_controller_ref)
            if rc is None:
                return
            glog.v(4).infof("Pod %s updated, objectMeta %+v -> %+v.", cur_pod.metadata.name, old_pod.metadata,
                            cur_pod.metadata)
            self.enqueue_controller(rc)
            if not is_pod_ready(old_pod) and is_pod_ready(cur_pod) and rc.spec.min_ready_seconds > 0:
                glog.v(2).infof("ReplicationController %q will be enqueued after %ds for availability check",
                                rc.metadata.name, rc.spec.min_ready_seconds)
                # Add a second to avoid milliseconds skew in AddAfter.
                self.enqueue_controller_after(rc, float(rc.spec.min_ready_seconds) + 1.0)
            return
        # Otherwise, it's an orphan. If anything changed, sync matching controllers
        # to see if anyone wants to adopt it now.
        if label_changed or controller_ref_changed:
            rcs = self.get_pod_controllers(cur_pod)
            if not rcs:
                return
            glog.v(4).infof("Orphan Pod %s updated, objectMeta %+v -> %+v.", cur_pod.metadata.name,
                            old_pod.metadata, cur_pod.metadata)
            for rc in rcs:
                self.enqueue_controller(rc)

    def delete_pod(self, obj: Any) -> None:
        """A pod went (or a tombstone for it): observe the deletion for its RC.

        Go: ``deletePod`` — replication_controller.go#L343-L381
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
        rc = self.resolve_controller_ref(pod.metadata.namespace, controller_ref)
        if rc is None:
            return
        rs_key = controller.key_func(rc)
        glog.v(4).infof("Pod %s/%s deleted through %v, timestamp %+v: %#v.", pod.metadata.namespace,
                        pod.metadata.name, "deletePod", pod.metadata.deletion_timestamp, pod)
        self.expectations.deletion_observed(rs_key, controller.pod_key(pod))
        self.enqueue_controller(rc)

    def enqueue_controller(self, obj: Any) -> None:
        """Go: ``enqueueController`` — replication_controller.go#L383-L391."""
        try:
            key = controller.key_func(obj)
        except PANICS:
            raise
        except Exception as err:  # noqa: BLE001 - Go reports and gives up
            handle_error(RuntimeError(sprintf("couldn't get key for object %+v: %v", obj, err)))
            return
        self.queue.add(key)

    def enqueue_controller_after(self, obj: Any, after: float) -> None:
        """Go: ``enqueueControllerAfter`` — replication_controller.go#L393-L401."""
        try:
            key = controller.key_func(obj)
        except PANICS:
            raise
        except Exception as err:  # noqa: BLE001 - Go reports and gives up
            handle_error(RuntimeError(sprintf("couldn't get key for object %+v: %v", obj, err)))
            return
        self.queue.add_after(key, after)

    def worker(self) -> None:
        """Go: ``worker`` — replication_controller.go#L403-L409."""
        while self.process_next_work_item():
            pass
        glog.infof("replication controller worker shutting down")

    def process_next_work_item(self) -> bool:
        """Pop one key, sync it, forget or rate-limit it. Go: ``processNextWorkItem`` — replication_controller.go#L411-L427."""
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

    def manage_replicas(self, filtered_pods: Sequence[Any], rc: Any) -> None:
        """Create or delete the difference between the pods owned and ``spec.replicas``.

        Go: ``manageReplicas`` — replication_controller.go#L429-L547
        """
        diff = len(filtered_pods) - rc.spec.replicas
        rc_key = controller.key_func(rc)
        if diff == 0:
            return
        if diff < 0:
            diff *= -1
            if diff > self.burst_replicas:
                diff = self.burst_replicas
            err_ch = sim.Chan(diff, name="errCh")
            self.expectations.expect_creations(rc_key, diff)
            wg = sim.WaitGroup()
            wg.add(diff)
            glog.v(2).infof("Too few %q/%q replicas, need %d, creating %d", rc.metadata.namespace, rc.metadata.name,
                            rc.spec.replicas, diff)

            def create() -> None:
                try:
                    controller_ref = OwnerReference(api_version=CONTROLLER_KIND[0], kind=CONTROLLER_KIND[1],
                                                    name=rc.metadata.name, uid=rc.metadata.uid,
                                                    block_owner_deletion=True, controller=True)
                    try:
                        self.pod_control.create_pods_with_controller_ref(rc.metadata.namespace, rc.spec.template,
                                                                         rc, controller_ref)
                    except PANICS:
                        raise
                    except Exception as err:  # noqa: BLE001 - Go: err != nil
                        # Decrement the expected number of creates because the informer won't observe this pod
                        glog.v(2).infof("Failed creation, decrementing expectations for controller %q/%q",
                                        rc.metadata.namespace, rc.metadata.name)
                        self.expectations.creation_observed(rc_key)
                        err_ch.send(err)
                        handle_error(err)
                finally:
                    wg.done()

            for _ in range(diff):
                sim.go(create, name=f"create pod for rc {rc_key}")
            wg.wait()
            index, err, _ = sim.select(("recv", err_ch), default=True)
            if index == 0 and err is not None:
                # all errors have been reported before and they're likely to be the same, so we'll only return the first one we hit.
                raise err
            return
        if diff > self.burst_replicas:
            diff = self.burst_replicas
        glog.v(2).infof("Too many %q/%q replicas, need %d, deleting %d", rc.metadata.namespace, rc.metadata.name,
                        rc.spec.replicas, diff)
        filtered_pods = list(filtered_pods)
        # No need to sort pods if we are about to delete all of them
        if rc.spec.replicas != 0:
            # Sort the pods in the order such that not-ready < ready, unscheduled
            # < scheduled, and pending < running.
            controller.sort_active_pods(filtered_pods)
        # Snapshot the UIDs (ns/name) of the pods we're expecting to see deleted.
        deleted_pod_keys = []
        for i in range(diff):
            deleted_pod_keys.append(controller.pod_key(filtered_pods[i]))
        err_ch = sim.Chan(diff, name="errCh")
        self.expectations.expect_deletions(rc_key, deleted_pod_keys)
        wg = sim.WaitGroup()
        wg.add(diff)

        def delete(ix: int) -> None:
            try:
                try:
                    self.pod_control.delete_pod(rc.metadata.namespace, filtered_pods[ix].metadata.name, rc)
                except PANICS:
                    raise
                except Exception as err:  # noqa: BLE001 - Go: err != nil
                    # Decrement the expected number of deletes because the informer won't observe this deletion
                    pod_key = controller.pod_key(filtered_pods[ix])
                    glog.v(2).infof("Failed to delete %v due to %v, decrementing expectations for controller %q/%q",
                                    pod_key, err, rc.metadata.namespace, rc.metadata.name)
                    self.expectations.deletion_observed(rc_key, pod_key)
                    err_ch.send(err)
                    handle_error(err)
            finally:
                wg.done()

        for i in range(diff):
            sim.go(delete, i, name=f"delete pod for rc {rc_key}")
        wg.wait()
        index, err, _ = sim.select(("recv", err_ch), default=True)
        if index == 0 and err is not None:
            raise err

    def sync_replication_controller(self, key: str) -> None:
        """Sync one RC: claim its pods, fix the count if expectations allow, write its status.

        Go: ``syncReplicationController`` — replication_controller.go#L549-L640
        """
        trace = new_trace("syncReplicationController: " + key)
        start_time = sim.now()
        try:
            namespace, name = split_meta_namespace_key(key)
            try:
                rc = self.rc_lister.replication_controllers(namespace).get(name)
            except PANICS:
                raise
            except Exception as err:
                if is_not_found(err):
                    glog.infof("Replication Controller has been deleted %v", key)
                    self.expectations.delete_expectations(key)
                    return
                raise
            trace.step("ReplicationController restored")
            rc_needs_sync = self.expectations.satisfied_expectations(key)
            trace.step("Expectations restored")
            # list all pods to include the pods that don't match the rc's selector
            # anymore but has the stale controller ref.
            all_pods = self.pod_lister.pods(rc.metadata.namespace).list(labels.everything())
            # Ignore inactive pods.
            filtered_pods = []
            for pod in all_pods:
                if controller.is_pod_active(pod):
                    filtered_pods.append(pod)

            # If any adoptions are attempted, we should first recheck for deletion with
            # an uncached quorum read sometime after listing Pods (see #42639).
            def get_fresh() -> Any:
                fresh = self.kube_client.core_v1().replication_controllers(rc.metadata.namespace).get(rc.metadata.name)
                if fresh.metadata.uid != rc.metadata.uid:
                    raise RuntimeError(sprintf("original ReplicationController %v/%v is gone: got uid %v, wanted %v",
                                               rc.metadata.namespace, rc.metadata.name, fresh.metadata.uid,
                                               rc.metadata.uid))
                return fresh

            can_adopt_func = recheck_deletion_timestamp(get_fresh)
            cm = new_pod_controller_ref_manager(self.pod_control, rc, Set(rc.spec.selector).as_selector_pre_validated(),
                                                CONTROLLER_KIND, can_adopt_func)
            # NOTE: filteredPods are pointing to objects from cache - if you need to
            # modify them, you need to copy it first.
            filtered_pods = cm.claim_pods(filtered_pods)
            manage_replicas_err: BaseException | None = None
            if rc_needs_sync and rc.metadata.deletion_timestamp is None:
                try:
                    self.manage_replicas(filtered_pods, rc)
                except PANICS:
                    raise
                except Exception as err:  # noqa: BLE001 - Go keeps manageReplicasErr
                    manage_replicas_err = err
            trace.step("manageReplicas done")
            new_status = calculate_status(rc, filtered_pods, manage_replicas_err)
            # Always updates status as pods come up or die.
            # (Multiple things could lead to this update failing; the error causes a requeue.)
            updated_rc = update_replication_controller_status(
                self.kube_client.core().replication_controllers(rc.metadata.namespace), rc, new_status)
            # Resync the ReplicationController after MinReadySeconds as a last line of defense to guard against clock-skew.
            if (manage_replicas_err is None and updated_rc.spec.min_ready_seconds > 0
                    and updated_rc.status.ready_replicas == updated_rc.spec.replicas
                    and updated_rc.status.available_replicas != updated_rc.spec.replicas):
                self.enqueue_controller_after(updated_rc, float(updated_rc.spec.min_ready_seconds))
            if manage_replicas_err is not None:
                raise manage_replicas_err
        finally:
            glog.v(4).infof("Finished syncing controller %q (%v)", key, _duration(sim.now() - start_time))
            trace.log_if_long(0.25)


def _duration(seconds: float) -> str:
    """Go's ``time.Duration.String()`` for the log line (``0s``, ``1.5s``)."""
    return f"{seconds:g}s"


def new_replication_manager(pod_informer: Any, rc_informer: Any, kube_client: Any,
                            burst_replicas: int) -> ReplicationManager:
    """Wire the manager to its informers, client, recorder and queue.

    Go: ``NewReplicationManager`` — replication_controller.go#L90-L135
    """
    event_broadcaster = new_broadcaster()
    event_broadcaster.start_logging(glog.infof)
    event_broadcaster.start_recording_to_sink(EventSinkImpl(kube_client))
    rm = ReplicationManager(
        kube_client=kube_client,
        pod_control=controller.RealPodControl(
            kube_client=kube_client,
            recorder=event_broadcaster.new_recorder(EventSource(component="replication-controller"))),
        burst_replicas=burst_replicas,
        expectations=controller.new_uid_tracking_controller_expectations(controller.new_controller_expectations()),
        queue=new_named_rate_limiting_queue(default_controller_rate_limiter(), "replicationmanager"),
    )
    rc_informer.informer().add_event_handler(ResourceEventHandlerFuncs(
        add_func=rm.enqueue_controller,
        update_func=rm.update_rc,
        # This will enter the sync loop and no-op, because the controller has been deleted from the store.
        delete_func=rm.enqueue_controller,
    ))
    rm.rc_lister = rc_informer.lister()
    rm.rc_lister_synced = rc_informer.informer().has_synced
    pod_informer.informer().add_event_handler(ResourceEventHandlerFuncs(
        add_func=rm.add_pod,
        # This invokes the rc for every pod change, eg: host assignment.
        update_func=rm.update_pod,
        delete_func=rm.delete_pod,
    ))
    rm.pod_lister = pod_informer.lister()
    rm.pod_lister_synced = pod_informer.informer().has_synced
    rm.sync_handler = rm.sync_replication_controller
    return rm


__all__ = ["BURST_REPLICAS", "CONTROLLER_KIND", "ReplicationManager", "new_replication_manager"]
