"""The resources the embedded API server serves, and what it does to objects on create/update.

Go: the per-resource REST strategies of ``pkg/registry/...`` (``PrepareForCreate``,
``PrepareForUpdate``), the v1 defaulting functions (``SetDefaults_PodSpec``,
``SetDefaults_ContainerPort``, ... in
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/api/v1/defaults.go) and
``rest.BeforeCreate`` / ``FillObjectMetaSystemFields``
(https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apiserver/pkg/registry/rest/create.go).

Differs from Go: kschedlearn-only module gathering those pieces; only the defaults that the
scheduler or the notebooks can observe are applied. On create 1.6 replaces a pod's whole
status with ``{phase: Pending}``; here a supplied status is kept (only an empty phase becomes
Pending) so scenarios can seed already-running pods.
"""

from __future__ import annotations

import hashlib
import uuid
from typing import Any

import attrs

from kschedlearn.apimachinery.api.errors import GroupResource

DEFAULT_SCHEDULER_NAME = "default-scheduler"
DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS = 30
# Go: names.SimpleNameGenerator (alphanumerics without vowels and look-alikes, 5 of them).
_NAME_ALPHABET = "bcdfghjklmnpqrstvwxz2456789"
_RANDOM_LENGTH = 5
_MAX_GENERATED_NAME_LENGTH = 63 - _RANDOM_LENGTH
_UID_NAMESPACE = uuid.UUID("6b8a0f0e-4c1b-5d2e-9f3a-6b7c8d9e0f10")


@attrs.frozen
class ResourceInfo:
    """One served resource: plural name, Go kind, API group, scope, status subresource."""

    resource: str
    kind: str
    group: str = ""
    namespaced: bool = True
    has_status: bool = True

    def qualified(self) -> GroupResource:
        return GroupResource(self.group, self.resource)


RESOURCES: dict[str, ResourceInfo] = {
    r.resource: r
    for r in (
        ResourceInfo("pods", "Pod"),
        ResourceInfo("nodes", "Node", namespaced=False),
        ResourceInfo("events", "Event", has_status=False),
        ResourceInfo("endpoints", "Endpoints", has_status=False),
        ResourceInfo("services", "Service"),
        ResourceInfo("replicationcontrollers", "ReplicationController"),
        ResourceInfo("replicasets", "ReplicaSet", group="extensions"),
        ResourceInfo("statefulsets", "StatefulSet", group="apps"),
        ResourceInfo("deployments", "Deployment", group="extensions"),
        ResourceInfo("daemonsets", "DaemonSet", group="extensions"),
        ResourceInfo("persistentvolumes", "PersistentVolume", namespaced=False),
        ResourceInfo("persistentvolumeclaims", "PersistentVolumeClaim"),
    )
}


def resource_info(resource: str) -> ResourceInfo:
    """Look a resource up; an unknown name is a clear error naming it."""
    try:
        return RESOURCES[resource]
    except KeyError:
        raise ValueError(
            f"apiserver: unknown resource {resource!r} (served: {', '.join(sorted(RESOURCES))})"
        ) from None


def generate_name(base: str, counter: int) -> str:
    """``base`` + 5 characters, derived from a counter (not random) so runs repeat.

    Go: names.SimpleNameGenerator.GenerateName,
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apiserver/pkg/storage/names/generate.go#L37-L40

    Differs from Go: the suffix is a hash of ``base`` and the counter, not utilrand.String.
    """
    if len(base) > _MAX_GENERATED_NAME_LENGTH:
        base = base[:_MAX_GENERATED_NAME_LENGTH]
    digest = hashlib.sha256(f"{base}/{counter}".encode()).digest()
    return base + "".join(_NAME_ALPHABET[b % len(_NAME_ALPHABET)] for b in digest[:_RANDOM_LENGTH])


def new_uid(resource: str, namespace: str, name: str, counter: int) -> str:
    """A deterministic UID (uuid5 of the object's identity and a counter).

    Go: rest.FillObjectMetaSystemFields uses uuid.NewUUID(); Differs from Go: not random.
    """
    return str(uuid.uuid5(_UID_NAMESPACE, f"{resource}/{namespace}/{name}/{counter}"))


def _default_ports(containers: tuple[Any, ...]) -> tuple[Any, ...]:
    out = []
    for c in containers:
        ports = tuple(p if p.protocol else attrs.evolve(p, protocol="TCP") for p in c.ports)
        out.append(c if ports == c.ports else attrs.evolve(c, ports=ports))
    return tuple(out)


