"""The REST face of the controllers' kinds: Deployments, ReplicaSets, DaemonSets, StatefulSets,
their ``scale``, ``status`` and ``rollback`` subresources, and ``apps/v1``.

Go: the REST storages 1.6's API server installs for them —
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/registry/extensions/rest/storage_extensions.go
(``extensions/v1beta1``: daemonsets, deployments with ``/status``, ``/rollback`` and ``/scale``,
replicasets with ``/status`` and ``/scale``),
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/registry/apps/rest/storage_apps.go
(``apps/v1beta1``: deployments, statefulsets) and the ``replicationcontrollers/scale`` of the core
group (``pkg/registry/core/controller/etcd/etcd.go``, an ``autoscaling/v1`` Scale) — served
through the generic handlers of :mod:`.handler`.

``apps/v1`` is a **kschedlearn extension**: 1.6 had no such group version (it came in 1.9),
but kubectl 1.32's ``create deployment`` only ever POSTs ``apps/v1``, and the official Python
client only has ``AppsV1Api``. Requests to ``/apis/apps/v1/...`` for deployments, replicasets,
daemonsets and statefulsets are therefore accepted and mapped onto the 1.6 kinds: a Deployment
body is decoded as ``apps/v1beta1`` (so it gets apps/v1beta1's defaults: 25% surge and
unavailable, 2 old ReplicaSets kept, a 600 s progress deadline), a ReplicaSet or DaemonSet as
``extensions/v1beta1``, a StatefulSet as ``apps/v1beta1``; answers carry ``apiVersion: apps/v1``;
``/scale`` answers an ``autoscaling/v1`` Scale. Fields that only later releases have (e.g. a
StatefulSet's ``updateStrategy``) are refused as unknown fields. Discovery lists ``apps/v1`` as
the apps group's second, non-preferred version with these four kinds only (an ``apps/v1``
manifest maps for ``kubectl apply``), so kubectl still resolves ``deployments`` to
``extensions/v1beta1`` — the first group serving it — as it would against 1.6.

Bodies come in JSON, YAML or protobuf (kubectl 1.32's typed ``create deployment`` sends an
``apps/v1`` Deployment in protobuf; the schema rows are in :mod:`.protobuf_schema`); answers are
linked (``selfLink``) and negotiated as :mod:`.handler`'s are, and a write with ``dryRun=All``
runs every check and stores nothing (:mod:`.writes`). A ``DELETE`` answers 1.6's
``Status{Success}``, or the object while finalizers keep it.

Differs from Go: watch events carry the stored form's apiVersion (``extensions/v1beta1`` for
Deployments) whatever group version the watch was opened on.
"""

from __future__ import annotations

import json
from typing import Any

import attrs

from kschedlearn.apimachinery.api.errors import (
    STATUS_SUCCESS,
    Status,
    StatusDetails,
    new_bad_request,
    new_conflict,
    new_invalid,
)
from kschedlearn.apiserver.finalizers import DeleteOptions
from kschedlearn.apiserver.registry import RESOURCES
from kschedlearn.apiserver.rest import decode, negotiate, protobuf, tables, writes
from kschedlearn.apiserver.rest.patch import JSON_PATCH, MERGE_PATCH, STRATEGIC_MERGE_PATCH, apply_patch
from kschedlearn.apiserver.rest.selflink import Namer
from kschedlearn.apiserver.rest.types import RestRequest, Response, WatchRequest

APPS_V1 = "apps/v1"
#: resource → the group versions serving it (apps/v1 as the kschedlearn extension)
GROUP_VERSIONS: dict[str, tuple[str, ...]] = {
    "deployments": ("extensions/v1beta1", "apps/v1beta1", APPS_V1),
    "replicasets": ("extensions/v1beta1", APPS_V1),
    "daemonsets": ("extensions/v1beta1", APPS_V1),
    "statefulsets": ("apps/v1beta1", APPS_V1),
}
#: resource → the subresources served (besides the object itself)
SUBRESOURCES: dict[str, tuple[str, ...]] = {
    "deployments": ("status", "scale", "rollback"),
    "replicasets": ("status", "scale"),
    "daemonsets": ("status",),
    "statefulsets": ("status",),
    "replicationcontrollers": ("status", "scale"),
}
#: resource → the group version its objects are decoded as, for a request on apps/v1
APPS_V1_AS = {"deployments": "apps/v1beta1", "replicasets": "extensions/v1beta1",
              "daemonsets": "extensions/v1beta1", "statefulsets": "apps/v1beta1"}


