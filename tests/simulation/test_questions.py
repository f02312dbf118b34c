"""Predict-then-check questions: answers come from the simulator, never from the question code.

Go: none — kschedlearn-only (the notebooks' predict cells, issue 11 item 4). Each truth is
re-derived here from an independent ``Simulation`` run (run_until / the trace), not from the
factory's own bookkeeping.
"""

from __future__ import annotations

import functools
from typing import Any

import pytest

from kschedlearn import Simulation
from kschedlearn.simulation import questions as Q

SEEDS = (1, 2, 3)


def _fresh(q: Q.Question) -> Simulation:
    sim = Simulation.from_scenario(q.scenario, seed=q.seed)
    sim.run()
    return sim


@functools.cache
def _asked(factory: Any, seed: int, **kw: str) -> Q.Question:
    """``factory(seed, **kw)``, asked once per module: a question is a frozen value, and several
    tests check the same one (the determinism check below calls the factory again, fresh)."""
    return factory(seed, **kw)


FACTORIES = {
    "pod_location": (Q.pod_location_question, {}),
    "pod_location-bind-failure": (Q.pod_location_question, {"scenario": "bind-failure"}),
    "cache_state": (Q.cache_state_question, {}),
    "winner": (Q.winner_question, {}),
    "winner-spread": (Q.winner_question, {"scenario": "spread-and-affinity"}),
    "failing_predicate": (Q.failing_predicate_question, {}),
    "failing_predicate-policy": (Q.failing_predicate_question, {"scenario": "policy-file"}),
    "next_stage": (Q.next_stage_question, {}),
    "backoff": (Q.backoff_question, {}),
    "leader": (Q.leader_question, {}),
    "binder": (Q.binder_question, {}),
    "registered": (Q.registered_question, {}),
}


@pytest.mark.parametrize("name", FACTORIES)
def test_question_is_well_formed_and_deterministic(name: str) -> None:
    factory, kw = FACTORIES[name]
    for seed in SEEDS:
        q = _asked(factory, seed, **kw)
        assert q.answer in q.choices and len(q.choices) >= 2
        assert q.seed == seed and q.prompt and q.explanation
        assert factory(seed, **kw) == q  # same scenario + seed ⇒ same question
        right = Q.check_answer(q, q.answer)
        assert right.correct and right.truth == q.answer
        wrong = next(c for c in q.choices if c != q.answer)
        verdict = Q.check_answer(q, wrong)
        assert not verdict.correct and verdict.chosen == wrong and verdict.truth == q.answer


@pytest.mark.parametrize("name", ["pod_location", "winner-spread", "failing_predicate", "next_stage", "leader", "binder"])
def test_new_seed_rerolls_something(name: str) -> None:
    factory, kw = FACTORIES[name]
    prompts = {_asked(factory, seed, **kw).prompt.split(":", 1)[1] for seed in range(1, 7)}
    assert len(prompts) > 1


def test_unknown_choice_is_a_clear_error() -> None:
    q = Q.winner_question(1)
    with pytest.raises(Q.QuestionError, match=r"'node-9'.*one of: 'node-1'"):
        Q.check_answer(q, "node-9")


def test_question_refuses_an_answer_outside_its_choices() -> None:
    with pytest.raises(Q.QuestionError, match="not one of its choices"):
        Q.Question("p", ("a", "b"), "c", "e", None, "three-nodes", 1)


def test_scenario_without_the_event_is_a_clear_error() -> None:
    with pytest.raises(Q.QuestionError, match="never backs off"):
        Q.backoff_question(1, scenario="three-nodes")


@pytest.mark.parametrize("seed", SEEDS)
def test_winner_matches_run_until_select_host(seed: int) -> None:
    q = _asked(Q.winner_question, seed, scenario="spread-and-affinity")
    pod = q.prompt.split("`")[1]
    sim = Simulation.from_scenario("spread-and-affinity", seed=seed, snapshots=False)  # (events only)
    ev = sim.run_until("selectHost", pod=pod)
    assert ev is not None and q.answer == ev.data["host"] and q.event == ev.seq


