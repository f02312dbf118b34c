"""A group of events recorded deferred (``Tracer.record_group``) materialises exactly the events
an eager recording makes: every field (seq, time, goroutine, process, stage, Go link, message,
narration, data with the exact types of its containers, stack, snapshot, observed call), seq
numbering interleaved with other events, reads in between, and whole simulations — a run to the
end, rewinds and forks — on the accelerated engine, whose per-node verdicts are such a group.

kschedlearn-only (issue 25: the full trace's cost). The eager reference is the same code with
``Tracer.can_defer`` and ``Tracer.deferring`` answering False (then every group is emitted event
by event).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.hypothesis_budget import examples

from kschedlearn import Simulation, sim
from kschedlearn.api.v1 import Pod
from kschedlearn.observe.generic_scheduler import emit_predicate_nodes
from kschedlearn.trace import ObservedCall, Tracer, emit
from kschedlearn.trace.core import DeferredEvents
from kschedlearn.trace.events import TraceEvent
from kschedlearn.trace.stages import stage as lookup_stage

POD = Pod.from_dict({"metadata": {"name": "web-1", "namespace": "default"}})
OBSERVED = ObservedCall("AcceleratedScheduler.schedule", "kschedlearn.accelerated.generic_scheduler", 0, "running",
                        fast_paths=("the accelerated engine",))

FIELDS = ("seq", "time", "goroutine", "process", "stage", "go_ref", "message", "why", "data", "stack",
          "snapshot", "observed")


def _same_types(a: Any, b: Any) -> bool:
    """Equal, with the same type at every level (``True == 1``, ``[] == ()`` are not the same data)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same_types(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(map(_same_types, a, b))
    return bool(a == b)


def assert_identical(deferred: list[TraceEvent], eager: list[TraceEvent]) -> None:
    assert len(deferred) == len(eager)
    for i, (d, e) in enumerate(zip(deferred, eager)):
        assert type(d) is TraceEvent and d.seq == i
        for name in FIELDS:
            x, y = getattr(d, name), getattr(e, name)
            assert _same_types(x, y), (i, name, x, y)


# -- a tracer on its own ---------------------------------------------------------------------

_verdicts = st.dictionaries(st.sampled_from(["PodFitsResources", "MatchNodeSelector", "NoDiskConflict"]),
                            st.lists(st.sampled_from(["Insufficient cpu", "MatchNodeSelector"]), max_size=2),
                            max_size=3)
_rows = st.lists(st.tuples(st.sampled_from(["node-1", "node-2", "n3"]), st.booleans(), _verdicts), max_size=6)
_ops = st.lists(st.one_of(
    st.tuples(st.just("emit"), st.sampled_from(["inject", "workload", "schedule.start"]), st.text(max_size=4)),
    st.tuples(st.just("nodes"), _rows),
    st.tuples(st.just("read")),
    st.tuples(st.just("sleep"), st.sampled_from([0.001, 0.5, 2.0])),
), max_size=25)


def _program(ops: list[Any], defer: bool) -> tuple[Tracer, list[list[TraceEvent]], int]:
    rt = sim.Runtime(seed=1)
    tracer = rt.tracer = Tracer(defer=defer)
    reads: list[list[TraceEvent]] = []
    groups = [0]

    def main() -> None:
        for k, op in enumerate(ops):
            if op[0] == "emit":
                emit(op[1], op[2], data={"k": k, "items": [k, str(k)]} if k % 2 else None)
            elif op[0] == "nodes":
                before = len(tracer._tail)
                emit_predicate_nodes(POD, [name for name, _, _ in op[1]],
                                     [(fits, (), verdicts) for _, fits, verdicts in op[1]], OBSERVED)
                groups[0] += len(tracer._tail) > before and type(tracer._tail[-1]) is tuple  # (a group's fields)
            elif op[0] == "read":
                reads.append(list(tracer.events))
            else:
                sim.sleep(op[1])

    rt.go(main, process=rt.new_process("scheduler"), name="main")
    rt.run()
    return tracer, reads, groups[0]


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_ops)
def test_deferred_groups_materialise_the_eager_events(ops: list[Any]) -> None:
    deferred, deferred_reads, groups = _program(ops, True)
    eager, eager_reads, none = _program(ops, False)
    assert none == 0
    assert groups == sum(1 for op in ops if op[0] == "nodes" and op[1])
    events = deferred.events
    assert_identical(events, eager.events)
    assert len(deferred_reads) == len(eager_reads)
    for d, e in zip(deferred_reads, eager_reads):
        assert_identical(d, e)
    assert deferred.events is events and not deferred._tail  # one list, read after read


def test_seq_numbers_run_on_across_groups_and_reads() -> None:
    rows = [("node-1", True, {}), ("node-2", False, {"PodFitsResources": ["Insufficient cpu"]})]
    tracer, reads, groups = _program(
        [("emit", "inject", "a"), ("nodes", rows), ("emit", "inject", "b"), ("read",), ("nodes", rows),
         ("nodes", rows), ("emit", "inject", "c")], True)
    assert groups == 3
    assert [e.seq for e in reads[0]] == [0, 1, 2, 3]
    assert [e.stage for e in reads[0]] == ["inject", "schedule.predicate_node", "schedule.predicate_node", "inject"]
    assert tracer._count == 9 and len(tracer._tail) == 3  # two groups and an event wait for a read
    events = tracer.events
    assert [e.seq for e in events] == list(range(9))
    assert [e.message for e in events] == ["a", "node-1: fits", "node-2: does not fit", "b", "node-1: fits",
                                           "node-2: does not fit", "node-1: fits", "node-2: does not fit", "c"]
    assert events[2].data == {"pod": "default/web-1", "node": "node-2", "fits": False,
                              "predicates": {"PodFitsResources": ["Insufficient cpu"]}}
    assert events[5].data["predicates"] is rows[1][2]  # the verdicts themselves, as an eager event holds