def handles(group_version: str, resource: str, subresource: str) -> bool:
    """Is this route one of this module's (the handler asks before its own routing)?"""
    if resource == "replicationcontrollers":
        return group_version == "v1" and subresource == "scale"
    return group_version in GROUP_VERSIONS.get(resource, ()) and (
        subresource in ("",) + SUBRESOURCES.get(resource, ()))


def handle(h: Any, req: RestRequest, route: Any) -> Response | WatchRequest:
    """Answer ``req`` on ``route`` (``h``: the :class:`~.handler.RestHandler`)."""
    resource, method = route.resource, req.method
    info = RESOURCES[resource]
    if info.namespaced and not route.namespace and (method != "GET" or route.name):
        from kschedlearn.apiserver.rest.handler import not_found_path

        return not_found_path()
    if route.subresource == "scale":
        return _scale(h, req, route)
    if route.subresource == "rollback":
        return _rollback(h, req, route) if method == "POST" else _method_not_allowed(method)
    if not route.name:
        if method == "GET":
            return _collection_get(h, req, route)
        if method == "POST" and not route.subresource:
            return _create(h, req, route)
        return _method_not_allowed(method)
    if route.watch_path and method == "GET":
        return h._watch(req, route, _namer(route), name=route.name)
    if method == "GET":
        return _encode_one(h, req, route, h.api.get(resource, route.namespace, route.name, faults=False))
    if method == "PUT":
        obj = _decode(req, route)
        if obj.metadata.name != route.name:
            raise new_bad_request(f"the name of the object ({obj.metadata.name}) does not match the name on the "
                                  f"URL ({route.name})")
        return _answer(route, 200, _write(h, route, obj, writes.dry_run_requested(req)))
    if method == "PATCH":
        return _patch(h, req, route)
    if method == "DELETE" and not route.subresource:
        return _delete(h, req, route)
    return _method_not_allowed(method)


def _method_not_allowed(method: str) -> Response:
    return Response(405, Status(message=f"{method} is not supported here", reason="MethodNotAllowed",
                                code=405).to_dict())


# -- encoding and decoding -------------------------------------------------------------------

def _namer(route: Any) -> Namer:
    """How the route links what it answers (1.6's ``selfLink``, :mod:`.selflink`)."""
    return Namer(route.prefix, route.resource, RESOURCES[route.resource].namespaced, route.subresource)


def _as_dict(route: Any, obj: Any) -> dict[str, Any]:
    """``obj`` as the route's group version shows it (unlinked)."""
    from kschedlearn.apiserver.workloads import as_group_version

    body = as_group_version(obj, route.group_version).to_dict()
    if route.group_version == APPS_V1:
        body["apiVersion"] = APPS_V1
    return body


def _answer(route: Any, code: int, obj: Any) -> Response:
    return Response(code, _namer(route).link(_as_dict(route, obj)))


def _encode_one(h: Any, req: RestRequest, route: Any, obj: Any) -> Response:
    if tables.wants_table(req.accept):
        return Response(200, tables.table(route.resource, [obj], h._now(), obj.metadata.resource_version,
                                          include_object=req.param("includeObject", "PartialObjectMetadata")))
    return _answer(route, 200, obj)


def _document(req: RestRequest, kind: str, group_version: str) -> dict[str, Any]:
    """The body (JSON, YAML or protobuf) as a JSON-form dict with its apiVersion and kind, or
    1.6's 400 when the serializer cannot read it."""
    if negotiate.input_media_type(req.content_type) != negotiate.PROTOBUF:
        return decode.json_document(req, kind)
    try:
        envelope = protobuf.decode_envelope(req.body)
    except protobuf.ProtobufError as err:
        raise decode.unrecognized(kind, str(err), req.body) from None
    api_version, body_kind = envelope.api_version or group_version, envelope.kind or kind
    message = protobuf.message_for(api_version, body_kind)
    if message is None:
        return {"apiVersion": api_version, "kind": body_kind}
    try:
        return protobuf.decode_object(message, attrs.evolve(envelope, api_version=api_version, kind=body_kind))
    except protobuf.ProtobufError as err:
        raise new_bad_request(f"{body_kind} in version {json.dumps(api_version.rpartition('/')[2])} cannot be "
                              f"handled as a {kind}: {err}") from None


