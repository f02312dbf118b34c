"""kschedlearn's controllers against the real 1.6 ones: the same writes, in the same order.

Go: none — kschedlearn-only. ``data/oracle_controllers.json`` was recorded from the real
v1.6.1 kube-apiserver and kube-controller-manager by ``tools/record_controllers_oracle.py``
(every write the controller manager sent, through a recording proxy, while an RC was scaled
0 → 3 → 1, a Deployment was created and rolled from nginx:1.0 to nginx:2.0, the Deployment
was deleted with ``propagationPolicy: Background`` and the RC without options, plus the
answers to specs 1.6 refuses). The same steps run here on a simulated world with the
controller manager, and the writes of its process are compared phase by phase.

What is compared: names and times aside, and only what the controllers decide. Readiness comes
from a stand-in kubelet in both worlds at different moments, so status writes that differ only
in ready/available counts are folded (the sequence of distinct (observedGeneration, replicas,
fullyLabeledReplicas) / (observedGeneration, replicas, updatedReplicas) values is compared), and
a Deployment's conflicting status writes (409s, not stored) are left out.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from kschedlearn.apiserver.finalizers import DeleteOptions
from kschedlearn.apiserver.rest.handler import RestHandler
from kschedlearn.apiserver.rest.types import RestRequest
from kschedlearn.apiserver.server import APIServer
from kschedlearn.scenarios.scenario import parse_scenario
from kschedlearn.sim import Runtime
from kschedlearn.sim.runtime import current_goroutine
from kschedlearn.simulation.world import build_world

ORACLE = json.loads((Path(__file__).parent / "data" / "oracle_controllers.json").read_text())
POD_SPEC = {"containers": [{"name": "web", "image": "nginx:1.0", "resources": {"requests": {"cpu": "100m"}}}]}


def _node(n: str) -> dict[str, Any]:
    alloc = {"cpu": "4", "memory": "8Gi", "pods": "110"}
    return {"kind": "Node", "apiVersion": "v1", "metadata": {"name": n, "labels": {"kubernetes.io/hostname": n}},
            "status": {"capacity": alloc, "allocatable": alloc, "conditions": [{"type": "Ready", "status": "True"}]}}


#: the oracle's steps, at virtual times (the phases' names are the oracle's)
STEPS = {"rc-create-0": 1, "rc-scale-3": 4, "rc-scale-1": 12, "deployment-create": 20, "deployment-roll": 30,
         "deployment-delete-background": 100, "rc-delete-default": 110, "end": 120}
SCENARIO = {
    "name": "oracle", "duration": 130, "controller_manager": True, "objects": [_node(f"node-{i}") for i in (1, 2, 3)],
    "timeline": [
        {"at": 1, "create": {"apiVersion": "v1", "kind": "ReplicationController", "metadata": {"name": "web"},
                             "spec": {"replicas": 0, "selector": {"app": "web"},
                                      "template": {"metadata": {"labels": {"app": "web"}}, "spec": POD_SPEC}}}},
        {"at": 4, "scale": "replicationcontroller default/web 3"},
        {"at": 12, "scale": "replicationcontroller default/web 1"},
        {"at": 20, "create": {"apiVersion": "extensions/v1beta1", "kind": "Deployment", "metadata": {"name": "roll"},
                              "spec": {"replicas": 3, "template": {"metadata": {"labels": {"app": "roll"}},
                                                                   "spec": POD_SPEC}}}},
        {"at": 30, "apply": {"apiVersion": "extensions/v1beta1", "kind": "Deployment", "metadata": {"name": "roll"},
                             "spec": {"replicas": 3, "template": {"metadata": {"labels": {"app": "roll"}}, "spec": {
                                 "containers": [{**POD_SPEC["containers"][0], "image": "nginx:2.0"}]}}}}},
    ],
}


@pytest.fixture(scope="module")
def simulated() -> dict[str, list[dict[str, Any]]]:
    """The simulated controller manager's writes per phase, in the oracle's request form."""
    w = build_world(parse_scenario(yaml.safe_dump(SCENARIO)), 0, snapshots=False, capture_stacks=False)
    rows: list[tuple[float, dict[str, Any]]] = []

    def listener(resource: str, entry: Any) -> None:
        g = current_goroutine()
        if g is not None and g.process.name == "kube-controller-manager":
            rows.append((w.runtime.now, _as_request(resource, entry)))

    w.api.storage.listeners.append(listener)
    w.run(None, until=STEPS["deployment-delete-background"])
    w.api.delete("deployments", "default", "roll", options=DeleteOptions(propagation_policy="Background"))
    w.run(None, until=STEPS["rc-delete-default"])
    w.api.delete("replicationcontrollers", "default", "web")
    w.run(None, until=STEPS["end"])
    phases: dict[str, list[dict[str, Any]]] = {}
    bounds = list(STEPS.items())
    for (phase, start), (_, end) in zip(bounds, bounds[1:]):
        phases[phase] = [r for t, r in rows if start <= t < end]
    return phases


def _as_request(resource: str, entry: Any) -> dict[str, Any]:
    """A stored change as the request that made it (the oracle records requests)."""
    obj, prev = entry.object, entry.prev_object
    body = obj.to_dict()
    if entry.type == "ADDED":
        return {"method": "POST", "resource": resource, "body": body}
    if entry.type == "DELETED" or (resource == "pods" and obj.metadata.deletion_timestamp is not None
                                   and prev is not None and prev.metadata.deletion_timestamp is None):
        return {"method": "DELETE", "resource": resource, "body": body}
    if resource == "pods" and prev is not None and prev.metadata.owner_references != obj.metadata.owner_references:
        return {"method": "PATCH", "resource": resource, "body": body}
    if prev is not None and obj.metadata.finalizers and not prev.metadata.finalizers:
        return {"method": "DELETE", "resource": resource, "body": body}  # a delete that set the orphan finalizer
    sub = "/status" if prev is not None and prev.spec == obj.spec and prev.status != obj.status else ""
    return {"method": "PUT", "resource": resource + sub, "body": body}


def _oracle(phase: str) -> list[dict[str, Any]]:
    out = []
    for r in ORACLE["phases"][phase]:
        if r["status"] >= 300:
            continue  # refused (409): nothing was stored
        parts = r["path"].strip("/").split("/")
        at = 4 if parts[0] == "api" else 5
        resource, name = parts[at], (parts[at + 1] if len(parts) > at + 1 else "")
        sub = "/" + parts[-1] if parts[-1] in ("status", "scale") else ""
        out.append({"method": r["method"], "resource": resource + sub, "body": r["body"] or {}, "name": name})
    return out


def _status_steps(rows: list[dict[str, Any]], resource: str, fields: tuple[str, ...]) -> list[tuple[Any, ...]]:
    """Distinct consecutive status values (ready/available counts left out) of ``resource``."""
    out: list[tuple[Any, ...]] = []
    for r in rows:
        if r["resource"] != resource + "/status" or r["method"] != "PUT":
            continue
        s = r["body"].get("status", {})
        value = tuple(s.get(f, 0) or 0 for f in fields)
        if not out or out[-1] != value:
            out.append(value)
    return out


def _pods(rows: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """Pod creations and deletions, in order, by the owner's generation ("old"/"new" for a rollout)."""
    out = []
    for r in rows:
        if r["resource"] != "pods" or r["method"] not in ("POST", "DELETE"):
            continue
        meta = r["body"].get("metadata", {})
        out.append((r["method"], meta.get("generateName") or meta.get("name") or r.get("name", "")))
    return out


