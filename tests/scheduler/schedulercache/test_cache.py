"""Port of plugin/pkg/scheduler/schedulercache/cache_test.go, plus the 1.6 quirks.

Go: https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/cache_test.go

Go builds the cache with ``newSchedulerCache(ttl, period, nil)`` (no sweep goroutine) and drives
time through ``finishBinding(pod, now)`` / ``cleanupAssumedPods(now)``; so do we. Times are
simulated seconds from 0.0 (Go uses time.Now() as the origin).
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from kschedlearn.observe.views import cache_state
from schedulercache_builders import OIR_PREFIX, make_base_pod, make_node

from kschedlearn import sim
from kschedlearn.api.resource import must_parse
from kschedlearn.api.v1.meta import ObjectMeta
from kschedlearn.api.v1.node import TAINT_EFFECT_PREFER_NO_SCHEDULE, Taint
from kschedlearn.api.v1.pod import Container, ContainerPort, Pod, PodSpec, ResourceRequirements
from kschedlearn.scheduler.algorithm.priorities.util import (
    DEFAULT_MEMORY_REQUEST,
    DEFAULT_MILLI_CPU_REQUEST,
)
from kschedlearn.scheduler.schedulercache.cache import (
    SchedulerCache,
    _new_scheduler_cache,
    new,
)
from kschedlearn.scheduler.schedulercache.node_info import (
    CacheError,
    GoPanic,
    NilPointerDereference,
    NodeInfo,
    Resource,
)
from kschedlearn.trace.glog import FatalError

NODE = "node"
NOW = 0.0
TTL = 10.0
P80 = (ContainerPort(host_port=80),)
P8080 = (ContainerPort(host_port=8080),)


@attrs.frozen
class Want:
    """The Go test's expected ``*NodeInfo`` (generation ignored, as deepEqualWithoutGeneration)."""

    requested: Resource
    nonzero: Resource
    pods: tuple[Pod, ...]
    allocatable: Resource = attrs.field(factory=Resource)


def check_node_info(got: NodeInfo | None, want: Want | None) -> None:
    """Go: deepEqualWithoutGeneration -- every field but generation."""
    if want is None:
        assert got is None, f"node info get={got}, want=nil"
        return
    assert got is not None, f"node info get=nil, want={want}"
    assert got.requested_resource() == want.requested, str(got)
    assert got.nonzero_request() == want.nonzero, str(got)
    assert got.allocatable_resource() == want.allocatable
    assert [id(p) for p in got.pods()] == [id(p) for p in want.pods]
    assert got.pods_with_affinity() == []
    assert got.node() is None
    assert got.allowed_pod_number() == 0
    assert got.taints() == ()


def r(milli_cpu: int = 0, memory: int = 0, **opaque: int) -> Resource:
    return Resource(
        milli_cpu=milli_cpu,
        memory=memory,
        opaque_int_resources={OIR_PREFIX + k: v for k, v in opaque.items()},
    )


def assume_and_finish_binding(cache: SchedulerCache, pod: Pod, assumed_time: float) -> None:
    """Go: assumeAndFinishBinding(cache, pod, assumedTime)"""
    cache.assume_pod(pod)
    cache._finish_binding(pod, assumed_time)


# --- TestAssumePodScheduled ----------------------------------------------------------------------

_ASSUME_PODS = [
    make_base_pod(NODE, "test", "100m", "500", "", P80),
    make_base_pod(NODE, "test-1", "100m", "500", "", P80),
    make_base_pod(NODE, "test-2", "200m", "1Ki", "", P8080),
    make_base_pod(NODE, "test-nonzero", "", "", "", P80),
    make_base_pod(NODE, "test", "100m", "500", "oir-foo:3", P80),
    make_base_pod(NODE, "test-2", "200m", "1Ki", "oir-foo:5", P8080),
    make_base_pod(NODE, "test", "100m", "500", "random-invalid-oir-key:100", (ContainerPort(),)),
]
_P = _ASSUME_PODS


