"""1.6's API validation on create and update, with 1.6's exact messages (422 Invalid).

Go: pkg/api/validation/validation.go (ValidatePod, ValidatePodSpec, validateContainers,
validateContainerPorts, ValidateResourceRequirements, validateAffinity, validateTolerations,
ValidateNode), staging/.../apimachinery/pkg/api/validation/objectmeta.go (ValidateObjectMeta) and
staging/.../apimachinery/pkg/util/validation/validation.go (the name rules and their texts) at
v1.6.1. Rows are kschedlearn's, written from those functions; ids name the rule.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from kschedlearn.api.v1 import Node, Pod
from kschedlearn.apimachinery.api.errors import InvalidError
from kschedlearn.apiserver import APIServer
from kschedlearn.sim import Runtime

DNS_LABEL = ("a DNS-1123 label must consist of lower case alphanumeric characters or '-', and must start and end "
             "with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is "
             "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')")
DNS_SUBDOMAIN = ("a DNS-1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start "
                 "and end with an alphanumeric character (e.g. 'example.com', regex used for validation is "
                 "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')")
QNAME = ("name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
         "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
         "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')")
LABEL_VALUE = ("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and "
               "must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', "
               "regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')")
RANGE = "must be between 1 and 65535, inclusive"

BASE_POD: dict[str, Any] = {
    "kind": "Pod", "apiVersion": "v1", "metadata": {"name": "web-1", "namespace": "default", "labels": {"app": "web"}},
    "spec": {"containers": [{"name": "web", "image": "nginx",
                             "resources": {"requests": {"cpu": "100m", "memory": "64Mi"}},
                             "ports": [{"containerPort": 80}]}]},
}


def pod_with(path: str, value: Any) -> dict[str, Any]:
    """BASE_POD with one value set at a dotted path (``[n]`` indexes lists); value None deletes."""
    doc = copy.deepcopy(BASE_POD)
    *parents, last = path.replace("]", "").replace("[", ".").split(".")
    cur: Any = doc
    for p in parents:
        cur = cur[int(p)] if p.isdigit() else cur.setdefault(p, {})
    if value is None:
        del cur[int(last) if last.isdigit() else last]
    elif last.isdigit():
        cur[int(last)] = value
    else:
        cur[last] = value
    return doc


def ctr(**fields: Any) -> list[dict[str, Any]]:
    return [{**BASE_POD["spec"]["containers"][0], **fields}]


AFF = "spec.affinity"
NA_REQ = f"{AFF}.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution"
POD_ROWS: list[tuple[str, dict[str, Any], str]] = [
    ("ObjectMeta-name-required", pod_with("metadata.name", None), "metadata.name: Required value: name or generateName is required"),
    ("ObjectMeta-name-uppercase", pod_with("metadata.name", "Web_1"), f'metadata.name: Invalid value: "Web_1": {DNS_SUBDOMAIN}'),
    ("ObjectMeta-name-trailing-dash", pod_with("metadata.name", "web-"), f'metadata.name: Invalid value: "web-": {DNS_SUBDOMAIN}'),
    ("ObjectMeta-name-too-long", pod_with("metadata.name", "a" * 254),
     f'metadata.name: Invalid value: "{"a" * 254}": must be no more than 253 characters'),
    ("ObjectMeta-namespace-invalid", pod_with("metadata.namespace", "Bad_NS!"), f'metadata.namespace: Invalid value: "Bad_NS!": {DNS_LABEL}'),
    ("ObjectMeta-namespace-dots", pod_with("metadata.namespace", "a.b"), f'metadata.namespace: Invalid value: "a.b": {DNS_LABEL}'),
    ("ValidateLabels-bad-key", pod_with("metadata.labels", {"-app": "web"}), f'metadata.labels: Invalid value: "-app": {QNAME}'),
    ("ValidateLabels-empty-prefix", pod_with("metadata.labels", {"/app": "web"}), 'metadata.labels: Invalid value: "/app": prefix part must be non-empty'),
    ("ValidateLabels-bad-prefix", pod_with("metadata.labels", {"Example.com/app": "web"}),
     f'metadata.labels: Invalid value: "Example.com/app": prefix part {DNS_SUBDOMAIN}'),
    ("ValidateLabels-bad-value", pod_with("metadata.labels", {"app": "web app"}), f'metadata.labels: Invalid value: "web app": {LABEL_VALUE}'),
    ("ValidateLabels-value-too-long", pod_with("metadata.labels", {"app": "v" * 64}),
     f'metadata.labels: Invalid value: "{"v" * 64}": must be no more than 63 characters'),
    ("ValidateAnnotations-bad-key", pod_with("metadata.annotations", {"a b": "x"}),
     f'metadata.annotations: Invalid value: "a b": {QNAME.replace("MyName", "MyName")}'),
    ("validateContainers-required", pod_with("spec.containers", []), "spec.containers: Required value"),
    ("validateContainers-name-required", pod_with("spec.containers[0].name", None), "spec.containers[0].name: Required value"),
    ("validateContainers-name-invalid", pod_with("spec.containers[0].name", "Web"), f'spec.containers[0].name: Invalid value: "Web": {DNS_LABEL}'),
    ("validateContainers-name-duplicate", pod_with("spec.containers", ctr() + ctr(ports=[])), 'spec.containers[1].name: Duplicate value: "web"'),
    ("ValidateResourceRequirements-negative-cpu", pod_with("spec.containers[0].resources.requests.cpu", "-1"),
     'spec.containers[0].resources.requests[cpu]: Invalid value: "-1": must be greater than or equal to 0'),
    ("ValidateResourceRequirements-negative-memory", pod_with("spec.containers[0].resources.requests.memory", "-64Mi"),
     'spec.containers[0].resources.requests[memory]: Invalid value: "-64Mi": must be greater than or equal to 0'),
    ("ValidateResourceRequirements-negative-limit", pod_with("spec.containers[0].resources.limits", {"cpu": "-500m"}),
     '[spec.containers[0].resources.limits[cpu]: Invalid value: "-500m": must be greater than or equal to 0, '
     'spec.containers[0].resources.limits: Invalid value: "-500m": must be greater than or equal to cpu request]'),
    ("ValidateResourceRequirements-limit-below-request", pod_with("spec.containers[0].resources.limits", {"cpu": "50m"}),
     'spec.containers[0].resources.limits: Invalid value: "50m": must be greater than or equal to cpu request'),
    ("ValidateResourceRequirements-gpu-must-equal", pod_with("spec.containers[0].resources",
                                                             {"requests": {"alpha.kubernetes.io/nvidia-gpu": "1"},
                                                              "limits": {"alpha.kubernetes.io/nvidia-gpu": "2"}}),
     'spec.containers[0].resources.requests: Invalid value: "1": must be equal to alpha.kubernetes.io/nvidia-gpu limit'),
    ("validateContainerPorts-containerPort-required", pod_with("spec.containers[0].ports", [{"containerPort": 0}]),
     "spec.containers[0].ports[0].containerPort: Required value"),
    ("validateContainerPorts-containerPort-range", pod_with("spec.containers[0].ports", [{"containerPort": 70000}]),
     f"spec.containers[0].ports[0].containerPort: Invalid value: 70000: {RANGE}"),
    ("validateContainerPorts-hostPort-range", pod_with("spec.containers[0].ports", [{"containerPort": 80, "hostPort": 70000}]),
     f"spec.containers[0].ports[0].hostPort: Invalid value: 70000: {RANGE}"),
    ("validateContainerPorts-hostPort-negative", pod_with("spec.containers[0].ports", [{"containerPort": 80, "hostPort": -1}]),
     f"spec.containers[0].ports[0].hostPort: Invalid value: -1: {RANGE}"),
    ("validateContainerPorts-protocol", pod_with("spec.containers[0].ports", [{"containerPort": 80, "protocol": "SCTP"}]),
     'spec.containers[0].ports[0].protocol: Unsupported value: "SCTP": supported values: TCP, UDP'),
    ("validateContainerPorts-duplicate-name", pod_with("spec.containers[0].ports", [{"containerPort": 80, "name": "http"},
                                                                                 {"containerPort": 81, "name": "http"}]),
     'spec.containers[0].ports[1].name: Duplicate value: "http"'),
    ("checkHostPortConflicts", pod_with("spec.containers", ctr(ports=[{"containerPort": 80, "hostPort": 8080}])
                                        + [{"name": "side", "ports": [{"containerPort": 81, "hostPort": 8080}]}]),
     'spec.containers: Duplicate value: "8080/TCP"'),
    ("validateRestartPolicy", pod_with("spec.restartPolicy", "Sometimes"),
     'spec.restartPolicy: Unsupported value: "Sometimes": supported values: Always, OnFailure, Never'),
    ("validateDNSPolicy", pod_with("spec.dnsPolicy", "Google"),
     'spec.dnsPolicy: Unsupported value: "Google": supported values: ClusterFirstWithHostNet, ClusterFirst, Default'),
    ("ValidatePodSpec-nodeSelector-value", pod_with("spec.nodeSelector", {"disk": "s s d"}), f'spec.nodeSelector: Invalid value: "s s d": {LABEL_VALUE}'),
    ("ValidatePodSpec-activeDeadlineSeconds", pod_with("spec.activeDeadlineSeconds", 0),
     "spec.activeDeadlineSeconds: Invalid value: 0: must be greater than 0"),
    ("ValidateNodeSelectorRequirement-operator", pod_with(AFF, {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
        "nodeSelectorTerms": [{"matchExpressions": [{"key": "zone", "operator": "Foo", "values": ["a"]}]}]}}}),
     f'{NA_REQ}.nodeSelectorTerms[0].matchExpressions[0].operator: Invalid value: "Foo": not a valid selector operator'),
    ("ValidateNodeSelectorRequirement-in-needs-values", pod_with(AFF, {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
        "nodeSelectorTerms": [{"matchExpressions": [{"key": "zone", "operator": "In"}]}]}}}),
     f"{NA_REQ}.nodeSelectorTerms[0].matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'"),
    ("ValidateNodeSelectorRequirement-exists-forbids-values", pod_with(AFF, {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
        "nodeSelectorTerms": [{"matchExpressions": [{"key": "zone", "operator": "Exists", "values": ["a"]}]}]}}}),
     f"{NA_REQ}.nodeSelectorTerms[0].matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'"),
    ("ValidateNodeSelectorRequirement-gt-single-value", pod_with(AFF, {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
        "nodeSelectorTerms": [{"matchExpressions": [{"key": "cores", "operator": "Gt", "values": ["1", "2"]}]}]}}}),
     f"{NA_REQ}.nodeSelectorTerms[0].matchExpressions[0].values: Required value: must be specified single value when `operator` is 'Lt' or 'Gt'"),
    ("ValidateNodeSelectorTerm-empty", pod_with(AFF, {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
        "nodeSelectorTerms": [{"matchExpressions": []}]}}}),
     f"{NA_REQ}.nodeSelectorTerms[0].matchExpressions: Required value: must have at least one node selector requirement"),
    ("validateAffinity-preferred-weight", pod_with(AFF, {"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
        {"weight": 101, "preference": {"matchExpressions": [{"key": "zone", "operator": "Exists"}]}}]}}),
     f"{AFF}.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 101: must be in the range 1-100"),
    ("validatePodAffinityTerm-topologyKey-required", pod_with(AFF, {"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
        {"labelSelector": {"matchLabels": {"app": "db"}}}]}}),
     f"{AFF}.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Required value: "
     "can only be empty for PreferredDuringScheduling pod anti affinity"),
    ("validatePodAffinityTerm-selector-operator", pod_with(AFF, {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
        {"labelSelector": {"matchExpressions": [{"key": "app", "operator": "Foo", "values": ["x"]}]},
         "topologyKey": "kubernetes.io/hostname"}]}}),
     f'{AFF}.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].matchExpressions.matchExpressions[0].operator: '
     'Invalid value: "Foo": not a valid selector operator'),
    ("validatePodAffinityTerm-namespace", pod_with(AFF, {"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
        {"labelSelector": {}, "namespaces": ["Bad_NS"], "topologyKey": "zone"}]}}),
     f'{AFF}.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].namespace: Invalid value: "Bad_NS": {DNS_LABEL}'),
    ("validateTolerations-empty-key-needs-exists", pod_with("spec.tolerations", [{"operator": "Equal", "value": "x"}]),
     'spec.tolerations[0].operator: Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"'),
    ("validateTolerations-operator", pod_with("spec.tolerations", [{"key": "k", "operator": "Like"}]),
     'spec.tolerations[0].operator: Unsupported value: "Like": supported values: Equal, Exists'),
    ("validateTolerations-exists-with-value", pod_with("spec.tolerations", [{"key": "k", "operator": "Exists", "value": "v"}]),
     "spec.tolerations[0].operator: Invalid value: \"v\": value must be empty when `operator` is 'Exists'"),
    ("validateTolerations-seconds-need-noexecute", pod_with("spec.tolerations", [{"key": "k", "operator": "Exists", "effect": "NoSchedule",
                                                                                 "tolerationSeconds": 5}]),
     "spec.tolerations[0].effect: Invalid value: \"NoSchedule\": effect must be 'NoExecute' when `tolerationSeconds` is set"),
    ("validateTolerations-effect", pod_with("spec.tolerations", [{"key": "k", "operator": "Exists", "effect": "Sometimes"}]),
     'spec.tolerations[0].effect: Unsupported value: "Sometimes": supported values: NoSchedule, PreferNoSchedule, NoExecute'),
    ("aggregate-two-errors", pod_with("metadata.name", "Web") | {"spec": {"containers": []}},
     f'[metadata.name: Invalid value: "Web": {DNS_SUBDOMAIN}, spec.containers: Required value]'),
]


def _create_pod(manifest: dict[str, Any]) -> None:
    api = APIServer(Runtime(seed=0))
    api.create("pods", manifest["metadata"].get("namespace", "default"), Pod.from_dict(manifest))


@pytest.mark.parametrize(("manifest", "errors"), [(m, e) for _, m, e in POD_ROWS], ids=[i for i, _, _ in POD_ROWS])
def test_pod_validation_on_create(manifest: dict[str, Any], errors: str) -> None:
    name = manifest["metadata"].get("name", "")
    with pytest.raises(InvalidError) as info:
        _create_pod(manifest)
    assert info.value.code == 422 and info.value.reason == "Invalid"
    assert str(info.value) == f'Pod "{name}" is invalid: {errors}'


def test_the_base_pod_is_valid_and_defaults_pass() -> None:
    _create_pod(BASE_POD)


NODE = {"kind": "Node", "apiVersion": "v1", "metadata": {"name": "node-1"},
        "status": {"capacity": {"cpu": "2"}, "allocatable": {"cpu": "2"}}}
NODE_ROWS = [
    ("ValidateNode-name", {**NODE, "metadata": {"name": "Node_1"}}, "Node_1", f'metadata.name: Invalid value: "Node_1": {DNS_SUBDOMAIN}'),
    ("ValidateNode-negative-allocatable", {**NODE, "status": {"allocatable": {"cpu": "-1"}}}, "node-1",
     'status.allocatable[cpu]: Invalid value: "-1": must be greater than or equal to 0'),
    ("ValidateNode-negative-capacity", {**NODE, "status": {"capacity": {"memory": "-1Gi"}}}, "node-1",
     'status.capacity[memory]: Invalid value: "-1Gi": must be greater than or equal to 0'),
    ("ValidateNode-taint-effect", {**NODE, "spec": {"taints": [{"key": "k", "value": "v", "effect": "Never"}]}}, "node-1",
     'metadata.taints[0].effect: Unsupported value: "Never": supported values: NoSchedule, PreferNoSchedule, NoExecute'),
    ("ValidateNode-taint-key", {**NODE, "spec": {"taints": [{"key": "k k", "effect": "NoSchedule"}]}}, "node-1",
     f'metadata.taints[0].key: Invalid value: "k k": {QNAME}'),
    # TestValidateNode's errorCases with taints (validation_test.go): 1.6 reports them under
    # metadata.taints, the path ValidateNode builds from "metadata"
    ("missing-taint-key", {**NODE, "spec": {"taints": [{"key": "", "value": "special-user-1", "effect": "NoSchedule"}]}},
     "node-1", f'[metadata.taints[0].key: Invalid value: "": name part must be non-empty, '
               f'metadata.taints[0].key: Invalid value: "": {QNAME}]'),
    ("bad-taint-key", {**NODE, "spec": {"taints": [{"key": "NoUppercaseOrSpecialCharsLike=Equals", "value": "special-user-1",
                                                   "effect": "NoSchedule"}]}},
     "node-1", f'metadata.taints[0].key: Invalid value: "NoUppercaseOrSpecialCharsLike=Equals": {QNAME}'),
    ("bad-taint-value", {**NODE, "spec": {"taints": [{"key": "dedicated", "value": "some\\bad\\value", "effect": "NoSchedule"}]}},
     "node-1", f'metadata.taints[0].value: Invalid value: "some\\\\bad\\\\value": {LABEL_VALUE}'),
    ("missing-taint-effect", {**NODE, "spec": {"taints": [{"key": "dedicated", "value": "special-user-3", "effect": ""}]}},
     "node-1", "metadata.taints[0].effect: Required value"),
    ("invalid-taint-effect", {**NODE, "spec": {"taints": [{"key": "dedicated", "value": "special-user-3",
                                                          "effect": "NoScheduleNoAdmit"}]}},
     "node-1", 'metadata.taints[0].effect: Unsupported value: "NoScheduleNoAdmit": supported values: NoSchedule, PreferNoSchedule, NoExecute'),
    ("duplicated-taints-with-same-key-effect", {**NODE, "spec": {"taints": [
        {"key": "dedicated", "value": "special-user-1", "effect": "NoSchedule"},
        {"key": "dedicated", "value": "special-user-2", "effect": "NoSchedule"}]}},
     "node-1", 'metadata.taints[1]: Duplicate value: api.Taint{Key:"dedicated", Value:"special-user-2", Effect:"NoSchedule", '
               'TimeAdded:v1.Time{Time:time.Time{sec:0, nsec:0, loc:(*time.Location)(nil)}}}: taints must be unique by key and effect pair'),
]


@pytest.mark.parametrize(("manifest", "name", "errors"), [r[1:] for r in NODE_ROWS], ids=[r[0] for r in NODE_ROWS])
def test_node_validation_on_create(manifest: dict[str, Any], name: str, errors: str) -> None:
    api = APIServer(Runtime(seed=0))
    with pytest.raises(InvalidError) as info:
        api.create("nodes", "", Node.from_dict(manifest))
    assert str(info.value) == f'Node "{name}" is invalid: {errors}'


def test_update_is_validated_too_and_nothing_is_stored() -> None:
    api = APIServer(Runtime(seed=0))
    stored = api.create("pods", "default", Pod.from_dict(BASE_POD))
    bad = Pod.from_dict(pod_with("metadata.labels", {"app": "no way"}))
    import attrs
    bad = attrs.evolve(bad, metadata=attrs.evolve(bad.metadata, resource_version=stored.metadata.resource_version))
    with pytest.raises(InvalidError, match='Pod "web-1" is invalid: metadata.labels: Invalid value: "no way"'):
        api.update("pods", "default", bad)
    assert api.get("pods", "default", "web-1").metadata.labels == {"app": "web"}


def test_the_rest_face_answers_422_with_the_message() -> None:
    import json

    from kschedlearn.apiserver.rest import RestHandler, RestRequest
    h = RestHandler(APIServer(Runtime(seed=0)))
    out = h.handle(RestRequest.from_target("POST", "/api/v1/namespaces/default/pods",
                                           body=json.dumps(pod_with("spec.containers[0].resources.requests.cpu", "-1"))))
    assert out.code == 422 and out.body["reason"] == "Invalid"
    assert out.body["message"] == ('Pod "web-1" is invalid: spec.containers[0].resources.requests[cpu]: '
                                   'Invalid value: "-1": must be greater than or equal to 0')
