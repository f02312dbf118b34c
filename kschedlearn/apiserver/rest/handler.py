"""One REST request against the embedded API server: route it, run the verb, encode the answer.

Go: plays the part of the apiserver's REST handlers and their route table,
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apiserver/pkg/endpoints/handlers/rest.go
(getResourceHandler, ListResource, createHandler, UpdateResource, PatchResource,
DeleteResource) and the installer's paths (``/api/v1/namespaces/{namespace}/{resource}/{name}``,
``.../{subresource}``, ``/api/v1/watch/...``), with errors answered as ``metav1.Status``.

Differs from Go: kschedlearn-only. Requests never block: a watch request is only *resolved*
here (into a :class:`~.types.WatchRequest`) and streamed by the HTTP layer. Namespaces are
not stored: the served list is ``default``, ``kube-system``, ``kube-public`` and every
namespace an object lives in; creating one succeeds and changes nothing. ``DELETE`` answers
with the object's last state (as later releases do) instead of 1.6's ``Status``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import attrs

from kschedlearn.api.errors import ManifestError
from kschedlearn.api.v1 import KINDS, Binding
from kschedlearn.api.v1._gojson_check import syntax_error
from kschedlearn.apimachinery.api.errors import (
    REASON_NOT_FOUND,
    Status,
    StatusDetails,
    StatusError,
    new_bad_request,
    new_invalid,
)
from kschedlearn.apiserver.registry import RESOURCES
from kschedlearn.apiserver.rest import decode, discovery, tables, workloads
from kschedlearn.apiserver.rest.patch import PatchError, apply_patch
from kschedlearn.apiserver.rest.types import RestRequest, Response, WatchRequest

BUILTIN_NAMESPACES = ("default", "kube-public", "kube-system")


@attrs.frozen
class Route:
    """Where a resource path points."""

    group_version: str
    resource: str
    namespace: str = ""
    name: str = ""
    subresource: str = ""
    watch_path: bool = False


def _status(code: int, reason: str, message: str, details: StatusDetails | None = None) -> Response:
    return Response(code, Status(message=message, reason=reason, code=code, details=details).to_dict())


def _from_error(err: StatusError) -> Response:
    return Response(err.code or 500, err.status().to_dict())


def not_found_path() -> Response:
    return _status(404, REASON_NOT_FOUND, "the server could not find the requested resource",
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
        """The answer to ``req`` (or, for a watch, what to stream)."""
        try:
            return self._dispatch(req)
        except StatusError as err:
            return _from_error(err)
        except (ManifestError, PatchError) as err:
            return _from_error(new_bad_request(str(err)))
        except ValueError as err:  # e.g. an unknown resource name from the registry
            return _from_error(new_bad_request(str(err)))

    def _dispatch(self, req: RestRequest) -> Response | WatchRequest:
        static = self._static(req)
        if static is not None:
            return static
        route = parse_route(req.path)
        if route is None:
            return not_found_path()
        if route.resource == "namespaces" and not route.subresource and (route.name or not route.namespace):
            return self._namespaces(req, route)
        if workloads.handles(route.group_version, route.resource, route.subresource):
            return workloads.handle(self, req, route)  # the controllers' kinds, scale, apps/v1
        served = discovery.find_served(route.group_version, route.resource)
        if served is None or route.resource == "namespaces":
            return not_found_path()
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
            return Response(200, discovery.openapi_v3_root())
        if path.startswith("/openapi/v3/"):
            doc = discovery.openapi_v3_group_version(path.removeprefix("/openapi/v3/"))
            return Response(200, doc) if doc is not None else not_found_path()
        parts = [p for p in path.split("/") if p]
        if parts == ["api", "v1"] or (len(parts) == 3 and parts[0] == "apis"):
            body = discovery.api_resource_list("/".join(parts[1:]) if parts[0] == "apis" else "v1")
            return Response(200, body) if body is not None else not_found_path()
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
        return {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name},
                "spec": {"finalizers": ["kubernetes"]}, "status": {"phase": "Active"}}

    def _namespaces(self, req: RestRequest, route: Route) -> Response:
        names = self._namespace_names()
        if req.method == "POST" and not route.name:
            body = _json_body(req)
            name = (body.get("metadata") or {}).get("name", "") if isinstance(body, dict) else ""
            if not name:
                raise new_invalid("Namespace", "", "metadata.name: Required value: name or generateName is required")
            return Response(201, self._namespace_object(name))
        if req.method != "GET":
            return _status(405, "MethodNotAllowed", f"{req.method} is not supported on namespaces")
        if route.name:
            if route.name not in names:
                return _status(404, REASON_NOT_FOUND, f'namespaces "{route.name}" not found',
                               StatusDetails(name=route.name, kind="namespaces"))
            return Response(200, self._namespace_object(route.name))
        rv = str(self.api.storage.resource_version)
        return Response(200, {"kind": "NamespaceList", "apiVersion": "v1", "metadata": {"resourceVersion": rv},
                              "items": [self._namespace_object(n) for n in names]})

    # -- stored resources ----------------------------------------------------------------
    def _resource(self, req: RestRequest, route: Route) -> Response | WatchRequest:
        resource, method = route.resource, req.method
        if resource == "bindings":
            return self._bind(req, route.namespace) if method == "POST" and not route.name else not_found_path()
        if route.subresource == "binding":
            return self._bind(req, route.namespace, route.name) if method == "POST" else not_found_path()
        if route.subresource not in ("", "status"):
            return not_found_path()
        if not route.name:
            if method == "GET":
                return self._collection_get(req, route)
            if method == "POST":
                return self._create(req, route)
            return _status(405, "MethodNotAllowed", f"{method} is not supported on a collection here")
        if route.watch_path and method == "GET":
            return self._watch(req, route, name=route.name)
        if method == "GET":
            obj = self.api.get(resource, route.namespace, route.name)
            return self._encode_one(req, resource, obj)
        if method == "PUT":
            return self._update(req, route)
        if method == "PATCH":
            return self._patch(req, route)
        if method == "DELETE":
            return self._delete(req, route)
        return _status(405, "MethodNotAllowed", f"{method} is not supported")

    def _encode_one(self, req: RestRequest, resource: str, obj: Any) -> Response:
        if tables.wants_table(req.accept):
            return Response(200, tables.table(resource, [obj], self._now(), obj.metadata.resource_version,
                                              include_object=req.param("includeObject", "PartialObjectMetadata")))
        return Response(200, obj.to_dict())

    def _collection_get(self, req: RestRequest, route: Route) -> Response | WatchRequest:
        decode.query_parameters(req.param("labelSelector"), req.param("fieldSelector"), req.param("timeoutSeconds"))
        if route.watch_path or req.param("watch") in ("1", "true", "True"):
            return self._watch(req, route)
        info = RESOURCES[route.resource]
        self.api._filter(info, route.namespace, "", req.param("fieldSelector"))  # Go: field labels first (400)
        decode.list_resource_version(req.param("resourceVersion"))
        lst = self.api.list(route.resource, route.namespace, label_selector=req.param("labelSelector"),
                            field_selector=req.param("fieldSelector"),
                            resource_version=req.param("resourceVersion"))
        rv = lst.metadata.resource_version
        if tables.wants_table(req.accept):
            return Response(200, tables.table(route.resource, lst.items, self._now(), rv,
                                              include_object=req.param("includeObject", "PartialObjectMetadata")))
        return Response(200, {"kind": f"{info.kind}List", "apiVersion": route.group_version,
                              "metadata": {"resourceVersion": rv},
                              "items": [o.to_dict() for o in lst.items]})

    def _watch(self, req: RestRequest, route: Route, name: str = "") -> WatchRequest:
        timeout_s = decode.query_parameters(req.param("labelSelector"), req.param("fieldSelector"),
                                            req.param("timeoutSeconds"))
        fsel = req.param("fieldSelector")
        if name:
            fsel = ",".join(s for s in (fsel, f"metadata.name={name}") if s)
        info = RESOURCES[route.resource]
        # resolve the selectors now, so a bad one is a 400 before anything streams
        self.api._filter(info, route.namespace, req.param("labelSelector"), fsel)
        rv_int = decode.watch_resource_version(req.param("resourceVersion"), route.resource)
        return WatchRequest(route.resource, route.namespace, req.param("labelSelector"), fsel, rv_int,
                            timeout_s, tables.wants_table(req.accept),
                            req.param("includeObject", "PartialObjectMetadata"))

    def _decode(self, req: RestRequest, route: Route) -> Any:
        return decode.decode_body(req.body, RESOURCES[route.resource].kind, route.group_version)

    def _create(self, req: RestRequest, route: Route) -> Response:
        obj = self._decode(req, route)
        if req.param("dryRun"):
            return Response(201, obj.to_dict())
        return Response(201, self.api.create(route.resource, route.namespace, obj).to_dict())

    def _write(self, route: Route, obj: Any) -> Any:
        if route.subresource == "status":
            return self.api.update_status(route.resource, route.namespace, obj)
        return self.api.update(route.resource, route.namespace, obj)

    def _update(self, req: RestRequest, route: Route) -> Response:
        obj = self._decode(req, route)
        if obj.metadata.name != route.name:
            raise new_bad_request(f"the name of the object ({obj.metadata.name}) does not match the name on the URL ({route.name})")
        return Response(200, self._write(route, obj).to_dict())

    def _patch(self, req: RestRequest, route: Route) -> Response:
        current = self.api.get(route.resource, route.namespace, route.name)
        patched = apply_patch(req.content_type, current.to_dict(), _json_body(req))
        if not isinstance(patched, dict):
            raise new_bad_request("the patched object is not a JSON object")
        info = RESOURCES[route.resource]
        patched["kind"], patched["apiVersion"] = info.kind, KINDS[info.kind].api_version
        obj = KINDS[info.kind].from_dict(patched, path="patched object")
        if (obj.metadata.name, obj.metadata.namespace) != (current.metadata.name, current.metadata.namespace):
            raise new_bad_request("a patch may not change metadata.name or metadata.namespace")
        # unconditional unless the patch itself carries a resourceVersion
        if obj.metadata.resource_version == current.metadata.resource_version:
            obj = attrs.evolve(obj, metadata=attrs.evolve(obj.metadata, resource_version=""))
        return Response(200, self._write(route, obj).to_dict())

    def _delete(self, req: RestRequest, route: Route) -> Response:
        grace = req.param("gracePeriodSeconds")
        body = _json_body(req) if req.body.strip() else {}
        if isinstance(body, dict) and body.get("gracePeriodSeconds") is not None:
            grace = str(body["gracePeriodSeconds"])
        try:
            grace_s = int(grace) if grace != "" else None
        except ValueError:
            raise new_bad_request(f"invalid gracePeriodSeconds {grace!r}") from None
        before = self.api.get(route.resource, route.namespace, route.name)
        self.api.delete(route.resource, route.namespace, route.name, grace_period_seconds=grace_s)
        after = self.api.storage.get(route.resource, (route.namespace if RESOURCES[route.resource].namespaced else "", route.name))
        return Response(200, (after if after is not None else before).to_dict())

    def _bind(self, req: RestRequest, namespace: str, pod_name: str = "") -> Response:
        body = _json_body(req)
        if not isinstance(body, dict):
            raise new_bad_request("the body of a Binding must be a JSON object")
        body = {**body, "kind": "Binding", "apiVersion": "v1"}
        binding = Binding.from_dict(body, path="request body")
        if pod_name and binding.metadata.name != pod_name:
            raise new_bad_request(f"the binding names pod {binding.metadata.name!r}, the URL {pod_name!r}")
        self.api.bind(namespace, binding)
        return Response(201, Status(status="Success", code=201).to_dict())


def _json_body(req: RestRequest) -> Any:
    if not req.body.strip():
        raise new_bad_request("the request has no body")
    bad = syntax_error(req.body)  # Go's encoding/json text
    if bad:
        raise new_bad_request(bad)
    try:
        return json.loads(req.body)
    except (ValueError, RecursionError) as err:
        raise new_bad_request(f"the body is not valid JSON: {err}") from None


__all__ = ["RestHandler", "Route", "parse_route", "BUILTIN_NAMESPACES"]
