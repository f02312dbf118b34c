"""Port of plugin/pkg/scheduler/core/generic_scheduler_test.go (v1.6.1).

Go: https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/core/generic_scheduler_test.go

Go builds the cache with ``schedulercache.New(0, wait.NeverStop)``; here the sweep-less
``_new_scheduler_cache`` does the same job (nothing in these tests expires). Go's
``reflect.DeepEqual(err, wErr)`` on a ``*FitError`` becomes a comparison of the pod and the
failed-predicate map. Go's tests only check that ``selectHost`` picks *one of* the tied hosts;
here the exact round-robin sequence is checked too, since kschedlearn is deterministic.
"""

from __future__ import annotations

from typing import Any

import pytest

from kschedlearn.api.resource import BINARY_SI, DECIMAL_SI, must_parse, new_milli_quantity, new_quantity
from kschedlearn.api.v1 import Node, ObjectMeta, Pod
from kschedlearn.api.v1.node import NodeStatus
from kschedlearn.api.v1.pod import Container, PodSpec, PodStatus, ResourceRequirements
from kschedlearn.apimachinery.util.errors import Aggregate
from kschedlearn.scheduler.algorithm.predicates.error import (
    ERR_FAKE_PREDICATE,
    ERR_NODE_UNDER_DISK_PRESSURE,
    ERR_NODE_UNDER_MEMORY_PRESSURE,
)
from kschedlearn.scheduler.algorithm.priorities.balanced_resource_allocation import (
    balanced_resource_allocation_map,
)
from kschedlearn.scheduler.algorithm.priorities.least_requested import least_requested_priority_map
from kschedlearn.scheduler.algorithm.priorities.metadata import priority_metadata
from kschedlearn.scheduler.algorithm.priorities.selector_spreading import new_selector_spread_priority
from kschedlearn.scheduler.algorithm.priorities.util import (
    DEFAULT_MEMORY_REQUEST,
    DEFAULT_MILLI_CPU_REQUEST,
)
from kschedlearn.scheduler.algorithm.types import PriorityConfig, empty_metadata_producer
from kschedlearn.scheduler.api.types import HostPriority
from kschedlearn.scheduler.core.generic_scheduler import (
    ErrNoNodesAvailable,
    FitError,
    GenericScheduler,
    PredicateRunError,
    SchedulingError,
    equal_priority_map,
    find_nodes_that_fit,
    new_generic_scheduler,
    prioritize_nodes,
)
from kschedlearn.scheduler.schedulercache.cache import _new_scheduler_cache
from kschedlearn.scheduler.schedulercache.node_info import new_node_info
from kschedlearn.scheduler.schedulercache.util import create_node_name_to_info_map
from kschedlearn.scheduler.testing import (
    FakeControllerLister,
    FakeNodeLister,
    FakeReplicaSetLister,
    FakeServiceLister,
    FakeStatefulSetLister,
)

# --- Go's test helpers ------------------------------------------------------------------------


def false_predicate(pod: Pod, meta: Any, node_info: Any) -> tuple[bool, list[Any]]:
    return False, [ERR_FAKE_PREDICATE]


def true_predicate(pod: Pod, meta: Any, node_info: Any) -> tuple[bool, list[Any]]:
    return True, []


def matches_predicate(pod: Pod, meta: Any, node_info: Any) -> tuple[bool, list[Any]]:
    node = node_info.node() if node_info is not None else None
    if node is None:
        raise RuntimeError("node not found")
    if pod.metadata.name == node.metadata.name:
        return True, []
    return False, [ERR_FAKE_PREDICATE]


def has_no_pods_predicate(pod: Pod, meta: Any, node_info: Any) -> tuple[bool, list[Any]]:
    if len(node_info.pods()) == 0:
        return True, []
    return False, [ERR_FAKE_PREDICATE]


def numeric_priority(pod: Pod, node_name_to_info: Any, nodes: list[Node]) -> list[HostPriority]:
    return [HostPriority(host=n.metadata.name, score=int(n.metadata.name)) for n in nodes]


def reverse_numeric_priority(pod: Pod, node_name_to_info: Any, nodes: list[Node]) -> list[HostPriority]:
    result = numeric_priority(pod, node_name_to_info, nodes)
    max_score = max(float(hp.score) for hp in result)
    min_score = min(float(hp.score) for hp in result)
    return [HostPriority(host=hp.host, score=int(max_score + min_score - float(hp.score)))
            for hp in result]


