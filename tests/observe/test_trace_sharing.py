"""A traced run shares equal lists between the events of consecutive pods (identity, same content).

kschedlearn-only. ``schedule.start`` / ``schedule.predicates`` / ``schedule.priorities`` name the
same nodes pod after pod, and most score columns repeat: the events hold one list for all of
them (``observe/recorders.py`` ``shared``), so a traced run keeps fewer containers for the
collector to walk. What each event shows is unchanged (the goldens and the bundled-scenario
cross-engine tests compare contents); these tests pin the sharing and its type guard.
"""

from __future__ import annotations

from kschedlearn import Simulation
from kschedlearn.observe.recorders import shared


def test_a_list_of_other_element_types_is_never_shared() -> None:
    lists: dict[object, list[object]] = {}
    ints = [1, 0]
    assert shared(lists, "s", ints, int) is ints
    bools = [True, False]  # equal to ints (True == 1), but not the same data
    assert shared(lists, "s", bools, int) is bools
    assert shared(lists, "s", [1, 0], int) is ints
    assert shared(None, "s", [1, 0], int) == [1, 0]  # no tracer: nothing kept
    names = ["a", "b"]
    assert shared(lists, "n", names, str) is names and shared(lists, "n", ["a", "b"], str) is names
    assert shared(lists, "n", ["a"], str) == ["a"] and shared(lists, "n", ["a"], str) is not names


def test_consecutive_pods_events_share_their_node_lists_and_unchanged_columns() -> None:
    sim = Simulation.from_scenario("burst-100-pods", seed=1)
    sim.run()
    starts = [e.data["nodes"] for e in sim.trace if e.stage == "schedule.start"]
    priorities = [e.data for e in sim.trace if e.stage == "schedule.priorities"]
    assert len(starts) > 10 and len(priorities) > 10
    for a, b in zip(starts, starts[1:]):
        assert (a is b) == (a == b)
    for a, b in zip(priorities, priorities[1:]):
        assert (a["nodes"] is b["nodes"]) == (a["nodes"] == b["nodes"])
        assert a["names"] is b["names"] and a["weights"] is b["weights"]
        for col_a, col_b in zip(a["scores"], b["scores"]):
            assert (col_a is col_b) == (col_a == col_b)
    columns = [c for d in priorities for c in d["scores"]]
    assert all(type(c) is list and all(type(s) is int for s in c) for c in columns)
    assert len({id(c) for c in columns}) < len(columns)  # some columns are held by several events
