"""Checked activities of units 00–04: the tour, the start-up chain, client-go's building blocks.

Go: none — kschedlearn-only (issue 22 item 2: each former "Try this" is a prediction checked
by :func:`kschedlearn.curriculum.activity.ask` or a code task checked by ``check``). Every ``truth``
runs the simulation or the mirrored structure the question is about — the same code the
notebook cell sets up — and explains the answer with what that run recorded; it runs once per
kernel (cached), and only when the learner answers.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import attrs

from kschedlearn.curriculum.activity import (Activity, Truth, function, integer, near, one_of, seconds, stage_list,
                                             stage_name, text)
from kschedlearn.simulation.simulation import Simulation

WEB1 = "default/web-1"


def _sim(name: str = "three-nodes", seed: int = 1) -> Simulation:
    return Simulation.from_scenario(name, seed=seed)


# --- 00: one pod, from creation to its node -------------------------------------------------------


@cache
def _pod_events() -> Truth:
    t = _sim()
    t.run_until("workload")
    stages = []
    e = t.step("pod")
    while e is not None and e.stage != "assume":
        stages.append(e.stage)
        e = t.step("pod")
    stages.append("assume")
    return Truth(len(stages), f"Stepping by pod from the `workload` event: {', '.join(f'`{s}`' for s in stages)}.",
                 where=f"`assume` is event #{e.seq if e else '?'}.")


@cache
def _bigger_node() -> Truth:
    t = _sim()
    t.run_until("Scheduler.Run")
    t.inject.add_node("node-4", cpu="16", memory="32Gi")
    e = t.run_until("selectHost")
    totals = ", ".join(f"{h} {s}" for h, s in e.data["ranked"])
    return Truth(e.data["host"], f"With node-4 (16 CPUs, 32Gi) in the cluster the totals were: {totals}. "
                 "An empty, big node leaves the most room: LeastRequested and BalancedResourceAllocation favour it.",
                 where=f"event #{e.seq}: {e.message}")


# --- 00b: the way back -------------------------------------------------------------------------------


WATCH_EVENTS = ("ADDED", "MODIFIED", "DELETED", "nothing")


@cache
def _unassigned_sees() -> Truth:
    sim = _sim()
    sim.run()
    bind = next(e for e in sim.trace if e.stage == "apiserver.bind" and e.data.get("pod") == WEB1)
    seen = next((e for e in sim.trace if e.seq > bind.seq and e.stage == "reflector.watch_event"
                 and e.data.get("key") == WEB1 and "unassigned" in str(e.data.get("name"))), None)
    if seen is None:
        return Truth("nothing", "The unassigned-pod reflector saw nothing more about web-1 after the bind.")
    return Truth(seen.data["type"], f"{seen.message}: the pod no longer matches the watch's field selector "
                 "`spec.nodeName==`, so the API server tells that watch it is gone.", where=f"event #{seen.seq}")


@cache
def _confirmed_at() -> Truth:
    from kschedlearn.simulation.questions import LOC_CONFIRMED, pod_location

    sim = _sim()
    sim.run()
    for e in sim.trace:
        if e.stage != "log" and WEB1 in (e.data.get("pod"), e.data.get("key")) and \
                pod_location(sim, e.seq, WEB1) == LOC_CONFIRMED:
            return Truth(e.stage, f"The first snapshot in which the cache holds web-1 as *added* (confirmed) is the "
                         f"one after event #{e.seq} — {e.message}.", where=f"`sim.goto({e.seq})` to look.")
    return Truth("", "web-1 was never confirmed in this run.")


@cache
def _three_cpus() -> Truth:
    base = _sim().scenario
    timeline = []
    for a in base.timeline:
        if a.kind == "create" and type(a.arg).kind == "Pod" and a.arg.metadata.name == "web-1":
            c = a.arg.spec.containers[0]
            requests = {**c.resources.requests, "cpu": _quantity("3")}
            c = attrs.evolve(c, resources=attrs.evolve(c.resources, requests=requests))
            a = attrs.evolve(a, arg=attrs.evolve(a.arg, spec=attrs.evolve(a.arg.spec, containers=(c,))))
        timeline.append(a)
    t = Simulation(scenario=attrs.evolve(base, timeline=tuple(timeline)), seed=1)
    e = t.run_until("schedule.predicate_node", node="node-1")
    failed = {name: tuple(reasons) for name, reasons in e.data["predicates"].items() if reasons}
    reasons = frozenset(r for rs in failed.values() for r in rs)
    shown = "; ".join(f"{n}: {', '.join(r)}" for n, r in sorted(failed.items()))
    return Truth(reasons, f"For node-1 (2 CPUs) the predicates that failed, with their reasons: {shown}. (In 1.6 "
                 "the DefaultProvider runs PodFitsResources inside GeneralPredicates.)",
                 shown=" + ".join(sorted(reasons)), where=f"event #{e.seq}: {e.message}")


def _quantity(text: str) -> Any:
    from kschedlearn.api.resource import parse_quantity

    return parse_quantity(text)


# --- 01: the start-up chain ------------------------------------------------------------------------


@cache
def _startup_events() -> Truth:
    t = _sim()
    e, n = t.start(), 0
    while e is not None and e.stage != "workload":
        e, n = t.step("event"), n + 1
    return Truth(n, f"Stepping by event from the first stop, `{t.trace[t.cursor - n].stage}`, the workload's first action (a `workload` event at "
                 f"t={e.time:g}s) comes {n} events later: start-up records every log line, list, watch and "
                 "goroutine start on the way.", where=f"event #{e.seq}")


@cache
def _goroutines_at_factory() -> Truth:
    sim = _sim()
    e = sim.run_until("NewConfigFactory")
    mine = [g.name for g in sim.snapshot.goroutines if g.process == e.process]
    return Truth(len(mine), f"At {e.stage} ({e.process}) the process runs: {', '.join(mine)}. The informers, "
                 "reflectors, the cache's cleanup loop and scheduleOne do not exist yet: they are started later.",
                 where=f"event #{e.seq}")


QPS_CHOICES = ("an error naming the flag and the value", "it starts with the default QPS (50)",
               "it starts with QPS 0")


@cache
def _bad_qps() -> Truth:
    from kschedlearn.cmd.kube_scheduler.app.options.options import new_scheduler_server, parse_args

    server = new_scheduler_server()
    try:
        parse_args(["--kube-api-qps=fast"], server)
    except Exception as err:  # noqa: BLE001 - what the parser says is the answer
        return Truth(QPS_CHOICES[0], f"The flag parser refused it: `{type(err).__name__}: {err}`.")
    qps = server.kube_api_qps
    return Truth(QPS_CHOICES[1] if qps == 50 else QPS_CHOICES[2], f"It was accepted; QPS is {qps}.")


# --- 02: API objects, selectors, indexers, watches ---------------------------------------------------


FIELD_CHOICES = ("an error: field selectors know only = and !=", "it matches spec.nodeName a or b",
                 "it matches nothing")


@cache
def _field_in() -> Truth:
    from kschedlearn.apimachinery import fields

    try:
        sel = fields.parse_selector("spec.nodeName in (a,b)")
    except Exception as err:  # noqa: BLE001 - the parser's refusal is the answer
        return Truth(FIELD_CHOICES[0], f"`fields.parse_selector` raised `{type(err).__name__}: {err}`.")
    hit = sel.matches({"spec.nodeName": "a"})
    return Truth(FIELD_CHOICES[1] if hit else FIELD_CHOICES[2], f"It parsed as `{sel}`.")


def _web_pod(name: str = "web-1", ns: str = "default", app: str = "web", node: str = "") -> Any:
    from kschedlearn.api.v1 import Pod

    return Pod.from_dict({"metadata": {"name": name, "namespace": ns, "labels": {"app": app}},
                          "spec": {"nodeName": node, "containers": [{"name": "web", "image": "nginx:1.11"}]}})


@cache
def _succeeded_watch() -> Truth:
    from kschedlearn.api.v1 import Binding, Node, ObjectMeta, ObjectReference
    from kschedlearn.apimachinery import fields
    from kschedlearn.apiserver import APIServer, new_for_server
    from kschedlearn.sim import Runtime

    rt = Runtime(seed=1)
    client = new_for_server(APIServer(rt))
    client.core_v1().nodes().create(Node.from_dict({"metadata": {"name": "node-3"}}))
    client.core_v1().pods("default").create(_web_pod())
    client.core_v1().pods("default").bind(Binding(metadata=ObjectMeta(name="web-1", namespace="default"),
                                                  target=ObjectReference(kind="Node", name="node-3")))
    assigned = fields.parse_selector("spec.nodeName!=,status.phase!=Succeeded,status.phase!=Failed")
    pods = client.core_v1().pods()
    w = pods.watch(field_selector=assigned, resource_version=pods.list(field_selector=assigned).metadata.resource_version)
    done = client.core_v1().pods("default").get("web-1")
    client.core_v1().pods("default").update_status(attrs.evolve(done, status=attrs.evolve(done.status, phase="Succeeded")))

    def next_event() -> str:
        event, _ok = w.result_chan().recv()
        return str(event.type)

    kind = rt.run_fn(next_event)
    return Truth(kind, f"The assigned watch (`{assigned}`) delivered {kind}: a Succeeded pod no longer matches "
                 "`status.phase!=Succeeded`, so for that watch it is gone — and the informer's handler takes it "
                 "out of the scheduler cache, freeing its resources.")


APP_PODS = (("default", "web-1", "web"), ("default", "web-2", "web"), ("default", "db-0", "db"),
            ("kube-system", "kube-dns", "dns"))


def _by_app(index_func: Any) -> tuple[str, ...]:
    from kschedlearn.client_go.tools.cache import meta_namespace_key_func, new_indexer

    indexer = new_indexer(meta_namespace_key_func, {"app": index_func})
    for ns, name, app in APP_PODS:
        indexer.add(_web_pod(name, ns, app))
    return tuple(sorted(p.metadata.name for p in indexer.by_index("app", "web")))


@cache
def _app_index() -> Truth:
    got = _by_app(lambda obj: [obj.metadata.labels.get("app", "")])
    return Truth(got, f"The mirrored Indexer with an index function returning `[labels['app']]` answers "
                 f"`by_index('app', 'web')` with {', '.join(got)} (the four pods of notebook 02).",
                 shown=", ".join(got))


# --- 03: FIFO and DeltaFIFO -----------------------------------------------------------------------


CLOSED_CHOICES = ("FIFOClosedError", "None", "it keeps waiting", "the last item added")


@cache
def _closed_pop() -> Truth:
    from kschedlearn import sim as gosim
    from kschedlearn.client_go.tools.cache import meta_namespace_key_func, new_fifo, pop
    from kschedlearn.sim import Runtime

    rt = Runtime(seed=1)
    f2 = new_fifo(meta_namespace_key_func)
    rt.go(lambda: (gosim.sleep(1), f2.close()), name="closer")
    try:
        got = rt.run_fn(f2.pop, lambda obj: None)
        outcome = "None" if got is None else "the last item added"
    except Exception as err:  # noqa: BLE001 - what Pop does when closed is the answer
        outcome = type(err).__name__ if type(err).__name__ in CLOSED_CHOICES else f"{type(err).__name__}"
        why = f"The waiting Pop was woken by Close and raised `{type(err).__name__}: {err}` (Go's ErrFIFOClosed). "
    else:
        why = f"The waiting Pop returned {got!r}. "
    helper = rt.run_fn(pop, f2)
    return Truth(outcome, why + f"The helper `cache.Pop(queue)` catches it and returns {helper!r}.")


@cache
def _sync_after_delete() -> Truth:
    from kschedlearn.api.v1 import Pod
    from kschedlearn.client_go.tools.cache import meta_namespace_key_func, new_delta_fifo, new_store
    from kschedlearn.sim import Runtime

    def mk(name: str, rv: str = "1") -> Pod:
        return Pod.from_dict({"metadata": {"name": name, "namespace": "default", "resourceVersion": rv}})

    rt = Runtime(seed=1)
    known = new_store(meta_namespace_key_func)
    known.add(mk("p"))
    d3 = new_delta_fifo(meta_namespace_key_func, None, known)
    d3.delete(mk("p"))
    d3.replace([mk("p", "2")], "2")
    types = tuple(str(d.type) for d in rt.run_fn(d3.pop, lambda d: None))
    return Truth(types, "The mirrored DeltaFIFO handed over " + ", ".join(types) + ". A Sync for a key whose "
                 "newest queued Delta is Deleted is ignored (Go's willObjectBeDeletedLocked): the relist cannot "
                 "bring back an object whose deletion is still waiting to be processed.", shown=", ".join(types))


@cache
def _fifo_events() -> Truth:
    sim = _sim()
    sim.run_until(lambda e: e.time >= 5)
    events = [e for e in sim.trace if e.stage.startswith("fifo.") and e.time < 5]
    return Truth(len(events), "podQueue's events before t=5s: " + ", ".join(f"`{e.stage}` (t={e.time:g})"
                                                                           for e in events) + ".")


# --- 04: reflector, controller, informers ----------------------------------------------------------


REWATCH_CHOICES = ("only the node informer's reflector", "every reflector, pods included", "none: they relist")


@cache
def _node_rewatch() -> Truth:
    t = _sim()
    t.run_until("kubelet.start")
    mark = t.cursor
    t.inject.drop_watch("nodes")
    t.run_until(lambda e: e.time >= 4)
    names = sorted({e.data.get("name", "") for e in t.trace[mark:] if e.stage == "reflector.watch_start"})
    only_nodes = bool(names) and all("Node" in n or "node" in n for n in names)
    truth = REWATCH_CHOICES[0] if only_nodes else (REWATCH_CHOICES[1] if names else REWATCH_CHOICES[2])
    return Truth(truth, f"Reflectors that started a new watch after the drop: {', '.join(names) or 'none'}. "
                 "Dropping a watch makes only that reflector watch again, from the last resourceVersion it saw.")


@cache
def _handler_counts() -> Truth:
    t = _sim()
    t.run_until(lambda e: e.time >= 19)
    counts = {s: sum(e.stage == s for e in t.trace) for s in ("handler.OnAdd", "handler.OnUpdate", "handler.OnDelete")}
    return Truth(counts["handler.OnAdd"], "Over the run: " + ", ".join(f"{k} {v}" for k, v in counts.items())
                 + ". Every informer's initial list delivers one OnAdd per object (the nodes, db-0), then web-1.")


@cache
def _stalled_time() -> Truth:
    t = _sim()
    t.run_until(lambda e: e.time >= 1)
    t.inject.stall_watch(10)
    e = t.run_until("selectHost")
    return Truth(round(e.time, 3), f"web-1 is created at t=2s but its ADDED event is held back with every pod "
                 f"watch; selectHost runs only at t={e.time:g}s, when the stalled events are delivered.",
                 shown=f"t={e.time:g}s", where=f"event #{e.seq}")


ACTIVITIES: tuple[Activity, ...] = (
    Activity("00/pod-events", "`t` is at `three-nodes`'s `workload` event (web-1 is created). How many "
             "`t.step(\"pod\")` calls until the step that lands on `assume`?", "a whole number", _pod_events, integer),
    Activity("00/bigger-node", "A fourth node, `node-4` with 16 CPUs and 32Gi, joins before web-1 arrives. Which "
             "node does selectHost pick for web-1?", "a node name such as \"node-2\"", _bigger_node,
             one_of("node-1", "node-2", "node-3", "node-4")),
    Activity("00b/unassigned-sees", "After web-1 is bound, what does the *unassigned*-pod watch deliver about it?",
             "one of \"ADDED\", \"MODIFIED\", \"DELETED\", \"nothing\"", _unassigned_sees, one_of(*WATCH_EVENTS)),
    Activity("00b/confirmed-at", "At which stage does web-1's state in the scheduler cache turn from *assumed* to "
             "*added* (confirmed)? Rewind and jump (`goto`) to find it.", "a stage name such as \"bind\"",
             _confirmed_at, stage_name),
    Activity("00b/three-cpus", "If web-1 asked for 3 CPUs, which failure reason would 1.6 report for `node-1` "
             "(2 CPUs)? Look at `e.data[\"predicates\"]` of its `schedule.predicate_node` event.",
             "a failure reason such as \"Insufficient memory\"", _three_cpus, text,
             judge=lambda got, want: got in want),
    Activity("01/startup-events", "From `t.start()`, how many `t.step(\"event\")` calls until the `workload` "
             "event (the scenario's first action)?", "a whole number (within 10 % counts as right)",
             _startup_events, integer,
             judge=lambda got, want: abs(got - want) <= max(2, want // 10)),
    Activity("01/goroutines-at-factory", "When `NewConfigFactory` runs, how many goroutines does the scheduler "
             "process have?", "a whole number", _goroutines_at_factory, integer),
    Activity("01/bad-qps", "What does kube-scheduler's flag parser say to `--kube-api-qps=fast`?",
             "one of " + ", ".join(f'"{c}"' for c in QPS_CHOICES), _bad_qps, one_of(*QPS_CHOICES)),
    Activity("02/field-in", "What does `fields.parse_selector(\"spec.nodeName in (a,b)\")` do?",
             "one of " + ", ".join(f'"{c}"' for c in FIELD_CHOICES), _field_in, one_of(*FIELD_CHOICES)),
    Activity("02/succeeded-watch", "A bound pod is marked Succeeded. What does the *assigned*-pod watch deliver?",
             "one of \"ADDED\", \"MODIFIED\", \"DELETED\", \"nothing\"", _succeeded_watch, one_of(*WATCH_EVENTS)),
    Activity("02/app-index", "Write an index function `by_app(obj)` that indexes pods by their `app` label; "
             "`check` runs it in the mirrored Indexer over notebook 02's four pods.", "your function", _app_index,
             function, kind="check", run_answer=_by_app),
    Activity("03/closed-pop", "A goroutine waits in `Pop` on an empty FIFO; another closes the FIFO. What does the "
             "waiting `Pop` get?", "one of " + ", ".join(f'"{c}"' for c in CLOSED_CHOICES), _closed_pop,
             one_of(*CLOSED_CHOICES)),
    Activity("03/sync-after-delete", "DeltaFIFO knows `p`; `delete(p)`, then a relist `replace([p (rv 2)])`. "
             "Which Delta types does the next `Pop` hand over for `p`, in order?",
             "a list such as [\"Added\", \"Updated\"]", _sync_after_delete, stage_list),
    Activity("03/fifo-events", "How many `fifo.*` events does podQueue record in `three-nodes` before t = 5 s?",
             "a whole number", _fifo_events, integer),
    Activity("04/node-rewatch", "Only the *node* watches are dropped. Which reflectors start a new watch?",
             "one of " + ", ".join(f'"{c}"' for c in REWATCH_CHOICES), _node_rewatch, one_of(*REWATCH_CHOICES)),
    Activity("04/handler-counts", "Over the first 19 s of `three-nodes`, how many `handler.OnAdd` calls are there "
             "(every informer counts)?", "a whole number", _handler_counts, integer),
    Activity("04/stalled-time", "Every pod watch stalls for 10 s at t = 1 s. When does selectHost run for web-1 "
             "(created at t = 2 s)?", "a time in seconds", _stalled_time, seconds, judge=near(0.5)),
)

__all__ = ["ACTIVITIES"]
