"""One REST request against the embedded API server: route it, run the verb, encode the answer.

Go: plays the part of the apiserver's REST handlers and their route table,
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apiserver/pkg/endpoints/handlers/rest.go
(getResourceHandler, ListResource; the writes are in :mod:`.writes`) and the installer's paths
(``/api/v1/namespaces/{namespace}/{resource}/{name}``, ``.../{subresource}``,
``/api/v1/watch/...``), with errors answered as ``metav1.Status`` and every object and list
linked as 1.6 linked them (:mod:`.selflink`). Answers go out in the encoding the ``Accept``
header negotiates (:mod:`.negotiate`: JSON, YAML or protobuf).

Differs from Go: kschedlearn-only. Requests never block: a watch request is only *resolved*
here (into a :class:`~.types.WatchRequest`) and streamed by the HTTP layer. Namespaces are
not stored: the served list is ``default``, ``kube-system``, ``kube-public`` and every
namespace an object lives in; creating one succeeds and changes nothing. A path 1.6 did not
serve gets 1.6's 404 text followed by where Kubernetes v1.6.1 kept that resource
(:func:`.discovery.not_served_hint`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from kschedlearn.api.errors import ManifestError
from kschedlearn.apimachinery.api.errors import (
    REASON_NOT_FOUND,
    Status,
    StatusDetails,
    StatusError,
    new_bad_request,
    new_invalid,
)
from kschedlearn.apiserver.registry import RESOURCES
from kschedlearn.apiserver.rest import decode, discovery, negotiate, openapi, tables, writes
from kschedlearn.apiserver.rest.patch import PatchError
from kschedlearn.apiserver.rest.protobuf import message_for
from kschedlearn.apiserver.rest.selflink import Namer
from kschedlearn.apiserver.rest.types import JSON, RestRequest, Response, WatchRequest

BUILTIN_NAMESPACES = ("default", "kube-public", "kube-system")
NOT_FOUND_TEXT = "the server could not find the requested resource"
#: subresources 1.6 served on pods and nodes that kschedlearn has no kubelet behind (404 here)
_KUBELET_SUBRESOURCES = ("log", "exec", "attach", "portforward", "proxy")


@attrs.frozen
class Route:
    """Where a resource path points."""

    group_version: str
    resource: str
    namespace: str = ""
    name: str = ""
    subresource: str = ""
    watch_path: bool = False

    @property
    def prefix(self) -> str:
        return "/api/v1" if self.group_version == "v1" else f"/apis/{self.group_version}"


def _status(code: int, reason: str, message: str, details: StatusDetails | None = None) -> Response:
    return Response(code, Status(message=message, reason=reason, code=code, details=details).to_dict())


def _from_error(err: StatusError) -> Response:
    return Response(err.code or 500, err.status().to_dict())


def not_found_path(hint: str = "") -> Response:
    """Go: go-restful's 404 for a path no route serves (``details: {}``), plus kschedlearn's hint."""
    return _status(404, REASON_NOT_FOUND, NOT_FOUND_TEXT + (f" ({hint})" if hint else ""), StatusDetails())


def method_not_allowed() -> Response:
    """Go: go-restful's 405 (a route exists, not for this verb)."""
    return _status(405, "MethodNotAllowed", "the server does not allow this method on the requested resource",
                   StatusDetails())


def parse_route(path: str) -> Route | None:
    """Split a resource path; None if it is not one."""
    parts = [p for p in path.split("/") if p]
    if len(parts) >= 2 and parts[0] == "api" and parts[1] == "v1":
        gv, rest = "v1", parts[2:]
    elif len(parts) >= 3 and parts[0] == "apis":
        gv, rest = f"{parts[1]}/{parts[2]}", parts[3:]
    else:
        return None
    watch_path = bool(rest) and rest[0] == "watch"
    if watch_path:
        rest = rest[1:]
    if not rest:
        return None
    namespace = ""
    if rest[0] == "namespaces" and len(rest) >= 3:
        namespace, rest = rest[1], rest[2:]
    resource, name, sub = rest[0], (rest[1] if len(rest) > 1 else ""), "/".join(rest[2:])
    return Route(gv, resource, namespace, name, sub, watch_path)