def _decode(req: RestRequest, route: Any, doc: dict[str, Any] | None = None) -> Any:
    """The body (or ``doc``, a patched object) as the stored kind: ``apps/v1`` mapped (see the
    module docstring), ``apps/v1beta1`` Deployments decoded as apps' class (the registry converts
    them)."""
    from kschedlearn.api.errors import ManifestError
    from kschedlearn.apis.apps.v1beta1 import types as apps

    kind = RESOURCES[route.resource].kind
    gv = route.group_version
    if doc is None:
        doc = _document(req, kind, gv)
    if not (gv == APPS_V1 or (gv == apps.GROUP_VERSION and kind == "Deployment")):
        return decode._check_kind(doc, kind, gv, req.body)
    if (doc.get("kind") or kind) != kind:
        decode._check_kind(doc, kind, gv, req.body)  # another kind: 1.6's "cannot be handled as" (raises)
    body_version = doc.get("apiVersion") or gv
    if body_version != gv:
        raise new_bad_request(f"the API version in the data ({body_version}) does not match the expected "
                              f"API version ({gv})")
    target = APPS_V1_AS[route.resource] if gv == APPS_V1 else gv
    if target == apps.GROUP_VERSION and kind == "Deployment":
        try:
            return apps.Deployment.from_dict({**doc, "kind": kind, "apiVersion": target}, path="request body")
        except ManifestError as err:
            raise new_bad_request(f"{kind} in version {json.dumps(gv.rpartition('/')[2])} cannot be handled "
                                  f"as a {kind}: {err}") from None
    return decode._check_kind({**doc, "kind": kind, "apiVersion": target}, kind, target, req.body)


def _body(req: RestRequest, kind: str, group_version: str) -> Any:
    """A subresource's body (a Scale, a DeploymentRollback) as a JSON-form dict."""
    if negotiate.input_media_type(req.content_type) == negotiate.PROTOBUF:
        return _document(req, kind, group_version)
    return writes.json_body(req)


# -- verbs ---------------------------------------------------------------------------------

def _collection_get(h: Any, req: RestRequest, route: Any) -> Response | WatchRequest:
    decode.query_parameters(req.param("labelSelector"), req.param("fieldSelector"), req.param("timeoutSeconds"))
    if route.watch_path or req.param("watch") in ("1", "true", "True"):
        return h._watch(req, route, _namer(route))
    info = RESOURCES[route.resource]
    h.api._filter(info, route.namespace, "", req.param("fieldSelector"))
    decode.list_resource_version(req.param("resourceVersion"))
    lst = h.api.list(route.resource, route.namespace, label_selector=req.param("labelSelector"),
                     field_selector=req.param("fieldSelector"), resource_version=req.param("resourceVersion"),
                     faults=False)
    rv = lst.metadata.resource_version
    if tables.wants_table(req.accept):
        return Response(200, tables.table(route.resource, lst.items, h._now(), rv,
                                          include_object=req.param("includeObject", "PartialObjectMetadata")))
    return Response(200, _namer(route).link_list(
        {"kind": f"{info.kind}List", "apiVersion": route.group_version, "metadata": {"resourceVersion": rv},
         "items": [_as_dict(route, o) for o in lst.items]}, req.path))


def _create(h: Any, req: RestRequest, route: Any) -> Response:
    obj = _decode(req, route)
    created = h.api.create(route.resource, route.namespace, obj, dry_run=writes.dry_run_requested(req))
    return _answer(route, 201, created)


def _write(h: Any, route: Any, obj: Any, dry_run: bool = False) -> Any:
    if route.subresource == "status":
        return h.api.update_status(route.resource, route.namespace, obj, dry_run=dry_run)
    return h.api.update(route.resource, route.namespace, obj, dry_run=dry_run)


