"""The REST layer's writes: create, update, patch, delete, deletecollection, binding, eviction.

Go: ``createHandler``, ``UpdateResource``, ``PatchResource``, ``DeleteResource`` and
``DeleteCollection`` of
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apiserver/pkg/endpoints/handlers/rest.go
in front of the registry (:class:`~kschedlearn.apiserver.server.APIServer`, whose ``update``
validates as 1.6's ``ValidatePodUpdate`` & co. on every path: PUT, each PATCH kind, ``/status``).

1.6's answers kept: a created object is 201, an update or patch 200; a deleted *pod* comes back
as the pod (marked with its deletion time, even when it went at once), any other kind as
``Status{Success}`` (200); a binding or an eviction is ``Status{Success}`` with code 201.

``dryRun`` (Kubernetes 1.13+; kschedlearn-only here, 1.6 had none and *ignored* the parameter,
so its server applied the write): ``?dryRun=All`` on any write, or ``dryRun: [All]`` in a DELETE's
or an eviction's ``DeleteOptions``, runs every check of the write and answers with its result,
and nothing is stored, traced or recorded (``sim.serve`` answers such a request outside the
history). Any other value is refused (400), so nothing is applied by mistake.
"""

from __future__ import annotations

import json
from typing import Any

import attrs

from kschedlearn.api.v1 import KINDS
from kschedlearn.api.v1._gojson_check import syntax_error
from kschedlearn.apimachinery.api.errors import STATUS_SUCCESS, Status, StatusError, new_bad_request
from kschedlearn.apiserver.registry import RESOURCES
from kschedlearn.apiserver.rest import decode, negotiate, protobuf
from kschedlearn.apiserver.rest.patch import JSON_PATCH, MERGE_PATCH, STRATEGIC_MERGE_PATCH, apply_patch
from kschedlearn.apiserver.rest.selflink import Namer
from kschedlearn.apiserver.rest.types import RestRequest, Response

DRY_RUN_ALL = "All"
_PATCH_TYPES = (JSON_PATCH, MERGE_PATCH, STRATEGIC_MERGE_PATCH)


def json_body(req: RestRequest) -> Any:
    """A JSON body (a patch document, a namespace), with Go's encoding/json syntax errors."""
    if not req.body.strip():
        raise new_bad_request("the request has no body")
    bad = syntax_error(req.body)
    if bad:
        raise new_bad_request(bad)
    try:
        return json.loads(req.text)
    except (ValueError, RecursionError) as err:
        raise new_bad_request(f"the body is not valid JSON: {err}") from None


def _dry_run_values(values: list[str]) -> bool:
    for value in values:
        if value != DRY_RUN_ALL:
            raise new_bad_request(f'dryRun: Unsupported value: {json.dumps(value)}: supported values: "All"')
    return bool(values)


def _options_dry_run(options: dict[str, Any] | None) -> list[str]:
    values = (options or {}).get("dryRun") or []
    return [str(v) for v in values] if isinstance(values, list) else [str(values)]


def eviction_options(req: RestRequest) -> tuple[str, dict[str, Any] | None]:
    """An Eviction body (policy/v1beta1, JSON or protobuf) -> (pod name, its ``deleteOptions``).

    Go: ``createHandler`` decoding into ``policy.Eviction`` with 1.6's errors.
    """
    kind, gv = "Eviction", "policy/v1beta1"
    if negotiate.input_media_type(req.content_type) == negotiate.PROTOBUF:
        try:
            envelope = protobuf.decode_envelope(req.body)
        except protobuf.ProtobufError as err:
            raise decode.unrecognized(kind, str(err), req.body) from None
        doc = {"apiVersion": envelope.api_version or gv, "kind": envelope.kind or kind}
        if (doc["apiVersion"], doc["kind"]) == (gv, kind):
            try:
                doc.update(protobuf.decode_message("policy.Eviction", envelope.raw))
            except protobuf.ProtobufError as err:
                raise new_bad_request(f'{kind} in version "v1beta1" cannot be handled as a {kind}: {err}') from None
    else:
        doc = decode.json_document(req, kind)
    api_version, body_kind = doc.get("apiVersion") or gv, doc.get("kind") or kind
    if (api_version, body_kind) != (gv, kind):
        version = api_version.rpartition("/")[2]
        known = KINDS.get(body_kind)
        if known is None or known.api_version != api_version:
            raise new_bad_request(f'{body_kind} in version {json.dumps(version)} cannot be handled as a {kind}: '
                                  f'no kind {json.dumps(body_kind)} is registered for version {json.dumps(api_version)}')
        raise new_bad_request(f"{body_kind} in version {json.dumps(version)} cannot be handled as a {kind}: "
                              f"a {body_kind} is not an {kind}: POST Eviction objects here")
    meta = doc.get("metadata") if isinstance(doc.get("metadata"), dict) else {}
    options = doc.get("deleteOptions")
    return str(meta.get("name") or ""), options if isinstance(options, dict) else None