@pytest.mark.parametrize(
    ("pods", "want"),
    [
        ([_P[0]], Want(r(100, 500), r(100, 500), (_P[0],))),
        ([_P[1], _P[2]], Want(r(300, 1524), r(300, 1524), (_P[1], _P[2]))),
        (
            [_P[3]],  # test non-zero request
            Want(r(0, 0), r(DEFAULT_MILLI_CPU_REQUEST, DEFAULT_MEMORY_REQUEST), (_P[3],)),
        ),
        ([_P[4]], Want(r(100, 500, **{"oir-foo": 3}), r(100, 500), (_P[4],))),
        ([_P[4], _P[5]], Want(r(300, 1524, **{"oir-foo": 8}), r(300, 1524), (_P[4], _P[5]))),
        ([_P[6]], Want(r(100, 500), r(100, 500), (_P[6],))),
    ],
    ids=[f"TestAssumePodScheduled#{i}" for i in range(6)],
)
def test_assume_pod_scheduled(pods: list[Pod], want: Want) -> None:
    cache = _new_scheduler_cache(1.0, 1.0, None)
    for pod in pods:
        cache.assume_pod(pod)
    check_node_info(cache._nodes.get(NODE), want)

    for pod in pods:
        cache.forget_pod(pod)
    assert cache._nodes.get(NODE) is None, f"NodeInfo should be cleaned for {NODE}"


# --- TestExpirePod -------------------------------------------------------------------------------

_E = [
    make_base_pod(NODE, "test-1", "100m", "500", "", P80),
    make_base_pod(NODE, "test-2", "200m", "1Ki", "", P8080),
]


@pytest.mark.parametrize(
    ("pods", "cleanup_time", "want"),
    [
        ([(_E[0], NOW)], NOW + 2 * TTL, None),  # assumed pod would expire
        (  # first one would expire, second one would not
            [(_E[0], NOW), (_E[1], NOW + 3 * TTL / 2)],
            NOW + 2 * TTL,
            Want(r(200, 1024), r(200, 1024), (_E[1],)),
        ),
    ],
    ids=["TestExpirePod#0", "TestExpirePod#1"],
)
def test_expire_pod(pods: list[tuple[Pod, float]], cleanup_time: float, want: Want | None) -> None:
    cache = _new_scheduler_cache(TTL, 1.0, None)
    for pod, assumed_time in pods:
        assume_and_finish_binding(cache, pod, assumed_time)
    # pods whose assumed_time + ttl < cleanup_time get expired and removed
    cache._cleanup_assumed_pods(cleanup_time)
    check_node_info(cache._nodes.get(NODE), want)


# --- TestAddPodWillConfirm -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pods_to_assume", "pods_to_add", "want"),
    [([_E[0], _E[1]], [_E[0]], Want(r(100, 500), r(100, 500), (_E[0],)))],
    ids=["TestAddPodWillConfirm#0"],
)
def test_add_pod_will_confirm(pods_to_assume: list[Pod], pods_to_add: list[Pod], want: Want) -> None:
    cache = _new_scheduler_cache(TTL, 1.0, None)
    for pod in pods_to_assume:
        assume_and_finish_binding(cache, pod, NOW)
    for pod in pods_to_add:
        cache.add_pod(pod)
    cache._cleanup_assumed_pods(NOW + 2 * TTL)
    # confirmed pods are not expired
    check_node_info(cache._nodes.get(NODE), want)


# --- TestAddPodAfterExpiration -------------------------------------------------------------------

_BASE = make_base_pod(NODE, "test", "100m", "500", "", P80)


@pytest.mark.parametrize(
    ("pod", "want"),
    [(_BASE, Want(r(100, 500), r(100, 500), (_BASE,)))],
    ids=["TestAddPodAfterExpiration#0"],
)
def test_add_pod_after_expiration(pod: Pod, want: Want) -> None:
    cache = _new_scheduler_cache(TTL, 1.0, None)
    assume_and_finish_binding(cache, pod, NOW)
    cache._cleanup_assumed_pods(NOW + 2 * TTL)
    assert cache._nodes.get(NODE) is None  # expired and removed
    cache.add_pod(pod)
    check_node_info(cache._nodes.get(NODE), want)


# --- TestUpdatePod / TestExpireAddUpdatePod ------------------------------------------------------

_U = [
    make_base_pod(NODE, "test", "100m", "500", "", P80),
    make_base_pod(NODE, "test", "200m", "1Ki", "", P8080),
]
_UPDATE_WANTS = [Want(r(200, 1024), r(200, 1024), (_U[1],)), Want(r(100, 500), r(100, 500), (_U[0],))]


