"""Replaying a real cluster's dump (``Simulation.from_manifests``) on the shipped sample.

Go: none — kschedlearn-only. The pinned placements are the mirror's answer for the sample at
seed 1 (regenerate them only if the sample or a fixed 1.6 bug changes them, and say so).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kschedlearn import Simulation
from kschedlearn.scenarios.cluster_dump import load_cluster_dump
from kschedlearn.scenarios.scenario import ScenarioError

SAMPLE = Path(__file__).resolve().parents[2] / "kschedlearn" / "scenarios" / "data" / "dumps" / "sample-cluster.yaml"

PLACED = {
    "shop/cart-7d9c8b5f4-f05ac": "ip-10-0-2-17.eu-west-1.compute.internal",
    "shop/cart-7d9c8b5f4-20837": "ip-10-0-3-20.eu-west-1.compute.internal",
    "shop/cart-7d9c8b5f4-f37e6": "ip-10-0-1-14.eu-west-1.compute.internal",
    "shop/catalog-7d9c8b5f4-41022": "ip-10-0-2-17.eu-west-1.compute.internal",
    "shop/catalog-7d9c8b5f4-4261a": "ip-10-0-1-14.eu-west-1.compute.internal",
    "shop/catalog-7d9c8b5f4-a9e7f": "ip-10-0-3-20.eu-west-1.compute.internal",
    "shop/catalog-7d9c8b5f4-13a97": "ip-10-0-0-12.eu-west-1.compute.internal",
    "shop/redis-2": "ip-10-0-2-17.eu-west-1.compute.internal",
    "shop/report-job": "ip-10-0-0-12.eu-west-1.compute.internal",
    "shop/canary": "ip-10-0-1-13.eu-west-1.compute.internal",
}


def test_the_sample_dump_is_summarised_once() -> None:
    _, report = load_cluster_dump(SAMPLE)
    assert (report.nodes, report.bound_pods, report.pending_pods) == (12, 33, 10)
    assert report.skipped_kinds == (("DaemonSet", 1), ("Deployment", 3))
    assert ("apps/v1 ReplicaSet", "extensions/v1beta1", 3) in report.conversions
    unknown = {(k, p): n for k, p, n in report.unknown_fields}
    assert unknown[("Pod", "metadata.managedFields")] == 43
    assert unknown[("Pod", "spec.topologySpreadConstraints")] == 1
    assert unknown[("Pod", "status.containerStatuses")] == 33
    assert unknown[("Node", "status.nodeInfo")] == 12
    # what 1.6 reads is never reported as unknown
    assert not any(p.startswith(("spec.nodeSelector", "spec.affinity", "spec.containers[].resources", "metadata.labels",
                                 "spec.tolerations", "spec.taints", "status.allocatable")) for _, p, _ in report.unknown_fields)
    assert len(report.notes) == 1 and "3 of 12 nodes" in report.notes[0]
    text = report.summary()
    assert "Pod spec.topologySpreadConstraints ×1" in text and "DaemonSet ×1" in text


def test_pending_pods_are_placed_by_1_6_and_bound_ones_stay() -> None:
    sim = Simulation.from_manifests(SAMPLE, seed=1)
    sim.run_until(lambda e: e.time > 20)
    where = {p.key: p.node_name for p in sim.snapshot.apiserver.pods}
    assert {k: where[k] for k in PLACED} == PLACED
    bound_before = {f"{o.metadata.namespace}/{o.metadata.name}": o.spec.node_name
                    for o in sim.scenario.objects if type(o).kind == "Pod" and o.spec.node_name}
    assert all(where[k] == v for k, v in bound_before.items())
    # the canary's required anti-affinity keeps it off every node that runs a frontend pod
    frontends = {where[k] for k in where if k.startswith("shop/frontend-")}
    assert where["shop/canary"] not in frontends
    # 1.6 ignores topologySpreadConstraints and places the job by its nodeSelector alone
    report_node = next(o for o in sim.scenario.objects if type(o).kind == "Node" and o.metadata.name == where["shop/report-job"])
    assert report_node.metadata.labels["node.kubernetes.io/instance-type"] == "m5.2xlarge"
    attempt = sim.decision("shop/canary")[-1]
    assert attempt.host == where["shop/canary"] and attempt.complete


@pytest.mark.parametrize(("text", "message"), [
    ("apiVersion: v1\nkind: List\nitems:\n- {kind: Node, metadata: {name: n}}\n- {kind: Pod, metadata: {name: p}, spec: {containers: [{name: c, resources: {requests: {cpu: 12Q}}}]}}\n",
     '<dump>: document 1: items[1]: Pod p: spec.containers[0].resources.requests.cpu: invalid quantity "12Q"'),
    ("kind: List\nitems: 3\n", "<dump>: document 1: items: expected a list, got int"),
    ("- 1\n- 2\n", "<dump>: document 1: expected a Kubernetes object (a mapping), got list"),
    ("metadata: {name: x}\n", "<dump>: document 1: kind: required"),
    ("kind: Pod\nmetadata: {name: p}\n", "<dump>: no Node objects"),
    ("kind: [\n", "<dump>: invalid YAML"),
    ("kind: Node\nmetadata: {name: n}\n---\nkind: Pod\nmetadata: {name: p, labels: 5}\n",
     "<dump>: document 2: Pod p: metadata.labels: expected a map, got 5"),
    # what 1.6's API server refuses is named at load, by item (it was a traceback from the first run)
    ("kind: List\nitems:\n- {kind: Node, metadata: {name: n}}\n"
     "- {kind: Pod, metadata: {name: p}, spec: {containers: [{name: c, resources: {requests: {cpu: '-1'}}}]}}\n",
     '<dump>: document 1: items[1]: Pod "p" is invalid: spec.containers[0].resources.requests[cpu]: Invalid value: "-1": '
     "must be greater than or equal to 0 (1.6's API server refuses it"),
    ("kind: Node\nmetadata: {name: Node_1}\n",
     '<dump>: document 1: Node "Node_1" is invalid: metadata.name: Invalid value: "Node_1"'),
])
def test_malformed_dumps_name_the_document_and_the_field(text: str, message: str) -> None:
    with pytest.raises(ScenarioError) as info:
        load_cluster_dump(text)
    assert str(info.value).startswith(message)


def test_a_missing_file_is_named() -> None:
    with pytest.raises(ScenarioError, match=r"nope\.yaml: cannot read the dump: No such file or directory"):
        Simulation.from_manifests("/tmp/definitely/nope.yaml")


def test_a_json_dump_reads_like_the_yaml_one() -> None:
    import json

    import yaml

    doc = yaml.safe_load(SAMPLE.read_text())
    _, from_json = load_cluster_dump(json.dumps(doc))
    _, from_yaml = load_cluster_dump(SAMPLE)
    assert attrs_without_source(from_json) == attrs_without_source(from_yaml)


def attrs_without_source(report: object) -> object:
    import attrs

    return attrs.evolve(report, source="")


def test_pods_with_the_same_spec_share_one_decoded_spec_and_load_as_before(monkeypatch, tmp_path):
    """The loader's spec sharing changes nothing a reader sees: the same objects (equal), the
    same report; replicas with the same spec hold the very same PodSpec value."""
    import json as _json

    from kschedlearn.scenarios import cluster_dump

    sample = Path(cluster_dump.__file__).parent / "data" / "dumps" / "sample-cluster.yaml"
    pod = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "r-0", "namespace": "default",
                                                          "managedFields": [{"manager": "kubectl"}]},
           "spec": {"containers": [{"name": "c", "image": "x", "resources": {"requests": {"cpu": "100m"}}}],
                    "topologySpreadConstraints": [{"maxSkew": 1}]},
           "status": {"phase": "Pending", "containerStatuses": [{"name": "c"}]}}
    node = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1"},
            "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}}}
    replicas = [_json.loads(_json.dumps(pod).replace("r-0", f"r-{i}")) for i in range(5)]
    replicas[3]["spec"]["nodeName"] = "n1"
    dump = tmp_path / "replicas.json"
    dump.write_text(_json.dumps({"apiVersion": "v1", "kind": "List", "items": [node, *replicas]}), encoding="utf-8")
    for path in (sample, dump):
        shared_scenario, shared_report = cluster_dump.load_cluster_dump(path)
        with monkeypatch.context() as m:
            m.setattr(cluster_dump._SharedSpecs, "decode", lambda self, cls, doc, where: cluster_dump._decode(cls, doc, where))
            plain_scenario, plain_report = cluster_dump.load_cluster_dump(path)
        assert shared_scenario == plain_scenario
        assert shared_report == plain_report
    pods = [o for o in shared_scenario.objects if type(o).kind == "Pod"]
    pending = [p for p in pods if not p.spec.node_name]
    assert len(pending) == 4 and all(p.spec is pending[0].spec for p in pending)
    assert ("Pod", "spec.topologySpreadConstraints", 5) in shared_report.unknown_fields