def _events(rows: list[dict[str, Any]], kind: str) -> list[tuple[str, str]]:
    """The events recorded on objects of ``kind``, names replaced by their role."""
    out = []
    for r in rows:
        if r["resource"] == "events" and r["method"] == "POST" and r["body"]["involvedObject"]["kind"] == kind:
            out.append((r["body"]["reason"], re.sub(r"-(?:[0-9]+-)?[a-z0-9]{5}\b|-[0-9]{6,}\b", "-X",
                                                    r["body"]["message"])))
    return out


RC_FIELDS = ("observedGeneration", "replicas", "fullyLabeledReplicas")


@pytest.mark.parametrize("phase", ["rc-create-0", "rc-scale-3", "rc-scale-1"])
def test_rc_scaled_0_3_1_writes_as_1_6(simulated: dict[str, list[dict[str, Any]]], phase: str) -> None:
    got, want = simulated[phase], _oracle(phase)
    assert _status_steps(got, "replicationcontrollers", RC_FIELDS) == _status_steps(
        want, "replicationcontrollers", RC_FIELDS)
    assert [m for m, _ in _pods(got)] == [m for m, _ in _pods(want)]
    assert sorted(_events(got, "ReplicationController")) == sorted(_events(want, "ReplicationController"))
    for g, w in zip([r for r in got if r["method"] == "POST" and r["resource"] == "pods"],
                    [r for r in want if r["method"] == "POST" and r["resource"] == "pods"]):
        gm, wm = g["body"]["metadata"], w["body"]["metadata"]
        assert gm["generateName"] == wm["generateName"] and gm["labels"] == wm["labels"]
        assert [{k: v for k, v in o.items() if k != "uid"} for o in gm["ownerReferences"]] == \
            [{k: v for k, v in o.items() if k != "uid"} for o in wm["ownerReferences"]]
        created_by = json.loads(gm["annotations"]["kubernetes.io/created-by"])
        want_by = json.loads(wm["annotations"]["kubernetes.io/created-by"])
        assert created_by.keys() == want_by.keys() and created_by["reference"].keys() == want_by["reference"].keys()


