"""Predict-then-check questions for notebook 12, "beyond the happy path".

Go: none — kschedlearn-only (the contract of :mod:`kschedlearn.simulation.questions`). One or two
factories per topic scenario: several-schedulers, node-conditions, why-assume,
deleted-while-binding, extender, unfenced-leader. Each builds a :class:`Simulation`, runs it and
reads the truth from the trace and the API server; the seed picks what is asked (which pod,
which node, which moment, assume on or off) and is the simulation's seed.
"""

from __future__ import annotations

import json
import random
from collections import Counter

from kschedlearn.scenarios import example_extender
from kschedlearn.scheduler.factory.factory import get_node_condition_predicate
from kschedlearn.simulation.questions import Question, QuestionError, _choices, _ev
from kschedlearn.simulation.simulation import Simulation
from kschedlearn.trace import TraceEvent

_NOBODY = "nobody: it stays Pending"


def _finished(scenario: str, seed: int, **kwargs: object) -> Simulation:
    """``scenario`` run to its end without snapshots: these factories read the trace's events and
    the API server's storage, the same without them (``tests/simulation/test_questions_without_snapshots.py``)."""
    kwargs.setdefault("snapshots", False)
    sim = Simulation.from_scenario(scenario, seed=seed, **kwargs)  # type: ignore[arg-type]
    sim.run_until(lambda e: False)
    return sim


def _first(sim: Simulation, stage: str, pod: str | None = None, process: str | None = None) -> TraceEvent | None:
    return next((e for e in sim.trace if e.stage == stage and (pod is None or e.data.get("pod") == pod)
                 and (process is None or e.process == process)), None)


# --- several schedulers ------------------------------------------------------------------------


def scheduler_name_question(seed: int, scenario: str = "several-schedulers") -> Question:
    """"Pod P names schedulerName S. Which replica binds it?" — the seed picks the pod."""
    sim = _finished(scenario, seed)
    pods = sorted(sim.world.api.storage.items("pods"), key=lambda p: p.metadata.name)
    if not pods:
        raise QuestionError(f"scenario {scenario!r} creates no pod to ask about")
    pod = pods[(seed - 1) % len(pods)]  # "new question" walks through every pod
    key = f"{pod.metadata.namespace}/{pod.metadata.name}"
    replicas = {r.name: r.handles.s.scheduler_name for r in sim.world.replicas.values()}
    bind = _first(sim, "apiserver.bind", key)
    truth = bind.process if bind is not None else _NOBODY
    asked = next(a.arg for a in sim.scenario.timeline if a.kind == "create" and a.arg.metadata.name == pod.metadata.name)
    said = f"schedulerName: {asked.spec.scheduler_name}" if asked.spec.scheduler_name else "no schedulerName"
    running = ", ".join(f"{n} (--scheduler-name={s})" for n, s in replicas.items())
    prompt = (f"{scenario}, seed {seed}: `{key}` is created with {said}. Running: {running}. "
              f"Which replica binds it?")
    explanation = (f"The API server stored it with schedulerName {pod.spec.scheduler_name!r} (an empty one is "
                   f"defaulted to \"default-scheduler\"). Every replica's podQueue receives every unassigned pod, "
                   f"but getNextPod pops and silently drops the pods whose schedulerName is not its own "
                   f"(responsibleForPod, factory.go). "
                   + (f"{truth} bound it at {_ev(bind)}." if bind is not None else
                      "No running replica has that name, so nobody schedules it and no event says why."))
    return Question(prompt, (*replicas, _NOBODY), truth, explanation, bind.seq if bind else None, scenario, seed)


# --- the node-condition filter -----------------------------------------------------------------

REACHES = "yes: the predicates run on it (and may still reject it)"
DROPPED = "no: the node lister drops it before any predicate runs"


def _condition_text(node: object) -> str:
    conds = ", ".join(f"{c.type}={c.status}" for c in node.status.conditions)  # type: ignore[attr-defined]
    return conds + (", spec.unschedulable=true" if node.spec.unschedulable else "")  # type: ignore[attr-defined]