def _unsupported_patch() -> Response:
    """go-restful's bare 415 for a patch type 1.6 did not take (as :mod:`.writes` answers it)."""
    return Response(415, {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
                          "message": "the server responded with the status code 415 but did not return "
                                     "more information", "details": {}, "code": 415})


def _patch_media(req: RestRequest) -> str:
    media = req.content_type.split(";")[0].strip().lower()
    return media if media in (JSON_PATCH, MERGE_PATCH, STRATEGIC_MERGE_PATCH) else ""


def _patch(h: Any, req: RestRequest, route: Any) -> Response:
    media = _patch_media(req)
    if not media:
        return _unsupported_patch()
    current = h.api.get(route.resource, route.namespace, route.name, faults=False)
    patched = apply_patch(media, _as_dict(route, current), writes.json_body(req))
    if not isinstance(patched, dict):
        raise new_bad_request("the patched object is not a JSON object")
    patched["kind"], patched["apiVersion"] = RESOURCES[route.resource].kind, route.group_version
    obj = _decode(req, route, patched)
    if (obj.metadata.name, obj.metadata.namespace) != (current.metadata.name, current.metadata.namespace):
        raise new_bad_request("a patch may not change metadata.name or metadata.namespace")
    if obj.metadata.resource_version == current.metadata.resource_version:
        obj = attrs.evolve(obj, metadata=attrs.evolve(obj.metadata, resource_version=""))
    return _answer(route, 200, _write(h, route, obj, writes.dry_run_requested(req)))


def _delete(h: Any, req: RestRequest, route: Any) -> Response:
    """Go: ``DeleteResource`` — 1.6's ``Status{Success}``, or the object while finalizers keep it
    (``Store.Delete`` returns it then)."""
    body = decode.decode_options(req) if req.body else None
    query = {k: req.param(k) for k in ("gracePeriodSeconds", "orphanDependents", "propagationPolicy") if req.param(k)}
    try:
        options = DeleteOptions.from_dict(body, query)
    except ValueError as err:
        raise new_bad_request(str(err)) from None
    dry = writes.dry_run_requested(req, body)
    after = h.api.delete(route.resource, route.namespace, route.name, options.grace_period_seconds, dry_run=dry,
                         options=options)
    if after is not None and after.metadata.deletion_timestamp is not None and after.metadata.finalizers:
        return _answer(route, 200, after)
    return Response(200, Status(status=STATUS_SUCCESS, code=200).to_dict())


# -- /scale ----------------------------------------------------------------------------------

def _scale_version(route: Any) -> str:
    """The Scale kind a route answers: autoscaling/v1 for the core group and apps/v1, the
    group's own v1beta1 Scale otherwise (1.6's extensions and apps Scale types)."""
    return "autoscaling/v1" if route.group_version in ("v1", APPS_V1) else route.group_version


def scale_of(route: Any, obj: Any) -> dict[str, Any]:
    """The ``scale`` subresource of ``obj``. Go: each ScaleREST's ``Get`` (e.g.
    pkg/registry/extensions/deployment/storage/storage.go ``ScaleREST.Get``)."""
    from kschedlearn.apimachinery.apis.meta.v1.helpers import label_selector_as_selector

    m = obj.metadata
    meta = {"name": m.name, "namespace": m.namespace, "uid": m.uid, "resourceVersion": m.resource_version,
            "creationTimestamp": obj.to_dict()["metadata"].get("creationTimestamp")}
    version = _scale_version(route)
    selector = obj.spec.selector
    if route.resource == "replicationcontrollers":
        match_labels, text = dict(selector), ",".join(f"{k}={v}" for k, v in sorted(selector.items()))
    else:
        match_labels = dict(selector.match_labels) if selector is not None else {}
        text = label_selector_as_selector(selector).string() if selector is not None else ""
    status: dict[str, Any] = {"replicas": obj.status.replicas}
    if version == "autoscaling/v1":
        if text:
            status["selector"] = text
    else:
        if match_labels:
            status["selector"] = match_labels
        if text:
            status["targetSelector"] = text
    return {"kind": "Scale", "apiVersion": version, "metadata": {k: v for k, v in meta.items() if v},
            "spec": {"replicas": obj.spec.replicas}, "status": status}


