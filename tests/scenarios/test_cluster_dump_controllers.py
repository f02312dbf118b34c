"""A replayed dump with its controllers: Deployments and DaemonSets kept as their 1.6 kinds and
kept at their counts by 1.6's kube-controller-manager.

Go: none — kschedlearn-only (``load_cluster_dump(..., controllers=True)``,
``Simulation.from_manifests(..., controllers=True)``, ``kschedlearn serve --from``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kschedlearn.scenarios.cluster_dump import DUMP_CONTROLLER_MANAGER, load_cluster_dump
from kschedlearn.simulation.world import build_world

DUMP = Path(__file__).parent / "data" / "dump-with-workloads.yaml"


@pytest.fixture(scope="module")
def replay() -> Any:
    scenario, report = load_cluster_dump(DUMP, controllers=True)
    w = build_world(scenario, 1, snapshots=False, capture_stacks=False)
    before = {p.metadata.name: p.spec.node_name for p in w.api.storage.items("pods")}
    w.run(None, until=59)
    return scenario, report, w, before


def _alive(w: Any) -> dict[str, Any]:
    return {p.metadata.name: p for p in w.api.storage.items("pods") if p.metadata.deletion_timestamp is None}


def test_kinds_kept_and_converted(replay: Any) -> None:
    scenario, report, w, _ = replay
    assert scenario.controller_manager == DUMP_CONTROLLER_MANAGER
    assert dict(report.skipped_kinds) == {"Job": 1}
    assert ("apps/v1 Deployment", "extensions/v1beta1", 1) in report.conversions
    assert ("apps/v1 DaemonSet", "extensions/v1beta1", 1) in report.conversions
    assert [d.metadata.uid for d in w.api.storage.items("deployments")] == ["uid-dep-web"]


def test_deployment_and_replicaset_kept_at_their_count(replay: Any) -> None:
    _, _, w, before = replay
    alive = _alive(w)
    for name in ("web-5d4f8b7c9-aaaaa", "web-5d4f8b7c9-bbbbb"):
        assert alive[name].spec.node_name == before[name]  # neither replaced nor duplicated
    assert sorted(n for n in alive if n.startswith("web-")) == ["web-5d4f8b7c9-aaaaa", "web-5d4f8b7c9-bbbbb"]
    d = w.api.get("deployments", "default", "web")
    assert (d.status.replicas, d.status.updated_replicas, d.status.available_replicas) == (2, 2, 2)
    assert [c.reason for c in d.status.conditions] == ["MinimumReplicasAvailable", "NewReplicaSetAvailable"]


def test_no_garbage_collector_so_job_pods_stay(replay: Any) -> None:
    """The dump's Job is a kind 1.6 does not have: with the collector on, its pod's owner would be
    "gone" and the pod deleted; the replay runs every controller but the garbage collector."""
    _, _, w, _ = replay
    assert "backup-zzzzz" in _alive(w)
    assert "garbagecollector" not in w.controller_manager.handles.controllers


def test_a_modern_daemonset_is_rolled_by_1_6(replay: Any) -> None:
    """1.6's DaemonSet RollingUpdate keys pods by the ``pod-template-generation`` label, which a
    modern cluster's pods do not carry: 1.6 replaces them one node at a time (maxUnavailable 1)."""
    _, _, w, _ = replay
    agents = {n: p for n, p in _alive(w).items() if n.startswith("agent-")}
    assert "agent-x1" not in agents
    new = [p for p in agents.values() if p.metadata.labels.get("pod-template-generation") == "1"]
    assert [p.spec.node_name for p in new] == ["node-1"]
    x2 = w.api.storage.get("pods", ("default", "agent-x2"))
    assert x2 is not None and x2.metadata.deletion_timestamp is not None  # terminating: the next node's turn
