"""What every pod-creating controller shares: expectations, pod control, sort orders.

Go: pkg/controller/controller_utils.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/controller/controller_utils.go

*Expectations* are how a controller avoids creating the same pods twice: before it asks the API
server for N pods it records "I expect N creations" under its key; its pod informer's add handler
lowers the count as the pods come back through the watch; until the count reaches 0 (or five
minutes pass), a sync of that controller does not create or delete anything. *Pod control*
turns a pod template into a pod (labels, annotations including ``kubernetes.io/created-by``,
``generateName`` = ``<controller>-``, the ControllerRef) and records the ``SuccessfulCreate`` /
``SuccessfulDelete`` events.

Differs from Go: errors are raised (Go returns them); ``fmt.Errorf`` errors are ``RuntimeError``;
the embedded ``cache.Store`` of ``ControllerExpectations`` is a field; Go's ``sync/atomic``
counters are plain ints (the cooperative runtime never interleaves two updates). The node-taint
helpers (``AddOrUpdateTaintOnNode``, ``RemoveTaintOffNode``, ``PatchNodeTaints``) serve the node
controller and are not mirrored. Sorting is stable (:mod:`kschedlearn.apimachinery._gosort`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import attrs

from kschedlearn.api.v1 import (
    EVENT_TYPE_NORMAL,
    EVENT_TYPE_WARNING,
    ObjectMeta,
    OwnerReference,
    Pod,
    PodTemplateSpec,
    is_pod_ready,
)
from kschedlearn.apimachinery._gosort import sort_by_less
from kschedlearn.apimachinery.labels import Set
from kschedlearn.apimachinery.util.runtime import PANICS
from kschedlearn.apimachinery.util.validation.validation import is_dns1123_subdomain
from kschedlearn.client_go.tools.cache.delta_fifo import deletion_handling_meta_namespace_key_func
from kschedlearn.client_go.tools.cache.store import Cache, new_store
from kschedlearn.client_go.util.clock import RealClock
from kschedlearn.trace import glog
from kschedlearn.trace.gofmt import sprintf

EXPECTATIONS_TIMEOUT = 5 * 60.0
"""Go: ``ExpectationsTimeout`` — controller_utils.go#L52-L62 (a dormant controller wakes after 5 minutes)."""

key_func = deletion_handling_meta_namespace_key_func
"""Go: ``KeyFunc`` — controller_utils.go#L72 (``namespace/name``, tombstones included)."""

ResyncPeriodFunc = Callable[[], float]
"""Go: ``ResyncPeriodFunc`` — controller_utils.go#L75."""

#: Go: v1.CreatedByAnnotation (pkg/api/v1/annotation_key_constants.go in later trees).
CREATED_BY_ANNOTATION = "kubernetes.io/created-by"


def no_resync_period_func() -> float:
    """Go: ``NoResyncPeriodFunc`` — controller_utils.go#L77-L80."""
    return 0.0


def static_resync_period_func(resync_period: float) -> ResyncPeriodFunc:
    """Go: ``StaticResyncPeriodFunc`` — controller_utils.go#L82-L87."""
    return lambda: resync_period


# -- expectations ---------------------------------------------------------------------------

def exp_key_func(obj: Any) -> str:
    """Go: ``ExpKeyFunc`` — controller_utils.go#L104-L110."""
    if isinstance(obj, ControlleeExpectations):
        return obj.key
    raise RuntimeError(sprintf("Could not find key for obj %#v", obj))


class ControllerExpectationsInterface(Protocol):
    """Go: ``ControllerExpectationsInterface`` — controller_utils.go#L112-L127."""

    def get_expectations(self, controller_key: str) -> tuple[ControlleeExpectations | None, bool]: ...
    def satisfied_expectations(self, controller_key: str) -> bool: ...
    def delete_expectations(self, controller_key: str) -> None: ...
    def set_expectations(self, controller_key: str, add: int, delete: int) -> None: ...
    def expect_creations(self, controller_key: str, adds: int) -> None: ...
    def expect_deletions(self, controller_key: str, dels: int) -> None: ...
    def creation_observed(self, controller_key: str) -> None: ...
    def deletion_observed(self, controller_key: str) -> None: ...
    def raise_expectations(self, controller_key: str, add: int, delete: int) -> None: ...
    def lower_expectations(self, controller_key: str, add: int, delete: int) -> None: ...


