"""Checked activities of units 05–08b: the cache, predicates, priorities, scheduleOne, failures.

Go: none — kschedlearn-only (issue 22 item 2; the contract of
:mod:`kschedlearn.curriculum.activities_intro`). Each truth runs the mirrored code or a
simulation — the setup the notebook shows — and explains with what that run recorded.
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import attrs

from kschedlearn.curriculum._objects import move_action, node, node_info, pod
from kschedlearn.curriculum.activities_intro import WEB1, _sim
from kschedlearn.curriculum.activity import (Activity, Truth, integer, names, near, one_of, reasons_answer, score_list,
                                             seconds)
from kschedlearn.simulation.questions import Question, _choices, _ev
from kschedlearn.simulation.simulation import Simulation

# --- 05: the scheduler cache -------------------------------------------------------------------------


@cache
def _expire_time() -> Truth:
    base = _sim().scenario
    t = Simulation(scenario=attrs.evolve(base, duration=60), seed=1)
    t.run_until("assume")
    t.inject.stall_watch(45)
    done = t.run_until("finishBinding")
    exp = t.run_until("expirePod")
    back = t.run_until("cache.addPod")
    return Truth(round(exp.time, 3), f"FinishBinding at t={done.time:g}s set the deadline 30 s later; the stalled "
                 f"watch held the confirming ADDED back, so cleanupAssumedPods expired web-1 at t={exp.time:g}s "
                 f"(the first tick after the deadline). The late ADDED came at t={back.time:g}s and AddPod put the "
                 "pod back.", shown=f"t={exp.time:g}s", where=f"event #{exp.seq}")


@cache
def _assumed_twice() -> Truth:
    t = _sim()
    t.run_until("Scheduler.Run")
    t.inject.fail_next_bind(2)
    t.run_until(lambda e: e.time >= 15)
    assumes = [e for e in t.trace if e.stage == "assume" and e.data.get("pod") == WEB1]
    where = ", ".join(f"t={e.time:g}s on {e.data.get('node')}" for e in assumes)
    return Truth(len(assumes), f"web-1 was assumed {len(assumes)} times: {where}. Each refused binding is forgotten "
                 "and the pod comes back (the condition update re-queues it at once).")


@cache
def _deadline() -> Truth:
    t = _sim("assume-expiry")
    t.run_until(lambda e: e.time >= 10)
    state = next(ps for ps in t.snapshot.cache.pod_states if ps.key == WEB1)
    return Truth(float(state.deadline), f"At t={t.time:g}s the cache holds web-1 assumed={state.assumed}, "
                 f"binding finished={state.binding_finished}, deadline t={state.deadline:g}s: FinishBinding's time "
                 "plus the 30 s TTL.", shown=f"t={state.deadline:g}s")


# --- 06: predicates by hand ----------------------------------------------------------------------------


def _n1() -> Any:
    return node_info(node("n1", labels={"disk": "hdd"}), pod("already-there", cpu="1500m", mem="1Gi", host_port=80,
                                                             nodeName="n1"))


@cache
def _first_reason() -> Truth:
    from kschedlearn.scheduler.algorithm.predicates import predicates as P

    less_greedy = pod("less-greedy", cpu="500m", nodeSelector={"disk": "hdd"})
    fits, reasons = P.general_predicates(less_greedy, None, _n1())
    got = tuple(r.get_reason() for r in reasons)
    why = ("It fits: 500m on top of 1500m fills n1's 2 CPUs exactly, and the check is a strict `<`."
           if fits else f"GeneralPredicates reported: {', '.join(got)}.")
    return Truth(frozenset(got), why, shown="[" + ", ".join(got) + "]")


@cache
def _crowd50() -> Truth:
    from kschedlearn.scheduler.algorithm.predicates import predicates as P

    crowd = node_info(node("small", cpu="1", mem="1Gi"), *[pod(f"c-{i}", cpu="50m", nodeName="small") for i in range(19)])
    largest = max(m for m in range(0, 1001) if P.pod_fits_resources(pod("next", cpu=f"{m}m"), None, crowd)[0])
    return Truth(largest, f"19 pods × 50m = 950m of the 1000m are requested; PodFitsResources admitted every request "
                 f"up to {largest}m and refused {largest + 1}m.", shown=f"{largest}m")


UDP_CHOICES = ("it fits: the protocol differs", "it does not fit: 1.6 compares only the port number")


@cache
def _udp_port() -> Truth:
    from kschedlearn.scheduler.algorithm.predicates import predicates as P

    udp = pod("udp", cpu="100m", host_port=80, protocol="UDP")
    fits, reasons = P.pod_fits_host_ports(udp, None, _n1())
    return Truth(UDP_CHOICES[0] if fits else UDP_CHOICES[1],
                 "PodFitsHostPorts said " + ("it fits." if fits else
                                             f"no ({', '.join(r.get_reason() for r in reasons)}): in 1.6 the used "
                                             "ports are a set of numbers, so TCP 80 and UDP 80 collide."))


# --- 07: priorities and selectHost ------------------------------------------------------------------


@cache
def _taint_score() -> Truth:
    from kschedlearn.scheduler.algorithm.priorities.taint_toleration import (
        compute_taint_toleration_priority_map, compute_taint_toleration_priority_reduce)

    spot = {"key": "spot", "value": "yes", "effect": "PreferNoSchedule"}
    old = {"key": "old", "value": "yes", "effect": "PreferNoSchedule"}
    ok = {"key": "team", "value": "ml", "effect": "PreferNoSchedule"}
    infos = {name: node_info(node(name, "4", "8Gi", labels, taints)) for name, labels, taints in (
        ("ssd-fast", {"disk": "ssd", "net": "10g"}, []), ("ssd", {"disk": "ssd"}, [spot]),
        ("hdd", {"disk": "hdd"}, [spot, old, ok]))}
    picky = pod("picky", "100m", tolerations=[{"key": "team", "operator": "Equal", "value": "ml",
                                               "effect": "PreferNoSchedule"}])
    result = [compute_taint_toleration_priority_map(picky, None, ni) for ni in infos.values()]
    raw = [hp.score for hp in result]
    compute_taint_toleration_priority_reduce(picky, None, infos, result)
    scores = tuple(hp.score for hp in result)
    return Truth(scores, f"The map counted intolerable PreferNoSchedule taints {raw} (the tolerated `team=ml` is "
                 f"not counted); the reduce turned them into {list(scores)}.", shown=str(list(scores)))


@cache
def _counter_matters() -> Truth:
    from kschedlearn.scenarios.scenario import parse_scenario

    def node_yaml(name: str, cpu: str) -> str:
        return (f"\n  - kind: Node\n    apiVersion: v1\n    metadata: {{name: {name}, labels: {{kubernetes.io/hostname: "
                f"{name}}}}}\n    status:\n      capacity: {{cpu: \"{cpu}\", memory: 256Gi, pods: \"110\"}}\n"
                f"      allocatable: {{cpu: \"{cpu}\", memory: 256Gi, pods: \"110\"}}\n"
                "      conditions: [{type: Ready, status: \"True\"}]")

    def pod_yaml(i: int) -> str:
        return (f"\n  - at: {i}\n    create:\n      kind: Pod\n      apiVersion: v1\n      metadata: {{name: rr-{i}, "
                "namespace: default}\n      spec: {containers: [{name: c, image: pause}]}")

    text_ = ("name: round-robin\nduration: 8\nfollow: default/rr-1\n"
             "schedulers:\n  - name: scheduler-0\n    flags: [\"--leader-elect=false\"]\nobjects:"
             + node_yaml("n-a", "128") + node_yaml("n-b", "64") + node_yaml("n-c", "64")
             + "\ntimeline:" + "".join(pod_yaml(i) for i in range(1, 6)))
    rr = Simulation(scenario=parse_scenario(text_), seed=1)
    rr.run()
    picks = [e for e in rr.trace if e.stage == "selectHost"]
    hosts = tuple(e.data["host"] for e in picks)
    ties = [int(e.data["ties"]) for e in picks]
    detail = "; ".join(f"{e.data['pod'].split('/')[1]} → {e.data['host']} ({e.data['ties']} tied at "
                       f"{e.data['ranked'][0][1]})" for e in picks)
    why = ("Every node still ties at the top: a request-less pod counts 100m / 200Mi, a speck on 64 or 128 CPUs, "
           "so LeastRequested and BalancedResourceAllocation give them all the same integer score — the "
           "round-robin counter still decides." if min(ties) > 1 else
           "One node scores clearly best, so there is no tie for the round-robin counter to break.")
    return Truth(hosts, f"{detail}. {why}", shown=", ".join(hosts))


EMPTY_CHOICES = ("an error: the priority list is empty", "None", "an IndexError crash", "the first node")


@cache
def _empty_select() -> Truth:
    from kschedlearn.scheduler.core.generic_scheduler import new_generic_scheduler

    g = new_generic_scheduler(None, {}, None, [], None, [])
    try:
        got = g._select_host([])
    except IndexError as err:
        return Truth(EMPTY_CHOICES[2], f"It raised IndexError: {err}.")
    except Exception as err:  # noqa: BLE001 - the error the mirror returns is the answer
        return Truth(EMPTY_CHOICES[0], f"It raised `{type(err).__name__}: {err}` — Go's selectHost returns "
                     "an error for an empty list.")
    return Truth(EMPTY_CHOICES[1] if got is None else EMPTY_CHOICES[3], f"It returned {got!r}.")


# --- 08: scheduleOne ---------------------------------------------------------------------------------------


@cache
def _late_node() -> Truth:
    base = Simulation.from_scenario("unschedulable-then-fits", seed=1).scenario
    big = next(a.arg.metadata.name for a in base.timeline if a.kind == "create" and type(a.arg).kind == "Node")
    un = Simulation(scenario=move_action(base, big, 17.0), seed=1)
    un.run()
    bind = next(e for e in un.trace if e.stage == "apiserver.bind")
    requeues = [e.time for e in un.trace if e.stage == "error.requeue"]
    return Truth(round(bind.time, 3), f"The node joins at t=17s; the pod is only retried when a back-off ends "
                 f"(re-queues at {', '.join(f'{t:g}' for t in requeues)} s) — the 16 s back-off from t=16s — so "
                 f"{_ev(bind)} binds it.", shown=f"t={bind.time:g}s")


GOROUTINE_CHOICES = ("the scheduleOne loop itself", "a goroutine started for this one binding",
                     "the API server's goroutine")


@cache
def _bind_goroutine() -> Truth:
    sim = _sim()
    e = sim.run_until("bind")
    loop = next(x for x in sim.trace if x.stage == "scheduleOne.pop")
    truth = (GOROUTINE_CHOICES[1] if e.goroutine != loop.goroutine and e.process == loop.process
             else GOROUTINE_CHOICES[0] if e.goroutine == loop.goroutine else GOROUTINE_CHOICES[2])
    return Truth(truth, f"The `bind` event ran on goroutine `{e.goroutine}`; scheduleOne runs on "
                 f"`{loop.goroutine}` and was already free to pop the next pod.", where=f"event #{e.seq}")


# --- 08b: failed bindings, deletions, the API client ---------------------------------------------------


def _two_conflicts() -> Simulation:
    t2 = _sim()
    t2.run_until("workload")
    t2.inject.fail_next_bind(2, conflict=True)
    t2.run()
    return t2


@cache
def _two_fails() -> Truth:
    t2 = _two_conflicts()
    attempts = [e for e in t2.trace if e.stage == "bind"]
    return Truth(len(attempts), f"Bind attempts for web-1 at t = {', '.join(f'{e.time:g}' for e in attempts)} s: two "
                 "refused (each forgotten and re-queued), then one that the API server stored.")


@cache
def _deleting_pod() -> Truth:
    sk = Simulation.from_scenario("unschedulable-then-fits", seed=1)
    sk.run_until("error.requeue")
    store = sk.world.api.storage
    p = store.get("pods", ("default", "big-1"))
    store.update("pods", ("default", "big-1"), attrs.evolve(
        p, metadata=attrs.evolve(p.metadata, deletion_timestamp=sk.time, deletion_grace_period_seconds=30)))
    mark = sk.time
    sk.run_until(lambda e: e.time > 9)
    attempts = [e.time for e in sk.trace if e.stage == "schedule.start" and e.time > mark]
    skipped = [ev.message for ev in store.items("events") if "skip" in ev.message]
    return Truth(len(attempts), f"Scheduling attempts after the timestamp was set: {attempts or 'none'}. "
                 f"Events: {skipped}. scheduleOne pops the deleting pod, records the Warning and drops it: no "
                 "Schedule, no error function, so no back-off and no re-queue.")


@cache
def _qps() -> Truth:
    burst = Simulation.from_scenario("burst-100-pods", seed=1)
    burst.run()
    binds = [e.time for e in burst.trace if e.stage == "apiserver.bind"]
    first = binds.count(binds[0])
    return Truth(first, f"{first} bindings at t={binds[0]:g}s: the client's bucket holds 100 tokens (burst) and every "
                 "scheduled pod spends two — its Binding POST and its Scheduled event POST. Later binds come "
                 f"{round(binds[first + 1] - binds[first], 3)} s apart (50 requests per second).")


ACTIVITIES: tuple[Activity, ...] = (
    Activity("05/expire-time", "`three-nodes`, lengthened to 60 s: right after `assume`, every pod watch stalls for "
             "45 s. At what time does `cleanupAssumedPods` expire web-1?", "a time in seconds", _expire_time, seconds,
             judge=near(0.5)),
    Activity("05/assumed-twice", "The next two bindings fail. How many times is web-1 assumed (by t = 15 s)?",
             "a whole number", _assumed_twice, integer),
    Activity("05/deadline", "`assume-expiry` at t = 10 s: what is web-1's expiry deadline in the cache?",
             "a time in seconds", _deadline, seconds, judge=near(0.01)),
    Activity("06/first-reason", "`less-greedy` (500m CPU, `nodeSelector: {disk: hdd}`, no host port, no node name) "
             "on `n1`: which failure reasons does GeneralPredicates report?",
             "a list of reasons, [] if it fits", _first_reason, reasons_answer),
    Activity("06/crowd50", "`small` has 1 CPU and runs 19 pods of 50m each. What is the largest CPU request (in "
             "millicores) that still fits?", "a whole number of millicores", _crowd50, integer),
    Activity("06/udp-port", "`n1` runs a pod with TCP hostPort 80. A new pod wants hostPort 80 over **UDP**. Does "
             "it fit?", "one of " + ", ".join(f'"{c}"' for c in UDP_CHOICES), _udp_port, one_of(*UDP_CHOICES)),
    Activity("07/taint-score", "`hdd` gets a third PreferNoSchedule taint, `team=ml`, which `picky` tolerates. "
             "What are the TaintToleration scores of ssd-fast, ssd and hdd after the reduce?",
             "a list of three whole numbers", _taint_score, score_list),
    Activity("07/counter-matters", "In the round-robin scenario `n-a` now has 128 CPUs (the others 64). Where do "
             "rr-1 … rr-5 go?", "a list of five node names", _counter_matters, names),
    Activity("07/empty-select", "What does `g._select_host([])` do?",
             "one of " + ", ".join(f'"{c}"' for c in EMPTY_CHOICES), _empty_select, one_of(*EMPTY_CHOICES)),
    Activity("08/late-node", "In `unschedulable-then-fits` the big node joins at t = 17 s instead of 12 s. When is "
             "big-1 bound?", "a time in seconds", _late_node, seconds, judge=near(0.5)),
    Activity("08/bind-goroutine", "Which goroutine POSTs web-1's Binding (the `bind` event)?",
             "one of " + ", ".join(f'"{c}"' for c in GOROUTINE_CHOICES), _bind_goroutine, one_of(*GOROUTINE_CHOICES)),
    Activity("08b/two-fails", "The next two bindings fail with 409 Conflict. How many bind attempts does web-1 see?",
             "a whole number", _two_fails, integer),
    Activity("08b/deleting-pod", "big-1 gets a deletionTimestamp right after its first back-off. How many more "
             "scheduling attempts (`schedule.start`) follow by t = 9 s?", "a whole number", _deleting_pod, integer),
    Activity("08b/qps", "`burst-100-pods`: 100 pods at once, client QPS 50 / burst 100. How many are bound in the "
             "first instant?", "a whole number", _qps, integer),
)

__all__ = ["ACTIVITIES"]
