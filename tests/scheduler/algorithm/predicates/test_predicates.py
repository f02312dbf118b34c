"""Port of plugin/pkg/scheduler/algorithm/predicates/predicates_test.go (v1.6.1), in part.

Go: https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/predicates/predicates_test.go
Ported: TestPodFitsResources (both tables), TestPodFitsHost, TestPodFitsHostPorts,
TestGetUsedPorts, TestDiskConflicts, TestAWSDiskConflicts, TestRBDDiskConflicts,
TestISCSIDiskConflicts, TestPodFitsSelector (nodeSelector + node-affinity cases, affinity in
spec as 1.6 does), plus tests of taints, node pressure, GeneralPredicates, the error strings
and the anti-affinity loop-variable quirk. The remaining tables live beside this file:
test_pod_fits_selector.py (full TestPodFitsSelector), test_service_affinity.py,
test_volume_predicates.py, test_inter_pod_affinity_predicate.py, test_predicates_utils.py.
Skipped: TestPredicatesRegistered (needs the factory registry and a Go source parser).
"""

from __future__ import annotations

import re

import pytest

from kschedlearn.api.resource import BINARY_SI, DECIMAL_SI, new_milli_quantity, new_quantity
from kschedlearn.api.v1.meta import ObjectMeta
from kschedlearn.api.v1.node import Node, NodeCondition, NodeSpec, NodeStatus, Taint
from kschedlearn.api.v1.pod import (
    Affinity,
    AWSElasticBlockStoreVolumeSource,
    Container,
    ContainerPort,
    GCEPersistentDiskVolumeSource,
    ISCSIVolumeSource,
    NodeAffinity,
    NodeSelector,
    NodeSelectorRequirement,
    NodeSelectorTerm,
    Pod,
    PodSpec,
    RBDVolumeSource,
    ResourceRequirements,
    Toleration,
    Volume,
)
from kschedlearn.scheduler.algorithm.predicates import error as errs
from kschedlearn.scheduler.algorithm.predicates import predicates as p
from kschedlearn.scheduler.algorithm.predicates.metadata import predicate_metadata
from kschedlearn.scheduler.schedulercache.node_info import new_node_info

OPAQUE_A = "pod.alpha.kubernetes.io/opaque-int-resource-AAA"
OPAQUE_B = "pod.alpha.kubernetes.io/opaque-int-resource-BBB"


def _id(s: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "_", s).strip("_")


def reasons_of(reasons: list) -> list[str]:
    return [r.get_reason() for r in reasons]


# --- builders (Go: makeAllocatableResources, newResourcePod, newResourceInitPod, newPod) ---


def make_allocatable(milli_cpu: int, memory: int, gpus: int, pods: int, opaque_a: int) -> dict:
    return {
        "cpu": new_milli_quantity(milli_cpu, DECIMAL_SI),
        "memory": new_quantity(memory, BINARY_SI),
        "pods": new_quantity(pods, DECIMAL_SI),
        "alpha.kubernetes.io/nvidia-gpu": new_quantity(gpus, DECIMAL_SI),
        OPAQUE_A: new_quantity(opaque_a, DECIMAL_SI),
    }


def res(milli_cpu: int = 0, memory: int = 0, opaque: dict | None = None) -> dict:
    """A request list like Go's ``schedulercache.Resource{...}.ResourceList()``."""
    out = {"cpu": new_milli_quantity(milli_cpu, DECIMAL_SI), "memory": new_quantity(memory, BINARY_SI)}
    for name, v in (opaque or {}).items():
        out[name] = new_quantity(v, DECIMAL_SI)
    return out


def resource_pod(*usage: dict) -> Pod:
    containers = tuple(Container(resources=ResourceRequirements(requests=u)) for u in usage)
    return Pod(spec=PodSpec(containers=containers))


def resource_init_pod(pod: Pod, *usage: dict) -> Pod:
    import attrs

    return attrs.evolve(pod, spec=attrs.evolve(pod.spec, init_containers=resource_pod(*usage).spec.containers))


def port_pod(host: str, *host_ports: int) -> Pod:
    ports = tuple(ContainerPort(host_port=hp) for hp in host_ports)
    return Pod(spec=PodSpec(node_name=host, containers=(Container(ports=ports),)))


