# %% [markdown]
# # 00 · Start here: one pod's journey through kube-scheduler 1.6
#
# **kschedlearn** runs a faithful Python mirror of the Kubernetes **v1.6.1** scheduler
# (`plugin/pkg/scheduler` and the client-go cache it is built on) on a simulated, deterministic
# runtime. Every interesting step is recorded with a snapshot of all queues and caches, so you
# can pause, step, rewind and *draw* what the scheduler is doing.
#
# This notebook is a guided tour. You will follow **one pod**, `default/web-1`, from the moment
# it is created until the scheduler's cache confirms it is bound to a node. You need to know
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
# the simulator answers (a *predict-then-check* cell; there are more at the end).

# %%
from functools import partial
from kschedlearn.simulation import questions as Q
from kschedlearn.widgets.predict import PredictCell

# %% tags=["predict"]
PredictCell(partial(Q.winner_question, scenario="three-nodes"), seed=1)

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
# `cleanupAssumedPods` will drop it from the cache.
#
# ## The confirmation comes back through the second watch
#
# The API server now has `spec.nodeName = node-3`. The pod stops matching the unassigned
# watch's field selector (`spec.nodeName==`) and starts matching the assigned one
# (`spec.nodeName!=`). So the first watch sees **DELETED** and the second **ADDED**. The
# assigned-pod watch feeds an informer: reflector → **DeltaFIFO** → `processLoop` → handler
# `addPodToCache` → `cache.AddPod`, which turns *Assumed* into *Added*.

# %%
ev = sim.run_until("delta_fifo.add")
log([ev])
sim.show("pipeline")

# %%
ev = sim.run_until("cache.addPod")
log(e for e in sim.trace[ev.seq - 5:ev.seq + 1] if e.stage != "log")
sim.step("event")   # a trace point fires as AddPod starts; one event later its effect is visible
sim.show("pipeline")

# %%
sim.show("pod_states")

# %% [markdown]
# The pod-state machine (Initial → Assumed → Added) of
# [interface.go Cache](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/interface.go#L24-L96)
# shows `web-1` in **Added**: the scheduler's cache now agrees with the API server.
#
# ## The whole journey on one screen
#
# Here is every event that names `web-1`, from creation to confirmation (log lines left out).
# Note the two events after `finishBinding` (picked out below the list): binding made the pod
# *leave* the unassigned watch (DELETED), and the reflector's `podQueue.delete` is a no-op
# because the pod was already popped.

# %%
journey = [e for e in sim.trace[:sim.cursor + 1]
           if e.data.get("pod") == "default/web-1" or e.data.get("key") == "default/web-1"]
log(e for e in journey if e.stage != "log")
finished = next(e for e in journey if e.stage == "finishBinding")
left = [e for e in journey if e.seq > finished.seq and (e.stage == "fifo.delete" or (e.stage == "reflector.watch_event" and "DELETED" in e.message))]
print("after finishBinding, the pod leaves podQueue's feed:"); log(left)

# %% [markdown]
# ## Rewind and jump
#
# Everything is recorded, so going back costs nothing. `back()` moves one stage back,
# `goto(n)` to event number `n` (here the `assume` event we remembered above):

# %%
sim.back()
print(sim)
sim.goto(assumed_at)
print(sim, "→", sim.event.stage)

# %% [markdown]
# ## The explorer
#
# The same controls as buttons, a timeline slider over the recorded history, tabs for each
# view and the narration with a link to the Go source. (In a saved notebook without a kernel the
# widget is not live; the diagrams above are static SVG so GitHub still shows them.)

# %%
sim.explorer()

