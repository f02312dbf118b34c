"""The DaemonSet controller: one pod per eligible node — placed by the controller, not the scheduler.

Go: pkg/controller/daemon/daemoncontroller.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/controller/daemon/daemoncontroller.go

In 1.6 the DaemonSet controller decides itself where its pods go: for every node it builds the
pod it would run there and runs the scheduler's own predicates (``PodToleratesNodeTaints`` +
``GeneralPredicates``, or ``EssentialPredicates`` for a critical pod) against a NodeInfo of the
node's other pods; a node that fits gets a pod created **with ``spec.nodeName`` already set**
(``CreatePodsOnNode``). Such a pod never enters kube-scheduler's podQueue (its unassigned-pod
watch selects ``spec.nodeName=""``); it appears directly in the scheduler's cache through the
assigned-pod watch. Later releases (1.12+) moved DaemonSet pods to the default scheduler.

Differs from Go: errors are raised; Go's ``sync.WaitGroup`` and error channel are the runtime's;
``IsCriticalPod`` (pkg/kubelet/types) is kept beside its two callers here; the
``ExperimentalCriticalPodAnnotation`` gate is read from the process's feature gate (off, its
1.6 default, unless set); map iteration over nodes' pods is node-list order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from kschedlearn import sim
from kschedlearn.api.v1 import (
    EventSource,
    OwnerReference,
    Pod,
    Toleration,
    add_or_update_toleration_in_pod,
    is_pod_available,
    is_pod_ready,
)
from kschedlearn.apimachinery import labels
from kschedlearn.apimachinery._gosort import sort_by_less
from kschedlearn.apimachinery.api.errors import is_not_found
from kschedlearn.apimachinery.apis.meta import v1 as metav1
from kschedlearn.apimachinery.util import wait
from kschedlearn.apimachinery.util.errors import new_aggregate
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
from kschedlearn.controller.daemon.update import UpdateMethods
from kschedlearn.controller.daemon.util import daemonset_util as util
from kschedlearn.scheduler.algorithm.predicates import predicates
from kschedlearn.scheduler.algorithm.predicates.error import (
    ERR_DISK_CONFLICT,
    ERR_MAX_VOLUME_COUNT_EXCEEDED,
    ERR_NODE_LABEL_PRESENCE_VIOLATED,
    ERR_NODE_SELECTOR_NOT_MATCH,
    ERR_NODE_UNDER_DISK_PRESSURE,
    ERR_NODE_UNDER_MEMORY_PRESSURE,
    ERR_POD_AFFINITY_NOT_MATCH,
    ERR_POD_NOT_FITS_HOST_PORTS,
    ERR_POD_NOT_MATCH_HOST_NAME,
    ERR_SERVICE_AFFINITY_VIOLATED,
    ERR_TAINTS_TOLERATIONS_NOT_MATCH,
    ERR_VOLUME_ZONE_CONFLICT,
    InsufficientResourceError,
    PredicateFailureError,
)
from kschedlearn.scheduler.schedulercache.node_info import new_node_info
from kschedlearn.trace import glog
from kschedlearn.trace.gofmt import sprintf

BURST_REPLICAS = 250
"""Go: ``BurstReplicas`` — daemoncontroller.go#L60-L61."""
STATUS_UPDATE_RETRIES = 1
"""Go: ``StatusUpdateRetries`` — daemoncontroller.go#L63-L64."""
SELECTING_ALL_REASON = "SelectingAll"
FAILED_PLACEMENT_REASON = "FailedPlacement"
FAILED_DAEMON_POD_REASON = "FailedDaemonPod"

CONTROLLER_KIND = ("extensions/v1beta1", "DaemonSet")
"""Go: ``controllerKind`` — daemoncontroller.go#L75-L76."""

#: Go: metav1.TaintNodeNotReady / TaintNodeUnreachable
#: (https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/well_known_labels.go#L37-L46).
TAINT_NODE_NOT_READY = "node.alpha.kubernetes.io/notReady"
TAINT_NODE_UNREACHABLE = "node.alpha.kubernetes.io/unreachable"
#: Go: features.ExperimentalCriticalPodAnnotation; kubelettypes.CriticalPodAnnotationKey.
EXPERIMENTAL_CRITICAL_POD_ANNOTATION = "ExperimentalCriticalPodAnnotation"
CRITICAL_POD_ANNOTATION_KEY = "scheduler.alpha.kubernetes.io/critical-pod"


def is_critical_pod(pod: Pod) -> bool:
    """A ``kube-system`` pod annotated ``scheduler.alpha.kubernetes.io/critical-pod: ""``.

    Go: kubelettypes.IsCriticalPod — https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/kubelet/types/pod_update.go#L140-L153
    """
    # Critical pods are restricted to "kube-system" namespace as of now.
    if pod.metadata.namespace != "kube-system":
        return False
    return pod.metadata.annotations.get(CRITICAL_POD_ANNOTATION_KEY) == ""


