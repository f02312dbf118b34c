"""The assigned-pod informer's fast pops (``observe/first_list.py``, ``FirstList``) leave the
world as the mirror's pops do: every event (stack, observed call, message, data), the informer's
store, the scheduler cache, the placements — with the trace at pod granularity, off, and at the
granularities where the fast pops stand down."""

from __future__ import annotations

import json
import random
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import pytest

from kschedlearn import Simulation
from kschedlearn.observe import first_list as informers
from kschedlearn.observe.first_list import FirstList
from kschedlearn.observe import node_sums
from kschedlearn.observe.wrap import instance_hooks


def _add_strays(doc: dict[str, Any]) -> None:
    """A pod that is already bound to a node the dump does not hold, and one in another namespace."""
    extra = json.loads(json.dumps(doc["items"][-1]))
    extra["metadata"].update(name="ghost-node", uid="uid-ghost")
    extra["spec"]["nodeName"] = "node-99999"
    extra["status"]["phase"] = "Running"
    other = json.loads(json.dumps(doc["items"][-2]))
    other["metadata"].update(name="elsewhere", uid="uid-elsewhere", namespace="kube-system")
    other["spec"]["nodeName"] = "node-00001"
    other["status"]["phase"] = "Running"
    doc["items"] += [extra, other]


@pytest.fixture(scope="module")
def dump(replay_dump: Callable[..., Path]) -> Path:
    return replay_dump("first", 9, 90, 20, _add_strays)


def _run(dump: Path, record: str, fast: bool, monkeypatch: pytest.MonkeyPatch, *, trace: bool = True,
         seconds: float = 15) -> tuple[Simulation, FirstList]:
    """The dump replayed for ``seconds`` (``fast=False``: every pop the mirror's); its FirstList."""
    with monkeypatch.context() as m:
        if not fast:
            m.setattr(FirstList, "_pop", lambda self, call: informers._MIRROR)
        sim = Simulation.from_manifests(str(dump), seed=3, engine="accelerated", record=record, snapshots=False)
        if not trace:
            sim.world.runtime.tracer = None
        world = sim.world
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            # (as bench_replay.py runs it: Simulation.run_for stops at a breakpoint, which makes
            # every event be built as it is recorded, and then the fast pops stand down)
            world.run(None, until=world.runtime.now + seconds)
    replica = next(iter(sim.world.replicas.values()))
    queue = replica.handles.config_factory.scheduled_pod_populator.config.queue
    hooks = instance_hooks(queue, "pop")
    assert hooks is not None
    return sim, hooks.around[0][1].__self__


def _events(sim: Simulation) -> list[tuple[Any, ...]]:
    return [(e.seq, e.time, e.goroutine, e.process, e.stage, e.message, e.why, e.data, e.stack, e.observed)
            for e in sim.world.tracer.events]


def _state(sim: Simulation) -> tuple[Any, ...]:
    replica = next(iter(sim.world.replicas.values()))
    factory = replica.handles.config_factory
    queue = factory.scheduled_pod_populator.config.queue
    cache = factory.scheduler_cache
    # every field of every NodeInfo the cache's pods change (in order: removal swaps the last in)
    nodes = {name: ([p.metadata.name for p in info._pods], [p.metadata.name for p in info._pods_with_affinity],
                    attrs.asdict(info._requested_resource), attrs.asdict(info._nonzero_request), info.generation)
             for name, info in cache._nodes.items()}
    pods = sorted((key, state.pod.metadata.resource_version, state.binding_finished, state.deadline)
                  for key, state in cache._pod_states.items())
    store = sorted(o.metadata.name for o in factory.scheduled_pod_lister.indexer.list()) \
        if hasattr(factory.scheduled_pod_lister, "indexer") else None
    placements = sorted((k, p.spec.node_name) for k, p in sim.world.api.storage.objects["pods"].items())
    return (nodes, pods, sorted(cache._assumed_pods), list(queue._queue), sorted(queue._items),
            queue._initial_population_count, store, placements)