# %% [markdown]
# ## The curriculum
#
# | # | notebook | what you will see |
# |---|---|---|
# | 00 | start here | this tour |
# | 01 | startup chain | `main` → `app.Run` → `createScheduler` → `NewConfigFactory` → … → `scheduleOne`; HTTP endpoints; flags |
# | 02 | API objects, Store and Indexer | Pods, Nodes, quantities; `Store`, `Indexer`, selectors; the embedded API server's watches |
# | 03 | FIFO and DeltaFIFO | podQueue's FIFO and the informer's DeltaFIFO, operation by operation |
# | 04 | Reflector, Controller, informers | list at RV "0" then watch, relist, processLoop, handlers, tombstones |
# | 05 | the scheduler cache | assume, finishBinding, confirm, expire, forget |
# | 06 | predicates | every 1.6 predicate with its failure reasons |
# | 07 | priorities and selectHost | map/reduce scores, weights, round-robin ties |
# | 08 | scheduleOne, binding, errors, backoff | the error function, 1 s → 60 s backoff, requeue |
# | 09 | leader election and HA | the Endpoints lock, failover |
# | 10 | policy files and custom algorithms | `--policy-config-file`, custom predicates |
# | 11 | 1.6's quirks | the known 1.6 bugs and how later versions changed them |
# | 12 | beyond the happy path | several schedulers, the node-condition filter, why assume, a pod deleted while binding, an extender, unfenced leader election |
# | 13 | kubectl and your own cluster | kubectl against the live simulation; how 1.6 would place a real cluster's pending pods |
# | 14 | [why 1.6 slows down as the cluster grows](14-why-1.6-slows-down-at-scale.ipynb) | live profiles by stage, SelectorSpread's walk over every pod, 1.6's unused equivalence cache, the accelerated engine |

# %% [markdown]
# ## Predict, then check
#
# Answer first, then press **Check**: the simulator runs the scenario and reveals what really
# happens, with the event number to step to (`sim.goto(n)`). **New question** re-rolls the seed
# — another pod, another moment. In a saved notebook without a kernel, open *Reveal the
# simulated answer* under each question.

# %%
from functools import partial
from kschedlearn.simulation import questions as Q, questions_client_go as C
from kschedlearn.widgets.predict import PredictCell

# %% tags=["predict"]
PredictCell(partial(Q.pod_location_question, scenario="three-nodes"), seed=1)

# %% [markdown]
# The same question about a pod whose first binding fails (`bind-failure`):

# %% tags=["predict"]
PredictCell(partial(Q.pod_location_question, scenario="bind-failure"), seed=1)

# %% tags=["predict"]
PredictCell(partial(Q.next_stage_question, scenario="three-nodes"), seed=2)

# %% [markdown]
# ## Try this
#
# Each cell sets the scene; predict the outcome *before* you run the commented line.
#
# **1.** How many events about `web-1` (granularity `"pod"`) lie between its creation and
# `assume`? Write down a number, then step and count:

# %%
t = Simulation.from_scenario("three-nodes", seed=1)
t.run_until("workload")
# e = t.step("pod"); print(e.seq, e.stage, e.message)    # ← run this until e.stage == "assume"

# %% [markdown]
# **2.** Add a fourth, bigger node *before* the pod arrives (`inject.*` forks the history from
# the cursor). Which node will `web-1` get now — and why?

# %%
t = Simulation.from_scenario("three-nodes", seed=1)
t.run_until("Scheduler.Run")
t.inject.add_node("node-4", cpu="16", memory="32Gi")
# print(t.run_until("selectHost").message)               # ← check your prediction

# %% [markdown]
# **3.** Which predicate would reject `node-1` if `web-1` asked for 3 CPUs? Change the pod in a
# copy of the scenario (`attrs.evolve`), then look at `schedule.predicate_node` for `node-1`:
# `e.data["predicates"]` maps each predicate to its failure reasons.

# %%
t = Simulation.from_scenario("three-nodes", seed=1)
# e = t.run_until("schedule.predicate_node", node="node-1"); print(sorted(e.data["predicates"].items()))

# %% [markdown] tags=["recap"]
# ## Recap
#
# - A pod waiting for the scheduler has an empty `spec.nodeName`; the **unassigned-pod watch** puts it into
#   **podQueue** (a FIFO).
# - **scheduleOne** pops it, runs every **predicate** on every node, scores the survivors with the
#   **priorities**, and **selectHost** picks the best total (round-robin among ties).
# - The pod is **assumed** into the scheduler cache *before* the binding is POSTed, so the next pod
#   already sees the resources as used; `FinishBinding` starts a 30 s expiry clock.
# - The bound pod comes back through the **assigned-pod watch** → DeltaFIFO → `processLoop` →
#   `addPodToCache`, which **confirms** the assumed pod.
# - `Simulation` records every event with a snapshot: `step`, `back`, `goto`, `run_until`, `show`.