def node_condition_question(seed: int, scenario: str = "node-conditions", pod: str | None = None) -> Question:
    """"Node N has these conditions. Do the predicates ever see it for pod P?" — the seed picks N."""
    sim = _finished(scenario, seed)
    key = pod or sim.scenario.follow
    nodes = sorted((o for o in sim.scenario.objects if type(o).kind == "Node"), key=lambda n: n.metadata.name)
    node = nodes[(seed - 1) % len(nodes)]  # "new question" walks through every node
    name = node.metadata.name
    start = _first(sim, "schedule.start", key)
    if start is None:
        raise QuestionError(f"scenario {scenario!r}: pod {key!r} is never scheduled")
    seen = [e for e in sim.trace if e.stage == "schedule.predicate_node" and e.data.get("pod") == key]
    truth = REACHES if any(e.data.get("node") == name for e in seen) else DROPPED
    listed = sorted({e.data["node"] for e in seen})
    prompt = (f"{scenario}, seed {seed}: node `{name}` has {_condition_text(node)}. When scheduleOne schedules "
              f"`{key}` ({_ev(start)}), do the predicates run on `{name}`?")
    kept = get_node_condition_predicate()(node)
    explanation = (f"The scheduler's node lister is wrapped by getNodeConditionPredicate (factory.go): it drops a "
                   f"node whose Ready condition is not True, whose OutOfDisk or NetworkUnavailable condition is not "
                   f"False, or that is unschedulable. {name} {'passes' if kept else 'fails'} that filter. "
                   f"The predicates ran on: "
                   f"{', '.join(listed) or 'no node'}.")
    return Question(prompt, (REACHES, DROPPED), truth, explanation, seen[0].seq if seen else start.seq, scenario, seed)


# --- why assume? -------------------------------------------------------------------------------


def _milli_cpu(sim: Simulation) -> tuple[dict[str, int], dict[str, int]]:
    alloc = {n.metadata.name: n.status.allocatable["cpu"].milli_value() for n in sim.world.api.storage.items("nodes")}
    used: Counter[str] = Counter()
    for pod in sim.world.api.storage.items("pods"):
        if pod.spec.node_name:
            used[pod.spec.node_name] += sum(c.resources.requests["cpu"].milli_value() for c in pod.spec.containers)
    return dict(used), alloc


def assume_question(seed: int, scenario: str = "why-assume") -> Question:
    """"With assume on / off, how many of the burst's pods are bound?" — the seed picks on or off."""
    assume = seed % 2 == 1
    sim = _finished(scenario, seed, assume=assume)
    pods = list(sim.world.api.storage.items("pods"))
    bound = [p for p in pods if p.spec.node_name]
    used, alloc = _milli_cpu(sim)
    over = sorted(n for n in alloc if used.get(n, 0) > alloc[n])
    truth = str(len(bound))
    mode = "on (as in 1.6)" if assume else "switched off (kschedlearn-only)"
    sizes = sorted({alloc[n] for n in alloc})
    each = f"{sizes[0]}m CPU each" if len(sizes) == 1 else ", ".join(f"{alloc[n]}m" for n in sorted(alloc)) + " CPU"
    requests = sorted({sum(c.resources.requests["cpu"].milli_value() for c in p.spec.containers) for p in pods})
    asks = f"{requests[0]}m CPU" if len(requests) == 1 else "CPU"
    prompt = (f"{scenario}, seed {seed}, assume {mode}: {len(pods)} pods of {asks} arrive together on "
              f"{len(alloc)} nodes of {each}. How many of them get bound?")
    booking = "; ".join(f"{n}: {used.get(n, 0)}m of {alloc[n]}m" for n in sorted(alloc))
    if assume:
        why = ("AssumePod counts each pod on its node the moment it is chosen, before the binding is sent, so "
               "the next pod of the burst already sees that node as used: the others fail PodFitsResources "
               "(Insufficient cpu) and back off.")
    else:
        why = ("Without AssumePod the cache counts a pod only when the assigned-pod informer delivers it after the "
               "binding; scheduleOne does not wait for bindings, so the later pods were placed against a cache "
               "that did not yet count the earlier ones.")
    explanation = f"{why} Booked CPU: {booking}." + (f" Over capacity: {', '.join(over)}." if over else " No node is over capacity.")
    last = max((e for e in sim.trace if e.stage == "apiserver.bind"), key=lambda e: e.seq, default=None)
    if not assume:
        # the widget's "see step N" link rebuilds the scenario with assume on: say it here instead
        explanation += (f" (To look: sim = Simulation.from_scenario({scenario!r}, seed={seed}, assume=False)"
                        + (f"; sim.goto({last.seq})" if last else "") + ".)")
    return Question(prompt, tuple(str(i) for i in range(len(pods) + 1)), truth, explanation,
                    last.seq if last and assume else None, scenario, seed)


