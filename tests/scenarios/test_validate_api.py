"""A scenario's objects get 1.6's API validation when the file is loaded, before anything runs.

Go: the create strategies' ``Validate`` (pkg/api/validation, ``ValidatePod`` / ``ValidateNode``)
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/api/validation/validation.go
The embedded API server runs the same validation on every create (tests/api/test_validation.py
holds the table); here the point is that a scenario file with such an object is refused up front,
naming the file, the entry, the object and the field, with the API server's own message.
"""

from __future__ import annotations

import pytest

from kschedlearn.scenarios.scenario import ScenarioError, parse_scenario

NODE = ("  - {kind: Node, apiVersion: v1, metadata: {name: node-1}, status: {allocatable: {cpu: '2', "
        "memory: 4Gi, pods: '110'}, conditions: [{type: Ready, status: 'True'}]}}\n")


def _pod(spec: str, meta: str = "{name: web-1}") -> str:
    return f"  - {{kind: Pod, apiVersion: v1, metadata: {meta}, spec: {spec}}}\n"


CASES = [
    pytest.param("objects:\n" + NODE + _pod("{containers: [{name: c, image: i, resources: {requests: {cpu: '-1'}}}]}"),
                 'bad.yaml: objects[1]: Pod "web-1" is invalid: spec.containers[0].resources.requests[cpu]: '
                 'Invalid value: "-1": must be greater than or equal to 0', id="negative-cpu"),
    pytest.param("objects:\n" + _pod("{containers: [{name: c, image: i, ports: [{containerPort: 80, hostPort: 70000}]}]}"),
                 'bad.yaml: objects[0]: Pod "web-1" is invalid: spec.containers[0].ports[0].hostPort: '
                 "Invalid value: 70000: must be between 1 and 65535, inclusive", id="host-port-70000"),
    pytest.param("objects:\n" + _pod("{containers: [{name: c, image: i}]}", "{name: web-1, labels: {'a b': x}}"),
                 'bad.yaml: objects[0]: Pod "web-1" is invalid: metadata.labels: Invalid value: "a b"', id="bad-label-key"),
    pytest.param("objects:\n" + _pod("{containers: [{name: c, image: i}]}", "{name: web-1, namespace: Bad_NS!}"),
                 'bad.yaml: objects[0]: Pod "web-1" is invalid: metadata.namespace: Invalid value: "Bad_NS!"',
                 id="bad-namespace"),
    pytest.param("objects:\n" + _pod("{containers: [{name: c, image: i}], affinity: {nodeAffinity: "
                                     "{requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: "
                                     "[{matchExpressions: [{key: k, operator: Foo, values: [v]}]}]}}}}"),
                 'bad.yaml: objects[0]: Pod "web-1" is invalid: spec.affinity.nodeAffinity.'
                 "requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].operator: "
                 'Invalid value: "Foo": not a valid selector operator', id="affinity-operator-Foo"),
    pytest.param("objects:\n" + NODE + "timeline:\n  - at: 1\n    create: {kind: Pod, apiVersion: v1, metadata: "
                 "{name: late}, spec: {containers: [{name: c, image: i, resources: {requests: {memory: '-5Mi'}}}]}}\n",
                 'bad.yaml: timeline[0].create: Pod "late" is invalid: spec.containers[0].resources.requests[memory]: '
                 'Invalid value: "-5Mi": must be greater than or equal to 0', id="timeline-create"),
    pytest.param("objects:\n  - {kind: Node, apiVersion: v1, metadata: {name: node-1}, spec: {taints: "
                 "[{key: k, value: v, effect: Sometimes}]}}\n",
                 'bad.yaml: objects[0]: Node "node-1" is invalid: spec.taints[0].effect: Unsupported value: "Sometimes"',
                 id="node-taint-effect"),
]


@pytest.mark.parametrize(("body", "message"), CASES)
def test_invalid_object_is_refused_when_the_scenario_is_loaded(body: str, message: str) -> None:
    with pytest.raises(ScenarioError) as info:
        parse_scenario("name: x\n" + body, source="bad.yaml")
    assert str(info.value).startswith(message), str(info.value)
    assert "\n" not in str(info.value)


def test_valid_objects_still_load() -> None:
    scenario = parse_scenario("name: x\nobjects:\n" + NODE + _pod("{containers: [{name: c, image: i}]}"),
                              source="ok.yaml")
    assert [type(o).kind for o in scenario.objects] == ["Node", "Pod"]
