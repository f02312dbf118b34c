"""The REST layer against an embedded API server, without HTTP: routes, verbs, Status errors.

Go: none — kschedlearn-only; the expected codes and reasons are 1.6's
(staging/src/k8s.io/apimachinery/pkg/api/errors/errors.go: NotFound 404, AlreadyExists and
Conflict 409, Invalid 422, BadRequest 400, MethodNotAllowed 405).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from kschedlearn.apiserver import APIServer
from kschedlearn.apiserver.rest import RestHandler, RestRequest, Response
from kschedlearn.apiserver.rest.handler import parse_route
from kschedlearn.apiserver.rest.tables import human_duration
from kschedlearn.apiserver.rest.types import WatchRequest
from kschedlearn.sim import Runtime

POD = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "web-1", "labels": {"app": "web"}},
       "spec": {"containers": [{"name": "c", "image": "nginx", "resources": {"requests": {"cpu": "100m"}}}]}}
NODE = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "node-1"},
        "status": {"allocatable": {"cpu": "2", "memory": "4Gi", "pods": "110"},
                   "conditions": [{"type": "Ready", "status": "True"}]}}


@pytest.fixture
def handler() -> RestHandler:
    return RestHandler(APIServer(Runtime(seed=0)))


def call(h: RestHandler, method: str, target: str, body: Any = None, *, ctype: str = "application/json",
         accept: str = "") -> Response:
    text = body if isinstance(body, str) else (json.dumps(body) if body is not None else "")
    answer = h.handle(RestRequest.from_target(method, target, body=text, content_type=ctype, accept=accept))
    assert isinstance(answer, Response)
    return answer


def test_discovery_documents(handler: RestHandler) -> None:
    assert call(handler, "GET", "/version").body["gitVersion"] == "v1.6.1"
    assert call(handler, "GET", "/api").body["versions"] == ["v1"]
    groups = {g["name"]: [v["groupVersion"] for v in g["versions"]] for g in call(handler, "GET", "/apis").body["groups"]}
    # the served groups first (preferred), then the signposts of later releases (no verbs)
    assert groups["extensions"] == ["extensions/v1beta1"] and groups["apps"] == ["apps/v1beta1", "apps/v1"]
    assert set(groups) == {"extensions", "apps", "batch", "networking.k8s.io", "policy", "autoscaling"}
    signs = call(handler, "GET", "/apis/apps/v1").body["resources"]
    assert {(r["name"], r["kind"], tuple(r["verbs"])) for r in signs} == {
        ("deployments", "Deployment", ()), ("daemonsets", "DaemonSet", ()), ("replicasets", "ReplicaSet", ()),
        ("statefulsets", "StatefulSet", ())}
    v1 = {r["name"]: r for r in call(handler, "GET", "/api/v1").body["resources"]}
    assert {"pods", "pods/binding", "bindings", "nodes", "events", "namespaces", "services"} <= set(v1)
    assert v1["pods"]["namespaced"] and not v1["nodes"]["namespaced"] and "watch" in v1["pods"]["verbs"]
    rs = call(handler, "GET", "/apis/extensions/v1beta1").body["resources"]
    assert [r["name"] for r in rs] == ["replicasets"]
    assert call(handler, "GET", "/apis/batch/v2alpha1").code == 404


def test_openapi_v3_tells_kubectl_that_fieldvalidation_is_accepted(handler: RestHandler) -> None:
    root = call(handler, "GET", "/openapi/v3").body["paths"]
    doc = call(handler, "GET", root["api/v1"]["serverRelativeURL"]).body
    patch = doc["paths"]["/api/v1/namespaces/{namespace}/pods/{name}"]["patch"]
    assert patch["x-kubernetes-group-version-kind"] == {"group": "", "version": "v1", "kind": "Pod"}
    assert "fieldValidation" in {p["name"] for p in patch["parameters"]}


@pytest.mark.parametrize(("path", "route"), [
    ("/api/v1/pods", ("v1", "pods", "", "", "", False)),
    ("/api/v1/namespaces/default/pods/web-1/binding", ("v1", "pods", "default", "web-1", "binding", False)),
    ("/api/v1/watch/namespaces/default/pods", ("v1", "pods", "default", "", "", True)),
    ("/apis/apps/v1beta1/namespaces/ns/statefulsets/db", ("apps/v1beta1", "statefulsets", "ns", "db", "", False)),
    ("/api/v1/namespaces/default", ("v1", "namespaces", "", "default", "", False)),
])
def test_parse_route(path: str, route: tuple[Any, ...]) -> None:
    r = parse_route(path)
    assert r is not None
    assert (r.group_version, r.resource, r.namespace, r.name, r.subresource, r.watch_path) == route


def test_create_get_list_update_patch_delete(handler: RestHandler) -> None:
    created = call(handler, "POST", "/api/v1/namespaces/default/pods", POD)
    assert created.code == 201 and created.body["metadata"]["namespace"] == "default"
    assert created.body["spec"]["schedulerName"] == "default-scheduler"  # 1.6 defaulting
    got = call(handler, "GET", "/api/v1/namespaces/default/pods/web-1").body
    assert got["metadata"]["uid"] == created.body["metadata"]["uid"]
    listed = call(handler, "GET", "/api/v1/pods?labelSelector=app%3Dweb").body
    assert listed["kind"] == "PodList" and [i["metadata"]["name"] for i in listed["items"]] == ["web-1"]
    assert call(handler, "GET", "/api/v1/pods?labelSelector=app%3Ddb").body["items"] == []
    got["metadata"]["labels"]["tier"] = "front"
    updated = call(handler, "PUT", "/api/v1/namespaces/default/pods/web-1", got)
    assert updated.code == 200 and updated.body["metadata"]["labels"]["tier"] == "front"
    patched = call(handler, "PATCH", "/api/v1/namespaces/default/pods/web-1",
                   {"metadata": {"labels": {"tier": None, "v": "2"}}}, ctype="application/merge-patch+json")
    assert patched.body["metadata"]["labels"] == {"app": "web", "v": "2"}
    deleted = call(handler, "DELETE", "/api/v1/namespaces/default/pods/web-1")
    assert deleted.code == 200
    assert call(handler, "GET", "/api/v1/namespaces/default/pods/web-1").code == 404


def test_strategic_merge_patch_cordons_a_node(handler: RestHandler) -> None:
    call(handler, "POST", "/api/v1/nodes", NODE)
    out = call(handler, "PATCH", "/api/v1/nodes/node-1", {"spec": {"unschedulable": True}},
               ctype="application/strategic-merge-patch+json")
    assert out.body["spec"]["unschedulable"] is True
    out = call(handler, "PATCH", "/api/v1/nodes/node-1", {"spec": {"unschedulable": None}},
               ctype="application/strategic-merge-patch+json")
    assert "unschedulable" not in out.body.get("spec", {})


def test_binding_through_the_bindings_resource_and_the_subresource(handler: RestHandler) -> None:
    call(handler, "POST", "/api/v1/nodes", NODE)
    call(handler, "POST", "/api/v1/namespaces/default/pods", POD)
    binding = {"apiVersion": "v1", "kind": "Binding", "metadata": {"name": "web-1"},
               "target": {"kind": "Node", "name": "node-1"}}
    assert call(handler, "POST", "/api/v1/namespaces/default/bindings", binding).code == 201
    pod = call(handler, "GET", "/api/v1/namespaces/default/pods/web-1").body
    assert pod["spec"]["nodeName"] == "node-1"
    again = call(handler, "POST", "/api/v1/namespaces/default/pods/web-1/binding", binding)
    assert (again.code, again.body["reason"]) == (409, "Conflict")
    assert again.body["message"] == 'Operation cannot be fulfilled on pods/binding "web-1": pod web-1 is already assigned to node "node-1"'


@pytest.mark.parametrize(("method", "target", "body", "code", "reason"), [
    ("GET", "/api/v1/namespaces/default/pods/nope", None, 404, "NotFound"),
    ("GET", "/api/v1/frobs", None, 404, "NotFound"),
    ("GET", "/apis/batch/v1/jobs", None, 404, "NotFound"),
    ("GET", "/api/v1/namespaces/default/nodes", None, 404, "NotFound"),
    ("POST", "/api/v1/namespaces/default/pods", "{not json", 400, "BadRequest"),
    ("POST", "/api/v1/namespaces/default/pods", "", 400, "BadRequest"),
    ("POST", "/api/v1/namespaces/default/pods", {"kind": "Node", "metadata": {"name": "x"}}, 400, "BadRequest"),
    ("POST", "/api/v1/namespaces/default/pods", {"kind": "Pod", "metadata": {}}, 422, "Invalid"),
    ("POST", "/api/v1/namespaces/default/pods",
     {"kind": "Pod", "metadata": {"name": "q"}, "spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "12Q"}}}]}},
     400, "BadRequest"),
    # 1.6: DecodeParameters' selector conversion error is not a Status: apiStatus makes it a 500
    ("GET", "/api/v1/pods?labelSelector=a%3D%3D%3Db", None, 500, ""),
    ("GET", "/api/v1/pods?fieldSelector=spec.frob%3Dx", None, 400, "BadRequest"),
    ("DELETE", "/api/v1/namespaces/default/services", None, 405, "MethodNotAllowed"),  # 1.6: no deletecollection
    ("PATCH", "/api/v1/nodes/none", {"spec": {}}, 404, "NotFound"),
])
def test_bad_requests_get_kubernetes_status_errors(handler: RestHandler, method: str, target: str, body: Any,
                                                    code: int, reason: str) -> None:
    out = call(handler, method, target, body, ctype="application/merge-patch+json" if method == "PATCH" else "application/json")
    assert (out.code, out.body["kind"], out.body.get("reason", "")) == (code, "Status", reason)
    assert out.body["message"]


def test_create_twice_is_409_already_exists(handler: RestHandler) -> None:
    call(handler, "POST", "/api/v1/namespaces/default/pods", POD)
    out = call(handler, "POST", "/api/v1/namespaces/default/pods", POD)
    assert (out.code, out.body["reason"], out.body["message"]) == (409, "AlreadyExists", 'pods "web-1" already exists')


def test_stale_update_is_409_conflict(handler: RestHandler) -> None:
    body = call(handler, "POST", "/api/v1/namespaces/default/pods", POD).body
    call(handler, "PATCH", "/api/v1/namespaces/default/pods/web-1", {"metadata": {"labels": {"x": "1"}}},
         ctype="application/merge-patch+json")
    out = call(handler, "PUT", "/api/v1/namespaces/default/pods/web-1", body)
    assert (out.code, out.body["reason"]) == (409, "Conflict")


def test_table_answers_for_kubectl(handler: RestHandler) -> None:
    call(handler, "POST", "/api/v1/nodes", NODE)
    call(handler, "POST", "/api/v1/namespaces/default/pods", POD)
    accept = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json"
    t = call(handler, "GET", "/api/v1/namespaces/default/pods", accept=accept).body
    assert t["kind"] == "Table"
    assert [c["name"] for c in t["columnDefinitions"]][:5] == ["Name", "Ready", "Status", "Restarts", "Age"]
    assert t["rows"][0]["cells"][:3] == ["web-1", "0/1", "Pending"]
    nodes = call(handler, "GET", "/api/v1/nodes", accept=accept).body
    assert nodes["rows"][0]["cells"][:2] == ["node-1", "Ready"]


@pytest.mark.parametrize(("seconds", "text"), [(5, "5s"), (119, "119s"), (125, "2m5s"), (600, "10m"),
                                               (3 * 3600 + 60, "3h1m"), (30 * 3600, "30h"), (3 * 86400, "3d"),
                                               (-0.5, "0s"), (-5, "<invalid>")])
def test_human_duration(seconds: float, text: str) -> None:
    assert human_duration(seconds) == text


def test_watch_is_resolved_not_streamed(handler: RestHandler) -> None:
    answer = handler.handle(RestRequest.from_target("GET", "/api/v1/namespaces/default/pods?watch=1&resourceVersion=3&timeoutSeconds=5"))
    assert isinstance(answer, WatchRequest)
    assert (answer.resource, answer.namespace, answer.resource_version, answer.timeout_seconds) == ("pods", "default", 3, 5.0)


def test_namespaces_are_derived(handler: RestHandler) -> None:
    pod = {**POD, "metadata": {"name": "x", "namespace": "team-a"}}
    call(handler, "POST", "/api/v1/namespaces/team-a/pods", pod)
    names = [i["metadata"]["name"] for i in call(handler, "GET", "/api/v1/namespaces").body["items"]]
    assert names == ["default", "kube-public", "kube-system", "team-a"]
    assert call(handler, "GET", "/api/v1/namespaces/team-b").code == 404