@pytest.mark.parametrize(
    ("pods_to_add", "pods_to_update", "wants"),
    [([_U[0]], [_U[0], _U[1], _U[0]], _UPDATE_WANTS)],  # add a pod and then update it twice
    ids=["TestUpdatePod#0"],
)
def test_update_pod(pods_to_add: list[Pod], pods_to_update: list[Pod], wants: list[Want]) -> None:
    cache = _new_scheduler_cache(TTL, 1.0, None)
    for pod in pods_to_add:
        cache.add_pod(pod)
    for i in range(1, len(pods_to_update)):
        cache.update_pod(pods_to_update[i - 1], pods_to_update[i])
        check_node_info(cache._nodes.get(NODE), wants[i - 1])


@pytest.mark.parametrize(
    ("pods_to_assume", "pods_to_add", "pods_to_update", "wants"),
    [([_U[0]], [_U[0]], [_U[0], _U[1], _U[0]], _UPDATE_WANTS)],
    ids=["TestExpireAddUpdatePod#0"],
)
def test_expire_add_update_pod(
    pods_to_assume: list[Pod], pods_to_add: list[Pod], pods_to_update: list[Pod], wants: list[Want]
) -> None:
    """Assumed, expired, added back, then updated twice."""
    cache = _new_scheduler_cache(TTL, 1.0, None)
    for pod in pods_to_assume:
        assume_and_finish_binding(cache, pod, NOW)
    cache._cleanup_assumed_pods(NOW + 2 * TTL)
    for pod in pods_to_add:
        cache.add_pod(pod)
    for i in range(1, len(pods_to_update)):
        cache.update_pod(pods_to_update[i - 1], pods_to_update[i])
        check_node_info(cache._nodes.get(NODE), wants[i - 1])


# --- TestRemovePod / TestForgetPod ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("pod", "want"),
    [(_BASE, Want(r(100, 500), r(100, 500), (_BASE,)))],
    ids=["TestRemovePod#0"],
)
def test_remove_pod(pod: Pod, want: Want) -> None:
    cache = _new_scheduler_cache(1.0, 1.0, None)
    cache.add_pod(pod)
    check_node_info(cache._nodes.get(NODE), want)
    cache.remove_pod(pod)
    assert cache._nodes.get(NODE) is None, "expecting pod deleted and nil node info"


@pytest.mark.parametrize("pods", [[_BASE]], ids=["TestForgetPod#0"])
def test_forget_pod(pods: list[Pod]) -> None:
    cache = _new_scheduler_cache(TTL, 1.0, None)
    for pod in pods:
        assume_and_finish_binding(cache, pod, NOW)
    for pod in pods:
        cache.forget_pod(pod)
    cache._cleanup_assumed_pods(NOW + 2 * TTL)
    assert cache._nodes.get(NODE) is None, "expecting pod deleted and nil node info"


# --- TestNodeOperators ---------------------------------------------------------------------------

_OP_NODE = "test-node"
_FOO = OIR_PREFIX + "foo"


def _op_node(memory: str = "100m") -> Any:
    return make_node(
        _OP_NODE,
        {"cpu": "1000m", "memory": memory, _FOO: "1"},
        taints=(Taint(key="test-key", value="test-value", effect=TAINT_EFFECT_PREFER_NO_SCHEDULE),),
    )


def _op_pod(name: str, ports: tuple[ContainerPort, ...] = ()) -> Pod:
    req = {"cpu": must_parse("500m"), "memory": must_parse("50m")}
    return Pod(
        metadata=ObjectMeta(name=name),
        spec=PodSpec(
            node_name=_OP_NODE,
            containers=(Container(resources=ResourceRequirements(requests=req), ports=ports),),
        ),
    )