def _critical_gate() -> bool:
    """``utilfeature.DefaultFeatureGate.Enabled(features.ExperimentalCriticalPodAnnotation)``
    (a gate the process does not know reads as off, as Go's zero FeatureSpec)."""
    from kschedlearn.features import default_feature_gate  # noqa: PLC0415

    return default_feature_gate().enabled(EXPERIMENTAL_CRITICAL_POD_ANNOTATION)


@attrs.define(eq=False)
class DaemonSetsController(UpdateMethods):
    """Go: ``DaemonSetsController`` — daemoncontroller.go#L78-L113."""

    kube_client: Any
    event_recorder: Any
    pod_control: Any
    burst_replicas: int
    expectations: controller.ControllerExpectations
    queue: RateLimitingType
    sync_handler: Any = None
    enqueue_daemon_set: Any = None
    ds_lister: Any = None
    ds_store_synced: Any = None
    pod_lister: Any = None
    pod_store_synced: Any = None
    node_lister: Any = None
    node_store_synced: Any = None

    def delete_daemonset(self, obj: Any) -> None:
        """Go: ``deleteDaemonset`` — daemoncontroller.go#L176-L192."""
        ds = obj
        if isinstance(obj, DeletedFinalStateUnknown):
            ds = obj.obj
            if getattr(type(ds), "kind", "") != "DaemonSet":
                handle_error(RuntimeError(sprintf("Tombstone contained object that is not a DaemonSet %#v", obj)))
                return
        glog.v(4).infof("Deleting daemon set %s", ds.metadata.name)
        self.enqueue_daemon_set(ds)

    def run(self, workers: int, stop_ch: sim.Chan) -> None:
        """Go: ``(*DaemonSetsController).Run`` — daemoncontroller.go#L194-L212."""
        with handle_crash():
            try:
                glog.infof("Starting Daemon Sets controller manager")
                if not wait_for_cache_sync(stop_ch, self.pod_store_synced, self.node_store_synced, self.ds_store_synced):
                    handle_error(RuntimeError("timed out waiting for caches to sync"))
                    return
                for _ in range(workers):
                    sim.go(wait.until, self.run_worker, 1.0, stop_ch, name="daemonset worker")
                stop_ch.recv()
                glog.infof("Shutting down Daemon Set Controller")
            finally:
                self.queue.shut_down()

    def run_worker(self) -> None:
        """Go: ``runWorker`` — daemoncontroller.go#L214-L217."""
        while self.process_next_work_item():
            pass

    def process_next_work_item(self) -> bool:
        """Go: ``processNextWorkItem`` — daemoncontroller.go#L219-L237."""
        ds_key, quit_ = self.queue.get()
        if quit_:
            return False
        try:
            try:
                self.sync_handler(ds_key)
            except PANICS:
                raise
            except Exception as err:  # noqa: BLE001 - Go: err != nil
                handle_error(RuntimeError(sprintf("%v failed with : %v", ds_key, err)))
                self.queue.add_rate_limited(ds_key)
                return True
            self.queue.forget(ds_key)
            return True
        finally:
            self.queue.done(ds_key)

    def enqueue(self, ds: Any) -> None:
        """Go: ``enqueue`` — daemoncontroller.go#L239-L248."""
        key = controller.key_func(ds)
        self.queue.add(key)

    def enqueue_daemon_set_after(self, obj: Any, after: float) -> None:
        """Go: ``enqueueDaemonSetAfter`` — daemoncontroller.go#L250-L259."""
        key = controller.key_func(obj)
        self.queue.add_after(key, after)

    def get_pod_daemon_sets(self, pod: Pod) -> list[Any] | None:
        """Go: ``getPodDaemonSets`` — daemoncontroller.go#L261-L273."""
        try:
            sets = self.ds_lister.get_pod_daemon_sets(pod)
        except PANICS:
            raise
        except Exception:  # noqa: BLE001 - Go returns nil on the error
            return None
        if len(sets) > 1:
            handle_error(RuntimeError(sprintf("user error! more than one daemon is selecting pods with labels: %+v",
                                              pod.metadata.labels)))
        return sets

    def add_pod(self, obj: Any) -> None:
        """Go: ``addPod`` — daemoncontroller.go#L275-L313."""
        pod = obj
        if pod.metadata.deletion_timestamp is not None:
            # on a restart of the controller manager, it's possible a new pod shows up in a state that
            # is already pending deletion. Prevent the pod from being a creation observation.
            self.delete_pod(pod)
            return
        # If it has a ControllerRef, that's all that matters.
        controller_ref = get_controller_of(pod)
        if controller_ref is not None:
            ds = self.resolve_controller_ref(pod.metadata.namespace, controller_ref)
            if ds is None:
                return
            ds_key = controller.key_func(ds)
            glog.v(4).infof("Pod %s added.", pod.metadata.name)
            self.expectations.creation_observed(ds_key)
            self.enqueue_daemon_set(ds)
            return
        # Otherwise, it's an orphan. Get a list of all matching DaemonSets and sync
        # them to see if anyone wants to adopt it.
        dss = self.get_pod_daemon_sets(pod)
        if not dss:
            return
        glog.v(4).infof("Orphan Pod %s added.", pod.metadata.name)
        for ds in dss:
            self.enqueue_daemon_set(ds)

    def update_pod(self, old: Any, cur: Any) -> None:
        """Go: ``updatePod`` — daemoncontroller.go#L315-L368."""
        cur_pod, old_pod = cur, old
        if cur_pod.metadata.resource_version == old_pod.metadata.resource_version:
            # Periodic resync will send update events for all known pods.
            return
        changed_to_ready = not is_pod_ready(old_pod) and is_pod_ready(cur_pod)
        label_changed = cur_pod.metadata.labels != old_pod.metadata.labels
        cur_controller_ref = get_controller_of(cur_pod)
        old_controller_ref = get_controller_of(old_pod)
        controller_ref_changed = cur_controller_ref != old_controller_ref
        if controller_ref_changed and old_controller_ref is not None:
            # The ControllerRef was changed. Sync the old controller, if any.
            ds = self.resolve_controller_ref(old_pod.metadata.namespace, old_controller_ref)
            if ds is not None:
                self.enqueue_daemon_set(ds)
        # If it has a ControllerRef, that's all that matters.
        if cur_controller_ref is not None:
            ds = self.resolve_controller_ref(cur_pod.metadata.namespace, cur_controller_ref)
            if ds is None:
                return
            glog.v(4).infof("Pod %s updated.", cur_pod.metadata.name)
            self.enqueue_daemon_set(ds)
            if changed_to_ready and ds.spec.min_ready_seconds > 0:
                # Add a second to avoid milliseconds skew in AddAfter.
                self.enqueue_daemon_set_after(ds, float(ds.spec.min_ready_seconds) + 1.0)
            return
        # Otherwise, it's an orphan. If anything changed, sync matching controllers
        # to see if anyone wants to adopt it now.
        dss = self.get_pod_daemon_sets(cur_pod)
        if not dss:
            return
        glog.v(4).infof("Orphan Pod %s updated.", cur_pod.metadata.name)
        if label_changed or controller_ref_changed:
            for ds in dss:
                self.enqueue_daemon_set(ds)

    def delete_pod(self, obj: Any) -> None:
        """Go: ``deletePod`` — daemoncontroller.go#L370-L406."""
        pod = obj
        if isinstance(obj, DeletedFinalStateUnknown):
            pod = obj.obj
            if getattr(type(pod), "kind", "") != "Pod":
                handle_error(RuntimeError(sprintf("tombstone contained object that is not a pod %#v", obj)))
                return
        controller_ref = get_controller_of(pod)
        if controller_ref is None:
            # No controller should care about orphans being deleted.
            return
        ds = self.resolve_controller_ref(pod.metadata.namespace, controller_ref)
        if ds is None:
            return
        ds_key = controller.key_func(ds)
        glog.v(4).infof("Pod %s deleted.", pod.metadata.name)
        self.expectations.deletion_observed(ds_key)
        self.enqueue_daemon_set(ds)

    def add_node(self, obj: Any) -> None:
        """A node joined: wake the daemon sets that should run there. Go: ``addNode`` — daemoncontroller.go#L408-L426."""
        ds_list = self.ds_lister.list(labels.everything())
        node = obj
        for ds in ds_list:
            try:
                _, should_schedule, _ = self.node_should_run_daemon_pod(node, ds)
            except PANICS:
                raise
            except Exception:  # noqa: BLE001 - Go: continue on the error
                continue
            if should_schedule:
                self.enqueue_daemon_set(ds)

    def update_node(self, old: Any, cur: Any) -> None:
        """Go: ``updateNode`` — daemoncontroller.go#L428-L455."""
        old_node, cur_node = old, cur
        if old_node.metadata.labels == cur_node.metadata.labels and old_node.spec.taints == cur_node.spec.taints:
            # If node labels and taints didn't change, we can ignore this update.
            return
        ds_list = self.ds_lister.list(labels.everything())
        for ds in ds_list:
            try:
                _, old_should_schedule, old_should_continue_running = self.node_should_run_daemon_pod(old_node, ds)
                _, current_should_schedule, current_should_continue_running = self.node_should_run_daemon_pod(cur_node, ds)
            except PANICS:
                raise
            except Exception:  # noqa: BLE001 - Go: continue on the error
                continue
            if (old_should_schedule != current_should_schedule
                    or old_should_continue_running != current_should_continue_running):
                self.enqueue_daemon_set(ds)

    def get_nodes_to_daemon_pods(self, ds: Any) -> dict[str, list[Pod]]:
        """Node name → the daemon pods (claimed by ControllerRef) running there.

        Go: ``getNodesToDaemonPods`` — daemoncontroller.go#L457-L498
        """
        selector = metav1.label_selector_as_selector(ds.spec.selector)
        # List all pods to include those that don't match the selector anymore but
        # have a ControllerRef pointing to this controller.
        pods = self.pod_lister.pods(ds.metadata.namespace).list(labels.everything())

        # If any adoptions are attempted, we should first recheck for deletion with
        # an uncached quorum read sometime after listing Pods (see #42639).
        def get_fresh() -> Any:
            fresh = self.kube_client.extensions_v1beta1().daemon_sets(ds.metadata.namespace).get(ds.metadata.name)
            if fresh.metadata.uid != ds.metadata.uid:
                raise RuntimeError(sprintf("original DaemonSet %v/%v is gone: got uid %v, wanted %v",
                                           ds.metadata.namespace, ds.metadata.name, fresh.metadata.uid, ds.metadata.uid))
            return fresh

        can_adopt_func = recheck_deletion_timestamp(get_fresh)
        # Use ControllerRefManager to adopt/orphan as needed.
        cm = new_pod_controller_ref_manager(self.pod_control, ds, selector, CONTROLLER_KIND, can_adopt_func)
        claimed_pods = cm.claim_pods(pods)
        # Group Pods by Node name.
        node_to_daemon_pods: dict[str, list[Pod]] = {}
        for pod in claimed_pods:
            node_name = pod.spec.node_name
            node_to_daemon_pods.setdefault(node_name, []).append(pod)
        return node_to_daemon_pods

    def resolve_controller_ref(self, namespace: str, controller_ref: OwnerReference) -> Any:
        """Go: ``resolveControllerRef`` — daemoncontroller.go#L500-L519."""
        if controller_ref.kind != CONTROLLER_KIND[1]:
            return None
        try:
            ds = self.ds_lister.daemon_sets(namespace).get(controller_ref.name)
        except PANICS:
            raise
        except Exception:  # noqa: BLE001 - Go returns nil on the error
            return None
        if ds.metadata.uid != controller_ref.uid:
            return None
        return ds

    def manage(self, ds: Any) -> None:
        """Which nodes need a daemon pod, which daemon pods must go.

        Go: ``manage`` — daemoncontroller.go#L521-L593
        """
        # Find out which nodes are running the daemon pods controlled by ds.
        try:
            node_to_daemon_pods = self.get_nodes_to_daemon_pods(ds)
        except PANICS:
            raise
        except Exception as err:
            raise RuntimeError(sprintf("couldn't get node to daemon pod mapping for daemon set %q: %v",
                                       ds.metadata.name, err)) from err
        # For each node, if the node is running the daemon pod but isn't supposed to, kill the daemon
        # pod. If the node is supposed to run the daemon pod, but isn't, create the daemon pod on the node.
        node_list = self.node_lister.list(labels.everything())
        nodes_needing_daemon_pods: list[str] = []
        pods_to_delete: list[str] = []
        failed_pods_observed = 0
        for node in node_list:
            try:
                _, should_schedule, should_continue_running = self.node_should_run_daemon_pod(node, ds)
            except PANICS:
                raise
            except Exception:  # noqa: BLE001 - Go: continue on the error
                continue
            daemon_pods = node_to_daemon_pods.get(node.metadata.name)
            exists = daemon_pods is not None
            daemon_pods = daemon_pods or []
            if should_schedule and not exists:
                # If daemon pod is supposed to be running on node, but isn't, create daemon pod.
                nodes_needing_daemon_pods.append(node.metadata.name)
            elif should_continue_running:
                # If a daemon pod failed, delete it; if none is left, the next sync creates one.
                daemon_pods_running = []
                for pod in daemon_pods:
                    # Skip terminating pods. We won't delete them again or count them as running daemon pods.
                    if pod.metadata.deletion_timestamp is not None:
                        continue
                    if pod.status.phase == "Failed":
                        msg = sprintf("Found failed daemon pod %s/%s on node %s, will try to kill it",
                                      pod.metadata.namespace, node.metadata.name, pod.metadata.name)
                        glog.v(2).infof(msg)
                        # Emit an event so that it's discoverable to users.
                        self.event_recorder.eventf(ds, "Warning", FAILED_DAEMON_POD_REASON, msg)
                        pods_to_delete.append(pod.metadata.name)
                        failed_pods_observed += 1
                    else:
                        daemon_pods_running.append(pod)
                # If daemon pod is supposed to be running on node, but more than 1 daemon pod is running,
                # delete the excess daemon pods. Sort the daemon pods by creation time, so the oldest is preserved.
                if len(daemon_pods_running) > 1:
                    sort_by_less(daemon_pods_running, pod_by_creation_timestamp_less)
                    for i in range(1, len(daemon_pods_running)):
                        # 1.6 quirk: it deletes daemonPods[i], not daemonPodsRunning[i]
                        pods_to_delete.append(daemon_pods[i].metadata.name)
            elif not should_continue_running and exists:
                # If daemon pod isn't supposed to run on node, but it is, delete all daemon pods on node.
                for pod in daemon_pods:
                    pods_to_delete.append(pod.metadata.name)
        errors = self.sync_nodes(ds, pods_to_delete, nodes_needing_daemon_pods)
        # Throw an error when the daemon pods fail, to use ratelimiter to prevent kill-recreate hot loop
        if failed_pods_observed > 0:
            errors.append(RuntimeError(sprintf("deleted %d failed pods of DaemonSet %s/%s", failed_pods_observed,
                                               ds.metadata.namespace, ds.metadata.name)))
        aggregate = new_aggregate(errors)
        if aggregate is not None:
            raise aggregate

    def sync_nodes(self, ds: Any, pods_to_delete: Sequence[str], nodes_needing_daemon_pods: Sequence[str]
                   ) -> list[BaseException]:
        """Create the pods (bound to their nodes) and delete the others, within burstReplicas.

        Go: ``syncNodes`` — daemoncontroller.go#L595-L659
        """
        # We need to set expectations before creating/deleting pods to avoid race conditions.
        ds_key = controller.key_func(ds)
        create_diff = len(nodes_needing_daemon_pods)
        delete_diff = len(pods_to_delete)
        if create_diff > self.burst_replicas:
            create_diff = self.burst_replicas
        if delete_diff > self.burst_replicas:
            delete_diff = self.burst_replicas
        self.expectations.set_expectations(ds_key, create_diff, delete_diff)
        # error channel to communicate back failures.  make the buffer big enough to avoid any blocking
        err_ch = sim.Chan(create_diff + delete_diff, name="errCh")
        glog.v(4).infof("Nodes needing daemon pods for daemon set %s: %+v, creating %d", ds.metadata.name,
                        list(nodes_needing_daemon_pods), create_diff)
        create_wait = sim.WaitGroup()
        create_wait.add(create_diff)
        template = util.get_pod_template_with_generation(ds.spec.template, ds.spec.template_generation)

        def create(ix: int) -> None:
            try:
                try:
                    self.pod_control.create_pods_on_node(nodes_needing_daemon_pods[ix], ds.metadata.namespace,
                                                         template, ds, new_controller_ref(ds))
                except PANICS:
                    raise
                except Exception as err:  # noqa: BLE001 - Go: err != nil
                    glog.v(2).infof("Failed creation, decrementing expectations for set %q/%q",
                                    ds.metadata.namespace, ds.metadata.name)
                    self.expectations.creation_observed(ds_key)
                    err_ch.send(err)
                    handle_error(err)
            finally:
                create_wait.done()

        for i in range(create_diff):
            sim.go(create, i, name=f"create daemon pod on {nodes_needing_daemon_pods[i]}")
        create_wait.wait()
        glog.v(4).infof("Pods to delete for daemon set %s: %+v, deleting %d", ds.metadata.name, list(pods_to_delete),
                        delete_diff)
        delete_wait = sim.WaitGroup()
        delete_wait.add(delete_diff)

        def delete(ix: int) -> None:
            try:
                try:
                    self.pod_control.delete_pod(ds.metadata.namespace, pods_to_delete[ix], ds)
                except PANICS:
                    raise
                except Exception as err:  # noqa: BLE001 - Go: err != nil
                    glog.v(2).infof("Failed deletion, decrementing expectations for set %q/%q",
                                    ds.metadata.namespace, ds.metadata.name)
                    self.expectations.deletion_observed(ds_key)
                    err_ch.send(err)
                    handle_error(err)
            finally:
                delete_wait.done()

        for i in range(delete_diff):
            sim.go(delete, i, name=f"delete daemon pod {pods_to_delete[i]}")
        delete_wait.wait()
        # collect errors if any for proper reporting/retry logic in the controller
        errors: list[BaseException] = []
        err_ch.close()
        while True:
            err, ok = err_ch.recv()
            if not ok:
                break
            errors.append(err)
        return errors

    def update_daemon_set_status(self, ds: Any) -> None:
        """Count desired, scheduled, misscheduled, ready, updated and available daemon pods.

        Go: ``updateDaemonSetStatus`` — daemoncontroller.go#L705-L759
        """
        glog.v(4).infof("Updating daemon set status")
        try:
            node_to_daemon_pods = self.get_nodes_to_daemon_pods(ds)
        except PANICS:
            raise
        except Exception as err:
            raise RuntimeError(sprintf("couldn't get node to daemon pod mapping for daemon set %q: %v",
                                       ds.metadata.name, err)) from err
        node_list = self.node_lister.list(labels.everything())
        desired_number_scheduled = current_number_scheduled = number_misscheduled = 0
        number_ready = updated_number_scheduled = number_available = 0
        for node in node_list:
            want_to_run, _, _ = self.node_should_run_daemon_pod(node, ds)
            scheduled = len(node_to_daemon_pods.get(node.metadata.name, [])) > 0
            if want_to_run:
                desired_number_scheduled += 1
                if scheduled:
                    current_number_scheduled += 1
                    # Sort the daemon pods by creation time, so that the oldest is first.
                    daemon_pods = node_to_daemon_pods[node.metadata.name]
                    sort_by_less(daemon_pods, pod_by_creation_timestamp_less)
                    pod = daemon_pods[0]
                    if is_pod_ready(pod):
                        number_ready += 1
                        if is_pod_available(pod, ds.spec.min_ready_seconds, sim.now()):
                            number_available += 1
                    if util.is_pod_updated(ds.spec.template_generation, pod):
                        updated_number_scheduled += 1
            elif scheduled:
                number_misscheduled += 1
        number_unavailable = desired_number_scheduled - number_available
        try:
            store_daemon_set_status(self.kube_client.extensions().daemon_sets(ds.metadata.namespace), ds,
                                    desired_number_scheduled, current_number_scheduled, number_misscheduled,
                                    number_ready, updated_number_scheduled, number_available, number_unavailable)
        except PANICS:
            raise
        except Exception as err:
            raise RuntimeError(sprintf("error storing status for daemon set %#v: %v", ds.metadata.name, err)) from err

    def sync_daemon_set(self, key: str) -> None:
        """Sync one DaemonSet: manage its pods when expectations allow, roll updates, write status.

        Go: ``syncDaemonSet`` — daemoncontroller.go#L761-L815
        """
        start_time = sim.now()
        try:
            namespace, name = split_meta_namespace_key(key)
            try:
                ds = self.ds_lister.daemon_sets(namespace).get(name)
            except PANICS:
                raise
            except Exception as err:
                if is_not_found(err):
                    glog.v(3).infof("daemon set has been deleted %v", key)
                    self.expectations.delete_expectations(key)
                    return
                raise RuntimeError(sprintf("unable to retrieve ds %v from store: %v", key, err)) from err
            everything = metav1.LabelSelector()
            if ds.spec.selector == everything:
                self.event_recorder.eventf(ds, "Warning", SELECTING_ALL_REASON,
                                           "This daemon set is selecting all pods. A non-empty selector is required.")
                return
            # Don't process a daemon set until all its creations and deletions have been processed.
            ds_key = controller.key_func(ds)
            if ds.metadata.deletion_timestamp is not None or not self.expectations.satisfied_expectations(ds_key):
                # Only update status.
                self.update_daemon_set_status(ds)
                return
            self.manage(ds)
            # Process rolling updates if we're ready.
            if self.expectations.satisfied_expectations(ds_key):
                if ds.spec.update_strategy.type == "RollingUpdate":
                    self.rolling_update(ds)
            self.update_daemon_set_status(ds)
        finally:
            glog.v(4).infof("Finished syncing daemon set %q (%v)", key, f"{sim.now() - start_time:g}s")

    def node_should_run_daemon_pod(self, node: Any, ds: Any) -> tuple[bool, bool, bool]:
        """(wantToRun, shouldSchedule, shouldContinueRunning) for this daemon set on this node —
        the controller's own scheduling decision (see the module docstring).

        Go: ``nodeShouldRunDaemonPod`` — daemoncontroller.go#L817-L963
        """
        new_pod = new_pod_for(ds, node.metadata.name)
        critical = _critical_gate() and is_critical_pod(new_pod)
        # All three start true; a failed condition sets them false.
        want_to_run, should_schedule, should_continue_running = True, True, True
        # If the daemon set specifies a node name, check that it matches with node.Name.
        if not (ds.spec.template.spec.node_name == "" or ds.spec.template.spec.node_name == node.metadata.name):
            return False, False, False
        for c in node.status.conditions:
            if critical:
                break
            if c.type == "OutOfDisk" and c.status == "True":
                # the kubelet will evict this pod if it needs to; leave shouldContinueRunning true
                should_schedule = False
        # DaemonSet pods shouldn't be deleted by NodeController in case of node problems:
        # tolerate the notReady and unreachable NoExecute taints for ever.
        new_pod, _ = add_or_update_toleration_in_pod(new_pod, Toleration(key=TAINT_NODE_NOT_READY, operator="Exists",
                                                                         effect="NoExecute"))
        new_pod, _ = add_or_update_toleration_in_pod(new_pod, Toleration(key=TAINT_NODE_UNREACHABLE, operator="Exists",
                                                                         effect="NoExecute"))
        pods = []
        pod_list = self.pod_lister.list(labels.everything())
        for pod in pod_list:
            if pod.spec.node_name != node.metadata.name:
                continue
            if pod.status.phase in ("Succeeded", "Failed"):
                continue
            # ignore pods that belong to the daemonset when taking into account whether
            # a daemonset should bind to a node.
            controller_ref = get_controller_of(pod)
            if controller_ref is not None and controller_ref.uid == ds.metadata.uid:
                continue
            pods.append(pod)
        node_info = new_node_info(*pods)
        node_info.set_node(node)
        try:
            _, reasons = predicates_(new_pod, node_info)
        except PANICS:
            raise
        except Exception as err:
            glog.warningf("DaemonSet Predicates failed on node %s for ds '%s/%s' due to unexpected error: %v",
                          node.metadata.name, ds.metadata.namespace, ds.metadata.name, err)
            raise
        for r in reasons:
            glog.v(4).infof("DaemonSet Predicates failed on node %s for ds '%s/%s' for reason: %v", node.metadata.name,
                            ds.metadata.namespace, ds.metadata.name, r.get_reason())
            if isinstance(r, InsufficientResourceError):
                self.event_recorder.eventf(ds, "Normal", FAILED_PLACEMENT_REASON, "failed to place pod on %q: %s",
                                           node.metadata.name, r.error())
                should_schedule = False
            elif isinstance(r, PredicateFailureError):
                emit_event = False
                # intentional on the part of the operator, unintentional, or unexpected:
                if r in (ERR_NODE_SELECTOR_NOT_MATCH, ERR_POD_NOT_MATCH_HOST_NAME, ERR_NODE_LABEL_PRESENCE_VIOLATED,
                         ERR_POD_NOT_FITS_HOST_PORTS, ERR_TAINTS_TOLERATIONS_NOT_MATCH):
                    want_to_run, should_schedule, should_continue_running = False, False, False
                elif r in (ERR_DISK_CONFLICT, ERR_VOLUME_ZONE_CONFLICT, ERR_MAX_VOLUME_COUNT_EXCEEDED,
                           ERR_NODE_UNDER_MEMORY_PRESSURE, ERR_NODE_UNDER_DISK_PRESSURE):
                    should_schedule = False
                    emit_event = True
                elif r in (ERR_POD_AFFINITY_NOT_MATCH, ERR_SERVICE_AFFINITY_VIOLATED):
                    glog.warningf("unexpected predicate failure reason: %s", r.get_reason())
                    raise RuntimeError(sprintf("unexpected reason: DaemonSet Predicates should not return reason %s",
                                               r.get_reason()))
                else:
                    glog.v(4).infof("unknown predicate failure reason: %s", r.get_reason())
                    want_to_run, should_schedule, should_continue_running = False, False, False
                    emit_event = True
                if emit_event:
                    self.event_recorder.eventf(ds, "Normal", FAILED_PLACEMENT_REASON, "failed to place pod on %q: %s",
                                               node.metadata.name, r.get_reason())
        return want_to_run, should_schedule, should_continue_running


