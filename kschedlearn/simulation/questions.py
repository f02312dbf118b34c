"""Predict-then-check questions: posed from a scenario and a seed, answered by running it.

Go: none — kschedlearn-only (DESIGN §11, the notebooks' predict-then-check cells). A question
factory is a plain function ``(seed, ...) -> Question``: it builds a :class:`Simulation`, runs it
to the moment asked about, poses the question, then runs on to find the truth. Nothing here
knows an answer in advance: change the scenario and the answers change with it. The seed picks
*what* is asked (which pod, which moment, which node) and is also the simulation's seed, so
"new question" (seed + 1) re-rolls something meaningful.

The widget over a question lives in :mod:`kschedlearn.widgets.predict`; this module is core and
draws nothing.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import attrs

from kschedlearn.simulation.simulation import TEACHING_STAGES, Simulation, SimulationError
from kschedlearn.trace import TraceEvent
from kschedlearn.trace.snapshot import Snapshot


class QuestionError(SimulationError):
    """A question cannot be posed (scenario without the event asked about) or answered
    (a choice that is not one of the question's)."""


@attrs.frozen
class Question:
    """One predict-then-check question. ``answer`` is one of ``choices`` and was found by
    running the simulator; ``event`` is the event number where the truth shows."""

    prompt: str
    choices: tuple[str, ...]
    answer: str
    explanation: str
    event: int | None
    scenario: str
    seed: int

    def __attrs_post_init__(self) -> None:
        if self.answer not in self.choices:
            raise QuestionError(f"question {self.prompt!r}: answer {self.answer!r} is not one of its choices {list(self.choices)}")
        if len(set(self.choices)) != len(self.choices):
            raise QuestionError(f"question {self.prompt!r}: repeated choices {list(self.choices)}")


@attrs.frozen
class Verdict:
    """The check of one answer: right or wrong, what was chosen, the truth and why."""

    correct: bool
    chosen: str
    truth: str
    explanation: str


def check_answer(q: Question, chosen: str) -> Verdict:
    """Compare ``chosen`` with the simulated truth (an unknown choice is an error naming it)."""
    if chosen not in q.choices:
        valid = ", ".join(repr(c) for c in q.choices)
        raise QuestionError(f"answer {chosen!r} is not a choice of this question; choose one of: {valid}")
    return Verdict(correct=chosen == q.answer, chosen=chosen, truth=q.answer, explanation=q.explanation)


# --- helpers -----------------------------------------------------------------------------------


def _run(scenario: str, seed: int, *, snapshots: bool = False) -> Simulation:
    """``scenario`` run to its end. Only the factories that read recorded snapshots (where a pod
    is, the lock record's holder) ask for them: the others read the trace's events, which are the
    same without snapshots (``tests/simulation/test_questions_without_snapshots.py``), at half the
    cost of a run."""
    sim = Simulation.from_scenario(scenario, seed=seed, snapshots=snapshots)
    sim.run()
    return sim


def _choices(truth: str, pool: Sequence[str], rng: random.Random, n: int = 4, *, order: Sequence[str] = ()) -> tuple[str, ...]:
    """``truth`` plus up to ``n - 1`` distractors from ``pool``, in ``order`` (or sorted)."""
    others = sorted({p for p in pool if p != truth})
    picked = [truth, *rng.sample(others, min(n - 1, len(others)))]
    rank = {c: i for i, c in enumerate(order)}
    return tuple(sorted(picked, key=lambda c: (rank.get(c, len(rank)), c)))


def _ev(e: TraceEvent) -> str:
    return f"event #{e.seq} (t={e.time:g}s, `{e.stage}`)"


def _pod_events(sim: Simulation, pod: str) -> list[TraceEvent]:
    return [e for e in sim.trace if e.stage != "log" and pod in (e.data.get("pod"), e.data.get("key"))]


def _pick_pod(sim: Simulation, stage: str, pod: str | None, rng: random.Random) -> str:
    pods = sorted({e.data["pod"] for e in sim.trace if e.stage == stage and isinstance(e.data.get("pod"), str)})
    if pod is not None:
        if pod not in pods:
            raise QuestionError(f"scenario {sim.scenario.name!r}: pod {pod!r} has no {stage!r} event; pods that do: {pods}")
        return pod
    if not pods:
        raise QuestionError(f"scenario {sim.scenario.name!r} has no {stage!r} event to ask about")
    return rng.choice(pods)


# --- where is the pod --------------------------------------------------------------------------

LOC_API = "only in the API server (no scheduler queue or cache holds it)"
LOC_PODQUEUE = "podQueue, the FIFO of unscheduled pods"
LOC_SCHEDULE_ONE = "in scheduleOne's hands (popped, being scheduled)"
LOC_BACKOFF = "in no queue: waiting out its back-off before going back to podQueue"
LOC_ASSUMED = "scheduler cache: assumed, binding in flight"
LOC_FINISHED = "scheduler cache: assumed, binding finished (the 30 s expiry clock runs)"
LOC_DELTA_FIFO = "the assigned-pod informer's DeltaFIFO (bound, waiting for processLoop)"
LOC_CONFIRMED = "scheduler cache: confirmed (added by the assigned-pod informer)"
LOCATIONS = (LOC_API, LOC_PODQUEUE, LOC_SCHEDULE_ONE, LOC_BACKOFF, LOC_ASSUMED, LOC_FINISHED, LOC_DELTA_FIFO, LOC_CONFIRMED)
"""The places a pod can be, in the order of its journey (the choices of :func:`pod_location_question`)."""

#: stages whose snapshot is taken just *before* the call (observe/scheduler.py)
_BEFORE_STAGES = frozenset({"bind", "cache.addPod", "expirePod"})
_SCHEDULE_ONE_STAGES = frozenset({"fifo.pop", "scheduleOne.pop", "schedule.start", "schedule.predicates",
                                  "schedule.predicate_node", "schedule.priorities", "selectHost"})


def _state_after(sim: Simulation, i: int) -> Snapshot | None:
    """The state once event ``i`` took effect (event numbers are trace indices). With
    ``snapshot_every`` > 1 the nearest earlier snapshot stands in."""
    from kschedlearn.simulation.on_demand import own_snapshot

    trace = sim.trace
    if trace[i].stage in _BEFORE_STAGES:
        for j in range(i + 1, len(trace)):
            snap = own_snapshot(sim, j)
            if snap is not None:
                return snap
    for j in range(i, -1, -1):
        snap = own_snapshot(sim, j)
        if snap is not None:
            return snap
    return None


def pod_location(sim: Simulation, i: int, pod: str) -> str:
    """Where ``pod`` is right after event ``i`` of ``sim``'s trace (one of :data:`LOCATIONS`).

    Read from the recorded snapshot: podQueue first, then the assigned-pod DeltaFIFO, then the
    scheduler cache; a pod in none of them is in scheduleOne's hands (if the last event about it
    was scheduleOne's), waiting out a back-off, or only in the API server.
    """
    snap = _state_after(sim, i)
    queues = (snap.queues or {}) if snap is not None else {}
    for name, where in (("podQueue", LOC_PODQUEUE), ("scheduledPodPopulator", LOC_DELTA_FIFO)):
        q = queues.get(name)
        if q is not None and any(item.key == pod for item in q.items):
            return where
    cache = snap.cache if snap is not None else None
    for state in (cache.pod_states if cache is not None else ()):
        if state.key == pod:
            if not state.assumed:
                return LOC_CONFIRMED
            return LOC_FINISHED if state.binding_finished else LOC_ASSUMED
    last = next((e for e in reversed(sim.trace[: i + 1])
                 if e.stage != "log" and pod in (e.data.get("pod"), e.data.get("key"))), None)
    if last is not None and last.stage in _SCHEDULE_ONE_STAGES:
        return LOC_SCHEDULE_ONE
    if last is not None and last.stage in ("error.backoff", "forgetPod"):
        return LOC_BACKOFF
    return LOC_API


def pod_location_question(seed: int, scenario: str = "three-nodes", pod: str | None = None) -> Question:
    """"The pod is here, at event N. Where is it after its next event?" — the seed picks the moment."""
    rng = random.Random(seed)
    sim = _run(scenario, seed, snapshots=True)
    key = pod or sim.scenario.follow
    events = _pod_events(sim, key)
    if len(events) < 2:
        raise QuestionError(f"scenario {scenario!r}: pod {key!r} has fewer than two events to ask about")
    # moments where the next event moves the pod somewhere else are the interesting ones
    moves = [k for k in range(len(events) - 1)
             if pod_location(sim, events[k].seq, key) != pod_location(sim, events[k + 1].seq, key)]
    k = rng.choice(moves or list(range(len(events) - 1)))
    now, nxt = events[k], events[k + 1]
    here, truth = pod_location(sim, now.seq, key), pod_location(sim, nxt.seq, key)
    prompt = (f"{scenario}, seed {seed}: at {_ev(now)} — {now.message} — `{key}` is here: {here}. "
              f"Where is it right after the next event about it?")
    why = nxt.why or ""
    explanation = (f"The next event about {key} is {_ev(nxt)}: {nxt.message}. {why} "
                   f"After it, the snapshot shows the pod {truth}. (Step there with `sim.goto({nxt.seq})`.)")
    return Question(prompt, _choices(truth, [loc for loc in LOCATIONS if loc != here], rng, order=LOCATIONS),
                    truth, explanation, nxt.seq, scenario, seed)


def cache_state_question(seed: int, scenario: str = "assume-expiry", pod: str | None = None) -> Question:
    """"Right after stage X, what does the scheduler cache hold for the pod?" — the seed picks X."""
    rng = random.Random(seed)
    sim = _run(scenario, seed, snapshots=True)
    key = pod or sim.scenario.follow
    moments = [e for e in _pod_events(sim, key)
               if e.stage in ("assume", "finishBinding", "forgetPod", "expirePod", "cache.addPod", "cache.removePod")]
    if not moments:
        raise QuestionError(f"scenario {scenario!r}: the cache never touches pod {key!r}")
    e = rng.choice(moments)
    cache_states = (LOC_ASSUMED, LOC_FINISHED, LOC_CONFIRMED)
    gone = "nothing: the pod is not in the scheduler cache"
    loc = pod_location(sim, e.seq, key)
    truth = loc if loc in cache_states else gone
    prompt = (f"{scenario}, seed {seed}: {_ev(e)} happens — {e.message}. "
              f"Right after it, what does the scheduler cache hold for `{key}`?")
    explanation = f"{e.why} The snapshot after {_ev(e)} shows: {truth}. (`sim.goto({e.seq})` to look.)"
    return Question(prompt, (*cache_states, gone), truth, explanation, e.seq, scenario, seed)


# --- which node wins, which predicate fails ----------------------------------------------------


def winner_question(seed: int, scenario: str = "three-nodes", pod: str | None = None) -> Question:
    """"Which node will selectHost pick for this pod?" — the seed picks the pod (if several)."""
    rng = random.Random(seed)
    sim = _run(scenario, seed)
    key = _pick_pod(sim, "selectHost", pod, rng)
    start = next(e for e in sim.trace if e.stage == "schedule.start" and e.data.get("pod") == key)
    pick = next(e for e in sim.trace if e.stage == "selectHost" and e.data.get("pod") == key)
    nodes = list(start.data.get("nodes") or [h for h, _ in pick.data["ranked"]])
    truth = pick.data["host"]
    totals = ", ".join(f"{h} {t}" for h, t in pick.data["ranked"])
    ties = int(pick.data.get("ties", 1))
    tie = (f" {ties} nodes share the top score, so selectHost's round-robin counter (lastNodeIndex "
           f"{pick.data.get('last_node_index')}) picks among them." if ties > 1 else " It has the highest total alone.")
    prompt = (f"{scenario}, seed {seed}: scheduleOne starts on `{key}` at {_ev(start)} with the nodes "
              f"{', '.join(nodes)}. Which node will selectHost pick?")
    explanation = (f"At {_ev(pick)} the ranked totals (nodes that passed every predicate; score × weight "
                   f"summed over the priorities) were: {totals}.{tie} selectHost picked {truth}.")
    return Question(prompt, _choices(truth, nodes, rng, n=6, order=nodes), truth, explanation, pick.seq, scenario, seed)


#: predicate failure reasons 1.6 reports, for distractors (predicates/error.go)
_REASONS = ("Insufficient cpu", "Insufficient memory", "Insufficient pods", "MatchNodeSelector", "PodFitsHostPorts",
            "HostName", "PodToleratesNodeTaints", "MatchInterPodAffinity", "CheckNodeLabelPresence",
            "NoDiskConflict", "NodeUnderMemoryPressure", "NodeUnderDiskPressure")


def failing_predicate_question(seed: int, scenario: str = "spread-and-affinity", pod: str | None = None) -> Question:
    """"Why is node N rejected for pod P?" — the seed picks the (pod, node) pair."""
    rng = random.Random(seed)
    sim = _run(scenario, seed)
    pairs = [(e, node, tuple(reasons)) for e in sim.trace if e.stage == "schedule.predicates"
             and (pod is None or e.data.get("pod") == pod) for node, reasons in sorted(e.data.get("failed", {}).items())]
    if not pairs:
        raise QuestionError(f"scenario {scenario!r}: no predicate rejects any node" + (f" for {pod!r}" if pod else ""))
    e, node, reasons = rng.choice(pairs)
    truth = " + ".join(reasons)
    pool = [*_REASONS, *(" + ".join(r) for _, _, r in pairs)]
    prompt = (f"{scenario}, seed {seed}: scheduleOne runs the predicates for `{e.data['pod']}` (t={e.time:g}s). "
              f"Node `{node}` fails. Which reason does 1.6 report for it?")
    passed = ", ".join(e.data.get("filtered", [])) or "none"
    explanation = (f"At {_ev(e)} findNodesThatFit kept {passed}; for {node} the failed predicates "
                   f"reported {truth}. (All predicates run for every node in 1.6, so a node can "
                   f"collect several reasons.)")
    return Question(prompt, _choices(truth, pool, rng), truth, explanation, e.seq, scenario, seed)


# --- what comes next ---------------------------------------------------------------------------

STARTUP_STAGES = ("main", "NewSchedulerServer", "Run", "createClient", "createRecorder", "NewSharedInformerFactory",
                  "createScheduler", "NewConfigFactory", "schedulercache.New", "NewIndexerInformer",
                  "CreateFromProvider", "CreateFromKeys", "ConfigFactory.Run", "startHTTP", "informerFactory.Start",
                  "leaderelection.start", "Scheduler.Run")
"""The start-up chain's stages (``next_stage_question(seed, stages=STARTUP_STAGES)``)."""


def next_stage_question(seed: int, scenario: str = "three-nodes", pod: str | None = None,
                        stages: Sequence[str] | None = None) -> Question:
    """"Which stage comes next?" — among the pod's events (``pod``, default the followed pod) or
    among ``stages`` (e.g. the start-up chain). The seed picks the moment."""
    rng = random.Random(seed)
    sim = _run(scenario, seed)
    if stages is not None:
        wanted = set(stages)
        events = [e for e in sim.trace if e.stage in wanted]
        what = "the next step of the chain (among the stages asked about)"
        # one replica's chain is enough (the first one's)
        if events:
            events = [e for e in events if e.process == events[0].process]
    else:
        key = pod or sim.scenario.follow
        events = [e for e in _pod_events(sim, key) if e.stage in TEACHING_STAGES]
        what = f"the next teaching stage about `{key}`"
    steps = [k for k in range(len(events) - 1) if events[k].stage != events[k + 1].stage]
    if not steps:
        raise QuestionError(f"scenario {scenario!r}: not enough distinct stages to ask about")
    k = rng.choice(steps)
    now, nxt = events[k], events[k + 1]
    truth = nxt.stage
    pool = sorted({e.stage for e in events} - {now.stage})
    prompt = f"{scenario}, seed {seed}: the cursor is at {_ev(now)} — {now.message}. What is {what}?"
    explanation = f"{_ev(nxt)}: {nxt.message}. {nxt.why}"
    return Question(prompt, _choices(truth, pool, rng), truth, explanation, nxt.seq, scenario, seed)


def backoff_question(seed: int, scenario: str = "unschedulable-then-fits", pod: str | None = None) -> Question:
    """"After failed attempt k, how long does the pod back off?" — the seed picks k."""
    rng = random.Random(seed)
    sim = _run(scenario, seed)
    key = pod or sim.scenario.follow
    waits = [e for e in _pod_events(sim, key) if e.stage == "error.backoff" and not e.data.get("in_flight")]
    if not waits:
        raise QuestionError(f"scenario {scenario!r}: pod {key!r} never backs off")
    k = rng.randrange(len(waits))
    e = waits[k]
    truth = f"{e.data['backoff']:g} s"
    pool = [f"{s:g} s" for s in (0.5, 1, 2, 4, 8, 16, 30, 60)]
    prompt = (f"{scenario}, seed {seed}: scheduling `{key}` fails for the {_ordinal(k + 1)} time that starts a "
              f"back-off (t={e.time:g}s). How long does the error handler wait before putting it back into podQueue?")
    explanation = (f"{_ev(e)}: {e.message}. PodBackoff starts at 1 s and doubles on every failure, up to "
                   f"60 s; a failure while a retry is already waiting does not start another one.")
    return Question(prompt, _choices(truth, pool, rng), truth, explanation, e.seq, scenario, seed)


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


# --- high availability -------------------------------------------------------------------------


def leader_question(seed: int, scenario: str = "ha-failover") -> Question:
    """"Which replica does the lock record name as leader at t=T?" — the seed picks T (and the jitter)."""
    rng = random.Random(seed)
    sim = _run(scenario, seed, snapshots=True)
    replicas = [s.name for s in sim.scenario.schedulers]
    kills = [e for e in sim.trace if e.stage == "workload" and e.data.get("action") == "kill"]
    start = kills[0].time if kills else 0.0
    end = max(e.time for e in sim.trace)
    t = round(rng.uniform(start + 1, end), 1)
    before = [e for e in sim.trace if e.time <= t and e.snapshot is not None and e.snapshot.leader is not None]
    if not before:
        raise QuestionError(f"scenario {scenario!r}: no leader-election record to ask about")
    at = before[-1]
    holder = at.snapshot.leader.holder
    nobody = "nobody: no replica holds the lock"
    truth = holder or nobody
    acquired = [e for e in sim.trace if e.stage == "leaderelection.acquire" and "successfully" in e.message]
    history = "; ".join(f"{e.process} acquired at t={e.time:g}s (event #{e.seq})" for e in acquired)
    killed = f" {kills[0].data.get('arg')} was killed at t={start:g}s." if kills else ""
    prompt = f"{scenario}, seed {seed}:{killed} Which replica does the lock record name as the leader at t={t:g}s?"
    explanation = (f"{history}. At t={t:g}s the last event is {_ev(at)} and the record's holderIdentity is "
                   f"{truth}. A killed leader cannot release the lock: the others take it only after the "
                   f"lease (15 s) has not been renewed, at their next retry (2 s, jittered by up to +120 %).")
    return Question(prompt, (*replicas, nobody), truth, explanation, at.seq, scenario, seed)


def binder_question(seed: int, scenario: str = "ha-failover", pod: str | None = None) -> Question:
    """"Which replica binds this pod, and when?" — the seed picks the pod."""
    rng = random.Random(seed)
    sim = _run(scenario, seed)
    key = _pick_pod(sim, "apiserver.bind", pod, rng)
    bind = next(e for e in sim.trace if e.stage == "apiserver.bind" and e.data.get("pod") == key)
    created = next((e for e in sim.trace if e.stage == "workload" and e.message.endswith(key)), None)
    replicas = [s.name for s in sim.scenario.schedulers]
    truth = bind.process
    when = f"created at t={created.time:g}s, " if created is not None else ""
    prompt = f"{scenario}, seed {seed}: `{key}` ({when}see the timeline). Which replica binds it?"
    explanation = (f"{_ev(bind)}: {bind.message}, by {truth}. Only the replica holding the lock runs "
                   f"scheduleOne; the others only watch.")
    return Question(prompt, tuple(replicas), truth, explanation, bind.seq, scenario, seed)


# --- configuration -----------------------------------------------------------------------------


def registered_question(seed: int, scenario: str = "policy-file") -> Question:
    """"Does this scheduler run predicate/priority X?" — the seed picks X."""
    from kschedlearn.scheduler.factory import plugins

    rng = random.Random(seed)
    sim = _run(scenario, seed)
    keys = next((e for e in sim.trace if e.stage == "CreateFromKeys"), None)
    if keys is None:
        raise QuestionError(f"scenario {scenario!r}: no CreateFromKeys event")
    kind = rng.choice(("predicates", "priorities"))
    used = set(keys.data.get(kind, ()))
    registry = plugins.default_registry()
    known = set(registry.fit_predicate_map if kind == "predicates" else registry.priority_function_map)
    name = rng.choice(sorted(used | known))
    yes, no = f"yes: it is one of the {kind} run", f"no: not among the {kind} run"
    truth = yes if name in used else no
    source = "the policy file" if keys.data.get("policy_file") or scenario == "policy-file" else "the algorithm provider"
    prompt = f"{scenario}, seed {seed}: does this scheduler run the {kind[:-1] if kind == 'predicates' else 'priority'} `{name}`?"
    explanation = (f"{_ev(keys)} lists the {kind} {source} configured: {', '.join(sorted(used))}. "
                   f"`{name}` is {'' if name in used else 'not '}among them.")
    return Question(prompt, (yes, no), truth, explanation, keys.seq, scenario, seed)


__all__ = [
    "Question", "Verdict", "QuestionError", "check_answer", "LOCATIONS", "STARTUP_STAGES", "pod_location",
    "pod_location_question", "cache_state_question", "winner_question", "failing_predicate_question",
    "next_stage_question", "backoff_question", "leader_question", "binder_question", "registered_question",
]
