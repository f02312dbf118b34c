# %% [markdown] tags=["objectives"]

# %% [markdown]
# How does an object in the API server end up in the scheduler's queues and cache? Three layers
# of client-go, each built on the one before:
#
# | layer | what it does | Go |
# |---|---|---|
# | **Reflector** | *list* everything once, then *watch* for changes; write both into a store (a FIFO, a DeltaFIFO) | [reflector.go ListAndWatch](https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/reflector.go#L232-L328) |
# | **Controller** | runs a reflector into a DeltaFIFO, and a `processLoop` that pops the DeltaFIFO and calls a process function | [controller.go processLoop](https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/controller.go#L136-L158) |
# | **Informer** | a controller whose process function updates an indexer and calls handlers `OnAdd` / `OnUpdate` / `OnDelete` | [controller.go NewIndexerInformer](https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/controller.go#L285-L349) |
# | **Shared informer** | one informer per resource type, shared by several handlers; built by a factory | [shared_informer.go](https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/shared_informer.go#L32-L581) |
#
# The 1.6 scheduler uses all of them: a **bare reflector** feeds podQueue (unassigned pods); an
# **IndexerInformer** feeds the cache with assigned pods; **shared informers** from the factory
# feed nodes (and PVs, PVCs, services, RCs, ReplicaSets, StatefulSets for the listers).

# %%
from kschedlearn import Simulation

def log(events, skip=("log", "cleanupAssumedPods")):
    for e in events:
        if e.stage not in skip and not e.stage.startswith("apiserver"):
            print(f"#{e.seq:<4d} t={e.time:3.0f}s [{e.goroutine[:32]:32s}] {e.stage:22s} {e.message[:80]}")

sim = Simulation.from_scenario("three-nodes", seed=1)

# %% [markdown]
# ## List at resourceVersion "0", then watch
#
# `ListAndWatch` first **lists** with `resourceVersion="0"` (the API server may answer from its
# watch cache), hands the whole list to the store's `Replace`, remembers the list's
# resourceVersion, and then **watches from that version**, so no change between the list and
# the watch is lost. The first list of the scheduler is the unassigned-pod reflector's:

# %%
ev = sim.run_until("reflector.list")
print(ev.message)
print(ev.why)
log(sim.trace[ev.seq - 3: ev.seq + 2])

# %% [markdown]
# Every list-and-watch the scheduler runs, with the number of objects and the resourceVersion
# it continues from:

# %%
sim.run_until("workload")
for e in sim.trace:
    if e.stage == "reflector.list":
        print(f"{e.data['name']:40s} listed {e.data['count']}  at RV {e.data['resource_version']}")

# %% [markdown]
# ## The informer's processLoop and its handlers
#
# The assigned-pod informer (`scheduledPodPopulator`, created in `NewConfigFactory` with
# `NewIndexerInformer`) listed `db-0`, already bound to `node-2`. The list went into the
# DeltaFIFO through `Replace`, which queues a **Sync** delta per listed object; `processLoop`
# popped it; the process function treats `Sync`, `Added` and `Updated` alike — it found no
# `db-0` in its indexer, so it added it there and called the handler's **OnAdd** =
# `addPodToCache` → `cache.AddPod`:

# %%
log(e for e in sim.trace if "db-0" in e.message)

# %% [markdown]
# The node informer is a **shared** informer from the factory. Its handlers are not called by
# `processLoop` directly: `HandleDeltas` *distributes* notifications to a `processorListener`
# per handler, which has two goroutines (`pop` buffers, `run` calls the handler). That is why
# the node `OnAdd`s come from the `processorListener.run` goroutine:

# %%
log(e for e in sim.trace if e.stage == "handler.OnAdd")
print(next(e for e in sim.trace if e.stage == "informerFactory.Start").message)

# %%
sim.show("pipeline")

# %% [markdown]
# **Exercise 4.1** — write the informer's `Process` function and plug it into the assigned-pod informer: [04-1-informer-process](../exercises/04-1-informer-process.ipynb).

# %% [markdown]
# ## A closed watch: re-watch, no relist
#
# Watches do not last forever (the reflector asks for a timeout of 300–599 s; servers and
# proxies close them too). When a watch ends normally the reflector simply **watches again from
# the last resourceVersion it saw** — no new list. `sim.inject.drop_watch()` closes every pod
# watch at once:

# %%
sim.run_until("kubelet.start")
mark = sim.cursor
sim.inject.drop_watch()
sim.run_until(lambda e: e.time >= 4)
log(sim.trace[mark:])

# %% [markdown]
# **Exercise 4.2** — write the Reflector's watch handler: [04-2-reflector-watch](../exercises/04-2-reflector-watch.ipynb).

