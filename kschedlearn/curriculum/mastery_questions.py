"""The mastery check's questions: each posed about a finished run and answered by that run.

Go: none — kschedlearn-only (issue 22 item 3). Every builder takes a :class:`Simulation` that
has run one of the seed's generated scenarios (:mod:`kschedlearn.curriculum.mastery_scenario`)
and returns a :class:`~kschedlearn.simulation.questions.Question` whose answer was read from
that run's trace, snapshots or API server — nothing here knows an answer in advance. The
seed's ``random.Random`` picks *which* moment, node or replica is asked about.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import attrs

from kschedlearn.curriculum.mastery_scenario import Roles
from kschedlearn.simulation.questions import (LOC_BACKOFF, LOCATIONS, STARTUP_STAGES, Question, QuestionError,
                                              _choices, _ev, _pod_events, pod_location)
from kschedlearn.simulation.simulation import Simulation
from kschedlearn.trace import TraceEvent


@attrs.frozen
class Asked:
    """One mastery question: its topic, the objectives it checks and the question itself."""

    topic: str
    objectives: tuple[str, ...]
    question: Question
    run: str
    """Which of the seed's runs it is about: ``"journey"`` or ``"failover"``."""


def _first(sim: Simulation, stage: str, pod: str | None = None, after: int = -1) -> TraceEvent:
    for e in sim.trace:
        if e.seq > after and e.stage == stage and (pod is None or e.data.get("pod") == pod):
            return e
    raise QuestionError(f"{sim.scenario.name}: no {stage!r} event" + (f" for {pod}" if pod else ""))


def _q(prompt: str, choices: tuple[str, ...], truth: str, why: str, event: int | None, sim: Simulation) -> Question:
    return Question(prompt, choices, truth, why, event, sim.scenario.name, sim.seed)


def startup_order(sim: Simulation, roles: Roles, rng: random.Random) -> Question:
    """Start-up: which stage of the chain comes right after this one?"""
    events = [e for e in sim.trace if e.stage in STARTUP_STAGES and e.process == "scheduler-0"]
    k = rng.randrange(len(events) - 1)
    now, nxt = events[k], events[k + 1]
    pool = sorted({e.stage for e in events} - {now.stage})
    return _q(f"Start-up of `scheduler-0`: `{now.stage}` has just run ({now.message}). Which stage of the "
              f"start-up chain comes next?", _choices(nxt.stage, pool, rng), nxt.stage,
              f"{_ev(nxt)}: {nxt.message}. {nxt.why}", nxt.seq, sim)


def queue_holds(sim: Simulation, roles: Roles, rng: random.Random) -> Question:
    """Which queue or cache holds the followed pod right after one of its events?"""
    key = roles.follow
    events = _pod_events(sim, key)
    moves = [e for e, n in zip(events, events[1:])
             if pod_location(sim, e.seq, key) != pod_location(sim, n.seq, key)]
    e = rng.choice(moves[1:] or moves)
    truth = pod_location(sim, e.seq, key)
    return _q(f"`{key}`: {_ev(e)} has just happened — {e.message}. Where is the pod right after it?",
              _choices(truth, LOCATIONS, rng, order=LOCATIONS), truth,
              f"{e.why} The snapshot after {_ev(e)} shows the pod {truth}.", e.seq, sim)


def winner(sim: Simulation, roles: Roles, rng: random.Random) -> Question:
    """Which node does selectHost pick for the followed pod?"""
    pick = _first(sim, "selectHost", roles.follow)
    totals = ", ".join(f"{h} {t}" for h, t in pick.data["ranked"])
    ties = int(pick.data.get("ties", 1))
    tie = (f" {ties} nodes share the top total: the round-robin counter picks among them." if ties > 1 else "")
    bound = sorted(p.metadata.name for p in sim.scenario.objects if type(p).kind == "Pod")
    return _q(f"`{roles.follow}` arrives; the nodes are {', '.join(roles.nodes)} (`{bound[0]}` already runs on "
              f"one of them). Which node does selectHost pick?", tuple(roles.nodes), pick.data["host"],
              f"At {_ev(pick)} the totals (score × weight over every priority) were: {totals}.{tie}", pick.seq, sim)


SAME = "no single priority: the totals tie and round robin decides"


