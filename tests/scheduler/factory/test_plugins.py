"""Port of plugin/pkg/scheduler/factory/plugins_test.go (v1.6.1) and the registry's rules.

Go: https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/factory/plugins_test.go
(1.6 has only TestAlgorithmNameValidation; the rest checks spec §2.8 facts: exact fatal and
error texts, sorted priority configs, custom predicate/priority registration rules.)
"""

from __future__ import annotations

import logging

import attrs
import pytest

from kschedlearn.api.v1 import Node, ObjectMeta, Pod
from kschedlearn.scheduler.algorithm.predicates import predicates as preds
from kschedlearn.scheduler.algorithm.types import PriorityConfig, empty_metadata_producer
from kschedlearn.scheduler.api import (
    LabelPreference,
    LabelsPresence,
    PredicateArgument,
    PredicatePolicy,
    PriorityArgument,
    PriorityPolicy,
    ServiceAffinity,
    ServiceAntiAffinity,
)
from kschedlearn.scheduler.factory import plugins
from kschedlearn.scheduler.factory.plugins import PluginFactoryArgs, PluginLookupError, PriorityConfigFactory
from kschedlearn.scheduler.schedulercache.node_info import new_node_info
from kschedlearn.scheduler.testing import FakePodLister, FakeServiceLister
from kschedlearn.trace.glog import FatalError

ARGS = PluginFactoryArgs(pod_lister=FakePodLister([]), service_lister=FakeServiceLister([]))


@pytest.fixture
def reg():
    """An isolated, empty registry (no defaults), so tests do not touch the default one."""
    yield plugins.new_plugin_registry()
    preds.reset_predicate_precomputations()


def _node_info(name: str, labels: dict[str, str]):
    ni = new_node_info()
    ni.set_node(Node(metadata=ObjectMeta(name=name, labels=labels)))
    return ni


def _always_fits(pod, meta, node_info):
    return True, []


def _one(pod, meta, node_info):
    return None


# --- TestAlgorithmNameValidation ---------------------------------------------------------

@pytest.mark.parametrize("name", ["1SomeAlgo1rithm", "someAlgor-ithm1"])
def test_algorithm_name_validation_valid(name):
    assert plugins._valid_name.fullmatch(name) is not None


@pytest.mark.parametrize("name", ["-SomeAlgorithm", "SomeAlgorithm-", "Some,Alg:orithm", "A", "Algo\n"])
def test_algorithm_name_validation_invalid(name):
    assert plugins._valid_name.fullmatch(name) is None


@pytest.mark.parametrize("register", [
    lambda reg: plugins.register_fit_predicate("Some,Alg:orithm", _always_fits, registry=reg),
    lambda reg: plugins.register_priority_function2("Some,Alg:orithm", _one, None, 1, registry=reg),
    lambda reg: plugins.register_algorithm_provider("Some,Alg:orithm", [], [], registry=reg),
], ids=["predicate", "priority", "provider"])
def test_registering_a_bad_name_is_fatal(reg, register):
    with pytest.raises(FatalError) as info:
        register(reg)
    assert str(info.value) == (
        'Algorithm name Some,Alg:orithm does not match the name validation regexp '
        '"^[a-zA-Z0-9]([-a-zA-Z0-9]*[a-zA-Z0-9])$".'
    )


# --- plain registration, lookup, errors -----------------------------------------------------

def test_register_returns_name_and_marks_registered(reg):
    assert plugins.register_fit_predicate("MyPred", _always_fits, registry=reg) == "MyPred"
    assert plugins.is_fit_predicate_registered("MyPred", registry=reg)
    assert not plugins.is_fit_predicate_registered("Other", registry=reg)
    assert plugins.register_priority_function2("MyPrio", _one, None, 3, registry=reg) == "MyPrio"
    assert plugins.is_priority_function_registered("MyPrio", registry=reg)
    assert plugins.list_registered_fit_predicates(registry=reg) == ["MyPred"]
    assert plugins.list_registered_priority_functions(registry=reg) == ["MyPrio"]


