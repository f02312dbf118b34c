"""NodeInfo, Resource, non-zero requests, create_node_name_to_info_map and reconcile_affinity.

Go: plugin/pkg/scheduler/schedulercache/node_info.go (1.6 has no node_info_test.go),
plugin/pkg/scheduler/algorithm/priorities/util/non_zero.go, util.go, reconcile_affinity.go.
"""

from __future__ import annotations

import json

import attrs
import pytest
from schedulercache_builders import OIR_PREFIX, make_base_pod, make_node

from kschedlearn.api.resource import must_parse
from kschedlearn.api.v1.meta import ObjectMeta
from kschedlearn.api.v1.node import TAINT_EFFECT_NO_SCHEDULE, Taint
from kschedlearn.api.v1.pod import (
    Affinity,
    Container,
    NodeAffinity,
    Pod,
    PodAffinity,
    PodAntiAffinity,
    PodSpec,
    ResourceRequirements,
)
from kschedlearn.scheduler.algorithm.priorities.util import (
    DEFAULT_MEMORY_REQUEST,
    DEFAULT_MILLI_CPU_REQUEST,
    get_nonzero_requests,
)
from kschedlearn.scheduler.schedulercache import node_info as ni
from kschedlearn.scheduler.schedulercache.node_info import (
    CacheError,
    NilPointerDereference,
    NodeInfo,
    Resource,
    calculate_resource,
    new_node_info,
)
from kschedlearn.scheduler.schedulercache.reconcile_affinity import reconcile_affinity
from kschedlearn.scheduler.schedulercache.util import create_node_name_to_info_map

GPU = "alpha.kubernetes.io/nvidia-gpu"


def pod_with(name: str, *containers: dict[str, str], init: tuple[dict[str, str], ...] = ()) -> Pod:
    def c(req: dict[str, str]) -> Container:
        return Container(resources=ResourceRequirements(requests={k: must_parse(v) for k, v in req.items()}))

    return Pod(
        metadata=ObjectMeta(namespace="ns", name=name),
        spec=PodSpec(node_name="n", containers=tuple(c(x) for x in containers), init_containers=tuple(c(x) for x in init)),
    )


# --- non_zero.go -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("requests", "want"),
    [
        ({}, (DEFAULT_MILLI_CPU_REQUEST, DEFAULT_MEMORY_REQUEST)),
        ({"cpu": "250m"}, (250, DEFAULT_MEMORY_REQUEST)),
        ({"memory": "1Ki"}, (DEFAULT_MILLI_CPU_REQUEST, 1024)),
        ({"cpu": "0", "memory": "0"}, (0, 0)),  # present-but-zero is not defaulted
        ({"cpu": "1.5", "memory": "1Gi", GPU: "1"}, (1500, 1 << 30)),
    ],
    ids=["empty", "cpu-only", "memory-only", "explicit-zero", "full"],
)
def test_get_nonzero_requests(requests: dict[str, str], want: tuple[int, int]) -> None:
    assert get_nonzero_requests({k: must_parse(v) for k, v in requests.items()}) == want


def test_default_constants() -> None:
    assert DEFAULT_MILLI_CPU_REQUEST == 100
    assert DEFAULT_MEMORY_REQUEST == 209715200


# --- calculate_resource / add_pod / remove_pod -------------------------------------------------


def test_calculate_resource_counts_regular_containers_only() -> None:
    pod = pod_with(
        "p",
        {"cpu": "100m", "memory": "1Ki", GPU: "2", OIR_PREFIX + "foo": "3", "storage": "5"},
        {},
        init=({"cpu": "4", "memory": "4Gi"},),
    )
    res, cpu, mem = calculate_resource(pod)
    assert res == Resource(milli_cpu=100, memory=1024, nvidia_gpu=2, opaque_int_resources={OIR_PREFIX + "foo": 3})
    # second container has no requests: it counts with the defaults on the non-zero side only
    assert (cpu, mem) == (100 + DEFAULT_MILLI_CPU_REQUEST, 1024 + DEFAULT_MEMORY_REQUEST)


