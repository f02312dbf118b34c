"""The adversarial corpus of the HTTP face, second pass: writes 1.6 refused, encodings, transports.

Each table case goes over real HTTPS to a served simulation (``three-nodes`` at the first bind:
web-1 on node-3, db-0 on node-2) and asserts the exact status code, ``metav1.Status`` reason and
message — 1.6's, checked against the real v1.6.1 kube-apiserver where 1.6 answered (pod and node
updates, bindings, evictions, protobuf and media-type errors, DELETE bodies), kschedlearn's where
1.6 had nothing to say (dryRun, signposts of later groups) — and then that the session is intact:
the recorded history before the request is unchanged and the API server stores exactly what it
stored. The tests after the table cover what a table cannot: plain HTTP and random bytes on the
TLS port, an oversized body, a request the simulation does not take in time, watches without a
resourceVersion or with a negative timeout, a write after the scenario's end, dry runs, the
protobuf encoding end to end, selfLinks, and ``serve`` printing a simulated process's crash.
"""

from __future__ import annotations

import http.client
import json
import socket
import ssl
import time
import urllib.error
import urllib.request
import warnings
from typing import Any

import pytest

from kschedlearn import Simulation
from kschedlearn.apiserver.rest import protobuf
from kschedlearn.apiserver.rest.httpserver import PLAIN_HTTP_ANSWER

NS = "/api/v1/namespaces/default"
PODS = NS + "/pods"
JSON = "application/json"
MERGE = "application/merge-patch+json"
SMP = "application/strategic-merge-patch+json"
JSON_PATCH = "application/json-patch+json"
PB = protobuf.MEDIA_TYPE
FORBIDDEN = ("spec: Forbidden: pod updates may not change fields other than `containers[*].image` or "
             "`spec.activeDeadlineSeconds` or `spec.tolerations` (only additions to existing tolerations)")
UNRECOGNIZED = "the object provided is unrecognized (must be of type Pod): "
PREFIX_TEXT = "provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]"
NOT_FOUND = "the server could not find the requested resource"
DEPLOYMENTS_HINT = (" (in Kubernetes v1.6.1, deployments were served in apps/v1beta1 and extensions/v1beta1; "
                    "kschedlearn does not serve them)")


def _pod(name: str = "extra", **spec: Any) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name},
            "spec": {"containers": [{"name": "c", "image": "nginx"}], **spec}}


def _envelope(api_version: str, kind: str, raw: bytes) -> bytes:
    """A ``k8s\\x00`` + runtime.Unknown body, built by hand (the protobuf module's own encoder aside)."""
    def ld(number: int, payload: bytes) -> bytes:
        return bytes([number << 3 | 2, len(payload)]) + payload
    type_meta = ld(1, api_version.encode()) + ld(2, kind.encode())
    return protobuf.PREFIX + ld(1, type_meta) + ld(2, raw)


def _web1(sim: Simulation, **spec: Any) -> dict[str, Any]:
    """web-1 as stored, its spec changed (a PUT body)."""
    body = sim.world.api.storage.get("pods", ("default", "web-1")).to_dict()
    body["spec"] = {**body["spec"], **spec}
    return body


