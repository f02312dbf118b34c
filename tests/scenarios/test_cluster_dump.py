"""Replaying a real cluster's dump (``Simulation.from_manifests``) on the shipped sample.

Go: none — kschedlearn-only. The pinned placements are the mirror's answer for the sample at
seed 1 (regenerate them only if the sample or a fixed 1.6 bug changes them, and say so).
"""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest

from kschedlearn import Simulation
from kschedlearn.scenarios.cluster_dump import ZONE_1_6, ZONE_NEW, load_cluster_dump
from kschedlearn.scenarios.dump_report import NOT_IN_1_6, NOT_MODELLED, SCHEDULING
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
    counts = {(f.part, f.kind, f.field): f.count for part in (SCHEDULING, NOT_IN_1_6, NOT_MODELLED)
              for f in report.part(part)}
    # what changes scheduling: modern fields a modern scheduler acts on, and the zone label 1.6 cannot read
    assert counts[(SCHEDULING, "Pod", "spec.topologySpreadConstraints")] == 1
    assert counts[(SCHEDULING, "Pod", "spec.preemptionPolicy")] == 43
    assert counts[(SCHEDULING, "Node", f"metadata.labels[{ZONE_NEW}] without {ZONE_1_6}")] == 3
    # what 1.6 did not have at all
    assert counts[(NOT_IN_1_6, "Pod", "metadata.managedFields")] == 43
    assert counts[(NOT_IN_1_6, "Service", "spec.ipFamilies")] == 4
    assert counts[(NOT_IN_1_6, "Node", "status.allocatable[ephemeral-storage]")] == 12
    # what 1.6 had and kschedlearn does not model: never listed as "1.6 did not have"
    assert counts[(NOT_MODELLED, "Pod", "status.containerStatuses")] == 33
    assert counts[(NOT_MODELLED, "Pod", "spec.containers[].livenessProbe")] == 43
    assert counts[(NOT_MODELLED, "Service", "status")] == 4
    assert not any(part == NOT_IN_1_6 and field.startswith(("status.containerStatuses", "spec.containers[].livenessProbe"))
                   and "started" not in field for part, _, field in counts)
    # what 1.6 reads is never reported
    assert not any(f.startswith(("spec.nodeSelector", "spec.affinity", "spec.containers[].resources", "metadata.labels",
                                 "spec.tolerations", "spec.taints", "status.allocatable[cpu]", "status.nodeInfo"))
                   for _, _, f in counts if "without" not in f)
    text = report.summary()
    assert "spec.topologySpreadConstraints ×1" in text and "DaemonSet ×1" in text
    assert text.index("What changes scheduling") < text.index("What 1.6 did not have") < text.index(
        "What kschedlearn does not model")


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


# Malformed items (skipped and named, the rest loads) and malformed dumps (refused whole, the file
# named) are in the bad-input corpus: tests/test_bad_input_corpus_dumps.py.


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


_NODE = "- {kind: Node, metadata: {name: n}, status: {allocatable: {cpu: '2', memory: 4Gi, pods: '110'}}}\n"


@pytest.mark.parametrize(("spec", "field", "why"), [
    ("{containers: [{name: c}], topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: "
     "DoNotSchedule}]}", "spec.topologySpreadConstraints", "selector_spreading.go#L96-L192"),
    ("{containers: [{name: c}], priorityClassName: high, priority: 1000}", "spec.priorityClassName", "no preemption"),
    ("{containers: [{name: c}], schedulingGates: [{name: wait}]}", "spec.schedulingGates", "schedules the pod at once"),
    ("{containers: [{name: c}], overhead: {cpu: 250m}}", "spec.overhead", "RuntimeClass overhead"),
    ("{containers: [{name: c}], initContainers: [{name: side, restartPolicy: Always}]}",
     "spec.initContainers[].restartPolicy", "predicates.go#L471-L540"),
    ("{containers: [{name: c}], affinity: {podAntiAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
     "[{topologyKey: kubernetes.io/hostname, labelSelector: {matchLabels: {a: b}}, namespaceSelector: {}}]}}}",
     "spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[].namespaceSelector",
     "types.go#L2094-L2116"),
])
def test_modern_fields_a_modern_scheduler_acts_on_are_reported_as_changing_scheduling(spec: str, field: str,
                                                                                      why: str) -> None:
    _, report = load_cluster_dump("kind: List\nitems:\n" + _NODE + f"- {{kind: Pod, metadata: {{name: p}}, spec: {spec}}}\n")
    found = report.find("Pod", field)
    assert found is not None and found.part == SCHEDULING and found.count == 1 and why in found.why, report.summary()
    assert found.examples == ("default/p",) and report.pending_pods == 1


