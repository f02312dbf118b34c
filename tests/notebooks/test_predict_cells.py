"""Every curriculum notebook asks before it tells: ≥ 2 predict cells, and it ends with a recap.

Go: none — kschedlearn-only (issue 11 item 4). Each predict cell of each committed notebook is
rebuilt from its source, answered right and wrong through the widget API (``cell.answer``), and
its truth is re-derived from an independent run of the simulator (or of the mirrored client-go
structure) — the test never trusts the question's own bookkeeping.
"""

from __future__ import annotations

import functools
import inspect
import json
import re
from pathlib import Path
from typing import Any

import nbformat
import pytest

from kschedlearn import Simulation
from kschedlearn.curriculum import questions_course as QC
from kschedlearn.observe.views import queue_state
from kschedlearn.simulation import questions as Q
from kschedlearn.simulation import questions_client_go as C
from kschedlearn.simulation import questions_controllers as QCM
from kschedlearn.simulation import questions_replay as R
from kschedlearn.simulation import questions_scale as QS
from kschedlearn.simulation import questions_topics as topics
from kschedlearn.widgets.predict import PredictCell

ROOT = Path(__file__).resolve().parents[2]
CURRICULUM = sorted((ROOT / "notebooks").glob("[0-9]*.ipynb"))
PRELUDE = {"partial": functools.partial, "Q": Q, "C": C, "R": R, "topics": topics, "QS": QS, "QC": QC,
           "QCM": QCM, "PredictCell": PredictCell}


def _tags(cell: Any) -> list[str]:
    return list(cell.get("metadata", {}).get("tags", []))


def _predict_sources(path: Path) -> list[str]:
    nb = nbformat.read(path, as_version=4)
    return [c.source for c in nb.cells if "predict" in _tags(c)]


@pytest.mark.parametrize("path", CURRICULUM, ids=[p.stem for p in CURRICULUM])
def test_notebook_has_predict_cells_and_ends_with_a_recap(path: Path) -> None:
    """At least two predictions per notebook: predict cells, ``ask`` cells (issue 22: a "Try
    this" became a prediction the simulator checks) or the mastery check's questions."""
    nb = nbformat.read(path, as_version=4)
    predict = [c for c in nb.cells if "predict" in _tags(c)]
    asked = [c for c in nb.cells if {"ask", "mastery"} & set(_tags(c))]
    recap = [c for c in nb.cells if "recap" in _tags(c)]
    assert len(predict) + len(asked) >= 2 or any("mastery" in _tags(c) for c in asked), \
        f"{path.name}: {len(predict)} predict and {len(asked)} ask cells"
    assert recap and "recap" in _tags(nb.cells[-1]), f"{path.name} must end with a recap cell"
    for cell in predict:
        assert cell.cell_type == "code"
        html = "".join(o.get("data", {}).get("text/html", "") for o in cell.get("outputs", []))
        # the saved notebook shows the question and the revealed answer without a kernel
        assert "kschedlearn-predict" in html and "Reveal the simulated answer" in html, f"{path.name}: no static question"
    # ... and so does a renderer that draws the widgets from the saved widget state
    state = json.dumps(nb.metadata.get("widgets", {}))
    assert state.count("Reveal the simulated answer") >= len(predict), f"{path.name}: widget state lacks the answers"


def test_curriculum_is_complete() -> None:
    assert len(CURRICULUM) >= 12


# --- independent truths ------------------------------------------------------------------------


def _ticks(prompt: str) -> list[str]:
    return prompt.split("`")[1::2]


#: the truths that read only events (and the API server's storage, or decisions) run without
#: snapshots: such runs record the same events (tests/simulation/test_questions_without_snapshots.py)
EVENTS_ONLY = {"snapshots": False}


def _fresh_at(q: Q.Question, **kwargs: Any) -> tuple[Simulation, Any]:
    sim = Simulation.from_scenario(q.scenario, seed=q.seed, **kwargs)
    ev = sim.goto(q.event)
    assert ev is not None and ev.seq == q.event
    return sim, ev


def _where(sim: Simulation, ev: Any, pod: str) -> str | None:
    """podQueue / DeltaFIFO / cache state read straight from the snapshot; None if none holds it."""
    if ev.stage in ("bind", "cache.addPod", "expirePod"):  # "before" trace points: look one event on
        sim.step("event")
    snap = sim.snapshot
    if any(i.key == pod for i in snap.queues["podQueue"].items):
        return Q.LOC_PODQUEUE
    if any(i.key == pod for i in snap.queues["scheduledPodPopulator"].items):
        return Q.LOC_DELTA_FIFO
    for ps in snap.cache.pod_states:
        if ps.key == pod:
            return Q.LOC_CONFIRMED if not ps.assumed else (Q.LOC_FINISHED if ps.binding_finished else Q.LOC_ASSUMED)
    return None


