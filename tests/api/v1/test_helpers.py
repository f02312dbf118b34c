"""Ports of pkg/api/v1/helpers_test.go (v1.6.1) plus the annotation helpers."""

from __future__ import annotations

import pytest

from kschedlearn.api import v1
from kschedlearn.api.errors import ManifestError
from kschedlearn.apimachinery import labels

NO_SCHEDULE = v1.TAINT_EFFECT_NO_SCHEDULE
NO_EXECUTE = v1.TAINT_EFFECT_NO_EXECUTE
PREFER_NO_SCHEDULE = v1.TAINT_EFFECT_PREFER_NO_SCHEDULE

_MATCH_EXPRESSIONS = (v1.NodeSelectorRequirement(key="foo", operator=v1.NODE_SELECTOR_OP_IN, values=("bar", "baz")),)


@pytest.mark.parametrize(
    "nsm,expected,expect_err",
    [
        ((), "nothing", False),
        (_MATCH_EXPRESSIONS, "foo in (baz,bar)", False),
        ((v1.NodeSelectorRequirement(key="foo", operator=v1.NODE_SELECTOR_OP_EXISTS, values=("bar", "baz")),), None, True),
        ((v1.NodeSelectorRequirement(key="foo", operator=v1.NODE_SELECTOR_OP_GT, values=("1",)),), "foo>1", False),
        ((v1.NodeSelectorRequirement(key="bar", operator=v1.NODE_SELECTOR_OP_LT, values=("7",)),), "bar<7", False),
    ],
    ids=["empty", "in", "exists-with-values", "gt", "lt"],
)
def test_node_selector_requirements_as_selector(nsm, expected, expect_err):
    """Go: TestNodeSelectorRequirementsAsSelector."""
    if expect_err:
        with pytest.raises(ValueError):
            v1.node_selector_requirements_as_selector(nsm)
        return
    out = v1.node_selector_requirements_as_selector(nsm)
    if expected == "nothing":
        assert not out.matches({}) and not out.matches({"foo": "bar"})
        assert str(out) == str(labels.nothing())
    else:
        assert str(out) == str(labels.parse(expected))


def test_node_selector_requirements_as_selector_matches_nodes():
    sel = v1.node_selector_requirements_as_selector(
        (
            v1.NodeSelectorRequirement(key="zone", operator="In", values=("a", "b")),
            v1.NodeSelectorRequirement(key="gpu", operator="DoesNotExist"),
            v1.NodeSelectorRequirement(key="cores", operator="Gt", values=("4",)),
        )
    )
    assert sel.matches({"zone": "a", "cores": "8"})
    assert not sel.matches({"zone": "a", "cores": "8", "gpu": "1"})
    assert not sel.matches({"zone": "c", "cores": "8"})
    assert not sel.matches({"zone": "b", "cores": "4"})


def test_node_selector_bad_operator_message():
    with pytest.raises(ValueError) as info:
        v1.node_selector_requirements_as_selector((v1.NodeSelectorRequirement(key="a", operator="Near"),))
    assert str(info.value) == '"Near" is not a valid node selector operator'


@pytest.mark.parametrize(
    "taint,expected",
    [
        (v1.Taint(key="foo", value="bar", effect=NO_SCHEDULE), "foo=bar:NoSchedule"),
        (v1.Taint(key="foo", effect=NO_SCHEDULE), "foo:NoSchedule"),
    ],
    ids=["with-value", "without-value"],
)
def test_taint_to_string(taint, expected):
    """Go: TestTaintToString."""
    assert taint.to_string() == expected


@pytest.mark.parametrize(
    "taint,taint_to_match,expect_match",
    [
        (v1.Taint(key="foo", value="bar", effect=NO_SCHEDULE), v1.Taint(key="foo", value="bar", effect=NO_SCHEDULE), True),
        (
            v1.Taint(key="foo", value="bar", effect=NO_SCHEDULE),
            v1.Taint(key="foo", value="different-value", effect=NO_SCHEDULE),
            True,
        ),
        (
            v1.Taint(key="foo", value="bar", effect=NO_SCHEDULE),
            v1.Taint(key="different-key", value="bar", effect=NO_SCHEDULE),
            False,
        ),
        (
            v1.Taint(key="foo", value="bar", effect=NO_SCHEDULE),
            v1.Taint(key="foo", value="bar", effect=PREFER_NO_SCHEDULE),
            False,
        ),
    ],
    ids=[
        "two taints with the same key,value,effect should match",
        "two taints with the same key,effect but different value should match",
        "two taints with the different key cannot match",
        "two taints with the different effect cannot match",
    ],
)
def test_match_taint(taint, taint_to_match, expect_match):
    """Go: TestMatchTaint."""
    assert taint.match_taint(taint_to_match) is expect_match