@pytest.mark.parametrize(
    "pods",
    [
        [_op_pod("pod1", (ContainerPort(name="http", host_port=80, container_port=80),))],
        [_op_pod("pod1"), _op_pod("pod2")],
    ],
    ids=["TestNodeOperators#0", "TestNodeOperators#1"],
)
def test_node_operators(pods: list[Pod]) -> None:
    node = _op_node()
    cache = _new_scheduler_cache(1.0, 1.0, None)
    cache.add_node(node)
    for pod in pods:
        cache.add_pod(pod)

    # Case 1: the node was added into the cache (Go: buildNodeInfo simulates SetNode + addPods).
    got = cache._nodes[_OP_NODE]
    n = len(pods)
    assert got.node() is node
    # "50m" of memory is 0.05 bytes: Value() rounds up to 1 byte per pod.
    assert got.requested_resource() == Resource(milli_cpu=500 * n, memory=n)
    assert got.nonzero_request() == Resource(milli_cpu=500 * n, memory=n)
    assert got.allocatable_resource() == Resource(milli_cpu=1000, memory=1, opaque_int_resources={_FOO: 1})
    assert got.taints() == node.spec.taints
    assert got.pods() == pods
    assert got.generation == 1 + n

    # Case 2: dump cached nodes.
    cached: dict[str, NodeInfo] = {}
    cache.update_node_name_to_info_map(cached)
    assert list(cached) == [_OP_NODE]
    clone = cached[_OP_NODE]
    assert clone is not got
    assert clone.generation == got.generation
    assert clone.requested_resource() == got.requested_resource()
    assert clone.pods() == got.pods()

    # Case 3: update a node attribute.
    cache.update_node(None, _op_node(memory="50m"))
    assert cache._nodes[_OP_NODE].allocatable_resource().memory == 1  # 0.05 rounds up to 1
    assert cache._nodes[_OP_NODE].generation == 2 + n

    # Case 4: the NodeInfo stays while pods remain.
    cache.remove_node(node)
    assert _OP_NODE in cache._nodes
    assert cache._nodes[_OP_NODE].node() is None


# --- errors of the state machine (exact Go strings) ----------------------------------------------

_KEY = "node_info_cache_test/test"


def test_assume_twice_is_an_error() -> None:
    cache = _new_scheduler_cache(TTL, 1.0, None)
    cache.assume_pod(_BASE)
    with pytest.raises(CacheError, match=f"^pod {_KEY} state wasn't initial but get assumed$"):
        cache.assume_pod(_BASE)


def test_add_twice_is_an_error() -> None:
    cache = _new_scheduler_cache(TTL, 1.0, None)
    cache.add_pod(_BASE)
    with pytest.raises(CacheError, match=f"^pod was already in added state. Pod key: {_KEY}$"):
        cache.add_pod(_BASE)


@pytest.mark.parametrize("assumed", [False, True], ids=["unknown", "assumed"])
def test_update_of_a_pod_not_added_is_an_error(assumed: bool) -> None:
    cache = _new_scheduler_cache(TTL, 1.0, None)
    if assumed:
        cache.assume_pod(_BASE)
    with pytest.raises(CacheError, match=f"^pod {_KEY} state wasn't added but get updated$"):
        cache.update_pod(_BASE, _BASE)


@pytest.mark.parametrize("assumed", [False, True], ids=["unknown", "assumed"])
def test_remove_of_a_pod_not_added_is_an_error(assumed: bool) -> None:
    cache = _new_scheduler_cache(TTL, 1.0, None)
    if assumed:
        cache.assume_pod(_BASE)
    with pytest.raises(CacheError, match=f"^pod state wasn't added but get removed. Pod key: {_KEY}$"):
        cache.remove_pod(_BASE)


def test_forget_of_an_added_pod_is_an_error() -> None:
    cache = _new_scheduler_cache(TTL, 1.0, None)
    cache.add_pod(_BASE)
    with pytest.raises(CacheError, match=f"^pod {_KEY} state wasn't assumed but get forgotten$"):
        cache.forget_pod(_BASE)


def test_forget_on_a_different_node_is_an_error() -> None:
    cache = _new_scheduler_cache(TTL, 1.0, None)
    cache.assume_pod(_BASE)
    elsewhere = attrs.evolve(_BASE, spec=attrs.evolve(_BASE.spec, node_name="other"))
    with pytest.raises(CacheError, match=f"^pod {_KEY} state was assumed on a different node$"):
        cache.forget_pod(elsewhere)
    assert cache._assumed_pods == {_KEY: True}  # nothing changed


# --- 1.6 quirks ----------------------------------------------------------------------------------


def test_quirk_forget_unknown_pod_is_a_nil_pointer_panic() -> None:
    """1.6 quirk: ForgetPod dereferences the missing state (fixed in 1.7, PR #44152)."""
    cache = _new_scheduler_cache(TTL, 1.0, None)
    with pytest.raises(NilPointerDereference, match="invalid memory address or nil pointer dereference"):
        cache.forget_pod(_BASE)
    assert isinstance(NilPointerDereference(), GoPanic)
    assert not isinstance(NilPointerDereference(), CacheError)  # scheduler code must not swallow it


def _on(pod: Pod, node_name: str, **changes: Any) -> Pod:
    return attrs.evolve(pod, spec=attrs.evolve(pod.spec, node_name=node_name), **changes)


