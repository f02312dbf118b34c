# %% [markdown] tags=["objectives"]

# %% [markdown]
# The second half of [beyond the happy path](12-beyond-the-happy-path.ipynb), three more
# scenarios:
#
# 4. a pod **deleted while its binding is in flight**;
# 5. an **HTTP extender** filtering and scoring;
# 6. 1.6's **unfenced leader election**: two leaders at once, and what saves the day.
#
# As before, each section runs its scenario, draws it, and asks you to predict before the
# simulator answers.

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
PredictCell(topics.deleted_in_flight_question, seed=1, activity="12b/deleted-1")

# %% tags=["predict"]
PredictCell(topics.deleted_in_flight_question, seed=2, activity="12b/deleted-2")

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
PredictCell(topics.extender_total_question, seed=2, activity="12b/extender")

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
PredictCell(topics.leaders_at_question, seed=2, activity="12b/leaders-at")

# %% [markdown]
# Both replicas now pop every new pod, schedule it, and POST a Binding. What keeps a pod from
# being bound twice is not the lock but the API server: the binding registry refuses to bind a
# pod that already has a node — **409 Conflict**, "pod … is already assigned to node"
# ([storage.go BindingREST.setPodHostAndAnnotations and assignPod](https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/registry/core/pod/storage/storage.go#L142-L188)).
# The loser forgets its assumed pod, and its error function finds the pod bound and drops it.

# %% tags=["predict"]
PredictCell(topics.double_bind_question, seed=2, activity="12b/double-bind")

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
# * **Deleted in flight**: the binding gets 404, `ForgetPod` cleans the cache, the error
#   function's re-read finds the pod gone and does not requeue it.
# * **Extenders** filter after the predicates and add score × weight after the priorities;
#   their `failedNodes` become FailedScheduling reasons.
# * **Unfenced leader election**: a blocked renewal leaves two leaders for seconds; the API
#   server's 409 on the second binding is what keeps every pod bound once.
