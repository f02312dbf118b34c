"""The scenario's kube-controller-manager: its process, its trace points, and the timeline
actions that talk to its controllers (``apply``, ``scale``).

Go: none — kschedlearn-only. A world whose scenario asks for it (``controller_manager:``, and
``kschedlearn serve`` unless the scenario says ``false``) runs 1.6's controller manager
(:mod:`kschedlearn.cmd.kube_controller_manager`) as a process of its own named
``kube-controller-manager``: a Go panic or ``glog.Fatal`` in a controller ends that process,
as it ends the binary, and the timeline's ``kill: kube-controller-manager`` crashes it. The
API server then honours deletion finalizers (``enable_garbage_collection``) and the kubelet
reports started pods Ready (the controllers count ready and available pods).
"""

from __future__ import annotations

from typing import Any

import attrs

from kschedlearn import sim
from kschedlearn.observe import ControllerManagerHandles
from kschedlearn.scenarios.scenario import CONTROLLER_MANAGER, SCALABLE, ControllerManagerSpec

#: ``scale`` names → (resource, kind)
SCALE_TARGETS = {"replicationcontroller": ("replicationcontrollers", "ReplicationController"),
                 "replicaset": ("replicasets", "ReplicaSet"), "deployment": ("deployments", "Deployment"),
                 "statefulset": ("statefulsets", "StatefulSet")}


@attrs.define(eq=False)
class ControllerManager:
    """The running controller manager of one world (``handles``: what its trace points saw it build)."""

    flags: tuple[str, ...]
    process: sim.Process
    handles: ControllerManagerHandles


def start_controller_manager(world: Any, spec: ControllerManagerSpec) -> ControllerManager:
    """Start ``kube-controller-manager`` with ``spec.flags`` in a process of ``world``'s runtime,
    its trace points and handles attached to the world's observation
    (:mod:`kschedlearn.observe.controllers`)."""
    # (imported here: a world without the controller manager loads none of it)
    from kschedlearn.cmd.kube_controller_manager import controller_manager as kube_controller_manager
    from kschedlearn.observe.controllers import observe_kube_controller_manager

    rt = world.runtime
    world.api.enable_garbage_collection = True
    world.kubelet.report_ready = True
    observe_kube_controller_manager(world.observation)
    proc = rt.new_process(CONTROLLER_MANAGER)
    cm = ControllerManager(spec.flags, proc, world.observation.controller_manager(proc))

    def main() -> None:
        kube_controller_manager.main(spec.flags, server=world.api, hostname=CONTROLLER_MANAGER)

    rt.go(main, name=f"{CONTROLLER_MANAGER} main", process=proc)
    return cm


def scale_problem(arg: Any) -> str:
    """Why ``arg`` is no ``scale`` action's argument ("" if it is one)."""
    parts = arg.split(" ") if isinstance(arg, str) else []
    if len(parts) == 3 and parts[2].isdigit() and parts[0] in SCALABLE:
        return ""
    return f"action.arg: a scale needs 'KIND NAMESPACE/NAME REPLICAS', got {arg!r}"


def apply_action(api: Any, kind: str, arg: Any, resources_by_kind: dict[str, str]) -> Any:
    """Carry out a timeline ``apply`` (a manifest) or ``scale`` (``KIND NS/NAME REPLICAS``)."""
    if kind == "scale":
        return scale(api, arg)
    resource = resources_by_kind[type(arg).kind]
    namespace = "" if resource in ("nodes", "persistentvolumes") else (arg.metadata.namespace or "default")
    return apply_manifest(api, resource, namespace, arg)


def apply_manifest(api: Any, resource: str, namespace: str, obj: Any) -> Any:
    """Create ``obj``, or write its spec, labels and annotations over the stored object (what
    ``kubectl apply`` ends up sending for an edited manifest)."""
    from kschedlearn.apimachinery.api.errors import is_not_found

    try:
        current = api.get(resource, namespace, obj.metadata.name)
    except Exception as err:
        if not is_not_found(err):
            raise
        return api.create(resource, namespace, obj)
    meta = attrs.evolve(current.metadata, labels=dict(obj.metadata.labels) or current.metadata.labels,
                        annotations={**current.metadata.annotations, **obj.metadata.annotations})
    changed = attrs.evolve(current, metadata=meta)
    if hasattr(obj, "spec"):
        changed = attrs.evolve(changed, spec=obj.spec)
    return api.update(resource, namespace, changed)


def scale(api: Any, arg: str) -> Any:
    """``scale: KIND NS/NAME REPLICAS``: set ``spec.replicas`` (Go: the ``/scale`` subresource's
    update writes only that field)."""
    what, key, replicas = arg.split(" ")
    resource, _ = SCALE_TARGETS[what]
    namespace, _, name = key.rpartition("/")
    current = api.get(resource, namespace or "default", name)
    return api.update(resource, namespace or "default",
                      attrs.evolve(current, spec=attrs.evolve(current.spec, replicas=int(replicas))))


__all__ = ["ControllerManager", "SCALE_TARGETS", "apply_action", "scale_problem", "apply_manifest", "scale", "start_controller_manager"]
