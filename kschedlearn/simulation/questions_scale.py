"""Predict-then-check questions for notebook 14, "why 1.6 slows down as the cluster grows".

Go: none — kschedlearn-only (the contract of :mod:`kschedlearn.simulation.questions`). Times are
noisy, so the questions ask about *work*, which is exact: how many calls one ``Schedule`` makes,
counted with ``cProfile`` on a benchmark-shaped cluster (:mod:`kschedlearn.simulation.scale`).
The seed picks the cluster's size (and, for the cache question, the engine).
"""

from __future__ import annotations

import random

from kschedlearn.apimachinery.labels.selector import InternalSelector
from kschedlearn.scheduler.algorithm.predicates.predicates import general_predicates
from kschedlearn.simulation import scale
from kschedlearn.simulation.questions import Question, _choices

#: (nodes, bound pods) the seed walks through; small enough to build in a fraction of a second
SIZES = ((20, 200), (30, 600), (40, 400), (50, 1000), (25, 750), (60, 300))


def _numeric(truth: str, pool: list[str], seed: int) -> tuple[str, ...]:
    """The choices in numeric order (``_choices`` sorts strings otherwise: "1,200" < "30")."""
    order = sorted({truth, *pool}, key=lambda c: int(c.replace(",", "")))
    return _choices(truth, pool, random.Random(seed), order=order)


def _size(seed: int) -> tuple[int, int]:
    return SIZES[(seed - 1) % len(SIZES)]


def spread_walk_question(seed: int) -> Question:
    """"N nodes, M bound replicas: how many selector matches does SelectorSpread make for one pod?\""""
    nodes, bound = _size(seed)
    h = scale.build(scale.make_workload(nodes, bound, 1))
    counts = scale.count_calls(h, h.workload.new[0], [InternalSelector.matches])
    calls = dict(counts[InternalSelector.matches.__qualname__].by_caller).get("calculate_spread_priority", 0)
    truth = f"{calls:,}"
    pool = [f"{x:,}" for x in (nodes, bound, 2 * bound, nodes * bound, nodes * 2)]
    prompt = (f"A cluster of `{nodes}` nodes holds `{bound}` bound replicas of one ReplicationController, which one "
              f"Service also selects. One more replica is scheduled (mirrored engine). How many times does "
              f"SelectorSpreadPriority call a label selector's Matches?")
    explanation = (f"Counted with cProfile: {calls:,} calls from CalculateSpreadPriority. Its loop visits every node, "
                   f"and on each node every pod, and tries the pod's selectors (the Service's, then the RC's) until "
                   f"one matches — here the first one always does, so one match per bound pod in the namespace: the "
                   f"cost follows the number of pods in the cluster, not the number of nodes. At the benchmark's "
                   f"1,000 nodes / 30,000 pods that is 30,000 matches for every pod scheduled.")
    return Question(prompt, _numeric(truth, pool, seed), truth, explanation, None,
                    f"generated: {nodes} nodes / {bound} bound pods", seed)


def equivalence_question(seed: int) -> Question:
    """"The second replica, with engine E: on how many nodes does GeneralPredicates run?\""""
    nodes, bound = _size(seed)
    engine = "accelerated" if seed % 2 == 1 else "mirrored"
    h = scale.build(scale.make_workload(nodes, bound, 2), engine)
    first, second = h.workload.new
    scale.schedule_pods(h, [first])
    calls = scale.count_calls(h, second, [general_predicates])["general_predicates"].calls
    truth = str(calls)
    pool = [str(x) for x in (0, 1, nodes - 1, nodes, 2 * nodes)]
    prompt = (f"Engine `{engine}`, `{nodes}` nodes, `{bound}` bound replicas of one RC. The first new replica has just "
              f"been placed (and added to the cache). Scheduling the second, identical replica: on how many nodes "
              f"does the GeneralPredicates function actually run?")
    if engine == "mirrored":
        why = ("The mirror is 1.6: findNodesThatFit runs every predicate on every node for every pod, and 1.6 never "
               "calls its equivalence cache (Schedule only has a TODO).")
    else:
        why = ("The accelerated engine keeps each node-local predicate's verdict per (equivalence class, node), valid "
               "while the scheduler's snapshot holds the same NodeInfo at the same generation. The two replicas are one "
               "class; placing the first changed one node's NodeInfo, so only that node is re-checked.")
    explanation = f"Counted with cProfile: {calls} call(s). {why}"
    return Question(prompt, _numeric(truth, pool, seed), truth, explanation, None,
                    f"generated: {nodes} nodes / {bound} bound pods, engine {engine}", seed)