def test_pod_with_no_containers_contributes_nothing() -> None:
    assert calculate_resource(pod_with("p")) == (Resource(), 0, 0)


def test_new_node_info_sums_pods_and_counts_generation() -> None:
    a = make_base_pod("n", "a", "100m", "500")
    b = make_base_pod("n", "b", "", "")
    info = new_node_info(a, b)
    assert info.pods() == [a, b]
    assert info.requested_resource() == Resource(milli_cpu=100, memory=500)
    assert info.nonzero_request() == Resource(milli_cpu=200, memory=500 + DEFAULT_MEMORY_REQUEST)
    assert info.generation == 2
    assert info.node() is None
    assert info.memory_pressure_condition() == ""  # Go's zero ConditionStatus


def test_remove_pod_swaps_last_into_place_and_subtracts() -> None:
    pods = [make_base_pod("n", name, "100m", "1") for name in ("a", "b", "c", "d")]
    info = new_node_info(*pods)
    info.remove_pod(pods[0])
    assert [p.metadata.name for p in info.pods()] == ["d", "b", "c"]
    assert info.requested_resource() == Resource(milli_cpu=300, memory=3)
    assert info.generation == 5


def test_remove_pod_matches_by_key_not_identity() -> None:
    a = make_base_pod("n", "a", "100m", "1")
    info = new_node_info(a)
    info.remove_pod(make_base_pod("n", "a", "100m", "1"))
    assert info.pods() == []
    assert info.requested_resource() == Resource(opaque_int_resources={})


def test_remove_missing_pod_errors_with_node_name() -> None:
    info = new_node_info()
    info.set_node(make_node("n1"))
    with pytest.raises(CacheError, match="^no corresponding pod ghost in pods of node n1$"):
        info.remove_pod(make_base_pod("n1", "ghost", "1", "1"))


def test_quirk_remove_missing_pod_without_node_is_a_nil_dereference() -> None:
    """1.6 quirk: the error message reads n.node.Name, and n.node is nil."""
    with pytest.raises(NilPointerDereference):
        new_node_info().remove_pod(make_base_pod("n1", "ghost", "1", "1"))


def test_opaque_resources_add_and_subtract() -> None:
    a = make_base_pod("n", "a", "1", "1", "foo:3")
    b = make_base_pod("n", "b", "1", "1", "foo:5")
    info = new_node_info(a, b)
    assert info.requested_resource().opaque_int_resources == {OIR_PREFIX + "foo": 8}
    info.remove_pod(a)
    assert info.requested_resource().opaque_int_resources == {OIR_PREFIX + "foo": 5}


def _affinity_pod(name: str, affinity: Affinity | None) -> Pod:
    pod = make_base_pod("n", name, "1", "1")
    return attrs.evolve(pod, spec=attrs.evolve(pod.spec, affinity=affinity))


def test_pods_with_affinity_tracks_pod_affinity_and_anti_affinity_only() -> None:
    plain = _affinity_pod("plain", None)
    node_aff = _affinity_pod("node-aff", Affinity(node_affinity=NodeAffinity()))
    pod_aff = _affinity_pod("pod-aff", Affinity(pod_affinity=PodAffinity()))
    anti = _affinity_pod("anti", Affinity(pod_anti_affinity=PodAntiAffinity()))
    info = new_node_info(plain, node_aff, pod_aff, anti)
    assert info.pods_with_affinity() == [pod_aff, anti]
    info.remove_pod(pod_aff)
    assert info.pods_with_affinity() == [anti]


# --- set_node / remove_node ----------------------------------------------------------------------


