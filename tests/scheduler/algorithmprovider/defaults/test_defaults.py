"""What algorithmprovider/defaults registers in v1.6.1 (spec §6), and KUBE_MAX_PD_VOLS.

Go: https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithmprovider/defaults/defaults.go
"""

from __future__ import annotations

import logging

import pytest

from kschedlearn.api.v1 import ObjectMeta, OwnerReference, Pod
from kschedlearn.scheduler.algorithm.listers import EmptyControllerLister
from kschedlearn.scheduler.algorithm.predicates import predicates as preds
from kschedlearn.scheduler.algorithm.predicates.metadata import PredicateMetadataFactory
from kschedlearn.scheduler.algorithm.priorities.metadata import priority_metadata
from kschedlearn.scheduler.algorithmprovider.defaults import defaults
from kschedlearn.scheduler.core.generic_scheduler import equal_priority_map
from kschedlearn.scheduler.factory import plugins as factory
from kschedlearn.scheduler.factory.plugins import PluginFactoryArgs
from kschedlearn.scheduler.schedulercache.node_info import NilPointerDereference
from kschedlearn.scheduler.testing import FakePodLister, FakeServiceLister

DEFAULT_PREDICATES = {
    "NoVolumeZoneConflict", "MaxEBSVolumeCount", "MaxGCEPDVolumeCount", "MaxAzureDiskVolumeCount",
    "MatchInterPodAffinity", "NoDiskConflict", "GeneralPredicates", "PodToleratesNodeTaints",
    "CheckNodeMemoryPressure", "CheckNodeDiskPressure",
}
DEFAULT_PRIORITY_WEIGHTS = {
    "SelectorSpreadPriority": 1, "InterPodAffinityPriority": 1, "LeastRequestedPriority": 1,
    "BalancedResourceAllocation": 1, "NodePreferAvoidPodsPriority": 10000, "NodeAffinityPriority": 1,
    "TaintTolerationPriority": 1,
}
ARGS = PluginFactoryArgs(pod_lister=FakePodLister([]), service_lister=FakeServiceLister([]),
                         hard_pod_affinity_symmetric_weight=1)


def _registry(environ=None):
    reg = factory.new_plugin_registry()
    defaults.register_defaults(registry=reg, environ=environ)
    return reg


@pytest.fixture(scope="module")
def reg():
    return _registry(environ={})


def test_constants():
    assert (defaults.DEFAULT_MAX_GCE_PD_VOLUMES, defaults.DEFAULT_MAX_AZURE_DISK_VOLUMES, defaults.DEFAULT_MAX_EBS_VOLUMES) == (16, 16, 39)
    assert defaults.CLUSTER_AUTOSCALER_PROVIDER == "ClusterAutoscalerProvider"
    assert defaults.KUBE_MAX_PD_VOLS == "KUBE_MAX_PD_VOLS"
    assert factory.DEFAULT_PROVIDER == "DefaultProvider"


def test_default_provider_keys(reg):
    provider = factory.get_algorithm_provider("DefaultProvider", registry=reg)
    assert provider.fit_predicate_keys == DEFAULT_PREDICATES
    assert provider.priority_function_keys == set(DEFAULT_PRIORITY_WEIGHTS)


def test_cluster_autoscaler_provider_keys(reg):
    provider = factory.get_algorithm_provider("ClusterAutoscalerProvider", registry=reg)
    assert provider.fit_predicate_keys == DEFAULT_PREDICATES
    expected = (set(DEFAULT_PRIORITY_WEIGHTS) - {"LeastRequestedPriority"}) | {"MostRequestedPriority"}
    assert provider.priority_function_keys == expected