def make_node_list(names: list[str]) -> list[Node]:
    return [Node(metadata=ObjectMeta(name=n)) for n in names]


def _pod(name: str) -> Pod:
    return Pod(metadata=ObjectMeta(name=name))


# --- TestSelectHost ---------------------------------------------------------------------------

SELECT_HOST_CASES = [
    pytest.param([("machine1.1", 1), ("machine2.1", 2)], ["machine2.1"], False, id="one best"),
    pytest.param([("machine1.1", 1), ("machine1.2", 2), ("machine1.3", 2), ("machine2.1", 2)],
                 ["machine2.1", "machine1.3", "machine1.2"], False, id="equal scores"),
    pytest.param([("machine1.1", 3), ("machine1.2", 3), ("machine2.1", 2), ("machine3.1", 1),
                  ("machine1.3", 3)],
                 ["machine1.3", "machine1.2", "machine1.1"], False, id="out of order scores"),
    pytest.param([], [], True, id="empty priorityList"),
]


@pytest.mark.parametrize("scores,round_robin,expects_err", SELECT_HOST_CASES)
def test_select_host(scores: list[tuple[str, int]], round_robin: list[str], expects_err: bool) -> None:
    """Go: TestSelectHost — plus the exact order: ties by host name descending, round robin."""
    scheduler = GenericScheduler(cache=None, predicates={}, predicate_meta_producer=empty_metadata_producer,
                                 prioritizers=[], priority_meta_producer=empty_metadata_producer)
    for i in range(10):  # Go: "increase the randomness"
        priority_list = [HostPriority(host=h, score=s) for h, s in scores]
        if expects_err:
            with pytest.raises(SchedulingError, match="^empty priorityList$"):
                scheduler._select_host(priority_list)
            continue
        got = scheduler._select_host(priority_list)
        assert got == round_robin[i % len(round_robin)]
    assert scheduler.last_node_index == (0 if expects_err else 10)


def test_select_host_counter_is_shared_across_pods() -> None:
    """One lastNodeIndex for all pods: a pod with one best host still advances it."""
    s = GenericScheduler(cache=None, predicates={}, predicate_meta_producer=empty_metadata_producer,
                         prioritizers=[], priority_meta_producer=empty_metadata_producer)
    tied = [HostPriority(host="a", score=1), HostPriority(host="b", score=1)]
    assert s._select_host(list(tied)) == "b"
    assert s._select_host([HostPriority(host="only", score=5)]) == "only"
    # sorted ties are [b, a]; the counter is now 2, so 2 % 2 = 0 picks "b" again, then "a"
    assert [s._select_host(list(tied)) for _ in range(2)] == ["b", "a"]


# --- TestGenericScheduler ---------------------------------------------------------------------

_EQ = [PriorityConfig(map_fn=equal_priority_map, weight=1)]
_NUM = [PriorityConfig(function=numeric_priority, weight=1)]

GENERIC_CASES = [
    pytest.param({"true": true_predicate}, _EQ, [], "ignore", [], None,
                 ErrNoNodesAvailable, None, id="no nodes (kschedlearn)"),
    pytest.param({"false": false_predicate}, _EQ, ["machine1", "machine2"], "2", [], None,
                 FitError, {"machine1": [ERR_FAKE_PREDICATE], "machine2": [ERR_FAKE_PREDICATE]},
                 id="test 1"),
    pytest.param({"true": true_predicate}, _EQ, ["machine1", "machine2"], "ignore", [],
                 {"machine1", "machine2"}, None, None, id="test 2"),
    pytest.param({"matches": matches_predicate}, _EQ, ["machine1", "machine2"], "machine2", [],
                 {"machine2"}, None, None, id="test 3"),
    pytest.param({"true": true_predicate}, _NUM, ["3", "2", "1"], "ignore", [], {"3"}, None, None,
                 id="test 4"),
    pytest.param({"matches": matches_predicate}, _NUM, ["3", "2", "1"], "2", [], {"2"}, None, None,
                 id="test 5"),
    pytest.param({"true": true_predicate},
                 [PriorityConfig(function=numeric_priority, weight=1),
                  PriorityConfig(function=reverse_numeric_priority, weight=2)],
                 ["3", "2", "1"], "2", [], {"1"}, None, None, id="test 6"),
    pytest.param({"true": true_predicate, "false": false_predicate}, _NUM, ["3", "2", "1"], "2", [],
                 None, FitError,
                 {"3": [ERR_FAKE_PREDICATE], "2": [ERR_FAKE_PREDICATE], "1": [ERR_FAKE_PREDICATE]},
                 id="test 7"),
    pytest.param({"nopods": has_no_pods_predicate, "matches": matches_predicate}, _NUM, ["1", "2"], "2",
                 [Pod(metadata=ObjectMeta(name="2"), spec=PodSpec(node_name="2"),
                      status=PodStatus(phase="Running"))],
                 None, FitError, {"1": [ERR_FAKE_PREDICATE], "2": [ERR_FAKE_PREDICATE]}, id="test 8"),
]


