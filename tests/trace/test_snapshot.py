"""Snapshot: JSON round trip, builder over live components, API-server view."""

from __future__ import annotations

import json

import pytest

from kschedlearn.api.v1 import load_manifests
from kschedlearn.client_go.tools.cache.delta_fifo import new_delta_fifo
from kschedlearn.client_go.tools.cache.fifo import new_fifo
from kschedlearn.client_go.tools.cache.store import meta_namespace_key_func
from kschedlearn.sim import Runtime
from kschedlearn.trace.snapshot import (
    LEADER_ANNOTATION, QueueView, Snapshot, SnapshotBuilder, api_server_view,
)
from kschedlearn.observe.sharing import queue_source

MANIFESTS = f"""
apiVersion: v1
kind: Pod
metadata: {{name: web-1, namespace: default}}
spec: {{nodeName: node-1, containers: [{{name: c, image: nginx}}]}}
status: {{phase: Running, conditions: [{{type: PodScheduled, status: "True"}}]}}
---
apiVersion: v1
kind: Pod
metadata: {{name: web-2, namespace: default}}
spec: {{containers: [{{name: c, image: nginx}}]}}
---
apiVersion: v1
kind: Node
metadata: {{name: node-1}}
spec: {{unschedulable: true}}
---
apiVersion: v1
kind: Endpoints
metadata:
  name: kube-scheduler
  namespace: kube-system
  annotations:
    {LEADER_ANNOTATION}: '{{"holderIdentity":"sched-a","leaseDurationSeconds":15,"acquireTime":"2017-04-03T00:00:01Z","renewTime":"2017-04-03T00:00:11Z","leaderTransitions":2}}'
"""


def _objects() -> list:
    return list(load_manifests(MANIFESTS))


def test_api_server_view_from_objects() -> None:
    view = api_server_view(_objects())
    assert [p.key for p in view.pods] == ["default/web-1", "default/web-2"]
    assert view.pods[0].node_name == "node-1" and view.pods[0].conditions == (("PodScheduled", "True"),)
    assert view.nodes[0].unschedulable
    rec = view.leader_record
    assert rec is not None and rec.holder_identity == "sched-a" and rec.leader_transitions == 2
    assert rec.acquire_time == 1.0 and rec.renew_time == 11.0


def test_builder_over_live_components_and_json_round_trip() -> None:
    rt = Runtime(seed=1)
    fifo = new_fifo(meta_namespace_key_func)
    dfifo = new_delta_fifo(meta_namespace_key_func, None, None)
    pods = [o for o in _objects() if o.kind == "Pod"]
    fifo.add(pods[1])
    dfifo.add(pods[0])
    dfifo.update(pods[0])
    builder = SnapshotBuilder(runtime=rt, queues={"podQueue": queue_source(fifo),
                                                  "scheduledPodPopulator": queue_source(dfifo)},
                              api_objects=_objects, leader_candidates=("sched-a", "sched-b"))
    snap = builder("main")
    assert snap.queues is not None
    assert snap.queues["podQueue"] == QueueView("FIFO", ("default/web-2",), snap.queues["podQueue"].items,
                                                True, 0, False)  # Add marks it populated, as Go
    assert snap.queues["scheduledPodPopulator"].items[0].deltas == ("Added", "Updated")
    assert snap.queues["scheduledPodPopulator"].items[0].node_name == "node-1"
    assert snap.leader is not None and snap.leader.holder == "sched-a"
    assert snap.leader.candidates == ("sched-a", "sched-b")
    assert snap.stages_seen == ("main",) and snap.processes is not None
    text = snap.dumps()
    assert Snapshot.from_json(json.loads(text)) == snap
    assert Snapshot.from_json(json.loads(text)).dumps() == text


def test_from_json_names_the_bad_field() -> None:
    data = Snapshot(seq=1, time=0.0).to_json()
    data["backoff"] = [{"pod": "a", "backoff": "soon", "last_update": 0.0, "in_flight": False}]
    with pytest.raises(ValueError, match=r"snapshot.backoff\[0\].backoff"):
        Snapshot.from_json(data)
    with pytest.raises(ValueError, match="expected an object"):
        Snapshot.from_json([])  # type: ignore[arg-type]
