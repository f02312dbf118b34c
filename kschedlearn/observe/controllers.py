"""Trace points of kube-controller-manager's controllers, attached from outside the mirror.

Go: none — kschedlearn-only (the Observation rule: the mirrored controllers hold only Go-twin
statements). Once the controller manager has built its controllers (``on_created`` of
:func:`kschedlearn.cmd.kube_controller_manager.app.controllermanager.run`), the world calls
:func:`observe_controller_manager`, which puts thin wrappers in place of two fields of each
ReplicationManager, ReplicaSetController and DaemonSetsController instance:

- ``expectations`` — ``controller.expect`` when a sync raises its expectations (the batch of
  creates or deletes ``manageReplicas`` is about to send: one goroutine per pod, no slow start
  in 1.6) and ``controller.observed`` as the informer sees each of them arrive, until the
  expectations are satisfied and the next sync may act again;
- ``pod_control`` — ``controller.adopt`` / ``controller.release`` when the ControllerRef manager
  patches a pod's ownerReferences, and ``daemonset.bind`` when the DaemonSet controller creates a
  pod with ``spec.nodeName`` already set (in 1.6 those pods never pass through kube-scheduler).

Each wrapper looks the wrapped object's method up at call time (a method swapped onto the class
later is what runs) and only records; what the controller does is unchanged. Nothing happens at
import time but registering the stages' descriptions.
"""

from __future__ import annotations

import json
from typing import Any

import attrs

from kschedlearn.trace import emit, register_stage
from kschedlearn.trace.stages import K8S

_UTILS = K8S + "pkg/controller/controller_utils.go"
for _name, _ref, _why in [
    ("controller.expect", _UTILS + "#L195-L202",
     "A sync decided to create (or delete) pods: before sending the batch it raises its expectations, so the "
     "next syncs wait until the informer has seen every one of them (no double creates)."),
    ("controller.observed", _UTILS + "#L222-L230",
     "The informer delivered one of the pods the controller was waiting for; when the count reaches zero the "
     "expectations are satisfied and the controller may act on the object again."),
    ("controller.adopt", K8S + "pkg/controller/controller_ref_manager.go#L219-L233",
     "A pod matching the controller's selector had no controller: the ControllerRef manager patches an "
     "ownerReference (controller: true) onto it and counts it as one of its own."),
    ("controller.release", K8S + "pkg/controller/controller_ref_manager.go#L235-L256",
     "A pod owned by this controller no longer matches its selector: its ownerReference is removed."),
    ("daemonset.bind", _UTILS + "#L500-L505",
     "The DaemonSet controller of 1.6 picks the node itself (its own predicates) and creates the pod with "
     "spec.nodeName set: the pod is born bound and never enters kube-scheduler's podQueue."),
]:
    register_stage(_name, _ref, _why)

#: the controllers whose expectations and pod control get trace points, by 1.6's names
OBSERVED = ("replicationcontroller", "replicaset", "daemonset")
_KINDS = {"replicationcontroller": "ReplicationController", "replicaset": "ReplicaSet", "daemonset": "DaemonSet"}


