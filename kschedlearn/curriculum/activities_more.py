"""Checked activities of units 09–14: HA, policies, quirks, scale.

Go: none — kschedlearn-only (issue 22 item 2; the contract of
:mod:`kschedlearn.curriculum.activities_intro`). Each truth runs the mirrored code or a
simulation and explains with what that run recorded. Policy experiments register their
predicates in a *copy* of the plugin registry handed to that one simulation, so an activity
never changes the registry the learner's notebook uses.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import attrs

from kschedlearn.curriculum._objects import pod, replace_kill
from kschedlearn.curriculum.activities_intro import _sim
from kschedlearn.curriculum.activity import Activity, Truth, integer, names, one_of, text
from kschedlearn.simulation.simulation import Simulation

# --- 09: leader election ---------------------------------------------------------------------------


def _binds(sim: Simulation) -> list[tuple[str, str, float]]:
    return [(e.data["pod"], e.data.get("node", ""), round(e.time, 3)) for e in sim.trace if e.stage == "apiserver.bind"]


FOLLOWER_CHOICES = ("nothing changes for the pods", "the pods wait for a new leader", "the pods are bound twice")


@cache
def _kill_follower() -> Truth:
    original = _sim("ha-failover")
    original.run()
    other = Simulation(scenario=replace_kill(original.scenario, "scheduler-b"), seed=1)
    other.run()
    same = _binds(original)[:4] == _binds(other)[:4]
    created = {e.message.split()[-1]: e.time for e in other.trace if e.stage == "workload"
               and e.data.get("action") == "create"}
    late = [b for b in _binds(other) if created.get(b[0], 0) > 20]
    waited = any(t > created[p] + 1 for p, _, t in late)
    twice = len({p for p, _, _ in _binds(other)}) < len(_binds(other))
    truth = FOLLOWER_CHOICES[2] if twice else FOLLOWER_CHOICES[1] if waited else FOLLOWER_CHOICES[0]
    return Truth(truth, f"With scheduler-b killed, the pods after t=20s were bound at "
                 f"{', '.join(f'{p.split(chr(47))[1]} t={t:g}s' for p, _, t in late)} (by the leader, scheduler-a"
                 f"{'' if same else '; the first bindings differ too'}). Killing a follower takes nothing away: "
                 "it held no lock and scheduled nothing.")


TAKEOVER_CHOICES = ("earlier", "later", "at the same time")


def _takeover(seed: int) -> float:
    sim = _sim("ha-failover", seed)
    sim.run()
    return next(e.time for e in sim.trace if e.stage == "leaderelection.acquire" and "successfully" in e.message
                and e.process == "scheduler-b")


@cache
def _seed2_takeover() -> Truth:
    one, two = _takeover(1), _takeover(2)
    truth = TAKEOVER_CHOICES[0] if two < one else TAKEOVER_CHOICES[1] if two > one else TAKEOVER_CHOICES[2]
    return Truth(truth, f"scheduler-b took the lock at t={one:g}s with seed 1 and at t={two:g}s with seed 2. The "
                 "lease runs out at the same moment; what moves is when b's jittered retry (2 s plus up to 120 %) "
                 "first finds it expired.")


# --- 10: policy files -----------------------------------------------------------------------------


def _policy_run(doc: dict[str, Any], register: Any = None) -> Simulation:
    from kschedlearn.scheduler.factory import plugins

    registry = plugins.copy_registry()
    if register is not None:
        register(registry)
    pf = _sim("policy-file").scenario
    sim = Simulation(scenario=attrs.evolve(pf, files=(("policy.json", json.dumps(doc)),)), seed=1, registry=registry)
    sim.run()
    return sim


SILENT_CHOICES = ("yes: False with no reason filters nothing", "no: they stay off the odd nodes")


@cache
def _always_false() -> Truth:
    from kschedlearn.scheduler.factory import plugins

    policy = {"kind": "Policy", "apiVersion": "v1", "predicates": [{"name": "PodFitsResources"}, {"name": "EvenNode"}],
              "priorities": [{"name": "LeastRequestedPriority", "weight": 1}]}
    sim = _policy_run(policy, lambda reg: plugins.register_fit_predicate("EvenNode", lambda p, m, n: (False, []),
                                                                          registry=reg))
    hosts = sorted({node for _, node, _ in _binds(sim)})
    odd = [h for h in hosts if h[-1] not in "02468"]
    return Truth(SILENT_CHOICES[0] if odd else SILENT_CHOICES[1], f"With `EvenNode` answering `False, []` the pods were "
                 f"bound to {', '.join(hosts)}. 1.6's podFitsOnNode decides by whether any *reason* was collected.")


@cache
def _equal_priority() -> Truth:
    sim = _policy_run({"kind": "Policy", "apiVersion": "v1", "predicates": [{"name": "PodFitsResources"}],
                       "priorities": []})
    picks = [e for e in sim.trace if e.stage == "selectHost"]
    hosts = tuple(e.data["host"] for e in picks)
    return Truth(hosts, "Every node scored " + ", ".join(sorted({str(e.data["ranked"][0][1]) for e in picks}))
                 + " (EqualPriority); selectHost's round robin walked the nodes (names descending) in turn: "
                 + ", ".join(hosts) + ".", shown=", ".join(hosts))


# --- 11: quirks ---------------------------------------------------------------------------------------


SPREAD_CHOICES = ("normal scores again (0 to 10)", "still the NaN garbage on every zoned node")


@cache
def _spread_web_2() -> Truth:
    spread = _sim("spread-and-affinity")
    spread.run_until("selectHost", pod="default/web-2")
    d2 = spread.decision("default/web-2")[-1]
    row = dict(zip(d2.scored_nodes, d2.scores[d2.names.index("SelectorSpreadPriority")]))
    normal = all(0 <= v <= 10 for v in row.values())
    return Truth(SPREAD_CHOICES[0] if normal else SPREAD_CHOICES[1], f"web-2's SelectorSpread row: {row}. Once one "
                 "replica exists, the zone counts are no longer 0/0.")


FORGET_CHOICES = ("no crash: the assumed pod is removed", "a nil-pointer crash kills the process")


@cache
def _forget_assumed() -> Truth:
    from kschedlearn import sim as rt_mod
    from kschedlearn.scheduler.schedulercache import cache as schedcache

    runtime = rt_mod.Runtime(seed=1)
    proc = runtime.new_process("kube-scheduler")

    def forget_assumed() -> None:
        c = schedcache.new(30.0, rt_mod.Chan())
        p = pod("was-assumed", nodeName="node-1")
        c.assume_pod(p)
        c.forget_pod(p)

    runtime.go(forget_assumed, process=proc, name="scheduleOne bind")
    runtime.run(until=1)
    crashed = bool(runtime.crashes)
    return Truth(FORGET_CHOICES[1] if crashed else FORGET_CHOICES[0],
                 (f"The process crashed: {runtime.crashes}." if crashed else
                  "ForgetPod found the pod's state, removed it from its NodeInfo and from the assumed set; the "
                  "process is alive. Only a pod the cache never saw trips 1.6's nil dereference."))


# --- 14: scale --------------------------------------------------------------------------------------


@cache
def _costliest_predicate() -> Truth:
    from kschedlearn.scheduler.factory import plugins
    from kschedlearn.simulation import scale

    predicates = set(plugins.default_registry().fit_predicate_map)
    p = scale.profile_stages(scale.make_workload(100, 1000, 20), per_predicate=True)
    stages = [(s, p.per_pod_ms(s)) for s, _ in p.seconds if s in predicates]
    top = max(ms for _, ms in stages)
    # a measurement on a shared machine: every predicate within 20 % of the costliest counts as right
    near_top = frozenset(s for s, ms in stages if ms >= 0.8 * top)
    shown = ", ".join(f"{s} {ms:.3f} ms" for s, ms in sorted(stages, key=lambda s: -s[1]))
    return Truth(near_top, f"Measured now (CPU ms per pod, 100 nodes, 1,000 bound pods): {shown}. (A predicate "
                 "within 20 % of the costliest counts as right: timings on a shared machine wobble.)",
                 shown=" or ".join(sorted(near_top)))


def _matches(workload: Any) -> int:
    from kschedlearn.apimachinery.labels.selector import InternalSelector
    from kschedlearn.simulation import scale

    h = scale.build(workload)
    counts = scale.count_calls(h, h.workload.new[0], [InternalSelector.matches])
    return int(dict(counts[InternalSelector.matches.__qualname__].by_caller).get("calculate_spread_priority", 0))


@cache
def _relabelled() -> Truth:
    from kschedlearn.simulation import scale

    w = scale.make_workload(50, 300, 1)
    before = _matches(w)
    relabelled = tuple(attrs.evolve(p, metadata=attrs.evolve(p.metadata, labels={"app": "other"})) if i % 2 else p
                       for i, p in enumerate(w.bound))
    after = _matches(attrs.evolve(w, bound=relabelled))
    return Truth(after, f"Counted with cProfile: {before:,} Matches calls with every bound pod selected, {after:,} "
                 f"with half of them relabelled. SelectorSpread still visits every pod of the namespace; for a pod "
                 f"the Service no longer selects it tries the next selector (the RC's) too before giving up — the "
                 f"walk costs as much or more, whatever the labels.")


ACTIVITIES: tuple[Activity, ...] = (
    Activity("09/kill-follower", "In `ha-failover`, kill `scheduler-b` (the follower) at t = 20 s instead of the "
             "leader. What happens to the pods created after that?",
             "one of " + ", ".join(f'"{c}"' for c in FOLLOWER_CHOICES), _kill_follower, one_of(*FOLLOWER_CHOICES)),
    Activity("09/seed2-takeover", "Run `ha-failover` with `seed=2`. Does scheduler-b take over earlier or later "
             "than with seed 1?", "one of \"earlier\", \"later\", \"at the same time\"", _seed2_takeover,
             one_of(*TAKEOVER_CHOICES)),
    Activity("10/always-false", "`EvenNode` is registered again but answers `False, []` for every node. With the "
             "policy `PodFitsResources` + `EvenNode`, do pods still land on odd nodes?",
             "one of " + ", ".join(f'"{c}"' for c in SILENT_CHOICES), _always_false, one_of(*SILENT_CHOICES)),
    Activity("10/equal-priority", "A policy with `PodFitsResources` and **no** priorities, on `policy-file`'s "
             "cluster: which hosts do the pods get, in order?", "a list of node names", _equal_priority, names),
    Activity("11/spread-web-2", "`spread-and-affinity`, the second replica `web-2`: what does its SelectorSpread "
             "row look like?", "one of " + ", ".join(f'"{c}"' for c in SPREAD_CHOICES), _spread_web_2,
             one_of(*SPREAD_CHOICES)),
    Activity("11/forget-assumed", "From a goroutine of a scheduler process: assume a pod, then `forget_pod` it. "
             "What happens?", "one of " + ", ".join(f'"{c}"' for c in FORGET_CHOICES), _forget_assumed,
             one_of(*FORGET_CHOICES)),
    Activity("14/costliest-predicate", "Profile each predicate separately (100 nodes, 1,000 bound pods): which "
             "predicate costs the most per pod?", "a predicate name such as \"PodFitsHostPorts\"",
             _costliest_predicate, text, judge=lambda got, want: got in want),
    Activity("14/relabelled", "50 nodes hold 300 bound replicas selected by one Service and one RC; half of them get "
             "the label `app=other` instead (neither selects them any more). How many times does SelectorSpread call "
             "a selector's Matches for the next replica?", "a whole number", _relabelled, integer),
)

__all__ = ["ACTIVITIES"]