def _scale(h: Any, req: RestRequest, route: Any) -> Response:
    """GET, PUT and PATCH of ``.../scale``. Go: ``ScaleREST.Update`` sets the parent's
    ``spec.replicas`` (with the Scale's resourceVersion) and updates it."""
    current = h.api.get(route.resource, route.namespace, route.name, faults=False)
    if req.method == "GET":
        return Response(200, _namer(route).link(scale_of(route, current)))
    if req.method == "PUT":
        scale = _body(req, "Scale", _scale_version(route))
    elif req.method == "PATCH":
        media = _patch_media(req)
        if not media:
            return _unsupported_patch()
        scale = apply_patch(media, scale_of(route, current), writes.json_body(req))
    else:
        return _method_not_allowed(req.method)
    if not isinstance(scale, dict) or not isinstance(scale.get("spec", {}), dict):
        raise new_bad_request("the object provided is unrecognized (must be of type Scale)")
    replicas = (scale.get("spec") or {}).get("replicas", 0)
    if isinstance(replicas, bool) or not isinstance(replicas, int):
        raise new_bad_request(f"Scale.spec.replicas: expected an integer, got {json.dumps(replicas)}")
    group = "autoscaling" if _scale_version(route) == "autoscaling/v1" else route.group_version.split("/")[0]
    if replicas < 0:
        raise new_invalid(f"Scale.{group}", route.name,
                          f"spec.replicas: Invalid value: {replicas}: must be greater than or equal to 0")
    rv = (scale.get("metadata") or {}).get("resourceVersion") or ""
    if rv and rv != current.metadata.resource_version:
        raise new_conflict(RESOURCES[route.resource].qualified(), route.name,
                           "the object has been modified; please apply your changes to the latest version and try again")
    updated = h.api.update(route.resource, route.namespace,
                           attrs.evolve(current, spec=attrs.evolve(current.spec, replicas=replicas)),
                           dry_run=writes.dry_run_requested(req))
    return Response(200, _namer(route).link(scale_of(route, updated)))


# -- /rollback -------------------------------------------------------------------------------

def _rollback(h: Any, req: RestRequest, route: Any) -> Response:
    """POST a DeploymentRollback: the Deployment gets ``spec.rollbackTo`` (and the rollback's
    annotations); the deployment controller does the rest. Go: ``RollbackREST.Create`` —
    pkg/registry/extensions/deployment/storage/storage.go (its answer: a Success Status)."""
    body = _body(req, "DeploymentRollback", route.group_version)
    if not isinstance(body, dict) or body.get("name") != route.name:
        raise new_bad_request(f"a DeploymentRollback for deployment {route.name!r} must name it in its name field")
    to = body.get("rollbackTo") or {}
    revision = to.get("revision", 0) if isinstance(to, dict) else None
    if isinstance(revision, bool) or not isinstance(revision, int) or revision < 0:
        raise new_invalid("DeploymentRollback", route.name,
                          f"rollback.revision: Invalid value: {json.dumps(revision)}: must be greater than or equal "
                          "to 0")
    from kschedlearn.apis.extensions.v1beta1.types import RollbackConfig

    current = h.api.get("deployments", route.namespace, route.name, faults=False)
    annotations = {**current.metadata.annotations, **(body.get("updatedAnnotations") or {})}
    h.api.update("deployments", route.namespace, attrs.evolve(
        current, metadata=attrs.evolve(current.metadata, annotations=annotations),
        spec=attrs.evolve(current.spec, rollback_to=RollbackConfig(revision=revision))),
        dry_run=writes.dry_run_requested(req))
    return Response(200, Status(status="Success", code=200,
                                message=f'rollback request for deployment "{route.name}" succeeded',
                                details=StatusDetails()).to_dict())


__all__ = ["APPS_V1", "APPS_V1_AS", "GROUP_VERSIONS", "SUBRESOURCES", "handle", "handles", "scale_of"]