Body = Any  # str/bytes as sent, a dict as JSON, None, or a function of the simulation
# (id, method, path, body, content type, code, reason, message: exact text or a tuple of fragments)
CASES: list[tuple[str, str, str, Body, str, int, str, Any]] = [
    # -- pod updates 1.6 refused (ValidatePodUpdate), on every write path
    ("PUT moves a bound pod", "PUT", PODS + "/web-1", lambda sim: _web1(sim, nodeName="node-1"), JSON, 422,
     "Invalid", f'Pod "web-1" is invalid: {FORBIDDEN}'),
    ("merge patch of nodeName", "PATCH", PODS + "/web-1", '{"spec": {"nodeName": "node-1"}}', MERGE, 422, "Invalid",
     f'Pod "web-1" is invalid: {FORBIDDEN}'),
    ("strategic patch of nodeName", "PATCH", PODS + "/web-1", '{"spec": {"nodeName": "node-1"}}', SMP, 422,
     "Invalid", f'Pod "web-1" is invalid: {FORBIDDEN}'),
    ("json patch of nodeName", "PATCH", PODS + "/web-1", '[{"op": "replace", "path": "/spec/nodeName", '
     '"value": "node-1"}]', JSON_PATCH, 422, "Invalid", f'Pod "web-1" is invalid: {FORBIDDEN}'),
    ("json patch removing nodeName", "PATCH", PODS + "/web-1", '[{"op": "remove", "path": "/spec/nodeName"}]',
     JSON_PATCH, 422, "Invalid", f'Pod "web-1" is invalid: {FORBIDDEN}'),
    ("json patch adding a container", "PATCH", PODS + "/web-1",
     '[{"op": "add", "path": "/spec/containers/-", "value": {"name": "c2", "image": "x"}}]', JSON_PATCH, 422,
     "Invalid", 'Pod "web-1" is invalid: spec.containers: Forbidden: pod updates may not add or remove containers'),
    ("merge patch of resources", "PATCH", PODS + "/web-1",
     '{"spec": {"containers": [{"name": "web", "image": "nginx", "resources": {"requests": {"cpu": "3"}}}]}}',
     MERGE, 422, "Invalid", f'Pod "web-1" is invalid: {FORBIDDEN}'),
    ("strategic patch of a nodeSelector", "PATCH", PODS + "/web-1", '{"spec": {"nodeSelector": {"disk": "ssd"}}}',
     SMP, 422, "Invalid", f'Pod "web-1" is invalid: {FORBIDDEN}'),
    ("negative activeDeadlineSeconds", "PATCH", PODS + "/web-1", '{"spec": {"activeDeadlineSeconds": -1}}', MERGE,
     422, "Invalid", 'Pod "web-1" is invalid: [spec.activeDeadlineSeconds: Invalid value: -1: must be greater than 0, '
                     "spec.activeDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0]"),
    ("a new uid", "PATCH", PODS + "/web-1", '{"metadata": {"uid": "x"}}', MERGE, 422, "Invalid",
     'Pod "web-1" is invalid: metadata.uid: Invalid value: "x": field is immutable'),
    ("a deletion grace period", "PATCH", PODS + "/web-1", '{"metadata": {"deletionGracePeriodSeconds": 5}}', MERGE,
     422, "Invalid", 'Pod "web-1" is invalid: metadata.deletionGracePeriodSeconds: Invalid value: 5: field is '
                     "immutable; may only be changed via deletion"),
    ("a deletion time", "PATCH", PODS + "/web-1", '{"metadata": {"deletionTimestamp": "2017-04-03T01:00:00Z"}}',
     MERGE, 422, "Invalid", 'Pod "web-1" is invalid: metadata.deletionTimestamp: Invalid value: '
                            '"2017-04-03T01:00:00Z": field is immutable; may only be changed via deletion'),
    ("PUT with a bad label", "PATCH", PODS + "/web-1", '{"metadata": {"labels": {"app": "a b"}}}', SMP, 422,
     "Invalid", ('Pod "web-1" is invalid: metadata.labels: Invalid value: "a b": a valid label must be',)),
    ("PUT of another pod's name", "PUT", PODS + "/web-1", lambda sim: {**_web1(sim), "metadata": {
        **_web1(sim)["metadata"], "name": "db-0"}}, JSON, 400, "BadRequest",
     "the name of the object (db-0) does not match the name on the URL (web-1)"),
    # -- node updates (ValidateNodeUpdate: labels, taints, capacity, unschedulable only)
    ("node externalID", "PATCH", "/api/v1/nodes/node-1", '{"spec": {"externalID": "x"}}', MERGE, 422, "Invalid",
     'Node "node-1" is invalid: []: Forbidden: node updates may only change labels, taints or capacity'),
    ("node providerID", "PATCH", "/api/v1/nodes/node-1", '{"spec": {"providerID": "aws:///x"}}', SMP, 422,
     "Invalid", 'Node "node-1" is invalid: []: Forbidden: node updates may only change labels, taints or capacity'),
    ("node taint effect", "PATCH", "/api/v1/nodes/node-1", '{"spec": {"taints": [{"key": "k", "effect": "Sometimes"}]}}',
     MERGE, 422, "Invalid", 'Node "node-1" is invalid: metadata.taints[0].effect: Unsupported value: "Sometimes": '
                            "supported values: NoSchedule, PreferNoSchedule, NoExecute"),
    ("node status capacity -1", "PATCH", "/api/v1/nodes/node-1/status", '{"status": {"capacity": {"cpu": "-1"}}}',
     MERGE, 422, "Invalid", 'Node "node-1" is invalid: status.capacity[cpu]: Invalid value: "-1": must be greater '
                            "than or equal to 0"),
    # -- bindings (BindingREST: validation errors are plain 500s in 1.6)
    ("binding to a Frob", "POST", NS + "/bindings", {"kind": "Binding", "apiVersion": "v1", "metadata": {"name": "web-1"},
     "target": {"kind": "Frob", "name": "node-1"}}, JSON, 500, "",
     'target.kind: Unsupported value: "Frob": supported values: Node, <empty>'),
    ("binding a bound pod", "POST", NS + "/bindings", {"kind": "Binding", "apiVersion": "v1", "metadata": {"name": "db-0"},
     "target": {"name": "node-1"}}, JSON, 409, "Conflict",
     'Operation cannot be fulfilled on pods/binding "db-0": pod db-0 is already assigned to node "node-2"'),
    ("binding a missing pod", "POST", NS + "/bindings", {"kind": "Binding", "apiVersion": "v1", "metadata": {"name": "nope"},
     "target": {"name": "node-1"}}, JSON, 404, "NotFound", 'pods "nope" not found'),
    ("binding subresource, the body names a missing pod", "POST", PODS + "/web-1/binding",
     {"kind": "Binding", "apiVersion": "v1", "metadata": {"name": "nope"}, "target": {"name": "node-1"}}, JSON, 404,
     "NotFound", 'pods "nope" not found'),
    ("a Pod posted as a binding", "POST", NS + "/bindings", _pod("web-1"), JSON, 400, "BadRequest",
     'Pod in version "v1" cannot be handled as a Binding: a Pod is not a Binding: POST or PUT Binding objects here'),
    # -- evictions (EvictionREST)
    ("eviction of a missing pod", "POST", PODS + "/nope/eviction", {"apiVersion": "policy/v1beta1", "kind": "Eviction",
     "metadata": {"name": "nope"}}, JSON, 404, "NotFound", 'pods "nope" not found'),
    ("eviction without a name", "POST", PODS + "/web-1/eviction", {"apiVersion": "policy/v1beta1", "kind": "Eviction",
     "metadata": {}}, JSON, 400, "BadRequest", "Name parameter required."),
    ("eviction in policy/v1", "POST", PODS + "/web-1/eviction", {"apiVersion": "policy/v1", "kind": "Eviction",
     "metadata": {"name": "web-1"}}, JSON, 400, "BadRequest",
     'Eviction in version "v1" cannot be handled as a Eviction: no kind "Eviction" is registered for version '
     '"policy/v1"'),
    ("eviction of a node", "POST", "/api/v1/nodes/node-1/eviction", {"apiVersion": "policy/v1beta1",
     "kind": "Eviction", "metadata": {"name": "node-1"}}, JSON, 404, "NotFound", NOT_FOUND),
    ("eviction read", "GET", PODS + "/web-1/eviction", None, JSON, 405, "MethodNotAllowed",
     "the server does not allow this method on the requested resource"),
    ("eviction with a bad dryRun", "POST", PODS + "/web-1/eviction?dryRun=Maybe", {"apiVersion": "policy/v1beta1",
     "kind": "Eviction", "metadata": {"name": "web-1"}}, JSON, 400, "BadRequest",
     'dryRun: Unsupported value: "Maybe": supported values: "All"'),
    ("eviction garbage in protobuf", "POST", PODS + "/web-1/eviction", b"k8s\x00\x0a", PB, 400, "BadRequest",
     "the object provided is unrecognized (must be of type Eviction): unexpected EOF (6b3873000a)"),
    # -- dryRun (kschedlearn: 1.6 ignored it and applied the write; only All is taken, nothing else)
    ("create with dryRun=Sometimes", "POST", PODS + "?dryRun=Sometimes", _pod(), JSON, 400, "BadRequest",
     'dryRun: Unsupported value: "Sometimes": supported values: "All"'),
    ("delete with dryRun Later in the body", "DELETE", PODS + "/web-1", {"kind": "DeleteOptions", "apiVersion": "v1",
     "dryRun": ["Later"]}, JSON, 400, "BadRequest", 'dryRun: Unsupported value: "Later": supported values: "All"'),
    ("dry-run create still validated", "POST", PODS + "?dryRun=All", _pod("Bad_Name"), JSON, 422, "Invalid",
     ('Pod "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name"',)),
    ("dry-run patch still validated", "PATCH", PODS + "/web-1?dryRun=All", '{"spec": {"nodeName": "node-1"}}', MERGE,
     422, "Invalid", f'Pod "web-1" is invalid: {FORBIDDEN}'),
    # -- media types and encodings (NegotiateInputSerializer, the protobuf serializer)
    ("text/plain body", "POST", PODS, "{}", "text/plain", 415, "UnsupportedMediaType",
     "the body of the request was in an unknown format - accepted media types include: "
     "application/json;stream=watch, application/vnd.kubernetes.protobuf;stream=watch"),
    ("a malformed Content-Type", "POST", PODS, "{}", "application/", 415, "UnsupportedMediaType",
     ("the body of the request was in an unknown format",)),
    ("JSON sent as protobuf", "POST", PODS, "{}", PB, 400, "BadRequest", UNRECOGNIZED + PREFIX_TEXT + " ({})"),
    ("protobuf, no body", "POST", PODS, b"", PB, 400, "BadRequest", UNRECOGNIZED + "empty data (<empty>)"),
    ("protobuf, the prefix alone", "POST", PODS, b"k8s\x00", PB, 400, "BadRequest",
     UNRECOGNIZED + "empty body (6b387300)"),
    ("protobuf, a cut Unknown", "POST", PODS, b"k8s\x00\x0a\x02\x0a", PB, 400, "BadRequest",
     UNRECOGNIZED + "unexpected EOF (6b3873000a020a)"),
    ("protobuf, TypeMeta as a number", "POST", PODS, b"k8s\x00\x08\x01", PB, 400, "BadRequest",
     UNRECOGNIZED + "proto: wrong wireType = 0 for field TypeMeta (6b3873000801)"),
    ("protobuf, tag 0", "POST", PODS, b"k8s\x00\x00", PB, 400, "BadRequest",
     UNRECOGNIZED + "proto: Unknown: illegal tag 0 (wire type 0) (6b38730000)"),
    ("protobuf, an unknown kind", "POST", PODS, _envelope("v1", "Frob", b""), PB, 400, "BadRequest",
     'Frob in version "v1" cannot be handled as a Pod: no kind "Frob" is registered for version "v1"'),
    ("protobuf, a Node posted to pods", "POST", PODS, _envelope("v1", "Node", b"\x0a\x03\x0a\x01n"), PB, 400,
     "BadRequest", 'Node in version "v1" cannot be handled as a Pod: a Node is not a Pod: POST or PUT Pod objects here'),
    ("protobuf, a cut Pod", "POST", PODS, _envelope("v1", "Pod", b"\x0a\x09\x0a\x01"), PB, 400, "BadRequest",
     'Pod in version "v1" cannot be handled as a Pod: unexpected EOF'),
    ("protobuf, a Pod's name as a number", "POST", PODS, _envelope("v1", "Pod", b"\x0a\x02\x08\x01"), PB, 400,
     "BadRequest", 'Pod in version "v1" cannot be handled as a Pod: proto: wrong wireType = 0 for field Name'),
    ("YAML that is not YAML", "POST", PODS, "kind: [Pod", "application/yaml", 400, "BadRequest",
     ("error converting YAML to JSON: invalid YAML",)),
    ("server-side apply (no such patch in 1.6)", "PATCH", PODS + "/web-1", "kind: Pod", "application/apply-patch+yaml",
     415, "", "the server responded with the status code 415 but did not return more information"),
    # -- DELETE bodies (decode errors are plain errors in 1.6's DeleteResource: 500)
    ("DELETE with a broken body", "DELETE", PODS + "/web-1", "{bad", JSON, 500, "",
     "couldn't get version/kind; json parse error: invalid character 'b' looking for beginning of object key string"),
    ("DELETE with a Pod as options", "DELETE", PODS + "/web-1", _pod("web-1"), JSON, 500, "",
     'no kind "Pod" is registered for version "v1"'),
    ("DELETE with protobuf garbage", "DELETE", PODS + "/web-1", b"\x01\x02", PB, 500, "", PREFIX_TEXT),
    # -- paths and verbs
    ("POST to an object", "POST", PODS + "/web-1", _pod("web-1"), JSON, 405, "MethodNotAllowed",
     "the server does not allow this method on the requested resource"),
    ("PUT to a collection", "PUT", PODS, _pod(), JSON, 405, "MethodNotAllowed",
     "the server does not allow this method on the requested resource"),
    ("a pod's log (no kubelet)", "GET", PODS + "/web-1/log", None, JSON, 404, "NotFound", NOT_FOUND),
    ("an apps/v1 Deployment", "POST", "/apis/apps/v1/namespaces/default/deployments", {"apiVersion": "apps/v1",
     "kind": "Deployment", "metadata": {"name": "d"}}, JSON, 404, "NotFound", NOT_FOUND + DEPLOYMENTS_HINT),
    ("apps/v1 DaemonSets", "GET", "/apis/apps/v1/namespaces/default/daemonsets", None, JSON, 404, "NotFound",
     NOT_FOUND + " (in Kubernetes v1.6.1, daemonsets were served in extensions/v1beta1; kschedlearn does not serve "
                 "them)"),
    ("apps/v1 StatefulSets", "GET", "/apis/apps/v1/statefulsets", None, JSON, 404, "NotFound",
     NOT_FOUND + " (kschedlearn serves the Kubernetes v1.6.1 API: use apiVersion apps/v1beta1 for statefulsets)"),
    ("batch/v2alpha1 CronJobs", "GET", "/apis/batch/v2alpha1/namespaces/default/cronjobs", None, JSON, 404,
     "NotFound", NOT_FOUND + " (in Kubernetes v1.6.1, cronjobs were served in batch/v2alpha1; kschedlearn does not "
                             "serve them)"),
    ("an openapi document of 1.6's batch/v2alpha1", "GET", "/openapi/v3/apis/batch/v2alpha1", None, JSON, 404,
     "NotFound", NOT_FOUND + " (kschedlearn does not serve batch/v2alpha1 (Kubernetes v1.6.1 served cronjobs, jobs "
                             "there))"),
    ("a made-up group", "GET", "/apis/frob.example.com/v1/things", None, JSON, 404, "NotFound", NOT_FOUND),
    ("api/v2", "GET", "/api/v2/pods", None, JSON, 404, "NotFound", NOT_FOUND),
    ("a named watch with a field selector", "GET", "/api/v1/watch/namespaces/default/pods/web-1?fieldSelector="
     "spec.nodeName%3D", None, JSON, 400, "BadRequest",
     "both a name and a field selector provided; please provide one or the other."),
    ("a label selector that does not parse", "GET", PODS + "?labelSelector=app%20in%20(web", None, JSON, 500, "",
     "unable to parse requirement: found '', expected: ',' or ')' (labelSelector \"app in (web\")"),
    ("a field selector operator", "GET", PODS + "?fieldSelector=spec.nodeName~x", None, JSON, 500, "",
     "invalid selector: 'spec.nodeName~x'; can't understand 'spec.nodeName~x'"),
    ("a namespace deleted", "DELETE", "/api/v1/namespaces/default", None, JSON, 405, "MethodNotAllowed",
     "the server does not allow this method on the requested resource"),
]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Any:
    sim = Simulation.from_scenario("three-nodes", seed=1)
    sim.run_until("apiserver.bind")
    serving = sim.serve(kubeconfig=tmp_path_factory.mktemp("kube") / "kubeconfig")
    yield sim, serving
    serving.stop()


