"""A typed clientset for the embedded API server, shaped like client-go's.

Go: ``kubernetes.Clientset`` and its typed clients
(https://github.com/kubernetes/kubernetes/tree/v1.6.1/staging/src/k8s.io/client-go/kubernetes/typed/core/v1):
``clientset.CoreV1().Pods(ns).List(opts)``, ``.Watch(opts)``, ``.Get(name, opts)``,
``.Create(pod)``, ``.Update(pod)``, ``.UpdateStatus(pod)``, ``.Delete(name, opts)``, and the
``Bind`` of ``pod_expansion.go``.

Differs from Go: ``metav1.ListOptions`` / ``DeleteOptions`` become keyword arguments; errors
are raised (``StatusError`` subclasses) instead of returned; calls go straight to the
in-memory server instead of over HTTP, so a real-cluster client can replace this object later.
"""

from __future__ import annotations

import json
from typing import Any

import attrs

from kschedlearn.apimachinery.api import errors as apierrors
from kschedlearn.apiserver.lists import List
from kschedlearn.apiserver.server import APIServer
from kschedlearn.apiserver.watchers import ServerWatch


@attrs.define(eq=False)
class ResourceClient:
    """The typed client of one resource in one namespace ("" = all namespaces for list/watch).

    Go: e.g. ``typed/core/v1/pod.go`` (``pods`` struct).
    """

    server: APIServer = attrs.field(repr=False)
    resource: str
    namespace: str = ""
    rate_limiter: Any = attrs.field(default=None, repr=False)

    def _throttle(self) -> None:
        """Go: restclient.Request's ``r.throttle.Accept()`` before every request."""
        if self.rate_limiter is not None:
            self.rate_limiter.accept()

    def create(self, obj: Any) -> Any:
        """Go: Create. Returns the stored object (with uid, resourceVersion, defaults)."""
        self._throttle()
        return self.server.create(self.resource, self.namespace, obj)

    def update(self, obj: Any) -> Any:
        """Go: Update (Conflict if ``obj.metadata.resource_version`` is stale)."""
        self._throttle()
        return self.server.update(self.resource, self.namespace, obj)

    def update_status(self, obj: Any) -> Any:
        """Go: UpdateStatus (PUT .../status)."""
        self._throttle()
        return self.server.update_status(self.resource, self.namespace, obj)

    def delete(self, name: str, grace_period_seconds: int | None = None, *, options: Any = None) -> None:
        """Go: Delete(name, &DeleteOptions{GracePeriodSeconds: ...}); ``options`` is a whole
        :class:`~kschedlearn.apiserver.finalizers.DeleteOptions` (preconditions, propagation)."""
        self._throttle()
        self.server.delete(self.resource, self.namespace, name, grace_period_seconds, options=options)

    def patch(self, name: str, patch_type: str, data: bytes | str) -> Any:
        """Go: Patch(name, pt, data) — PATCH the object; returns the stored result.

        Differs from Go: the patch is applied here, on the caller's goroutine, to the stored
        object (Go's API server applies it), then written unconditionally as an update; a patch
        that changes ``metadata.uid`` is refused with 1.6's 422 (``field is immutable``), which
        is what the controllers' adoption patches rely on.
        """
        from kschedlearn.apiserver.rest.patch import PatchError, apply_patch  # noqa: PLC0415

        self._throttle()
        current = self.server.get(self.resource, self.namespace, name)
        try:
            patched = apply_patch(patch_type, current.to_dict(), json.loads(data))
        except (PatchError, ValueError) as err:
            raise apierrors.new_bad_request(str(err)) from None
        obj = type(current).from_dict(patched, path="patched object")
        info = self.server_resource_info()
        if obj.metadata.uid != current.metadata.uid:
            raise apierrors.new_invalid(info.kind, name, f'metadata.uid: Invalid value: "{obj.metadata.uid}": '
                                                         "field is immutable")
        obj = attrs.evolve(obj, metadata=attrs.evolve(obj.metadata, resource_version=""))
        return self.server.update(self.resource, self.namespace, obj)

    def server_resource_info(self) -> Any:
        """kschedlearn-only: the served resource's kind and group."""
        from kschedlearn.apiserver.registry import resource_info  # noqa: PLC0415

        return resource_info(self.resource)

    def get(self, name: str) -> Any:
        """Go: Get(name, metav1.GetOptions{})."""
        self._throttle()
        return self.server.get(self.resource, self.namespace, name)

    def list(self, label_selector: Any = None, field_selector: Any = None,
             resource_version: str = "") -> List:
        """Go: List(metav1.ListOptions{...}); ``.items`` and ``.metadata.resource_version``."""
        self._throttle()
        return self.server.list(self.resource, self.namespace, label_selector, field_selector,
                                resource_version)

    def watch(self, label_selector: Any = None, field_selector: Any = None,
              resource_version: str = "", timeout_seconds: float | None = None) -> ServerWatch:
        """Go: Watch(metav1.ListOptions{...}); returns a ``watch.Interface``."""
        self._throttle()
        return self.server.watch(self.resource, self.namespace, label_selector, field_selector,
                                 resource_version, timeout_seconds)


