# %% [markdown]
# # 12 · Beyond the happy path
#
# Six things a kube-scheduler 1.6 operator runs into sooner or later, each a bundled scenario:
#
# 1. **several schedulers** side by side (`--scheduler-name`);
# 2. the **node-condition filter** that runs before any predicate;
# 3. **why assume?** — the same burst with the cache's assume step switched off;
# 4. a pod **deleted while its binding is in flight**;
# 5. an **HTTP extender** filtering and scoring;
# 6. 1.6's **unfenced leader election**: two leaders at once, and what saves the day.
#
# Each section runs its scenario, draws it, and asks you to predict something before the
# simulator answers. The predictions are checked by running the simulation — "New question"
# re-rolls the seed and asks about another pod, node or moment.

# %%
from kschedlearn import Simulation
from kschedlearn.simulation import questions_topics as topics
from kschedlearn.widgets.predict import PredictCell


def timeline(sim, stages, processes=None):
    """Print the events of the given stages (up to the cursor) as a small table."""
    for e in sim.trace[: sim.cursor + 1]:
        if e.stage in stages and (processes is None or e.process in processes):
            print(f"t={e.time:<7g} {e.process:18} {e.stage:22} {e.message}")

# %% [markdown]
# ## 1. Several schedulers
#
# A cluster can run more than one scheduler. Each has a name (`--scheduler-name`, default
# `default-scheduler`), and a pod chooses one with `spec.schedulerName` (the API server fills in
# `default-scheduler` when it is empty). In 1.6 every scheduler still watches *every*
# unassigned pod and queues it; only when `getNextPod` pops a pod does it check
# `responsibleForPod` — `schedulerName` equal to its own name — and silently drop the others
# ([factory.go#L457-L469](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/factory/factory.go#L457-L469)).
#
# The scenario runs `default-scheduler` and a second replica started with
# `--scheduler-name=my-scheduler`. Three pods arrive: `web-1` (no scheduler named),
# `custom-1` (`my-scheduler`) and `orphan-1` (`nobody-scheduler`, which is not running).

# %%
sim = Simulation.from_scenario("several-schedulers", seed=1)
sim.run_until("apiserver.bind", pod="default/custom-1")
timeline(sim, {"fifo.add", "schedule.start", "apiserver.bind"})

# %% [markdown]
# Both podQueues received `custom-1`, but only `my-scheduler` ever started scheduling it. The
# pipeline view follows the first replica, `default-scheduler`: its cache learns of `custom-1`
# through the assigned-pod informer like any pod bound by someone else.

# %%
sim.run_until("cache.addPod", pod="default/custom-1")
sim.show("pipeline")

# %% tags=["predict"]
PredictCell(topics.scheduler_name_question, seed=2)

# %% [markdown]
# `orphan-1` stays Pending and no event says why: no running scheduler is responsible for it.
# (With leader election on, a second, differently named scheduler would not run side by side:
# 1.6's lock is always `kube-system/kube-scheduler`, whatever the scheduler's name — so the
# scenario runs both with `--leader-elect=false`.)

# %%
sim.run_until(lambda e: False)
print({p.metadata.name: p.spec.node_name or "(Pending)" for p in sim.world.api.storage.items("pods")})

# %% [markdown]
# ## 2. The node-condition filter
#
# Before any predicate runs, the scheduler's node lister has already dropped the nodes that
# cannot take pods at all: `getNodeConditionPredicate`
# ([factory.go#L471-L497](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/factory/factory.go#L471-L497))
# drops a node whose `Ready` condition is anything but `True`, whose `OutOfDisk` or
# `NetworkUnavailable` condition is anything but `False` (`Unknown` counts), or that is
# `spec.unschedulable` (cordoned). A condition that is not reported at all is not checked.
# Dropped nodes never appear in a predicate table, and a FailedScheduling message never
# mentions them — only a V(4) log line does. (Memory and disk *pressure* are different:
# they are predicates, `CheckNodeMemoryPressure` / `CheckNodeDiskPressure`.)

# %%
sim = Simulation.from_scenario("node-conditions", seed=1)
for node in sim.scenario.objects:
    conds = ", ".join(f"{c.type}={c.status}" for c in node.status.conditions)
    print(f"{node.metadata.name:11} {conds}{'  unschedulable' if node.spec.unschedulable else ''}")

# %% tags=["predict"]
PredictCell(topics.node_condition_question, seed=4)

# %%
sim.run_until("selectHost", pod="default/web-1")
print(sorted({e.message for e in sim.trace if e.stage == "log" and e.message.startswith("Ignoring node")}))
sim.show("decision")

# %% [markdown]
# One row: `ready-1`. At t=5s `ready-1` is cordoned, then `web-2` arrives. With no node listed,
# `Schedule` does not even run the predicates: it returns `ErrNoNodesAvailable`, "no nodes
# available to schedule pods", and the pod backs off until `ready-1` is uncordoned.