def IRE(name: str, requested: int, used: int, capacity: int) -> errs.InsufficientResourceError:
    return errs.new_insufficient_resource_error(name, requested, used, capacity)


# --- TestPodFitsResources ---------------------------------------------------------------

ENOUGH_PODS = [
    (Pod(), [res(10, 20)], True, "no resources requested always fits", []),
    (resource_pod(res(1, 1)), [res(10, 20)], False, "too many resources fails",
     [IRE("cpu", 1, 10, 10), IRE("memory", 1, 20, 20)]),
    (resource_init_pod(resource_pod(res(1, 1)), res(3, 1)), [res(8, 19)], False,
     "too many resources fails due to init container cpu", [IRE("cpu", 3, 8, 10)]),
    (resource_init_pod(resource_pod(res(1, 1)), res(3, 1), res(2, 1)), [res(8, 19)], False,
     "too many resources fails due to highest init container cpu", [IRE("cpu", 3, 8, 10)]),
    (resource_init_pod(resource_pod(res(1, 1)), res(1, 3)), [res(9, 19)], False,
     "too many resources fails due to init container memory", [IRE("memory", 3, 19, 20)]),
    (resource_init_pod(resource_pod(res(1, 1)), res(1, 3), res(1, 2)), [res(9, 19)], False,
     "too many resources fails due to highest init container memory", [IRE("memory", 3, 19, 20)]),
    (resource_init_pod(resource_pod(res(1, 1)), res(1, 1)), [res(9, 19)], True,
     "init container fits because it's the max, not sum, of containers and init containers", []),
    (resource_init_pod(resource_pod(res(1, 1)), res(1, 1), res(1, 1)), [res(9, 19)], True,
     "multiple init containers fit because it's the max, not sum, of containers and init containers", []),
    (resource_pod(res(1, 1)), [res(5, 5)], True, "both resources fit", []),
    (resource_pod(res(2, 1)), [res(9, 5)], False, "one resource memory fits", [IRE("cpu", 2, 9, 10)]),
    (resource_pod(res(1, 2)), [res(5, 19)], False, "one resource cpu fits", [IRE("memory", 2, 19, 20)]),
    (resource_pod(res(5, 1)), [res(5, 19)], True, "equal edge case", []),
    (resource_init_pod(resource_pod(res(4, 1)), res(5, 1)), [res(5, 19)], True, "equal edge case for init container", []),
    (resource_pod(res(opaque={OPAQUE_A: 1})), [res()], True, "opaque resource fits", []),
    (resource_init_pod(resource_pod(res()), res(opaque={OPAQUE_A: 1})), [res()], True,
     "opaque resource fits for init container", []),
    (resource_pod(res(1, 1, {OPAQUE_A: 10})), [res(0, 0, {OPAQUE_A: 0})], False,
     "opaque resource capacity enforced", [IRE(OPAQUE_A, 10, 0, 5)]),
    (resource_init_pod(resource_pod(res()), res(1, 1, {OPAQUE_A: 10})), [res(0, 0, {OPAQUE_A: 0})], False,
     "opaque resource capacity enforced for init container", [IRE(OPAQUE_A, 10, 0, 5)]),
    (resource_pod(res(1, 1, {OPAQUE_A: 1})), [res(0, 0, {OPAQUE_A: 5})], False,
     "opaque resource allocatable enforced", [IRE(OPAQUE_A, 1, 5, 5)]),
    (resource_init_pod(resource_pod(res()), res(1, 1, {OPAQUE_A: 1})), [res(0, 0, {OPAQUE_A: 5})], False,
     "opaque resource allocatable enforced for init container", [IRE(OPAQUE_A, 1, 5, 5)]),
    (resource_pod(res(1, 1, {OPAQUE_A: 3}), res(1, 1, {OPAQUE_A: 3})), [res(0, 0, {OPAQUE_A: 2})], False,
     "opaque resource allocatable enforced for multiple containers", [IRE(OPAQUE_A, 6, 2, 5)]),
    (resource_init_pod(resource_pod(res()), res(1, 1, {OPAQUE_A: 3}), res(1, 1, {OPAQUE_A: 3})),
     [res(0, 0, {OPAQUE_A: 2})], True, "opaque resource allocatable admits multiple init containers", []),
    (resource_init_pod(resource_pod(res()), res(1, 1, {OPAQUE_A: 6}), res(1, 1, {OPAQUE_A: 3})),
     [res(0, 0, {OPAQUE_A: 2})], False, "opaque resource allocatable enforced for multiple init containers",
     [IRE(OPAQUE_A, 6, 2, 5)]),
    (resource_pod(res(1, 1, {OPAQUE_B: 1})), [res(0, 0)], False,
     "opaque resource allocatable enforced for unknown resource", [IRE(OPAQUE_B, 1, 0, 0)]),
    (resource_init_pod(resource_pod(res()), res(1, 1, {OPAQUE_B: 1})), [res(0, 0)], False,
     "opaque resource allocatable enforced for unknown resource for init container", [IRE(OPAQUE_B, 1, 0, 0)]),
]