TOLERATES_TAINT_CASES = {
    "toleration and taint have the same key and effect, and operator is Exists, and taint has no value, expect tolerated": (
        v1.Toleration(key="foo", operator="Exists", effect=NO_SCHEDULE),
        v1.Taint(key="foo", effect=NO_SCHEDULE),
        True,
    ),
    "toleration and taint have the same key and effect, and operator is Exists, and taint has some value, expect tolerated": (
        v1.Toleration(key="foo", operator="Exists", effect=NO_SCHEDULE),
        v1.Taint(key="foo", value="bar", effect=NO_SCHEDULE),
        True,
    ),
    "toleration and taint have the same effect, toleration has empty key and operator is Exists, means match all taints, expect tolerated": (
        v1.Toleration(key="", operator="Exists", effect=NO_SCHEDULE),
        v1.Taint(key="foo", value="bar", effect=NO_SCHEDULE),
        True,
    ),
    "toleration and taint have the same key, effect and value, and operator is Equal, expect tolerated": (
        v1.Toleration(key="foo", operator="Equal", value="bar", effect=NO_SCHEDULE),
        v1.Taint(key="foo", value="bar", effect=NO_SCHEDULE),
        True,
    ),
    "toleration and taint have the same key and effect, but different values, and operator is Equal, expect not tolerated": (
        v1.Toleration(key="foo", operator="Equal", value="value1", effect=NO_SCHEDULE),
        v1.Taint(key="foo", value="value2", effect=NO_SCHEDULE),
        False,
    ),
    "toleration and taint have the same key and value, but different effects, and operator is Equal, expect not tolerated": (
        v1.Toleration(key="foo", operator="Equal", value="bar", effect=NO_SCHEDULE),
        v1.Taint(key="foo", value="bar", effect=NO_EXECUTE),
        False,
    ),
    # Extra cases for the 1.6 rules spec §7.12 spells out.
    "empty operator means Equal": (
        v1.Toleration(key="foo", value="bar"),
        v1.Taint(key="foo", value="bar", effect=NO_EXECUTE),
        True,
    ),
    "empty operator with a different value is not tolerated": (
        v1.Toleration(key="foo", value="baz"),
        v1.Taint(key="foo", value="bar", effect=NO_SCHEDULE),
        False,
    ),
    "unknown operator never tolerates": (
        v1.Toleration(key="foo", operator="Matches", value="bar"),
        v1.Taint(key="foo", value="bar", effect=NO_SCHEDULE),
        False,
    ),
    "different key is not tolerated": (
        v1.Toleration(key="foo", operator="Exists"),
        v1.Taint(key="other", effect=NO_SCHEDULE),
        False,
    ),
    "tolerationSeconds plays no part in 1.6": (
        v1.Toleration(key="foo", operator="Exists", toleration_seconds=1),
        v1.Taint(key="foo", effect=NO_EXECUTE),
        True,
    ),
}


@pytest.mark.parametrize("toleration,taint,expected", list(TOLERATES_TAINT_CASES.values()), ids=list(TOLERATES_TAINT_CASES))
def test_toleration_tolerates_taint(toleration, taint, expected):
    """Go: TestTolerationToleratesTaint."""
    assert toleration.tolerates_taint(taint) is expected
    assert v1.tolerations_tolerate_taint([toleration], taint) is expected


_FOO_EXISTS_NO_SCHEDULE = v1.Toleration(key="foo", operator="Exists", effect=NO_SCHEDULE)

WITH_FILTER_CASES = {
    "empty tolerations tolerate empty taints": ((), (), lambda t: True, True),
    "non-empty tolerations tolerate empty taints": ((_FOO_EXISTS_NO_SCHEDULE,), (), lambda t: True, True),
    "tolerations match all taints, expect tolerated": (
        (_FOO_EXISTS_NO_SCHEDULE,),
        (v1.Taint(key="foo", effect=NO_SCHEDULE),),
        lambda t: True,
        True,
    ),
    "tolerations don't match taints, but no taints apply to the filter, expect tolerated": (
        (_FOO_EXISTS_NO_SCHEDULE,),
        (v1.Taint(key="bar", effect=NO_SCHEDULE),),
        lambda t: False,
        True,
    ),
    "no filterFunc indicated, means all taints apply to the filter, tolerations don't match taints, expect untolerated": (
        (_FOO_EXISTS_NO_SCHEDULE,),
        (v1.Taint(key="bar", effect=NO_SCHEDULE),),
        None,
        False,
    ),
    "tolerations match taints, expect tolerated": (
        (v1.Toleration(key="foo", operator="Exists", effect=NO_EXECUTE),),
        (v1.Taint(key="foo", effect=NO_EXECUTE), v1.Taint(key="bar", effect=NO_SCHEDULE)),
        lambda t: t.effect == NO_EXECUTE,
        True,
    ),
}


@pytest.mark.parametrize(
    "tolerations,taints,apply_filter,expected", list(WITH_FILTER_CASES.values()), ids=list(WITH_FILTER_CASES)
)
def test_tolerations_tolerate_taints_with_filter(tolerations, taints, apply_filter, expected):
    """Go: TestTolerationsTolerateTaintsWithFilter."""
    assert v1.tolerations_tolerate_taints_with_filter(tolerations, taints, apply_filter) is expected