def store_daemon_set_status(ds_client: Any, ds: Any, desired_number_scheduled: int, current_number_scheduled: int,
                            number_misscheduled: int, number_ready: int, updated_number_scheduled: int,
                            number_available: int, number_unavailable: int) -> None:
    """Write the counts unless nothing changed (Go's "retry" loop runs once: StatusUpdateRetries is 1).

    Go: ``storeDaemonSetStatus`` — daemoncontroller.go#L661-L703
    """
    st = ds.status
    if (st.desired_number_scheduled == desired_number_scheduled and st.current_number_scheduled == current_number_scheduled
            and st.number_misscheduled == number_misscheduled and st.number_ready == number_ready
            and st.updated_number_scheduled == updated_number_scheduled and st.number_available == number_available
            and st.number_unavailable == number_unavailable and st.observed_generation >= ds.metadata.generation):
        return
    to_update = ds
    update_err: BaseException | None = None
    for _ in range(STATUS_UPDATE_RETRIES):
        to_update = attrs.evolve(to_update, status=attrs.evolve(
            to_update.status, observed_generation=ds.metadata.generation,
            desired_number_scheduled=desired_number_scheduled, current_number_scheduled=current_number_scheduled,
            number_misscheduled=number_misscheduled, number_ready=number_ready,
            updated_number_scheduled=updated_number_scheduled, number_available=number_available,
            number_unavailable=number_unavailable))
        try:
            ds_client.update_status(to_update)
            return
        except PANICS:
            raise
        except Exception as err:  # noqa: BLE001 - Go keeps updateErr
            update_err = err
        # Update the set with the latest resource version for the next poll (a failed GET is raised)
        to_update = ds_client.get(ds.metadata.name)
    assert update_err is not None
    raise update_err