@pytest.mark.parametrize("pod,existing,fits,test,reasons", ENOUGH_PODS, ids=[_id(c[3]) for c in ENOUGH_PODS])
def test_pod_fits_resources_enough_pods(pod, existing, fits, test, reasons):
    node_info = new_node_info(*(resource_pod(u) for u in existing))
    node_info.set_node(Node(status=NodeStatus(allocatable=make_allocatable(10, 20, 0, 32, 5))))
    got_fits, got_reasons = p.pod_fits_resources(pod, predicate_metadata(pod, None), node_info)
    assert got_fits == fits
    assert got_reasons == reasons  # full DeepEqual, as Go compares the structs


NOT_ENOUGH_PODS = [
    (Pod(), [res(10, 20)], "even without specified resources predicate fails when there's no space for additional pod"),
    (resource_pod(res(1, 1)), [res(5, 5)], "even if both resources fit predicate fails when there's no space for additional pod"),
    (resource_pod(res(5, 1)), [res(5, 19)], "even for equal edge case predicate fails when there's no space for additional pod"),
    (resource_init_pod(resource_pod(res(5, 1)), res(5, 1)), [res(5, 19)],
     "even for equal edge case predicate fails when there's no space for additional pod due to init container"),
]


@pytest.mark.parametrize("pod,existing,test", NOT_ENOUGH_PODS, ids=[_id(c[2]) for c in NOT_ENOUGH_PODS])
def test_pod_fits_resources_not_enough_pods(pod, existing, test):
    node_info = new_node_info(*(resource_pod(u) for u in existing))
    node_info.set_node(Node(status=NodeStatus(allocatable=make_allocatable(10, 20, 0, 1, 0))))
    fits, reasons = p.pod_fits_resources(pod, predicate_metadata(pod, None), node_info)
    assert fits is False
    assert reasons == [IRE("pods", 1, 1, 1)]
    assert reasons_of(reasons) == ["Insufficient pods"]


def test_pod_fits_resources_without_node_is_an_error():
    with pytest.raises(p.PredicateError, match="node not found"):
        p.pod_fits_resources(Pod(), None, new_node_info())


# --- TestPodFitsHost --------------------------------------------------------------------

HOST = [
    (Pod(), Node(), True, "no host specified"),
    (Pod(spec=PodSpec(node_name="foo")), Node(metadata=ObjectMeta(name="foo")), True, "host matches"),
    (Pod(spec=PodSpec(node_name="bar")), Node(metadata=ObjectMeta(name="foo")), False, "host doesn't match"),
]


@pytest.mark.parametrize("pod,node,fits,test", HOST, ids=[_id(c[3]) for c in HOST])
def test_pod_fits_host(pod, node, fits, test):
    node_info = new_node_info()
    node_info.set_node(node)
    got, reasons = p.pod_fits_host(pod, predicate_metadata(pod, None), node_info)
    assert got == fits
    if not got:
        assert reasons_of(reasons) == ["HostName"]


# --- TestPodFitsHostPorts / TestGetUsedPorts --------------------------------------------

HOST_PORTS = [
    (Pod(), [], True, "nothing running"),
    (port_pod("m1", 8080), [port_pod("m1", 9090)], True, "other port"),
    (port_pod("m1", 8080), [port_pod("m1", 8080)], False, "same port"),
    (port_pod("m1", 8000, 8080), [port_pod("m1", 8080)], False, "second port"),
    (port_pod("m1", 8000, 8080), [port_pod("m1", 8001, 8080)], False, "second port (2)"),
]