_AVOID_JSON = """
{
    "preferAvoidPods": [
        {
            "podSignature": {
                "podController": {
                    "apiVersion": "v1",
                    "kind": "ReplicationController",
                    "name": "foo",
                    "uid": "abcdef123456",
                    "controller": true
                }
            },
            "reason": "some reason",
            "message": "some message"
        }
    ]
}"""

_AVOID_BROKEN_JSON = """
{
    "preferAvoidPods": [
        {
            "podSignature": {
                "podController": {
                    "kind": "ReplicationController",
                    "apiVersion": "v1"
            "reason": "some reason",
            "message": "some message"
        }
    ]
}"""


@pytest.mark.parametrize(
    "annotations,expected,expect_err",
    [
        ({}, v1.AvoidPods(), False),
        (
            {v1.PREFER_AVOID_PODS_ANNOTATION_KEY: _AVOID_JSON},
            v1.AvoidPods(
                prefer_avoid_pods=(
                    v1.PreferAvoidPodsEntry(
                        pod_signature=v1.PodSignature(
                            pod_controller=v1.OwnerReference(
                                api_version="v1", kind="ReplicationController", name="foo", uid="abcdef123456", controller=True
                            )
                        ),
                        reason="some reason",
                        message="some message",
                    ),
                )
            ),
            False,
        ),
        ({v1.PREFER_AVOID_PODS_ANNOTATION_KEY: _AVOID_BROKEN_JSON}, None, True),
    ],
    ids=["no annotation", "valid", "missing end symbols"],
)
def test_get_avoid_pods_from_node_annotations(annotations, expected, expect_err):
    """Go: TestGetAvoidPodsFromNode."""
    if expect_err:
        with pytest.raises(ValueError) as info:
            v1.get_avoid_pods_from_node_annotations(annotations)
        assert str(info.value) == ("annotation scheduler.alpha.kubernetes.io/preferAvoidPods: "
                                   "invalid character '\"' after object key:value pair")  # Go's text
        return
    assert v1.get_avoid_pods_from_node_annotations(annotations) == expected


def test_avoid_pods_wrong_shape_names_the_field():
    bad = {v1.PREFER_AVOID_PODS_ANNOTATION_KEY: '{"preferAvoidPods": [{"podSignature": {"podController": {"uid": 5}}}]}'}
    with pytest.raises(ManifestError) as info:
        v1.get_avoid_pods_from_node_annotations(bad)
    assert str(info.value) == (  # Go's json.Unmarshal text (a number into types.UID)
        "annotation scheduler.alpha.kubernetes.io/preferAvoidPods: "
        "json: cannot unmarshal number into Go value of type types.UID"
    )


def test_get_affinity_from_pod_annotations():
    assert v1.get_affinity_from_pod_annotations({}) is None
    assert v1.get_affinity_from_pod_annotations({v1.AFFINITY_ANNOTATION_KEY: ""}) is None
    text = (
        '{"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": '
        '[{"matchExpressions": [{"key": "zone", "operator": "In", "values": ["a"]}]}]}}}'
    )
    affinity = v1.get_affinity_from_pod_annotations({v1.AFFINITY_ANNOTATION_KEY: text})
    terms = affinity.node_affinity.required_during_scheduling_ignored_during_execution.node_selector_terms
    assert terms[0].match_expressions[0] == v1.NodeSelectorRequirement(key="zone", operator="In", values=("a",))
    with pytest.raises(ValueError):
        v1.get_affinity_from_pod_annotations({v1.AFFINITY_ANNOTATION_KEY: "{not json"})


def test_opaque_int_resource_names():
    assert v1.opaque_int_resource_name("foo") == "pod.alpha.kubernetes.io/opaque-int-resource-foo"
    assert v1.opaque_int_resource_name("pod.alpha.kubernetes.io/opaque-int-resource-foo") == (
        "pod.alpha.kubernetes.io/opaque-int-resource-foo"
    )
    assert v1.is_opaque_int_resource_name("pod.alpha.kubernetes.io/opaque-int-resource-foo")
    assert not v1.is_opaque_int_resource_name(v1.RESOURCE_CPU)


def test_get_controller_of():
    rs = v1.OwnerReference(kind="ReplicaSet", name="web", uid="1", controller=True)
    other = v1.OwnerReference(kind="Node", name="n", uid="2")
    not_ctrl = v1.OwnerReference(kind="ReplicationController", name="rc", uid="3", controller=False)
    pod = v1.Pod(metadata=v1.ObjectMeta(owner_references=(other, not_ctrl, rs)))
    assert v1.get_controller_of(pod) == rs
    assert v1.get_controller_of(pod.metadata) == rs
    assert v1.get_controller_of(v1.Pod()) is None
