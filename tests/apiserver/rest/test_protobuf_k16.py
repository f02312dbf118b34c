"""The real 1.6 kube-scheduler's protobuf traffic, recorded, decoded and answered again.

Go: none — kschedlearn-only. The data (``data/k16-scheduler/``, its README says how it was
captured) is what the real 1.6 kube-scheduler sent with its default content type
(``application/vnd.kubernetes.protobuf``) to ``kschedlearn serve`` and to the real v1.6.1
kube-apiserver, and what each answered. The tests check that

- every request body decodes (through the same path the HTTP face uses) and round-trips:
  recorded bytes -> object -> kschedlearn's encoding -> the same object;
- every answer the real apiserver encoded (lists, single objects, Status, watch frames) decodes
  with kschedlearn's schema tables, and re-encodes to the same content;
- the scheduler's requests, replayed in order against a fresh ``three-nodes`` world without its
  simulated scheduler, are answered with the codes the recording shows, in protobuf, and leave
  the pods bound where the real scheduler bound them and its events stored.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import attrs
import pytest

from kschedlearn import Simulation
from kschedlearn.api.v1 import KINDS
from kschedlearn.apiserver.rest import RestHandler, RestRequest, Response, protobuf
from kschedlearn.apiserver.rest.decode import decode_body
from kschedlearn.apiserver.rest.handler import parse_route
from kschedlearn.apiserver.rest.types import WatchRequest
from kschedlearn.apiserver.registry import RESOURCES

DATA = Path(__file__).parent / "data" / "k16-scheduler"
RUNS = ("kschedlearn", "kube-apiserver")


def _entries(run: str) -> list[dict[str, Any]]:
    lines = (DATA / run / "index.jsonl").read_text(encoding="utf-8").splitlines()
    return sorted((json.loads(line) for line in lines), key=lambda e: e["seq"])


def _body(run: str, entry: dict[str, Any], which: str) -> bytes:
    return (DATA / run / entry[which]).read_bytes() if which in entry else b""


def _request(run: str, entry: dict[str, Any]) -> RestRequest:
    return RestRequest.from_target(entry["method"], entry["target"], body=_body(run, entry, "request_body"),
                                   content_type=entry["content_type"], accept=entry["accept"])


def _route_kind(req: RestRequest) -> tuple[str, str]:
    route = parse_route(req.path)
    assert route is not None
    if route.resource == "bindings":
        return "Binding", route.group_version
    return RESOURCES[route.resource].kind, route.group_version


def _without_empty(value: Any) -> Any:
    """A JSON value without Go's zero values (protobuf carries them; kschedlearn's model drops them)."""
    if isinstance(value, dict):
        out = {k: _without_empty(v) for k, v in value.items()}
        return {k: v for k, v in out.items() if v not in ("", 0, False, None, {}, [])}
    if isinstance(value, list):
        return [_without_empty(v) for v in value]
    return value


@pytest.mark.parametrize("run", RUNS)
def test_the_scheduler_log_of_each_run(run: str) -> None:
    """What the binary logged (``kube-scheduler.log``, --v=4): the same steps against both servers,
    and no event dropped for a missing selfLink (it was, before kschedlearn set selfLinks)."""
    log = (DATA / run / "kube-scheduler.log").read_text(encoding="utf-8")
    for line in ("successfully acquired lease kube-system/kube-scheduler", "Attempting to bind web-1 to node-3",
                 "Attempting to bind real-1 to node-1",
                 "Updating pod condition for default/too-big to (PodScheduled==False)",
                 "reason: 'Scheduled' Successfully assigned real-1 to node-1"):
        assert line in log, line
    assert "selfLink was empty" not in log and "Will not report event" not in log
    assert "invalid character" not in log and "Failed to" not in log.replace("Failed to schedule pod", "")


PROTOBUF_WRITES = [(run, e["seq"]) for run in RUNS for e in _entries(run)
                   if e.get("request_body") and e["content_type"] == protobuf.MEDIA_TYPE]


def test_the_recordings_are_what_the_readme_says() -> None:
    for run in RUNS:
        entries = _entries(run)
        assert all(e["accept"] == "application/vnd.kubernetes.protobuf, */*" for e in entries)
        assert all(e["user_agent"].startswith("kube-scheduler/v1.6.0") for e in entries)
        writes = {(e["method"], parse_route(e["target"].split("?")[0]).resource) for e in entries  # type: ignore[union-attr]
                  if e["method"] != "GET"}
        assert writes == {("POST", "endpoints"), ("PUT", "endpoints"), ("POST", "bindings"), ("POST", "events"),
                          ("PUT", "pods"), ("PATCH", "events")}, run
    assert len(PROTOBUF_WRITES) >= 30


@pytest.mark.parametrize(("run", "seq"), PROTOBUF_WRITES, ids=[f"{r}-{s:04d}" for r, s in PROTOBUF_WRITES])
def test_each_request_body_decodes_and_round_trips(run: str, seq: int) -> None:
    entry = next(e for e in _entries(run) if e["seq"] == seq)
    req = _request(run, entry)
    kind, gv = _route_kind(req)
    obj = decode_body(req, kind, gv)  # the HTTP face's own decode path
    assert type(obj).kind == kind
    # bytes -> object -> kschedlearn's protobuf -> object: nothing the model holds is lost
    again = protobuf.encode_object(obj.to_dict())
    back = decode_body(attrs.evolve(req, body=again), kind, gv)
    assert back == obj
    # and the wire dicts agree, Go's zero values aside
    envelope = protobuf.decode_envelope(req.body)
    message = protobuf.message_for("v1", kind)
    assert message is not None
    recorded = protobuf.decode_message(message, envelope.raw)
    assert _without_empty(recorded) == _without_empty(protobuf.decode_message(message, protobuf.encode_message(message, recorded)))


def test_the_scheduler_bound_and_reported_what_its_log_says() -> None:
    bodies = {}
    for e in _entries("kschedlearn"):
        if e.get("request_body") and e["content_type"] == protobuf.MEDIA_TYPE:
            req = _request("kschedlearn", e)
            bodies[e["seq"]] = decode_body(req, *_route_kind(req))
    bindings = [(b.metadata.name, b.target.name) for b in bodies.values() if type(b).kind == "Binding"]
    assert bindings == [("web-1", "node-3"), ("real-1", "node-1")]
    events = [(ev.reason, ev.involved_object.name, ev.source.component) for ev in bodies.values() if type(ev).kind == "Event"]
    assert ("LeaderElection", "kube-scheduler", "default-scheduler") in events
    assert ("Scheduled", "web-1", "default-scheduler") in events
    assert ("FailedScheduling", "too-big", "default-scheduler") in events
    status = next(p for p in bodies.values() if type(p).kind == "Pod")
    cond = status.status.conditions[0]
    assert (status.metadata.name, cond.type, cond.status, cond.reason) == ("too-big", "PodScheduled", "False",
                                                                          "Unschedulable")
    assert cond.message == "No nodes are available that match all of the following predicates:: Insufficient cpu (3)."


GO_ANSWERS = [e["seq"] for e in _entries("kube-apiserver") if e["response_content_type"].startswith(protobuf.MEDIA_TYPE)]


@pytest.mark.parametrize("seq", GO_ANSWERS, ids=[f"{s:04d}" for s in GO_ANSWERS])
def test_each_answer_of_the_real_apiserver_decodes_and_re_encodes(seq: int) -> None:
    entry = next(e for e in _entries("kube-apiserver") if e["seq"] == seq)
    data = _body("kube-apiserver", entry, "response_body")
    if entry["response_content_type"] == protobuf.WATCH_MEDIA_TYPE:
        frames = list(protobuf.read_watch_frames(data))
        for event_type, obj in frames:
            assert event_type in ("ADDED", "MODIFIED", "DELETED")
            assert obj["metadata"]["selfLink"].endswith("/" + obj["metadata"]["name"])
            again = list(protobuf.read_watch_frames(protobuf.watch_frame(event_type, obj)))
            assert again == [(event_type, obj)]
        return
    envelope = protobuf.decode_envelope(data)
    message = protobuf.message_for(envelope.api_version, envelope.kind)
    assert message is not None, (envelope.api_version, envelope.kind)
    obj = protobuf.decode_object(message, envelope)
    assert protobuf.decode_object(message, protobuf.decode_envelope(protobuf.encode_object(obj))) == obj
    if envelope.kind.endswith("List"):
        KINDS[envelope.kind[:-4]]  # noqa: B018 - the item kind is one kschedlearn models
        for item in obj.get("items", []):
            KINDS[envelope.kind[:-4]].from_dict({**item, "kind": envelope.kind[:-4], "apiVersion": envelope.api_version})
    elif envelope.kind != "Status":
        KINDS[envelope.kind].from_dict(obj)


def test_the_real_apiservers_answers_say_what_1_6_says() -> None:
    by_seq = {e["seq"]: e for e in _entries("kube-apiserver")}

    def answer(seq: int) -> dict[str, Any]:
        envelope = protobuf.decode_envelope(_body("kube-apiserver", by_seq[seq], "response_body"))
        return protobuf.decode_object(protobuf.message_for(envelope.api_version, envelope.kind) or "", envelope)

    nodes = next(answer(s) for s, e in by_seq.items() if e["target"].startswith("/api/v1/nodes?resourceVersion=0"))
    assert [n["metadata"]["name"] for n in nodes["items"]] == ["node-1", "node-2", "node-3"]
    assert [n["metadata"]["selfLink"] for n in nodes["items"]] == ["/api/v1/nodesnode-1", "/api/v1/nodesnode-2",
                                                                   "/api/v1/nodesnode-3"]  # 1.6's root-scope quirk
    assert nodes["metadata"]["selfLink"] == "/api/v1/nodes"
    missing = answer(next(s for s, e in by_seq.items() if e["status"] == 404))
    assert (missing["kind"], missing["code"], missing["reason"], missing["message"]) == (
        "Status", 404, "NotFound", 'endpoints "kube-scheduler" not found')
    bound = [answer(s) for s, e in by_seq.items() if e["target"].endswith("/bindings")]
    assert [(b["status"], b["code"]) for b in bound] == [("Success", 201), ("Success", 201)]


@pytest.fixture(scope="module")
def replay() -> tuple[Simulation, list[tuple[dict[str, Any], Response | WatchRequest]]]:
    """The kschedlearn recording's requests, in order, against a fresh three-nodes world without its
    scheduler (web-1 pending, real-1 and too-big created as kubectl created them)."""
    from kschedlearn.cli import _load

    sim = Simulation(scenario=attrs.evolve(_load("three-nodes"), schedulers=()), seed=0, snapshots=False)
    sim.run_for(3)
    handler = RestHandler(sim.world.api)
    for name, cpu, memory in (("real-1", "100m", "64Mi"), ("too-big", "100", "")):
        requests = {"cpu": cpu, **({"memory": memory} if memory else {})}
        pod = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name},
               "spec": {"containers": [{"name": "c", "image": "nginx", "resources": {"requests": requests}}]}}
        created = handler.handle(RestRequest.from_target("POST", "/api/v1/namespaces/default/pods",
                                                         body=json.dumps(pod), content_type="application/json"))
        assert isinstance(created, Response) and created.code == 201
    answers = []
    for entry in _entries("kschedlearn"):
        req = _request("kschedlearn", entry)
        if req.method == "PUT":  # the scheduler PUTs what it last read: the version (and uid) stored here
            req = _as_stored_here(sim, req)
        answers.append((entry, handler.handle(req)))
    return sim, answers


def _as_stored_here(sim: Simulation, req: RestRequest) -> RestRequest:
    route = parse_route(req.path)
    assert route is not None
    kind = RESOURCES[route.resource].kind
    obj = decode_body(req, kind, "v1")
    stored = sim.world.api.storage.get(route.resource, (route.namespace, route.name))
    meta = attrs.evolve(obj.metadata, resource_version=stored.metadata.resource_version, uid=stored.metadata.uid,
                        creation_timestamp=stored.metadata.creation_timestamp)
    obj = attrs.evolve(obj, metadata=meta)
    return attrs.evolve(req, body=protobuf.encode_object(obj.to_dict()))


def test_replayed_requests_get_the_recorded_codes_in_protobuf(replay: Any) -> None:
    _, answers = replay
    for entry, answer in answers:
        if isinstance(answer, WatchRequest):
            assert entry["response_content_type"] == protobuf.WATCH_MEDIA_TYPE and answer.protobuf
            continue
        assert answer.code == entry["status"], (entry["method"], entry["target"], answer.body)
        assert answer.content_type == protobuf.MEDIA_TYPE, entry["target"]
        envelope = protobuf.decode_envelope(answer.encode())
        assert protobuf.message_for(envelope.api_version, envelope.kind) is not None


def test_the_replay_leaves_the_world_the_real_scheduler_made(replay: Any) -> None:
    sim, _ = replay
    api = sim.world.api
    pods = {p.metadata.name: p for p in api.storage.items("pods")}
    assert (pods["web-1"].spec.node_name, pods["real-1"].spec.node_name) == ("node-3", "node-1")
    cond = pods["too-big"].status.conditions[0]
    assert (cond.type, cond.status, cond.reason) == ("PodScheduled", "False", "Unschedulable")
    events = {(e.metadata.namespace, e.reason, e.involved_object.name): e for e in api.storage.items("events")}
    assert {("kube-system", "LeaderElection", "kube-scheduler"), ("default", "Scheduled", "web-1"),
            ("default", "Scheduled", "real-1"), ("default", "FailedScheduling", "too-big")} <= set(events)
    assert events[("default", "FailedScheduling", "too-big")].count == 4  # one POST, three count PATCHes
    lease = api.storage.get("endpoints", ("kube-system", "kube-scheduler"))
    assert "control-plane.alpha.kubernetes.io/leader" in lease.metadata.annotations