@attrs.define(eq=False)
class ControlleeExpectations:
    """How many creations and deletions one controller still waits to see.

    Go: ``ControlleeExpectations`` — controller_utils.go#L236-L244
    """

    add: int
    delete: int
    key: str
    timestamp: float

    def add_(self, add: int, delete: int) -> None:
        """Go: ``(*ControlleeExpectations).Add`` — controller_utils.go#L246-L250 (``add_``: ``add`` is a field)."""
        self.add += add
        self.delete += delete

    def fulfilled(self) -> bool:
        """Go: ``Fulfilled`` — controller_utils.go#L252-L256."""
        return self.add <= 0 and self.delete <= 0

    def get_expectations(self) -> tuple[int, int]:
        """Go: ``(*ControlleeExpectations).GetExpectations`` — controller_utils.go#L258-L261."""
        return self.add, self.delete

    def is_expired(self) -> bool:
        """Go: ``isExpired`` — controller_utils.go#L181-L186 (older than five minutes)."""
        return RealClock().since(self.timestamp) > EXPECTATIONS_TIMEOUT

    def go_value(self) -> str:
        """How Go's ``%#v`` prints the pointer's value (kschedlearn-only, for the log lines)."""
        return (f'&controller.ControlleeExpectations{{add:{self.add}, del:{self.delete}, '
                f'key:"{self.key}", timestamp:{self.timestamp:g}}}')


@attrs.define(eq=False, slots=False)
class ControllerExpectations:
    """A store of :class:`ControlleeExpectations`, one per controller key.

    Go: ``ControllerExpectations`` — controller_utils.go#L129-L132 (it embeds ``cache.Store``)
    """

    store: Cache

    def get_expectations(self, controller_key: str) -> tuple[ControlleeExpectations | None, bool]:
        """Go: ``GetExpectations`` — controller_utils.go#L134-L141."""
        exp, exists = self.store.get_by_key(controller_key)
        if exists:
            return exp, True
        return None, False

    def delete_expectations(self, controller_key: str) -> None:
        """Go: ``DeleteExpectations`` — controller_utils.go#L143-L150."""
        exp, exists = self.store.get_by_key(controller_key)
        if exists:
            try:
                self.store.delete(exp)
            except PANICS:
                raise
            except Exception as err:  # noqa: BLE001 - Go logs the error
                glog.v(2).infof("Error deleting expectations for controller %v: %v", controller_key, err)

    def satisfied_expectations(self, controller_key: str) -> bool:
        """True when the adds and deletes expected were all seen, or they expired (or none).

        Go: ``SatisfiedExpectations`` — controller_utils.go#L152-L179
        """
        exp, exists = self.get_expectations(controller_key)
        if exists:
            assert exp is not None
            if exp.fulfilled():
                return True
            if exp.is_expired():
                glog.v(4).infof("Controller expectations expired %s", exp.go_value())
                return True
            glog.v(4).infof("Controller still waiting on expectations %s", exp.go_value())
            return False
        # When a new controller is created, it doesn't have expectations.
        glog.v(4).infof("Controller %v either never recorded expectations, or the ttl expired.", controller_key)
        # Trigger a sync if this controller hasn't established expectations.
        return True

    def set_expectations(self, controller_key: str, add: int, delete: int) -> None:
        """Register new expectations (forgetting older ones). Go: ``SetExpectations`` — controller_utils.go#L188-L193."""
        exp = ControlleeExpectations(add=add, delete=delete, key=controller_key, timestamp=RealClock().now())
        glog.v(4).infof("Setting expectations %s", exp.go_value())
        self.store.add(exp)

    def expect_creations(self, controller_key: str, adds: int) -> None:
        """Go: ``ExpectCreations`` — controller_utils.go#L195-L197."""
        self.set_expectations(controller_key, adds, 0)

    def expect_deletions(self, controller_key: str, dels: int) -> None:
        """Go: ``ExpectDeletions`` — controller_utils.go#L199-L201."""
        self.set_expectations(controller_key, 0, dels)

    def lower_expectations(self, controller_key: str, add: int, delete: int) -> None:
        """Go: ``LowerExpectations`` — controller_utils.go#L203-L210."""
        exp, exists = self.get_expectations(controller_key)
        if exists:
            assert exp is not None
            exp.add_(-add, -delete)
            # The expectations might've been modified since the update on the previous line.
            glog.v(4).infof("Lowered expectations %s", exp.go_value())

    def raise_expectations(self, controller_key: str, add: int, delete: int) -> None:
        """Go: ``RaiseExpectations`` — controller_utils.go#L212-L219."""
        exp, exists = self.get_expectations(controller_key)
        if exists:
            assert exp is not None
            exp.add_(add, delete)
            glog.v(4).infof("Raised expectations %s", exp.go_value())

    def creation_observed(self, controller_key: str) -> None:
        """One expected pod was seen created. Go: ``CreationObserved`` — controller_utils.go#L221-L224."""
        self.lower_expectations(controller_key, 1, 0)

    def deletion_observed(self, controller_key: str) -> None:
        """One expected pod was seen deleted. Go: ``DeletionObserved`` — controller_utils.go#L226-L229."""
        self.lower_expectations(controller_key, 0, 1)