def test_unknown_provider_error(reg):
    with pytest.raises(PluginLookupError) as info:
        plugins.get_algorithm_provider("NoSuchProvider", registry=reg)
    assert str(info.value) == 'plugin "NoSuchProvider" has not been registered'


def test_provider_keys_are_sets_and_providers_listed_sorted(reg):
    plugins.register_algorithm_provider("ZProvider", ["b", "a", "a"], ["p"], registry=reg)
    plugins.register_algorithm_provider("AProvider", [], [], registry=reg)
    provider = plugins.get_algorithm_provider("ZProvider", registry=reg)
    assert provider.fit_predicate_keys == frozenset({"a", "b"})
    assert provider.priority_function_keys == frozenset({"p"})
    assert plugins.list_algorithm_providers(registry=reg) == "AProvider | ZProvider"


def test_unknown_predicate_name_error(reg):
    plugins.register_fit_predicate("Known", _always_fits, registry=reg)
    with pytest.raises(PluginLookupError) as info:
        plugins._get_fit_predicate_functions({"Known", "Nope"}, ARGS, registry=reg)
    assert str(info.value) == 'Invalid predicate name "Nope" specified - no corresponding function found'


def test_unknown_priority_name_error(reg):
    with pytest.raises(PluginLookupError) as info:
        plugins._get_priority_function_configs({"Nope"}, ARGS, registry=reg)
    assert str(info.value) == "Invalid priority name Nope specified - no corresponding function found"


def test_predicate_factories_get_the_args(reg):
    seen = []
    plugins.register_fit_predicate_factory("Needy", lambda args: seen.append(args) or _always_fits, registry=reg)
    built = plugins._get_fit_predicate_functions(["Needy"], ARGS, registry=reg)
    assert built == {"Needy": _always_fits}
    assert seen == [ARGS]


def test_priority_configs_are_sorted_by_name_and_keep_kind_and_weight(reg):
    def old_style(pod, node_name_to_info, nodes):
        return []

    def reduce_fn(pod, meta, node_name_to_info, result):
        return None

    plugins.register_priority_function2("Zeta", _one, reduce_fn, 2, registry=reg)
    plugins.register_priority_function("Alpha", old_style, 7, registry=reg)
    plugins.register_priority_function2("Mid", _one, None, 1, registry=reg)
    configs = plugins._get_priority_function_configs(["Zeta", "Mid", "Alpha"], ARGS, registry=reg)
    assert configs == [
        PriorityConfig(function=old_style, weight=7),
        PriorityConfig(map_fn=_one, reduce=None, weight=1),
        PriorityConfig(map_fn=_one, reduce=reduce_fn, weight=2),
    ]


def test_missing_metadata_producers_fall_back_to_empty(reg):
    assert plugins._get_predicate_metadata_producer(ARGS, registry=reg) is empty_metadata_producer
    assert plugins._get_priority_metadata_producer(ARGS, registry=reg) is empty_metadata_producer
    plugins.register_priority_metadata_producer_factory(lambda args: _one, registry=reg)
    plugins.register_predicate_metadata_producer_factory(lambda args: _always_fits, registry=reg)
    assert plugins._get_priority_metadata_producer(ARGS, registry=reg) is _one
    assert plugins._get_predicate_metadata_producer(ARGS, registry=reg) is _always_fits


# --- RegisterCustomFitPredicate ------------------------------------------------------------

def test_custom_predicate_reuses_a_registered_one(reg, caplog):
    plugins.register_fit_predicate("PodFitsHostPorts", preds.pod_fits_host_ports, registry=reg)
    caplog.set_level(logging.DEBUG, logger="kschedlearn.glog")
    assert plugins.register_custom_fit_predicate(PredicatePolicy(name="PodFitsHostPorts"), registry=reg) == "PodFitsHostPorts"
    assert "Predicate type PodFitsHostPorts already registered, reusing." in caplog.messages
    built = plugins._get_fit_predicate_functions(["PodFitsHostPorts"], ARGS, registry=reg)
    assert built["PodFitsHostPorts"] is preds.pod_fits_host_ports