def _send(serving: Any, method: str, path: str, body: Body, ctype: str, headers: dict[str, str] | None = None,
          raw: bool = False) -> tuple[int, Any]:
    data = body if isinstance(body, (str, bytes)) else (json.dumps(body) if body is not None else None)
    if isinstance(data, str):
        data = data.encode("utf-8")
    req = urllib.request.Request(serving.url + path, data=data, method=method)
    req.add_header("Authorization", f"Bearer {serving.token}")
    req.add_header("Content-Type", ctype)
    for k, v in (headers or {}).items():
        req.add_header(k, v)

    def go() -> tuple[int, Any]:
        try:
            with urllib.request.urlopen(req, context=serving.client_ssl_context(), timeout=30) as resp:
                status, payload, kind = resp.status, resp.read(), resp.headers.get("Content-Type", "")
        except urllib.error.HTTPError as err:
            status, payload, kind = err.code, err.read(), err.headers.get("Content-Type", "")
        if raw:
            return status, (kind, payload)
        return status, json.loads(payload or b"{}")

    return serving.call(go)


def _state(sim: Simulation) -> str:
    storage = sim.world.api.storage
    return json.dumps({"rv": storage.resource_version, "objects": {r: [o.to_dict() for o in storage.items(r)]
                                                                     for r in sorted(storage.objects)}},
                      sort_keys=True)