def new_controller_expectations() -> ControllerExpectations:
    """Go: ``NewControllerExpectations`` — controller_utils.go#L263-L266."""
    return ControllerExpectations(new_store(exp_key_func))


def uid_set_key_func(obj: Any) -> str:
    """Go: ``UIDSetKeyFunc`` — controller_utils.go#L268-L274."""
    if isinstance(obj, UIDSet):
        return obj.key
    raise RuntimeError(sprintf("Could not find key for obj %#v", obj))


@attrs.define(eq=False)
class UIDSet:
    """The pod keys a controller waits to see deleted. Go: ``UIDSet`` — controller_utils.go#L276-L282."""

    string: set[str]
    key: str


@attrs.define(eq=False, slots=False)
class UIDTrackingControllerExpectations:
    """Expectations that remember *which* pods are expected to go, so a graceful deletion
    (first a ``deletionTimestamp`` update, later the delete) counts once.

    Go: ``UIDTrackingControllerExpectations`` — controller_utils.go#L284-L298 (it embeds the
    wrapped ``ControllerExpectationsInterface``; here the methods it does not override forward to it).
    Differs from Go: ``uidStoreLock`` is not needed on the cooperative runtime.
    """

    controller_expectations_interface: ControllerExpectations
    uid_store: Cache

    # -- the embedded interface (Go promotes these methods) --------------------------------
    def get_expectations(self, controller_key: str) -> tuple[ControlleeExpectations | None, bool]:
        return self.controller_expectations_interface.get_expectations(controller_key)

    def satisfied_expectations(self, controller_key: str) -> bool:
        return self.controller_expectations_interface.satisfied_expectations(controller_key)

    def set_expectations(self, controller_key: str, add: int, delete: int) -> None:
        self.controller_expectations_interface.set_expectations(controller_key, add, delete)

    def expect_creations(self, controller_key: str, adds: int) -> None:
        self.controller_expectations_interface.expect_creations(controller_key, adds)

    def creation_observed(self, controller_key: str) -> None:
        self.controller_expectations_interface.creation_observed(controller_key)

    def raise_expectations(self, controller_key: str, add: int, delete: int) -> None:
        self.controller_expectations_interface.raise_expectations(controller_key, add, delete)

    def lower_expectations(self, controller_key: str, add: int, delete: int) -> None:
        self.controller_expectations_interface.lower_expectations(controller_key, add, delete)

    # -- its own -------------------------------------------------------------------------------
    def get_uids(self, controller_key: str) -> set[str] | None:
        """Go: ``GetUIDs`` — controller_utils.go#L300-L308."""
        uid, exists = self.uid_store.get_by_key(controller_key)
        if exists:
            return uid.string
        return None

    def expect_deletions(self, rc_key: str, deleted_keys: Sequence[str]) -> None:
        """Expect these pod keys to be deleted. Go: ``ExpectDeletions`` — controller_utils.go#L310-L327."""
        existing = self.get_uids(rc_key)
        if existing is not None and len(existing) != 0:
            glog.errorf("Clobbering existing delete keys: %+v", sorted(existing))
        expected_uids: set[str] = set()
        for k in deleted_keys:
            expected_uids.add(k)
        glog.v(4).infof("Controller %v waiting on deletions for: %+v", rc_key, list(deleted_keys))
        self.uid_store.add(UIDSet(expected_uids, rc_key))
        self.controller_expectations_interface.expect_deletions(rc_key, len(expected_uids))

    def deletion_observed(self, rc_key: str, delete_key: str) -> None:
        """Count a deletion once, if it was expected. Go: ``DeletionObserved`` — controller_utils.go#L329-L340."""
        uids = self.get_uids(rc_key)
        if uids is not None and delete_key in uids:
            glog.v(4).infof("Controller %v received delete for pod %v", rc_key, delete_key)
            self.controller_expectations_interface.deletion_observed(rc_key)
            uids.discard(delete_key)

    def delete_expectations(self, rc_key: str) -> None:
        """Go: ``(*UIDTrackingControllerExpectations).DeleteExpectations`` — controller_utils.go#L342-L354."""
        self.controller_expectations_interface.delete_expectations(rc_key)
        uid_exp, exists = self.uid_store.get_by_key(rc_key)
        if exists:
            try:
                self.uid_store.delete(uid_exp)
            except PANICS:
                raise
            except Exception as err:  # noqa: BLE001 - Go logs the error
                glog.v(2).infof("Error deleting uid expectations for controller %v: %v", rc_key, err)