def test_custom_predicate_unknown_type_is_fatal(reg):
    with pytest.raises(FatalError) as info:
        plugins.register_custom_fit_predicate(PredicatePolicy(name="NoSuchPredicate"), registry=reg)
    assert str(info.value) == "Invalid configuration: Predicate type not found for NoSuchPredicate"


@pytest.mark.parametrize(("argument", "num_args"), [
    (PredicateArgument(), 0),
    (PredicateArgument(service_affinity=ServiceAffinity(labels=("r",)), labels_presence=LabelsPresence()), 2),
], ids=["empty-argument", "two-arguments"])
def test_custom_predicate_needs_exactly_one_argument(reg, argument, num_args):
    with pytest.raises(FatalError) as info:
        plugins.register_custom_fit_predicate(PredicatePolicy(name="Bad", argument=argument), registry=reg)
    assert str(info.value) == f"Exactly 1 predicate argument is required, numArgs: {num_args}, Predicate: Bad"


@pytest.mark.parametrize(("presence", "labels", "fits"), [
    (True, {"foo": "1"}, True),
    (True, {}, False),
    (False, {"foo": "1"}, False),
    (False, {}, True),
])
def test_custom_labels_presence_predicate(reg, presence, labels, fits):
    policy = PredicatePolicy(
        name="TestLabelsPresence", argument=PredicateArgument(labels_presence=LabelsPresence(labels=("foo",), presence=presence))
    )
    assert plugins.register_custom_fit_predicate(policy, registry=reg) == "TestLabelsPresence"
    predicate = plugins._get_fit_predicate_functions(["TestLabelsPresence"], ARGS, registry=reg)["TestLabelsPresence"]
    ok, reasons = predicate(Pod(metadata=ObjectMeta(name="p")), None, _node_info("n", labels))
    assert ok is fits
    assert [r.get_reason() for r in reasons] == ([] if fits else ["CheckNodeLabelPresence"])


def test_custom_service_affinity_registers_its_precomputation_when_built(reg):
    policy = PredicatePolicy(
        name="TestServiceAffinity", argument=PredicateArgument(service_affinity=ServiceAffinity(labels=("region",)))
    )
    plugins.register_custom_fit_predicate(policy, registry=reg)
    assert "TestServiceAffinity" not in reg.predicate_precomputations
    predicate = plugins._get_fit_predicate_functions(["TestServiceAffinity"], ARGS, registry=reg)["TestServiceAffinity"]
    assert "TestServiceAffinity" in reg.predicate_precomputations
    assert "TestServiceAffinity" not in preds.predicate_precomputations()
    pod = Pod(metadata=ObjectMeta(name="p", namespace="default"))
    pod = attrs.evolve(pod, spec=attrs.evolve(pod.spec, node_selector={"region": "r1"}))
    assert predicate(pod, None, _node_info("n", {"region": "r1"}))[0] is True
    ok, reasons = predicate(pod, None, _node_info("n", {"region": "r2"}))
    assert ok is False and [r.get_reason() for r in reasons] == ["CheckServiceAffinity"]


def test_custom_predicate_with_argument_replaces_a_registered_name(reg):
    plugins.register_fit_predicate("HostName", preds.pod_fits_host, registry=reg)
    policy = PredicatePolicy(name="HostName", argument=PredicateArgument(labels_presence=LabelsPresence(labels=("x",), presence=True)))
    plugins.register_custom_fit_predicate(policy, registry=reg)
    assert plugins._get_fit_predicate_functions(["HostName"], ARGS, registry=reg)["HostName"] is not preds.pod_fits_host


# --- RegisterCustomPriorityFunction --------------------------------------------------------

