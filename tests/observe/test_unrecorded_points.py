"""A trace point whose stage is not recorded builds no message and no data, and the trace is
the same as when it did (``observe.points.unrecorded``).

kschedlearn-only (issue 25). In a thinned history (``record="pod"`` / ``"stage"``) the cache,
informer and handler points used to describe every call (sorting the assumed pods at each
``cleanupAssumedPods`` tick, naming each object of an informer's first list) for an event that
was then dropped. Skipping must keep what the dropped event did: the fast paths that ran since
the last trace point are forgotten (the next recorded event does not name them).
"""

from __future__ import annotations

import pytest

from kschedlearn import Simulation
from kschedlearn.observe import informers, points, scheduler


def _events(scenario: str, record: str, engine: str) -> list[tuple[object, ...]]:
    s = Simulation.from_scenario(scenario, seed=2, record=record, engine=engine, snapshots=False)
    s.run()
    return [(e.seq, e.time, e.goroutine, e.stage, e.message, repr(e.data), e.observed) for e in s.trace]


@pytest.mark.parametrize("engine", ["mirrored", "accelerated"])
@pytest.mark.parametrize("record", ["pod", "stage", "event"])
@pytest.mark.parametrize("scenario", ["three-nodes", "burst-100-pods"])
def test_skipping_unrecorded_points_changes_no_event(scenario: str, record: str, engine: str,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    skipping = _events(scenario, record, engine)
    with monkeypatch.context() as m:  # every point describes its call, as before
        for module in (informers, scheduler):
            m.setattr(module, "unrecorded", lambda stage: False)
        describing = _events(scenario, record, engine)
    assert skipping == describing
    assert skipping


def test_unrecorded_is_false_for_a_kept_stage_and_true_outside_goroutines() -> None:
    assert points.unrecorded("cache.addPod")  # no goroutine here: emit() would record nothing
    s = Simulation.from_scenario("three-nodes", seed=2, record="pod", snapshots=False)
    seen: dict[str, bool] = {}

    def spy(stage: str) -> bool:
        answer = points.unrecorded(stage)
        seen.setdefault(stage, answer)
        return answer

    with pytest.MonkeyPatch.context() as m:
        m.setattr(scheduler, "unrecorded", spy)
        m.setattr(informers, "unrecorded", spy)
        s.run()
    assert seen["assume"] is False and seen["cache.addPod"] is False  # record="pod" keeps them
    assert seen["cleanupAssumedPods"] is True and seen["controller.process_loop"] is True