def new_uid_tracking_controller_expectations(ce: ControllerExpectations) -> UIDTrackingControllerExpectations:
    """Go: ``NewUIDTrackingControllerExpectations`` — controller_utils.go#L356-L360."""
    return UIDTrackingControllerExpectations(ce, new_store(uid_set_key_func))


# -- pod and replica set control ----------------------------------------------------------------

#: Go: the event reasons of controller_utils.go#L362-L376.
FAILED_CREATE_POD_REASON = "FailedCreate"
SUCCESSFUL_CREATE_POD_REASON = "SuccessfulCreate"
FAILED_DELETE_POD_REASON = "FailedDelete"
SUCCESSFUL_DELETE_POD_REASON = "SuccessfulDelete"

STRATEGIC_MERGE_PATCH_TYPE = "application/strategic-merge-patch+json"
"""Go: ``types.StrategicMergePatchType``."""


class RSControlInterface(Protocol):
    """Go: ``RSControlInterface`` — controller_utils.go#L378-L383."""

    def patch_replica_set(self, namespace: str, name: str, data: bytes) -> None: ...


@attrs.define(eq=False)
class RealRSControl:
    """Go: ``RealRSControl`` — controller_utils.go#L385-L389."""

    kube_client: Any
    recorder: Any

    def patch_replica_set(self, namespace: str, name: str, data: bytes) -> None:
        """Go: ``PatchReplicaSet`` — controller_utils.go#L393-L396."""
        self.kube_client.extensions().replica_sets(namespace).patch(name, STRATEGIC_MERGE_PATCH_TYPE, data)


class PodControlInterface(Protocol):
    """Go: ``PodControlInterface`` — controller_utils.go#L398-L412."""

    def create_pods(self, namespace: str, template: PodTemplateSpec, obj: Any) -> None: ...
    def create_pods_on_node(self, node_name: str, namespace: str, template: PodTemplateSpec, obj: Any,
                            controller_ref: OwnerReference) -> None: ...
    def create_pods_with_controller_ref(self, namespace: str, template: PodTemplateSpec, obj: Any,
                                        controller_ref: OwnerReference) -> None: ...
    def delete_pod(self, namespace: str, pod_id: str, obj: Any) -> None: ...
    def patch_pod(self, namespace: str, name: str, data: bytes) -> None: ...


def get_pods_label_set(template: PodTemplateSpec) -> Set:
    """Go: ``getPodsLabelSet`` — controller_utils.go#L422-L428."""
    desired_labels = Set()
    for k, v in template.metadata.labels.items():
        desired_labels[k] = v
    return desired_labels


def get_pods_finalizers(template: PodTemplateSpec) -> tuple[str, ...]:
    """Go: ``getPodsFinalizers`` — controller_utils.go#L430-L434."""
    return tuple(template.metadata.finalizers)


def get_pods_annotation_set(template: PodTemplateSpec, obj: Any) -> Set:
    """The template's annotations plus ``kubernetes.io/created-by`` (a v1 SerializedReference).

    Go: ``getPodsAnnotationSet`` — controller_utils.go#L436-L459
    Differs from Go: the reference is encoded here with Go's field order and ``omitempty``
    (Go: ``v1.GetReference`` + ``runtime.Encode`` with the v1 legacy codec, which ends the JSON
    with a newline).
    """
    desired_annotations = Set()
    for k, v in template.metadata.annotations.items():
        desired_annotations[k] = v
    meta = obj.metadata
    reference = {"kind": type(obj).kind, "namespace": meta.namespace, "name": meta.name, "uid": meta.uid,
                 "apiVersion": type(obj).api_version, "resourceVersion": meta.resource_version}
    created_by_ref_json = json.dumps({"kind": "SerializedReference", "apiVersion": "v1",
                                      "reference": {k: v for k, v in reference.items() if v}},
                                     separators=(",", ":")) + "\n"
    desired_annotations[CREATED_BY_ANNOTATION] = created_by_ref_json
    return desired_annotations


