# %% [markdown] tags=["objectives"]

# %% [markdown]
# Things a kube-scheduler 1.6 operator runs into sooner or later, each a bundled scenario. This
# notebook takes three of them; [part 2](12b-deletions-extenders-and-fencing.ipynb) the other three.
#
# 1. **several schedulers** side by side (`--scheduler-name`);
# 2. the **node-condition filter** that runs before any predicate;
# 3. **why assume?** — the same burst with the cache's assume step switched off.
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
PredictCell(topics.scheduler_name_question, seed=2, activity="12/scheduler-name")

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
PredictCell(topics.node_condition_question, seed=4, activity="12/node-condition")

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
PredictCell(topics.assume_question, seed=1, activity="12/assume-1")

# %%
on = Simulation.from_scenario("why-assume", seed=1)
on.run_until(lambda e: False)
print("assume on ", {p.metadata.name: p.spec.node_name or "(Pending)" for p in on.world.api.storage.items("pods")})

# %% [markdown]
# Now the same burst with assume switched off:

# %% tags=["predict"]
PredictCell(topics.assume_question, seed=2, activity="12/assume-2")

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
# * Next: [part 2](12b-deletions-extenders-and-fencing.ipynb) — a pod deleted in flight, an
#   extender, unfenced leader election.
