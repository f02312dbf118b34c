"""OpenAPI v3 documents: what kubectl 1.32 reads to validate on the server and to ``explain`` a kind.

Go: none in 1.6 — kschedlearn extension (1.6 served OpenAPI v2 at ``/swagger.json``; v3 came in
1.24). kubectl 1.32 reads ``/openapi/v3`` for two things:

- whether a kind's PATCH accepts ``fieldValidation`` (then ``apply`` leaves validation to the
  server instead of downloading schemas): one PATCH operation per served kind;
- ``kubectl explain``: the kind's schema under ``components.schemas`` (found by its
  ``x-kubernetes-group-version-kind``). The schemas are built from kschedlearn's own model
  classes (:func:`kschedlearn.api.v1.codec.manifest_fields`), so they list the fields
  kschedlearn models, with their types; descriptions say where the Go type is documented.

The signposts of :mod:`.discovery` (``apps/v1`` Deployments, ...) get PATCH operations too, so
kubectl's validation leaves them to the server, and the request then meets the 404 that says
where Kubernetes v1.6.1 kept them.
"""

from __future__ import annotations

import collections.abc
import types
import typing
from typing import Annotated, Any, Union

import attrs

from kschedlearn.api.resource import Quantity
from kschedlearn.api.v1 import KINDS
from kschedlearn.api.v1.codec import manifest_fields
from kschedlearn.apiserver.rest.discovery import SERVED, all_group_versions, signposts

_QUERY_PARAMS = ("dryRun", "fieldManager", "fieldValidation", "pretty")
_TYPES_URL = "https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/api/v1/types.go"


def _gv_path(group_version: str) -> str:
    return "api/v1" if group_version == "v1" else f"apis/{group_version}"


def served_group_versions() -> tuple[str, ...]:
    return ("v1", *all_group_versions())


def openapi_v3_root() -> dict[str, Any]:
    """``GET /openapi/v3``: where each group version's document lives."""
    gvs = served_group_versions()
    return {"paths": {_gv_path(gv): {"serverRelativeURL": f"/openapi/v3/{_gv_path(gv)}"} for gv in gvs}}


def _schema_name(cls: type) -> str:
    return f"{cls.__module__}.{cls.__name__}"


def _type_schema(tp: Any, schemas: dict[str, Any]) -> dict[str, Any]:
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is Annotated:
        return {"type": "string", "format": "date-time"}
    if origin in (Union, types.UnionType):
        rest = [a for a in args if a is not type(None)]
        if len(rest) == 1:
            return _type_schema(rest[0], schemas)
        return {"type": "string", "format": "int-or-string", "x-kubernetes-int-or-string": True}
    if origin in (tuple, list):
        return {"type": "array", "items": _type_schema(args[0], schemas)}
    if origin in (dict, collections.abc.Mapping, typing.Mapping):
        return {"type": "object", "additionalProperties": _type_schema(args[1], schemas)}
    scalars = {str: {"type": "string"}, int: {"type": "integer", "format": "int64"}, bool: {"type": "boolean"},
               float: {"type": "number"}, Quantity: {"type": "string", "format": "quantity"}}
    if tp in scalars:
        return dict(scalars[tp])
    if attrs.has(tp):
        _class_schema(tp, schemas)
        return {"$ref": f"#/components/schemas/{_schema_name(tp)}"}
    return {"type": "object"}


def _class_schema(cls: type, schemas: dict[str, Any], gvk: dict[str, str] | None = None) -> None:
    name = _schema_name(cls)
    if name in schemas:
        return
    schemas[name] = {}  # a placeholder first: classes refer to each other
    properties: dict[str, Any] = {}
    if gvk is not None:
        properties["apiVersion"] = {"type": "string", "description": "the version of the schema (e.g. v1)"}
        properties["kind"] = {"type": "string", "description": f"the kind ({gvk['kind']})"}
    for key, tp in manifest_fields(cls).items():
        properties[key] = _type_schema(tp, schemas)
    schema: dict[str, Any] = {"type": "object", "properties": properties,
                              "description": f"Go type {cls.__name__} of Kubernetes v1.6.1, as kschedlearn models it "
                                             f"(the fields the scheduler and its clients use; see {_TYPES_URL})."}
    if gvk is not None:
        schema["x-kubernetes-group-version-kind"] = [gvk]
    schemas[name] = schema


def openapi_v3_group_version(path: str) -> dict[str, Any] | None:
    """``GET /openapi/v3/api/v1`` (or ``/apis/{g}/{v}``): one PATCH operation and one schema per kind."""
    gv = "v1" if path == "api/v1" else path.removeprefix("apis/")
    if gv not in served_group_versions():
        return None
    group, _, version = gv.rpartition("/")
    paths: dict[str, Any] = {}
    schemas: dict[str, Any] = {}
    kinds = [(s.name, s.kind, s.namespaced) for s in SERVED
             if s.group_version == gv and "/" not in s.name and s.stored and "patch" in s.verbs]
    for name, kind, namespaced in kinds + [(r, k, True) for r, k in signposts(gv)]:
        gvk = {"group": group, "version": version, "kind": kind}
        ns = "namespaces/{namespace}/" if namespaced else ""
        paths[f"/{_gv_path(gv)}/{ns}{name}/{{name}}"] = {"patch": {
            "operationId": f"patch{kind}",
            "parameters": [{"name": p, "in": "query", "schema": {"type": "string"}} for p in _QUERY_PARAMS],
            "responses": {"200": {"description": "OK"}},
            "x-kubernetes-action": "patch",
            "x-kubernetes-group-version-kind": gvk,
        }}
        if kind in KINDS and KINDS[kind].api_version == gv:
            _class_schema(KINDS[kind], schemas, gvk)
    return {"openapi": "3.0.0", "info": {"title": "Kubernetes (kschedlearn)", "version": "v1.6.1"},
            "paths": paths, "components": {"schemas": schemas}}


__all__ = ["openapi_v3_root", "openapi_v3_group_version", "served_group_versions"]