def default_pod(pod: Any) -> Any:
    """The pod defaults of the 1.6 API that the scheduler can observe.

    Go: SetDefaults_PodSpec (restartPolicy Always, dnsPolicy ClusterFirst, grace period 30,
    schedulerName default-scheduler), SetDefaults_ContainerPort (protocol TCP), and
    podStrategy.PrepareForCreate (phase Pending).
    """
    spec = _defaulted_spec(pod.spec)
    status = pod.status if pod.status.phase else attrs.evolve(pod.status, phase="Pending")
    return attrs.evolve(pod, spec=spec, status=status)


#: id(spec) -> (spec, its defaulted form): replicas share one PodSpec value (the dump loader
#: decodes each distinct spec once), and each is defaulted once; bounded, it keeps what it holds
_DEFAULTED: dict[int, tuple[Any, Any]] = {}
#: the bound: above a dump's distinct specs (one per node for bound replicas: 5,000 at 5,000
#: nodes), or each pod's spec is defaulted into an object of its own and nothing is shared
_DEFAULTED_MAX = 1 << 16


def _defaulted_spec(spec: Any) -> Any:
    """``spec`` with the pod defaults set; the very same object when it already has them."""
    known = _DEFAULTED.get(id(spec))
    if known is not None and known[0] is spec:
        return known[1]
    out = attrs.evolve(
        spec,
        restart_policy=spec.restart_policy or "Always",
        dns_policy=spec.dns_policy or "ClusterFirst",
        termination_grace_period_seconds=(
            spec.termination_grace_period_seconds
            if spec.termination_grace_period_seconds is not None
            else DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS
        ),
        scheduler_name=spec.scheduler_name or DEFAULT_SCHEDULER_NAME,
        containers=_default_ports(spec.containers),
        init_containers=_default_ports(spec.init_containers),
    )
    if out == spec:
        out = spec
    if len(_DEFAULTED) > _DEFAULTED_MAX:
        _DEFAULTED.clear()
    _DEFAULTED[id(spec)] = (spec, out)
    return out


def prepare_for_create(info: ResourceInfo, obj: Any) -> Any:
    """Kind-specific create defaults (pods; the controllers' kinds: :mod:`.workloads`)."""
    from kschedlearn.apiserver import workloads

    if info.resource == "pods":
        return default_pod(obj)
    if info.resource in workloads.RESOURCES:
        return workloads.prepare_for_create(info.resource, obj)
    return obj


def prepare_for_update(info: ResourceInfo, new: Any, old: Any, *, status_only: bool) -> Any:
    """Carry over what the verb may not change.

    Go: ``rest.BeforeUpdate`` (the generation is the stored one), the repairs of
    ``ValidateObjectMetaUpdate`` (``RepairMalformedUpdates``: an empty uid, the creation time, a
    deletion already under way are taken from the stored object; a *different* uid or a new
    deletion time are left for validation to refuse) and the strategies' ``PrepareForUpdate``:
    a main-resource update keeps the stored status (``newPod.Status = oldPod.Status``); a
    ``/status`` update keeps the stored spec.
    Differs from Go: ``metadata.selfLink`` is not stored (every answer sets its own, see
    ``rest/selflink.py``).
    """
    meta, old_meta = new.metadata, old.metadata
    meta = attrs.evolve(
        meta,
        uid=meta.uid or old_meta.uid,
        creation_timestamp=old_meta.creation_timestamp,
        deletion_timestamp=(old_meta.deletion_timestamp if old_meta.deletion_timestamp is not None
                            else meta.deletion_timestamp),
        deletion_grace_period_seconds=(old_meta.deletion_grace_period_seconds
                                       if meta.deletion_grace_period_seconds is None
                                       else meta.deletion_grace_period_seconds),
        generation=old_meta.generation,
        namespace=old_meta.namespace,
        self_link="",
    )
    from kschedlearn.apiserver import workloads

    if info.resource in workloads.RESOURCES:
        return workloads.prepare_for_update(info.resource, attrs.evolve(new, metadata=meta), old,
                                            status_only=status_only)
    if status_only:
        return attrs.evolve(old, metadata=meta, status=new.status)
    if info.resource == "pods":
        new = default_pod(new)  # Go defaults every decoded body, an update's too
    if info.has_status and hasattr(old, "status"):
        return attrs.evolve(new, metadata=meta, status=old.status)
    return attrs.evolve(new, metadata=meta)


def pod_grace_period(pod: Any, requested: int | None) -> int:
    """The grace period a pod delete gets: the request's, else the pod's, else 30s; 0 if unbound.

    Go: podStrategy.CheckGracefulDelete,
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/registry/core/pod/strategy.go#L103-L131
    """
    if requested is not None:
        grace = requested
    elif pod.spec.termination_grace_period_seconds is not None:
        grace = pod.spec.termination_grace_period_seconds
    else:
        grace = DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS
    if not pod.spec.node_name:
        grace = 0
    return max(grace, 0)
