"""The holder table changed in place gives what the pure ``next_holders`` gives, event by event.

kschedlearn-only (issue 25): the snapshot builder of a simulation keeps the pods in goroutines'
hands in a :class:`~kschedlearn.trace.holders.HolderTable`; ``next_holders`` (a new mapping per
change) stays the reference.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from tests.hypothesis_budget import examples

from kschedlearn.trace.holders import (
    BIND_PHASES, PROCESS_LOOP_PHASES, SCHEDULE_ONE_PHASES, HolderTable, next_holders,
)

STAGES = (*SCHEDULE_ONE_PHASES, *BIND_PHASES, *PROCESS_LOOP_PHASES, "assume", "finishBinding", "forgetPod",
          "error.backoff", "cache.updatePod", "cache.removePod", "apiserver.create", "other")
GOROUTINES = ("scheduler-0 scheduleOne", "scheduler-0 bind", "scheduledPodPopulator processLoop", "kubelet")

events = st.lists(st.tuples(
    st.sampled_from(STAGES), st.integers(1, 6), st.sampled_from(GOROUTINES),
    st.fixed_dictionaries({}, optional={"pod": st.sampled_from(["ns/a", "ns/b", "ns/c", ""]),
                                        "key": st.sampled_from(["ns/a", "ns/d"]),
                                        "host": st.sampled_from(["", "n1", "n2"]),
                                        "node": st.sampled_from(["n1", "n3"])}),
    st.booleans(), st.booleans()), max_size=80)


@settings(max_examples=examples(300), deadline=None)
@given(events=events)
def test_table_follows_next_holders(events: list[tuple[str, int, str, dict[str, str], bool, bool]]) -> None:
    pure: dict[int, object] = {}
    table = HolderTable()
    for stage, gid, goroutine, data, twice, end in events:
        pure = dict(next_holders(pure, stage, data, gid, goroutine, "scheduler-0"))
        table.apply(stage, data, gid, goroutine, "scheduler-0")
        if twice:  # the snapshot asks, then the listener: the same event applied again changes nothing
            table.apply(stage, data, gid, goroutine, "scheduler-0")
        if end:  # the goroutine ended: its holder goes
            pure.pop(gid, None)
            table.delete(gid)
        assert dict(table) == pure
        assert table.freeze() == tuple(pure[k] for k in sorted(pure))
        assert {p for p, gids in table.by_pod.items() if gids} == {h.pod for h in pure.values()}
        assert table.adding == {k for k, h in pure.items() if h.phase == "cache.addPod"}