def _truth_pod_location(q: Q.Question) -> str | None:
    sim, ev = _fresh_at(q)
    return _where(sim, ev, _ticks(q.prompt)[-1])


def _truth_cache_state(q: Q.Question) -> str:
    sim, ev = _fresh_at(q)
    where = _where(sim, ev, _ticks(q.prompt)[-1])
    return where if where in (Q.LOC_ASSUMED, Q.LOC_FINISHED, Q.LOC_CONFIRMED) else q.choices[-1]


def _truth_winner(q: Q.Question) -> str:
    sim = Simulation.from_scenario(q.scenario, seed=q.seed, **EVENTS_ONLY)
    return sim.run_until("selectHost", pod=_ticks(q.prompt)[0]).data["host"]


def _truth_next_stage(q: Q.Question) -> str:
    return _fresh_at(q, **EVENTS_ONLY)[1].stage


def _truth_failing_predicate(q: Q.Question) -> str:
    pod, node = _ticks(q.prompt)[:2]
    ev = _fresh_at(q, **EVENTS_ONLY)[1]
    assert ev.data["pod"] == pod
    return " + ".join(ev.data["failed"][node])


def _truth_backoff(q: Q.Question) -> str:
    return f"{_fresh_at(q, **EVENTS_ONLY)[1].data['backoff']:g} s"


def _truth_leader(q: Q.Question) -> str:
    t = float(q.prompt.rsplit("t=", 1)[1].rstrip("s?"))
    sim = Simulation.from_scenario(q.scenario, seed=q.seed)
    sim.run()
    holders = [e.snapshot.leader.holder for e in sim.trace
               if e.time <= t and e.snapshot is not None and e.snapshot.leader is not None]
    return holders[-1] or q.choices[-1]


def _truth_binder(q: Q.Question) -> str:
    sim = Simulation.from_scenario(q.scenario, seed=q.seed, **EVENTS_ONLY)
    return sim.run_until("apiserver.bind", pod=_ticks(q.prompt)[0]).process


def _truth_registered(q: Q.Question) -> str:
    ev = _fresh_at(q, **EVENTS_ONLY)[1]
    assert ev.stage == "CreateFromKeys"
    name = _ticks(q.prompt)[0]
    kind = "predicates" if " predicate " in q.prompt else "priorities"
    return q.choices[0] if name in ev.data[kind] else q.choices[1]


def _truth_fifo(q: Q.Question) -> str:
    from kschedlearn.client_go.tools.cache import meta_namespace_key_func, new_fifo, pop
    from kschedlearn.sim import Runtime

    fifo = new_fifo(meta_namespace_key_func)
    for op, name, rv in re.findall(r"(add|update|delete)\((\w), rv (\d)\)", q.prompt):
        getattr(fifo, op)(C._pod(name, int(rv)))
    got = Runtime(seed=1).run_fn(pop, fifo)
    return f"default/{got.metadata.name} (resourceVersion {got.metadata.resource_version})"


def _truth_delta_fifo(q: Q.Question) -> str:
    from kschedlearn.client_go.tools.cache import meta_namespace_key_func, new_delta_fifo, new_store
    from kschedlearn.sim import Runtime

    known = new_store(meta_namespace_key_func)
    if "already holds p" in q.prompt:
        known.add(C._pod("p", 1))
    d = new_delta_fifo(meta_namespace_key_func, None, known)
    ops = re.findall(r"(add|update|delete)\(p\)|replace\(\[(p?)\]\)", q.prompt.split("; then ", 1)[1])
    for rv, (op, listed) in enumerate(ops, start=2):
        if op:
            getattr(d, op)(C._pod("p", rv))
        else:
            d.replace([C._pod("p", rv)] if listed else [], str(rv))
    if not queue_state(d).queue:
        return "nothing: the key p is not queued"
    return " → ".join(str(x.type) for x in Runtime(seed=1).run_fn(d.pop, lambda _d: None))


def _truth_selector(q: Q.Question) -> str:
    from kschedlearn.apimachinery import fields

    node, phase = re.search(r"spec.nodeName=(\S+) and status.phase=(\w+)", q.prompt).groups()
    f = {"spec.nodeName": "" if node == "(empty)" else node, "status.phase": phase}
    un = fields.parse_selector("spec.nodeName==,status.phase!=Succeeded,status.phase!=Failed").matches(f)
    asg = fields.parse_selector("spec.nodeName!=,status.phase!=Succeeded,status.phase!=Failed").matches(f)
    return {(True, False): q.choices[0], (False, True): q.choices[1], (True, True): "both"}.get((un, asg), "neither")


