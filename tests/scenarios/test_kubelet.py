"""The simulated kubelet survives injected API faults as a reflector does: failed lists and
watches are retried, ERROR events and closed watches lead to a relist / rewatch, failed status
writes are retried; bound pods still become Running and its process never dies of it."""

from __future__ import annotations

import pytest

from kschedlearn.apimachinery.api.errors import new_internal_error
from kschedlearn.scenarios.scenario import load_scenario
from kschedlearn.simulation.world import build_world


def _world(seed: int = 1):
    return build_world(load_scenario("three-nodes"), seed, snapshots=False, capture_stacks=False)


def _phases(world) -> dict[str, str]:
    return {p.metadata.name: p.status.phase for p in world.api.storage.items("pods") if p.spec.node_name}


def _assert_all_running(world) -> None:
    phases = _phases(world)
    assert phases and set(phases.values()) == {"Running"}, phases
    assert world.kubelet.process.alive
    assert not [c for c in world.runtime.crashes if c.process == "kubelet-sim"]


@pytest.mark.parametrize("verb, n", [("list", 3), ("watch", 3), ("list", 8), ("watch", 8), ("get", 6),
                                     ("update_status", 6)])
def test_kubelet_survives_injected_errors(verb, n):
    world = _world()
    world.api.faults.fail_next(verb, "pods", new_internal_error("injected fault"), n)
    world.run(None)
    _assert_all_running(world)
    assert world.kubelet.errors  # it did meet the faults, and carried on


def test_kubelet_rewatches_after_closed_and_expired_watches():
    world = _world()
    world.run(None, until=0.5)
    world.api.faults.close_watches("pods")
    world.api.faults.expire_watch_window(0, "pods")
    world.api.faults.fail_next("list", "pods", new_internal_error("injected fault"), 2)
    world.run(None)
    _assert_all_running(world)
