"""The collector's calls to the API server, by apiVersion and kind.

Go: pkg/controller/garbagecollector/operations.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/controller/garbagecollector/operations.go

Differs from Go: the REST mapper is a table of the kinds the simulation stores; the dynamic
client pool is the collector's typed clientset (one rate limiter); Go's per-group-version
rate-limiter metrics are not mirrored.
"""

from __future__ import annotations

from typing import Any

import attrs

from kschedlearn.apimachinery.api.errors import is_conflict, is_not_found
from kschedlearn.apiserver.clientset import ResourceClient
from kschedlearn.apiserver.finalizers import DeleteOptions
from kschedlearn.client.retry.util import DEFAULT_BACKOFF, retry_on_conflict
from kschedlearn.controller.garbagecollector.errors import new_rest_mapping_error
from kschedlearn.controller.garbagecollector.graph import Node, ObjectReference
from kschedlearn.trace import glog
from kschedlearn.trace.gofmt import sprintf

#: (group, kind) → resource: what 1.6's RESTMapper answers for the kinds the simulation stores
REST_MAPPINGS: dict[tuple[str, str], str] = {
    ("", "Pod"): "pods", ("", "ReplicationController"): "replicationcontrollers", ("", "Service"): "services",
    ("", "Endpoints"): "endpoints", ("", "Node"): "nodes", ("", "PersistentVolume"): "persistentvolumes",
    ("", "PersistentVolumeClaim"): "persistentvolumeclaims", ("", "Event"): "events",
    ("extensions", "ReplicaSet"): "replicasets", ("extensions", "Deployment"): "deployments",
    ("extensions", "DaemonSet"): "daemonsets", ("apps", "Deployment"): "deployments",
    ("apps", "StatefulSet"): "statefulsets",
}
#: the group versions 1.6 serves (a reference to another version has no mapping)
SERVED_VERSIONS = frozenset({"v1", "extensions/v1beta1", "apps/v1beta1"})


def api_resource(api_version: str, kind: str) -> str:
    """The resource of ``api_version``/``kind``, or :class:`RestMappingError`.

    Go: ``(*GarbageCollector).apiResource`` — operations.go#L33-L48
    """
    group = api_version.rpartition("/")[0]
    resource = REST_MAPPINGS.get((group, kind)) if api_version in SERVED_VERSIONS else None
    if resource is None:
        raise new_rest_mapping_error(kind, api_version)
    glog.v(5).infof("map kind %s, version %s to resource %s", kind, api_version, resource)
    return resource


class Operations:
    """The methods of operations.go on the collector (mixed into :class:`GarbageCollector`).

    Go: operations.go (kschedlearn-only grouping as a mixin)."""

    client: Any

    def _client(self, item: ObjectReference) -> ResourceClient:
        resource = api_resource(item.api_version, item.kind)
        return ResourceClient(self.client.server, resource, item.namespace, self.client.rate_limiter)

    def delete_object(self, item: ObjectReference, policy: str | None) -> None:
        """Delete with the item's UID as precondition. Go: ``deleteObject`` — operations.go#L50-L62."""
        client = self._client(item)
        client.delete(item.name, options=DeleteOptions(precondition_uid=item.uid, propagation_policy=policy))

    def get_object(self, item: ObjectReference) -> Any:
        """Go: ``getObject`` — operations.go#L64-L73."""
        return self._client(item).get(item.name)

    def update_object(self, item: ObjectReference, obj: Any) -> Any:
        """Go: ``updateObject`` — operations.go#L75-L84."""
        return self._client(item).update(obj)

    def patch_object(self, item: ObjectReference, patch: bytes) -> Any:
        """A strategic merge patch. Go: ``patchObject`` — operations.go#L86-L95."""
        return self._client(item).patch(item.name, "application/strategic-merge-patch+json", patch)

    def remove_finalizer(self, owner: Node, target_finalizer: str) -> None:
        """Drop one finalizer from the owner (an update, retried on conflicts).

        Go: ``(*GarbageCollector).removeFinalizer`` — operations.go#L97-L135
        """

        def attempt() -> None:
            try:
                owner_object = self.get_object(owner.identity)
            except Exception as err:
                if is_not_found(err):
                    return
                raise RuntimeError(sprintf("cannot finalize owner %s, because cannot get it: %v. The garbage "
                                           "collector will retry later.", owner.identity, err)) from err
            finalizers = owner_object.metadata.finalizers
            new_finalizers = []
            found = False
            for f in finalizers:
                if f == target_finalizer:
                    found = True
                    break
                new_finalizers.append(f)
            if not found:
                glog.v(5).infof("the orphan finalizer is already removed from object %s", owner.identity)
                return
            owner_object = attrs.evolve(owner_object, metadata=attrs.evolve(
                owner_object.metadata, finalizers=tuple(new_finalizers)))
            self.update_object(owner.identity, owner_object)

        try:
            retry_on_conflict(DEFAULT_BACKOFF, attempt)
        except Exception as err:
            if is_conflict(err):
                raise RuntimeError(sprintf("updateMaxRetries(%d) has reached. The garbage collector will retry "
                                           "later for owner %v.", DEFAULT_BACKOFF.steps, owner.identity)) from err
            raise


__all__ = ["Operations", "REST_MAPPINGS", "api_resource"]
