"""Hypothesis state machine for the scheduler cache against a small model of the pod states.

Random sequences of assume / finish_binding / forget / add / update / remove / add_node /
remove_node / cleanup(now), valid ones and invalid ones alike, checking after every step that:

- each NodeInfo's requested (and non-zero) resources equal the sum over the pods it holds;
- NodeInfos exist exactly for nodes with pods or with a node object;
- assumed pods whose binding finished and whose deadline passed are gone after a cleanup;
- invalid operations fail with the exact Go error (or the 1.6 panic / fatal exit) and change
  nothing.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from kschedlearn.observe.views import cache_state
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule
from tests.hypothesis_budget import examples

from schedulercache_builders import make_base_pod, make_node

from kschedlearn.api.v1.pod import Pod
from kschedlearn.scheduler.schedulercache.cache import _new_scheduler_cache
from kschedlearn.scheduler.schedulercache.node_info import (
    CacheError,
    NilPointerDereference,
    Resource,
    calculate_resource,
)
from kschedlearn.trace.glog import FatalError

NAMES = ("p0", "p1", "p2", "p3")
NODES = ("n0", "n1", "n2")
NS = "ns"
TTL = 30.0
CPUS = ("", "100m", "250m", "1")
MEMS = ("1Ki", "64Mi", "0")


@attrs.define
class Model:
    """What the test expects the cache to hold for one pod key."""

    assumed: bool
    stored_node: str  # node of the pod object the cache keeps in podStates (may be stale)
    obj: Pod  # the pod object currently held by a NodeInfo
    binding_finished: bool = False
    deadline: float | None = None


def key(name: str) -> str:
    return f"{NS}/{name}"


def on_node(pod: Pod, node_name: str) -> Pod:
    return attrs.evolve(pod, spec=attrs.evolve(pod.spec, node_name=node_name))


pods_st = st.builds(
    lambda name, node, cpu, mem: make_base_pod(node, name, cpu, mem, namespace=NS),
    st.sampled_from(NAMES),
    st.sampled_from(NODES),
    st.sampled_from(CPUS),
    st.sampled_from(MEMS),
)


class CacheMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.cache = _new_scheduler_cache(TTL, 1.0, None)
        self.model: dict[str, Model] = {}
        self.node_objects: set[str] = set()
        self.now = 0.0

    # -- operations ------------------------------------------------------------------------------

    @rule(pod=pods_st)
    def assume(self, pod: Pod) -> None:
        k = key(pod.metadata.name)
        if k in self.model:
            with pytest.raises(CacheError, match=f"^pod {k} state wasn't initial but get assumed$"):
                self.cache.assume_pod(pod)
            return
        self.cache.assume_pod(pod)
        self.model[k] = Model(assumed=True, stored_node=pod.spec.node_name, obj=pod)

    @rule(name=st.sampled_from(NAMES))
    def finish_binding(self, name: str) -> None:
        k = key(name)
        m = self.model.get(k)
        pod = m.obj if m is not None else make_base_pod("n0", name, "1", "1", namespace=NS)
        self.cache._finish_binding(pod, self.now)
        if m is not None and m.assumed:
            m.binding_finished, m.deadline = True, self.now + TTL

    @rule(name=st.sampled_from(NAMES), move=st.booleans())
    def forget(self, name: str, move: bool) -> None:
        k = key(name)
        m = self.model.get(k)
        if m is None:  # the 1.6 nil-pointer panic
            with pytest.raises(NilPointerDereference):
                self.cache.forget_pod(make_base_pod("n0", name, "1", "1", namespace=NS))
            return
        pod = on_node(m.obj, "elsewhere") if move else on_node(m.obj, m.stored_node)
        if move:
            with pytest.raises(CacheError, match=f"^pod {k} state was assumed on a different node$"):
                self.cache.forget_pod(pod)
        elif not m.assumed:
            with pytest.raises(CacheError, match=f"^pod {k} state wasn't assumed but get forgotten$"):
                self.cache.forget_pod(pod)
        else:
            self.cache.forget_pod(pod)
            del self.model[k]

    @rule(pod=pods_st)
    def add(self, pod: Pod) -> None:
        k = key(pod.metadata.name)
        m = self.model.get(k)
        if m is None:
            self.cache.add_pod(pod)
            self.model[k] = Model(assumed=False, stored_node=pod.spec.node_name, obj=pod)
        elif m.assumed:
            self.cache.add_pod(pod)
            if pod.spec.node_name != m.stored_node:
                m.obj = pod  # the NodeInfos move; stored_node stays stale (1.6 quirk)
            m.assumed, m.deadline = False, None
        else:
            with pytest.raises(CacheError, match=f"^pod was already in added state. Pod key: {k}$"):
                self.cache.add_pod(pod)

    @rule(name=st.sampled_from(NAMES), label=st.sampled_from(("a", "b")))
    def update(self, name: str, label: str) -> None:
        k = key(name)
        m = self.model.get(k)
        if m is None or m.assumed:
            pod = m.obj if m is not None else make_base_pod("n0", name, "1", "1", namespace=NS)
            with pytest.raises(CacheError, match=f"^pod {k} state wasn't added but get updated$"):
                self.cache.update_pod(pod, pod)
            return
        # Requests are immutable in the API: an update changes labels only.
        new = attrs.evolve(m.obj, metadata=attrs.evolve(m.obj.metadata, labels={"l": label}))
        if m.obj.spec.node_name != m.stored_node:
            with pytest.raises(FatalError, match="^Schedulercache is corrupted"):
                self.cache.update_pod(m.obj, new)
            return
        self.cache.update_pod(m.obj, new)
        m.obj = new

    @rule(name=st.sampled_from(NAMES))
    def remove(self, name: str) -> None:
        k = key(name)
        m = self.model.get(k)
        if m is None or m.assumed:
            pod = m.obj if m is not None else make_base_pod("n0", name, "1", "1", namespace=NS)
            with pytest.raises(CacheError, match=f"^pod state wasn't added but get removed. Pod key: {k}$"):
                self.cache.remove_pod(pod)
            return
        if m.obj.spec.node_name != m.stored_node:
            with pytest.raises(FatalError, match="^Schedulercache is corrupted"):
                self.cache.remove_pod(m.obj)
            return
        self.cache.remove_pod(m.obj)
        del self.model[k]

    @rule(node=st.sampled_from(NODES), cpu=st.sampled_from(("1", "2", "4")))
    def add_node(self, node: str, cpu: str) -> None:
        self.cache.add_node(make_node(node, {"cpu": cpu, "memory": "8Gi", "pods": "110"}))
        self.node_objects.add(node)

    @rule(node=st.sampled_from(NODES))
    def remove_node(self, node: str) -> None:
        if node not in self._expected_node_infos():
            with pytest.raises(NilPointerDereference):
                self.cache.remove_node(make_node(node))
            return
        self.cache.remove_node(make_node(node))
        self.node_objects.discard(node)

    @rule(dt=st.sampled_from((0.0, 0.5, 1.0, 10.0, 29.0, 31.0)))
    def cleanup(self, dt: float) -> None:
        self.now += dt
        self.cache._cleanup_assumed_pods(self.now)
        for k, m in list(self.model.items()):
            if m.assumed and m.binding_finished and m.deadline is not None and self.now > m.deadline:
                del self.model[k]
        # Every assumed pod left is either still binding or not yet past its deadline.
        for k in self.cache._assumed_pods:
            ps = self.cache._pod_states[k]
            assert not ps.binding_finished or not (self.now > ps.deadline)  # type: ignore[operator]

    @precondition(lambda self: bool(self.model))
    @rule()
    def cleanup_far_future(self) -> None:
        """Assumed pods expire: long after everything finished binding, none are left."""
        for k, m in self.model.items():
            if m.assumed and not m.binding_finished:
                self.cache._finish_binding(m.obj, self.now)
                m.binding_finished, m.deadline = True, self.now + TTL
        self.now += TTL + 1.0
        self.cache._cleanup_assumed_pods(self.now)
        self.model = {k: m for k, m in self.model.items() if not m.assumed}
        assert self.cache._assumed_pods == {}

    # -- invariants ------------------------------------------------------------------------------

    def _expected_node_infos(self) -> set[str]:
        return {m.obj.spec.node_name for m in self.model.values()} | self.node_objects

    @invariant()
    def requested_equals_sum_over_pods(self) -> None:
        for name, info in self.cache._nodes.items():
            want, want_nonzero = Resource(), Resource()
            for pod in info.pods():
                assert pod.spec.node_name == name
                res, cpu, mem = calculate_resource(pod)
                want.milli_cpu += res.milli_cpu
                want.memory += res.memory
                want_nonzero.milli_cpu += cpu
                want_nonzero.memory += mem
            assert info.requested_resource() == want
            assert info.nonzero_request() == want_nonzero

    @invariant()
    def cache_matches_model(self) -> None:
        assert set(self.cache._nodes) == self._expected_node_infos()
        held = {key(p.metadata.name): name for name, info in self.cache._nodes.items() for p in info.pods()}
        assert held == {k: m.obj.spec.node_name for k, m in self.model.items()}
        assert set(self.cache._pod_states) == set(self.model)
        assert set(self.cache._assumed_pods) == {k for k, m in self.model.items() if m.assumed}
        for k, m in self.model.items():
            ps = self.cache._pod_states[k]
            assert ps.pod.spec.node_name == m.stored_node
            assert ps.deadline == m.deadline
            if m.assumed:
                assert ps.binding_finished == m.binding_finished

    @invariant()
    def debug_state_agrees(self) -> None:
        state = cache_state(self.cache)
        assert {n.name for n in state.nodes} == set(self.cache._nodes)
        assert {p.key for p in state.assumed_pods} == set(self.cache._assumed_pods)


TestCacheStateMachine = CacheMachine.TestCase
TestCacheStateMachine.settings = settings(max_examples=examples(150), stateful_step_count=40, deadline=None)


def test_machine_is_wired() -> Any:
    """Smoke check that the machine's rules run (guards against a silently empty TestCase)."""
    machine = CacheMachine()
    pod = make_base_pod("n0", "p0", "100m", "1Ki", namespace=NS)
    machine.assume(pod)
    machine.finish_binding("p0")
    machine.cleanup(31.0)
    machine.requested_equals_sum_over_pods()
    machine.cache_matches_model()
    assert machine.model == {}
