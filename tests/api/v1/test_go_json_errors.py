"""Go 1.7 ``encoding/json`` error texts where 1.6 calls ``json.Unmarshal`` (``_gojson_check``).

Go: the syntax errors of encoding/json/scanner.go and the ``UnmarshalTypeError`` texts of
decode.go (Go 1.7.5 built v1.6.1: ``json: cannot unmarshal <value> into Go value of type <type>``,
without 1.8's struct-field form). 1.6 shows them in the API server's validation of the alpha
annotations (pkg/api/validation/validation.go ``ValidateAffinityInPodAnnotations``,
``ValidateAvoidPodsInNodeAnnotations``), in the serializer's ``couldn't get version/kind; json
parse error: ...`` and in the leader elector's ``error retrieving resource lock`` line. The
scheduler itself drops a bad affinity annotation (``annotationsAffinity, _ :=`` in
reconcile_affinity.go) and scores a node with a bad preferAvoidPods annotation 10.
"""

from __future__ import annotations

import json

import pytest

from kschedlearn.api.errors import ManifestError
from kschedlearn.api.v1 import get_affinity_from_pod_annotations, get_avoid_pods_from_node_annotations
from kschedlearn.api.v1._gojson_check import parse_rfc3339_error, syntax_error, unmarshal_error
from kschedlearn.api.v1._gojson_types import ANNOTATION_STRINGS, ANNOTATION_STRUCTS
from kschedlearn.apiserver import APIServer
from kschedlearn.apiserver.rest import RestHandler, RestRequest
from kschedlearn.sim import Runtime

AFF = "scheduler.alpha.kubernetes.io/affinity"
AVOID = "scheduler.alpha.kubernetes.io/preferAvoidPods"

SYNTAX = [
    ("", "unexpected end of JSON input"),
    ("   ", "unexpected end of JSON input"),
    ("{", "unexpected end of JSON input"),
    ('{"a":1', "unexpected end of JSON input"),
    ('"abc', "unexpected end of JSON input"),
    ("tru", "unexpected end of JSON input"),
    ("1.", "unexpected end of JSON input"),
    ("{not json", "invalid character 'n' looking for beginning of object key string"),
    ("x", "invalid character 'x' looking for beginning of value"),
    ("[1,]", "invalid character ']' looking for beginning of value"),
    ('{"a" 1}', "invalid character '1' after object key"),
    ('{"a":1 "b":2}', "invalid character '\"' after object key:value pair"),
    ("[1 2]", "invalid character '2' after array element"),
    ("{} {}", "invalid character '{' after top-level value"),
    ('"a\\q"', "invalid character 'q' in string escape code"),
    ('"\\u12G4"', "invalid character 'G' in \\u hexadecimal character escape"),
    ('"a\nb"', "invalid character '\\n' in string literal"),
    ("-x", "invalid character 'x' in numeric literal"),
    ("1.x", "invalid character 'x' after decimal point in numeric literal"),
    ("1e+x", "invalid character 'x' in exponent of numeric literal"),
    ("trux", "invalid character 'x' in literal true (expecting 'e')"),
    ("nul1", "invalid character '1' in literal null (expecting 'l')"),
    ("fals", "unexpected end of JSON input"),
    ("'a'", "invalid character '\\'' looking for beginning of value"),
    ("NaN", "invalid character 'N' looking for beginning of value"),
    ("01", "invalid character '1' after top-level value"),
    ("{'a': 1}", "invalid character '\\'' looking for beginning of object key string"),
    ("\x01", "invalid character '\\x01' looking for beginning of value"),
    ("é", "invalid character 'Ã' looking for beginning of value"),  # Go reports the first byte
]


@pytest.mark.parametrize(("text", "message"), SYNTAX, ids=[f"s{i}" for i in range(len(SYNTAX))])
def test_syntax_errors_are_go_scanner_texts(text, message):
    assert syntax_error(text) == message


def test_valid_json_has_no_syntax_error():
    for text in ('{"a": [1, -0.5e+3, true, false, null, "x\\u00e9\\n"]}', " 1 ", '""', "[]", "{}"):
        assert syntax_error(text) == "", text


def _aff(doc) -> str:
    return unmarshal_error(json.dumps(doc) if not isinstance(doc, str) else doc, "v1.Affinity",
                           ANNOTATION_STRUCTS, ANNOTATION_STRINGS)


def _pref(weight) -> dict:
    return {"podAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
        {"weight": weight, "podAffinityTerm": {"topologyKey": "zone"}}]}}