# %%
sim.run_until(lambda e: False)
print([e.message for e in sim.world.api.storage.items("events") if e.involved_object.name == "web-2"])

# %% [markdown]
# ## 3. Why assume?
#
# `scheduleOne` does not wait for the binding: it *assumes* the pod into the scheduler cache
# (the cache counts its resources on the chosen node at once) and binds in a goroutine
# (lines 177-190 of [scheduler.go scheduleOne](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/scheduler.go#L148-L225)).
# What if it did not assume? Kubernetes has no switch for that; kschedlearn has one for this
# experiment only — `Simulation.from_scenario(..., assume=False)` (or `assume: false` in a
# scenario file). It is bolted on from outside (`kschedlearn/simulation/no_assume.py` replaces
# the cache's `assume_pod` with a no-op); the mirrored `scheduler.py` is untouched.
#
# The burst: two nodes of 1 CPU, four pods of 600m each at the same instant, and an API server
# that takes 200 ms per binding. Only one such pod fits on a node.

# %% tags=["predict"]
PredictCell(topics.assume_question, seed=1)

# %%
on = Simulation.from_scenario("why-assume", seed=1)
on.run_until(lambda e: False)
print("assume on ", {p.metadata.name: p.spec.node_name or "(Pending)" for p in on.world.api.storage.items("pods")})

# %% [markdown]
# Now the same burst with assume switched off:

# %% tags=["predict"]
PredictCell(topics.assume_question, seed=2)

# %%
off = Simulation.from_scenario("why-assume", seed=1, assume=False)
off.run_until(lambda e: False)
print("assume off", {p.metadata.name: p.spec.node_name or "(Pending)" for p in off.world.api.storage.items("pods")})

# %% [markdown]
# With assume off, all four pods are bound — two 600m pods on each 1-CPU node. Look at the
# cache of that run right after the fourth pod was chosen: the nodes still look empty, because
# the cache only learns of a pod when the assigned-pod informer delivers it after its binding.

# %%
off = Simulation.from_scenario("why-assume", seed=1, assume=False)
off.run_until("assume.skipped", pod="default/burst-4")
off.show("cache")

# %% [markdown]
# ## 4. A pod deleted while its binding is in flight
#
# The binding goroutine POSTs the Binding; meanwhile someone deletes the pod. A pod without a
# node is deleted immediately (no grace period), so when the API server serves the binding the
# pod is gone. The goroutine takes its failure path
# (lines 190-224 of [scheduler.go scheduleOne](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/scheduler.go#L148-L225)):
# `ForgetPod`, the error function, a FailedScheduling event — and the error function's
# re-read of the pod decides what happens next
# ([factory.go MakeDefaultErrorFunc](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/factory/factory.go#L514-L558)).

# %%
sim = Simulation.from_scenario("deleted-while-binding", seed=1)
sim.run_until("bind", pod="default/web-1")
sim.show("pipeline")

# %% tags=["predict"]
PredictCell(topics.deleted_in_flight_question, seed=1)

# %% tags=["predict"]
PredictCell(topics.deleted_in_flight_question, seed=2)

# %%
sim.run_until(lambda e: False)
timeline(sim, {"bind", "apiserver.delete", "fifo.delete", "forgetPod", "error.backoff"})
print([e.message for e in sim.trace if e.stage == "log" and "no longer exists" in e.message])

# %% [markdown]
# Nothing is left behind: no pod, no assumed pod in the cache, nothing in podQueue. (Had the
# pod *not* been assumed, 1.6's `ForgetPod` would have dereferenced a nil pod state and crashed
# the scheduler — see notebook 11.)

# %%
sim.show("cache")

# %% [markdown]
# ## 5. An HTTP extender
#
# A policy file can name extenders: outside services that the scheduler asks over HTTP
# ([extender.go](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/core/extender.go#L35-L227)).
# After the built-in predicates, `findNodesThatFit` POSTs the surviving nodes to
# `<urlPrefix>/filter`; after the built-in priorities, `PrioritizeNodes` POSTs them to
# `<urlPrefix>/prioritize` and adds **score × the extender's weight** to each node's total.
#
# The scenario's extender is a small one that kschedlearn serves on 127.0.0.1 from this very
# Python process (`kschedlearn/scenarios/example_extender.py`). It decides by node labels: a
# node labelled `extender.kschedlearn.io/reject` is filtered out, and
# `extender.kschedlearn.io/score` is the node's score.

# %%
sim = Simulation.from_scenario("extender", seed=1)
print(dict(sim.scenario.files)["policy.json"])
for node in sim.scenario.objects:
    print(node.metadata.name, {k: v for k, v in node.metadata.labels.items() if "extender" in k})

