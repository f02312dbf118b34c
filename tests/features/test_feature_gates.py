"""Feature gates as in 1.6: one gate per simulated scheduler process, set by --feature-gates
(or the scenario's / Simulation's ``feature_gates``), read where 1.6 reads DefaultFeatureGate.

With ``AffinityInAnnotations=true`` ReconcileAffinity honours the alpha annotation
``scheduler.alpha.kubernetes.io/affinity`` (reconcile_affinity.go#L36); off (the default) it
is ignored.
"""

from __future__ import annotations

import json

import pytest

from kschedlearn import Simulation
from kschedlearn.api.v1 import ObjectMeta, Pod
from kschedlearn.features import AFFINITY_IN_ANNOTATIONS, FeatureGate, default_feature_gate, host_feature_gate
from kschedlearn.scenarios.scenario import parse_scenario
from kschedlearn.scheduler.schedulercache.reconcile_affinity import reconcile_affinity
from kschedlearn import sim

AFFINITY = json.dumps({"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
    "nodeSelectorTerms": [{"matchExpressions": [{"key": "disk", "operator": "In", "values": ["ssd"]}]}]}}})

SCENARIO = """name: gates
description: a pod whose node affinity is only in the alpha annotation
duration: 10
follow: default/db-1
{top}
schedulers:
  - {{name: scheduler-0, flags: [{flags}]}}
  - {{name: scheduler-1, flags: ["--leader-elect=false", "--scheduler-name=other"]}}
objects:
  - kind: Node
    metadata: {{name: ssd-node, labels: {{kubernetes.io/hostname: ssd-node, disk: ssd}}}}
    status: {{allocatable: {{cpu: "2", memory: 4Gi, pods: "110"}}, conditions: [{{type: Ready, status: "True"}}]}}
  - kind: Node
    metadata: {{name: big-node, labels: {{kubernetes.io/hostname: big-node}}}}
    status: {{allocatable: {{cpu: "8", memory: 16Gi, pods: "110"}}, conditions: [{{type: Ready, status: "True"}}]}}
timeline:
  - at: 2
    create:
      kind: Pod
      metadata: {{name: db-1, namespace: default, annotations: {{scheduler.alpha.kubernetes.io/affinity: '{aff}'}}}}
      spec: {{containers: [{{name: c, image: db, resources: {{requests: {{cpu: "1", memory: 1Gi}}}}}}]}}
"""


def _placement(top: str = "", flags: str = '"--leader-elect=false"', **kwargs) -> tuple[str, Simulation]:
    scenario = parse_scenario(SCENARIO.format(top=top, flags=flags, aff=AFFINITY), source="gates.yaml")
    s = Simulation(scenario=scenario, seed=1, **kwargs)
    s.run_until(lambda e: False)
    assert s.world.runtime.crashes == []
    (pod,) = [p for p in s.world.api.storage.items("pods") if p.metadata.name == "db-1"]
    return pod.spec.node_name, s


def test_gate_off_ignores_the_annotation():
    # LeastRequested/BalancedResourceAllocation prefer the big node; the annotation is ignored
    assert _placement()[0] == "big-node"


@pytest.mark.parametrize("how", ["flag", "scenario", "simulation"])
def test_gate_on_honours_the_annotation(how):
    if how == "flag":
        node, s = _placement(flags='"--leader-elect=false", "--feature-gates=AffinityInAnnotations=true"')
    elif how == "scenario":
        node, s = _placement(top="feature_gates: AffinityInAnnotations=true")
    else:
        node, s = _placement(feature_gates="AffinityInAnnotations=true")
    assert node == "ssd-node"
    # each replica's process has its own gate; the host's is untouched
    gates = {name: r.process.feature_gate for name, r in s.world.replicas.items()}
    assert gates["scheduler-0"].enabled(AFFINITY_IN_ANNOTATIONS)
    assert gates["scheduler-0"] is not gates["scheduler-1"]
    assert gates["scheduler-1"].enabled(AFFINITY_IN_ANNOTATIONS) is (how != "flag")
    assert not host_feature_gate().enabled(AFFINITY_IN_ANNOTATIONS)


def test_all_alpha_turns_the_gate_on():
    assert _placement(flags='"--leader-elect=false", "--feature-gates=AllAlpha=true"')[0] == "ssd-node"
    assert _placement(flags='"--leader-elect=false", "--feature-gates=AllAlpha=true,AffinityInAnnotations=false"')[0] == "big-node"


def test_reconcile_affinity_reads_the_running_process_gate():
    pod = Pod(metadata=ObjectMeta(name="p", annotations={"scheduler.alpha.kubernetes.io/affinity": AFFINITY}))
    assert reconcile_affinity(pod) is None  # host gate: defaults
    with host_feature_gate().set_for("AffinityInAnnotations=true"):
        assert reconcile_affinity(pod) is not None
    assert reconcile_affinity(pod) is None
    seen: dict[str, object] = {}
    rt = sim.Runtime(seed=0)
    on, off = rt.new_process("on"), rt.new_process("off")

    def check(name: str) -> None:
        if name == "on":
            default_feature_gate().set("AffinityInAnnotations=true")
        seen[name] = reconcile_affinity(pod)

    rt.go(check, "on", process=on)
    rt.go(check, "off", process=off)
    rt.run()
    assert seen["on"] is not None and seen["off"] is None
    assert isinstance(on.feature_gate, FeatureGate) and off.feature_gate is not on.feature_gate
