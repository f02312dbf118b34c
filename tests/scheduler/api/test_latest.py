"""Decoding of scheduler policy files (v1 JSON) into the internal Policy types.

Go: plugin/pkg/scheduler/api/{types.go,v1/types.go,latest/latest.go}; the upstream documents
themselves are checked in tests/scheduler/algorithmprovider/defaults/test_compatibility.py.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.hypothesis_budget import examples

from kschedlearn.scheduler.api import (
    ExtenderConfig,
    LabelPreference,
    LabelsPresence,
    Policy,
    PredicateArgument,
    PredicatePolicy,
    PriorityArgument,
    PriorityPolicy,
    ServiceAffinity,
    ServiceAntiAffinity,
    TLSClientConfig,
)
from kschedlearn.scheduler.api.latest import VERSION, dump_policy, load_policy
from kschedlearn.scheduler.api.v1 import PolicyError, policy_from_dict, policy_to_dict


def test_latest_version_is_v1():
    assert VERSION == "v1"


def test_full_policy_decodes_every_field():
    doc = {
        "kind": "Policy",
        "apiVersion": "v1",
        "predicates": [
            {"name": "PodFitsResources"},
            {"name": "Zone", "argument": {"serviceAffinity": {"labels": ["region", "zone"]}}},
            {"name": "NoFoo", "argument": {"labelsPresence": {"labels": ["foo"], "presence": False}}},
        ],
        "priorities": [
            {"name": "LeastRequestedPriority", "weight": 3},
            {"name": "Spread", "weight": 2, "argument": {"serviceAntiAffinity": {"label": "rack"}}},
            {"name": "Ssd", "weight": 5, "argument": {"labelPreference": {"label": "ssd", "presence": True}}},
        ],
        "extenders": [
            {
                "urlPrefix": "http://127.0.0.1:8081/extender",
                "filterVerb": "filter",
                "prioritizeVerb": "prioritize",
                "weight": 4,
                "enableHttps": True,
                "tlsConfig": {"CAFile": "/ca.pem", "CertData": "aGVsbG8="},
                "httpTimeout": 2500000000,
                "nodeCacheCapable": True,
            }
        ],
    }
    assert load_policy(json.dumps(doc)) == Policy(
        predicates=(
            PredicatePolicy(name="PodFitsResources"),
            PredicatePolicy(
                name="Zone", argument=PredicateArgument(service_affinity=ServiceAffinity(labels=("region", "zone")))
            ),
            PredicatePolicy(
                name="NoFoo",
                argument=PredicateArgument(labels_presence=LabelsPresence(labels=("foo",), presence=False)),
            ),
        ),
        priorities=(
            PriorityPolicy(name="LeastRequestedPriority", weight=3),
            PriorityPolicy(
                name="Spread", weight=2, argument=PriorityArgument(service_anti_affinity=ServiceAntiAffinity(label="rack"))
            ),
            PriorityPolicy(
                name="Ssd",
                weight=5,
                argument=PriorityArgument(label_preference=LabelPreference(label="ssd", presence=True)),
            ),
        ),
        extender_configs=(
            ExtenderConfig(
                url_prefix="http://127.0.0.1:8081/extender",
                filter_verb="filter",
                prioritize_verb="prioritize",
                weight=4,
                enable_https=True,
                tls_config=TLSClientConfig(ca_file="/ca.pem", cert_data=b"hello"),
                http_timeout=2.5,
                node_cache_capable=True,
            ),
        ),
    )


def test_bytes_are_accepted():
    assert load_policy(b'{"kind":"Policy","apiVersion":"v1","predicates":[{"name":"HostName"}]}') == Policy(
        predicates=(PredicatePolicy(name="HostName"),)
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("{}", Policy()),
        ('{"predicates": null, "priorities": null, "extenders": null}', Policy()),
        ('{"predicates": [], "priorities": []}', Policy()),
        ('{"predicates": [{"name": "HostName", "argument": null}]}', Policy(predicates=(PredicatePolicy(name="HostName"),))),
        ('{"priorities": [{"name": "EqualPriority"}]}', Policy(priorities=(PriorityPolicy(name="EqualPriority", weight=0),))),
        ('{"priorities": [{"name": "X", "weight": -2}]}', Policy(priorities=(PriorityPolicy(name="X", weight=-2),))),
    ],
    ids=["empty", "nulls", "empty-lists", "null-argument", "missing-weight-is-zero", "negative-weight-decodes"],
)
def test_zero_values(text, expected):
    # 1.6's codec fills Go zero values for absent or null fields; validation judges them later.
    assert load_policy(text) == expected


def test_unknown_fields_are_ignored_like_the_1_6_codec():
    text = '{"kind": "Policy", "apiVersion": "v1", "surprise": 1, "predicates": [{"name": "HostName", "extra": true}]}'
    assert load_policy(text) == Policy(predicates=(PredicatePolicy(name="HostName"),))


def test_an_argument_with_both_kinds_decodes_unchanged():
    # Rejected later, by RegisterCustomFitPredicate (fatal), not by the decoder.
    text = '{"predicates": [{"name": "Both", "argument": {"serviceAffinity": {"labels": []}, "labelsPresence": {}}}]}'
    arg = load_policy(text).predicates[0].argument
    assert arg == PredicateArgument(service_affinity=ServiceAffinity(), labels_presence=LabelsPresence())


@pytest.mark.parametrize(
    ("text", "message"),
    [
        # Go: the serializer's Interpret (encoding/json into struct{APIVersion, Kind string})
        ("{not json", "couldn't get version/kind; json parse error: invalid character 'n' looking for "
                      "beginning of object key string"),
        ("", "couldn't get version/kind; json parse error: unexpected end of JSON input"),
        ('{"kind": 3}', "couldn't get version/kind; json parse error: json: cannot unmarshal number into Go "
                        "value of type string"),
        ("[]", "couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of "
               'type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string '
               '"json:\\"kind,omitempty\\"" }'),
        ('{"kind": "Policy"} x', "couldn't get version/kind; json parse error: invalid character 'x' after "
                                 "top-level value"),
        ('{"kind": "Pod"}', 'Policy: kind: expected "Policy", got "Pod"'),
        ('{"apiVersion": "v2"}', 'Policy: apiVersion: expected "v1", got "v2"'),
        ('{"predicates": {}}', "Policy: predicates: expected a list, got {}"),
        ('{"predicates": ["HostName"]}', 'Policy: predicates[0]: expected an object, got "HostName"'),
        ('{"predicates": [{"name": 3}]}', "Policy: predicates[0].name: expected a string, got 3"),
        (
            '{"predicates": [{"name": "a"}, {"name": "b", "argument": {"serviceAffinity": {"labels": ["x", 5]}}}]}',
            "Policy: predicates[1].argument.serviceAffinity.labels[1]: expected a string, got 5",
        ),
        (
            '{"predicates": [{"name": "a", "argument": {"labelsPresence": {"presence": "yes"}}}]}',
            'Policy: predicates[0].argument.labelsPresence.presence: expected true or false, got "yes"',
        ),
        ('{"priorities": [{"name": "a", "weight": "2"}]}', 'Policy: priorities[0].weight: expected an integer, got "2"'),
        ('{"priorities": [{"name": "a", "weight": 1.5}]}', "Policy: priorities[0].weight: expected an integer, got 1.5"),
        ('{"priorities": [{"name": "a", "weight": true}]}', "Policy: priorities[0].weight: expected an integer, got true"),
        (
            '{"priorities": [{"name": "a", "argument": {"labelPreference": []}}]}',
            "Policy: priorities[0].argument.labelPreference: expected an object, got []",
        ),
        ('{"extenders": [{"httpTimeout": "5s"}]}', 'Policy: extenders[0].httpTimeout: expected an integer, got "5s"'),
        (
            '{"extenders": [{"tlsConfig": {"CAData": "%%%"}}]}',
            'Policy: extenders[0].tlsConfig.CAData: expected base64 data, got "%%%"',
        ),
    ],
    ids=[
        "bad-json", "empty", "kind-not-string", "not-an-object", "after-top-level", "wrong-kind", "wrong-apiVersion", "predicates-not-list",
        "predicate-not-object", "name-not-string", "label-not-string", "presence-not-bool",
        "weight-string", "weight-float", "weight-bool", "argument-not-object", "timeout-not-int", "bad-base64",
    ],
)
def test_bad_input_names_the_field(text, message):
    with pytest.raises(PolicyError) as info:
        load_policy(text)
    assert str(info.value).startswith(message)
    assert isinstance(info.value, ValueError)


def test_non_text_input_is_rejected_clearly():
    with pytest.raises(PolicyError, match="expected JSON text or bytes, got int"):
        load_policy(42)  # type: ignore[arg-type]


_names = st.text(alphabet="abcXYZ019-", min_size=1, max_size=8)
_labels = st.lists(_names, max_size=3).map(tuple)
_pred_args = st.one_of(
    st.none(),
    st.builds(lambda ls: PredicateArgument(service_affinity=ServiceAffinity(labels=ls)), _labels),
    st.builds(lambda ls, p: PredicateArgument(labels_presence=LabelsPresence(labels=ls, presence=p)), _labels, st.booleans()),
)
_prio_args = st.one_of(
    st.none(),
    st.builds(lambda label: PriorityArgument(service_anti_affinity=ServiceAntiAffinity(label=label)), _names),
    st.builds(lambda label, p: PriorityArgument(label_preference=LabelPreference(label=label, presence=p)), _names, st.booleans()),
)
_policies = st.builds(
    lambda preds, prios, exts: Policy(predicates=tuple(preds), priorities=tuple(prios), extender_configs=tuple(exts)),
    st.lists(st.builds(lambda n, a: PredicatePolicy(name=n, argument=a), _names, _pred_args), max_size=4),
    st.lists(
        st.builds(lambda n, w, a: PriorityPolicy(name=n, weight=w, argument=a), _names, st.integers(-5, 10**6), _prio_args),
        max_size=4,
    ),
    st.lists(
        st.builds(
            lambda u, w, t, c: ExtenderConfig(url_prefix=u, weight=w, http_timeout=t / 1000, node_cache_capable=c),
            _names, st.integers(0, 100), st.integers(0, 10**6), st.booleans(),
        ),
        max_size=2,
    ),
)


@settings(max_examples=examples(100), deadline=None)
@given(_policies)
def test_encode_then_decode_is_identity(policy):
    assert load_policy(dump_policy(policy)) == policy
    assert policy_from_dict(policy_to_dict(policy)) == policy


def test_v1_load_policy_is_what_latest_uses():
    # The server's configurator imports the v1 entry point directly.
    from kschedlearn.scheduler.api.v1 import load_policy as v1_load_policy

    text = '{"kind":"Policy","apiVersion":"v1","priorities":[{"name":"EqualPriority","weight":2}]}'
    assert v1_load_policy(text) == load_policy(text) == Policy(priorities=(PriorityPolicy(name="EqualPriority", weight=2),))
    with pytest.raises(PolicyError, match="json parse error: unexpected end of JSON input"):
        v1_load_policy(b"{")