def test_set_node_records_allocatable_taints_and_conditions() -> None:
    taint = Taint(key="k", value="v", effect=TAINT_EFFECT_NO_SCHEDULE)
    node = make_node(
        "n1",
        {"cpu": "2", "memory": "4Gi", GPU: "1", "pods": "110", OIR_PREFIX + "foo": "7", "storage": "9"},
        taints=(taint,),
        conditions={"MemoryPressure": "True", "DiskPressure": "False", "Ready": "True"},
    )
    info = new_node_info()
    info.set_node(node)
    assert info.node() is node
    assert info.allocatable_resource() == Resource(
        milli_cpu=2000, memory=4 << 30, nvidia_gpu=1, opaque_int_resources={OIR_PREFIX + "foo": 7}
    )
    assert info.allowed_pod_number() == 110
    assert info.taints() == (taint,)
    assert (info.memory_pressure_condition(), info.disk_pressure_condition()) == ("True", "False")
    assert info.generation == 1


def test_set_node_keeps_values_missing_from_the_new_node() -> None:
    info = new_node_info()
    info.set_node(make_node("n1", {"cpu": "2", "memory": "1Gi"}, conditions={"MemoryPressure": "True"}))
    info.set_node(make_node("n1", {"cpu": "4"}))
    assert info.allocatable_resource() == Resource(milli_cpu=4000, memory=1 << 30)
    assert info.memory_pressure_condition() == "True"  # a vanished condition is not reset
    assert info.generation == 2


def test_remove_node_resets_node_side_and_keeps_pods() -> None:
    pod = make_base_pod("n1", "a", "1", "1")
    info = new_node_info(pod)
    node = make_node("n1", {"cpu": "2", "pods": "10"}, taints=(Taint(key="k", effect="NoSchedule"),))
    info.set_node(node)
    info.remove_node(node)
    assert info.node() is None
    assert info.allocatable_resource() == Resource()
    assert info.allowed_pod_number() == 0
    assert info.taints() == ()
    assert info.memory_pressure_condition() == "Unknown"
    assert info.disk_pressure_condition() == "Unknown"
    assert info.pods() == [pod]
    assert info.generation == 3


# --- clone / generation / str / nil-safe accessors ----------------------------------------------


def test_clone_is_independent_but_shares_pod_objects() -> None:
    pod = make_base_pod("n1", "a", "100m", "1", "foo:1")
    info = new_node_info(pod)
    info.set_node(make_node("n1", {"cpu": "1"}))
    clone = info.clone()
    assert clone.generation == info.generation == 2
    assert clone.pods() == info.pods() and clone.pods() is not info.pods()
    assert clone.pods()[0] is pod
    assert clone.node() is info.node()
    clone.add_pod(make_base_pod("n1", "b", "100m", "1"))
    assert len(info.pods()) == 1
    assert info.requested_resource() == Resource(milli_cpu=100, memory=1, opaque_int_resources={OIR_PREFIX + "foo": 1})
    assert clone.generation == 3 and info.generation == 2


def test_resource_accessors_return_read_only_views() -> None:
    info = new_node_info(make_base_pod("n", "a", "100m", "1"))
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        info.requested_resource().milli_cpu = 999  # type: ignore[misc]
    mine = info.requested_resource().clone()
    mine.milli_cpu = 999
    assert info.requested_resource().milli_cpu == 100
    assert info.requested_resource() == Resource(milli_cpu=100, memory=1)


def test_resource_view_follows_generation() -> None:
    info = new_node_info(make_base_pod("n", "a", "100m", "1"))
    before = info.requested_resource()
    assert info.requested_resource() is before  # one view per generation
    info.add_pod(make_base_pod("n", "b", "200m", "2"))
    assert before.milli_cpu == 100  # a view is a copy: it keeps the values it was taken with
    assert info.requested_resource().milli_cpu == 300


def test_resource_clone_add_set_opaque_and_resource_list() -> None:
    res = Resource(milli_cpu=1500, memory=1024, nvidia_gpu=1)
    res.add_opaque(OIR_PREFIX + "x", 2)
    res.add_opaque(OIR_PREFIX + "x", 3)
    clone = res.clone()
    clone.set_opaque(OIR_PREFIX + "x", 0)
    assert res.opaque_int_resources == {OIR_PREFIX + "x": 5}
    listed = res.resource_list()
    assert listed["cpu"].milli_value() == 1500
    assert listed["memory"].value() == 1024
    assert listed[GPU].value() == 1
    assert listed[OIR_PREFIX + "x"].value() == 5


