"""Predicate precomputations belong to the plugin registry each simulated scheduler owns.

A ServiceAffinity policy registers its metadata precomputation when its predicate is built
(Go: predicates.RegisterPredicatePrecomputation, a package variable of the one Go process).
Two Simulations in one Python process are two clusters: the precomputation of one must never
run on the other's metadata. Before the fix, a module-level table let the second simulation's
hook (bound to its own listers) replace the first's, so the first then looked up a pod of the
other cluster and its node ("node not found") instead of placing the pod.
"""

from __future__ import annotations

from pathlib import Path

from kschedlearn import Simulation

SCENARIO = """name: service-affinity-{label}
description: ServiceAffinity on the {label} label; web-0 already runs on {first}, so web-1 must join its {label}
duration: 10
follow: default/web-1
files:
  policy.json: '{{"kind": "Policy", "apiVersion": "v1", "predicates": [{{"name": "PodFitsResources"}},
    {{"name": "Affinity", "argument": {{"serviceAffinity": {{"labels": ["{label}"]}}}}}}],
    "priorities": [{{"name": "LeastRequestedPriority", "weight": 1}}]}}'
schedulers:
  - {{name: scheduler-0, flags: ["--leader-elect=false", "--policy-config-file={{files}}/policy.json"]}}
objects:
  - kind: Node
    metadata: {{name: {first}, labels: {{kubernetes.io/hostname: {first}, {label}: one}}}}
    status: {{allocatable: {{cpu: "4", memory: 8Gi, pods: "110"}}, conditions: [{{type: Ready, status: "True"}}]}}
  - kind: Node
    metadata: {{name: {second}, labels: {{kubernetes.io/hostname: {second}, {label}: two}}}}
    status: {{allocatable: {{cpu: "4", memory: 8Gi, pods: "110"}}, conditions: [{{type: Ready, status: "True"}}]}}
  - kind: Service
    metadata: {{name: web, namespace: default}}
    spec: {{selector: {{app: web}}, ports: [{{port: 80}}]}}
  - kind: Pod
    metadata: {{name: web-0, namespace: default, labels: {{app: web}}}}
    spec: {{nodeName: {first}, containers: [{{name: c, image: nginx, resources: {{requests: {{cpu: "3"}}}}}}]}}
timeline:
  - at: 3
    create:
      kind: Pod
      metadata: {{name: web-1, namespace: default, labels: {{app: web}}}}
      spec: {{containers: [{{name: c, image: nginx}}]}}
"""


def _sim(tmp_path: Path, label: str, first: str, second: str) -> Simulation:
    path = tmp_path / f"{label}.yaml"
    path.write_text(SCENARIO.format(label=label, first=first, second=second), encoding="utf-8")
    return Simulation.from_scenario(path, seed=1)


def _outcome(sim: Simulation) -> tuple[str, list[str]]:
    (pod,) = [p for p in sim.world.api.storage.items("pods") if p.metadata.name == "web-1"]
    failures = [e.message for e in sim.world.api.storage.items("events") if e.reason == "FailedScheduling"]
    return pod.spec.node_name, failures


def test_two_simulations_with_different_service_affinity_policies_do_not_interfere(tmp_path):
    zone = _sim(tmp_path, "zone", "a-1", "a-2")
    # The zone cluster's scheduler is built (its predicate and precomputation registered) ...
    zone.run_until(lambda e: e.time >= 2)
    # ... then a whole other cluster with a rack policy of the same name runs to its end ...
    rack = _sim(tmp_path, "rack", "b-1", "b-2")
    rack.run_until(lambda e: False)
    # ... and the zone cluster goes on: it must schedule with its own precomputation only.
    zone.run_until(lambda e: False)
    # web-0 (3 of 4 CPUs) sits on the first node; the spread priority alone would pick the
    # second, ServiceAffinity pins web-1 to the first node's zone / rack.
    assert _outcome(zone) == ("a-1", [])
    assert _outcome(rack) == ("b-1", [])
    assert zone.world.runtime.crashes == [] and rack.world.runtime.crashes == []


def test_each_scheduler_process_owns_its_precomputations(tmp_path):
    zone = _sim(tmp_path, "zone", "a-1", "a-2")
    zone.run_until(lambda e: False)
    rack = _sim(tmp_path, "rack", "b-1", "b-2")
    rack.run_until(lambda e: False)
    from kschedlearn.scheduler.algorithm.predicates import predicates as preds

    assert _outcome(zone)[0] == "a-1" and _outcome(rack)[0] == "b-1"
    assert "Affinity" not in preds.predicate_precomputations()  # nothing leaks to the module table