@pytest.mark.parametrize("pod,existing,fits,test", HOST_PORTS, ids=[_id(c[3]) for c in HOST_PORTS])
def test_pod_fits_host_ports(pod, existing, fits, test):
    got, reasons = p.pod_fits_host_ports(pod, predicate_metadata(pod, None), new_node_info(*existing))
    assert got == fits
    if not got:
        assert reasons == [errs.ERR_POD_NOT_FITS_HOST_PORTS]


@pytest.mark.parametrize(
    "pods,ports",
    [
        ([port_pod("m1", 9090)], {9090: True}),
        ([port_pod("m1", 9090), port_pod("m1", 9091)], {9090: True, 9091: True}),
        ([port_pod("m1", 9090), port_pod("m2", 9091)], {9090: True, 9091: True}),
    ],
    ids=["one", "two_same_host", "two_hosts"],
)
def test_get_used_ports(pods, ports):
    assert p.get_used_ports(*pods) == ports


# --- TestDiskConflicts / AWS / RBD / ISCSI ----------------------------------------------


def _vol_spec(**source) -> PodSpec:
    return PodSpec(volumes=(Volume(**source),))


DISK_KINDS = {
    "gce": (_vol_spec(gce_persistent_disk=GCEPersistentDiskVolumeSource(pd_name="foo")),
            _vol_spec(gce_persistent_disk=GCEPersistentDiskVolumeSource(pd_name="bar"))),
    "aws": (_vol_spec(aws_elastic_block_store=AWSElasticBlockStoreVolumeSource(volume_id="foo")),
            _vol_spec(aws_elastic_block_store=AWSElasticBlockStoreVolumeSource(volume_id="bar"))),
    "rbd": (_vol_spec(rbd=RBDVolumeSource(ceph_monitors=("a", "b"), rbd_pool="foo", rbd_image="bar", fs_type="ext4")),
            _vol_spec(rbd=RBDVolumeSource(ceph_monitors=("c", "d"), rbd_pool="foo", rbd_image="bar", fs_type="ext4"))),
    "iscsi": (_vol_spec(iscsi=ISCSIVolumeSource(target_portal="127.0.0.1:3260", iqn="iqn.2016-12.server:storage.target01", fs_type="ext4", lun=0)),
              _vol_spec(iscsi=ISCSIVolumeSource(target_portal="127.0.0.2:3260", iqn="iqn.2017-12.server:storage.target01", fs_type="ext4", lun=1))),
}
DISK_CASES = [
    (kind, pod_state, node_state, ok, test)
    for kind in DISK_KINDS
    for pod_state, node_state, ok, test in [
        (None, None, True, "nothing"),
        (None, 0, True, "one state"),
        (0, 0, False, "same state"),
        (1, 0, True, "different state"),
    ]
]


@pytest.mark.parametrize(
    "kind,pod_state,node_state,ok,test", DISK_CASES, ids=[f"{c[0]}-{_id(c[4])}" for c in DISK_CASES]
)
def test_disk_conflicts(kind, pod_state, node_state, ok, test):
    states = DISK_KINDS[kind]
    pod = Pod() if pod_state is None else Pod(spec=states[pod_state])
    node_info = new_node_info() if node_state is None else new_node_info(Pod(spec=states[node_state]))
    got, reasons = p.no_disk_conflict(pod, predicate_metadata(pod, None), node_info)
    assert got == ok
    if not got:
        assert reasons == [errs.ERR_DISK_CONFLICT]


def test_gce_disk_read_only_on_both_sides_does_not_conflict():
    ro = _vol_spec(gce_persistent_disk=GCEPersistentDiskVolumeSource(pd_name="foo", read_only=True))
    assert p.no_disk_conflict(Pod(spec=ro), None, new_node_info(Pod(spec=ro))) == (True, [])


# --- TestPodFitsSelector (1.6: affinity lives in spec.affinity) -------------------------


def _node_affinity_pod(*terms: tuple) -> Pod:
    """``terms``: tuples of (key, operator, values) per term; ``None`` -> no required terms list."""
    node_terms = tuple(
        NodeSelectorTerm(match_expressions=tuple(NodeSelectorRequirement(key=k, operator=o, values=tuple(v)) for k, o, v in t))
        for t in terms
    )
    req = NodeSelector(node_selector_terms=node_terms)
    return Pod(spec=PodSpec(affinity=Affinity(node_affinity=NodeAffinity(required_during_scheduling_ignored_during_execution=req))))