@pytest.mark.parametrize("change", ["breakpoint", "listener", "snapshot", "defer off"])
def test_anyone_watching_events_as_they_come_gets_them_built(change: str) -> None:
    tracer = Tracer()
    assert tracer.can_defer()
    if change == "breakpoint":
        tracer.breakpoint = lambda e: False
    elif change == "listener":
        tracer.listeners.append(lambda e: None)
    elif change == "snapshot":
        tracer.snapshot_fn = lambda **kw: None
    else:
        tracer.defer = False
    assert not tracer.can_defer()
    tracer.snapshot_every = 0  # a snapshot function that never runs does not watch
    assert tracer.can_defer() == (change == "snapshot")


def test_a_tracer_given_events_numbers_on_from_them() -> None:
    first = TraceEvent(0, 0.0, "", "", "inject", "", "x")
    tracer = Tracer(events=[first])
    rt = sim.Runtime(seed=1)
    rt.tracer = tracer
    emit("inject", "y", runtime=rt)
    assert [e.seq for e in tracer.events] == [0, 1] and tracer.events[0] is first


def test_a_group_whose_rows_disagree_with_its_count_is_an_error() -> None:
    group = DeferredEvents(0, 2, 0.0, "g", "p", lookup_stage("schedule.predicate_node"), (), None, lambda: [("m", {})], ())
    with pytest.raises(ValueError, match="2 recorded, 1 rows"):
        group.materialise()


# -- whole simulations on the accelerated engine -----------------------------------------------

def _eager(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Tracer, "can_defer", lambda self: False)
    monkeypatch.setattr(Tracer, "deferring", lambda self, stage: None if not self.wants(stage) else False)


def _run_to_end(name: str, engine: str) -> tuple[list[TraceEvent], int]:
    s = Simulation.from_scenario(name, seed=1, snapshots=False, engine=engine)
    world = s.world
    world.run(None)
    pending = sum(DeferredEvents._make(item).count for item in world.tracer._tail if type(item) is tuple)
    return world.tracer.events, pending


@pytest.mark.filterwarnings("ignore::kschedlearn.simulation.SimulatedProcessCrashed")
@pytest.mark.parametrize("engine", ["accelerated", "mirrored"])
@pytest.mark.parametrize("name", ["three-nodes", "spread-and-affinity", "node-conditions", "unschedulable-then-fits",
                                  "several-schedulers"])
def test_a_simulation_run_to_its_end_records_the_eager_events(name: str, engine: str,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    deferred, pending = _run_to_end(name, engine)
    # per-node verdicts (accelerated), score tables and rankings were deferred, and materialised
    # by the read
    assert pending > 0
    with monkeypatch.context() as m:
        _eager(m)
        eager, none = _run_to_end(name, engine)
    assert none == 0
    assert_identical(deferred, eager)
    assert any(e.stage == "schedule.predicate_node" and e.stack for e in deferred)
    assert any(e.stage == "selectHost" for e in deferred)


def _rewind_and_fork() -> tuple[list[Any], list[TraceEvent]]:
    """Run ahead without pausing, step back, fork the past with an injection, run on."""
    s = Simulation.from_scenario("three-nodes", seed=1, snapshots=False, engine="accelerated")
    s.world.run(None, until=6.0)
    views = [len(s.trace)]
    assume = next(e.seq for e in s.trace if e.stage == "assume")
    start = next(e.seq for e in s.trace if e.stage == "schedule.start")
    s.goto(start + 2)  # a rewind onto a deferred per-node event
    views.append(s.event)
    s.back(1, "event")
    views.append(s.event)
    s.goto(assume)
    s.inject.fail_next_bind()  # a fork: a fresh world replays up to here
    views.append(len(s.trace))
    s.world.run(None)  # on to the end, deferred again
    return views, s.trace


def test_rewinds_and_forks_see_the_eager_events(monkeypatch: pytest.MonkeyPatch) -> None:
    views, deferred = _rewind_and_fork()
    with monkeypatch.context() as m:
        _eager(m)
        eager_views, eager = _rewind_and_fork()
    assert views[0] == eager_views[0] and views[3] == eager_views[3]
    assert views[1].stage == "schedule.predicate_node"
    for d, e in ((views[1], eager_views[1]), (views[2], eager_views[2])):
        for name in FIELDS:
            assert _same_types(getattr(d, name), getattr(e, name)), name
    assert_identical(deferred, eager)
    assert any(e.stage == "forgetPod" for e in deferred)


def test_a_group_that_cannot_be_built_leaves_the_history_as_it_was() -> None:
    rt = sim.Runtime(seed=1)
    tracer = rt.tracer = Tracer()
    broken: list[Any] = []

    def main() -> None:
        emit("inject", "a")
        g = sim.runtime.current_goroutine()
        assert g is not None
        tracer.record_group(rt, g, "schedule.predicate_node", 1, lambda: broken, ())
        emit("inject", "b")

    rt.go(main, process=rt.new_process("scheduler"), name="main")
    rt.run()
    log = tracer._log
    with pytest.raises(ValueError, match="1 recorded, 0 rows"):
        tracer.events
    assert [e.message for e in log] == ["a"] and len(tracer._tail) == 2
    broken.append(("n: fits", {"k": 1}))
    assert [(e.seq, e.message) for e in tracer.events] == [(0, "a"), (1, "n: fits"), (2, "b")]
