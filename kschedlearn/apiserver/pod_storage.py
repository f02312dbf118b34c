"""The pod registry's two create-only subresources: ``binding`` and ``eviction``.

Go: stands in for ``BindingREST``
(https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/registry/core/pod/storage/storage.go#L116-L119)
and ``EvictionREST``
(https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/registry/core/pod/storage/eviction.go#L60-L64),
as functions over an :class:`~kschedlearn.apiserver.server.APIServer`.

Both are plain ``rest.Creater``s in 1.6, not named ones: the REST handler never reads the pod's
name from the URL, so the *body's* name wins (a POST to ``pods/a/binding`` whose Binding names
``b`` binds ``b``; likewise an Eviction). That quirk is kept.

Differs from Go: no PodDisruptionBudgets are served, so an eviction never meets one (1.6 looks
them up first: with none covering the pod, it deletes it). ``dry_run`` (kschedlearn-only, 1.6
had none): every check, nothing written, no trace event.
"""

from __future__ import annotations

from typing import Any

import attrs

from kschedlearn.apimachinery.api.errors import (
    GroupResource,
    Status,
    StatusError,
    new_bad_request,
    new_conflict,
)
from kschedlearn.apiserver.registry import RESOURCES

_BINDING = GroupResource("", "pods/binding")


def validate_pod_binding(binding: Any) -> str:
    """Go: ``validation.ValidatePodBinding`` as ``BindingREST.Create`` reports it: the aggregate's
    text ("" = valid). https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/api/validation/validation.go#L2528-L2542
    """
    from kschedlearn.apimachinery.util.validation import field as f  # noqa: PLC0415 - keeps imports light

    errs = []
    if binding.target.kind and binding.target.kind != "Node":
        errs.append(f.not_supported("target.kind", binding.target.kind, ["Node", "<empty>"]))
    if not binding.target.name:
        errs.append(f.required("target.name"))
    return f.to_aggregate(errs) if errs else ""


def bind(api: Any, namespace: str, binding: Any, *, dry_run: bool = False) -> None:
    """Assign a pod to a node (``bindings`` and ``pods/{name}/binding``).

    Go: ``BindingREST.Create``
    (https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/registry/core/pod/storage/storage.go#L128-L140)
    — ``ValidatePodBinding``, whose errors go back as a plain error
    (so 1.6 answers 500 with no reason), then ``assignPod`` → ``setPodHostAndAnnotations``: a
    missing pod is 404, a deleting or already assigned pod a 409 Conflict on ``pods/binding``;
    otherwise nodeName is set, the binding's annotations merged in and PodScheduled set True.
    """
    from kschedlearn.api.v1 import (  # noqa: PLC0415 - keeps the module importable alone
        CONDITION_TRUE, POD_SCHEDULED, PodCondition, update_pod_condition,
    )

    info = RESOURCES["pods"]
    if not dry_run:
        api._before("bind", info)
    bad = validate_pod_binding(binding)
    if bad:
        raise StatusError(Status(message=bad, reason="", code=500))
    name = binding.metadata.name
    key = (api._namespace(info, namespace, binding.metadata.namespace), name)
    pod = api._get_or_not_found(info, key)
    if pod.metadata.deletion_timestamp is not None:
        raise new_conflict(_BINDING, name, f"pod {name} is being deleted, cannot be assigned to a host")
    if pod.spec.node_name != "":
        raise new_conflict(_BINDING, name, f'pod {name} is already assigned to node "{pod.spec.node_name}"')
    if dry_run:
        return
    annotations = {**pod.metadata.annotations, **binding.metadata.annotations}
    _, status = update_pod_condition(pod.status, PodCondition(type=POD_SCHEDULED, status=CONDITION_TRUE),
                                     now=api.now())
    pod = attrs.evolve(pod, metadata=attrs.evolve(pod.metadata, annotations=annotations),
                       spec=attrs.evolve(pod.spec, node_name=binding.target.name), status=status)
    stored = api.storage.update("pods", key, pod)
    where = f"{key[0]}/{key[1]}"
    api._emit("apiserver.bind", f"bind {where} to {binding.target.name}", pod=where, node=binding.target.name,
              resource_version=stored.metadata.resource_version)


def evict(api: Any, namespace: str, name: str, delete_options: dict[str, Any] | None, *,
          dry_run: bool = False) -> Any:
    """Evict a pod: with no disruption budget to consult, delete it. Returns the pod's state
    after the delete (see :meth:`APIServer.delete`).

    Go: ``EvictionREST.Create``
    (https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/registry/core/pod/storage/eviction.go#L73-L146)
    — ``store.Get`` (404; an empty name is 400 "Name parameter
    required.", from the key function), then ``store.Delete`` with the eviction's own
    ``DeleteOptions``. A quirk kept: with *no* ``deleteOptions`` in the body the options are
    nil, ``CheckGracefulDelete`` answers "not graceful", and the pod is removed at once, even
    a running one; with options (kubectl drain sends them) it gets its grace period.
    """
    if not name:
        raise new_bad_request("Name parameter required.")
    info = RESOURCES["pods"]
    api._get_or_not_found(info, (api._namespace(info, namespace), name))
    if delete_options is None:
        grace: int | None = 0
    else:
        grace = delete_options.get("gracePeriodSeconds")
    return api.delete("pods", namespace, name, grace_period_seconds=grace, dry_run=dry_run)


__all__ = ["bind", "evict", "validate_pod_binding"]