TYPES = [
    ("1.5", _pref(1.5), "json: cannot unmarshal number 1.5 into Go value of type int32"),
    ("1e2", '{"podAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":1e2}]}}',
     "json: cannot unmarshal number 1e2 into Go value of type int32"),
    ("2^31", _pref(2**31), "json: cannot unmarshal number 2147483648 into Go value of type int32"),
    ("string weight", _pref("3"), "json: cannot unmarshal string into Go value of type int32"),
    ("bool weight", _pref(True), "json: cannot unmarshal bool into Go value of type int32"),
    ("struct as number", {"nodeAffinity": 3}, "json: cannot unmarshal number into Go value of type v1.NodeAffinity"),
    ("top string", '"just a string"', "json: cannot unmarshal string into Go value of type v1.Affinity"),
    ("top array", [], "json: cannot unmarshal array into Go value of type v1.Affinity"),
    ("terms not array", {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {}}},
     "json: cannot unmarshal object into Go value of type []v1.PodAffinityTerm"),
    ("operator number", {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
        {"matchExpressions": [{"key": "a", "operator": 1}]}]}}},
     "json: cannot unmarshal number into Go value of type v1.NodeSelectorOperator"),
    ("values not strings", {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
        {"matchExpressions": [{"key": "a", "operator": "In", "values": [1]}]}]}}},
     "json: cannot unmarshal number into Go value of type string"),
    ("match labels number", {"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
        {"labelSelector": {"matchLabels": {"a": 1}}}]}},
     "json: cannot unmarshal number into Go value of type string"),
    ("selector operator", {"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
        {"labelSelector": {"matchExpressions": [{"operator": []}]}}]}},
     "json: cannot unmarshal array into Go value of type v1.LabelSelectorOperator"),
    ("first error wins", {"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [{"topologyKey": 1}],
                                          "preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 1.5}]}},
     "json: cannot unmarshal number into Go value of type string"),
    ("keys fold", {"PODAFFINITY": {"PreferredDuringSchedulingIgnoredDuringExecution": [{"Weight": "x"}]}},
     "json: cannot unmarshal string into Go value of type int32"),
    ("unknown keys skipped", {"frob": {"weight": "x"}, "nodeAffinity": None}, ""),
    ("null fits anything", {"nodeAffinity": None, "podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": None}}, ""),
    ("integral weight", _pref(-7), ""),
]


@pytest.mark.parametrize(("doc", "message"), [(d, m) for _, d, m in TYPES], ids=[i for i, _, _ in TYPES])
def test_type_errors_are_go_unmarshal_texts(doc, message):
    assert _aff(doc) == message


def test_avoid_pods_time_and_uid():
    def entry(**sig) -> str:
        return json.dumps({"preferAvoidPods": [{"podSignature": {"podController": {"kind": "RC", **sig}}, **sig.pop("extra", {})}]})

    assert unmarshal_error(entry(uid=5), "v1.AvoidPods", ANNOTATION_STRUCTS, ANNOTATION_STRINGS) == (
        "json: cannot unmarshal number into Go value of type types.UID")
    assert unmarshal_error(entry(controller="yes"), "v1.AvoidPods", ANNOTATION_STRUCTS, ANNOTATION_STRINGS) == (
        "json: cannot unmarshal string into Go value of type bool")
    bad_time = '{"preferAvoidPods": [{"evictionTime": "yesterday"}]}'
    assert unmarshal_error(bad_time, "v1.AvoidPods", ANNOTATION_STRUCTS, ANNOTATION_STRINGS) == (
        'parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"')


@pytest.mark.parametrize(("value", "message"), [
    ("2017-04-03T10:00:00Z", ""),
    ("2017-04-03T10:00:00.25+02:00", ""),
    ("", 'parsing time "" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "2006"'),
    ("2017-13-01T00:00:00Z", 'parsing time "2017-13-01T00:00:00Z": month out of range'),
    ("2017-02-30T00:00:00Z", 'parsing time "2017-02-30T00:00:00Z": day out of range'),
    ("2017-01-01 00:00:00Z", 'parsing time "2017-01-01 00:00:00Z" as "2006-01-02T15:04:05Z07:00": cannot parse " 00:00:00Z" as "T"'),
    ("2017-01-01T00:00:00", 'parsing time "2017-01-01T00:00:00" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "Z07:00"'),
    ("2017-01-01T25:00:00Z", 'parsing time "2017-01-01T25:00:00Z": hour out of range'),
    ("2017-01-01T00:00:00Zjunk", 'parsing time "2017-01-01T00:00:00Zjunk": extra text: junk'),
], ids=["ok", "fraction-offset", "empty", "month", "day", "no-T", "no-zone", "hour", "extra"])
def test_time_parse_errors(value, message):
    assert parse_rfc3339_error(value) == message


def test_helpers_raise_with_go_text():
    with pytest.raises(ManifestError) as info:
        get_affinity_from_pod_annotations({AFF: json.dumps(_pref(1.5))})
    assert info.value.msg == "json: cannot unmarshal number 1.5 into Go value of type int32"
    assert str(info.value) == f"annotation {AFF}: json: cannot unmarshal number 1.5 into Go value of type int32"
    with pytest.raises(ManifestError) as info:
        get_avoid_pods_from_node_annotations({AVOID: "{"})
    assert info.value.msg == "unexpected end of JSON input"
    # differently-cased keys with valid values decode
    affinity = get_affinity_from_pod_annotations({AFF: json.dumps({"PodAntiAffinity": {
        "RequiredDuringSchedulingIgnoredDuringExecution": [{"TopologyKey": "zone"}]}})})
    assert affinity.pod_anti_affinity.required_during_scheduling_ignored_during_execution[0].topology_key == "zone"