@attrs.define(eq=False)
class ObservedExpectations:
    """Records ``controller.expect`` / ``controller.observed`` around a controller's expectations."""

    inner: Any
    kind: str

    def _pending(self, key: str) -> tuple[int, int]:
        exp, exists = self.inner.get_expectations(key)
        return exp.get_expectations() if exists and exp is not None else (0, 0)

    def _expected(self, key: str, verb: str, n: int) -> None:
        add, dele = self._pending(key)
        emit("controller.expect", f"{self.kind} {key}: expects {n} pod {verb} (a batch of {verb} goes out)",
             data={"kind": self.kind, "key": key, "verb": verb, "count": n, "add": add, "del": dele})

    def _observed(self, key: str, verb: str) -> None:
        add, dele = self._pending(key)
        left = add if verb == "creation" else dele
        satisfied = self.inner.satisfied_expectations(key)
        emit("controller.observed", f"{self.kind} {key}: a pod {verb} observed ({max(left, 0)} still expected"
             + ("; expectations satisfied" if satisfied and left <= 0 else "") + ")",
             data={"kind": self.kind, "key": key, "verb": verb, "add": add, "del": dele, "satisfied": satisfied})

    # -- the expectations interface, forwarded ------------------------------------------------
    def get_expectations(self, key: str) -> Any:
        return self.inner.get_expectations(key)

    def satisfied_expectations(self, key: str) -> bool:
        return self.inner.satisfied_expectations(key)

    def delete_expectations(self, key: str) -> None:
        self.inner.delete_expectations(key)

    def set_expectations(self, key: str, add: int, delete: int) -> None:
        self.inner.set_expectations(key, add, delete)

    def raise_expectations(self, key: str, add: int, delete: int) -> None:
        self.inner.raise_expectations(key, add, delete)

    def lower_expectations(self, key: str, add: int, delete: int) -> None:
        self.inner.lower_expectations(key, add, delete)

    def get_uids(self, key: str) -> Any:
        return self.inner.get_uids(key)

    def expect_creations(self, key: str, adds: int) -> None:
        self.inner.expect_creations(key, adds)
        self._expected(key, "creations", adds)

    def expect_deletions(self, key: str, dels: Any) -> None:
        self.inner.expect_deletions(key, dels)
        self._expected(key, "deletions", dels if isinstance(dels, int) else len(dels))

    def creation_observed(self, key: str) -> None:
        self.inner.creation_observed(key)
        self._observed(key, "creation")

    def deletion_observed(self, key: str, *pod_key: str) -> None:
        self.inner.deletion_observed(key, *pod_key)
        self._observed(key, "deletion")


@attrs.define(eq=False)
class ObservedPodControl:
    """Records adoptions, releases and DaemonSet pods created already bound."""

    inner: Any
    kind: str

    def create_pods(self, namespace: str, template: Any, obj: Any) -> None:
        self.inner.create_pods(namespace, template, obj)

    def create_pods_with_controller_ref(self, namespace: str, template: Any, obj: Any, controller_ref: Any) -> None:
        self.inner.create_pods_with_controller_ref(namespace, template, obj, controller_ref)

    def create_pods_on_node(self, node_name: str, namespace: str, template: Any, obj: Any,
                            controller_ref: Any = None) -> None:
        self.inner.create_pods_on_node(node_name, namespace, template, obj, controller_ref)
        name = f"{obj.metadata.namespace}/{obj.metadata.name}"
        emit("daemonset.bind", f"{self.kind} {name} created a pod on {node_name} with spec.nodeName set "
             "(kube-scheduler never sees it)", data={"kind": self.kind, "owner": name, "node": node_name})

    def delete_pod(self, namespace: str, pod_id: str, obj: Any) -> None:
        self.inner.delete_pod(namespace, pod_id, obj)

    def patch_pod(self, namespace: str, name: str, data: bytes) -> None:
        self.inner.patch_pod(namespace, name, data)
        release = b'"$patch":"delete"' in data
        owner = _patch_owner(data)
        stage = "controller.release" if release else "controller.adopt"
        verb = "released" if release else "adopted"
        emit(stage, f"{self.kind} {verb} pod {namespace}/{name}" + (f" ({owner})" if owner else ""),
             data={"kind": self.kind, "pod": f"{namespace}/{name}", "owner_uid": owner})


def _patch_owner(data: bytes) -> str:
    try:
        refs = json.loads(data).get("metadata", {}).get("ownerReferences", [])
    except (ValueError, AttributeError):
        return ""
    return refs[0].get("uid", "") if refs and isinstance(refs[0], dict) else ""


def observe_controller(name: str, controller: Any) -> None:
    """Put the wrappers on one controller instance (``name``: 1.6's controller name)."""
    kind = _KINDS[name]
    if not isinstance(controller.expectations, ObservedExpectations):
        controller.expectations = ObservedExpectations(controller.expectations, kind)
    if not isinstance(controller.pod_control, ObservedPodControl):
        controller.pod_control = ObservedPodControl(controller.pod_control, kind)


def observe_controller_manager(handles: Any) -> None:
    """The world's ``on_created``: trace points on every controller the manager built."""
    for name in OBSERVED:
        controller = handles.controllers.get(name)
        if controller is not None:
            observe_controller(name, controller)


__all__ = ["OBSERVED", "ObservedExpectations", "ObservedPodControl", "observe_controller",
           "observe_controller_manager"]