@pytest.mark.parametrize(
    "predicates,prioritizers,nodes,pod_name,pods,expected_hosts,err_type,failed", GENERIC_CASES)
def test_generic_scheduler(
    predicates: dict[str, Any], prioritizers: list[PriorityConfig], nodes: list[str], pod_name: str,
    pods: list[Pod], expected_hosts: set[str] | None, err_type: type | None,
    failed: dict[str, list[Any]] | None,
) -> None:
    """Go: TestGenericScheduler."""
    cache = _new_scheduler_cache(0.0, 1.0, None)
    for p in pods:
        cache.add_pod(p)
    for name in nodes:
        cache.add_node(Node(metadata=ObjectMeta(name=name)))
    scheduler = new_generic_scheduler(cache, predicates, empty_metadata_producer, prioritizers,
                                      empty_metadata_producer, [])
    pod = _pod(pod_name)
    if err_type is None:
        machine = scheduler.schedule(pod, FakeNodeLister(make_node_list(nodes)))
        assert expected_hosts is not None and machine in expected_hosts
        return
    with pytest.raises(err_type) as exc:
        scheduler.schedule(pod, FakeNodeLister(make_node_list(nodes)))
    if err_type is FitError:
        assert exc.value.pod == pod
        assert exc.value.failed_predicates == failed
    else:
        assert str(exc.value) == "no nodes available to schedule pods"


def test_generic_scheduler_keeps_its_node_info_snapshot_between_calls() -> None:
    """cachedNodeInfoMap persists; only NodeInfos whose generation changed are re-cloned."""
    cache = _new_scheduler_cache(0.0, 1.0, None)
    for name in ("machine1", "machine2"):
        cache.add_node(Node(metadata=ObjectMeta(name=name)))
    gs = new_generic_scheduler(cache, {"true": true_predicate}, empty_metadata_producer, _EQ,
                               empty_metadata_producer, [])
    lister = FakeNodeLister(make_node_list(["machine1", "machine2"]))
    gs.schedule(_pod("a"), lister)
    first = dict(gs.cached_node_info_map)
    cache.add_pod(Pod(metadata=ObjectMeta(name="x"), spec=PodSpec(node_name="machine2")))
    gs.schedule(_pod("b"), lister)
    assert gs.cached_node_info_map["machine1"] is first["machine1"]
    assert gs.cached_node_info_map["machine2"] is not first["machine2"]
    assert [p.metadata.name for p in gs.cached_node_info_map["machine2"].pods()] == ["x"]


def test_generic_scheduler_round_robins_over_pods() -> None:
    """With equal scores, successive pods go to successive nodes (names descending)."""
    cache = _new_scheduler_cache(0.0, 1.0, None)
    names = ["machine1", "machine2", "machine3"]
    for name in names:
        cache.add_node(Node(metadata=ObjectMeta(name=name)))
    gs = new_generic_scheduler(cache, {"true": true_predicate}, empty_metadata_producer, _EQ,
                               empty_metadata_producer, [])
    got = [gs.schedule(_pod(f"p{i}"), FakeNodeLister(make_node_list(names))) for i in range(4)]
    assert got == ["machine3", "machine2", "machine1", "machine3"]


def test_predicate_error_aborts_with_go_message() -> None:
    """A predicate that errors fails the whole attempt (an aggregate, not a FitError)."""
    cache = _new_scheduler_cache(0.0, 1.0, None)
    gs = new_generic_scheduler(cache, {"matches": matches_predicate}, empty_metadata_producer, _EQ,
                               empty_metadata_producer, [])
    # the cache knows no node objects, so matchesPredicate errors on every node
    with pytest.raises(Aggregate) as exc:
        gs.schedule(_pod("m1"), FakeNodeLister(make_node_list(["m1"])))
    assert str(exc.value) == "SchedulerPredicates failed due to node not found, which is unexpected."
    assert isinstance(exc.value.errs[0], PredicateRunError)


