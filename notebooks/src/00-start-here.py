# %% [markdown] tags=["objectives"]

# %% [markdown]
# **kschedlearn** runs a faithful Python mirror of the Kubernetes **v1.6.1** scheduler
# (`plugin/pkg/scheduler` and the client-go cache it is built on) on a simulated, deterministic
# runtime. Every interesting step is recorded with a snapshot of all queues and caches, so you
# can pause, step, rewind and *draw* what the scheduler is doing.
#
# This notebook is a guided tour. You will follow **one pod**, `default/web-1`, from the moment
# it is created until it is bound to a node; [part 2](00b-start-here-the-way-back.ipynb) follows it back into the
# scheduler's cache, where it is confirmed. You need to know
# Kubernetes as a user (pods, nodes, `kubectl`); no Go or scheduler code is assumed.
#
# The story follows the article the project grew from ("Kubernetes Scheduler源码分析 — 启动过程与多队列缓存"):
# the scheduler keeps a pod in **several queues and caches** on its way:
#
# 1. a watch on *unassigned* pods puts the new pod into **podQueue** (a FIFO);
# 2. **scheduleOne** pops it, runs the **predicates** (can it run there?) and **priorities**
#    (how good is each node?) and picks a host;
# 3. the pod is **assumed** into the scheduler cache (counted on the node before the API server
#    knows), then **bound** by a POST of a Binding;
# 4. a second watch, on *assigned* pods, delivers the bound pod into an informer's **DeltaFIFO**;
#    its **processLoop** calls the handler **addPodToCache**, which **confirms** the assumed pod;
# 5. meanwhile **cleanupAssumedPods** checks every second for assumed pods that were never
#    confirmed (notebook 05).

# %%
from kschedlearn import Simulation

def log(events):
    """Print trace events one per line: number, virtual time, stage, message."""
    for e in events:
        print(f"{e.seq:4d}  t={e.time:4.1f}s  {e.stage:24s} {e.message}")

# %% [markdown]
# ## Make a simulation
#
# A *scenario* is a small cluster plus a timeline. `three-nodes` has three ready nodes
# (`node-1` with 2 CPUs, `node-2` and `node-3` with 4 CPUs each; `node-2` already runs a
# database pod `db-0` asking for 1 CPU), one scheduler replica, and at **t = 2 s** it creates the pod
# `web-1` asking for 500m CPU and 512Mi memory. The `seed` makes every run byte-identical.

# %%
sim = Simulation.from_scenario("three-nodes", seed=1)
print(sim.scenario.description)

# %% [markdown]
# ## Moving through time
#
# | call | does |
# |---|---|
# | `sim.start()` | runs `main()` until the first stop |
# | `sim.step()` | moves to the next *stage* (other granularities: `"event"`, `"pod"`) |
# | `sim.back()` / `sim.goto(n)` | rewinds / jumps in the recorded history (nothing is re-run) |
# | `sim.run_until("assume")` | runs until an event of that stage (or a predicate `lambda e: ...`) |
# | `sim.show("pipeline")` | draws the current snapshot (views: `pipeline`, `startup`, `cache`, `decision`, `pod_states`, `leader_election`) |
# | `sim.decision("default/web-1")` | the per-node predicate / priority table of each attempt |
# | `sim.explorer()` | the interactive explorer with buttons and a timeline slider |
#
# Each stop is a **trace event**: a number, a virtual time, the goroutine that emitted it, the
# stage name, a message, a link to the Go source (`go_ref`) and a plain-words explanation (`why`).

# %%
ev = sim.start()
print(ev.stage, "—", ev.message)
print(ev.go_ref)
print(ev.why)

# %% [markdown]
# The first stop is the Go `main` function of kube-scheduler
# ([scheduler.go#L30-L43](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/cmd/kube-scheduler/scheduler.go#L30-L43)).
# Start-up is the subject of notebook 01; here we jump straight to the moment the pod enters
# the scheduler. Run until the first `fifo.add` — the unassigned-pod reflector adding
# `web-1` to **podQueue**:

# %%
ev = sim.run_until("fifo.add")
log([ev])
sim.show("pipeline")

# %% [markdown]
# The **pipeline** view is the seed article's multi-queue picture. Top left the API server; the
# *unassigned-pods* reflector (a watch with field selector
# `spec.nodeName==,status.phase!=Succeeded,status.phase!=Failed`,
# [factory.go createUnassignedNonTerminatedPodLW](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/factory/factory.go#L499-L504))
# has just put `default/web-1` into **podQueue**, a plain client-go `FIFO`
# ([fifo.go](https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/fifo.go#L26-L358)).
# What changed since the previous snapshot is highlighted.
#
# ## scheduleOne pops the pod
#
# `Scheduler.Run` started `wait.Until(scheduleOne, 0, stop)`: a goroutine that loops forever.
# Each round calls `NextPod()` = `getNextPod`, which blocks in `podQueue.Pop` until a pod is there
# ([factory.go getNextPod](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/factory/factory.go#L457-L465)).

# %%
ev = sim.step()
log([ev])
ev = sim.step()
log([ev])
sim.show("pipeline")