def get_pods_prefix(controller_name: str) -> str:
    """``<name>-`` when that is a valid name prefix, else the name.

    Go: ``getPodsPrefix`` — controller_utils.go#L461-L468 (``ValidatePodName(prefix, true)``
    masks the trailing dash before checking the DNS-subdomain rule).
    """
    # use the dash (if the name isn't too long) to make the pod name a bit prettier
    prefix = sprintf("%s-", controller_name)
    if len(is_dns1123_subdomain(prefix[:-1] + "a")) != 0:
        prefix = controller_name
    return prefix


def validate_controller_ref(controller_ref: OwnerReference | None) -> None:
    """Go: ``validateControllerRef`` — controller_utils.go#L470-L487 (raises instead of returning)."""
    if controller_ref is None:
        raise RuntimeError("controllerRef is nil")
    if len(controller_ref.api_version) == 0:
        raise RuntimeError("controllerRef has empty APIVersion")
    if len(controller_ref.kind) == 0:
        raise RuntimeError("controllerRef has empty Kind")
    if controller_ref.controller is not True:
        raise RuntimeError("controllerRef.Controller is not set to true")
    if controller_ref.block_owner_deletion is not True:
        raise RuntimeError("controllerRef.BlockOwnerDeletion is not set")


def get_pod_from_template(template: PodTemplateSpec, parent_object: Any,
                          controller_ref: OwnerReference | None) -> Pod:
    """The pod a controller creates from its template (``generateName`` = ``<parent>-``).

    Go: ``GetPodFromTemplate`` — controller_utils.go#L512-L542
    """
    desired_labels = get_pods_label_set(template)
    desired_finalizers = get_pods_finalizers(template)
    desired_annotations = get_pods_annotation_set(template, parent_object)
    prefix = get_pods_prefix(parent_object.metadata.name)
    owner_references: tuple[OwnerReference, ...] = ()
    if controller_ref is not None:
        owner_references = (controller_ref,)
    return Pod(
        metadata=ObjectMeta(labels=dict(desired_labels), annotations=dict(desired_annotations),
                            generate_name=prefix, finalizers=desired_finalizers,
                            owner_references=owner_references),
        spec=template.spec,  # Go deep-copies the spec; values are frozen here
    )


@attrs.define(eq=False, slots=False)
class RealPodControl:
    """Creates and deletes pods through the API server and records events about them.

    Go: ``RealPodControl`` — controller_utils.go#L414-L418
    """

    kube_client: Any
    recorder: Any

    def create_pods(self, namespace: str, template: PodTemplateSpec, obj: Any) -> None:
        """Go: ``CreatePods`` — controller_utils.go#L489-L491."""
        self._create_pods("", namespace, template, obj, None)

    def create_pods_with_controller_ref(self, namespace: str, template: PodTemplateSpec, controller_object: Any,
                                        controller_ref: OwnerReference) -> None:
        """Go: ``CreatePodsWithControllerRef`` — controller_utils.go#L493-L498."""
        validate_controller_ref(controller_ref)
        self._create_pods("", namespace, template, controller_object, controller_ref)

    def create_pods_on_node(self, node_name: str, namespace: str, template: PodTemplateSpec, obj: Any,
                            controller_ref: OwnerReference) -> None:
        """Create a pod already bound to ``node_name`` (the DaemonSet controller's way).

        Go: ``CreatePodsOnNode`` — controller_utils.go#L500-L505
        """
        validate_controller_ref(controller_ref)
        self._create_pods(node_name, namespace, template, obj, controller_ref)

    def patch_pod(self, namespace: str, name: str, data: bytes) -> None:
        """Go: ``PatchPod`` — controller_utils.go#L507-L510."""
        self.kube_client.core().pods(namespace).patch(name, STRATEGIC_MERGE_PATCH_TYPE, data)

    def _create_pods(self, node_name: str, namespace: str, template: PodTemplateSpec, obj: Any,
                     controller_ref: OwnerReference | None) -> None:
        """Go: ``createPods`` — controller_utils.go#L544-L568."""
        pod = get_pod_from_template(template, obj, controller_ref)
        if len(node_name) != 0:
            pod = attrs.evolve(pod, spec=attrs.evolve(pod.spec, node_name=node_name))
        if Set(pod.metadata.labels).as_selector_pre_validated().empty():
            raise RuntimeError("unable to create pods, no labels")
        try:
            new_pod = self.kube_client.core().pods(namespace).create(pod)
        except PANICS:
            raise
        except Exception as err:
            self.recorder.eventf(obj, EVENT_TYPE_WARNING, FAILED_CREATE_POD_REASON, "Error creating: %v", err)
            raise RuntimeError(sprintf("unable to create pods: %v", err)) from err
        glog.v(4).infof("Controller %v created pod %v", obj.metadata.name, new_pod.metadata.name)
        self.recorder.eventf(obj, EVENT_TYPE_NORMAL, SUCCESSFUL_CREATE_POD_REASON, "Created pod: %v",
                             new_pod.metadata.name)

    def delete_pod(self, namespace: str, pod_id: str, obj: Any) -> None:
        """Go: ``DeletePod`` — controller_utils.go#L570-L583."""
        glog.v(2).infof("Controller %v deleting pod %v/%v", obj.metadata.name, namespace, pod_id)
        try:
            self.kube_client.core().pods(namespace).delete(pod_id)
        except PANICS:
            raise
        except Exception as err:
            self.recorder.eventf(obj, EVENT_TYPE_WARNING, FAILED_DELETE_POD_REASON, "Error deleting: %v", err)
            raise RuntimeError(sprintf("unable to delete pods: %v", err)) from err
        self.recorder.eventf(obj, EVENT_TYPE_NORMAL, SUCCESSFUL_DELETE_POD_REASON, "Deleted pod: %v", pod_id)


