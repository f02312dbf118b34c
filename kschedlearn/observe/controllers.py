"""Trace points of kube-controller-manager, and the notebook's handles on what it builds.

Go: none — kschedlearn-only (DESIGN principle 5: ``app.Run``, ``StartControllers``, the InitFuncs
and the controllers carry no notebook lines). Everything is attached per simulation by
:func:`observe_kube_controller_manager`, at calls the Go code makes:

- what ``app.Run`` and ``StartControllers`` build — the ``controller-manager`` client, the HTTP
  mux, the leader elector, the shared informer factory, the stop channel — and the controller each
  InitFunc's ``New...`` call returns fill the process's
  :class:`~kschedlearn.observe.observation.ControllerManagerHandles`;
- on each ReplicationManager, ReplicaSetController and DaemonSetsController, as its ``New...``
  returns (before its ``Run`` starts), instance probes (:func:`~kschedlearn.observe.wrap.on_method`)
  on two of its fields:

  - ``expectations`` — ``controller.expect`` after a sync raised its expectations (the batch of
    creates or deletes ``manageReplicas`` is about to send: one goroutine per pod, no slow start
    in 1.6) and ``controller.observed`` after the informer saw one of them arrive, until the
    expectations are satisfied and the next sync may act again;
  - ``podControl`` — ``controller.adopt`` / ``controller.release`` after the ControllerRef manager
    patched a pod's ownerReferences, and ``daemonset.bind`` after the DaemonSet controller created
    a pod with ``spec.nodeName`` already set (in 1.6 those pods never pass through kube-scheduler).

Each probe looks the method up on the instance's class when called (a method swapped onto the
class later is what runs) and only records; what the controller does is unchanged.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from kschedlearn.client.leaderelection import leaderelection
from kschedlearn.client_go import informers
from kschedlearn.cmd.kube_controller_manager.app import apps, controllermanager, core, extensions
from kschedlearn.cmd.kube_scheduler.app import server as scheduler_server
from kschedlearn.controller.client_builder import SimpleControllerClientBuilder
from kschedlearn.controller.controller_utils import RealPodControl
from kschedlearn.observe.informers import observe_informer_factory
from kschedlearn.observe.observation import ControllerManagerHandles, Observation
from kschedlearn.observe.points import point
from kschedlearn.observe.wrap import Call, on_method, site_of
from kschedlearn.trace import register_stage
from kschedlearn.trace.stages import K8S

_UTILS = K8S + "pkg/controller/controller_utils.go"
for _name, _ref, _why in [
    ("controller.expect", _UTILS + "#L195-L201",
     "A sync decided to create (or delete) pods: before sending the batch it raises its expectations, so the "
     "next syncs wait until the informer has seen every one of them (no double creates)."),
    ("controller.observed", _UTILS + "#L221-L229",
     "The informer delivered one of the pods the controller was waiting for; when the count reaches zero the "
     "expectations are satisfied and the controller may act on the object again."),
    ("controller.adopt", K8S + "pkg/controller/controller_ref_manager.go#L217-L230",
     "A pod matching the controller's selector had no controller: the ControllerRef manager patches an "
     "ownerReference (controller: true) onto it and counts it as one of its own."),
    ("controller.release", K8S + "pkg/controller/controller_ref_manager.go#L232-L257",
     "A pod owned by this controller no longer matches its selector: its ownerReference is removed."),
    ("daemonset.bind", _UTILS + "#L500-L505",
     "The DaemonSet controller of 1.6 picks the node itself (its own predicates) and creates the pod with "
     "spec.nodeName set: the pod is born bound and never enters kube-scheduler's podQueue."),
]:
    register_stage(_name, _ref, _why)

#: the controllers whose expectations and pod control get trace points, by 1.6's names
OBSERVED = ("replicationcontroller", "replicaset", "daemonset")
_KINDS = {"replicationcontroller": "ReplicationController", "replicaset": "ReplicaSet", "daemonset": "DaemonSet"}

#: (InitFunc's module, the constructor it calls, the InitFunc, 1.6's controller name)
_CONSTRUCTORS: tuple[tuple[Any, str, Callable[..., Any], str], ...] = (
    (core, "new_replication_manager", core.start_replication_controller, "replicationcontroller"),
    (core, "new_garbage_collector", core.start_garbage_collector_controller, "garbagecollector"),
    (extensions, "new_daemon_sets_controller", extensions.start_daemon_set_controller, "daemonset"),
    (extensions, "new_deployment_controller", extensions.start_deployment_controller, "deployment"),
    (extensions, "new_replica_set_controller", extensions.start_replica_set_controller, "replicaset"),
    (apps, "new_stateful_set_controller", apps.start_stateful_set_controller, "statefuleset"),
)


# -- expectations -----------------------------------------------------------------------------

def _pending(expectations: Any, key: str) -> tuple[Any, int, int]:
    """(the ControlleeExpectations or None, adds, deletes) still expected for ``key`` — read
    without ``SatisfiedExpectations``, whose glog lines are the controller's own."""
    exp, exists = expectations.get_expectations(key)
    if not exists or exp is None:
        return None, 0, 0
    add, dele = exp.get_expectations()
    return exp, add, dele