def test_quirk_update_on_a_different_node_is_fatal() -> None:
    cache = _new_scheduler_cache(TTL, 1.0, None)
    cache.add_pod(_BASE)
    with pytest.raises(FatalError, match="^Schedulercache is corrupted and can badly affect scheduling decisions$"):
        cache.update_pod(_BASE, _on(_BASE, "other"))


def test_quirk_remove_on_a_different_node_is_fatal() -> None:
    cache = _new_scheduler_cache(TTL, 1.0, None)
    cache.add_pod(_BASE)
    with pytest.raises(FatalError, match="^Schedulercache is corrupted"):
        cache.remove_pod(_on(_BASE, "other"))


def test_quirk_stale_assumed_copy_after_add_on_another_node() -> None:
    """Assumed on "node", confirmed on "other": NodeInfos move, the stored pod does not."""
    cache = _new_scheduler_cache(TTL, 1.0, None)
    cache.assume_pod(_BASE)
    added = _on(_BASE, "other")
    cache.add_pod(added)
    assert NODE not in cache._nodes
    assert cache._nodes["other"].pods() == [added]
    assert cache._pod_states[_KEY].pod is _BASE  # the stale assumed copy
    assert cache._assumed_pods == {}
    # The next event for this pod compares against the stale node name: the process dies.
    relabelled = attrs.evolve(added, metadata=attrs.evolve(added.metadata, labels={"a": "b"}))
    with pytest.raises(FatalError):
        cache.update_pod(added, relabelled)
    with pytest.raises(FatalError):
        cache.remove_pod(added)


def test_update_keeps_the_first_stored_pod_object() -> None:
    """1.6 never refreshes podState.pod on UpdatePod, so RemovePod subtracts the old object.

    Pod requests are immutable in the API, so in practice the sums stay right; a changed request
    (impossible in a real cluster) would leave the old amount subtracted.
    """
    cache = _new_scheduler_cache(TTL, 1.0, None)
    cache.add_pod(_U[0])
    cache.update_pod(_U[0], _U[1])
    assert cache._pod_states[_KEY].pod is _U[0]
    cache.add_node(make_node(NODE))  # keep the NodeInfo alive to look at its sums
    cache.remove_pod(_U[1])
    assert cache._nodes[NODE].pods() == []
    assert cache._nodes[NODE].requested_resource() == Resource(milli_cpu=100, memory=524)


# --- expiry details ------------------------------------------------------------------------------


def test_binding_in_progress_is_never_expired() -> None:
    cache = _new_scheduler_cache(TTL, 1.0, None)
    cache.assume_pod(_BASE)
    cache._cleanup_assumed_pods(NOW + 1000 * TTL)
    assert cache._assumed_pods == {_KEY: True}
    assert cache._pod_states[_KEY].deadline is None


def test_expiry_is_strictly_after_the_deadline() -> None:
    cache = _new_scheduler_cache(TTL, 1.0, None)
    assume_and_finish_binding(cache, _BASE, 5.0)
    cache._cleanup_assumed_pods(5.0 + TTL)  # Go: now.After(deadline) is false at equality
    assert _KEY in cache._assumed_pods
    cache._cleanup_assumed_pods(5.0 + TTL + 1e-9)
    assert cache._assumed_pods == {} and cache._pod_states == {}


def test_finish_binding_of_unknown_or_added_pod_is_a_no_op() -> None:
    cache = _new_scheduler_cache(TTL, 1.0, None)
    cache._finish_binding(_BASE, NOW)
    assert cache._pod_states == {}
    cache.add_pod(_BASE)
    cache._finish_binding(_BASE, NOW)
    assert cache._pod_states[_KEY].binding_finished is False
    assert cache._pod_states[_KEY].deadline is None


def test_add_clears_the_deadline() -> None:
    cache = _new_scheduler_cache(TTL, 1.0, None)
    assume_and_finish_binding(cache, _BASE, NOW)
    assert cache._pod_states[_KEY].deadline == NOW + TTL
    cache.add_pod(_BASE)
    assert cache._pod_states[_KEY].deadline is None
    cache._cleanup_assumed_pods(NOW + 2 * TTL)
    assert cache._nodes[NODE].pods() == [_BASE]