SELECTOR = [
    (Pod(), {}, True, "no selector"),
    (Pod(spec=PodSpec(node_selector={"foo": "bar"})), {}, False, "missing labels"),
    (Pod(spec=PodSpec(node_selector={"foo": "bar"})), {"foo": "bar"}, True, "same labels"),
    (Pod(spec=PodSpec(node_selector={"foo": "bar"})), {"foo": "bar", "baz": "blah"}, True, "node labels are superset"),
    (Pod(spec=PodSpec(node_selector={"foo": "bar", "baz": "blah"})), {"foo": "bar"}, False, "node labels are subset"),
    (_node_affinity_pod([("foo", "In", ["bar", "value2"])]), {"foo": "bar"}, True,
     "Pod with matchExpressions using In operator that matches the existing node"),
    (_node_affinity_pod([("kernel-version", "Gt", ["0204"])]), {"kernel-version": "0206"}, True,
     "Pod with matchExpressions using Gt operator that matches the existing node"),
    (_node_affinity_pod([("mem-type", "NotIn", ["DDR", "DDR2"])]), {"mem-type": "DDR3"}, True,
     "Pod with matchExpressions using NotIn operator that matches the existing node"),
    (_node_affinity_pod([("GPU", "Exists", [])]), {"GPU": "NVIDIA-GRID-K1"}, True,
     "Pod with matchExpressions using Exists operator that matches the existing node"),
    (_node_affinity_pod([("foo", "In", ["value1", "value2"])]), {"foo": "bar"}, False,
     "Pod with affinity that don't match node's labels won't schedule onto the node"),
    (_node_affinity_pod(), {"foo": "bar"}, False,
     "Pod with an empty []NodeSelectorTerm in affinity, can't match the node's labels and won't schedule onto the node"),
    (_node_affinity_pod([]), {"foo": "bar"}, False,
     "Pod with empty MatchExpressions is not a valid value will match no objects and won't schedule onto the node"),
    (Pod(spec=PodSpec(affinity=Affinity(node_affinity=NodeAffinity()))), {"foo": "bar"}, True,
     "Pod with no Affinity will schedule onto a node"),
    (_node_affinity_pod([("foo", "BadOp", ["x"])]), {"foo": "x"}, False,
     "Pod with an invalid operator does not match (parse error)"),
    (_node_affinity_pod([("foo", "In", ["nope"])], [("diffkey", "In", ["wrong", "value2"])]), {"foo": "bar"}, False,
     "Pod with multiple NodeSelectorTerms ORed in affinity, matches none"),
    (_node_affinity_pod([("foo", "In", ["bar"])], [("diffkey", "In", ["wrong", "value2"])]), {"foo": "bar"}, True,
     "Pod with multiple NodeSelectorTerms ORed in affinity, matches the node's labels and will schedule onto the node"),
]


@pytest.mark.parametrize("pod,node_labels,fits,test", SELECTOR, ids=[_id(c[3]) for c in SELECTOR])
def test_pod_fits_selector(pod, node_labels, fits, test):
    node_info = new_node_info()
    node_info.set_node(Node(metadata=ObjectMeta(labels=node_labels)))
    got, reasons = p.pod_selector_matches(pod, predicate_metadata(pod, None), node_info)
    assert got == fits
    if not got:
        assert reasons_of(reasons) == ["MatchNodeSelector"]


# --- TestNodeLabelPresence --------------------------------------------------------------

LABEL_PRESENCE = [
    (["baz"], True, False, "label does not match, presence true"),
    (["baz"], False, True, "label does not match, presence false"),
    (["foo", "baz"], True, False, "one label matches, presence true"),
    (["foo", "baz"], False, False, "one label matches, presence false"),
    (["foo", "bar"], True, True, "all labels match, presence true"),
    (["foo", "bar"], False, False, "all labels match, presence false"),
]


@pytest.mark.parametrize("labels,presence,fits,test", LABEL_PRESENCE, ids=[_id(c[3]) for c in LABEL_PRESENCE])
def test_node_label_presence(labels, presence, fits, test):
    node_info = new_node_info()
    node_info.set_node(Node(metadata=ObjectMeta(labels={"foo": "bar", "bar": "foo"})))
    pred = p.new_node_label_predicate(labels, presence)
    got, reasons = pred(Pod(), None, node_info)
    assert got == fits
    if not got:
        assert reasons == [errs.ERR_NODE_LABEL_PRESENCE_VIOLATED]


