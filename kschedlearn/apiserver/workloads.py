"""What the API server does to the controllers' kinds on create and update.

Go: the REST strategies of ``pkg/registry/core/replicationcontroller/strategy.go``,
``pkg/registry/extensions/{replicaset,deployment,daemonset}/strategy.go`` and
``pkg/registry/apps/petset/strategy.go`` (PrepareForCreate: status cleared, generation 1;
PrepareForUpdate: status kept, generation bumped when the spec changes; the ``/status``
strategies keep the spec), the decoder's defaulting (``SetDefaults_ReplicationController`` of
``pkg/api/v1/defaults.go`` and the defaults of :mod:`kschedlearn.apis.extensions.v1beta1` /
:mod:`kschedlearn.apis.apps.v1beta1`, including the pod-template defaults of
``SetDefaults_PodSpec``), and each strategy's ``Validate`` / ``ValidateUpdate``.

Differs from Go: kschedlearn-only module gathering those pieces (like :mod:`.registry` does for
pods). Objects are stored in one form per kind: Deployments as ``extensions/v1beta1`` (the REST
layer converts ``apps/v1beta1`` ones at its boundary, as 1.6's API server converts to its
internal type).
"""

from __future__ import annotations

from typing import Any

import attrs

from kschedlearn.api.v1 import Pod
from kschedlearn.apimachinery.util.validation import field as f

#: the resources whose objects this module prepares and validates
RESOURCES = ("replicationcontrollers", "replicasets", "deployments", "daemonsets", "statefulsets")

#: how 1.6's 422 names each kind (``GroupKind.String()``: ``Kind.group``), as recorded from the
#: real v1.6.1 apiserver — a Deployment is ``Deployment.apps`` on both of its groups
QUALIFIED_KINDS = {"replicationcontrollers": "ReplicationController", "replicasets": "ReplicaSet.extensions",
                   "deployments": "Deployment.apps", "daemonsets": "DaemonSet.extensions",
                   "statefulsets": "StatefulSet.apps"}


def set_defaults_replication_controller(obj: Any) -> Any:
    """Selector and labels from the template's labels; 1 replica.

    Go: SetDefaults_ReplicationController — https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/api/v1/defaults.go#L79-L97
    Differs from Go: returns the defaulted copy; an empty labels map counts as absent.
    """
    labels = obj.spec.template.metadata.labels if obj.spec.template is not None else {}
    spec, meta = obj.spec, obj.metadata
    if labels:
        if len(spec.selector) == 0:
            spec = attrs.evolve(spec, selector=dict(labels))
        if len(meta.labels) == 0:
            meta = attrs.evolve(meta, labels=dict(labels))
    if spec.replicas is None:
        spec = attrs.evolve(spec, replicas=1)
    return attrs.evolve(obj, metadata=meta, spec=spec)


def _default_template(template: Any) -> Any:
    """Go: the generated ``SetObjectDefaults_*`` run ``SetDefaults_PodSpec`` (and the container
    defaults) on every pod template."""
    from kschedlearn.apiserver.registry import default_pod

    if template is None:
        return None
    spec = default_pod(Pod(spec=template.spec)).spec
    return attrs.evolve(template, spec=spec)


def set_defaults(resource: str, obj: Any) -> Any:
    """The decoder's defaults for ``obj`` (as Go applies them to every decoded body)."""
    from kschedlearn.apis.apps.v1beta1.defaults import set_defaults_stateful_set
    from kschedlearn.apis.extensions.v1beta1.defaults import (
        set_defaults_daemon_set,
        set_defaults_deployment,
        set_defaults_replica_set,
    )

    from kschedlearn.apis.apps.v1beta1 import types as apps
    from kschedlearn.apis.apps.v1beta1.defaults import set_defaults_deployment as set_defaults_apps_deployment

    if resource == "deployments" and type(obj).api_version == apps.GROUP_VERSION:
        # an apps/v1beta1 body gets apps' defaults, then is stored in the extensions form
        obj = to_extensions_deployment(set_defaults_apps_deployment(obj))
        return attrs.evolve(obj, spec=attrs.evolve(obj.spec, template=_default_template(obj.spec.template)))
    defaults = {
        "replicationcontrollers": set_defaults_replication_controller,
        "replicasets": set_defaults_replica_set,
        "deployments": set_defaults_deployment,
        "daemonsets": set_defaults_daemon_set,
        "statefulsets": set_defaults_stateful_set,
    }[resource]
    obj = defaults(obj)
    return attrs.evolve(obj, spec=attrs.evolve(obj.spec, template=_default_template(obj.spec.template)))


