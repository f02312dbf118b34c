"""The StatefulSet controller: ordered, stable pods ``<set>-0``, ``<set>-1``, … (beta in 1.6).

Go: pkg/controller/statefulset/stateful_set.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/controller/statefulset/stateful_set.go

Informer handlers enqueue the set of a pod (by ControllerRef, or the sets that may adopt an
orphan); one worker (hard-coded in 1.6's ``startStatefulSetController``) syncs a set: claim its
pods by ControllerRef and name (``isMemberOf``) and hand them to ``DefaultStatefulSetControl``,
which creates or deletes at most one pod per sync. The set informer resyncs every 30 s.

Differs from Go: errors are raised; Go's ``defer`` becomes ``try``/``finally``; ``utilruntime.GetCaller``
in a log line prints the function's Go name.
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
from kschedlearn.client_go.kubernetes.typed.core.v1.event_expansion import EventSinkImpl
from kschedlearn.client_go.tools.cache.controller import ResourceEventHandlerFuncs
from kschedlearn.client_go.tools.cache.delta_fifo import DeletedFinalStateUnknown
from kschedlearn.client_go.tools.cache.shared_informer import wait_for_cache_sync
from kschedlearn.client_go.tools.cache.store import split_meta_namespace_key
from kschedlearn.client_go.tools.record.event import new_broadcaster
from kschedlearn.client_go.util.workqueue.default_rate_limiters import default_controller_rate_limiter
from kschedlearn.client_go.util.workqueue.rate_limitting_queue import RateLimitingType, new_named_rate_limiting_queue
from kschedlearn.controller import controller_utils as controller
from kschedlearn.controller.controller_ref_manager import (
    get_controller_of,
    new_pod_controller_ref_manager,
    recheck_deletion_timestamp,
)
from kschedlearn.controller.statefulset.stateful_pod_control import new_real_stateful_pod_control
from kschedlearn.controller.statefulset.stateful_set_control import new_default_stateful_set_control
from kschedlearn.controller.statefulset.stateful_set_utils import CONTROLLER_KIND, is_member_of
from kschedlearn.trace import glog
from kschedlearn.trace.gofmt import sprintf

STATEFUL_SET_RESYNC_PERIOD = 30.0
"""Go: ``statefulSetResyncPeriod`` — stateful_set.go#L48-L49."""