def new_pod_for(ds: Any, node_name: str) -> Pod:
    """The pod the daemon set would run on ``node_name`` (for the predicates).

    Go: ``NewPod`` — daemoncontroller.go#L965-L970 (``new_pod_for``: ``new_pod`` is a common variable name)
    """
    new_pod = Pod(spec=ds.spec.template.spec, metadata=ds.spec.template.metadata)
    new_pod = attrs.evolve(new_pod, metadata=attrs.evolve(new_pod.metadata, namespace=ds.metadata.namespace),
                           spec=attrs.evolve(new_pod.spec, node_name=node_name))
    return new_pod


def predicates_(pod: Pod, node_info: Any) -> tuple[bool, list[Any]]:
    """``PodToleratesNodeTaints`` then ``GeneralPredicates`` (``EssentialPredicates`` for a critical pod).

    Go: ``Predicates`` — daemoncontroller.go#L972-L1001 (``predicates_``: the module of the same name is imported)
    """
    predicate_fails: list[Any] = []
    critical = _critical_gate() and is_critical_pod(pod)
    fit, reasons = predicates.pod_tolerates_node_taints(pod, None, node_info)
    if not fit:
        predicate_fails.extend(reasons)
    if critical:
        # If the pod is marked as critical and support for critical pod annotations is enabled,
        # check predicates for critical pods only.
        fit, reasons = predicates.essential_predicates(pod, None, node_info)
    else:
        fit, reasons = predicates.general_predicates(pod, None, node_info)
    if not fit:
        predicate_fails.extend(reasons)
    return len(predicate_fails) == 0, predicate_fails