# --- taints, pressure, general ----------------------------------------------------------


def _taint_node(*taints: Taint):
    ni = new_node_info()
    ni.set_node(Node(metadata=ObjectMeta(name="n"), spec=NodeSpec(taints=taints)))
    return ni


TAINTS = [
    ((), (Taint(key="dedicated", value="user1", effect="NoSchedule"),), False,
     "A pod having no tolerations can't be scheduled onto a node with nonempty taints"),
    ((Toleration(key="dedicated", value="user1", effect="NoSchedule"),),
     (Taint(key="dedicated", value="user1", effect="NoSchedule"),), True,
     "A pod which can be scheduled on a dedicated node assigned to user1 with effect NoSchedule"),
    ((Toleration(key="dedicated", operator="Equal", value="user2", effect="NoSchedule"),),
     (Taint(key="dedicated", value="user1", effect="NoSchedule"),), False,
     "A pod which can't be scheduled on a dedicated node assigned to user2 with effect NoSchedule"),
    ((Toleration(key="foo", operator="Exists", effect="NoSchedule"),),
     (Taint(key="foo", value="bar", effect="NoSchedule"),), True,
     "A pod can be scheduled onto the node, with a toleration uses operator Exists that tolerates the taints on the node"),
    ((Toleration(key="foo", operator="Equal", value="bar", effect="PreferNoSchedule"),),
     (Taint(key="foo", value="bar", effect="NoSchedule"),), False,
     "The pod has a toleration that keys and values match the taint on the node, but (non-empty) effect doesn't match"),
    ((Toleration(key="foo", operator="Equal", value="bar"),),
     (Taint(key="foo", value="bar", effect="NoSchedule"),), True,
     "The pod has a toleration that keys and values match the taint on the node, the effect of toleration is empty"),
    ((), (Taint(key="dedicated", value="user1", effect="PreferNoSchedule"),), True,
     "The pod has no toleration, the taint on the node has effect PreferNoSchedule and is ignored"),
    ((), (Taint(key="dedicated", value="user1", effect="NoExecute"),), False,
     "NoExecute taints are checked too in 1.6"),
]


@pytest.mark.parametrize("tolerations,taints,fits,test", TAINTS, ids=[_id(c[3]) for c in TAINTS])
def test_pod_tolerates_taints(tolerations, taints, fits, test):
    pod = Pod(spec=PodSpec(tolerations=tolerations))
    got, reasons = p.pod_tolerates_node_taints(pod, predicate_metadata(pod, None), _taint_node(*taints))
    assert got == fits
    if not got:
        assert reasons_of(reasons) == ["PodToleratesNodeTaints"]


def _pressure_node(cond_type: str) -> object:
    ni = new_node_info()
    ni.set_node(Node(metadata=ObjectMeta(name="n"), status=NodeStatus(conditions=(NodeCondition(type=cond_type, status="True"),))))
    return ni


BEST_EFFORT = Pod()
NON_BEST_EFFORT = resource_pod(res(100, 1000))


@pytest.mark.parametrize(
    "pod,node_cond,fits,test",
    [
        (BEST_EFFORT, "Ready", True, "best-effort pod schedulable on node without memory pressure condition on"),
        (BEST_EFFORT, "MemoryPressure", False, "best-effort pod not schedulable on node with memory pressure condition on"),
        (NON_BEST_EFFORT, "MemoryPressure", True, "non best-effort pod schedulable on node with memory pressure condition on"),
        (NON_BEST_EFFORT, "Ready", True, "non best-effort pod schedulable on node without memory pressure condition on"),
    ],
    ids=lambda v: _id(v) if isinstance(v, str) and " " in v else None,
)
def test_memory_pressure(pod, node_cond, fits, test):
    got, reasons = p.check_node_memory_pressure_predicate(pod, predicate_metadata(pod, None), _pressure_node(node_cond))
    assert got == fits
    if not got:
        assert reasons == [errs.ERR_NODE_UNDER_MEMORY_PRESSURE]


