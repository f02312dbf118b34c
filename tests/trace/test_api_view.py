"""The snapshots' API part kept from the storage's writes equals the one built from every object."""

from __future__ import annotations

import random

import json

from kschedlearn.api.v1 import Endpoints, Event, Node, Pod
from kschedlearn.apiserver.storage import Storage
from kschedlearn.trace.api_view import RESOURCES, ApiIndex, api_server_view


def _pod(name: str, node: str = "", phase: str = "") -> Pod:
    return Pod.from_dict({"metadata": {"name": name, "namespace": "default"},
                          "spec": {"nodeName": node}, "status": {"phase": phase}})


def _event(name: str, t: int, count: int) -> Event:
    return Event.from_dict({"metadata": {"name": name, "namespace": "default"},
                            "involvedObject": {"kind": "Pod", "name": name, "namespace": "default"},
                            "reason": "Scheduled", "message": f"m{t}", "count": count,
                            "lastTimestamp": f"2017-04-03T00:00:{t % 60:02d}Z"})


def _endpoints(name: str, holder: str, t: int) -> Endpoints:
    record = {"holderIdentity": holder, "leaseDurationSeconds": 15, "leaderTransitions": t % 3,
              "acquireTime": f"2017-04-03T00:00:{t % 60:02d}Z", "renewTime": f"2017-04-03T00:01:{t % 60:02d}Z"}
    annotations = {"control-plane.alpha.kubernetes.io/leader": json.dumps(record)} if holder else {}
    return Endpoints.from_dict({"metadata": {"name": name, "namespace": "kube-system", "annotations": annotations}})


def test_index_follows_random_writes_exactly() -> None:
    rnd = random.Random(5)
    storage = Storage(watch_window=50)
    index = ApiIndex(max_events=5)

    def objects() -> list:
        return [o for r in RESOURCES for o in storage.items(r)]

    index.reset(objects(), storage.resource_version)
    leaders: set = set()
    for step in range(600):
        resource = rnd.choice(("pods", "pods", "nodes", "events", "endpoints"))
        name = f"o{rnd.randint(0, 12)}" if resource != "endpoints" else f"e{rnd.randint(0, 2)}"
        key = ("default" if resource not in ("nodes", "endpoints") else "" if resource == "nodes" else "kube-system",
               name)
        present = storage.get(resource, key) is not None
        if present and rnd.random() < 0.3:
            storage.delete(resource, key)
        else:
            obj = (_pod(name, rnd.choice(["", "n1", "n2"]), rnd.choice(["", "Running"])) if resource == "pods"
                   else Node.from_dict({"metadata": {"name": name}, "spec": {"unschedulable": rnd.random() < 0.5}})
                   if resource == "nodes" else _event(name, rnd.randint(0, 59), rnd.randint(1, 3))
                   if resource == "events" else _endpoints(name, rnd.choice(["", "a", "b"]), rnd.randint(0, 59)))
            (storage.update if present else storage.create)(resource, key, obj)
        if rnd.random() < 0.4:
            changes = storage.changes_since(index.version, RESOURCES)
            if changes is None:
                index.reset(objects(), storage.resource_version)
            else:
                index.apply(changes, storage.resource_version)
            assert index.view() == api_server_view(objects(), max_events=5)
            if rnd.random() < 0.3:  # asked again with nothing written: the same parts, kept
                again = index.view()
                assert again == api_server_view(objects(), max_events=5)
        leaders.add(index.view().leader_record)
    assert len(leaders) > 5, "the leader record changed with the Endpoints' writes"


def test_changes_since_says_when_the_window_has_moved_on() -> None:
    storage = Storage(watch_window=3)
    rv = storage.resource_version
    for i in range(5):
        storage.create("pods", ("default", f"p{i}"), _pod(f"p{i}"))
    assert storage.changes_since(rv, RESOURCES) is None
    latest = storage.resource_version
    storage.create("pods", ("default", "q"), _pod("q"))
    assert [e.object.metadata.name for _, e in storage.changes_since(latest, RESOURCES)] == ["q"]