def test_a_field_inside_one_kschedlearn_drops_is_still_told_apart() -> None:
    # livenessProbe existed in 1.6 (not modelled); its grpc action is 1.24+ (1.6 did not have it)
    _, report = load_cluster_dump("kind: List\nitems:\n" + _NODE + "- {kind: Pod, metadata: {name: p}, spec: "
                                  "{containers: [{name: c, livenessProbe: {grpc: {port: 80}, periodSeconds: 5}}]}}\n")
    assert report.find("Pod", "spec.containers[].livenessProbe").part == NOT_MODELLED
    assert report.find("Pod", "spec.containers[].livenessProbe.grpc").part == NOT_IN_1_6
    assert report.find("Pod", "spec.containers[].livenessProbe.periodSeconds") is None


def _ghost_dump(anti_affinity: bool) -> str:
    aff = (", affinity: {podAntiAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [{labelSelector: "
           "{matchLabels: {app: web}}, topologyKey: kubernetes.io/hostname}]}}") if anti_affinity else ""
    return ("kind: List\nitems:\n"
            "- {kind: Node, metadata: {name: n1, labels: {kubernetes.io/hostname: n1}}, status: {allocatable: "
            "{cpu: '2', memory: 4Gi, pods: '110'}, conditions: [{type: Ready, status: 'True'}]}}\n"
            f"- {{kind: Pod, metadata: {{name: ghost, labels: {{app: g}}}}, spec: {{nodeName: gone, containers: "
            f"[{{name: c, resources: {{requests: {{cpu: '1500m'}}}}}}]{aff}}}}}\n"
            "- {kind: Pod, metadata: {name: other, labels: {app: other}}, spec: {containers: [{name: c, "
            "resources: {requests: {cpu: '1'}}}]}}\n")


@pytest.mark.parametrize("anti_affinity", [False, True], ids=["plain", "with-anti-affinity"])
def test_what_the_report_says_of_a_pod_on_a_missing_node_is_what_1_6_does(anti_affinity: bool) -> None:
    sim = Simulation.from_manifests(_ghost_dump(anti_affinity), seed=1, snapshots=False)
    assert sim.import_report.ghost_pods == (("default/ghost", "gone"),)
    sim.run_until(lambda e: e.time > 3)
    attempt = sim.decision("default/other")[-1]
    if not anti_affinity:
        # no node counts the ghost's 1500m: n1 (2000m) takes the 1000m pod
        assert attempt.host == "n1"
    else:
        # "other" does not match the ghost's anti-affinity, yet 1.6 cannot place it anywhere: the
        # ghost's NodeInfo has no node, so the metadata is nil and the slow path's GetNodeInfo fails
        assert attempt.host == "" and [v.node for v in attempt.verdicts] == ["n1"]
        assert dict(attempt.verdicts[0].predicates)["MatchInterPodAffinity"] == ("MatchInterPodAffinity",)
def test_pods_with_the_same_spec_share_one_decoded_spec_and_load_as_before(monkeypatch, tmp_path):
    """The loader's spec sharing changes nothing a reader sees: the same objects (equal), the
    same report (the spec's findings are classified once per spec, too); replicas with the same
    spec hold the very same PodSpec value."""
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
            m.setattr(cluster_dump._SharedSpecs, "decode", lambda self, cls, doc, where, key: cls.from_dict(doc, path=where))
            m.setattr(cluster_dump._SharedSpecs, "classify",
                      lambda self, kind, doc, cls, key: cluster_dump.classify(kind, doc, cls))
            plain_scenario, plain_report = cluster_dump.load_cluster_dump(path)
        assert shared_scenario == plain_scenario
        assert shared_report == plain_report
    pods = [o for o in shared_scenario.objects if type(o).kind == "Pod"]
    pending = [p for p in pods if not p.spec.node_name]
    assert len(pending) == 4 and all(p.spec is pending[0].spec for p in pending)
    assert any("topologySpreadConstraints" in str(f) for f in shared_report.changes_scheduling + shared_report.not_in_1_6)