@pytest.mark.parametrize("seed", SEEDS)
def test_pod_location_matches_the_snapshot(seed: int) -> None:
    q = _asked(Q.pod_location_question, seed)
    sim = Simulation.from_scenario("three-nodes", seed=seed)
    ev = sim.goto(q.event)
    assert ev is not None and ev.seq == q.event
    key = sim.scenario.follow
    # the state after the event: a "before" event (bind, cache.addPod, expirePod) shows it at the next one
    if ev.stage in ("bind", "cache.addPod", "expirePod"):
        sim.step("event")
    snap = sim.snapshot
    in_pod_queue = any(i.key == key for i in snap.queues["podQueue"].items)
    in_delta = any(i.key == key for i in snap.queues["scheduledPodPopulator"].items)
    cached = {p.key: p for p in snap.cache.pod_states}
    assert (q.answer == Q.LOC_PODQUEUE) == in_pod_queue
    assert (q.answer == Q.LOC_DELTA_FIFO) == (in_delta and not in_pod_queue)
    if q.answer == Q.LOC_CONFIRMED:
        assert key in cached and not cached[key].assumed
    if q.answer in (Q.LOC_API, Q.LOC_SCHEDULE_ONE):
        assert key not in cached and not in_pod_queue and not in_delta


@pytest.mark.parametrize("seed", SEEDS)
def test_leader_matches_the_lock_record(seed: int) -> None:
    q = _asked(Q.leader_question, seed)
    t = float(q.prompt.rsplit("t=", 1)[1].rstrip("s?"))
    sim = _fresh(q)
    holder = [e.snapshot.leader.holder for e in sim.trace if e.time <= t and e.snapshot is not None and e.snapshot.leader is not None][-1]
    assert q.answer == holder


@pytest.mark.parametrize("seed", SEEDS)
def test_binder_and_backoff_match_the_trace(seed: int) -> None:
    q = _asked(Q.binder_question, seed)
    pod = q.prompt.split("`")[1]
    # (events only: runs without snapshots record the same ones, test_questions_without_snapshots.py)
    sim = Simulation.from_scenario("ha-failover", seed=seed, snapshots=False)
    assert sim.run_until("apiserver.bind", pod=pod).process == q.answer
    b = _asked(Q.backoff_question, seed)
    assert Simulation.from_scenario("unschedulable-then-fits", seed=seed, snapshots=False).goto(
        b.event).message.endswith(b.answer.replace(" ", ""))


@pytest.mark.parametrize("seed", SEEDS)
def test_failing_predicate_matches_the_decision(seed: int) -> None:
    q = _asked(Q.failing_predicate_question, seed)
    pod = q.prompt.split("`")[1]
    node = q.prompt.split("`")[3]
    sim = Simulation.from_scenario("spread-and-affinity", seed=seed, snapshots=False)  # (events only)
    ev = sim.goto(q.event)
    assert ev.data["pod"] == pod and " + ".join(ev.data["failed"][node]) == q.answer


# --- client-go building blocks -------------------------------------------------------------------

from kschedlearn.simulation import questions_client_go as C  # noqa: E402


@pytest.mark.parametrize("factory", [C.fifo_pop_question, C.delta_fifo_question, C.selector_question, C.index_question],
                         ids=lambda f: f.__name__)
def test_client_go_questions(factory) -> None:
    prompts = set()
    for seed in range(1, 6):
        q = factory(seed)
        assert q.answer in q.choices and factory(seed) == q
        assert Q.check_answer(q, q.answer).correct
        assert not Q.check_answer(q, next(c for c in q.choices if c != q.answer)).correct
        prompts.add(q.prompt.split(":", 1)[1])
    assert len(prompts) > 1


@pytest.mark.parametrize("seed", range(1, 6))
def test_fifo_answer_replays_on_a_fresh_fifo(seed: int) -> None:
    import re

    from kschedlearn.client_go.tools.cache import meta_namespace_key_func, new_fifo, pop
    from kschedlearn.sim import Runtime

    q = C.fifo_pop_question(seed)
    fifo = new_fifo(meta_namespace_key_func)
    for op, name, rv in re.findall(r"(add|update|delete)\((\w), rv (\d)\)", q.prompt):
        getattr(fifo, op)(C._pod(name, int(rv)))
    got = Runtime(seed=1).run_fn(pop, fifo)
    assert q.answer == f"default/{got.metadata.name} (resourceVersion {got.metadata.resource_version})"


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from tests.hypothesis_budget import examples


@settings(max_examples=examples(40), deadline=None)
@given(seed=st.integers(min_value=0, max_value=10_000),
       factory=st.sampled_from([C.fifo_pop_question, C.delta_fifo_question, C.selector_question, C.index_question]))
def test_any_seed_gives_a_checkable_question(seed: int, factory) -> None:
    q = factory(seed)
    assert q.answer in q.choices and len(set(q.choices)) == len(q.choices)
    verdicts = [Q.check_answer(q, c) for c in q.choices]
    assert sum(v.correct for v in verdicts) == 1 and all(v.truth == q.answer for v in verdicts)