@pytest.mark.parametrize(
    "node_cond,fits", [("Ready", True), ("DiskPressure", False)],
    ids=["pod schedulable on node without pressure condition on", "pod not schedulable on node with pressure condition on"],
)
def test_disk_pressure(node_cond, fits):
    got, reasons = p.check_node_disk_pressure_predicate(Pod(), None, _pressure_node(node_cond))
    assert got == fits
    if not got:
        assert reasons == [errs.ERR_NODE_UNDER_DISK_PRESSURE]


def test_run_general_predicates_collects_all_reasons_in_go_order():
    pod = resource_pod(res(8, 10))
    pod = Pod(spec=PodSpec(containers=(Container(resources=pod.spec.containers[0].resources,
                                                  ports=(ContainerPort(host_port=123),)),),
                           node_name="other", node_selector={"a": "b"}))
    ni = new_node_info(port_pod("machine1", 123), resource_pod(res(5, 19)))
    ni.set_node(Node(metadata=ObjectMeta(name="machine1"), status=NodeStatus(allocatable=make_allocatable(10, 20, 0, 32, 0))))
    fits, reasons = p.general_predicates(pod, predicate_metadata(pod, None), ni)
    assert not fits
    # cpu 8+5 > 10 and memory 10+19 > 20: both resources are short
    assert reasons_of(reasons) == ["Insufficient cpu", "Insufficient memory", "HostName", "PodFitsHostPorts", "MatchNodeSelector"]


# --- failure reason strings -------------------------------------------------------------

REASON_STRINGS = [
    (errs.ERR_DISK_CONFLICT, "NoDiskConflict"),
    (errs.ERR_VOLUME_ZONE_CONFLICT, "NoVolumeZoneConflict"),
    (errs.ERR_NODE_SELECTOR_NOT_MATCH, "MatchNodeSelector"),
    (errs.ERR_POD_AFFINITY_NOT_MATCH, "MatchInterPodAffinity"),
    (errs.ERR_TAINTS_TOLERATIONS_NOT_MATCH, "PodToleratesNodeTaints"),
    (errs.ERR_POD_NOT_MATCH_HOST_NAME, "HostName"),
    (errs.ERR_POD_NOT_FITS_HOST_PORTS, "PodFitsHostPorts"),
    (errs.ERR_NODE_LABEL_PRESENCE_VIOLATED, "CheckNodeLabelPresence"),
    (errs.ERR_SERVICE_AFFINITY_VIOLATED, "CheckServiceAffinity"),
    (errs.ERR_MAX_VOLUME_COUNT_EXCEEDED, "MaxVolumeCount"),
    (errs.ERR_NODE_UNDER_MEMORY_PRESSURE, "NodeUnderMemoryPressure"),
    (errs.ERR_NODE_UNDER_DISK_PRESSURE, "NodeUnderDiskPressure"),
    (errs.ERR_FAKE_PREDICATE, "FakePredicateError"),
    (IRE("cpu", 1, 2, 3), "Insufficient cpu"),
    (IRE("memory", 1, 2, 3), "Insufficient memory"),
    (IRE("pods", 1, 2, 3), "Insufficient pods"),
    (IRE("alpha.kubernetes.io/nvidia-gpu", 1, 2, 3), "Insufficient alpha.kubernetes.io/nvidia-gpu"),
    (IRE(OPAQUE_A, 1, 2, 3), f"Insufficient {OPAQUE_A}"),
    (errs.new_failure_reason("extender said no"), "extender said no"),
]


@pytest.mark.parametrize("reason,text", REASON_STRINGS, ids=[_id(t) for _, t in REASON_STRINGS])
def test_failure_reason_strings(reason, text):
    assert reason.get_reason() == text


def test_error_texts():
    assert errs.ERR_DISK_CONFLICT.error() == "Predicate NoDiskConflict failed"
    e = IRE("cpu", 3, 8, 10)
    assert e.error() == "Node didn't have enough resource: cpu, requested: 3, used: 8, capacity: 10"
    assert e.get_insufficient_amount() == 1


def test_get_max_vols():
    assert p.get_max_vols(16, {}) == 16
    assert p.get_max_vols(16, {"KUBE_MAX_PD_VOLS": "7"}) == 7
    assert p.get_max_vols(16, {"KUBE_MAX_PD_VOLS": "x"}) == 16
    assert p.get_max_vols(39, {"KUBE_MAX_PD_VOLS": "0"}) == 39