def test_custom_priority_reuse_takes_the_policy_weight(reg, caplog):
    plugins.register_priority_function2("LeastRequestedPriority", _one, None, 1, registry=reg)
    caplog.set_level(logging.DEBUG, logger="kschedlearn.glog")
    name = plugins.register_custom_priority_function(PriorityPolicy(name="LeastRequestedPriority", weight=5), registry=reg)
    assert name == "LeastRequestedPriority"
    assert "Priority type LeastRequestedPriority already registered, reusing." in caplog.messages
    # The registry entry itself now carries weight 5 (process-wide in 1.6).
    assert reg.priority_function_map["LeastRequestedPriority"].weight == 5
    [config] = plugins._get_priority_function_configs(["LeastRequestedPriority"], ARGS, registry=reg)
    assert config == PriorityConfig(map_fn=_one, reduce=None, weight=5)


def test_custom_priority_unknown_type_is_fatal(reg):
    with pytest.raises(FatalError) as info:
        plugins.register_custom_priority_function(PriorityPolicy(name="NoSuchPriority", weight=1), registry=reg)
    assert str(info.value) == "Invalid configuration: Priority type not found for NoSuchPriority"


@pytest.mark.parametrize(("argument", "num_args"), [
    (PriorityArgument(), 0),
    (PriorityArgument(service_anti_affinity=ServiceAntiAffinity(label="z"), label_preference=LabelPreference(label="b")), 2),
], ids=["empty-argument", "two-arguments"])
def test_custom_priority_needs_exactly_one_argument(reg, argument, num_args):
    with pytest.raises(FatalError) as info:
        plugins.register_custom_priority_function(PriorityPolicy(name="Bad", weight=1, argument=argument), registry=reg)
    assert str(info.value) == f"Exactly 1 priority argument is required, numArgs: {num_args}, Priority: Bad"


def test_custom_label_preference_priority(reg):
    policy = PriorityPolicy(
        name="TestLabelPreference", weight=4, argument=PriorityArgument(label_preference=LabelPreference(label="bar", presence=True))
    )
    plugins.register_custom_priority_function(policy, registry=reg)
    [config] = plugins._get_priority_function_configs(["TestLabelPreference"], ARGS, registry=reg)
    assert config.weight == 4 and config.function is None and config.reduce is None
    pod = Pod(metadata=ObjectMeta(name="p"))
    assert config.map_fn(pod, None, _node_info("a", {"bar": ""})).score == 10
    assert config.map_fn(pod, None, _node_info("b", {})).score == 0


def test_custom_service_anti_affinity_priority(reg):
    policy = PriorityPolicy(
        name="TestServiceAntiAffinity", weight=3, argument=PriorityArgument(service_anti_affinity=ServiceAntiAffinity(label="zone"))
    )
    plugins.register_custom_priority_function(policy, registry=reg)
    [config] = plugins._get_priority_function_configs(["TestServiceAntiAffinity"], ARGS, registry=reg)
    assert config.weight == 3 and config.map_fn is None
    assert config.function.__self__.label == "zone"


# --- the default registry -------------------------------------------------------------------

def test_default_registry_is_created_with_defaults_and_can_be_reset():
    try:
        plugins.reset_registry()
        assert plugins.is_fit_predicate_registered("GeneralPredicates")
        plugins.register_fit_predicate("MyNotebookPredicate", _always_fits)
        assert plugins.is_fit_predicate_registered("MyNotebookPredicate")
        fresh = plugins.reset_registry()
        assert fresh is plugins.default_registry()
        assert not plugins.is_fit_predicate_registered("MyNotebookPredicate")
        assert plugins.is_fit_predicate_registered("GeneralPredicates")
        empty = plugins.reset_registry(with_defaults=False)
        assert plugins.list_registered_fit_predicates() == [] and empty.algorithm_provider_map == {}
    finally:
        plugins.reset_registry()


def test_explicit_registry_leaves_the_default_untouched(reg):
    before = plugins.list_registered_fit_predicates()
    plugins.register_fit_predicate("OnlyInIsolated", _always_fits, registry=reg)
    assert plugins.list_registered_fit_predicates() == before
    assert plugins.is_fit_predicate_registered("OnlyInIsolated", registry=reg)


def test_priority_config_factory_defaults():
    assert PriorityConfigFactory() == PriorityConfigFactory(function=None, map_reduce_function=None, weight=0)