@attrs.define(eq=False)
class FakePodControl:
    """The test double the Go tests hand to controllers: it records what it was asked to do.

    Go: ``FakePodControl`` — controller_utils.go#L585-L592
    """

    templates: list[PodTemplateSpec] = attrs.field(factory=list)
    controller_refs: list[OwnerReference] = attrs.field(factory=list)
    delete_pod_name: list[str] = attrs.field(factory=list)
    patches: list[bytes] = attrs.field(factory=list)
    err: BaseException | None = None

    def _maybe_fail(self) -> None:
        if self.err is not None:
            raise self.err

    def patch_pod(self, namespace: str, name: str, data: bytes) -> None:
        """Go: ``(*FakePodControl).PatchPod`` — records the patch."""
        self.patches.append(data)
        self._maybe_fail()

    def create_pods(self, namespace: str, spec: PodTemplateSpec, obj: Any) -> None:
        """Go: ``(*FakePodControl).CreatePods`` — records the template."""
        self.templates.append(spec)
        self._maybe_fail()

    def create_pods_with_controller_ref(self, namespace: str, spec: PodTemplateSpec, obj: Any,
                                        controller_ref: OwnerReference) -> None:
        """Go: ``(*FakePodControl).CreatePodsWithControllerRef`` — records the template and the controller reference."""
        self.templates.append(spec)
        self.controller_refs.append(controller_ref)
        self._maybe_fail()

    def create_pods_on_node(self, node_name: str, namespace: str, template: PodTemplateSpec, obj: Any,
                            controller_ref: OwnerReference) -> None:
        """Go: ``(*FakePodControl).CreatePodsOnNode`` — records the template and the controller reference."""
        self.templates.append(template)
        self.controller_refs.append(controller_ref)
        self._maybe_fail()

    def delete_pod(self, namespace: str, pod_id: str, obj: Any) -> None:
        """Go: ``(*FakePodControl).DeletePod`` — records the pod's name."""
        self.delete_pod_name.append(pod_id)
        self._maybe_fail()

    def clear(self) -> None:
        """Go: ``(*FakePodControl).Clear`` — forgets everything recorded."""
        self.delete_pod_name = []
        self.templates = []
        self.controller_refs = []
        self.patches = []


# -- sort orders ---------------------------------------------------------------------------------

def _has_time(t: float | None) -> bool:
    return t is not None


def _go_time(t: float | None) -> float:
    """A time for ordering: Go's zero ``metav1.Time`` (year 1) is before every real time."""
    return float("-inf") if t is None else t