@pytest.mark.parametrize("record", ["pod", "stage", "event"])
def test_fast_pops_leave_the_world_and_the_trace_as_the_mirror(dump: Path, record: str,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    fast, first = _run(dump, record, True, monkeypatch)
    slow, _ = _run(dump, record, False, monkeypatch)
    assert _events(fast) == _events(slow)
    assert _state(fast) == _state(slow)
    popped = first.pops
    if record == "pod":
        # every bound pod of the first list, then the new ones confirmed as their binding arrives
        assert popped >= 92 + 15
        assert sum(1 for e in fast.world.tracer.events if e.stage == "cache.addPod" and e.data["was_assumed"]) >= 15
    else:
        assert popped == 0  # the queue's, Process's and OnAdd's own events are recorded: the mirror pops


def test_fast_pops_without_a_tracer(dump: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fast, first = _run(dump, "pod", True, monkeypatch, trace=False)
    slow, _ = _run(dump, "pod", False, monkeypatch, trace=False)
    assert _state(fast) == _state(slow)
    assert first.pops >= 90


def test_the_stack_of_a_fast_pop_is_the_captured_one(dump: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each cache.addPod event of a fast pop carries the stack the mirror's pop captures: the
    informer's Pop, Process, OnAdd and addPodToCache lines under processLoop."""
    fast, _ = _run(dump, "pod", True, monkeypatch, seconds=3)
    slow, _ = _run(dump, "pod", False, monkeypatch, seconds=3)
    stacks = {e.stack for e in fast.world.tracer.events if e.stage == "cache.addPod"}
    assert stacks == {e.stack for e in slow.world.tracer.events if e.stage == "cache.addPod"}
    (stack,) = stacks
    assert [f.function for f in stack[-6:]] == [
        "Controller._process_loop", "DeltaFIFO.pop", "_run_process", "_informer_process.<locals>.process",
        "ResourceEventHandlerFuncs.on_add", "ConfigFactory.add_pod_to_cache"]


def test_a_learner_add_pod_makes_the_mirror_pop(dump: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A cache method that is not the mirror's (an exercise's) is what runs: no fast pop."""
    from kschedlearn.scheduler.schedulercache.cache import SchedulerCache

    mirror_add = SchedulerCache.add_pod
    seen: list[str] = []

    def learner_add_pod(self: SchedulerCache, pod: Any) -> None:
        seen.append(pod.metadata.name)
        mirror_add(self, pod)

    monkeypatch.setattr(SchedulerCache, "add_pod", learner_add_pod)
    fast, first = _run(dump, "pod", True, monkeypatch, seconds=3)
    assert first.pops == 0
    assert len(seen) >= 90


def test_inner_frames_name_the_calling_lines() -> None:
    """The five frames a fast pop's stack ends with point at the calls they stand for."""
    import linecache

    for frame, call in zip(informers._inner_frames(), ("_run_process(", "process(item)", "h.on_add(",
                                                        "self.add_func(", "add_pod(")):
        module = sys.modules[frame.module]
        assert call in linecache.getline(module.__file__, frame.line)


def test_random_queues_pop_alike(dump: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Seeded random runs (seeds, lengths) with fast and mirror pops give the same trace."""
    rnd = random.Random(5)
    for _ in range(2):
        seconds = rnd.choice([0.5, 2.0, 7.0])
        fast, _ = _run(dump, "pod", True, monkeypatch, seconds=seconds)
        slow, _ = _run(dump, "pod", False, monkeypatch, seconds=seconds)
        assert _events(fast) == _events(slow)
        assert _state(fast) == _state(slow)


# -- the updates of pods the cache holds (the kubelet's status writes: OnUpdate -> UpdatePod) ----

def _run_in_steps(dump: Path, fast: bool, monkeypatch: pytest.MonkeyPatch, steps: list[tuple[float, Any]],
                  record: str = "pod", keep: frozenset[str] = frozenset()) -> tuple[Simulation, FirstList]:
    """The dump replayed up to each step's time, each step's ``change(sim)`` made there (None:
    nothing); ``keep``: stages the tracer keeps besides ``record``'s."""
    with monkeypatch.context() as m:
        if not fast:
            m.setattr(FirstList, "_pop", lambda self, call: informers._MIRROR)
        sim = Simulation.from_manifests(str(dump), seed=3, engine="accelerated", record=record, snapshots=False)
        world = sim.world
        if keep:
            world.runtime.tracer.keep = world.runtime.tracer.keep | keep
        for until, change in steps:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                world.run(None, until=until)
            if change is not None:
                change(sim)
    replica = next(iter(sim.world.replicas.values()))
    queue = replica.handles.config_factory.scheduled_pod_populator.config.queue
    hooks = instance_hooks(queue, "pop")
    assert hooks is not None
    return sim, hooks.around[0][1].__self__


def _cache(sim: Simulation) -> Any:
    return next(iter(sim.world.replicas.values())).handles.config_factory.scheduler_cache


def test_updates_are_fast_pops_alike(dump: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every kubelet status write of a newly bound pod is an update pop made here: events, the
    informer's store, the cache's NodeInfos and pod states as the mirror's."""
    fast, first = _run_in_steps(dump, True, monkeypatch, [(0.5, None), (3, None)])
    slow, _ = _run_in_steps(dump, False, monkeypatch, [(0.5, None), (3, None)])
    assert _events(fast) == _events(slow)
    assert _state(fast) == _state(slow)
    assert first.updates >= 15
    # the NodeInfos hold the updated objects (Running, with their PodScheduled condition)
    for name, info in _cache(fast)._nodes.items():
        others = _cache(slow)._nodes[name]
        assert [p for p in info.pods()] == [p for p in others.pods()]
        assert [p for p in info.pods_with_affinity()] == [p for p in others.pods_with_affinity()]
        assert info.generation == others.generation


def test_an_update_point_kept_makes_the_mirror_update(dump: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A tracer that keeps cache.updatePod (or handler.OnUpdate) gets the mirror's updates, with
    their stacks; the first list's adds stay fast."""
    for stage in ("cache.updatePod", "handler.OnUpdate"):
        fast, first = _run_in_steps(dump, True, monkeypatch, [(3, None)], keep=frozenset({stage}))
        slow, _ = _run_in_steps(dump, False, monkeypatch, [(3, None)], keep=frozenset({stage}))
        assert first.updates == 0 and first.pops >= 92
        assert sum(1 for e in fast.world.tracer.events if e.stage == stage) >= 15
        assert _events(fast) == _events(slow)
        assert _state(fast) == _state(slow)


def test_a_learner_update_pod_makes_the_mirror_update(dump: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An exercise's UpdatePod is what runs for every update; the adds stay fast."""
    from kschedlearn.scheduler.schedulercache.cache import SchedulerCache

    mirror_update = SchedulerCache.update_pod
    seen: list[str] = []

    def learner_update_pod(self: SchedulerCache, old: Any, new: Any) -> None:
        seen.append(new.metadata.name)
        mirror_update(self, old, new)

    monkeypatch.setattr(SchedulerCache, "update_pod", learner_update_pod)
    fast, first = _run_in_steps(dump, True, monkeypatch, [(3, None)])
    assert first.updates == 0 and first.pops >= 92
    assert len(seen) >= 15


def test_updates_of_pods_missing_from_their_node_are_the_mirror_s(dump: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A pod its NodeInfo no longer holds (UpdatePod's removePod errors) or that the cache no
    longer holds (its error branch): the mirror's update, with its log lines, and the same world."""

    def break_some(sim: Simulation) -> None:
        cache = _cache(sim)
        keys = sorted(k for k in cache._pod_states if "/new-" in k and k not in cache._assumed_pods)
        assert len(keys) >= 6
        for key in keys[:3]:  # off its NodeInfo
            info = cache._nodes[cache._pod_states[key].pod.spec.node_name]
            info._pods[:] = [p for p in info._pods if f"{p.metadata.namespace}/{p.metadata.name}" != key]
        for key in keys[3:6]:  # out of the cache
            del cache._pod_states[key]

    steps = [(0.5, break_some), (3, None)]
    fast, first = _run_in_steps(dump, True, monkeypatch, steps)
    slow, _ = _run_in_steps(dump, False, monkeypatch, steps)
    assert _events(fast) == _events(slow)
    assert _state(fast) == _state(slow)
    assert 0 < first.updates <= 20 - 6


# -- the NodeInfo sums made by a fast pop (``observe/node_sums.py``, ``_Sums``) -------------------

def _add_odd_pods(doc: dict[str, Any]) -> None:
    """Bound pods with an opaque resource (their sums are the mirror's), with pod anti-affinity
    (a NodeInfo's pods-with-affinity list), with two containers, and one bound to an unknown node."""
    _add_strays(doc)
    pods = [i for i in doc["items"] if i["kind"] == "Pod" and i["spec"].get("nodeName")]
    for i, item in enumerate(pods[:12]):
        kind = i % 3
        if kind == 0:
            item["spec"]["containers"][0]["resources"]["requests"]["pod.alpha.kubernetes.io/opaque-int-resource-foo"] = "2"
        elif kind == 1:
            item["spec"]["affinity"] = {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
                {"labelSelector": {"matchLabels": {"name": "other"}}, "topologyKey": "kubernetes.io/hostname"}]}}
        else:
            second = json.loads(json.dumps(item["spec"]["containers"][0]))
            second["name"] = "second"
            second["resources"]["requests"] = {"cpu": "250m"}
            second["resources"]["limits"] = {"cpu": "250m"}
            second["ports"] = []
            item["spec"]["containers"].append(second)


@pytest.fixture(scope="module")
def odd_dump(replay_dump: Callable[..., Path]) -> Path:
    return replay_dump("odd", 9, 90, 20, _add_odd_pods)


def test_sums_of_odd_pods_are_the_mirror_s(odd_dump: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Opaque resources (the mirror's sums), affinity terms, several containers, a NodeInfo made
    for an unknown node: the NodeInfos, events and world as the mirror's."""
    fast, first = _run_in_steps(odd_dump, True, monkeypatch, [(0.5, None), (3, None)])
    slow, _ = _run_in_steps(odd_dump, False, monkeypatch, [(0.5, None), (3, None)])
    assert _events(fast) == _events(slow)
    assert _state(fast) == _state(slow)
    assert first.pops >= 92 + 15 and first.updates >= 15
    assert any(info._pods_with_affinity for info in _cache(fast)._nodes.values())
    assert any(info._requested_resource.opaque_int_resources for info in _cache(fast)._nodes.values())


def test_a_learner_calculate_resource_is_what_sums(dump: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An exercise's calculateResource (swapped in the module, as ``t05_1`` does) is what the
    cache's addPod and removePod call: no sums made here, the same world as the mirror's."""
    from kschedlearn.scheduler.schedulercache import node_info

    mirror = node_info.calculate_resource
    seen: list[str] = []

    def learner_calculate_resource(pod: Any) -> Any:
        seen.append(pod.metadata.name)
        return mirror(pod)

    monkeypatch.setattr(node_info, "calculate_resource", learner_calculate_resource)
    fast, first = _run_in_steps(dump, True, monkeypatch, [(3, None)])
    fast_seen = len(seen)
    slow, _ = _run_in_steps(dump, False, monkeypatch, [(3, None)])
    assert first.pops >= 92 and first.updates >= 15
    assert fast_seen == len(seen) - fast_seen >= 92 + 2 * 15
    assert _state(fast) == _state(slow)


def _odd_pods() -> list[Any]:
    from kschedlearn.api.v1 import Pod
    from kschedlearn.api.v1.codec import decode_object

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    try:
        from bench_replay import make_dump
    finally:
        sys.path.pop(0)
    doc = make_dump(3, 24, 0)
    _add_odd_pods(doc)
    return [decode_object(Pod, item) for item in doc["items"] if item["kind"] == "Pod"]


def test_sums_change_nodes_and_note_names_as_the_cache_s_calls() -> None:
    """_Sums.add / remove against the cache's own _add_pod / _remove_pod (behind the accelerated
    engine's CacheChanges probes), pod by pod: every NodeInfo field, the noted names."""
    from kschedlearn.accelerated.changelog import track_cache
    from kschedlearn.scheduler.schedulercache.cache import _new_scheduler_cache

    pods = _odd_pods()
    mirror, here = _new_scheduler_cache(30, 1, None), _new_scheduler_cache(30, 1, None)
    changes = {id(c): track_cache(c) for c in (mirror, here)}
    sums = node_sums._Sums()
    summed = 0
    for step in ("add", "remove"):
        for pod in (pods if step == "add" else pods[::2]):
            for c in (mirror, here):
                changes[id(c)].names = set()
            key = informers.get_pod_key(pod)
            if step == "add":
                mirror._add_pod(pod)
                assert sums.usable(here)
                found = sums.requests(pod)
                if found is None:
                    here._add_pod(pod)
                else:
                    sums.add(here, pod, found)
                    summed += 1
            else:
                mirror._remove_pod(pod)
                n = here._nodes[pod.spec.node_name]
                found = sums.requests(pod)
                if found is None:
                    here._remove_pod(pod)
                else:
                    sums.remove(here, n, pod, key, informers._first_of(n._pods, key), found)
                    summed += 1
            assert changes[id(here)].names == changes[id(mirror)].names == {pod.spec.node_name}
            assert _nodes_of(here) == _nodes_of(mirror)
    assert summed >= 20
    assert any(info._pods_with_affinity for info in here._nodes.values())
    assert "node-99999" not in here._nodes  # (removed with its last pod: no node object)


def _nodes_of(cache: Any) -> dict[str, Any]:
    return {name: ([p.metadata.name for p in info._pods], [p.metadata.name for p in info._pods_with_affinity],
                   attrs.asdict(info._requested_resource), attrs.asdict(info._nonzero_request), info.generation,
                   info._node) for name, info in cache._nodes.items()}


def test_sums_step_aside(monkeypatch: pytest.MonkeyPatch) -> None:
    """No sums made here when a probe on the cache's _add_pod holds another hook, when
    calculateResource or NodeInfo's addPod is a learner's."""
    from kschedlearn.accelerated.changelog import track_cache
    from kschedlearn.observe.wrap import on_method
    from kschedlearn.scheduler.schedulercache import node_info
    from kschedlearn.scheduler.schedulercache.cache import _new_scheduler_cache

    cache = _new_scheduler_cache(30, 1, None)
    track_cache(cache)
    sums = node_sums._Sums()
    assert sums.usable(cache)
    with monkeypatch.context() as m:
        mirror = node_info.calculate_resource
        m.setattr(node_info, "calculate_resource", lambda pod: mirror(pod))
        assert not sums.usable(cache)
    with monkeypatch.context() as m:
        m.setattr(node_info.NodeInfo, "add_pod", lambda self, pod: None)
        assert not sums.usable(cache)
    assert sums.usable(cache)
    on_method(cache, "_add_pod", before=lambda call: None)
    assert not sums.usable(cache)


def test_sums_keep_one_answer_per_spec_of_a_5000_node_replay(monkeypatch: pytest.MonkeyPatch) -> None:
    """A replay's bound pods share one decoded spec per node (nodeName is in the spec): 5,001
    containers tuples at 5,000 nodes. Each is converted once (the memo is not emptied before it
    holds them all), and every answer is calculateResource's for a pod holding it."""
    from kschedlearn.scheduler.schedulercache import node_info

    pod = next(p for p in _odd_pods()[12:] if p.spec.node_name != "node-99999")  # (a plain replica)
    specs = [attrs.evolve(pod.spec, containers=tuple(attrs.evolve(c) for c in pod.spec.containers))
             for _ in range(5001)]
    pods = [attrs.evolve(pod, spec=spec) for spec in specs]
    mirror = node_info.calculate_resource
    converted: list[Any] = []

    def counting(p: Any) -> Any:
        converted.append(p)
        return mirror(p)

    monkeypatch.setattr(node_sums, "_CALCULATE", counting)
    sums = node_sums._Sums()
    first = [sums.requests(p) for p in pods]
    again = [sums.requests(p) for p in pods]
    assert len(converted) == 5001
    assert all(a is b for a, b in zip(first, again))
    for p, found in zip(pods[::500], first[::500]):
        want = mirror(p)
        assert (attrs.asdict(found[0]), found[1:]) == (attrs.asdict(want[0]), want[1:])


# -- calm pops: the checks of the last fast pop kept while its goroutine has not parked ------------

def _counting_calm(monkeypatch: pytest.MonkeyPatch) -> tuple[list[bool], list[int]]:
    """Every answer of ``FirstList._is_calm`` from now on, and how many pops each call of
    ``FirstList._drain`` added."""
    answers: list[bool] = []
    drained: list[int] = []
    is_calm, drain = FirstList._is_calm, FirstList._drain

    def counted(self: FirstList, *args: Any) -> bool:
        answers.append(is_calm(self, *args))
        return answers[-1]

    def counted_drain(self: FirstList, *args: Any) -> Any:
        before = self.pops
        try:
            return drain(self, *args)
        finally:
            drained.append(self.pops - before)

    monkeypatch.setattr(FirstList, "_is_calm", counted)
    monkeypatch.setattr(FirstList, "_drain", counted_drain)
    return answers, drained


def test_calm_pops_leave_the_world_and_the_trace_as_the_mirror(dump: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The first list's pops come one after the other without a park: after its first, they are
    drained in one call of Pop, and a pop after a fast one keeps its checks; the events (stacks
    included) and the state are the mirror's, field by field."""
    answers, drained = _counting_calm(monkeypatch)
    fast, first = _run(dump, "pod", True, monkeypatch)
    slow, _ = _run(dump, "pod", False, monkeypatch)
    assert _events(fast) == _events(slow)
    assert _state(fast) == _state(slow)
    assert sum(drained) >= 85 and any(answers) and not all(answers)  # (after a wait, a pop checks everything)
    assert first.pops >= 92 + 15


def test_calm_pops_stand_aside_with_snapshots(dump: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With snapshots the queue's and the cache's watches count each pop and the snapshot builder
    sees each event as it comes: no pop is calm and none is drained (each checks everything, one
    call of Pop each), and the fast pops still leave the mirror's world."""
    answers, drained = _counting_calm(monkeypatch)
    with monkeypatch.context() as m:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            sim = Simulation.from_manifests(str(dump), seed=3, engine="accelerated", record="pod", snapshots=True,
                                            snapshot_every=1)
            sim.world.run(None, until=sim.world.runtime.now + 3)
            m.setattr(FirstList, "_pop", lambda self, call: informers._MIRROR)
            slow = Simulation.from_manifests(str(dump), seed=3, engine="accelerated", record="pod", snapshots=True,
                                             snapshot_every=1)
            slow.world.run(None, until=slow.world.runtime.now + 3)
    assert answers and not any(answers) and not drained
    assert _events(sim) == _events(slow)
    assert _state(sim) == _state(slow)


def _swap_after(monkeypatch: pytest.MonkeyPatch, n: int, parked: bool, seen: list[str]) -> None:
    """After the ``n``-th fast pop, an exercise's calculateResource swapped in (counting into
    ``seen``) — and, when ``parked``, the runtime's version bumped as a park of the popper and
    another goroutine's turn would (the only ways such a swap can happen between two pops)."""
    from kschedlearn.scheduler.schedulercache import node_info
    from kschedlearn.sim.runtime import current_goroutine

    mirror = node_info.calculate_resource
    pop_front = FirstList._pop_front
    done = [0]

    def learner_calculate_resource(pod: Any) -> Any:
        seen.append(pod.metadata.name)
        return mirror(pod)

    def popping(self: FirstList, *args: Any, **kwargs: Any) -> Any:
        item = pop_front(self, *args, **kwargs)
        if item is not informers._MIRROR:
            done[0] += 1
            if done[0] == n:
                monkeypatch.setattr(node_info, "calculate_resource", learner_calculate_resource)
                if parked:
                    g = current_goroutine()
                    g.runtime.changed(g)
        return item

    monkeypatch.setattr(FirstList, "_pop_front", popping)


def test_a_swap_while_the_popper_was_parked_is_seen_at_the_next_pop(dump: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Step aside: the runtime's version moved during a fast pop of the first list (as if the
    popper had parked, when anything may change) — the drain stops, the next pop checks
    everything, finds the exercise's calculateResource and lets the mirror's addPod call it, for
    every pod after the swap. Without the move (only the popper's own statements ran, as
    between two pops of the first list) the checks are kept: the swap is not looked for until
    the popper waits."""
    seen: list[str] = []
    with monkeypatch.context() as m:
        _swap_after(m, 40, True, seen)
        _run(dump, "pod", True, m, seconds=1)
    assert len(seen) >= 92 - 40
    kept: list[str] = []
    with monkeypatch.context() as m:
        _swap_after(m, 40, False, kept)
        _run(dump, "pod", True, m, seconds=1)
    assert len(seen) - len(kept) >= 92 - 40 - 1


def test_first_of_finds_the_first_pod_of_the_key_as_the_scan_of_remove_pod() -> None:
    """``_first_of`` (the C-speed scan) answers as a scan in Python of removePod's own test, on
    random lists with repeated keys, names that end other names and other namespaces."""
    from kschedlearn.scheduler.schedulercache.node_info import get_pod_key

    pods = [p for p in _odd_pods() if p.spec.node_name != "node-99999"][:4]
    rnd = random.Random(11)
    names = ["a", "ba", "cba", "a-1", "x"]
    made = [attrs.evolve(pods[i % len(pods)], metadata=attrs.evolve(pods[i % len(pods)].metadata, name=name,
                                                                     namespace=ns))
            for i, (name, ns) in enumerate((n, s) for n in names for s in ("default", "kube-system"))]
    for _ in range(300):
        sample = [rnd.choice(made) for _ in range(rnd.randrange(0, 12))]
        key = get_pod_key(rnd.choice(made))
        want = next((i for i, p in enumerate(sample) if get_pod_key(p) == key), -1)
        assert informers._first_of(sample, key) == want