# %% [markdown]
# Both pod reflectors logged `Watch close` and started a new watch from RV 7; the pod update
# made by the kubelet meanwhile (`web-1` is Running) was delivered on the new watch — nothing
# was lost and nothing was listed again.
#
# ## "too old resource version": relist
#
# The API server keeps only a window of recent changes. If a reflector comes back with a
# resourceVersion that has fallen out of the window, the watch fails with **410 Gone — too old
# resource version**. There is no special case for it in 1.6: the watch just ends with an error,
# `ListAndWatch` returns, and `RunUntil` calls it again **one second later** — a full relist
# (lines 321-326 of [reflector.go ListAndWatch](https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/reflector.go#L232-L328), and
# [RunUntil](https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/reflector.go#L195-L204)).

# %%
sim = Simulation.from_scenario("three-nodes", seed=1)
sim.run_until("kubelet.start")
mark = sim.cursor
sim.inject.expire_watch_window()
sim.inject.drop_watch()
sim.run_until(lambda e: e.time >= 5)
log(sim.trace[mark:])

# %% [markdown]
# Note what the relist does to each consumer:
#
# * **podQueue** (a FIFO) gets `Replace` with the listed unassigned pods — here none;
# * the **assigned-pod informer**'s DeltaFIFO gets a `Sync` delta for every listed pod, and the
#   informer calls **OnUpdate** for each — even though nothing changed (`cache.updatePod`
#   runs for `db-0` and `web-1`).
#
# ## Tombstones: deleted while we were not watching
#
# If an object is deleted while the watch is down and the window has expired, the reflector
# never sees the DELETED event. The relist's `Replace` notices that a known object is missing
# from the list and queues a `Deleted` delta carrying a `DeletedFinalStateUnknown` **tombstone**
# (notebook 03); the informer calls `OnDelete(tombstone)`. Here on the node informer — the
# scheduler's `deleteNodeFromCache` accepts tombstones
# ([factory.go deleteNodeFromCache](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/factory/factory.go#L272-L291)):

# %%
sim = Simulation.from_scenario("three-nodes", seed=1)
sim.run_until("kubelet.start")
mark = sim.cursor
sim.inject.expire_watch_window("nodes")
sim.inject.drop_watch("nodes")
sim.inject.remove_node("node-1")
sim.run_until(lambda e: e.time >= 5)
log(e for e in sim.trace[mark:] if "Node" in e.goroutine or "node" in e.message)

# %%
print([n.name for n in sim.snapshot.cache.nodes])
sim.show("cache")

# %% [markdown]
# `node-1` is gone from the scheduler cache although no watch ever delivered its deletion.

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
PredictCell(partial(Q.pod_location_question, scenario="assume-expiry"), seed=7, activity="04/pod-location")

# %% tags=["predict"]
PredictCell(partial(Q.next_stage_question, scenario="three-nodes"), seed=1, activity="04/next-stage")

# %% [markdown]
# ## Your turn
#
# Write your prediction in place of `None` and run the cell: the simulator answers from its own
# run. Then make the run yourself (`Simulation.from_scenario("three-nodes", seed=1)` and the
# calls named) and look.
#
# **1.** Every pod watch stalls for 10 s at t = 1 s (`t.run_until(lambda e: e.time >= 1)`, then
# `t.inject.stall_watch(10)`), just before `web-1` is created at t = 2 s. When does selectHost
# run for it?

# %% tags=["ask"]
from kschedlearn.curriculum import ask

ask("04/stalled-time", None)

# %% [markdown]
# **2.** Drop only the *node* watches (`t.inject.drop_watch("nodes")` after `kubelet.start`).
# Which reflectors start a new watch — are the pod reflectors affected? (Look for
# `reflector.watch_start` events after the drop.)

# %% tags=["ask"]
ask("04/node-rewatch", None)

# %% [markdown]
# **3.** Over the first 19 s of `three-nodes`, how many `handler.OnAdd` calls are there, all
# informers together? (Count `e.stage == "handler.OnAdd"` in the trace.)

# %% tags=["ask"]
ask("04/handler-counts", None)

# %% [markdown] tags=["recap"]
# ## Recap
#
# - A **Reflector** lists (at resourceVersion "0"), hands the list to its store's `Replace`, then
#   watches from the list's resourceVersion.
# - A closed watch is simply re-watched; "too old resource version" forces a **relist**.
# - An informer's **Controller** pops its DeltaFIFO in `processLoop`, updates its indexer and calls
#   the handlers (`OnAdd`, `OnUpdate`, `OnDelete`) — the scheduler's are the cache's `addPodToCache` & co.
# - Objects deleted while no one watched come back from a relist as **tombstones**.