# %% [markdown]
# `{extender}` in a scenario's files is replaced by that extender's URL
# (`http://127.0.0.1:<port>/scheduler`, the port chosen by the OS) when the policy file is
# written. Before looking at the decision for `web-1`, predict a total:

# %% tags=["predict"]
PredictCell(topics.extender_total_question, seed=2)

# %% [markdown]
# Now run to the decision:

# %%
sim.run_until("selectHost", pod="default/web-1")
sim.show("decision")

# %% [markdown]
# The decision view's total column already includes the extender's points; the
# `Decision` record keeps them apart (`extenders`: node → score × weight):

# %%
d = sim.decision("default/web-1")[-1]
builtin = {n: sum(s[j] * w for s, w in zip(d.scores, d.weights)) for j, n in enumerate(d.scored_nodes)}
for node, total in d.totals:
    print(f"{node}: built-in {builtin[node]} + extender {dict(d.extenders)[node]} = {total}")
print("passed the predicates but filtered by the extender:",
      [v.node for v in d.verdicts if v.fits and v.node not in d.scored_nodes])

# %% [markdown]
# `node-2` passed every built-in predicate but never reaches the priorities: the extender's
# filter dropped it. When the extender leaves *no* node, its `failedNodes` messages join the
# predicates' reasons in the FailedScheduling event (`picky-1` wants a label only `node-2` has):

# %%
sim.run_until(lambda e: False)
print([e.message for e in sim.world.api.storage.items("events") if e.involved_object.name == "picky-1"][0])

# %% [markdown]
# ## 6. Unfenced leader election
#
# Leader election in 1.6 (notebook 09) has no *fencing*: nothing stops an old leader that does
# not know it has lost. The renew loop is `wait.Poll(2s, 10s, tryAcquireOrRenew)` — and Poll
# checks its 10 s deadline only *between* attempts. If one attempt blocks (a slow API server
# holding the lock's Update), the leader keeps scheduling, while the other replica sees the
# record unchanged for the 15 s lease, takes over and starts scheduling too.
#
# The scenario makes the API server hold the next update of the lock for 25 s, starting at t=9s.

# %%
sim = Simulation.from_scenario("unfenced-leader", seed=1)
sim.run_until(lambda e: e.stage == "leaderelection.acquire" and e.process == "scheduler-b"
              and e.data.get("result") == "acquired")
timeline(sim, {"leaderelection.acquire", "leaderelection.renew", "workload"}, {"scheduler-a", "workload"})
print(f"t={sim.time:<7g} {sim.event.process:18} {sim.event.stage:22} {sim.event.message}")
sim.show("leader_election")

# %% tags=["predict"]
PredictCell(topics.leaders_at_question, seed=2)

# %% [markdown]
# Both replicas now pop every new pod, schedule it, and POST a Binding. What keeps a pod from
# being bound twice is not the lock but the API server: the binding registry refuses to bind a
# pod that already has a node — **409 Conflict**, "pod … is already assigned to node"
# ([storage.go BindingREST.setPodHostAndAnnotations and assignPod](https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/registry/core/pod/storage/storage.go#L142-L188)).
# The loser forgets its assumed pod, and its error function finds the pod bound and drops it.

# %% tags=["predict"]
PredictCell(topics.double_bind_question, seed=2)

# %%
sim.run_until(lambda e: False)
timeline(sim, {"apiserver.bind", "forgetPod", "leaderelection.lost", "process.crash"})

# %% [markdown]
# When scheduler-a's Update finally returns — a conflict, the record has moved on — its renew
# deadline has long passed: "failed to renew lease", then `glog.Fatalf("lost master")` ends the
# process. Until then, for the seconds between scheduler-b's takeover and that exit, two
# replicas scheduled the same pods; the API server's conflict check on bindings was the only
# thing between them and a pod bound twice.

# %% [markdown] tags=["recap"]
# ## Recap
#
# * **Several schedulers**: every scheduler queues every unassigned pod; `getNextPod` drops the
#   ones whose `spec.schedulerName` is not its own. A pod naming a scheduler that is not running
#   stays Pending, silently.
# * **Node conditions**: unschedulable, not-Ready, OutOfDisk and NetworkUnavailable nodes are
#   removed by the node lister before any predicate; with none left the error is "no nodes
#   available to schedule pods".
# * **Assume** lets `scheduleOne` move on without waiting for the binding *and* stay correct:
#   without it a burst is scheduled against a cache that lags behind, and nodes are
#   double-booked.
# * **Deleted in flight**: the binding gets 404, `ForgetPod` cleans the cache, the error
#   function's re-read finds the pod gone and does not requeue it.
# * **Extenders** filter after the predicates and add score × weight after the priorities;
#   their `failedNodes` become FailedScheduling reasons.
# * **Unfenced leader election**: a blocked renewal leaves two leaders for seconds; the API
#   server's 409 on the second binding is what keeps every pod bound once.
