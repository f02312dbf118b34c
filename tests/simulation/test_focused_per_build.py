"""Within one snapshot build, the sources' "focused replica" is looked up once.

kschedlearn-only (issue 25, teach5). ``SnapshotBuilder.building`` numbers each build; the world's
sources (``simulation/world.py``: ``_focused``) and ``World.focused`` keep their first answer for
the rest of that build. Checked here against the lookup made afresh (``building`` 0: the path
every call took before), at every snapshot of a fail-over — where the focused replica changes —
and outside builds, where nothing is kept (the step-aside case).
"""

from __future__ import annotations

from typing import Any

import pytest

from kschedlearn import Simulation
from kschedlearn.trace.snapshot import SnapshotBuilder


def _sources(builder: SnapshotBuilder) -> dict[str, Any]:
    found = {"cache": builder.cache, "backoff": builder.backoff, **builder.queues}
    return {name: s for name, s in found.items() if s is not None}  # (none before the replicas exist)


def _afresh(builder: SnapshotBuilder, world: Any) -> tuple[Any, dict[str, Any]]:
    """The focused replica and each source's target with no build's memo (``building`` 0)."""
    saved, builder.building = builder.building, 0
    try:
        return world.focused(), {name: s.target() for name, s in _sources(builder).items()}
    finally:
        builder.building = saved


def test_sources_keep_their_first_answer_for_one_build_only(monkeypatch: pytest.MonkeyPatch) -> None:
    sim = Simulation.from_scenario("ha-failover", seed=1)
    world = sim.world
    build = SnapshotBuilder._build
    checked: list[Any] = []

    def checking(self: SnapshotBuilder, stage: Any, data: Any) -> Any:
        assert self.building, "a build runs with its number"
        focused, targets = _afresh(self, world)
        for _ in range(2):  # the first answer is the fresh one, and kept
            assert world.focused() is focused
            assert {name: s.target() for name, s in _sources(self).items()} == targets
        checked.append(focused.name if focused is not None else None)
        return build(self, stage, data)

    monkeypatch.setattr(SnapshotBuilder, "_build", checking)
    sim.run_until(lambda e: e.seq >= 700)
    assert len(checked) > 500
    assert len(set(checked) - {None}) == 2, "the fail-over moves the focus to the other replica"
    assert world.builder.building == 0


def test_outside_a_build_the_focus_follows_a_killed_leader() -> None:
    sim = Simulation.from_scenario("ha-failover", seed=1)
    world = sim.world
    sim.run_until(lambda e: e.seq >= 200)
    builder = world.builder
    assert builder.building == 0
    leader = world.focused()
    assert leader is not None
    queue = builder.queues["podQueue"].target()
    assert queue is leader.handles.config_factory.pod_queue
    world.runtime.kill_process(leader.process, "killed by the test")
    other = world.focused()  # (asked outside a build: looked up again)
    assert other is not leader and other is not None
    assert builder.queues["podQueue"].target() is other.handles.config_factory.pod_queue


def test_a_nested_build_gets_its_own_number(monkeypatch: pytest.MonkeyPatch) -> None:
    sim = Simulation.from_scenario("three-nodes", seed=1)
    sim.run_until(lambda e: e.seq >= 50)
    builder = sim.world.builder
    original = SnapshotBuilder._build
    seen: list[int] = []

    def nested(self: SnapshotBuilder, stage: Any, data: Any) -> Any:
        seen.append(self.building)
        if len(seen) == 1:
            self()  # a snapshot asked from inside a build
            seen.append(self.building)
        return original(self, stage, data)

    monkeypatch.setattr(SnapshotBuilder, "_build", nested)
    builder()
    assert len(seen) == 3 and seen[0] == seen[2] != seen[1] and all(seen)
    assert builder.building == 0