def _expected(kind: str, verb: str) -> Callable[[Call], None]:
    def announce(call: Call) -> None:
        key, what = call.args[0], call.args[1]
        n = what if isinstance(what, int) else len(what)
        _, add, dele = _pending(call.receiver, key)
        point("controller.expect", f"{kind} {key}: expects {n} pod {verb} (a batch of {verb} goes out)",
              {"kind": kind, "key": key, "verb": verb, "count": n, "add": add, "del": dele},
              getattr(type(call.receiver), f"expect_{verb}"))

    return announce


def _observed(kind: str, verb: str) -> Callable[[Call], None]:
    def announce(call: Call) -> None:
        key = call.args[0]
        exp, add, dele = _pending(call.receiver, key)
        left = add if verb == "creation" else dele
        satisfied = exp is None or exp.fulfilled() or exp.is_expired()
        point("controller.observed", f"{kind} {key}: a pod {verb} observed ({max(left, 0)} still expected"
              + ("; expectations satisfied" if satisfied and left <= 0 else "") + ")",
              {"kind": kind, "key": key, "verb": verb, "add": add, "del": dele, "satisfied": satisfied},
              getattr(type(call.receiver), f"{verb}_observed"))

    return announce


def observe_expectations(expectations: Any, kind: str) -> None:
    """``controller.expect`` / ``controller.observed`` on one controller's expectations."""
    on_method(expectations, "expect_creations", after=_expected(kind, "creations"))
    on_method(expectations, "expect_deletions", after=_expected(kind, "deletions"))
    on_method(expectations, "creation_observed", after=_observed(kind, "creation"))
    on_method(expectations, "deletion_observed", after=_observed(kind, "deletion"))


# -- pod control ------------------------------------------------------------------------------

def _patch_owner(data: bytes) -> str:
    try:
        refs = json.loads(data).get("metadata", {}).get("ownerReferences", [])
    except (ValueError, AttributeError):
        return ""
    return refs[0].get("uid", "") if refs and isinstance(refs[0], dict) else ""


def _patched(kind: str) -> Callable[[Call], None]:
    def announce(call: Call) -> None:
        namespace, name, data = call.args[:3]
        release = b'"$patch":"delete"' in data
        owner = _patch_owner(data)
        point("controller.release" if release else "controller.adopt",
              f"{kind} {'released' if release else 'adopted'} pod {namespace}/{name}" + (f" ({owner})" if owner else ""),
              {"kind": kind, "pod": f"{namespace}/{name}", "owner_uid": owner}, RealPodControl.patch_pod)

    return announce


def _created_on_node(kind: str) -> Callable[[Call], None]:
    def announce(call: Call) -> None:
        node_name, obj = call.args[0], call.args[3]
        owner = f"{obj.metadata.namespace}/{obj.metadata.name}"
        point("daemonset.bind", f"{kind} {owner} created a pod on {node_name} with spec.nodeName set "
              "(kube-scheduler never sees it)", {"kind": kind, "owner": owner, "node": node_name},
              RealPodControl.create_pods_on_node)

    return announce


def observe_pod_control(pod_control: Any, kind: str) -> None:
    """``controller.adopt`` / ``controller.release`` / ``daemonset.bind`` on one controller's podControl."""
    on_method(pod_control, "patch_pod", after=_patched(kind))
    on_method(pod_control, "create_pods_on_node", after=_created_on_node(kind))


def observe_controller(name: str, controller: Any) -> None:
    """The trace points of one controller (``name``: 1.6's controller name), if it has any."""
    if name not in OBSERVED:
        return
    kind = _KINDS[name]
    observe_expectations(controller.expectations, kind)
    observe_pod_control(controller.pod_control, kind)


# -- the controller manager's start-up ----------------------------------------------------------

def observe_kube_controller_manager(observation: Observation) -> None:
    """Attach kube-controller-manager's trace points and handles to ``observation``'s simulation
    (once; every controller manager process of it is observed)."""
    if not observation.first_time("kube-controller-manager"):
        return
    handles: Callable[[], ControllerManagerHandles] = observation.controller_manager
    on = observation.on_attribute
    run, start_controllers = site_of(controllermanager.run), site_of(controllermanager.start_controllers)

    def client_built(call: Call) -> None:
        if call.args[1] == "controller-manager":
            handles().kube_client = call.result

    def informer_factory(call: Call) -> None:
        handles().informer_factory = call.result
        observe_informer_factory(call.result)

    on(controllermanager, "run", before=lambda c: setattr(handles(), "s", c.args[0]))
    on(SimpleControllerClientBuilder, "client", site=run, after=client_built)
    on(scheduler_server, "HTTPEndpoints", site=run, after=lambda c: setattr(handles(), "http", c.result))
    on(leaderelection, "new_leader_elector", site=run, after=lambda c: setattr(handles(), "elector", c.result))
    on(controllermanager, "start_controllers", before=lambda c: setattr(handles(), "stop", c.args[4]))
    on(informers, "new_shared_informer_factory", site=start_controllers, after=informer_factory)
    for module, constructor, init_func, name in _CONSTRUCTORS:
        on(module, constructor, site=site_of(init_func), after=_built(handles, name))


def _built(handles: Callable[[], ControllerManagerHandles], name: str) -> Callable[[Call], None]:
    def record(call: Call) -> None:
        handles().controllers[name] = call.result
        observe_controller(name, call.result)

    return record


__all__ = ["OBSERVED", "observe_controller", "observe_expectations", "observe_kube_controller_manager",
           "observe_pod_control"]