@pytest.mark.parametrize("provider_name", ["DefaultProvider", "ClusterAutoscalerProvider"])
def test_provider_priority_weights_and_sorted_order(reg, provider_name):
    provider = factory.get_algorithm_provider(provider_name, registry=reg)
    configs = factory._get_priority_function_configs(provider.priority_function_keys, ARGS, registry=reg)
    names = sorted(provider.priority_function_keys)
    weights = {**DEFAULT_PRIORITY_WEIGHTS, "MostRequestedPriority": 1}
    assert [c.weight for c in configs] == [weights[n] for n in names]
    # old-style Function for the two spreading/affinity priorities, Map(+Reduce) for the rest
    kinds = {n: ("function" if c.function is not None else "map") for n, c in zip(names, configs)}
    assert kinds.pop("SelectorSpreadPriority") == "function"
    assert kinds.pop("InterPodAffinityPriority") == "function"
    assert set(kinds.values()) == {"map"}
    reduces = {n for n, c in zip(names, configs) if c.reduce is not None}
    assert reduces == {"NodeAffinityPriority", "TaintTolerationPriority"}


def test_default_priority_order_and_maximum_total(reg):
    provider = factory.get_algorithm_provider("DefaultProvider", registry=reg)
    assert sorted(provider.priority_function_keys) == [
        "BalancedResourceAllocation", "InterPodAffinityPriority", "LeastRequestedPriority", "NodeAffinityPriority",
        "NodePreferAvoidPodsPriority", "SelectorSpreadPriority", "TaintTolerationPriority",
    ]
    assert sum(10 * w for w in DEFAULT_PRIORITY_WEIGHTS.values()) == 100060


def test_extra_registrations(reg):
    assert factory.list_registered_fit_predicates(registry=reg) == sorted(
        DEFAULT_PREDICATES | {"PodFitsPorts", "PodFitsHostPorts", "PodFitsResources", "HostName", "MatchNodeSelector"}
    )
    assert factory.list_registered_priority_functions(registry=reg) == sorted(
        set(DEFAULT_PRIORITY_WEIGHTS) | {"ServiceSpreadingPriority", "EqualPriority", "ImageLocalityPriority", "MostRequestedPriority"}
    )
    built = factory._get_fit_predicate_functions(
        ["PodFitsPorts", "PodFitsHostPorts", "PodFitsResources", "HostName", "MatchNodeSelector"], ARGS, registry=reg
    )
    assert built == {
        "HostName": preds.pod_fits_host, "MatchNodeSelector": preds.pod_selector_matches,
        "PodFitsHostPorts": preds.pod_fits_host_ports, "PodFitsPorts": preds.pod_fits_host_ports,
        "PodFitsResources": preds.pod_fits_resources,
    }
    equal, image, most, spreading = factory._get_priority_function_configs(
        ["EqualPriority", "ImageLocalityPriority", "MostRequestedPriority", "ServiceSpreadingPriority"], ARGS, registry=reg
    )
    assert equal.map_fn is equal_priority_map and equal.weight == 1
    assert image.weight == most.weight == spreading.weight == 1
    # ServiceSpreadingPriority = SelectorSpread over services only
    spread = spreading.function.__self__
    assert spread.service_lister is ARGS.service_lister
    assert isinstance(spread.controller_lister, EmptyControllerLister)


def test_metadata_producers_and_equivalence_function(reg):
    predicate_meta = factory._get_predicate_metadata_producer(ARGS, registry=reg)
    assert isinstance(predicate_meta.__self__, PredicateMetadataFactory)
    assert predicate_meta.__self__.pod_lister is ARGS.pod_lister
    assert factory._get_priority_metadata_producer(ARGS, registry=reg) is priority_metadata
    assert reg.get_equivalence_pod_func is defaults.get_equivalence_pod


def test_inter_pod_affinity_factory_uses_args(reg):
    [config] = factory._get_priority_function_configs(["InterPodAffinityPriority"], ARGS, registry=reg)
    ipa = config.function.__self__
    assert ipa.hard_pod_affinity_weight == 1 and ipa.pod_lister is ARGS.pod_lister


# --- KUBE_MAX_PD_VOLS ----------------------------------------------------------------------