def why_winner(sim: Simulation, roles: Roles, rng: random.Random) -> Question:
    """Which priority gives the winner its lead over the runner-up?"""
    d = next(x for x in reversed(sim.decision(roles.follow)) if x.host)
    ranked = list(d.ranked)
    host = d.host
    if len(ranked) < 2 or ranked[0][1] == ranked[1][1]:
        truth, why = SAME, f"The top totals are equal ({ranked[:2]}), so selectHost's round robin chose {host}."
        runner = ranked[1][0] if len(ranked) > 1 else host
    else:
        runner = ranked[1][0]
        col = {n: j for j, n in enumerate(d.scored_nodes)}
        gains = {name: (row[col[host]] - row[col[runner]]) * w for name, row, w in zip(d.names, d.scores, d.weights)}
        truth = max(gains, key=lambda n: (gains[n], n))
        shown = ", ".join(f"{n} {g:+d}" for n, g in gains.items() if g)
        why = (f"Weighted score differences between {host} and {runner}: {shown}. The largest is {truth}'s.")
    choices = _choices(truth, [*d.names, SAME], rng, n=5)
    return _q(f"selectHost picks `{host}` for `{roles.follow}`, ahead of `{runner}`. Which priority gives it the "
              f"largest part of its lead?", choices, truth, why, None, sim)


def failing_predicate(sim: Simulation, roles: Roles, rng: random.Random) -> Question:
    """Why does a node fail the pod that asks for ``disk: ssd``?"""
    e = _first(sim, "schedule.predicates", roles.ssd_pod)
    failed = dict(e.data.get("failed", {}))
    node = rng.choice(sorted(failed))
    truth = " + ".join(failed[node])
    pool = ["Insufficient cpu", "Insufficient memory", "PodFitsHostPorts", "PodToleratesNodeTaints",
            "NodeUnderMemoryPressure", "CheckNodeLabelPresence", truth]
    return _q(f"`{roles.ssd_pod}` has `nodeSelector: {{disk: ssd}}`; only `{roles.ssd_node}` has that label. "
              f"Which failure reason does 1.6 report for node `{node}`?", _choices(truth, pool, rng), truth,
              f"At {_ev(e)} the predicates kept {', '.join(e.data.get('filtered', []))}; `{node}` reported "
              f"{truth}.", e.seq, sim)


def fit_error_text(sim: Simulation, roles: Roles, rng: random.Random) -> Question:
    """The FitError quirk: which text does the FailedScheduling event carry?"""
    name = roles.big_pod.split("/")[1]
    events = [ev for ev in sim.world.api.storage.items("events")
              if ev.involved_object.name == name and ev.reason == "FailedScheduling"]
    if not events:
        raise QuestionError(f"{sim.scenario.name}: no FailedScheduling event for {roles.big_pod}")
    truth = events[0].message
    variants = {truth.replace("::", ":"), truth.replace(":: ", ": "), truth.rstrip(".") + "",
                truth.replace("predicates:: ", "predicates: ").replace(" (", " on ")}
    variants.discard(truth)
    choices = _choices(truth, sorted(variants), rng, n=3)
    return _q(f"`{roles.big_pod}` fits on no node. 1.6's FitError message has a quirk; which text does its "
              f"FailedScheduling event carry?", choices, truth,
              f"The API server stores the event with exactly this message ({events[0].count} times by the end). "
              "1.6 builds it as a prefix ending in a colon plus a format string with another \": \" — "
              "hence the double colon.", None, sim)


def backoff(sim: Simulation, roles: Roles, rng: random.Random) -> Question:
    """How long does the big pod back off after its k-th failure?"""
    waits = [e for e in _pod_events(sim, roles.big_pod) if e.stage == "error.backoff" and not e.data.get("in_flight")]
    k = rng.randrange(min(len(waits), 4))
    e = waits[k]
    truth = f"{e.data['backoff']:g} s"
    nth = {0: "1st", 1: "2nd", 2: "3rd"}.get(k, f"{k + 1}th")
    return _q(f"`{roles.big_pod}` fails to schedule; this is the {nth} failure that starts a back-off "
              f"(t={e.time:g}s). How long does it wait before going back into podQueue?",
              _choices(truth, [f"{s:g} s" for s in (0.5, 1, 2, 4, 8, 16, 30, 60)], rng), truth,
              f"{_ev(e)}: {e.message}. The per-pod back-off starts at 1 s and doubles up to 60 s.", e.seq, sim)