# %% [markdown]
# podQueue is empty again: the pod now lives only in the `scheduleOne` goroutine's hands.
#
# ## Predicates, priorities, selectHost
#
# `Schedule` ([generic_scheduler.go#L86-L131](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/core/generic_scheduler.go#L86-L131))
# first filters the nodes with every **predicate** of the DefaultProvider (all of them run for
# every node), then scores the survivors with every **priority** (each 0–10, times its weight),
# and `selectHost` takes the highest total (ties broken round-robin).
#
# **Predict before you run it:** which node will `web-1` get? Pick one and press **Check** —
# the simulator answers (a *predict-then-check* cell; what you answer is recorded in your
# progress, `kschedlearn.progress()`).

# %%
from functools import partial
from kschedlearn.simulation import questions as Q
from kschedlearn.widgets.predict import PredictCell

# %% tags=["predict"]
PredictCell(partial(Q.winner_question, scenario="three-nodes"), seed=1, activity="00/winner")

# %%
ev = sim.run_until("selectHost")
log([ev])
d = sim.decision("default/web-1")[-1]
for host, total in d.ranked:
    print(f"{host}: {total}")

# %%
sim.show("decision")

# %% [markdown]
# All three nodes pass every predicate. `NodePreferAvoidPodsPriority` has weight 10000 and gives
# every node 10 here, so it adds the same 100000 to each; the difference comes from
# `LeastRequestedPriority` and `BalancedResourceAllocation`: `node-3` is as big as `node-2`
# but empty, so it wins. (Notebooks 06 and 07 take these tables apart.)
#
# ## Assume, then bind
#
# Before talking to the API server, `scheduleOne` **assumes** the pod: it sets
# `spec.nodeName` on a copy and adds it to the scheduler cache
# ([scheduler.go#L148-L225](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/scheduler.go#L148-L225),
# [cache.go AssumePod](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/cache.go#L109-L128)).
# The next pod already sees `node-3`'s resources as used, without waiting for the slow round
# trip. Then a separate goroutine POSTs the Binding.

# %%
ev = sim.run_until("assume")
assumed_at = ev.seq   # remembered for later (event numbers are computed, never typed in)
log([ev])
print(ev.why)
sim.show("pipeline")

# %%
sim.show("cache")

# %% [markdown]
# In the **cache** view `web-1` is on `node-3`, marked *assumed*. Now the bind goroutine:

# %%
ev = sim.run_until("finishBinding")
log(e for e in sim.trace[assumed_at:ev.seq + 1] if e.stage in ("bind", "apiserver.bind", "finishBinding"))
print(ev.why)

# %% [markdown]
# `FinishBinding` ([cache.go FinishBinding and finishBinding](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/cache.go#L130-L152))
# starts the assumed pod's **30 s** time-to-live: if nothing confirms the pod by t = 32 s,
# `cleanupAssumedPods` will drop it from the cache. How the confirmation arrives is
# [part 2](00b-start-here-the-way-back.ipynb).
# %% [markdown]
# ## Predict, then check
#
# Answer first, then press **Check**: the simulator runs the scenario and reveals what really
# happens, with the event number to step to (`sim.goto(n)`). **New question** re-rolls the seed
# — another pod, another moment. In a saved notebook without a kernel, open *Reveal the
# simulated answer* under each question.

# %% tags=["predict"]
PredictCell(partial(Q.pod_location_question, scenario="three-nodes"), seed=1, activity="00/pod-location")

# %% [markdown]
# The same question about a pod whose first binding fails (`bind-failure`):

# %% tags=["predict"]
PredictCell(partial(Q.pod_location_question, scenario="bind-failure"), seed=1, activity="00/pod-location-bind-failure")

# %% tags=["predict"]
PredictCell(partial(Q.next_stage_question, scenario="three-nodes"), seed=2, activity="00/next-stage")

# %% [markdown]
# ## Your turn
#
# Each cell below asks a question about a run you can make yourself. Write your prediction in
# place of `None` and run the cell: the simulator computes the answer from its own run and tells
# you whether you were right. Then make the run yourself with the calls above — `step`,
# `run_until`, `inject` — and look.
#
# **1.** Start a fresh run at the moment `web-1` is created:
# `t = Simulation.from_scenario("three-nodes", seed=1); t.run_until("workload")`. How many
# `t.step("pod")` calls until the one that lands on `assume`?

# %% tags=["ask"]
from kschedlearn.curriculum import ask

ask("00/pod-events", None)

# %% [markdown]
# **2.** Add a fourth, bigger node *before* the pod arrives — `t.run_until("Scheduler.Run")`,
# then `t.inject.add_node("node-4", cpu="16", memory="32Gi")` (an injection forks the history at
# the cursor). Which node does `web-1` get now, and why?

# %% tags=["ask"]
ask("00/bigger-node", None)

# %% [markdown] tags=["recap"]
# ## Recap
#
# - A pod waiting for the scheduler has an empty `spec.nodeName`; the **unassigned-pod watch** puts it into
#   **podQueue** (a FIFO).
# - **scheduleOne** pops it, runs every **predicate** on every node, scores the survivors with the
#   **priorities**, and **selectHost** picks the best total (round-robin among ties).
# - The pod is **assumed** into the scheduler cache *before* the binding is POSTed, so the next pod
#   already sees the resources as used; `FinishBinding` starts a 30 s expiry clock.
# - `Simulation` records every event with a snapshot: `step`, `back`, `goto`, `run_until`, `show`.
# - Next: [part 2](00b-start-here-the-way-back.ipynb) — the confirmation, time travel, the
#   explorer. The whole path is on the [course map](course-map.ipynb).