@attrs.define(eq=False)
class StatefulSetController:
    """Go: ``StatefulSetController`` — stateful_set.go#L55-L76."""

    kube_client: Any
    control: Any
    pod_control: Any
    queue: RateLimitingType
    pvc_lister_synced: Any = None
    pod_lister: Any = None
    pod_lister_synced: Any = None
    set_lister: Any = None
    set_lister_synced: Any = None

    def run(self, workers: int, stop_ch: sim.Chan) -> None:
        """Go: ``(*StatefulSetController).Run`` — stateful_set.go#L139-L157."""
        with handle_crash():
            try:
                glog.infof("Starting statefulset controller")
                if not wait_for_cache_sync(stop_ch, self.pod_lister_synced, self.set_lister_synced,
                                           self.pvc_lister_synced):
                    handle_error(RuntimeError("timed out waiting for caches to sync"))
                    return
                for _ in range(workers):
                    sim.go(wait.until, self.worker, 1.0, stop_ch, name="statefulset worker")
                stop_ch.recv()
                glog.infof("Shutting down statefulset controller")
            finally:
                self.queue.shut_down()

    def add_pod(self, obj: Any) -> None:
        """Go: ``addPod`` — stateful_set.go#L159-L191."""
        pod = obj
        if pod.metadata.deletion_timestamp is not None:
            # on a restart of the controller manager, it's possible a new pod shows up in a state that
            # is already pending deletion. Prevent the pod from being a creation observation.
            self.delete_pod(pod)
            return
        # If it has a ControllerRef, that's all that matters.
        controller_ref = get_controller_of(pod)
        if controller_ref is not None:
            set_ = self.resolve_controller_ref(pod.metadata.namespace, controller_ref)
            if set_ is None:
                return
            glog.v(4).infof("Pod %s created, labels: %+v", pod.metadata.name, pod.metadata.labels)
            self.enqueue_stateful_set(set_)
            return
        # Otherwise, it's an orphan. Get a list of all matching controllers and sync
        # them to see if anyone wants to adopt it.
        sets = self.get_stateful_sets_for_pod(pod)
        if not sets:
            return
        glog.v(4).infof("Orphan Pod %s created, labels: %+v", pod.metadata.name, pod.metadata.labels)
        for set_ in sets:
            self.enqueue_stateful_set(set_)

    def update_pod(self, old: Any, cur: Any) -> None:
        """Go: ``updatePod`` — stateful_set.go#L193-L238."""
        cur_pod, old_pod = cur, old
        if cur_pod.metadata.resource_version == old_pod.metadata.resource_version:
            # Periodic resync will send update events for all known pods.
            return
        label_changed = cur_pod.metadata.labels != old_pod.metadata.labels
        cur_controller_ref = get_controller_of(cur_pod)
        old_controller_ref = get_controller_of(old_pod)
        controller_ref_changed = cur_controller_ref != old_controller_ref
        if controller_ref_changed and old_controller_ref is not None:
            # The ControllerRef was changed. Sync the old controller, if any.
            set_ = self.resolve_controller_ref(old_pod.metadata.namespace, old_controller_ref)
            if set_ is not None:
                self.enqueue_stateful_set(set_)
        # If it has a ControllerRef, that's all that matters.
        if cur_controller_ref is not None:
            set_ = self.resolve_controller_ref(cur_pod.metadata.namespace, cur_controller_ref)
            if set_ is None:
                return
            glog.v(4).infof("Pod %s updated, objectMeta %+v -> %+v.", cur_pod.metadata.name, old_pod.metadata,
                            cur_pod.metadata)
            self.enqueue_stateful_set(set_)
            return
        # Otherwise, it's an orphan. If anything changed, sync matching controllers
        # to see if anyone wants to adopt it now.
        if label_changed or controller_ref_changed:
            sets = self.get_stateful_sets_for_pod(cur_pod)
            if not sets:
                return
            glog.v(4).infof("Orphan Pod %s updated, objectMeta %+v -> %+v.", cur_pod.metadata.name, old_pod.metadata,
                            cur_pod.metadata)
            for set_ in sets:
                self.enqueue_stateful_set(set_)

    def delete_pod(self, obj: Any) -> None:
        """Go: ``deletePod`` — stateful_set.go#L240-L272."""
        pod = obj
        if isinstance(obj, DeletedFinalStateUnknown):
            pod = obj.obj
            if getattr(type(pod), "kind", "") != "Pod":
                handle_error(RuntimeError(sprintf("tombstone contained object that is not a pod %+v", obj)))
                return
        controller_ref = get_controller_of(pod)
        if controller_ref is None:
            # No controller should care about orphans being deleted.
            return
        set_ = self.resolve_controller_ref(pod.metadata.namespace, controller_ref)
        if set_ is None:
            return
        glog.v(4).infof("Pod %s/%s deleted through %v.", pod.metadata.namespace, pod.metadata.name,
                        "k8s.io/kubernetes/pkg/controller/statefulset.(*StatefulSetController).deletePod")
        self.enqueue_stateful_set(set_)

    def get_pods_for_stateful_set(self, set_: Any, selector: Any) -> list[Any]:
        """The set's pods, claimed by ControllerRef and by name. Go: ``getPodsForStatefulSet`` — stateful_set.go#L274-L307."""
        # List all pods to include the pods that don't match the selector anymore but
        # has a ControllerRef pointing to this StatefulSet.
        pods = self.pod_lister.pods(set_.metadata.namespace).list(labels.everything())

        def filter_(pod: Any) -> bool:
            # Only claim if it matches our StatefulSet name. Otherwise release/ignore.
            return is_member_of(set_, pod)

        # If any adoptions are attempted, we should first recheck for deletion with
        # an uncached quorum read sometime after listing Pods (see #42639).
        def get_fresh() -> Any:
            fresh = self.kube_client.apps_v1beta1().stateful_sets(set_.metadata.namespace).get(set_.metadata.name)
            if fresh.metadata.uid != set_.metadata.uid:
                raise RuntimeError(sprintf("original StatefulSet %v/%v is gone: got uid %v, wanted %v",
                                           set_.metadata.namespace, set_.metadata.name, fresh.metadata.uid,
                                           set_.metadata.uid))
            return fresh

        can_adopt_func = recheck_deletion_timestamp(get_fresh)
        cm = new_pod_controller_ref_manager(self.pod_control, set_, selector, CONTROLLER_KIND, can_adopt_func)
        return cm.claim_pods(pods, filter_)

    def get_stateful_sets_for_pod(self, pod: Any) -> list[Any] | None:
        """Go: ``getStatefulSetsForPod`` — stateful_set.go#L309-L326."""
        try:
            sets = self.set_lister.get_pod_stateful_sets(pod)
        except PANICS:
            raise
        except Exception:  # noqa: BLE001 - Go returns nil on the error
            return None
        # More than one set is selecting the same Pod
        if len(sets) > 1:
            handle_error(RuntimeError(sprintf("user error: more than one StatefulSet is selecting pods with labels: %+v",
                                              pod.metadata.labels)))
        return sets

    def resolve_controller_ref(self, namespace: str, controller_ref: Any) -> Any:
        """Go: ``resolveControllerRef`` — stateful_set.go#L328-L347."""
        if controller_ref.kind != CONTROLLER_KIND[1]:
            return None
        try:
            set_ = self.set_lister.stateful_sets(namespace).get(controller_ref.name)
        except PANICS:
            raise
        except Exception:  # noqa: BLE001 - Go returns nil on the error
            return None
        if set_.metadata.uid != controller_ref.uid:
            return None
        return set_

    def enqueue_stateful_set(self, obj: Any) -> None:
        """Go: ``enqueueStatefulSet`` — stateful_set.go#L349-L357."""
        try:
            key = controller.key_func(obj)
        except PANICS:
            raise
        except Exception as err:  # noqa: BLE001 - Go reports and gives up
            handle_error(RuntimeError(sprintf("Cound't get key for object %+v: %v", obj, err)))
            return
        self.queue.add(key)

    def process_next_work_item(self) -> bool:
        """Go: ``processNextWorkItem`` — stateful_set.go#L359-L374."""
        key, quit_ = self.queue.get()
        if quit_:
            return False
        try:
            try:
                self.sync(key)
            except PANICS:
                raise
            except Exception as err:  # noqa: BLE001 - Go: err != nil
                handle_error(RuntimeError(sprintf("Error syncing StatefulSet %v, requeuing: %v", key, err)))
                self.queue.add_rate_limited(key)
            else:
                self.queue.forget(key)
            return True
        finally:
            self.queue.done(key)

    def worker(self) -> None:
        """Go: ``worker`` — stateful_set.go#L376-L380."""
        while self.process_next_work_item():
            pass

    def sync(self, key: str) -> None:
        """Go: ``sync`` — stateful_set.go#L382-L416."""
        start_time = sim.now()
        try:
            namespace, name = split_meta_namespace_key(key)
            try:
                set_ = self.set_lister.stateful_sets(namespace).get(name)
            except PANICS:
                raise
            except Exception as err:
                if is_not_found(err):
                    glog.infof("StatefulSet has been deleted %v", key)
                    return
                handle_error(RuntimeError(sprintf("unable to retrieve StatefulSet %v from store: %v", key, err)))
                raise
            try:
                selector = metav1.label_selector_as_selector(set_.spec.selector)
            except ValueError as err:
                handle_error(RuntimeError(sprintf("error converting StatefulSet %v selector: %v", key, err)))
                # This is a non-transient error, so don't retry.
                return
            pods = self.get_pods_for_stateful_set(set_, selector)
            self.sync_stateful_set(set_, pods)
        finally:
            glog.v(4).infof("Finished syncing statefulset %q (%v)", key, f"{sim.now() - start_time:g}s")

    def sync_stateful_set(self, set_: Any, pods: list[Any]) -> None:
        """Go: ``syncStatefulSet`` — stateful_set.go#L418-L427."""
        glog.v(2).infof("Syncing StatefulSet %v/%v with %d pods", set_.metadata.namespace, set_.metadata.name, len(pods))
        try:
            self.control.update_stateful_set(set_, pods)
        except PANICS:
            raise
        except Exception as err:
            glog.v(2).infof("Error syncing StatefulSet %s/%s with %d pods : %s", set_.metadata.namespace,
                            set_.metadata.name, err)
            raise
        glog.v(2).infof("Succesfully synced StatefulSet %s/%s successful", set_.metadata.namespace, set_.metadata.name)