def bound_after_node(sim: Simulation, roles: Roles, rng: random.Random) -> Question:
    """A bigger node joins: when is the big pod bound?"""
    joined = next(a.at for a in sim.scenario.timeline if a.kind == "create" and a.arg.metadata.name == roles.big_node)
    bind = _first(sim, "apiserver.bind", roles.big_pod)
    retries = [e.time for e in _pod_events(sim, roles.big_pod) if e.stage == "error.requeue"]
    truth = f"t={bind.time:g}s"
    pool = [f"t={t:g}s" for t in {joined, joined + 1, *retries, bind.time + 16}]
    return _q(f"`{roles.big_pod}` fits nowhere and backs off; at t={joined:g}s a big node `{roles.big_node}` joins. "
              f"When is the pod bound?", _choices(truth, pool, rng), truth,
              f"1.6 does not re-queue a waiting pod when a node is added: the pod stays out of podQueue until its "
              f"back-off ends. Retries happened at {', '.join(f'{t:g}' for t in retries)} s; {_ev(bind)} bound it.",
              bind.seq, sim)


REQUEUE_BACKOFF = "the back-off timer ending (error.requeue)"
REQUEUE_WATCH = "its own status update (PodScheduled=False) arriving through the unassigned-pod watch"
REQUEUE_OPTIONS = (REQUEUE_BACKOFF, REQUEUE_WATCH, "a resync of the pod informer",
                   "nothing: a pod whose binding failed stays pending")


def bind_failure_requeue(sim: Simulation, roles: Roles, rng: random.Random) -> Question:
    """After a refused binding, what puts the pod back into podQueue first?"""
    forget = _first(sim, "forgetPod", roles.bind_fails)
    back = next((e for e in sim.trace if e.seq > forget.seq and e.stage in ("fifo.add", "fifo.update", "error.requeue")
                 and roles.bind_fails in (e.data.get("pod"), e.data.get("key"))), None)
    if back is None:
        truth = REQUEUE_OPTIONS[3]
    else:
        truth = REQUEUE_BACKOFF if back.stage == "error.requeue" else REQUEUE_WATCH
    return _q(f"The API server refuses `{roles.bind_fails}`'s binding; scheduleOne forgets the assumed pod and "
              f"hands it to the error function. What puts it back into podQueue first?", REQUEUE_OPTIONS, truth,
              f"After {_ev(forget)} the next podQueue event for the pod is "
              + (f"{_ev(back)}: {back.message}." if back else "none.")
              + " The condition update is a MODIFIED pod, which the unassigned watch delivers at once; the "
                "back-off would only re-queue it a second later.", back.seq if back else forget.seq, sim)


def expiry_time(sim: Simulation, roles: Roles, rng: random.Random) -> Question:
    """When does cleanupAssumedPods expire the pod whose confirmation is stalled?"""
    done = _first(sim, "finishBinding", roles.expires)
    exp = _first(sim, "expirePod", roles.expires)
    truth = f"t={exp.time:g}s"
    pool = [f"t={t:g}s" for t in (done.time + 1, done.time + 15, done.time + 29, done.time + 30, done.time + 31,
                                  done.time + 60)]
    return _q(f"`{roles.expires}`'s binding finishes at t={done.time:g}s, but every pod watch is stalled, so no "
              f"confirmation arrives. When does cleanupAssumedPods expire the assumed pod?",
              _choices(truth, pool, rng), truth,
              f"FinishBinding set a deadline of t={done.time:g}s + 30 s; cleanupAssumedPods runs every second and "
              f"expires a pod when now is after its deadline: {_ev(exp)}.", exp.seq, sim)


LATE_CONFIRMED = "the pod, confirmed (added back)"
LATE_ASSUMED = "the pod, assumed again"
LATE_NOTHING = "nothing: an expired pod is never added back"
LATE_CRASH = "the scheduler crashes: the pod is unknown to the cache"


def after_late_add(sim: Simulation, roles: Roles, rng: random.Random) -> Question:
    """The stalled watch catches up after the expiry: what does the cache hold for the pod?"""
    exp = _first(sim, "expirePod", roles.expires)
    add = _first(sim, "cache.addPod", roles.expires, after=exp.seq)
    loc = pod_location(sim, add.seq, roles.expires)
    truth = {"scheduler cache: confirmed (added by the assigned-pod informer)": LATE_CONFIRMED}.get(loc, loc)
    choices = (LATE_CONFIRMED, LATE_ASSUMED, LATE_NOTHING, LATE_CRASH)
    if truth not in choices:
        choices = (*choices[:3], truth)
    return _q(f"`{roles.expires}` expired from the cache at t={exp.time:g}s. Later the stalled watch delivers "
              f"its ADDED. What does the scheduler cache hold for it then?", choices, truth,
              f"{_ev(add)}: {add.message}. {add.why}", add.seq, sim)