def to_extensions_deployment(d: Any) -> Any:
    """The ``extensions/v1beta1`` form of a Deployment (the fields are the same in 1.6).

    Go: stands in for the apps/v1beta1 -> internal -> extensions/v1beta1 conversions
    (``pkg/apis/apps/v1beta1/conversion.go``) the API server runs at its boundary.
    """
    from kschedlearn.apis.extensions.v1beta1 import types as ext

    if type(d) is ext.Deployment:
        return d
    return ext.Deployment(metadata=d.metadata, spec=d.spec, status=d.status)


def as_group_version(obj: Any, group_version: str) -> Any:
    """``obj`` (a stored Deployment) in the form of ``group_version`` (kschedlearn-only helper of the
    REST layer: ``apps/v1beta1`` gets the apps class; anything else is returned as it is)."""
    from kschedlearn.apis.apps.v1beta1 import types as apps

    if type(obj).kind == "Deployment" and group_version == apps.GROUP_VERSION:
        return apps.Deployment(metadata=obj.metadata, spec=obj.spec, status=obj.status)
    return obj


def prepare_for_create(resource: str, obj: Any) -> Any:
    """Defaults, then ``PrepareForCreate``: status cleared, generation 1 (a DaemonSet's
    ``templateGeneration`` at least 1)."""
    obj = set_defaults(resource, obj)
    obj = attrs.evolve(obj, status=type(obj.status)(), metadata=attrs.evolve(obj.metadata, generation=1))
    if resource == "daemonsets" and obj.spec.template_generation < 1:
        obj = attrs.evolve(obj, spec=attrs.evolve(obj.spec, template_generation=1))
    return obj


def prepare_for_update(resource: str, new: Any, old: Any, *, status_only: bool) -> Any:
    """Defaults, then ``PrepareForUpdate`` of the main or the ``/status`` strategy.

    ``new`` already carries the stored object's system metadata (registry.prepare_for_update).
    """
    if status_only:
        # Go: the status strategies keep the stored spec (Deployments their labels too)
        spec_kept = attrs.evolve(new, spec=old.spec)
        if resource == "deployments":
            spec_kept = attrs.evolve(spec_kept, metadata=attrs.evolve(spec_kept.metadata, labels=old.metadata.labels))
        return spec_kept
    new = set_defaults(resource, new)
    new = attrs.evolve(new, status=old.status)
    generation = old.metadata.generation
    if resource == "daemonsets":
        # update is not allowed to set TemplateGeneration
        new = attrs.evolve(new, spec=attrs.evolve(new.spec, template_generation=old.spec.template_generation))
        if old.spec.template != new.spec.template:
            new = attrs.evolve(new, spec=attrs.evolve(new.spec, template_generation=old.spec.template_generation + 1))
            generation = old.metadata.generation + 1
        elif old.spec != new.spec:
            generation = old.metadata.generation + 1
    elif resource == "deployments":
        # annotations are copied to the replica sets, so their changes bump the generation too
        if new.spec != old.spec or new.metadata.annotations != old.metadata.annotations:
            generation = old.metadata.generation + 1
    elif new.spec != old.spec:
        generation = old.metadata.generation + 1
    return attrs.evolve(new, metadata=attrs.evolve(new.metadata, generation=generation))


def validate(resource: str, obj: Any, old: Any = None, *, status_only: bool = False) -> list[f.Error]:
    """The strategy's ``Validate`` (create), ``ValidateUpdate`` or the status strategy's."""
    from kschedlearn.api.validation import validation as core
    from kschedlearn.apis.apps.validation import validation as apps
    from kschedlearn.apis.extensions.validation import validation as ext

    if old is None:
        return {
            "replicationcontrollers": core.validate_replication_controller,
            "replicasets": ext.validate_replica_set,
            "deployments": ext.validate_deployment,
            "daemonsets": ext.validate_daemon_set,
            "statefulsets": apps.validate_stateful_set,
        }[resource](obj)
    if status_only:
        if resource == "replicationcontrollers":
            return core.validate_replication_controller_status(obj.status, "status")
        return {
            "replicasets": ext.validate_replica_set_status_update,
            "deployments": ext.validate_deployment_status_update,
            "daemonsets": ext.validate_daemon_set_status_update,
            "statefulsets": apps.validate_stateful_set_status_update,
        }[resource](obj, old)
    if resource == "replicationcontrollers":
        return core.validate_replication_controller(obj)
    if resource == "replicasets":
        return ext.validate_replica_set(obj) + ext.validate_replica_set_update(obj, old)
    if resource == "deployments":
        return ext.validate_deployment_update(obj, old)
    if resource == "daemonsets":
        return ext.validate_daemon_set(obj) + ext.validate_daemon_set_update(obj, old)
    return apps.validate_stateful_set(obj) + apps.validate_stateful_set_update(obj, old)


__all__ = ["QUALIFIED_KINDS", "RESOURCES", "as_group_version", "to_extensions_deployment", "prepare_for_create", "prepare_for_update", "set_defaults", "set_defaults_replication_controller",
           "validate"]