# --- deleted while binding ---------------------------------------------------------------------

_BIND_REPLIES = ("success: the pod is bound to the chosen node",
                 "404 Not Found: the pod no longer exists",
                 "409 Conflict: the pod is being deleted",
                 "nothing: scheduleOne notices the deletion and never sends it")
_AFTERMATH = ("it is requeued into podQueue and scheduled again",
              "it waits out its back-off, the re-read finds it gone, and it is dropped",
              "the scheduler crashes (ForgetPod on an unknown pod)",
              "it stays assumed in the cache until the 30 s expiry")


def deleted_in_flight_question(seed: int, scenario: str = "deleted-while-binding") -> Question:
    """"The pod is deleted while its binding waits: what comes back / what happens next?" — the seed
    picks which of the two is asked."""
    sim = _finished(scenario, seed)
    key = sim.scenario.follow
    bind = _first(sim, "bind", key)
    delete = next((e for e in sim.trace if e.stage == "apiserver.delete" and e.data.get("key") == key), None)
    if bind is None or delete is None or delete.seq < bind.seq:
        raise QuestionError(f"scenario {scenario!r}: {key!r} is not deleted while its binding is in flight")
    forget = _first(sim, "forgetPod", key)
    err = next((e.message for e in sim.trace if e.stage == "log" and e.message.startswith("Error scheduling")
                and key.split("/")[1] in e.message), "")
    requeued = _first(sim, "error.requeue", key) is not None
    gone_log = next((e for e in sim.trace if e.stage == "log" and e.message == f"A pod {key} no longer exists"), None)
    if seed % 2 == 1:
        success = _first(sim, "apiserver.bind", key) is not None
        truth = (_BIND_REPLIES[0] if success else _BIND_REPLIES[1] if "not found" in err
                 else _BIND_REPLIES[2] if "being deleted" in err else _BIND_REPLIES[3])
        prompt = (f"{scenario}, seed {seed}: at {_ev(bind)} the binding goroutine POSTs the Binding of `{key}`; the "
                  f"API server is slow, and at t={delete.time:g}s the pod is deleted. What does the bind call get back?")
        explanation = (f"A pod without a node is deleted at once (no grace period), so when the binding is served "
                       f"the pod is gone: {err or 'no error'}. The goroutine then runs its failure path: "
                       f"ForgetPod{f' at {_ev(forget)}' if forget else ''}, the error function, a FailedScheduling "
                       f"event \"Binding rejected\".")
        return Question(prompt, _BIND_REPLIES, truth, explanation, forget.seq if forget else None, scenario, seed)
    truth = (_AFTERMATH[0] if requeued else _AFTERMATH[2] if sim.world.runtime.crashes
             else _AFTERMATH[1] if gone_log is not None and forget is not None else _AFTERMATH[3])
    prompt = (f"{scenario}, seed {seed}: `{key}` was deleted while its binding was in flight; the bind failed. "
              f"What happens to the pod in the scheduler next?")
    explanation = ("ForgetPod takes the assumed pod out of the cache (it was assumed, so no 1.6 nil-pointer crash); "
                   "the error function backs off, then re-reads the pod from the API server"
                   + (f" and logs \"{gone_log.message}\" at {_ev(gone_log)}: no requeue." if gone_log else "."))
    return Question(prompt, _AFTERMATH, truth, explanation, gone_log.seq if gone_log else None, scenario, seed)