def unassigned_sees(sim: Simulation, roles: Roles, rng: random.Random) -> Question:
    """When the pod is bound, what does the unassigned-pod watch deliver for it?"""
    bind = _first(sim, "apiserver.bind", roles.follow)
    seen = next((e for e in sim.trace if e.seq > bind.seq and e.stage == "reflector.watch_event"
                 and e.data.get("key") == roles.follow and "unassigned" in str(e.data.get("name"))), None)
    truth = f"{seen.data['type']}" if seen else "nothing"
    return _q(f"`{roles.follow}` is bound to a node. What does the *unassigned*-pod reflector's watch deliver "
              "for it next?", ("ADDED", "MODIFIED", "DELETED", "nothing"), truth,
              "The watch's field selector is `spec.nodeName==`: a pod that stops matching it is delivered as "
              f"DELETED. " + (f"{_ev(seen)}: {seen.message}." if seen else ""), seen.seq if seen else bind.seq, sim)


NOBODY = "nobody: no replica holds the lock"


def leader_after_kill(sim: Simulation, killed: str, rng: random.Random) -> Question:
    """Which replica does the lock record name as leader at a time after the kill?"""
    kill = next(e for e in sim.trace if e.stage == "workload" and e.data.get("action") == "kill")
    end = max(e.time for e in sim.trace)
    t = round(rng.uniform(kill.time + 1, end - 1), 1)
    at = [e for e in sim.trace if e.time <= t and e.snapshot is not None and e.snapshot.leader is not None][-1]
    truth = at.snapshot.leader.holder or NOBODY
    replicas = tuple(s.name for s in sim.scenario.schedulers)
    acquired = "; ".join(f"{e.process} at t={e.time:g}s" for e in sim.trace
                         if e.stage == "leaderelection.acquire" and "successfully" in e.message)
    return _q(f"Replicas {', '.join(replicas)} run with leader election; `{killed}` is killed at t={kill.time:g}s. "
              f"Which replica does the lock record name as leader at t={t:g}s?", (*replicas, NOBODY), truth,
              f"Acquisitions: {acquired}. A killed leader cannot release the lock: the record keeps its name until "
              f"another replica finds the 15 s lease expired at one of its 2 s (jittered) retries. At t={t:g}s the "
              f"record names {truth}.", at.seq, sim)


def binder_after_kill(sim: Simulation, killed: str, rng: random.Random) -> Question:
    """Which replica binds a pod created after the kill, and is it at once?"""
    kill = next(e for e in sim.trace if e.stage == "workload" and e.data.get("action") == "kill")
    created = [e for e in sim.trace if e.stage == "workload" and e.time > kill.time and e.data.get("action") == "create"]
    e = rng.choice(created)
    key = next(p for p in (e.data.get("pod"), e.message.split()[-1]) if isinstance(p, str) and "/" in p)
    bind = _first(sim, "apiserver.bind", key)
    truth = f"{bind.process}, at t={round(bind.time, 1):g}s"
    replicas = [s.name for s in sim.scenario.schedulers]
    pool = [f"{r}, at t={round(t, 1):g}s" for r in replicas for t in (e.time, bind.time)]
    return _q(f"`{killed}` was killed at t={kill.time:g}s. `{key}` is created at t={e.time:g}s. Which replica binds "
              "it, and when?", _choices(truth, pool, rng), truth,
              f"{_ev(bind)}: {bind.message}. Only the lock holder runs scheduleOne; the pod waits in the API "
              "server until a follower takes the lock over.", bind.seq, sim)


JOURNEY: tuple[tuple[str, tuple[str, ...], Callable[[Simulation, Roles, random.Random], Question]], ...] = (
    ("start-up order", ("01.1",), startup_order),
    ("which queue holds the pod", ("00.2",), queue_holds),
    ("which node wins", ("07.3",), winner),
    ("why that node wins", ("07.1",), why_winner),
    ("why a node is rejected", ("06.1",), failing_predicate),
    ("what a quirk does", ("11.1",), fit_error_text),
    ("back-off times", ("08.2",), backoff),
    ("when a waiting pod is retried", ("08.2",), bound_after_node),
    ("a refused binding", ("08b.1",), bind_failure_requeue),
    ("expiry of an assumed pod", ("05.2",), expiry_time),
    ("cache state after expiry", ("05.2",), after_late_add),
    ("the two pod watches", ("02.3",), unassigned_sees),
)
"""(topic, objective keys, builder) for the journey run, in the order they are asked."""

FAILOVER: tuple[tuple[str, tuple[str, ...], Callable[[Simulation, str, random.Random], Question]], ...] = (
    ("leader after a kill", ("09.2",), leader_after_kill),
    ("who schedules after a kill", ("09.3",), binder_after_kill),
)


__all__ = ["Asked", "FAILOVER", "JOURNEY"]