def _create(resource: str, body: dict):
    handler = RestHandler(APIServer(Runtime(seed=0)))
    path = "/api/v1/namespaces/default/pods" if resource == "pods" else "/api/v1/nodes"
    answer = handler.handle(RestRequest.from_target("POST", path, body=json.dumps(body), content_type="application/json"))
    return answer.code, answer.body["reason"], answer.body["message"]


@pytest.mark.parametrize(("annotation", "message"), [
    (json.dumps(_pref(1.5)), "json: cannot unmarshal number 1.5 into Go value of type int32"),
    ("{nope", "invalid character 'n' looking for beginning of object key string"),
    ('{"nodeAffinity": []}', "json: cannot unmarshal array into Go value of type api.NodeAffinity"),
], ids=["float weight", "syntax", "array for struct"])
def test_the_api_server_rejects_a_pod_whose_affinity_annotation_go_cannot_decode(annotation, message):
    pod = {"kind": "Pod", "metadata": {"name": "web-1", "annotations": {AFF: annotation}},
           "spec": {"containers": [{"name": "c"}]}}
    assert _create("pods", pod) == (422, "Invalid", (
        f'Pod "web-1" is invalid: metadata.annotations: Invalid value: "{AFF}": {message}'))


def test_a_decodable_annotation_affinity_is_validated_too():
    doc = {"podAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
        {"weight": 101, "podAffinityTerm": {"topologyKey": "zone"}}]}}
    code, reason, message = _create("pods", {"kind": "Pod", "metadata": {"name": "web-1", "annotations": {AFF: json.dumps(doc)}},
                                             "spec": {"containers": [{"name": "c"}]}})
    assert (code, reason) == (422, "Invalid")
    assert "metadata.annotations.affinity.podAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight" in message


def test_the_api_server_rejects_a_node_whose_avoid_pods_annotation_go_cannot_decode():
    node = {"kind": "Node", "metadata": {"name": "node-1", "annotations": {AVOID: '{"preferAvoidPods": {}}'}}}
    assert _create("nodes", node) == (422, "Invalid", (
        f'Node "node-1" is invalid: metadata.annotations.AvoidPods: Invalid value: "{AVOID}": '
        "json: cannot unmarshal object into Go value of type []v1.PreferAvoidPodsEntry"))


def test_the_scheduler_drops_an_annotation_go_cannot_decode():
    """1.6's scheduler never surfaces these errors: ReconcileAffinity drops the annotation
    (``annotationsAffinity, _ :=``), NodePreferAvoidPodsPriority scores the node 10."""
    from kschedlearn.api.v1 import Node, ObjectMeta, OwnerReference, Pod
    from kschedlearn.features import host_feature_gate
    from kschedlearn.scheduler.algorithm.priorities.node_prefer_avoid_pods import (
        calculate_node_prefer_avoid_pods_priority_map,
    )
    from kschedlearn.scheduler.schedulercache.node_info import new_node_info
    from kschedlearn.scheduler.schedulercache.reconcile_affinity import reconcile_affinity

    overflow = json.dumps(_pref(2**31))  # Python would read it; Go's int32 cannot hold it
    pod = Pod(metadata=ObjectMeta(name="p", annotations={AFF: overflow}))
    with host_feature_gate().set_for("AffinityInAnnotations=true"):
        assert reconcile_affinity(pod) is None
        fine = Pod(metadata=ObjectMeta(name="p", annotations={AFF: json.dumps(_pref(100))}))
        assert reconcile_affinity(fine) is not None
    owned = Pod(metadata=ObjectMeta(name="p", namespace="default", owner_references=(
        OwnerReference(kind="ReplicationController", name="rc", uid="u1", controller=True),)))
    avoid = json.dumps({"preferAvoidPods": [{"podSignature": {"podController": {
        "kind": "ReplicationController", "uid": "u1"}}, "evictionTime": "yesterday"}]})
    info = new_node_info()
    info.set_node(Node(metadata=ObjectMeta(name="n", annotations={AVOID: avoid})))
    assert calculate_node_prefer_avoid_pods_priority_map(owned, None, info).score == 10  # Go: time.Parse error


def test_deep_nesting_is_scanned_without_recursion_and_reported_plainly():
    deep = "[" * 100_000 + "]" * 100_000
    assert syntax_error(deep) == ""  # Go's scanner has no depth limit; neither has this one
    assert syntax_error(deep[:-1]) == "unexpected end of JSON input"
    with pytest.raises(ManifestError) as info:
        get_affinity_from_pod_annotations({AFF: deep})
    assert info.value.msg.startswith("the JSON is nested too deeply for kschedlearn to decode")
