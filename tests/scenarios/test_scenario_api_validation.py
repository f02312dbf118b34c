"""Scenario loading runs 1.6's API validation up front (``scenarios.validate.api_validation_error``).

Go: the API server's validation (pkg/api/validation/validation.go, v1.6.1) that the embedded API
server runs on create; a scenario object it would reject with a 422 is reported when the file is
loaded, naming the file, the entry (``objects[i]`` or ``timeline[i].create``), the object and
the field with 1.6's message - before any simulated process starts.
"""

from __future__ import annotations

import pytest

from kschedlearn import Simulation
from kschedlearn.scenarios.scenario import ScenarioError, bundled_names, load_scenario

NODE = "  - {kind: Node, metadata: {name: node-1}, status: {allocatable: {cpu: '2', memory: 4Gi, pods: '110'}}}\n"


def _pod(name: str = "web-1", container: str = "{name: c}", meta: str = "", spec: str = "") -> str:
    return f"  - {{kind: Pod, metadata: {{name: {name}{meta}}}, spec: {{containers: [{container}]{spec}}}}}\n"


CASES = [
    ("negative cpu", _pod(container="{name: c, resources: {requests: {cpu: '-1'}}}"), "objects[1]",
     'Pod "web-1" is invalid: spec.containers[0].resources.requests[cpu]: Invalid value: "-1": '
     "must be greater than or equal to 0"),
    ("hostPort 70000", _pod(container="{name: c, ports: [{containerPort: 80, hostPort: 70000}]}"), "objects[1]",
     'Pod "web-1" is invalid: spec.containers[0].ports[0].hostPort: Invalid value: 70000: '
     "must be between 1 and 65535, inclusive"),
    ("bad label value", _pod(meta=", labels: {app: 'a b'}"), "objects[1]",
     'Pod "web-1" is invalid: metadata.labels: Invalid value: "a b": a valid label must be an empty string or '
     "consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "
     "character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is "
     "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"),
    ("bad namespace", _pod(meta=", namespace: Bad_NS"), "objects[1]",
     ('Pod "web-1" is invalid: metadata.namespace: Invalid value: "Bad_NS": a DNS-1123 label must consist',)),
    ("affinity operator Foo", _pod(spec=", affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
                                        "{nodeSelectorTerms: [{matchExpressions: [{key: a, operator: Foo}]}]}}}"),
     "objects[1]",
     ('Pod "web-1" is invalid: spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution'
      '.nodeSelectorTerms[0].matchExpressions[0].operator: Invalid value: "Foo": not a valid selector operator',)),
    ("unknown container resource", _pod(container="{name: c, resources: {limits: {pods: '1'}}}"), "objects[1]",
     'Pod "web-1" is invalid: spec.containers[0].resources.limits[pods]: Invalid value: "pods": '
     "must be a standard resource for containers"),
    ("affinity annotation Go cannot decode",
     _pod(meta=", annotations: {scheduler.alpha.kubernetes.io/affinity: '{\"podAffinity\": []}'}"), "objects[1]",
     'Pod "web-1" is invalid: metadata.annotations: Invalid value: "scheduler.alpha.kubernetes.io/affinity": '
     "json: cannot unmarshal array into Go value of type api.PodAffinity"),
    ("no containers", "  - {kind: Pod, metadata: {name: web-1}}\n", "objects[1]",
     'Pod "web-1" is invalid: spec.containers: Required value'),
    ("node with negative capacity", "  - {kind: Node, metadata: {name: node-2}, status: {capacity: {memory: -1Gi}}}\n",
     "objects[1]", 'Node "node-2" is invalid: status.capacity[memory]: Invalid value: "-1Gi": '
                   "must be greater than or equal to 0"),
]


@pytest.mark.parametrize(("entry", "where", "message"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_a_bad_object_is_reported_when_the_file_is_loaded(tmp_path, entry, where, message):
    path = tmp_path / "bad-cluster.yaml"
    path.write_text("name: bad\nobjects:\n" + NODE + entry, encoding="utf-8")
    with pytest.raises(ScenarioError) as info:
        Simulation.from_scenario(path)  # nothing is built: the error comes from loading
    text = str(info.value)
    assert text.startswith(f"bad-cluster.yaml: {where}: ")
    if isinstance(message, tuple):
        for fragment in message:
            assert fragment in text, text
    else:
        assert text == f"bad-cluster.yaml: {where}: {message}"


def test_a_timeline_create_is_checked_too(tmp_path):
    path = tmp_path / "late.yaml"
    path.write_text("name: late\nobjects:\n" + NODE + "timeline:\n  - at: 5\n    create:\n"
                    "      {kind: Pod, metadata: {name: late-1}, spec: {containers: [{name: c, resources: "
                    "{requests: {memory: '-5'}}}]}}\n", encoding="utf-8")
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    assert str(info.value) == (
        'late.yaml: timeline[0].create: Pod "late-1" is invalid: spec.containers[0].resources.requests[memory]: '
        'Invalid value: "-5": must be greater than or equal to 0')


def test_a_namespaced_object_without_a_namespace_is_checked_as_created_in_default(tmp_path):
    path = tmp_path / "ok.yaml"
    path.write_text("name: ok\nobjects:\n" + NODE + _pod(), encoding="utf-8")
    assert [o.metadata.name for o in load_scenario(path).objects] == ["node-1", "web-1"]


@pytest.mark.parametrize("name", bundled_names())
def test_every_bundled_scenario_passes_1_6_validation(name):
    assert load_scenario(name).objects is not None
