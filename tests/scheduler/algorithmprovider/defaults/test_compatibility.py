"""Port of algorithmprovider/defaults/compatibility_test.go (v1.6.1): upstream policy files 1.0–1.4.

Go: https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithmprovider/defaults/compatibility_test.go
Data: /work/shared/spec/policy-examples.json (copied verbatim from that test, with the expected
decoded structures and the names registered at start-up, observed by running the Go test).

Differs from Go: the Go test ends with ``ConfigFactory.CreateFromConfig(policy)`` against a fake
API server. Without the ConfigFactory here, the registry part of that path is checked instead:
validate_policy, RegisterCustom{FitPredicate,PriorityFunction} for each entry, then building
every named predicate and priority through the registry with fake PluginFactoryArgs.
"""

from __future__ import annotations

import importlib.resources
import json
from pathlib import Path

import pytest

from kschedlearn.scheduler.algorithm.predicates import predicates as preds
from kschedlearn.scheduler.algorithmprovider.defaults import register_defaults
from kschedlearn.scheduler.api import (
    LabelPreference,
    LabelsPresence,
    Policy,
    PredicateArgument,
    PredicatePolicy,
    PriorityArgument,
    PriorityPolicy,
    ServiceAffinity,
    ServiceAntiAffinity,
)
from kschedlearn.scheduler.api.latest import load_policy
from kschedlearn.scheduler.api.validation import validate_policy
from kschedlearn.scheduler.factory import plugins as factory
from kschedlearn.scheduler.factory.plugins import PluginFactoryArgs
from kschedlearn.scheduler.testing import (
    FakeControllerLister,
    FakeNodeLister,
    FakeNodeListInfo,
    FakePersistentVolumeClaimInfo,
    FakePersistentVolumeInfo,
    FakePodLister,
    FakeReplicaSetLister,
    FakeServiceLister,
    FakeStatefulSetLister,
)


# The package ships a verbatim copy of the project spec's policy-examples.json (so notebooks
# and Binder have it too); the test reads that copy, never a skip.
EXAMPLES_PATH = Path(str(importlib.resources.files("kschedlearn.scheduler.api") / "policy_examples.json"))
EXAMPLES = json.loads(EXAMPLES_PATH.read_text())
CASES = EXAMPLES["cases"]

FAKE_ARGS = PluginFactoryArgs(
    pod_lister=FakePodLister([]),
    service_lister=FakeServiceLister([]),
    controller_lister=FakeControllerLister([]),
    replica_set_lister=FakeReplicaSetLister([]),
    stateful_set_lister=FakeStatefulSetLister([]),
    node_lister=FakeNodeLister([]),
    node_info=FakeNodeListInfo([]),
    pv_info=FakePersistentVolumeInfo([]),
    pvc_info=FakePersistentVolumeClaimInfo([]),
    hard_pod_affinity_symmetric_weight=1,
)


def _expected_predicate(d: dict) -> PredicatePolicy:
    # Written independently of the decoder under test: maps the expected JSON by hand.
    arg = d.get("argument")
    if arg is None:
        return PredicatePolicy(name=d["name"])
    sa, lp = arg.get("serviceAffinity"), arg.get("labelsPresence")
    return PredicatePolicy(name=d["name"], argument=PredicateArgument(
        service_affinity=None if sa is None else ServiceAffinity(labels=tuple(sa["labels"])),
        labels_presence=None if lp is None else LabelsPresence(labels=tuple(lp["labels"]), presence=lp["presence"]),
    ))


def _expected_priority(d: dict) -> PriorityPolicy:
    arg = d.get("argument")
    if arg is None:
        return PriorityPolicy(name=d["name"], weight=d["weight"])
    saa, lp = arg.get("serviceAntiAffinity"), arg.get("labelPreference")
    return PriorityPolicy(name=d["name"], weight=d["weight"], argument=PriorityArgument(
        service_anti_affinity=None if saa is None else ServiceAntiAffinity(label=saa["label"]),
        label_preference=None if lp is None else LabelPreference(label=lp["label"], presence=lp["presence"]),
    ))


def _expected_policy(d: dict) -> Policy:
    return Policy(
        predicates=tuple(_expected_predicate(p) for p in d.get("predicates", [])),
        priorities=tuple(_expected_priority(p) for p in d.get("priorities", [])),
    )


@pytest.fixture
def reg():
    registry = factory.new_plugin_registry()
    register_defaults(registry=registry, environ={})
    yield registry
    preds.reset_predicate_precomputations()


def test_examples_file_covers_versions_1_0_to_1_4():
    assert [c["version"] for c in CASES] == ["1.0", "1.1", "1.2", "1.3", "1.4"]


@pytest.mark.parametrize("case", CASES, ids=[c["version"] for c in CASES])
def test_policy_decodes_to_expected(case):
    policy = load_policy(case["policy_json"])
    assert policy == _expected_policy(case["expected_policy"])
    assert case["expected_policy"]["kind"] == "Policy" and case["expected_policy"]["apiVersion"] == "v1"


@pytest.mark.parametrize("case", CASES, ids=[c["version"] for c in CASES])
def test_policy_resolves_through_the_registry(reg, case):
    policy = load_policy(case["policy_json"])
    assert case["expected_create_from_config_error"] is None
    validate_policy(policy)
    predicate_keys = {factory.register_custom_fit_predicate(p, registry=reg) for p in policy.predicates}
    priority_keys = {factory.register_custom_priority_function(p, registry=reg) for p in policy.priorities}
    assert predicate_keys == {p.name for p in policy.predicates}

    predicates = factory._get_fit_predicate_functions(predicate_keys, FAKE_ARGS, registry=reg)
    assert list(predicates) == sorted(predicate_keys)
    assert all(callable(fn) for fn in predicates.values())

    configs = factory._get_priority_function_configs(priority_keys, FAKE_ARGS, registry=reg)
    weights = {p.name: p.weight for p in policy.priorities}
    assert [c.weight for c in configs] == [weights[name] for name in sorted(priority_keys)]
    for config in configs:
        assert (config.function is None) != (config.map_fn is None)

    assert callable(factory._get_predicate_metadata_producer(FAKE_ARGS, registry=reg))
    assert callable(factory._get_priority_metadata_producer(FAKE_ARGS, registry=reg))
    if any(p.name == "TestServiceAffinity" for p in policy.predicates):
        assert "TestServiceAffinity" in reg.predicate_precomputations
        assert "TestServiceAffinity" not in preds.predicate_precomputations()  # not the module table


def test_registered_names_at_start_up_match_1_6(reg):
    assert factory.list_registered_fit_predicates(registry=reg) == EXAMPLES["registered_predicates"]
    assert factory.list_registered_priority_functions(registry=reg) == EXAMPLES["registered_priorities"]


def test_every_registered_name_is_covered_by_some_policy():
    seen_predicates: set[str] = set()
    seen_priorities: set[str] = set()
    for case in CASES:
        policy = load_policy(case["policy_json"])
        seen_predicates |= {p.name for p in policy.predicates}
        seen_priorities |= {p.name for p in policy.priorities}
    assert set(EXAMPLES["registered_predicates"]) <= seen_predicates
    assert set(EXAMPLES["registered_priorities"]) <= seen_priorities