# --- TestFindFitAllError / TestFindFitSomeError ------------------------------------------------


def test_find_fit_all_error() -> None:
    """Go: TestFindFitAllError."""
    nodes = ["3", "2", "1"]
    predicates = {"true": true_predicate, "false": false_predicate}
    infos = {"3": new_node_info(), "2": new_node_info(), "1": new_node_info()}
    filtered, predicate_map = find_nodes_that_fit(
        Pod(), infos, make_node_list(nodes), predicates, [], empty_metadata_producer)
    assert filtered == []
    assert len(predicate_map) == len(nodes)
    for node in nodes:
        assert predicate_map[node] == [ERR_FAKE_PREDICATE]


def test_find_fit_some_error() -> None:
    """Go: TestFindFitSomeError."""
    nodes = ["3", "2", "1"]
    predicates = {"true": true_predicate, "match": matches_predicate}
    pod = _pod("1")
    infos = {"3": new_node_info(), "2": new_node_info(), "1": new_node_info(pod)}
    for name, info in infos.items():
        info.set_node(Node(metadata=ObjectMeta(name=name)))
    filtered, predicate_map = find_nodes_that_fit(
        pod, infos, make_node_list(nodes), predicates, [], empty_metadata_producer)
    assert [n.metadata.name for n in filtered] == ["1"]
    assert len(predicate_map) == len(nodes) - 1
    for node in nodes:
        if node == pod.metadata.name:
            continue
        assert predicate_map[node] == [ERR_FAKE_PREDICATE]


def test_find_fit_runs_every_predicate_without_short_circuit() -> None:
    """1.6: all predicates run on every node; every failing one adds its reasons."""
    infos = {"n": new_node_info()}
    infos["n"].set_node(Node(metadata=ObjectMeta(name="n")))
    _, failed = find_nodes_that_fit(
        Pod(), infos, make_node_list(["n"]),
        {"a": false_predicate, "b": lambda p, m, i: (False, [ERR_NODE_UNDER_DISK_PRESSURE])},
        [], empty_metadata_producer)
    assert failed == {"n": [ERR_FAKE_PREDICATE, ERR_NODE_UNDER_DISK_PRESSURE]}


def test_find_fit_no_predicates_keeps_all_nodes_and_skips_metadata() -> None:
    def producer(pod: Pod, infos: Any) -> None:
        raise AssertionError("metadata must not be computed without predicates")

    nodes = make_node_list(["a", "b"])
    filtered, failed = find_nodes_that_fit(Pod(), {}, nodes, {}, [], producer)
    assert filtered == nodes and failed == {}


# --- TestHumanReadableFitError ----------------------------------------------------------------


def test_human_readable_fit_error() -> None:
    """Go: TestHumanReadableFitError — the 1.6 text, double colon and all."""
    err = FitError(_pod("2"), {
        "1": [ERR_NODE_UNDER_MEMORY_PRESSURE],
        "2": [ERR_NODE_UNDER_DISK_PRESSURE],
        "3": [ERR_NODE_UNDER_DISK_PRESSURE],
    })
    assert "No nodes are available that match all of the following predicates" in err.error()
    assert "NodeUnderDiskPressure (2)" in err.error() and "NodeUnderMemoryPressure (1)" in err.error()
    assert str(err) == ("No nodes are available that match all of the following predicates:: "
                        "NodeUnderDiskPressure (2), NodeUnderMemoryPressure (1).")


def test_fit_error_histogram_sorts_as_strings_and_counts_repeats() -> None:
    """Entries are sorted as whole strings ("(10)" < "(9)"); a reason twice on a node counts 2."""
    failed = {f"n{i}": [ERR_FAKE_PREDICATE] for i in range(10)}
    failed["n0"] = [ERR_FAKE_PREDICATE, ERR_NODE_UNDER_DISK_PRESSURE, ERR_NODE_UNDER_DISK_PRESSURE]
    assert str(FitError(_pod("p"), failed)) == (
        "No nodes are available that match all of the following predicates:: "
        "FakePredicateError (10), NodeUnderDiskPressure (2).")


# --- TestZeroRequest --------------------------------------------------------------------------


def _make_node(name: str, milli_cpu: int, memory: int) -> Node:
    resources = {"cpu": new_milli_quantity(milli_cpu, DECIMAL_SI),
                 "memory": new_quantity(memory, BINARY_SI),
                 "pods": new_quantity(100, DECIMAL_SI)}
    return Node(metadata=ObjectMeta(name=name),
                status=NodeStatus(capacity=resources, allocatable=dict(resources)))