def _truth_index(q: Q.Question) -> str:
    from kschedlearn.client_go.tools.cache import (NAMESPACE_INDEX, meta_namespace_index_func,
                                                   meta_namespace_key_func, new_indexer)

    idx = new_indexer(meta_namespace_key_func, {NAMESPACE_INDEX: meta_namespace_index_func})
    for rv, (op, ns, name) in enumerate(re.findall(r"(add|update|delete)\(([\w-]+)/(\w)\)", q.prompt), start=1):
        getattr(idx, op)(C._pod(name, rv, namespace=ns))
    ns = re.search(r"by_index\('namespace', '([\w-]+)'\)", q.prompt).group(1)
    return str(len(idx.by_index(NAMESPACE_INDEX, ns)))


def _truth_kubectl_apply(q: Q.Question) -> str:
    sim = Simulation.from_scenario(q.scenario, seed=q.seed)
    sim.run_until("cache.addPod", pod="default/web-1")
    cpu = re.search(r"asking for (\S+) of CPU", q.prompt).group(1)
    R.apply_pod(sim, "applied", cpu)
    sim.run_until(lambda e: e.time > sim.time + 10)
    return next(p.node_name for p in sim.snapshot.apiserver.pods if p.key == "default/applied")


def _truth_replay(q: Q.Question) -> str:
    sim = Simulation.from_manifests(R.SAMPLE_DUMP, seed=q.seed)
    sim.run_until(lambda e: e.time > 20)
    key = _ticks(q.prompt)[1]
    return next(p.node_name for p in sim.snapshot.apiserver.pods if p.key == key).split(".")[0]


# --- notebook 12's topic questions (kschedlearn/simulation/questions_topics.py) ---------------


def _finished(q: Q.Question, **kwargs: Any) -> Simulation:
    sim = Simulation.from_scenario(q.scenario, seed=q.seed, **kwargs)
    sim.run_until(lambda e: False)
    return sim


def _truth_scheduler_name(q: Q.Question) -> str:
    ev = Simulation.from_scenario(q.scenario, seed=q.seed, **EVENTS_ONLY).run_until("apiserver.bind", pod=_ticks(q.prompt)[0])
    return ev.process if ev is not None else q.choices[-1]


def _truth_node_condition(q: Q.Question) -> str:
    node, pod = _ticks(q.prompt)[:2]
    seen = {e.data["node"] for e in _finished(q, **EVENTS_ONLY).trace
            if e.stage == "schedule.predicate_node" and e.data["pod"] == pod}
    return q.choices[0] if node in seen else q.choices[1]


def _truth_assume(q: Q.Question) -> str:
    sim = _finished(q, assume="assume on" in q.prompt, **EVENTS_ONLY)
    return str(sum(1 for p in sim.world.api.storage.items("pods") if p.spec.node_name))


def _truth_deleted_in_flight(q: Q.Question) -> str:
    sim = _finished(q)
    pod = _ticks(q.prompt)[-1]
    if "What does the bind call get back" in q.prompt:
        if any(e.stage == "apiserver.bind" and e.data["pod"] == pod for e in sim.trace):
            return q.choices[0]
        return next(c for c in q.choices if c.startswith("404")) if any(
            "not found" in e.message for e in sim.trace if e.stage == "log") else q.choices[2]
    if any(e.stage == "error.requeue" and e.data["pod"] == pod for e in sim.trace):
        return q.choices[0]
    assert not sim.world.runtime.crashes and all(p.key != pod for p in sim.snapshot.cache.pod_states)
    return next(c for c in q.choices if "dropped" in c)


def _truth_extender_total(q: Q.Question) -> str:
    pod, node = _ticks(q.prompt)[:2]
    decision = next(d for d in _finished(q, **EVENTS_ONLY).decision(pod) if d.scored_nodes)
    return str(dict(decision.totals)[node])


def _truth_leaders_at(q: Q.Question) -> str:
    t = float(q.prompt.split("At t=")[1].split("s,")[0])
    sim = _finished(q, **EVENTS_ONLY)
    leading = []
    for name in sim.world.replicas:
        got = [e.time for e in sim.trace if e.process == name and e.stage == "leaderelection.acquire"
               and e.data.get("result") == "acquired"]
        ended = [e.time for e in sim.trace if e.process == name and e.stage in ("leaderelection.lost", "process.crash")]
        if got and got[0] <= t and not [x for x in ended if x <= t]:
            leading.append(name)
    if len(leading) == 2:
        return f"both {leading[0]} and {leading[1]}"
    return f"only {leading[0]}" if leading else "neither"