def is_dry_run(req: RestRequest) -> bool:
    """Whether a write asks for a dry run (query, or a DELETE's / eviction's body); a body that
    cannot be read counts as no (the write then fails on it, applying nothing)."""
    if not req.mutating:
        return False
    values = [req.param("dryRun")] if req.param("dryRun") else []
    try:
        if req.method == "DELETE" and req.body:
            values += _options_dry_run(decode.decode_options(req))
        elif req.method == "POST" and req.path.endswith("/eviction"):
            values += _options_dry_run(eviction_options(req)[1])
    except (StatusError, ValueError):
        return False
    return bool(values)


@attrs.define(eq=False)
class Writes:
    """The writes of one routed request (``route`` and ``namer`` from the handler)."""

    api: Any
    route: Any
    namer: Namer
    req: RestRequest

    @property
    def _info(self) -> Any:
        return RESOURCES[self.route.resource]

    def _dry(self, options: dict[str, Any] | None = None) -> bool:
        query = [self.req.param("dryRun")] if self.req.param("dryRun") else []
        return _dry_run_values(query + _options_dry_run(options))

    def _decode(self, kind: str | None = None, group_version: str | None = None) -> Any:
        return decode.decode_body(self.req, kind or self._info.kind, group_version or self.route.group_version)

    def _success(self, code: int) -> Response:
        return Response(code, Status(status=STATUS_SUCCESS, code=code).to_dict())

    def create(self) -> Response:
        """Go: ``createHandler`` (201 and the stored object). A pod's status is dropped first, as
        1.6's ``podStrategy.PrepareForCreate`` does (the API server then sets ``phase: Pending``).

        Differs from Go: the status's ``qosClass`` is not computed (the scheduler never reads it).
        """
        obj = self._decode()
        if self.route.resource == "pods":
            obj = attrs.evolve(obj, status=type(obj.status)())
        dry = self._dry()
        created = self.api.create(self.route.resource, self.route.namespace, obj, dry_run=dry)
        return Response(201, self.namer.link(created.to_dict()))

    def _write(self, obj: Any, dry: bool) -> Any:
        if self.route.subresource == "status":
            return self.api.update_status(self.route.resource, self.route.namespace, obj, dry_run=dry)
        return self.api.update(self.route.resource, self.route.namespace, obj, dry_run=dry)

    def update(self) -> Response:
        """Go: ``UpdateResource`` — decode, ``checkName``, then the registry's update."""
        obj = self._decode()
        name, ns = obj.metadata.name, obj.metadata.namespace
        if name != self.route.name:
            raise new_bad_request(f"the name of the object ({name}) does not match the name on the URL "
                                  f"({self.route.name})")
        if self.route.namespace and ns and ns != self.route.namespace:
            raise new_bad_request(f"the namespace of the object ({ns}) does not match the namespace on the "
                                  f"request ({self.route.namespace})")
        dry = self._dry()
        return Response(200, self.namer.link(self._write(obj, dry).to_dict()))

    def patch(self) -> Response:
        """Go: ``PatchResource`` — the three JSON patch types (else go-restful's bare 415), applied to
        the stored object, then the registry's update (so a patch is validated as an update)."""
        media = self.req.content_type.split(";")[0].strip().lower()
        if media not in _PATCH_TYPES:
            return Response(415, {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
                                  "message": "the server responded with the status code 415 but did not return "
                                             "more information", "details": {}, "code": 415})
        info = self._info
        key = (self.api._namespace(info, self.route.namespace), self.route.name)
        current = self.api._get_or_not_found(info, key)
        patched = apply_patch(media, current.to_dict(), json_body(self.req))
        if not isinstance(patched, dict):
            raise new_bad_request("the patched object is not a JSON object")
        patched["kind"], patched["apiVersion"] = info.kind, KINDS[info.kind].api_version
        obj = KINDS[info.kind].from_dict(patched, path="patched object")
        if (obj.metadata.name, obj.metadata.namespace) != (current.metadata.name, current.metadata.namespace):
            raise new_bad_request("a patch may not change metadata.name or metadata.namespace")
        # unconditional unless the patch itself carries another resourceVersion
        if obj.metadata.resource_version == current.metadata.resource_version:
            obj = attrs.evolve(obj, metadata=attrs.evolve(obj.metadata, resource_version=""))
        dry = self._dry()
        return Response(200, self.namer.link(self._write(obj, dry).to_dict()))

    def _delete_options(self) -> dict[str, Any]:
        """Go: ``DeleteResource`` — the body's DeleteOptions, else the query's (a bad value is a
        plain conversion error: 500)."""
        if self.req.body:
            return decode.decode_options(self.req)
        grace = self.req.param("gracePeriodSeconds")
        if not grace:
            return {}
        try:
            return {"gracePeriodSeconds": decode.strconv_int(grace)}
        except ValueError as err:
            raise decode.plain_error(str(err)) from None

    def _deleted_answer(self, result: Any) -> dict[str, Any]:
        if self.route.resource != "pods":
            return Status(status=STATUS_SUCCESS, code=200).to_dict()
        if result.metadata.deletion_timestamp is None:  # Go: BeforeDelete marked it before it went
            meta = attrs.evolve(result.metadata, deletion_timestamp=self.api.now(), deletion_grace_period_seconds=0)
            result = attrs.evolve(result, metadata=meta)
        return self.namer.link(result.to_dict())

    def delete(self) -> Response:
        """Go: ``DeleteResource``."""
        options = self._delete_options()
        dry = self._dry(options)
        result = self.api.delete(self.route.resource, self.route.namespace, self.route.name,
                                 grace_period_seconds=options.get("gracePeriodSeconds"), dry_run=dry)
        return Response(200, self._deleted_answer(result))

    def delete_collection(self) -> Response:
        """Go: ``DeleteCollection`` — every object the selectors match, deleted one by one; the answer
        lists them as the deletes left them."""
        decode.query_parameters(self.req.param("labelSelector"), self.req.param("fieldSelector"), "")
        options = decode.decode_options(self.req) if self.req.body else {}
        dry = self._dry(options)
        info = self._info
        lst = self.api.list(self.route.resource, self.route.namespace, label_selector=self.req.param("labelSelector"),
                            field_selector=self.req.param("fieldSelector"), faults=False)
        items = []
        for obj in lst.items:
            items.append(self.api.delete(self.route.resource, obj.metadata.namespace, obj.metadata.name,
                                         grace_period_seconds=options.get("gracePeriodSeconds"), dry_run=dry))
        body = {"kind": f"{info.kind}List", "apiVersion": self.route.group_version,
                "metadata": {"resourceVersion": str(self.api.storage.resource_version)},
                "items": [o.to_dict() for o in items]}
        return Response(200, self.namer.link_list(body, self.req.path))

    def bind(self) -> Response:
        """Go: ``BindingREST`` through ``createHandler`` (the body's name, not the URL's)."""
        binding = self._decode("Binding", "v1")
        dry = self._dry()
        route = "pods/binding" if self.route.subresource == "binding" else "bindings"
        self.api.bind(self.route.namespace, binding, route=route, dry_run=dry)
        return self._success(201)

    def evict(self) -> Response:
        """Go: ``EvictionREST`` through ``createHandler``."""
        name, options = eviction_options(self.req)
        dry = self._dry(options)
        self.api.evict(self.route.namespace, name, options, dry_run=dry)
        return self._success(201)


__all__ = ["Writes", "json_body", "is_dry_run", "eviction_options", "DRY_RUN_ALL"]