def _rs_scales(rows: list[dict[str, Any]]) -> list[tuple[str, str, int]]:
    """The replica sets' sizes as the deployment controller wrote them: (verb, old/new, replicas)."""
    names: dict[str, str] = {}
    out = []
    for r in rows:
        if r["resource"] != "replicasets" or r["method"] not in ("POST", "PUT"):
            continue
        meta, spec = r["body"]["metadata"], r["body"]["spec"]
        revision = meta.get("annotations", {}).get("deployment.kubernetes.io/revision", "")
        role = names.setdefault(meta["name"], {"1": "first", "2": "second"}.get(revision, "?"))
        value = (r["method"], role, spec["replicas"])
        if not out or out[-1] != value:
            out.append(value)
    return out


DEPLOYMENT_FIELDS = ("observedGeneration", "updatedReplicas")


@pytest.mark.parametrize("phase", ["deployment-create", "deployment-roll"])
def test_deployment_rollout_writes_as_1_6(simulated: dict[str, list[dict[str, Any]]], phase: str) -> None:
    got, want = simulated[phase], _oracle(phase)
    assert _rs_scales(got) == _rs_scales(want)
    pod_roles = lambda rows: [(m, "second" if name.startswith(_second(rows)) else "first")  # noqa: E731
                              for m, name in _pods(rows)]
    assert [m for m, _ in _pods(got)] == [m for m, _ in _pods(want)]
    if phase == "deployment-roll":
        assert pod_roles(got) == pod_roles(want)
    assert _events(got, "Deployment") == _events(want, "Deployment")
    assert _status_steps(got, "deployments", DEPLOYMENT_FIELDS)[-1] == _status_steps(
        want, "deployments", DEPLOYMENT_FIELDS)[-1]
    new_rs = [r for r in got if r["resource"] == "replicasets" and r["method"] == "POST"][0]["body"]
    want_rs = [r for r in want if r["resource"] == "replicasets" and r["method"] == "POST"][0]["body"]
    assert new_rs["metadata"]["annotations"] == want_rs["metadata"]["annotations"]
    assert set(new_rs["spec"]["selector"]["matchLabels"]) == set(want_rs["spec"]["selector"]["matchLabels"])


def _second(rows: list[dict[str, Any]]) -> str:
    for r in rows:
        if r["resource"] == "replicasets" and r["method"] == "POST":
            return r["body"]["metadata"]["name"]
    return "\0"


def test_delete_deployment_background_orphans_its_pods_as_1_6(simulated: dict[str, list[dict[str, Any]]]) -> None:
    """1.6's collector deletes the replica sets of a Deployment deleted in the background with
    their default policy (orphan): the pods stay, without an owner — as the real 1.6 did."""
    got, want = simulated["deployment-delete-background"], _oracle("deployment-delete-background")
    facts = ORACLE["facts"]["after_delete_deployment_background"]
    assert facts["replicasets"] == [] and all(owners == 0 for _, owners in facts["pods"])
    released = lambda rows: sum(1 for r in rows if r["resource"] == "pods" and r["method"] == "PATCH")  # noqa: E731
    deleted = lambda rows: sum(1 for r in rows if r["resource"] == "replicasets" and r["method"] == "DELETE")  # noqa: E731
    assert released(got) == released(want) == len(facts["pods"])
    assert deleted(got) >= 1 and deleted(want) == 2


def test_delete_rc_default_orphans_as_1_6(simulated: dict[str, list[dict[str, Any]]]) -> None:
    """A delete without options: the ``orphan`` finalizer, the pod released, the RC gone."""
    got = simulated["rc-delete-default"]
    fact = ORACLE["facts"]["delete_rc_default"]
    assert fact["finalizers"] == ["orphan"] and fact["deletionTimestamp_set"]
    assert [r["method"] for r in got if r["resource"] == "pods"] == \
        [r["method"] for r in _oracle("rc-delete-default") if r["resource"] == "pods"] == ["PATCH"]
    assert ORACLE["facts"]["after_delete_rc_default"] == {"rc_get_code": 404, "pods": [["web", 0]]}


@pytest.mark.parametrize("name", sorted(ORACLE["refused"]))
def test_refused_specs_answered_as_1_6(name: str) -> None:
    """Bad specs (negative replicas, a selector not matching the template, unknown strategies) get
    the real 1.6 apiserver's 422 answer, word for word."""
    refused = ORACLE["refused"][name]
    handler = RestHandler(APIServer(Runtime(seed=0)))
    answer = handler.handle(RestRequest("POST", refused["path"], body=json.dumps(refused["body"]),
                                        content_type="application/json"))
    assert (answer.code, answer.body.get("reason"), answer.body.get("message")) == (
        refused["code"], refused["reason"], refused["message"])