def new_controller_ref(ds: Any) -> OwnerReference:
    """Go: ``newControllerRef`` — daemoncontroller.go#L1003-L1015."""
    return OwnerReference(api_version=CONTROLLER_KIND[0], kind=CONTROLLER_KIND[1], name=ds.metadata.name,
                          uid=ds.metadata.uid, block_owner_deletion=True, controller=True)


def by_creation_timestamp_less(a: Any, b: Any) -> bool:
    """Go: ``byCreationTimestamp.Less`` — daemoncontroller.go#L1023-L1028."""
    return controller.controllers_by_creation_timestamp_less(a, b)


def pod_by_creation_timestamp_less(a: Any, b: Any) -> bool:
    """Go: ``podByCreationTimestamp.Less`` — daemoncontroller.go#L1035-L1040."""
    return controller.controllers_by_creation_timestamp_less(a, b)


def new_daemon_sets_controller(daemon_set_informer: Any, pod_informer: Any, node_informer: Any,
                               kube_client: Any) -> DaemonSetsController:
    """Go: ``NewDaemonSetsController`` — daemoncontroller.go#L115-L174."""
    event_broadcaster = new_broadcaster()
    event_broadcaster.start_logging(glog.infof)
    event_broadcaster.start_recording_to_sink(EventSinkImpl(kube_client))
    dsc = DaemonSetsController(
        kube_client=kube_client,
        event_recorder=event_broadcaster.new_recorder(EventSource(component="daemonset-controller")),
        pod_control=controller.RealPodControl(
            kube_client=kube_client, recorder=event_broadcaster.new_recorder(EventSource(component="daemon-set"))),
        burst_replicas=BURST_REPLICAS,
        expectations=controller.new_controller_expectations(),
        queue=new_named_rate_limiting_queue(default_controller_rate_limiter(), "daemonset"),
    )

    def add_func(obj: Any) -> None:
        glog.v(4).infof("Adding daemon set %s", obj.metadata.name)
        dsc.enqueue_daemon_set(obj)

    def update_func(old: Any, cur: Any) -> None:
        glog.v(4).infof("Updating daemon set %s", old.metadata.name)
        dsc.enqueue_daemon_set(cur)

    daemon_set_informer.informer().add_event_handler(ResourceEventHandlerFuncs(
        add_func=add_func, update_func=update_func, delete_func=dsc.delete_daemonset))
    dsc.ds_lister = daemon_set_informer.lister()
    dsc.ds_store_synced = daemon_set_informer.informer().has_synced
    # Watch for creation/deletion of pods. The reason we watch is that we don't want a daemon set to create/delete
    # more pods until all the effects (expectations) of a daemon set's create/delete have been observed.
    pod_informer.informer().add_event_handler(ResourceEventHandlerFuncs(
        add_func=dsc.add_pod, update_func=dsc.update_pod, delete_func=dsc.delete_pod))
    dsc.pod_lister = pod_informer.lister()
    dsc.pod_store_synced = pod_informer.informer().has_synced
    node_informer.informer().add_event_handler(ResourceEventHandlerFuncs(
        add_func=dsc.add_node, update_func=dsc.update_node))
    dsc.node_store_synced = node_informer.informer().has_synced
    dsc.node_lister = node_informer.lister()
    dsc.sync_handler = dsc.sync_daemon_set
    dsc.enqueue_daemon_set = dsc.enqueue
    return dsc


__all__ = ["BURST_REPLICAS", "CONTROLLER_KIND", "DaemonSetsController", "by_creation_timestamp_less",
           "is_critical_pod", "new_controller_ref", "new_daemon_sets_controller", "new_pod_for",
           "pod_by_creation_timestamp_less", "predicates_", "store_daemon_set_status"]