def _spec(cpu_factor: int, node_name: str = "") -> PodSpec:
    if cpu_factor == 0:
        return PodSpec(containers=(Container(),), node_name=node_name)
    requests = {"cpu": must_parse(f"{DEFAULT_MILLI_CPU_REQUEST * cpu_factor}m"),
                "memory": must_parse(str(DEFAULT_MEMORY_REQUEST * cpu_factor))}
    return PodSpec(containers=(Container(resources=ResourceRequirements(requests=requests)),),
                   node_name=node_name)


_ZERO_PODS = [Pod(spec=_spec(3, "machine1")), Pod(spec=_spec(0, "machine1")),
              Pod(spec=_spec(3, "machine2")), Pod(spec=_spec(1, "machine2"))]


@pytest.mark.parametrize("pod_spec,expect_25", [
    pytest.param(_spec(0), True, id="test priority of zero-request pod with machine with zero-request pod"),
    pytest.param(_spec(1), True, id="test priority of nonzero-request pod with machine with zero-request pod"),
    pytest.param(_spec(3), False, id="test priority of larger pod with machine with zero-request pod"),
])
def test_zero_request(pod_spec: PodSpec, expect_25: bool) -> None:
    """Go: TestZeroRequest — a zero-request pod scores like one with the default requests."""
    pod = Pod(spec=pod_spec)
    nodes = [_make_node("machine1", 1000, DEFAULT_MEMORY_REQUEST * 10),
             _make_node("machine2", 1000, DEFAULT_MEMORY_REQUEST * 10)]
    spread = new_selector_spread_priority(FakeServiceLister([]), FakeControllerLister([]),
                                          FakeReplicaSetLister([]), FakeStatefulSetLister([]))
    configs = [PriorityConfig(map_fn=least_requested_priority_map, weight=1),
               PriorityConfig(map_fn=balanced_resource_allocation_map, weight=1),
               PriorityConfig(function=spread, weight=1)]
    infos = create_node_name_to_info_map(_ZERO_PODS, nodes)
    result = prioritize_nodes(pod, infos, priority_metadata(pod, infos), configs, nodes, [])
    assert len(result) == 2
    for hp in result:
        assert (hp.score == 25) is expect_25, result


# --- PrioritizeNodes details (kschedlearn-only checks of generic_scheduler.go) ----------------


def test_prioritize_equal_priority_only_without_priorities_and_extenders() -> None:
    infos = create_node_name_to_info_map([], make_node_list(["a", "b"]))
    assert prioritize_nodes(Pod(), infos, None, [], make_node_list(["a", "b"]), []) == [
        HostPriority(host="a", score=1), HostPriority(host="b", score=1)]


def test_equal_priority_map_without_node_is_an_error() -> None:
    with pytest.raises(SchedulingError, match="^node not found$"):
        equal_priority_map(Pod(), None, new_node_info())


def test_prioritize_weights_and_sums_map_and_function_scores() -> None:
    nodes = make_node_list(["1", "2", "3"])
    infos = create_node_name_to_info_map([], nodes)

    def map_fn(pod: Pod, meta: Any, info: Any) -> HostPriority:
        return HostPriority(host=info.node().metadata.name, score=10 - int(info.node().metadata.name))

    def reduce(pod: Pod, meta: Any, infos: Any, result: list[HostPriority]) -> None:
        for i, hp in enumerate(result):
            result[i] = HostPriority(host=hp.host, score=hp.score * 2)

    configs = [PriorityConfig(map_fn=map_fn, reduce=reduce, weight=3),
               PriorityConfig(function=numeric_priority, weight=5)]
    got = prioritize_nodes(Pod(), infos, None, configs, nodes, [])
    assert got == [HostPriority(host="1", score=9 * 2 * 3 + 5), HostPriority(host="2", score=8 * 6 + 10),
                   HostPriority(host="3", score=7 * 6 + 15)]


def test_prioritize_errors_are_aggregated() -> None:
    nodes = make_node_list(["x"])  # numeric_priority cannot parse "x"
    infos = create_node_name_to_info_map([], nodes)
    with pytest.raises(Aggregate):
        prioritize_nodes(Pod(), infos, None, [PriorityConfig(function=numeric_priority, weight=1)],
                         nodes, [])
