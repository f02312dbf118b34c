"""The scale harness of notebook 14: workload shape, stage timers from outside, exact call counts.

Go: none — kschedlearn-only (kschedlearn/simulation/scale.py). No timing is asserted (times are
benchmarks' business): only shapes, bookkeeping, counts and the errors.
"""

from __future__ import annotations

import pytest

from kschedlearn.apimachinery.labels.selector import InternalSelector
from kschedlearn.scheduler.algorithm.predicates.predicates import general_predicates
from kschedlearn.scheduler.core import generic_scheduler as core
from kschedlearn.simulation import scale
from tests.frozen_heap import frozen_heap  # noqa: F401 - autouse: earlier files' heap stays out of collections


def test_workload_has_the_benchmark_shape() -> None:
    w = scale.make_workload(6, 14, 3)
    assert (len(w.nodes), len(w.bound), len(w.new)) == (6, 14, 3)
    assert [p.spec.node_name for p in w.bound[:7]] == [n.metadata.name for n in w.nodes] + [w.nodes[0].metadata.name]
    assert all(p.spec.node_name == "" for p in w.new)
    assert w.services[0].spec.selector == w.controllers[0].spec.selector == w.bound[0].metadata.labels
    assert w.controllers[0].spec.replicas == 17


@pytest.mark.parametrize("args, field", [((0, 1, 1), "nodes"), ((2, -1, 1), "bound"), ((2, 1, 1.5), "new")])
def test_bad_sizes_are_a_clear_error(args: tuple, field: str) -> None:
    with pytest.raises(scale.ScaleError, match=f"{field}="):
        scale.make_workload(*args)


def test_unknown_engine_is_a_clear_error() -> None:
    with pytest.raises(scale.ScaleError, match="engine 'turbo' is not one of mirrored, accelerated"):
        scale.build(scale.make_workload(2, 0, 1), "turbo")


def test_stage_timers_do_not_change_the_placements_and_cover_every_stage() -> None:
    w = scale.make_workload(8, 24, 6)
    plain = scale.schedule_pods(scale.build(w))
    h = scale.build(w)
    timers = scale.instrument_stages(h)
    assert scale.schedule_pods(h) == plain
    names = {c.name for c in h.config.algorithm.prioritizers}
    assert set(timers.seconds) == set(timers.calls) == names | {"predicates", "predicate metadata", "priority metadata"}
    assert timers.calls["predicate metadata"] == 6 and timers.calls["SelectorSpreadPriority"] == 6
    assert timers.calls["predicates"] == 6 * 8 * len(h.config.algorithm.predicates)  # every predicate, every node
    p = scale.profile_stages(w, per_predicate=True)
    assert {s for s, _ in p.seconds} >= {"GeneralPredicates", "SelectorSpreadPriority", "other", scale.TIMERS}
    assert sum(p.fraction(s) for s, _ in p.seconds) == pytest.approx(1.0)


def test_stage_timers_refuse_the_accelerated_engine() -> None:
    h = scale.build(scale.make_workload(2, 2, 1), "accelerated")
    with pytest.raises(scale.ScaleError, match="mirrored engine only"):
        scale.instrument_stages(h)


def test_engines_agree_on_the_workload() -> None:
    w = scale.make_workload(12, 60, 20)
    assert scale.throughput(w, "mirrored").hosts == scale.throughput(w, "accelerated").hosts


def test_call_counts_follow_pods_for_spread_and_nodes_for_predicates() -> None:
    for nodes, bound in ((5, 20), (10, 70)):
        h = scale.build(scale.make_workload(nodes, bound, 1))
        c = scale.count_calls(h, h.workload.new[0], [InternalSelector.matches, general_predicates, core.pod_fits_on_node])
        assert dict(c[InternalSelector.matches.__qualname__].by_caller)["calculate_spread_priority"] == bound
        assert c["general_predicates"].calls == c["pod_fits_on_node"].calls == nodes