def new_stateful_set_controller(pod_informer: Any, set_informer: Any, pvc_informer: Any,
                                kube_client: Any) -> StatefulSetController:
    """Go: ``NewStatefulSetController`` — stateful_set.go#L78-L137."""
    event_broadcaster = new_broadcaster()
    event_broadcaster.start_logging(glog.infof)
    event_broadcaster.start_recording_to_sink(EventSinkImpl(kube_client))
    recorder = event_broadcaster.new_recorder(EventSource(component="statefulset"))
    ssc = StatefulSetController(
        kube_client=kube_client,
        control=new_default_stateful_set_control(new_real_stateful_pod_control(
            kube_client, set_informer.lister(), pod_informer.lister(), pvc_informer.lister(), recorder)),
        pvc_lister_synced=pvc_informer.informer().has_synced,
        queue=new_named_rate_limiting_queue(default_controller_rate_limiter(), "statefulset"),
        pod_control=controller.RealPodControl(kube_client=kube_client, recorder=recorder),
    )
    pod_informer.informer().add_event_handler(ResourceEventHandlerFuncs(
        # lookup the statefulset and enqueue
        add_func=ssc.add_pod,
        # lookup current and old statefulset if labels changed
        update_func=ssc.update_pod,
        # lookup statefulset accounting for deletion tombstones
        delete_func=ssc.delete_pod,
    ))
    ssc.pod_lister = pod_informer.lister()
    ssc.pod_lister_synced = pod_informer.informer().has_synced

    def update_func(old: Any, cur: Any) -> None:
        if old.status.replicas != cur.status.replicas:
            glog.v(4).infof("Observed updated replica count for StatefulSet: %v, %d->%d", cur.metadata.name,
                            old.status.replicas, cur.status.replicas)
        ssc.enqueue_stateful_set(cur)

    set_informer.informer().add_event_handler_with_resync_period(ResourceEventHandlerFuncs(
        add_func=ssc.enqueue_stateful_set, update_func=update_func, delete_func=ssc.enqueue_stateful_set),
        STATEFUL_SET_RESYNC_PERIOD)
    ssc.set_lister = set_informer.lister()
    ssc.set_lister_synced = set_informer.informer().has_synced
    # TODO: Watch volumes
    return ssc


__all__ = ["STATEFUL_SET_RESYNC_PERIOD", "StatefulSetController", "new_stateful_set_controller"]