def test_str_matches_go_format() -> None:
    info = new_node_info(make_base_pod("n", "a", "100m", "500"))
    assert str(info) == (
        "&NodeInfo{Pods:[a], RequestedResource:&schedulercache.Resource{MilliCPU:100, Memory:500, "
        "NvidiaGPU:0, OpaqueIntResources:map[v1.ResourceName]int64(nil)}, "
        "NonZeroRequest: &schedulercache.Resource{MilliCPU:100, Memory:500, NvidiaGPU:0, "
        "OpaqueIntResources:map[v1.ResourceName]int64(nil)}}"
    )


def test_nil_safe_accessors() -> None:
    assert ni.node(None) is None
    assert ni.pods(None) == [] and ni.pods_with_affinity(None) == []
    assert ni.allowed_pod_number(None) == 0
    assert ni.taints(None) == ()
    assert ni.memory_pressure_condition(None) == "Unknown"
    assert ni.disk_pressure_condition(None) == "Unknown"
    assert ni.requested_resource(None) == Resource()
    assert ni.nonzero_request(None) == Resource()
    assert ni.allocatable_resource(None) == Resource()
    info = new_node_info(make_base_pod("n", "a", "100m", "1"))
    assert ni.pods(info) == info.pods()
    assert ni.requested_resource(info).milli_cpu == 100


def test_node_info_compares_by_identity() -> None:
    assert NodeInfo() != NodeInfo()


# --- util.go -------------------------------------------------------------------------------------


def test_create_node_name_to_info_map() -> None:
    a1 = make_base_pod("a", "a1", "100m", "1")
    a2 = make_base_pod("a", "a2", "200m", "1")
    orphan = make_base_pod("gone", "o", "1", "1")
    node_a, node_b = make_node("a", {"cpu": "1"}), make_node("b", {"cpu": "2"})
    m = create_node_name_to_info_map([a1, a2, orphan], [node_a, node_b])
    assert sorted(m) == ["a", "b", "gone"]
    assert m["a"].pods() == [a1, a2] and m["a"].node() is node_a
    assert m["a"].requested_resource().milli_cpu == 300
    assert m["b"].pods() == [] and m["b"].allocatable_resource().milli_cpu == 2000
    assert m["gone"].node() is None and m["gone"].pods() == [orphan]


# --- reconcile_affinity.go -----------------------------------------------------------------------

_ANNOTATION = "scheduler.alpha.kubernetes.io/affinity"


def _annotated(affinity: Affinity | None, annotation: dict[str, object] | str) -> Pod:
    text = annotation if isinstance(annotation, str) else json.dumps(annotation)
    pod = _affinity_pod("p", affinity)
    return attrs.evolve(pod, metadata=attrs.evolve(pod.metadata, annotations={_ANNOTATION: text}))


def test_reconcile_affinity_ignores_the_annotation_by_default() -> None:
    spec_aff = Affinity(node_affinity=NodeAffinity())
    pod = _annotated(spec_aff, {"podAffinity": {}})
    assert reconcile_affinity(pod) is spec_aff
    assert reconcile_affinity(_annotated(None, {"podAffinity": {}})) is None


def test_reconcile_affinity_with_the_alpha_gate() -> None:
    spec_aff = Affinity(node_affinity=NodeAffinity())
    merged = reconcile_affinity(_annotated(spec_aff, {"podAffinity": {}}), affinity_in_annotations=True)
    assert merged is not None
    assert merged.node_affinity == NodeAffinity() and merged.pod_affinity == PodAffinity()
    whole = reconcile_affinity(_annotated(None, {"podAntiAffinity": {}}), affinity_in_annotations=True)
    assert whole is not None and whole.pod_anti_affinity == PodAntiAffinity()
    # malformed JSON is ignored, like Go's dropped error
    assert reconcile_affinity(_annotated(spec_aff, "{nope"), affinity_in_annotations=True) is spec_aff
