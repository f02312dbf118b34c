"""The accelerated engine's quiet sweeps (``observe/sweep.py``): a second of 1.6's
``cleanupAssumedPods`` that ``nothing_due`` judges quiet changes nothing in the cache when the
mirror runs it (random assumed sets, bindings finished or not, deadlines passed or not), and a
replay with quiet sweeps skipped records the mirror's trace and leaves the mirror's state."""

from __future__ import annotations

import copy
import random
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from kschedlearn import Simulation
from kschedlearn.observe import sweep
from kschedlearn.observe.sweep import nothing_due
from kschedlearn.scheduler.schedulercache.cache import GoPanic, NilPointerDereference, _new_scheduler_cache

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "scheduler" / "schedulercache"))
from schedulercache_builders import make_base_pod  # noqa: E402


def _cache_picture(cache: Any) -> tuple[Any, ...]:
    nodes = {name: (sorted(p.metadata.name for p in info.pods()), info.requested_resource().milli_cpu)
             for name, info in cache._nodes.items()}
    states = {k: (s.pod.metadata.name, s.binding_finished, s.deadline) for k, s in cache._pod_states.items()}
    return nodes, states, list(cache._assumed_pods)


def test_a_quiet_second_changes_nothing() -> None:
    rnd = random.Random(17)
    quiet_seen = due_seen = 0
    for _ in range(300):
        cache = _new_scheduler_cache(30.0, 1.0, None)
        pods = [make_base_pod(f"node-{i % 3}", f"pod-{i:03d}", "100m", "500") for i in range(rnd.randint(0, 12))]
        now = 0.0
        for pod in pods:
            cache.assume_pod(pod)
            if rnd.random() < 0.5:
                cache._finish_binding(pod, rnd.uniform(0, 40))
        if pods and rnd.random() < 0.05:  # a broken state the mirror panics on
            broken = rnd.choice(pods)
            key = f"{broken.metadata.namespace}/{broken.metadata.name}"
            if rnd.random() < 0.5:
                del cache._pod_states[key]
            else:
                cache._pod_states[key].binding_finished = True
                cache._pod_states[key].deadline = None
        now = rnd.uniform(0, 80)
        quiet = nothing_due(cache, now)
        before = copy.deepcopy(_cache_picture(cache))
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                cache._cleanup_assumed_pods(now)
            raised = False
        except (GoPanic, NilPointerDereference):
            raised = True
        if quiet:
            quiet_seen += 1
            assert not raised and _cache_picture(cache) == before
        else:
            due_seen += 1
            assert raised or _cache_picture(cache) != before
    assert quiet_seen > 50 and due_seen > 50


@pytest.fixture(scope="module")
def dump(replay_dump: Callable[..., Path]) -> Path:
    return replay_dump("sweep", 6, 30, 150)


def _run(dump: Path, record: str, quiet: bool, monkeypatch: pytest.MonkeyPatch) -> tuple[Simulation, list[bool]]:
    skipped: list[bool] = []
    real = sweep.unseen_warnings

    def counting() -> bool:
        answer = real()
        skipped.append(answer)
        return answer

    with monkeypatch.context() as m:
        m.setattr(sweep, "unseen_warnings", counting if quiet else (lambda: False))
        sim = Simulation.from_manifests(str(dump), seed=4, engine="accelerated", record=record, snapshots=False)
        world = sim.world
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            world.run(None, until=world.runtime.now + 8)
    return sim, skipped


def _events(sim: Simulation) -> list[tuple[Any, ...]]:
    return [(e.seq, e.time, e.goroutine, e.stage, e.message, e.data, e.stack, e.observed)
            for e in sim.world.tracer.events]


@pytest.mark.slow  # two whole replays per case, one with the quiet sweeps and one without
@pytest.mark.parametrize("record", ["pod", "event"])
def test_quiet_sweeps_leave_the_trace_and_the_cache_as_the_mirror(dump: Path, record: str,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    fast, asked = _run(dump, record, True, monkeypatch)
    slow, _ = _run(dump, record, False, monkeypatch)
    assert _events(fast) == _events(slow)
    cache = next(iter(fast.world.replicas.values())).handles.config_factory.scheduler_cache
    slow_cache = next(iter(slow.world.replicas.values())).handles.config_factory.scheduler_cache
    assert _cache_picture(cache) == _cache_picture(slow_cache)
    if record == "pod":
        assert any(asked)  # the warnings of the 50-QPS backlog are not kept: sweeps skipped
    else:
        assert asked and not any(asked)  # log lines kept: every sweep is the mirror's
        assert any(e.stage == "log" and "Binding is still in progress" in e.message for e in fast.world.tracer.events)
