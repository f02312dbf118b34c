"""The controllers' kinds on the HTTP face, in the shape the rest of it answers: protobuf bodies,
selfLinks, dry runs, 1.6's answer to a delete.

Go: none — kschedlearn-only (kschedlearn/apiserver/rest/workloads.py). kubectl 1.32's typed
``create deployment`` sends an ``apps/v1`` Deployment in protobuf; the protobuf rows map it onto
1.6's messages (every field both know keeps its number).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from kschedlearn.apiserver import APIServer
from kschedlearn.apiserver.rest import RestHandler, RestRequest, Response, protobuf
from kschedlearn.sim import Runtime

DEPLOYMENTS = "/apis/apps/v1/namespaces/default/deployments"
DEPLOYMENT = {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
              "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "web"}},
                       "template": {"metadata": {"labels": {"app": "web"}},
                                    "spec": {"containers": [{"name": "c", "image": "nginx"}]}}}}


@pytest.fixture
def handler() -> RestHandler:
    return RestHandler(APIServer(Runtime(seed=0)))


def send(h: RestHandler, method: str, target: str, body: bytes | str = b"", *, ctype: str = "application/json",
         accept: str = "") -> Response:
    answer = h.handle(RestRequest.from_target(method, target, body=body, content_type=ctype, accept=accept))
    assert isinstance(answer, Response)
    return answer


def _decoded(answer: Response) -> dict[str, Any]:
    """The answer as the client reads it off the wire (protobuf or JSON)."""
    wire = answer.encode()
    if answer.content_type == protobuf.MEDIA_TYPE:
        envelope = protobuf.decode_envelope(wire)
        return protobuf.decode_object(protobuf.message_for(envelope.api_version, envelope.kind), envelope)
    return json.loads(wire)


def test_an_apps_v1_deployment_in_protobuf_is_created_and_answered_in_protobuf(handler: RestHandler) -> None:
    body = protobuf.encode_object(DEPLOYMENT)
    answer = send(handler, "POST", DEPLOYMENTS, body, ctype=protobuf.MEDIA_TYPE, accept=protobuf.MEDIA_TYPE)
    assert answer.code == 201 and answer.content_type == protobuf.MEDIA_TYPE
    got = _decoded(answer)
    assert (got["apiVersion"], got["kind"], got["metadata"]["name"]) == ("apps/v1", "Deployment", "web")
    assert got["metadata"]["selfLink"] == DEPLOYMENTS + "/web"
    # decoded as apps/v1beta1, so apps' defaults: 25% surge and unavailable
    assert got["spec"]["strategy"]["rollingUpdate"] == {"maxUnavailable": "25%", "maxSurge": "25%"}
    stored = handler.api.storage.get("deployments", ("default", "web"))
    assert type(stored).api_version == "extensions/v1beta1" and stored.spec.replicas == 2


def test_a_protobuf_body_of_another_kind_is_refused(handler: RestHandler) -> None:
    body = protobuf.encode_object({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}})
    answer = send(handler, "POST", DEPLOYMENTS, body, ctype=protobuf.MEDIA_TYPE)
    assert answer.code == 400
    assert answer.body["message"] == ('Pod in version "v1" cannot be handled as a Deployment: a Pod is not a '
                                      "Deployment: POST or PUT Deployment objects here")
    wrong_version = protobuf.encode_object({**DEPLOYMENT, "apiVersion": "apps/v1beta1"})
    answer = send(handler, "POST", DEPLOYMENTS, wrong_version, ctype=protobuf.MEDIA_TYPE)
    assert (answer.code, answer.body["message"]) == (400, "the API version in the data (apps/v1beta1) does not match "
                                                          "the expected API version (apps/v1)")


def test_dry_run_checks_and_stores_nothing(handler: RestHandler) -> None:
    answer = send(handler, "POST", DEPLOYMENTS + "?dryRun=All", json.dumps(DEPLOYMENT))
    assert answer.code == 201 and answer.body["metadata"]["name"] == "web"
    assert handler.api.storage.get("deployments", ("default", "web")) is None
    bad = {**DEPLOYMENT, "spec": {**DEPLOYMENT["spec"], "replicas": -1}}
    refused = send(handler, "POST", DEPLOYMENTS + "?dryRun=All", json.dumps(bad))
    assert refused.code == 422 and refused.body["message"].startswith('Deployment.apps "web" is invalid: ')
    assert send(handler, "POST", DEPLOYMENTS + "?dryRun=Some", json.dumps(DEPLOYMENT)).code == 400


def test_lists_scale_and_delete_answer_as_1_6(handler: RestHandler) -> None:
    assert send(handler, "POST", DEPLOYMENTS, json.dumps(DEPLOYMENT)).code == 201
    listed = send(handler, "GET", "/apis/extensions/v1beta1/namespaces/default/deployments").body
    assert listed["metadata"]["selfLink"] == "/apis/extensions/v1beta1/namespaces/default/deployments"
    assert listed["items"][0]["metadata"]["selfLink"] == "/apis/extensions/v1beta1/namespaces/default/deployments/web"
    scale = send(handler, "GET", DEPLOYMENTS + "/web/scale").body
    assert (scale["apiVersion"], scale["spec"]["replicas"]) == ("autoscaling/v1", 2)
    assert scale["metadata"]["selfLink"] == DEPLOYMENTS + "/web/scale"
    deleted = send(handler, "DELETE", DEPLOYMENTS + "/web")
    assert (deleted.code, deleted.body["kind"], deleted.body["status"]) == (200, "Status", "Success")
    assert handler.api.storage.get("deployments", ("default", "web")) is None


def test_with_a_garbage_collector_a_delete_answers_the_object_its_finalizer_keeps(handler: RestHandler) -> None:
    """1.6's Store.Delete returns the object while a finalizer keeps it (a Deployment orphans by default)."""
    handler.api.enable_garbage_collection = True
    assert send(handler, "POST", DEPLOYMENTS, json.dumps(DEPLOYMENT)).code == 201
    kept = send(handler, "DELETE", DEPLOYMENTS + "/web")
    assert kept.code == 200 and kept.body["kind"] == "Deployment" and kept.body["metadata"]["finalizers"] == ["orphan"]
    gone = send(handler, "DELETE", "/api/v1/namespaces/default/replicationcontrollers/none")
    assert gone.code == 404