MAX_VOLS_CASES = [
    ("unset", None, 39, None),
    ("empty", "", 39, None),
    ("valid", "20", 20, None),
    ("go-test-40", "40", 40, None),
    ("unparsable", "abc", 39,
     'Unable to parse maxiumum PD volumes value, using default of 39: strconv.ParseInt: parsing "abc": invalid syntax'),
    ("whitespace", " 20", 39,
     'Unable to parse maxiumum PD volumes value, using default of 39: strconv.ParseInt: parsing " 20": invalid syntax'),
    ("negative", "-1", 39, "Maximum PD volumes must be a positive value, using default of 39"),
    ("go-test-minus-2", "-2", 39, "Maximum PD volumes must be a positive value, using default of 39"),
    ("zero", "0", 39, "Maximum PD volumes must be a positive value, using default of 39"),
    ("plus-sign", "+7", 7, None),
    ("overflow", "99999999999999999999", 39,
     'Unable to parse maxiumum PD volumes value, using default of 39: strconv.ParseInt: parsing "99999999999999999999": value out of range'),
]


@pytest.mark.parametrize(("raw", "expected", "log"), [c[1:] for c in MAX_VOLS_CASES], ids=[c[0] for c in MAX_VOLS_CASES])
def test_get_max_vols(caplog, raw, expected, log):
    environ = {} if raw is None else {"KUBE_MAX_PD_VOLS": raw}
    caplog.set_level(logging.DEBUG, logger="kschedlearn.glog")
    assert defaults._get_max_vols(39, environ) == expected
    assert caplog.messages == ([] if log is None else [log])
    if log is not None:
        assert caplog.records[0].levelno == logging.ERROR


@pytest.mark.parametrize(("raw", "expected"), [(None, (39, 16, 16)), ("20", (20, 20, 20)), ("abc", (39, 16, 16)), ("0", (39, 16, 16))],
                         ids=["unset", "20-overrides-all-three", "abc", "0"])
def test_max_volume_predicates_read_the_environment_when_built(caplog, raw, expected):
    environ = {} if raw is None else {"KUBE_MAX_PD_VOLS": raw}
    reg = _registry(environ=environ)
    caplog.set_level(logging.DEBUG, logger="kschedlearn.glog")
    assert caplog.messages == []  # nothing is read at registration time
    built = factory._get_fit_predicate_functions(
        ["MaxEBSVolumeCount", "MaxGCEPDVolumeCount", "MaxAzureDiskVolumeCount"], ARGS, registry=reg
    )
    got = tuple(built[n].__self__.max_volumes for n in ["MaxEBSVolumeCount", "MaxGCEPDVolumeCount", "MaxAzureDiskVolumeCount"])
    assert got == expected
    # one log line per factory run for a bad value, none otherwise
    assert len(caplog.messages) == (3 if raw in ("abc", "0") else 0)
    assert built["MaxEBSVolumeCount"].__self__.filter is preds.EBS_VOLUME_FILTER


def test_max_vols_defaults_to_os_environ_at_build_time(monkeypatch):
    reg = _registry()
    monkeypatch.setenv("KUBE_MAX_PD_VOLS", "5")
    built = factory._get_fit_predicate_functions(["MaxGCEPDVolumeCount"], ARGS, registry=reg)
    assert built["MaxGCEPDVolumeCount"].__self__.max_volumes == 5


# --- GetEquivalencePod ---------------------------------------------------------------------

def _pod(*refs):
    return Pod(metadata=ObjectMeta(name="p", namespace="default", owner_references=tuple(refs)))


def test_get_equivalence_pod_takes_the_first_controller_ref():
    rs = OwnerReference(kind="ReplicaSet", name="rs", uid="1", controller=True)
    other = OwnerReference(kind="ReplicaSet", name="rs2", uid="2", controller=True)
    not_ctrl = OwnerReference(kind="Thing", name="t", uid="3", controller=False)
    assert defaults.get_equivalence_pod(_pod(not_ctrl, rs, other)).controller_ref == rs
    assert defaults.get_equivalence_pod(_pod()) == defaults.EquivalencePod()
    assert defaults.get_equivalence_pod(_pod(not_ctrl)).controller_ref == OwnerReference()


def test_get_equivalence_pod_nil_controller_quirk():
    # Go dereferences *ref.Controller without a nil check.
    with pytest.raises(NilPointerDereference):
        defaults.get_equivalence_pod(_pod(OwnerReference(kind="ReplicaSet", name="rs", uid="1")))