def after_or_zero(t1: float | None, t2: float | None) -> bool:
    """Whether t1 is after t2, a zero time counting as after any other.

    Go: ``afterOrZero`` — controller_utils.go#L734-L741
    """
    if not _has_time(t1) or not _has_time(t2):
        return not _has_time(t1)
    return t1 > t2  # type: ignore[operator]


def pod_ready_time(pod: Pod) -> float | None:
    """Go: ``podReadyTime`` — controller_utils.go#L743-L753."""
    if is_pod_ready(pod):
        for c in pod.status.conditions:
            # we only care about pod ready conditions
            if c.type == "Ready" and c.status == "True":
                return c.last_transition_time
    return None


def max_container_restarts(pod: Pod) -> int:
    """Go: ``maxContainerRestarts`` — controller_utils.go#L755-L761.

    Differs from Go: container statuses are not modelled, so every pod has 0 restarts.
    """
    return 0


def by_logging_less(a: Pod, b: Pod) -> bool:
    """The pod best to read logs from first. Go: ``ByLogging.Less`` — controller_utils.go#L663-L692."""
    # 1. assigned < unassigned
    if a.spec.node_name != b.spec.node_name and (len(a.spec.node_name) == 0 or len(b.spec.node_name) == 0):
        return len(a.spec.node_name) > 0
    # 2. PodRunning < PodUnknown < PodPending
    m = {"Running": 0, "Unknown": 1, "Pending": 2}
    if m.get(a.status.phase, 0) != m.get(b.status.phase, 0):
        return m.get(a.status.phase, 0) < m.get(b.status.phase, 0)
    # 3. ready < not ready
    if is_pod_ready(a) != is_pod_ready(b):
        return is_pod_ready(a)
    # 4. Been ready for more time < less time < empty time
    if is_pod_ready(a) and is_pod_ready(b) and pod_ready_time(a) != pod_ready_time(b):
        return after_or_zero(pod_ready_time(b), pod_ready_time(a))
    # 5. Pods with containers with higher restart counts < lower restart counts
    if max_container_restarts(a) != max_container_restarts(b):
        return max_container_restarts(a) > max_container_restarts(b)
    # 6. older pods < newer pods < empty timestamp pods
    if a.metadata.creation_timestamp != b.metadata.creation_timestamp:
        return after_or_zero(b.metadata.creation_timestamp, a.metadata.creation_timestamp)
    return False


def active_pods_less(a: Pod, b: Pod) -> bool:
    """The pod best to delete first: unassigned, pending, not ready, ready the shortest, newest.

    Go: ``ActivePods.Less`` — controller_utils.go#L700-L732
    """
    # 1. Unassigned < assigned
    if a.spec.node_name != b.spec.node_name and (len(a.spec.node_name) == 0 or len(b.spec.node_name) == 0):
        return len(a.spec.node_name) == 0
    # 2. PodPending < PodUnknown < PodRunning (a phase missing from Go's map counts as 0)
    m = {"Pending": 0, "Unknown": 1, "Running": 2}
    if m.get(a.status.phase, 0) != m.get(b.status.phase, 0):
        return m.get(a.status.phase, 0) < m.get(b.status.phase, 0)
    # 3. Not ready < ready
    if is_pod_ready(a) != is_pod_ready(b):
        return not is_pod_ready(a)
    # 4. Been ready for empty time < less time < more time
    if is_pod_ready(a) and is_pod_ready(b) and pod_ready_time(a) != pod_ready_time(b):
        return after_or_zero(pod_ready_time(a), pod_ready_time(b))
    # 5. Pods with containers with higher restart counts < lower restart counts
    if max_container_restarts(a) != max_container_restarts(b):
        return max_container_restarts(a) > max_container_restarts(b)
    # 6. Empty creation time pods < newer pods < older pods
    if a.metadata.creation_timestamp != b.metadata.creation_timestamp:
        return after_or_zero(a.metadata.creation_timestamp, b.metadata.creation_timestamp)
    return False


def sort_active_pods(pods: list[Pod]) -> None:
    """Go: ``sort.Sort(controller.ActivePods(pods))``."""
    sort_by_less(pods, active_pods_less)


def filter_active_pods(pods: Sequence[Pod]) -> list[Pod]:
    """The pods that have not terminated. Go: ``FilterActivePods`` — controller_utils.go#L763-L775."""
    result = []
    for p in pods:
        if is_pod_active(p):
            result.append(p)
        else:
            glog.v(4).infof("Ignoring inactive pod %v/%v in state %v, deletion time %v",
                            p.metadata.namespace, p.metadata.name, p.status.phase, p.metadata.deletion_timestamp)
    return result