@attrs.define(eq=False)
class PodClient(ResourceClient):
    """Pods, plus the binding subresource. Go: typed/core/v1/pod.go and pod_expansion.go."""

    def bind(self, binding: Any) -> None:
        """POST /api/v1/namespaces/{ns}/pods/{binding.name}/binding (``binding.Namespace`` ignored).

        Go: PodExpansion.Bind (pod_expansion.go). 1.6's scheduler does not use it: its binder
        posts to the legacy ``bindings`` resource through the REST client (factory.go).
        """
        self._throttle()
        self.server.bind(self.namespace, binding, route="pods/binding")


@attrs.define(eq=False)
class Result:
    """What ``Request.Do()`` returns. Go: rest.Result (client-go rest/request.go).

    Differs from Go: only the error is kept (the scheduler reads nothing else); ``error()``
    raises it instead of returning it.
    """

    err: BaseException | None = None

    def error(self) -> None:
        """Go: Result.Error — raised here (``None`` return: the request succeeded)."""
        if self.err is not None:
            raise self.err


@attrs.define(eq=False)
class Request:
    """A REST request being built: ``Post().Namespace(ns).Resource(r).Body(obj).Do()``.

    Go: rest.Request (client-go rest/request.go). Differs from Go: it goes straight to the
    in-memory server, and only the POSTs the scheduler makes are served (the ``bindings``
    resource and the ``pods/{name}/binding`` subresource); anything else is a ``ValueError``.
    """

    server: APIServer = attrs.field(repr=False)
    verb: str
    rate_limiter: Any = attrs.field(default=None, repr=False)
    namespace_: str = ""
    resource_: str = ""
    name_: str = ""
    subresource_: str = ""
    body_: Any = None

    def namespace(self, namespace: str) -> Request:
        """Go: Request.Namespace."""
        self.namespace_ = namespace
        return self

    def resource(self, resource: str) -> Request:
        """Go: Request.Resource."""
        self.resource_ = resource
        return self

    def name(self, name: str) -> Request:
        """Go: Request.Name."""
        self.name_ = name
        return self

    def sub_resource(self, *subresources: str) -> Request:
        """Go: Request.SubResource."""
        self.subresource_ = "/".join(subresources)
        return self

    def body(self, obj: Any) -> Request:
        """Go: Request.Body (an object: encoded by the client's codec in Go)."""
        self.body_ = obj
        return self

    def do(self) -> Result:
        """Go: Request.Do — throttle, send, and keep the error of the response."""
        if self.rate_limiter is not None:
            self.rate_limiter.accept()
        if self.verb == "POST" and self.resource_ == "bindings" and not self.name_:
            route = "bindings"
        elif self.verb == "POST" and self.resource_ == "pods" and self.subresource_ == "binding":
            route = "pods/binding"
        else:
            raise ValueError(f"kschedlearn's REST client does not serve {self.verb} "
                             f"{self.resource_}/{self.name_}/{self.subresource_}")
        try:
            self.server.bind(self.namespace_, self.body_, route=route)
        except Exception as err:  # noqa: BLE001 - Go keeps the error in the Result
            return Result(err)
        return Result()


@attrs.define(eq=False)
class RESTClient:
    """The untyped REST client behind a group's typed clients. Go: rest.RESTClient."""

    server: APIServer = attrs.field(repr=False)
    rate_limiter: Any = attrs.field(default=None, repr=False)

    def post(self) -> Request:
        """Go: RESTClient.Post."""
        return Request(self.server, "POST", self.rate_limiter)