def _truth_double_bind(q: Q.Question) -> str:
    pod = _ticks(q.prompt)[0]
    n = sum(1 for e in _finished(q, **EVENTS_ONLY).trace if e.stage == "apiserver.bind" and e.data["pod"] == pod)
    return f"{n} time" + ("" if n == 1 else "s")


# --- notebook 14's work counts (kschedlearn/simulation/questions_scale.py) ----------------------


def _calls_while(fn: Any, target: Any, caller: Any = None) -> int:
    """Calls of ``target``'s code (from ``caller``'s code, if given) while ``fn()`` runs: counted
    with ``sys.setprofile``, not with the cProfile the question itself uses."""
    import sys

    code, from_code, n = target.__code__, caller.__code__ if caller else None, 0

    def hook(frame: Any, event: str, _arg: Any) -> None:
        nonlocal n
        if event == "call" and frame.f_code is code and (from_code is None or frame.f_back.f_code is from_code):
            n += 1

    old = sys.getprofile()
    sys.setprofile(hook)
    try:
        fn()
    finally:
        sys.setprofile(old)
    return n


def _scale_harness(q: Q.Question, new: int, engine: str = "mirrored") -> Any:
    from kschedlearn.simulation import scale

    nodes, bound = (int(x) for x in _ticks(q.prompt)[-2:])
    return scale.build(scale.make_workload(nodes, bound, new), engine)


def _truth_spread_walk(q: Q.Question) -> str:
    from kschedlearn.apimachinery.labels.selector import InternalSelector
    from kschedlearn.scheduler.algorithm.priorities.selector_spreading import SelectorSpread
    from kschedlearn.simulation import scale

    h = _scale_harness(q, 1)
    # the mirror's own code: the slot holds the fast path beside it (priorities/fast_spread.py),
    # which hands a profiled run to the mirror
    mirror = inspect.unwrap(SelectorSpread.calculate_spread_priority)
    n = _calls_while(lambda: scale.schedule_pods(h), InternalSelector.matches, mirror)
    return f"{n:,}"


def _truth_equivalence(q: Q.Question) -> str:
    from kschedlearn.scheduler.algorithm.predicates.predicates import general_predicates
    from kschedlearn.simulation import scale

    engine = _ticks(q.prompt)[0]
    h = _scale_harness(q, 2, engine)
    scale.schedule_pods(h, h.workload.new[:1])
    return str(_calls_while(lambda: scale.schedule_pods(h, h.workload.new[1:]), general_predicates))


def _truth_confirmation(q: Q.Question) -> str:
    """web-1's next event after the one the prompt names (by number), from a fresh run."""
    seq = int(q.prompt.split("at event #")[1].split(" ")[0])
    sim = Simulation.from_scenario("three-nodes", seed=q.seed, **EVENTS_ONLY)
    sim.run_until(lambda e: e.stage == "cache.addPod" and e.data.get("pod") == "default/web-1")
    from kschedlearn.curriculum.questions_course import CONFIRMATION

    later = [e for e in sim.trace if e.seq > seq and e.stage in CONFIRMATION
             and "default/web-1" in (e.data.get("pod"), e.data.get("key"))]
    return later[0].stage


def _truth_conflict_event(q: Q.Question) -> str:
    """The FailedScheduling event the API server stores after two 409 bindings, from a fresh run."""
    sim = Simulation.from_scenario("three-nodes", seed=1, **EVENTS_ONLY)
    sim.run_until("workload")
    sim.inject.fail_next_bind(2, conflict=True)
    sim.run()
    ev = next(e for e in sim.world.api.storage.items("events") if e.reason == "FailedScheduling")
    return f"{ev.type} {ev.reason}: {ev.message}"


TRUTHS_TOPICS = {
    "scheduler_name_question": _truth_scheduler_name, "node_condition_question": _truth_node_condition,
    "assume_question": _truth_assume, "deleted_in_flight_question": _truth_deleted_in_flight,
    "extender_total_question": _truth_extender_total, "leaders_at_question": _truth_leaders_at,
    "double_bind_question": _truth_double_bind, "conflict_event_question": _truth_conflict_event,
    "confirmation_question": _truth_confirmation,
    "spread_walk_question": _truth_spread_walk, "equivalence_question": _truth_equivalence,
}