# --- an HTTP extender --------------------------------------------------------------------------


def extender_total_question(seed: int, scenario: str = "extender", pod: str | None = None) -> Question:
    """"Node N scores B from the built-in priorities and E from the extender. Its total?" — the seed
    picks N among the nodes the extender kept."""
    rng = random.Random(seed)
    sim = _finished(scenario, seed)
    key = pod or sim.scenario.follow
    decisions = [d for d in sim.decision(key) if d.scored_nodes]
    if not decisions:
        raise QuestionError(f"scenario {scenario!r}: pod {key!r} never reaches the priorities")
    d = decisions[0]
    node = d.scored_nodes[(seed - 1) % len(d.scored_nodes)]  # "new question" walks through the nodes
    j = d.scored_nodes.index(node)
    builtin = sum(s[j] * w for s, w in zip(d.scores, d.weights))
    weight = json.loads(dict(sim.scenario.files)["policy.json"])["extenders"][0]["weight"]
    labels = {n.metadata.name: dict(n.metadata.labels) for n in sim.world.api.storage.items("nodes")}
    score = example_extender.score_of(labels[node])
    truth = str(dict(d.totals)[node])
    pool = [str(builtin), str(builtin + score), str(builtin + weight * score), str(weight * (builtin + score)),
            str(builtin + weight), str(builtin + weight * 10)]
    rejected = sorted(v.node for v in d.verdicts if v.fits and v.node not in d.scored_nodes)
    prompt = (f"{scenario}, seed {seed}: for `{key}` the built-in priorities give `{node}` {builtin} "
              f"(score × weight, summed); the extender (weight {weight}) scores it {score}. What is its total?")
    explanation = (f"PrioritizeNodes adds each extender's score × its weight to the built-in sum: {builtin} + "
                   f"{weight} × {score} = {truth}. Only nodes the extender's filter kept are scored"
                   + (f" ({', '.join(rejected)} passed every predicate but the extender filtered it out)." if rejected else ".")
                   + f" selectHost picked {d.host}.")
    pick = next(e for e in sim.trace if e.stage == "selectHost" and e.data.get("pod") == key)
    return Question(prompt, _choices(truth, pool, rng, order=sorted(set(pool), key=int)), truth, explanation,
                    pick.seq, scenario, seed)


# --- 1.6's unfenced leader election ------------------------------------------------------------

_LEADS = ("only scheduler-a", "only scheduler-b", "both scheduler-a and scheduler-b", "neither")


def _leading_spans(sim: Simulation) -> dict[str, tuple[float, float]]:
    """replica → (time it acquired the lock, time it stopped leading or the end)."""
    spans: dict[str, tuple[float, float]] = {}
    for e in sim.trace:
        if e.stage == "leaderelection.acquire" and e.data.get("result") == "acquired":
            spans[e.process] = (e.time, sim.scenario.duration)
        elif e.stage in ("leaderelection.lost", "process.crash") and e.process in spans:
            start, end = spans[e.process]
            spans[e.process] = (start, min(end, e.time))
    return spans