@attrs.define(eq=False)
class RestHandler:
    """Answers REST requests against ``api`` (an :class:`~kschedlearn.apiserver.APIServer`).

    ``server_address`` goes into discovery documents; ``now`` is the virtual clock (ages).
    """

    api: Any
    server_address: str = "127.0.0.1"
    now: Callable[[], float] | None = None

    def _now(self) -> float:
        return self.now() if self.now is not None else self.api.now()

    # -- entry ---------------------------------------------------------------------------
    def handle(self, req: RestRequest) -> Response | WatchRequest:
        """The answer to ``req`` (or, for a watch, what to stream), in the negotiated encoding."""
        try:
            answer = self._dispatch(req)
        except StatusError as err:
            answer = _from_error(err)
        except (ManifestError, PatchError) as err:
            answer = _from_error(new_bad_request(str(err)))
        except ValueError as err:  # e.g. an unknown resource name from the registry
            answer = _from_error(new_bad_request(str(err)))
        if isinstance(answer, Response) and parse_route(req.path) is not None:
            return self._negotiated(req, answer)
        return answer

    @staticmethod
    def _negotiated(req: RestRequest, answer: Response) -> Response:
        """Go: ``WriteObjectNegotiated`` / ``ErrorNegotiated`` — a 406 goes out as raw JSON with no
        kind (1.6's ``writeRawJSON`` of the Status)."""
        try:
            media = negotiate.output_media_type(req.accept)
        except StatusError as err:
            body = {k: v for k, v in err.status().to_dict().items() if k not in ("kind", "apiVersion")}
            return Response(406, body)
        body = answer.body
        if media == negotiate.PROTOBUF and message_for(body.get("apiVersion", ""), body.get("kind", "")) is None:
            media = JSON  # a Table or discovery document: JSON, which 1.6's clients read by Content-Type
        return attrs.evolve(answer, content_type=media)

    def _dispatch(self, req: RestRequest) -> Response | WatchRequest:
        static = self._static(req)
        if static is not None:
            return static
        route = parse_route(req.path)
        if route is None:
            return not_found_path()
        if route.resource == "namespaces" and not route.subresource and (route.name or not route.namespace):
            return self._namespaces(req, route)
        served = discovery.find_served(route.group_version, route.resource)
        if served is None or route.resource == "namespaces":
            return not_found_path(discovery.not_served_hint(route.group_version, route.resource))
        if served.namespaced and not route.namespace and req.method != "GET":
            return not_found_path()
        if not served.namespaced and route.namespace:
            return not_found_path()
        return self._resource(req, route)

    def _static(self, req: RestRequest) -> Response | None:
        if req.method != "GET":
            return None
        path = req.path
        if path in ("/healthz", "/livez", "/readyz"):
            return Response(200, {"raw": "ok"})
        if path == "/version":
            return Response(200, dict(discovery.VERSION_INFO))
        if path == "/api":
            return Response(200, discovery.api_versions(self.server_address))
        if path == "/apis":
            return Response(200, discovery.api_group_list(self.server_address))
        if path == "/openapi/v3":
            return Response(200, openapi.openapi_v3_root())
        if path.startswith("/openapi/v3/"):
            tail = path.removeprefix("/openapi/v3/")
            doc = openapi.openapi_v3_group_version(tail)
            gv = "v1" if tail == "api/v1" else tail.removeprefix("apis/")
            return Response(200, doc) if doc is not None else not_found_path(discovery.not_served_hint(gv, ""))
        parts = [p for p in path.split("/") if p]
        if parts == ["api", "v1"] or (len(parts) == 3 and parts[0] == "apis"):
            gv = "/".join(parts[1:]) if parts[0] == "apis" else "v1"
            body = discovery.api_resource_list(gv)
            return Response(200, body) if body is not None else not_found_path(discovery.not_served_hint(gv, ""))
        if len(parts) == 2 and parts[0] == "apis":
            group = discovery.api_group(parts[1], self.server_address)
            return Response(200, group) if group is not None else not_found_path()
        return None

    # -- namespaces (derived) ------------------------------------------------------------
    def _namespace_names(self) -> list[str]:
        names = set(BUILTIN_NAMESPACES)
        for resource, info in RESOURCES.items():
            if info.namespaced:
                names.update(o.metadata.namespace for o in self.api.storage.items(resource))
        return sorted(n for n in names if n)

    @staticmethod
    def _namespace_object(name: str) -> dict[str, Any]:
        # Go: namespaces are cluster-scoped, so rootScopeNaming links them as "/api/v1/namespaces<name>"
        link = Namer("/api/v1", "namespaces", False).item_link(name, "")
        return {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name, "selfLink": link},
                "spec": {"finalizers": ["kubernetes"]}, "status": {"phase": "Active"}}

    def _namespaces(self, req: RestRequest, route: Route) -> Response:
        names = self._namespace_names()
        if req.method == "POST" and not route.name:
            body = writes.json_body(req)
            name = (body.get("metadata") or {}).get("name", "") if isinstance(body, dict) else ""
            if not name:
                raise new_invalid("Namespace", "", "metadata.name: Required value: name or generateName is required")
            return Response(201, self._namespace_object(name))
        if req.method != "GET":
            return method_not_allowed()
        if route.name:
            if route.name not in names:
                return _status(404, REASON_NOT_FOUND, f'namespaces "{route.name}" not found',
                               StatusDetails(name=route.name, kind="namespaces"))
            return Response(200, self._namespace_object(route.name))
        rv = str(self.api.storage.resource_version)
        return Response(200, {"kind": "NamespaceList", "apiVersion": "v1",
                              "metadata": {"selfLink": req.path, "resourceVersion": rv},
                              "items": [self._namespace_object(n) for n in names]})

    # -- stored resources ----------------------------------------------------------------
    def _resource(self, req: RestRequest, route: Route) -> Response | WatchRequest:
        resource, method = route.resource, req.method
        if route.subresource in _KUBELET_SUBRESOURCES or route.subresource not in ("", "status", "binding", "eviction"):
            return not_found_path()
        namespaced = RESOURCES[resource].namespaced if resource in RESOURCES else True
        namer = Namer(route.prefix, resource, namespaced, route.subresource)
        w = writes.Writes(self.api, route, namer, req)
        if resource == "bindings":
            return w.bind() if method == "POST" and not route.name else method_not_allowed()
        if route.subresource in ("binding", "eviction"):
            if resource != "pods":
                return not_found_path()
            if method != "POST":
                return method_not_allowed()
            return w.bind() if route.subresource == "binding" else w.evict()
        if not route.name:
            if method == "GET":
                return self._collection_get(req, route, namer)
            if method == "POST" and not route.subresource:
                return w.create()
            if method == "DELETE" and "deletecollection" in discovery.find_served(route.group_version, resource).verbs:
                return w.delete_collection()
            return method_not_allowed()
        if route.watch_path and method == "GET":
            return self._watch(req, route, namer, name=route.name)
        if method == "GET":
            obj = self.api.get(resource, route.namespace, route.name, faults=False)
            return self._encode_one(req, resource, obj, namer)
        if method == "PUT":
            return w.update()
        if method == "PATCH":
            return w.patch()
        if method == "DELETE" and not route.subresource:
            return w.delete()
        return method_not_allowed()

    def _encode_one(self, req: RestRequest, resource: str, obj: Any, namer: Namer) -> Response:
        if tables.wants_table(req.accept):
            return Response(200, tables.table(resource, [obj], self._now(), obj.metadata.resource_version,
                                              include_object=req.param("includeObject", "PartialObjectMetadata")))
        return Response(200, namer.link(obj.to_dict()))

    def _collection_get(self, req: RestRequest, route: Route, namer: Namer) -> Response | WatchRequest:
        decode.query_parameters(req.param("labelSelector"), req.param("fieldSelector"), req.param("timeoutSeconds"))
        if route.watch_path or req.param("watch") in ("1", "true", "True"):
            return self._watch(req, route, namer)
        info = RESOURCES[route.resource]
        self.api._filter(info, route.namespace, "", req.param("fieldSelector"))  # Go: field labels first (400)
        decode.list_resource_version(req.param("resourceVersion"))
        lst = self.api.list(route.resource, route.namespace, label_selector=req.param("labelSelector"),
                            field_selector=req.param("fieldSelector"),
                            resource_version=req.param("resourceVersion"), faults=False)
        rv = lst.metadata.resource_version
        if tables.wants_table(req.accept):
            return Response(200, tables.table(route.resource, lst.items, self._now(), rv,
                                              include_object=req.param("includeObject", "PartialObjectMetadata")))
        return Response(200, namer.link_list({"kind": f"{info.kind}List", "apiVersion": route.group_version,
                                              "metadata": {"resourceVersion": rv},
                                              "items": [o.to_dict() for o in lst.items]}, req.path))

    def _watch(self, req: RestRequest, route: Route, namer: Namer, name: str = "") -> WatchRequest:
        timeout_s = decode.query_parameters(req.param("labelSelector"), req.param("fieldSelector"),
                                            req.param("timeoutSeconds"))
        fsel = req.param("fieldSelector")
        if name:
            if fsel:  # Go: ListResource refuses a name and a field selector together
                raise new_bad_request("both a name and a field selector provided; please provide one or the other.")
            fsel = f"metadata.name={name}"
        info = RESOURCES[route.resource]
        # resolve the selectors now, so a bad one is an error before anything streams
        self.api._filter(info, route.namespace, req.param("labelSelector"), fsel)
        rv_int = decode.watch_resource_version(req.param("resourceVersion"), route.resource)
        as_table = tables.wants_table(req.accept)
        media = negotiate.output_media_type(req.accept)
        return WatchRequest(route.resource, route.namespace, req.param("labelSelector"), fsel, rv_int,
                            timeout_s, as_table, req.param("includeObject", "PartialObjectMetadata"),
                            protobuf=media == negotiate.PROTOBUF and not as_table, link=namer)


__all__ = ["RestHandler", "Route", "parse_route", "BUILTIN_NAMESPACES", "not_found_path", "method_not_allowed"]