def test_replicas_differing_in_name_and_uid_share_their_decoded_fields_and_load_as_before(monkeypatch, tmp_path):
    """Pods whose fields but the spec differ only in ``metadata.name`` / ``uid`` are decoded once
    (``_SharedSpecs.rests``) and load equal, field by field, to decoding each whole; pods that
    differ otherwise (labels, status), lack a uid, or carry a name or uid that is no string (the
    whole decode reports it, as before) take their own decode."""
    import json as _json
    import sys as _sys

    from kschedlearn.api.v1._gojson import _GO_JSON
    from kschedlearn.scenarios import cluster_dump

    def pod(i: int) -> dict:
        return {"apiVersion": "v1", "kind": "Pod",
                "metadata": {"name": f"r-{i}", "namespace": "default", "uid": f"uid-{i}", "labels": {"app": "a"},
                             "ownerReferences": [{"apiVersion": "v1", "kind": "ReplicationController", "name": "rc",
                                                  "uid": "uid-rc", "controller": True}]},
                "spec": {"containers": [{"name": "c", "image": "x", "resources": {"requests": {"cpu": "100m"}}}]},
                "status": {"phase": "Running"}}

    node = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1"},
            "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}}}
    pods = [pod(i) for i in range(8)]
    pods[2]["metadata"]["labels"] = {"app": "b"}
    pods[3]["status"] = {"phase": "Pending"}
    del pods[4]["metadata"]["uid"]
    pods[5]["metadata"]["uid"] = 5
    pods[6]["metadata"]["name"] = "x" * 300  # (too long to be interned; refused by validation)
    dump = tmp_path / "replicas.json"
    dump.write_text(_json.dumps({"apiVersion": "v1", "kind": "List", "items": [node, *pods]}), encoding="utf-8")
    hits = []
    real_evolve = cluster_dump.attrs.evolve

    def counting(obj, **changes):
        if "metadata" in changes and "spec" in changes:
            hits.append(changes["metadata"].name)
        return real_evolve(obj, **changes)

    with monkeypatch.context() as m:
        m.setattr(cluster_dump.attrs, "evolve", counting)
        shared_scenario, shared_report = cluster_dump.load_cluster_dump(dump)
    with monkeypatch.context() as m:
        m.setattr(cluster_dump._SharedSpecs, "decode", lambda self, cls, doc, where, key: cls.from_dict(doc, path=where))
        plain_scenario, plain_report = cluster_dump.load_cluster_dump(dump)
    assert shared_scenario == plain_scenario and shared_report == plain_report
    loaded = {o.metadata.name: o for o in shared_scenario.objects if type(o).kind == "Pod"}
    plain = {o.metadata.name: o for o in plain_scenario.objects if type(o).kind == "Pod"}
    assert loaded.keys() == plain.keys() == {f"r-{i}" for i in (0, 1, 2, 3, 4, 7)}
    for name, obj in loaded.items():
        assert attrs.asdict(obj, recurse=True) == attrs.asdict(plain[name], recurse=True)
        assert obj.metadata.name is _sys.intern(name)
    assert hits == ["x" * 300, "r-7"]  # from r-1's decode (r-0, its spec's first pod, is decoded whole)
    assert any("metadata.uid" in s.reason for s in shared_report.skipped_items)
    token = _GO_JSON.set(True)
    try:
        assert cluster_dump._rest_key({"metadata": {"name": "a"}}) is None
    finally:
        _GO_JSON.reset(token)
    assert cluster_dump._rest_key({"metadata": {"namespace": "a"}}) is None
    assert cluster_dump._rest_key({"metadata": {"name": "a", "uid": "u"}})[1] == (("name", "a"), ("uid", "u"))