def test_assumed_key_without_state_panics() -> None:
    cache = _new_scheduler_cache(TTL, 1.0, None)
    cache._assumed_pods["ns/ghost"] = True
    with pytest.raises(GoPanic, match="^Key found in assumed set but not in podStates"):
        cache._cleanup_assumed_pods(NOW)


def test_new_starts_the_sweep_on_the_simulated_clock() -> None:
    """``new`` runs cleanup every second: the pod goes 30 s (+ <= 1 s) after finish_binding."""
    rt = sim.Runtime()
    stop = sim.Chan()
    holder: dict[str, SchedulerCache] = {}

    def start() -> None:
        cache = new(30.0, stop)
        holder["cache"] = cache
        cache.assume_pod(_BASE)
        sim.sleep(2.5)
        cache.finish_binding(_BASE)  # deadline = 2.5 + 30

    rt.run_fn(start)
    cache = holder["cache"]
    assert cache._pod_states[_KEY].deadline == 32.5
    rt.run(until=32.4)
    assert _KEY in cache._assumed_pods
    rt.run(until=34.0)
    assert cache._assumed_pods == {} and NODE not in cache._nodes
    assert rt.crashes == []


# --- snapshot map, nodes, list, debug_state -----------------------------------------------------


def test_update_node_name_to_info_map_clones_only_changed_and_drops_vanished() -> None:
    cache = _new_scheduler_cache(TTL, 1.0, None)
    cache.add_node(make_node("a"))
    cache.add_node(make_node("b"))
    snapshot: dict[str, NodeInfo] = {"gone": NodeInfo()}
    cache.update_node_name_to_info_map(snapshot)
    assert sorted(snapshot) == ["a", "b"]
    a_before, b_before = snapshot["a"], snapshot["b"]
    cache.add_pod(make_base_pod("a", "p", "1", "1"))
    cache.update_node_name_to_info_map(snapshot)
    assert snapshot["a"] is not a_before and len(snapshot["a"].pods()) == 1
    assert snapshot["b"] is b_before
    assert cache._nodes["a"].pods() is not snapshot["a"].pods()


def test_remove_unknown_node_is_a_nil_pointer_panic() -> None:
    cache = _new_scheduler_cache(TTL, 1.0, None)
    with pytest.raises(NilPointerDereference):
        cache.remove_node(make_node("nope"))


def test_remove_node_without_pods_deletes_the_node_info() -> None:
    cache = _new_scheduler_cache(TTL, 1.0, None)
    node = make_node("a")
    cache.add_node(node)
    cache.remove_node(node)
    assert cache._nodes == {}


@attrs.frozen
class _LabelIs:
    key: str
    value: str

    def matches(self, labels: dict[str, str]) -> bool:
        return labels.get(self.key) == self.value


def test_list_returns_assumed_and_added_pods_matching_the_selector() -> None:
    cache = _new_scheduler_cache(TTL, 1.0, None)
    web1 = make_base_pod("a", "web-1", "1", "1", labels={"app": "web"})
    web2 = make_base_pod("b", "web-2", "1", "1", labels={"app": "web"})
    db = make_base_pod("a", "db", "1", "1", labels={"app": "db"})
    cache.assume_pod(web1)
    cache.add_pod(web2)
    cache.add_pod(db)
    assert cache.list(_LabelIs("app", "web")) == [web1, web2]


def test_debug_state_is_plain_frozen_data() -> None:
    cache = _new_scheduler_cache(TTL, 1.0, None)
    cache.add_node(make_node(NODE, {"cpu": "2", "memory": "1Gi", "pods": "110"}))
    assume_and_finish_binding(cache, _BASE, 3.0)
    other = make_base_pod(NODE, "other", "", "")
    cache.add_pod(other)
    state = cache_state(cache)
    (node,) = state.nodes
    assert node.name == NODE and node.has_node
    assert node.requested.milli_cpu == 100 and node.requested.memory == 500
    assert node.nonzero_request.milli_cpu == 100 + DEFAULT_MILLI_CPU_REQUEST
    assert node.allocatable.milli_cpu == 2000 and node.allocatable.memory == 1 << 30
    assert node.allowed_pod_number == 110
    assert node.pods == (_KEY, "node_info_cache_test/other")
    (assumed,) = state.assumed_pods
    assert (assumed.key, assumed.deadline, assumed.binding_finished) == (_KEY, 3.0 + TTL, True)
    assert len(state.pod_states) == 2
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        state.ttl = 1.0  # type: ignore[misc]
    assert hash(state)  # frozen all the way down