@attrs.define(eq=False)
class CoreV1Client:
    """Go: typed/core/v1 ``CoreV1Client``."""

    server: APIServer = attrs.field(repr=False)
    rate_limiter: Any = attrs.field(default=None, repr=False)

    def rest_client(self) -> RESTClient:
        """Go: CoreV1Client.RESTClient (shares the clientset's rate limiter)."""
        return RESTClient(self.server, self.rate_limiter)

    def pods(self, namespace: str = "") -> PodClient:
        return PodClient(self.server, "pods", namespace, self.rate_limiter)

    def nodes(self) -> ResourceClient:
        return ResourceClient(self.server, "nodes", "", self.rate_limiter)

    def events(self, namespace: str = "") -> ResourceClient:
        return ResourceClient(self.server, "events", namespace, self.rate_limiter)

    def endpoints(self, namespace: str = "") -> ResourceClient:
        return ResourceClient(self.server, "endpoints", namespace, self.rate_limiter)

    def services(self, namespace: str = "") -> ResourceClient:
        return ResourceClient(self.server, "services", namespace, self.rate_limiter)

    def replication_controllers(self, namespace: str = "") -> ResourceClient:
        return ResourceClient(self.server, "replicationcontrollers", namespace, self.rate_limiter)

    def persistent_volumes(self) -> ResourceClient:
        return ResourceClient(self.server, "persistentvolumes", "", self.rate_limiter)

    def persistent_volume_claims(self, namespace: str = "") -> ResourceClient:
        return ResourceClient(self.server, "persistentvolumeclaims", namespace, self.rate_limiter)


@attrs.define(eq=False)
class ExtensionsV1beta1Client:
    """Go: typed/extensions/v1beta1 ``ExtensionsV1beta1Client``."""

    server: APIServer = attrs.field(repr=False)
    rate_limiter: Any = attrs.field(default=None, repr=False)

    def replica_sets(self, namespace: str = "") -> ResourceClient:
        return ResourceClient(self.server, "replicasets", namespace, self.rate_limiter)

    def deployments(self, namespace: str = "") -> ResourceClient:
        return ResourceClient(self.server, "deployments", namespace, self.rate_limiter)

    def daemon_sets(self, namespace: str = "") -> ResourceClient:
        return ResourceClient(self.server, "daemonsets", namespace, self.rate_limiter)


@attrs.define(eq=False)
class AppsV1beta1Client:
    """Go: typed/apps/v1beta1 ``AppsV1beta1Client``."""

    server: APIServer = attrs.field(repr=False)
    rate_limiter: Any = attrs.field(default=None, repr=False)

    def stateful_sets(self, namespace: str = "") -> ResourceClient:
        return ResourceClient(self.server, "statefulsets", namespace, self.rate_limiter)


@attrs.define(eq=False)
class Clientset:
    """Go: kubernetes.Clientset (``CoreV1()``, ``ExtensionsV1beta1()``, ``AppsV1beta1()``)."""

    server: APIServer = attrs.field(repr=False)
    rate_limiter: Any = attrs.field(default=None, repr=False)

    def core_v1(self) -> CoreV1Client:
        return CoreV1Client(self.server, self.rate_limiter)

    def core(self) -> CoreV1Client:
        """Go: Clientset.Core() (the same client as CoreV1() in 1.6)."""
        return CoreV1Client(self.server, self.rate_limiter)

    def extensions_v1beta1(self) -> ExtensionsV1beta1Client:
        return ExtensionsV1beta1Client(self.server, self.rate_limiter)

    def extensions(self) -> ExtensionsV1beta1Client:
        """Go: Clientset.Extensions() (the same client as ExtensionsV1beta1() in 1.6)."""
        return ExtensionsV1beta1Client(self.server, self.rate_limiter)

    def apps(self) -> AppsV1beta1Client:
        """Go: Clientset.Apps() (the same client as AppsV1beta1() in 1.6)."""
        return AppsV1beta1Client(self.server, self.rate_limiter)

    def apps_v1beta1(self) -> AppsV1beta1Client:
        return AppsV1beta1Client(self.server, self.rate_limiter)


def new_for_server(server: APIServer, rate_limiter: Any = None) -> Clientset:
    """A clientset talking to ``server``. Go: kubernetes.NewForConfig (no config needed here).

    ``rate_limiter`` (a token bucket, Go: ``config.RateLimiter`` built from QPS/Burst) is
    shared by every request of this clientset, as in Go.
    """
    return Clientset(server, rate_limiter)