def is_pod_active(p: Pod) -> bool:
    """Not Succeeded, not Failed, not being deleted. Go: ``IsPodActive`` — controller_utils.go#L777-L781."""
    return p.status.phase != "Succeeded" and p.status.phase != "Failed" and p.metadata.deletion_timestamp is None


def filter_active_replica_sets(replica_sets: Sequence[Any]) -> list[Any]:
    """Replica sets that want pods. Go: ``FilterActiveReplicaSets`` — controller_utils.go#L783-L789."""
    return filter_replica_sets(replica_sets, lambda rs: rs is not None and rs.spec.replicas > 0)


def filter_replica_sets(rses: Sequence[Any], filter_fn: Callable[[Any], bool]) -> list[Any]:
    """Go: ``FilterReplicaSets`` — controller_utils.go#L793-L802."""
    filtered = []
    for rs in rses:
        if filter_fn(rs):
            filtered.append(rs)
    return filtered


def pod_key(pod: Pod) -> str:
    """``namespace/name``. Go: ``PodKey`` — controller_utils.go#L804-L810."""
    return sprintf("%v/%v", pod.metadata.namespace, pod.metadata.name)


def controllers_by_creation_timestamp_less(a: Any, b: Any) -> bool:
    """Oldest first, names breaking ties. Go: ``ControllersByCreationTimestamp.Less`` — controller_utils.go#L817-L822."""
    if a.metadata.creation_timestamp == b.metadata.creation_timestamp:
        return a.metadata.name < b.metadata.name
    return _go_time(a.metadata.creation_timestamp) < _go_time(b.metadata.creation_timestamp)


def replica_sets_by_creation_timestamp_less(a: Any, b: Any) -> bool:
    """Go: ``ReplicaSetsByCreationTimestamp.Less`` — controller_utils.go#L829-L834."""
    if a.metadata.creation_timestamp == b.metadata.creation_timestamp:
        return a.metadata.name < b.metadata.name
    return _go_time(a.metadata.creation_timestamp) < _go_time(b.metadata.creation_timestamp)


def replica_sets_by_size_older_less(a: Any, b: Any) -> bool:
    """Largest first; among equals the older first. Go: ``ReplicaSetsBySizeOlder.Less`` — controller_utils.go#L842-L847."""
    if a.spec.replicas == b.spec.replicas:
        return replica_sets_by_creation_timestamp_less(a, b)
    return a.spec.replicas > b.spec.replicas


def replica_sets_by_size_newer_less(a: Any, b: Any) -> bool:
    """Largest first; among equals the newer first. Go: ``ReplicaSetsBySizeNewer.Less`` — controller_utils.go#L855-L860."""
    if a.spec.replicas == b.spec.replicas:
        return replica_sets_by_creation_timestamp_less(b, a)
    return a.spec.replicas > b.spec.replicas


__all__ = [
    "CREATED_BY_ANNOTATION", "EXPECTATIONS_TIMEOUT", "FAILED_CREATE_POD_REASON", "FAILED_DELETE_POD_REASON",
    "STRATEGIC_MERGE_PATCH_TYPE", "SUCCESSFUL_CREATE_POD_REASON", "SUCCESSFUL_DELETE_POD_REASON",
    "ControlleeExpectations", "ControllerExpectations", "ControllerExpectationsInterface", "FakePodControl",
    "PodControlInterface", "RSControlInterface", "RealPodControl", "RealRSControl", "ResyncPeriodFunc", "UIDSet",
    "UIDTrackingControllerExpectations", "active_pods_less", "after_or_zero", "by_logging_less",
    "controllers_by_creation_timestamp_less", "exp_key_func", "filter_active_pods", "filter_active_replica_sets",
    "filter_replica_sets", "get_pod_from_template", "get_pods_annotation_set", "get_pods_finalizers",
    "get_pods_label_set", "get_pods_prefix", "is_pod_active", "key_func", "max_container_restarts",
    "new_controller_expectations", "new_uid_tracking_controller_expectations", "no_resync_period_func",
    "pod_key", "pod_ready_time", "replica_sets_by_creation_timestamp_less", "replica_sets_by_size_newer_less",
    "replica_sets_by_size_older_less", "sort_active_pods", "static_resync_period_func", "uid_set_key_func",
    "validate_controller_ref",
]