def leaders_at_question(seed: int, scenario: str = "unfenced-leader") -> Question:
    """"At t=T, which replicas act as leader (run scheduleOne)?" — the seed picks T (and the jitter)."""
    sim = _finished(scenario, seed)
    spans = _leading_spans(sim)
    if len(spans) < 2:
        raise QuestionError(f"scenario {scenario!r}: fewer than two replicas ever lead")
    (a, (a0, a1)), (b, (b0, b1)) = sorted(spans.items(), key=lambda kv: kv[1][0])
    moments = [round((a0 + b0) / 2, 1), round((max(a0, b0) + min(a1, b1)) / 2, 1), round((a1 + b1) / 2, 1)]
    t = moments[(seed - 1) % len(moments)]  # before the overlap, inside it, after it
    leading = [r for r, (s, e) in sorted(spans.items()) if s <= t < e]
    truth = {0: _LEADS[3], 2: _LEADS[2]}.get(len(leading), f"only {leading[0]}" if leading else _LEADS[3])
    fault = next((x for x in sim.scenario.timeline if x.kind == "fault" and "delay_next" in x.arg), None)
    held = (f"at t={fault.at:g}s the API server starts holding the next lock update for "
            f"{fault.arg['delay_next']['seconds']:g} s" if fault is not None else f"{a} leads first")
    prompt = (f"{scenario}, seed {seed}: {held}. "
              f"At t={t:g}s, which replicas believe they lead and run their scheduling loop?")
    explanation = (f"{a} led from t={a0:g}s until its renewal returned and it gave up at t={a1:g}s (\"failed to renew "
                   f"lease\", then glog.Fatalf(\"lost master\")): wait.Poll checks the 10 s renew deadline only "
                   f"between attempts, and one attempt was blocked. {b} saw the record unchanged for the 15 s lease "
                   f"and took over at t={b0:.1f}s. Between t={b0:.1f}s and t={a1:g}s both lead: nothing fences the old one.")
    at = next((e for e in sim.trace if e.time >= t), sim.trace[-1])
    return Question(prompt, _LEADS, truth, explanation, at.seq, scenario, seed)


def double_bind_question(seed: int, scenario: str = "unfenced-leader") -> Question:
    """"Both leaders schedule pod P. How many times is it bound?" — the seed picks P."""
    sim = _finished(scenario, seed)
    posts = Counter(e.data["pod"] for e in sim.trace if e.stage == "bind")
    doubled = sorted(p for p, n in posts.items() if n >= 2)
    if not doubled:
        raise QuestionError(f"scenario {scenario!r}: no pod was scheduled by two replicas")
    key = doubled[(seed - 1) % len(doubled)]
    binds = [e for e in sim.trace if e.stage == "apiserver.bind" and e.data.get("pod") == key]
    truth = f"{len(binds)} time" + ("" if len(binds) == 1 else "s")
    name = key.split("/")[1]
    conflict = next((e for e in sim.trace if e.stage == "log" and e.message.startswith("Error scheduling")
                     and f'"{name}"' in e.message), None)
    prompt = (f"{scenario}, seed {seed}: during the two-leader window both replicas pop `{key}`, pick a node and "
              f"POST a Binding. How many times does the API server bind it?")
    winner = binds[0] if binds else None
    explanation = ((f"{winner.process} won at {_ev(winner)} ({winner.message}). " if winner else "")
                   + "The other Binding is refused by the API server, not by the lock: "
                   + (f"\"{conflict.message}\" ({conflict.process}). " if conflict else "409 Conflict. ")
                   + "The loser forgets its assumed pod; its error function finds the pod bound and does not requeue it.")
    return Question(prompt, ("0 times", "1 time", "2 times"), truth, explanation,
                    conflict.seq if conflict else (winner.seq if winner else None), scenario, seed)


FACTORIES = {
    "several-schedulers": (scheduler_name_question,),
    "node-conditions": (node_condition_question,),
    "why-assume": (assume_question,),
    "deleted-while-binding": (deleted_in_flight_question,),
    "extender": (extender_total_question,),
    "unfenced-leader": (leaders_at_question, double_bind_question),
}
"""The question factories of each topic scenario (notebook 12's predict cells use them)."""

__all__ = ["FACTORIES", "scheduler_name_question", "node_condition_question", "assume_question",
           "deleted_in_flight_question", "extender_total_question", "leaders_at_question", "double_bind_question"]
