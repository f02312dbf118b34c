"""The assumed keys that ``assume``, ``forgetPod`` and ``cleanupAssumedPods`` show, kept in
order from the cache's calls (``observe.scheduler.AssumedOrder``), equal ``sorted`` of the
cache's assumed set after any sequence of the cache's own calls — and after a learner's AddPod
is plugged in (then they are sorted anew)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import attrs
import pytest

from kschedlearn.observe import views
from kschedlearn.observe.scheduler import keep_assumed_order
from kschedlearn.scheduler.schedulercache.cache import CacheError, SchedulerCache, _new_scheduler_cache
from kschedlearn.trace.glog import FatalError

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scheduler" / "schedulercache"))
from schedulercache_builders import make_base_pod  # noqa: E402


def _pods(n: int) -> list:
    return [make_base_pod(f"node-{i % 3}", f"pod-{i:03d}", "100m", "500", namespace=f"ns-{i % 2}") for i in range(n)]


def _random_calls(cache: SchedulerCache, rnd: random.Random, pods: list, steps: int) -> None:
    order = keep_assumed_order(cache)
    now = 0.0
    for _ in range(steps):
        pod = rnd.choice(pods)
        op = rnd.random()
        try:
            if op < 0.35:
                cache.assume_pod(pod)
            elif op < 0.5:
                cache._finish_binding(pod, now)
            elif op < 0.6:
                cache.forget_pod(pod)
            elif op < 0.75:
                cache.add_pod(pod if rnd.random() < 0.8 else attrs.evolve(pod, spec=attrs.evolve(pod.spec, node_name="node-9")))
            elif op < 0.85:
                cache.remove_pod(pod)
            else:
                now += rnd.choice([1.0, 20.0, 40.0])
                cache._cleanup_assumed_pods(now)
        except (CacheError, FatalError, Exception):  # noqa: BLE001 - 1.6's errors and panics: the calls go on
            pass
        assert order.keys_of(cache) == sorted(cache._assumed_pods) == views.assumed_keys(cache)


def test_kept_order_equals_sorted_after_random_calls() -> None:
    rnd = random.Random(4)
    for _ in range(20):
        cache = _new_scheduler_cache(30.0, 1.0, None)
        _random_calls(cache, rnd, _pods(12), 300)


def _plug_in_a_learners_add_pod(monkeypatch) -> None:
    """A plugged-in AddPod that also forgets another assumed pod: not a call the hooks follow."""
    mirror_add = SchedulerCache.add_pod

    def learners_add_pod(self: SchedulerCache, pod) -> None:
        mirror_add(self, pod)
        for key in list(self._assumed_pods)[:1]:
            del self._assumed_pods[key]
            self._pod_states.pop(key, None)

    monkeypatch.setattr(SchedulerCache, "add_pod", learners_add_pod)


def test_a_learners_add_pod_is_followed_by_sorting_anew(monkeypatch) -> None:
    """A plugged-in AddPod that also forgets another assumed pod: not a call the hooks follow
    for that key, so the order is sorted anew while the method is not the mirror's."""
    _plug_in_a_learners_add_pod(monkeypatch)
    rnd = random.Random(9)
    cache = _new_scheduler_cache(30.0, 1.0, None)
    _random_calls(cache, rnd, _pods(10), 300)


@pytest.mark.parametrize("defer", [True, False])
def test_the_points_run_by_the_orders_hook_record_what_hooks_of_their_own_record(defer: bool) -> None:
    """``observe_cache`` runs the ``assume`` and ``cache.addPod`` points from the kept order's
    own hook; a cache whose order was kept before gets them as before / after hooks of their own.
    The same random calls record the same events both ways (deferred or built at once)."""
    from kschedlearn import sim
    from kschedlearn.observe.scheduler import observe_cache
    from kschedlearn.trace import Tracer

    def run(order_first: bool) -> list:
        rt = sim.Runtime(seed=1)
        tracer = rt.tracer = Tracer(capture_stacks=True, defer=defer)
        cache = _new_scheduler_cache(30.0, 1.0, None)
        if order_first:
            keep_assumed_order(cache)
        observe_cache(cache, "default-scheduler")
        rt.go(lambda: _random_calls(cache, random.Random(7), _pods(10), 300), process=rt.new_process("s"), name="main")
        rt.run()
        return tracer.events

    merged, apart = run(False), run(True)
    assert len(merged) > 300
    assert [(e.seq, e.stage, e.message, e.data, e.stack, e.observed) for e in merged] == \
        [(e.seq, e.stage, e.message, e.data, e.stack, e.observed) for e in apart]


@pytest.mark.parametrize("learner", [False, True])
def test_positions_of_the_history_rebuild_the_keys_of_their_time(monkeypatch, learner: bool) -> None:
    """``AssumedOrder.now`` keeps a position of the change log instead of a copy; read after
    hundreds of later changes (many marks on, sorted anew after a learner's AddPod), each
    position rebuilds the very list ``keys_of`` returned then."""
    from kschedlearn.observe import assumed_history

    if learner:
        _plug_in_a_learners_add_pod(monkeypatch)
    rnd = random.Random(11)
    cache = _new_scheduler_cache(30.0, 1.0, None)
    order = keep_assumed_order(cache)
    pods = _pods(40)
    kept = []
    for _ in range(80):
        _random_calls(cache, rnd, pods, 20)
        kept.append((order.now(cache), sorted(cache._assumed_pods)))
    assert len(order.history.changes) > 5 * assumed_history.MARK_EVERY
    assert any(inserted is None for inserted, _ in order.history.changes[1:]) == learner
    for at, expected in kept:
        assert at.keys() == expected
        assert at.keys() is not at.keys()  # a new list at each read


@pytest.mark.parametrize("learner", [False, True])
def test_assume_events_keep_a_position_and_read_as_the_copy_did(monkeypatch, learner: bool) -> None:
    """The ``assume`` point's data read from a position equals, event by event and field by
    field, the copy the point kept before (``keys_of`` at the call); also while a learner's
    AddPod makes the order sort anew (the history logs the new list)."""
    from kschedlearn import sim
    from kschedlearn.observe import scheduler as observe_scheduler
    from kschedlearn.trace import Tracer

    if learner:
        _plug_in_a_learners_add_pod(monkeypatch)

    def run() -> list:
        rt = sim.Runtime(seed=1)
        tracer = rt.tracer = Tracer(capture_stacks=True, defer=True)
        cache = _new_scheduler_cache(30.0, 1.0, None)
        observe_scheduler.observe_cache(cache, "default-scheduler")
        rt.go(lambda: _random_calls(cache, random.Random(5), _pods(40), 1500), process=rt.new_process("s"), name="main")
        rt.run()
        return tracer.events

    logged = run()
    with monkeypatch.context() as m:  # the copy per event, as before
        m.setattr(observe_scheduler, "assumed_keys_now", observe_scheduler.assumed_keys)
        copied = run()
    assumes = [e for e in logged if e.stage == "assume"]
    assert len(assumes) > 80 and max(len(e.data["assumed"]) for e in assumes) > 5
    assert [(e.seq, e.stage, e.message, e.data, e.stack, e.observed) for e in logged] == \
        [(e.seq, e.stage, e.message, e.data, e.stack, e.observed) for e in copied]
