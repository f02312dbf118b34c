"""Snapshots share structure: an unchanged node's part is the very same object as before.

kschedlearn-only. The cache's per-node view (``NodeDebugState``), each pod state and each API
server pod/node view are rebuilt only when what they show changed, so consecutive snapshots
share every other part (identity, not only equality) — cheap snapshots at every event — while
``back``/``goto`` show exactly what was recorded.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from tests.hypothesis_budget import examples

from kschedlearn import Simulation


def _assume_events(sim: Simulation) -> list[int]:
    return [i for i, e in enumerate(sim.trace) if e.stage == "assume" and e.snapshot is not None]


def test_one_node_change_shares_every_other_node_part() -> None:
    sim = Simulation.from_scenario("three-nodes", seed=1)
    sim.run()
    checked = 0
    for i in _assume_events(sim):
        before = next(e.snapshot for e in reversed(sim.trace[:i]) if e.snapshot is not None)
        after = sim.trace[i].snapshot
        node = sim.trace[i].data["node"]
        old = {n.name: n for n in before.cache.nodes}
        new = {n.name: n for n in after.cache.nodes}
        assert new[node] is not old[node] and new[node] != old[node]  # the assumed pod's node changed
        for name in new:
            if name != node:
                assert new[name] is old[name], f"{name} was rebuilt although it did not change"
        unchanged_pods = set(before.cache.pod_states) & set(after.cache.pod_states)
        assert unchanged_pods, "pod states carried over"
        old_api = {p.key: p for p in before.apiserver.pods}
        assert all(p is old_api[p.key] for p in after.apiserver.pods if p == old_api.get(p.key))
        checked += 1
    assert checked >= 1


def test_back_and_goto_show_the_recorded_snapshots() -> None:
    sim = Simulation.from_scenario("three-nodes", seed=1)
    sim.run()
    recorded = [(i, e.snapshot) for i, e in enumerate(sim.trace) if e.snapshot is not None]
    for i, snap in recorded[:: max(1, len(recorded) // 25)]:
        sim.goto(i)
        assert sim.snapshot is snap
    last = recorded[-1][0]
    sim.goto(last)
    sim.back()
    assert sim.cursor < last
    assert sim.snapshot is next(s for i, s in reversed(recorded) if i <= sim.cursor)


def test_shared_snapshots_equal_fresh_ones() -> None:
    """Sharing changes identity only: a snapshot equals one built without any memo."""
    from kschedlearn.observe import views

    sim = Simulation.from_scenario("three-nodes", seed=1)
    sim.run()
    builder = sim.world.builder
    shared = builder()
    views.CACHE_MEMO.clear()
    builder._api_memo.clear()
    builder._goroutine_memo.clear()
    fresh = builder()
    assert attrs_equal(shared, fresh)


def attrs_equal(a: object, b: object) -> bool:
    import attrs

    fa, fb = attrs.asdict(a, recurse=False), attrs.asdict(b, recurse=False)
    fa.pop("seq"), fb.pop("seq")
    return fa == fb


@settings(max_examples=examples(200), deadline=None)
@given(keys=st.lists(st.sampled_from("abcde"), max_size=5), drop=st.booleans(), swap=st.booleans(),
       extra=st.booleans())
def test_same_objects_and_holds_answer_as_all_and_any(keys: list[str], drop: bool, swap: bool, extra: bool) -> None:
    """teach5: the loops asked at every snapshot against the ``all()`` / ``any()`` they replace."""
    from kschedlearn.trace.sharing import holds, same_objects

    last = {k: [k] for k in keys}  # (lists: equal objects that are not the same object)
    new = dict(last)
    if drop and new:
        new.pop(next(iter(new)))
    if swap and new:
        k = next(iter(new))
        new[k] = [k]
    if extra:
        new["z"] = ["z"]
    expected = len(new) == len(last) and all(v is last.get(k) for k, v in new.items())
    assert same_objects(new, last) == expected
    values = list(last.values())
    for probe in [*values, *new.values(), ["a"]]:
        assert holds(values, probe) == any(v is probe for v in values)