def _events(sim: Simulation) -> list[tuple[int, str, str]]:
    return [(e.seq, e.stage, e.message) for e in sim.trace]


@pytest.mark.parametrize(("method", "path", "body", "ctype", "code", "reason", "message"),
                         [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_http_case(served: Any, method: str, path: str, body: Body, ctype: str, code: int, reason: str,
                   message: Any) -> None:
    sim, serving = served
    if callable(body):
        body = body(sim)
    before_events, before_state = _events(sim), _state(sim)
    got_code, got = _send(serving, method, path, body, ctype)
    assert (got_code, got.get("kind"), got.get("code"), got.get("reason", "")) == (code, "Status", code, reason), got
    text = got["message"]
    if isinstance(message, tuple):
        for fragment in message:
            assert fragment in text, f"{fragment!r} not in {text!r}"
    else:
        assert text == message
    assert "Traceback" not in text
    assert _events(sim)[: len(before_events)] == before_events
    assert _state(sim) == before_state


def test_the_corpus_counts() -> None:
    assert len(CASES) >= 60


# -- the transport ------------------------------------------------------------------------------

def _raw(serving: Any, data: bytes, *, tls: bool) -> bytes:
    def go() -> bytes:
        sock = socket.create_connection(("127.0.0.1", serving.port), timeout=10)
        if tls:
            sock = serving.client_ssl_context().wrap_socket(sock, server_hostname="127.0.0.1")
        try:
            sock.sendall(data)
            if not tls:
                try:
                    sock.shutdown(socket.SHUT_WR)  # all sent: the server sees the end of what it waits for
                except OSError:
                    pass  # it has answered and closed already
            chunks = []
            while True:
                try:
                    chunk = sock.recv(65536)
                except (ssl.SSLError, ConnectionError):
                    break
                if not chunk:
                    break
                chunks.append(chunk)
            return b"".join(chunks)
        finally:
            sock.close()

    return serving.call(go)


def test_plain_http_and_random_bytes_on_the_tls_port(served: Any, capfd: pytest.CaptureFixture[str]) -> None:
    sim, serving = served
    before = _state(sim)
    for request in (b"GET /api/v1/pods HTTP/1.1\r\nHost: x\r\n\r\n", b"POST /api/v1/namespaces/default/pods HTTP/1.1\r\n"
                    b"Content-Length: 2\r\n\r\n{}", b"PUT /x HTTP/1.0\r\n\r\n", b"HEAD / HTTP/1.0\r\n\r\n",
                    b"OPTIONS * HTTP/1.1\r\n\r\n"):
        assert _raw(serving, request, tls=False) == PLAIN_HTTP_ANSWER  # Go's text, byte for byte
    # anything else that is not TLS gets the same words (Go would send a TLS alert; see the module)
    for junk in (b"\x00" * 64, bytes(range(256)), b"DELETE /x HTTP/1.1\r\n\r\n", b"\xff\xfe\xfd\xfc\xfb\xfa"):
        assert _raw(serving, junk, tls=False) == PLAIN_HTTP_ANSWER
    # a TLS handshake record that is not a handshake: at most a TLS alert, then the connection closes
    assert b"HTTP" not in _raw(serving, b"\x16\x03\x01\x00\x05hello", tls=False)
    assert _raw(serving, b"x", tls=False) == b""  # fewer than 5 bytes, then the end: closed
    # a TLS client speaking nonsense inside TLS: Go's bare 400 text, connection closed
    assert _raw(serving, b"\x00\x01garbage\r\n\r\n", tls=True) == (
        b"HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n"
        b"400 Bad Request")
    code, listed = _send(serving, "GET", PODS, None, JSON)  # the server still answers
    assert code == 200 and {p["metadata"]["name"] for p in listed["items"]} == {"db-0", "web-1"}
    assert _state(sim) == before
    out, err = capfd.readouterr()
    assert "Traceback" not in out + err


def test_an_oversized_body_gets_a_readable_413(served: Any) -> None:
    sim, serving = served
    before = _state(sim)
    body = b'{"kind": "Pod", "apiVersion": "v1", "metadata": {"name": "big"}, "x": "' + b"a" * (50 << 20) + b'"}'
    code, got = _send(serving, "POST", PODS, body, JSON)
    assert (code, got["reason"], got["message"]) == (
        413, "RequestEntityTooLarge", "Request entity too large: limit is 16777216 (kschedlearn's limit; the request "
                                      "was not read)")
    # the same through chunked transfer encoding
    def chunked() -> tuple[int, dict[str, Any]]:
        conn = http.client.HTTPSConnection("127.0.0.1", serving.port, context=serving.client_ssl_context(), timeout=60)
        try:
            conn.putrequest("POST", PODS)
            conn.putheader("Authorization", f"Bearer {serving.token}")
            conn.putheader("Transfer-Encoding", "chunked")
            conn.endheaders()
            for _ in range(20):
                piece = b"a" * (1 << 20)
                conn.send(b"%x\r\n%s\r\n" % (len(piece), piece))
            conn.send(b"0\r\n\r\n")
            resp = conn.getresponse()
            return resp.status, json.loads(resp.read())
        finally:
            conn.close()

    code, got = serving.call(chunked)
    assert (code, got["reason"]) == (413, "RequestEntityTooLarge")
    assert _state(sim) == before


def test_a_chunked_body_is_read(served: Any) -> None:
    sim, serving = served
    body = json.dumps(_pod("Bad_Name")).encode()

    def chunked() -> tuple[int, dict[str, Any]]:
        conn = http.client.HTTPSConnection("127.0.0.1", serving.port, context=serving.client_ssl_context(), timeout=30)
        try:
            conn.request("POST", PODS, body=iter([body[:10], body[10:]]),
                         headers={"Authorization": f"Bearer {serving.token}", "Content-Type": JSON})
            resp = conn.getresponse()
            return resp.status, json.loads(resp.read())
        finally:
            conn.close()

    code, got = serving.call(chunked)
    assert (code, got["reason"]) == (422, "Invalid") and got["message"].startswith('Pod "Bad_Name" is invalid')


def test_a_request_the_simulation_does_not_take_in_time_is_withdrawn(served: Any) -> None:
    """1.6's 504 Timeout text; kschedlearn withdraws the request, so it is never applied later."""
    sim, serving = served
    before_events, before = _events(sim), _state(sim)
    serving.server.answer_timeout = 0.3
    try:
        box: dict[str, Any] = {}

        def create() -> None:
            box["answer"] = _send_direct(serving, "POST", PODS, json.dumps(_pod("late")).encode())

        import threading
        thread = threading.Thread(target=create)
        thread.start()
        thread.join(10)  # nobody pumps meanwhile: the simulation "is busy"
        code, got = box["answer"]
        assert (code, got["reason"]) == (504, "Timeout")
        assert got["message"] == ("Timeout: request did not complete within allowed duration (kschedlearn: the "
                                  "simulation did not take the request within 0.3 s, so it was not applied: step the "
                                  "simulation, or call sim.serve_pending())")
        assert serving.pump() == 0  # the withdrawn request is dropped, not applied
    finally:
        serving.server.answer_timeout = 60.0
    assert _events(sim) == before_events and _state(sim) == before
    assert sim.world.api.storage.get("pods", ("default", "late")) is None


def _send_direct(serving: Any, method: str, path: str, body: bytes) -> tuple[int, dict[str, Any]]:
    """A request from this thread, without pumping (the caller decides who answers it)."""
    conn = http.client.HTTPSConnection("127.0.0.1", serving.port, context=serving.client_ssl_context(), timeout=30)
    try:
        conn.request(method, path, body=body, headers={"Authorization": f"Bearer {serving.token}", "Content-Type": JSON})
        resp = conn.getresponse()
        return resp.status, json.loads(resp.read())
    finally:
        conn.close()


# -- watches ------------------------------------------------------------------------------------

def test_a_watch_with_a_negative_timeout_ends_at_once_empty(served: Any) -> None:
    _, serving = served
    start = time.monotonic()
    code, (kind, payload) = _send(serving, "GET", PODS + "?watch=1&timeoutSeconds=-1", None, JSON, raw=True)
    assert (code, kind, payload) == (200, JSON, b"")  # 1.6: the watch's timer fires at once (checked on v1.6.1)
    assert time.monotonic() - start < 5


def test_a_watch_without_a_resource_version_starts_with_every_object(served: Any) -> None:
    _, serving = served
    code, (kind, payload) = _send(serving, "GET", PODS + "?watch=1&timeoutSeconds=1", None, JSON, raw=True)
    events = [json.loads(line) for line in payload.splitlines()]
    assert code == 200 and kind == JSON
    assert [(e["type"], e["object"]["metadata"]["name"]) for e in events] == [("ADDED", "db-0"), ("ADDED", "web-1")]
    assert events[0]["object"]["metadata"]["selfLink"] == "/api/v1/namespaces/default/pods/db-0"
    # the same in protobuf, framed as 1.6 frames it, for a client that asks for it
    code, (kind, payload) = _send(serving, "GET", "/api/v1/nodes?watch=1&timeoutSeconds=1", None, JSON, raw=True,
                                  headers={"Accept": f"{PB}, */*"})
    frames = list(protobuf.read_watch_frames(payload))
    assert (code, kind) == (200, protobuf.WATCH_MEDIA_TYPE)
    assert [(t, o["metadata"]["name"], o["metadata"]["selfLink"]) for t, o in frames] == [
        ("ADDED", f"node-{i}", f"/api/v1/nodesnode-{i}") for i in (1, 2, 3)]


# -- answers as 1.6 gave them ---------------------------------------------------------------------

def test_406_for_a_type_nobody_serves(served: Any) -> None:
    _, serving = served
    code, got = _send(serving, "GET", PODS + "/web-1", None, JSON, headers={"Accept": "text/html"})
    # 1.6 writes this Status as raw JSON, without kind and apiVersion (checked on v1.6.1)
    assert (code, got) == (406, {"metadata": {}, "status": "Failure", "reason": "NotAcceptable", "code": 406,
                                 "message": "only the following media types are accepted: application/json, "
                                            "application/yaml, application/vnd.kubernetes.protobuf"})


def test_self_links_as_1_6_formed_them(served: Any) -> None:
    _, serving = served
    _, pods = _send(serving, "GET", PODS, None, JSON)
    assert pods["metadata"]["selfLink"] == PODS
    assert [p["metadata"]["selfLink"] for p in pods["items"]] == [PODS + "/db-0", PODS + "/web-1"]
    _, everywhere = _send(serving, "GET", "/api/v1/pods", None, JSON)
    assert everywhere["metadata"]["selfLink"] == "/api/v1/pods" and everywhere["items"][0]["metadata"]["selfLink"] == PODS + "/db-0"
    _, node = _send(serving, "GET", "/api/v1/nodes/node-1", None, JSON)
    assert node["metadata"]["selfLink"] == "/api/v1/nodesnode-1"  # path.Join drops the slash (v1.6.1, checked)
    _, status = _send(serving, "GET", "/api/v1/nodes/node-1/status", None, JSON)
    assert status["metadata"]["selfLink"] == "/api/v1/nodes/{name}/statusnode-1/status"  # (v1.6.1, checked)
    _, pod_status = _send(serving, "GET", PODS + "/web-1/status", None, JSON)
    assert pod_status["metadata"]["selfLink"] == PODS + "/web-1/status"
    _, ns = _send(serving, "GET", "/api/v1/namespaces", None, JSON)
    assert ns["metadata"]["selfLink"] == "/api/v1/namespaces"
    assert ns["items"][0]["metadata"]["selfLink"] == "/api/v1/namespacesdefault"
    _, rs = _send(serving, "GET", "/apis/extensions/v1beta1/replicasets", None, JSON)
    assert rs["metadata"]["selfLink"] == "/apis/extensions/v1beta1/replicasets"


def test_a_status_update_cannot_move_a_pod(served: Any) -> None:
    """1.6's status strategy keeps the stored spec: the nodeName in the body is ignored (200)."""
    sim, serving = served
    before = _state(sim)
    code, got = _send(serving, "PUT", PODS + "/web-1/status", _web1(sim, nodeName="node-1"), JSON)
    assert code == 200 and got["spec"]["nodeName"] == "node-3" and got["metadata"]["selfLink"].endswith("/status")
    assert _state(sim) == before


def test_dry_runs_answer_without_storing_or_recording(served: Any) -> None:
    sim, serving = served
    before_events, before = _events(sim), _state(sim)
    code, got = _send(serving, "POST", PODS + "?dryRun=All", _pod("dry"), JSON)
    assert code == 201 and got["metadata"]["name"] == "dry" and got["spec"]["schedulerName"] == "default-scheduler"
    code, got = _send(serving, "PATCH", PODS + "/web-1?dryRun=All", '{"metadata": {"labels": {"x": "y"}}}', MERGE)
    assert code == 200 and got["metadata"]["labels"]["x"] == "y"
    code, got = _send(serving, "DELETE", PODS + "/web-1", {"kind": "DeleteOptions", "apiVersion": "v1",
                                                           "dryRun": ["All"]}, JSON)
    assert code == 200 and got["metadata"]["deletionGracePeriodSeconds"] == 30
    code, got = _send(serving, "POST", PODS + "/web-1/eviction", {"apiVersion": "policy/v1beta1", "kind": "Eviction",
                      "metadata": {"name": "web-1"}, "deleteOptions": {"dryRun": ["All"]}}, JSON)
    assert (code, got["status"]) == (201, "Success")
    code, got = _send(serving, "DELETE", "/api/v1/nodes/node-1?dryRun=All", None, JSON)
    assert (code, got["status"], got["code"]) == (200, "Success", 200)
    # a protobuf Eviction (policy/v1beta1) whose DeleteOptions ask for a dry run (field 5, 1.13's)
    eviction = protobuf.encode_object({"apiVersion": "policy/v1beta1", "kind": "Eviction",
                                       "metadata": {"name": "web-1", "namespace": "default"},
                                       "deleteOptions": {"gracePeriodSeconds": 0, "dryRun": ["All"]}})
    code, got = _send(serving, "POST", PODS + "/web-1/eviction", eviction, PB)
    assert (code, got["status"], got["code"]) == (201, "Success", 201)
    assert _events(sim) == before_events and _state(sim) == before


def test_a_created_pods_status_is_1_6s_pending(served: Any) -> None:
    """podStrategy.PrepareForCreate: whatever status a client sends, a new pod is Pending."""
    sim, serving = served
    body = {**_pod("claims-running"), "status": {"phase": "Running", "podIP": "10.0.0.9",
                                                 "conditions": [{"type": "Ready", "status": "True"}]}}
    code, got = _send(serving, "POST", PODS + "?dryRun=All", body, JSON)
    assert code == 201 and got["status"] == {"phase": "Pending"}


def test_protobuf_create_and_answer(served: Any) -> None:
    """A pod created in protobuf is answered in protobuf (with its selfLink); a delete in protobuf."""
    sim, serving = served
    body = protobuf.encode_object(_pod("pb-1"))
    code, (kind, payload) = _send(serving, "POST", PODS, body, PB, raw=True, headers={"Accept": f"{PB}, */*"})
    assert (code, kind) == (201, PB)
    envelope = protobuf.decode_envelope(payload)
    created = protobuf.decode_object("v1.Pod", envelope)
    assert (envelope.api_version, envelope.kind) == ("v1", "Pod")
    assert created["metadata"]["selfLink"] == PODS + "/pb-1" and created["status"]["phase"] == "Pending"
    options = protobuf.encode_object({"apiVersion": "v1", "kind": "DeleteOptions", "gracePeriodSeconds": 0})
    code, (kind, payload) = _send(serving, "DELETE", PODS + "/pb-1", options, PB, raw=True,
                                  headers={"Accept": f"{PB}, */*"})
    assert (code, kind) == (200, PB)
    assert sim.world.api.storage.get("pods", ("default", "pb-1")) is None


# -- the end of a scenario, and serve's crash report ----------------------------------------------

def test_a_write_after_the_end_of_the_scenario_is_refused(tmp_path: Any) -> None:
    sim = Simulation.from_scenario("three-nodes", seed=1, snapshots=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sim.run_for(30)
    assert sim.finished
    serving = sim.serve(kubeconfig=tmp_path / "kubeconfig")
    try:
        before_events, before = _events(sim), _state(sim)
        code, got = _send(serving, "POST", PODS, _pod("late"), JSON)
        last = sim.trace[-1]
        assert (code, got["reason"]) == (503, "ServiceUnavailable")
        assert got["message"] == (f"kschedlearn: the scenario 'three-nodes' has ended at t={last.time:g}s (event "
                                  f"{last.seq}); nothing runs any more, so this write was not applied (a pod created "
                                  "now would never be scheduled): go back with sim.back() or sim.goto(n) to change "
                                  "the past, or serve a scenario that runs on (kschedlearn serve)")
        assert _send(serving, "GET", PODS + "/web-1", None, JSON)[0] == 200  # reads still work
        assert _send(serving, "POST", PODS + "?dryRun=All", _pod("dry"), JSON)[0] == 201  # so do dry runs
        assert _events(sim) == before_events and _state(sim) == before
    finally:
        serving.stop()


def test_serve_prints_a_crash() -> None:
    """``kschedlearn serve``'s loop reports every simulated process that crashed (report_crashes)."""
    import io

    from kschedlearn.serve_cli import report_crashes

    sim = Simulation.from_scenario("bad-policy", seed=0, snapshots=False)
    out = io.StringIO()
    seen = report_crashes(sim, 0, out)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sim.run_for(1)
    seen = report_crashes(sim, seen, out)
    assert out.getvalue() == ("crash: scheduler-0 crashed at event 16 (t=0s, during CreateFromConfig): FatalError: "
                              "Invalid configuration: Predicate type not found for PodFitsResourcez\n")
    assert report_crashes(sim, seen, out) == seen and out.getvalue().count("crash:") == 1  # each once


def test_the_session_still_steps(served: Any) -> None:
    sim, serving = served
    code, listed = _send(serving, "GET", PODS, None, JSON)
    assert code == 200 and "web-1" in [p["metadata"]["name"] for p in listed["items"]]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cursor = sim.cursor
        assert sim.step() is not None or sim.finished
        assert sim.cursor >= cursor
    assert sim.crashes == ()