@functools.lru_cache(maxsize=4)
def _controllers_changes(seed: int) -> tuple[tuple[float, str, Any], ...]:
    """Every stored change of notebook 15's scenario to t=36 (not the trace the factories read)."""
    from kschedlearn.simulation.world import build_world

    w = build_world(QCM.scenario(), seed, snapshots=False, capture_stacks=False)
    changes: list[tuple[float, str, Any]] = []
    w.api.storage.listeners.append(lambda res, entry: changes.append((w.runtime.now, res, entry)))
    w.run(None, until=36)
    return tuple(changes)


def _truth_spread(q: Q.Question) -> str:
    nodes = {e.object.metadata.name: e.object.spec.node_name for t, res, e in _controllers_changes(q.seed)
             if res == "pods" and t < 7 and e.object.metadata.name.startswith("web-") and e.object.spec.node_name}
    return str(len(set(nodes.values())))


def _truth_burst(q: Q.Question) -> str:
    # the client's rate limit (20 QPS, burst 30) spreads the 47 creations over a few seconds
    return str(sum(1 for t, res, e in _controllers_changes(q.seed) if res == "pods" and e.type == "ADDED"
                   and 8 <= t < 12 and e.object.metadata.name.startswith("web-")))


def _truth_surge(q: Q.Question) -> str:
    first_up = next(e.object.message for t, res, e in _controllers_changes(q.seed)
                    if res == "events" and e.type == "ADDED" and t >= 24 and e.object.reason == "ScalingReplicaSet"
                    and e.object.message.startswith("Scaled up"))
    return first_up.rsplit(" ", 1)[1]


def _truth_daemonset(q: Q.Question) -> str:
    agent_pods = [e.object for t, res, e in _controllers_changes(q.seed)
                  if res == "pods" and e.type == "ADDED" and e.object.metadata.name.startswith("agent-")]
    assert agent_pods, "the DaemonSet created no pod"
    return str(sum(1 for p in agent_pods if not p.spec.node_name))  # born unbound = would reach podQueue


TRUTHS = {
    **TRUTHS_TOPICS,
    "spread_question": _truth_spread, "burst_question": _truth_burst, "surge_question": _truth_surge,
    "daemonset_question": _truth_daemonset,
    "kubectl_apply_question": _truth_kubectl_apply, "replay_placement_question": _truth_replay,
    "pod_location_question": _truth_pod_location, "cache_state_question": _truth_cache_state,
    "winner_question": _truth_winner, "next_stage_question": _truth_next_stage,
    "failing_predicate_question": _truth_failing_predicate, "backoff_question": _truth_backoff,
    "leader_question": _truth_leader, "binder_question": _truth_binder, "registered_question": _truth_registered,
    "fifo_pop_question": _truth_fifo, "delta_fifo_question": _truth_delta_fifo,
    "selector_question": _truth_selector, "index_question": _truth_index,
}
#: locations a snapshot cannot tell apart (no table holds the pod): the factory's reading of the
#: last event decides between them; the independent check only confirms that no table holds it
_UNTABLED = (Q.LOC_API, Q.LOC_SCHEDULE_ONE, Q.LOC_BACKOFF)

@functools.cache
def _truth_of(check: Any, q: Q.Question) -> str | None:
    """``check(q)``, derived once per module for each question: two cells whose questions meet (a
    cell's "New question" is the next cell's own seed: seven of the hundred) share the independent
    run's answer (a question is a frozen value; the truth reads nothing else)."""
    return check(q)


CASES = [(p, i, src) for p in CURRICULUM for i, src in enumerate(_predict_sources(p))]


@pytest.mark.parametrize("path,index,source", CASES, ids=[f"{p.stem}-{i}" for p, i, _ in CASES])
def test_predict_cell_answers_right_and_wrong(path: Path, index: int, source: str) -> None:
    cell = eval(source, dict(PRELUDE))  # a predict cell is one expression building a PredictCell
    assert isinstance(cell, PredictCell)
    for _ in range(2):  # the cell's own seed, then "New question"
        q = cell.question
        factory = cell.factory.func if isinstance(cell.factory, functools.partial) else cell.factory
        check = TRUTHS.get(getattr(factory, "__name__", ""))
        assert check is not None, (f"{path.name} predict cell {index}: no independent check for factory "
                                   f"{factory!r}; add one to TRUTHS in {Path(__file__).name}")
        truth = _truth_of(check, q)
        if truth is None:
            assert q.answer in _UNTABLED
        else:
            assert q.answer == truth, f"{path.name} predict cell {index}: {q.prompt}"
        wrong = next(c for c in q.choices if c != q.answer)
        verdict = cell.answer(wrong)
        assert not verdict.correct and verdict.truth == q.answer and "✗" in cell.result.value
        verdict = cell.answer(q.answer)
        assert verdict.correct and "✓" in cell.result.value
        cell.new_question()
