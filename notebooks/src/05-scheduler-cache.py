# %% [markdown] tags=["objectives"]

# %% [markdown]
# The scheduler does not wait for the API server to learn where a pod went. Right after picking
# a node it **assumes** the pod into its own cache, so the next pod already sees that node's CPU
# and memory as used. The binding happens in the background. Later the assigned-pod informer
# **confirms** the pod (`AddPod`). If no confirmation ever comes, the assumption **expires**;
# if the binding fails, the scheduler **forgets** it.
#
# Sources: [schedulercache/interface.go Cache](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/interface.go#L24-L96)
# (the state machine), [cache.go](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/cache.go#L30-L386)
# (the operations), [node_info.go](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/node_info.go#L30-L392)
# (per-node accounting).
#
# ```
#            AssumePod              AddPod (confirm)          RemovePod
#   Initial ──────────► Assumed ───────────────────► Added ─────────────► Deleted
#      ▲                  │  │                         ▲
#      └──── ForgetPod ───┘  └─ 30 s after FinishBinding ─► Expired ── AddPod ──┘
# ```

# %%
from kschedlearn import Simulation

def log(events, skip=("cleanupAssumedPods",)):
    for e in events:
        if e.stage not in skip and not e.stage.startswith("apiserver.watch"):
            print(f"#{e.seq:<4d} t={e.time:5.1f}s {e.stage:18s} {e.message[:90]}")

def cache_line(sim):
    c = sim.snapshot.cache
    for n in c.nodes:
        print(f"  {n.name}: {n.requested.milli_cpu}m CPU of {n.allocatable.milli_cpu}m requested")

# %% [markdown]
# ## Assume, FinishBinding, confirm — the normal path (`three-nodes`)

# %%
sim = Simulation.from_scenario("three-nodes", seed=1)
ev = sim.run_until("assume")
print(ev.why)
cache_line(sim)
sim.show("cache")

# %% [markdown]
# `node-3` already counts `web-1`'s 500m CPU, and the pod is marked *assumed*. It has **no
# deadline yet**: the TTL only starts when the binding call returns, in `FinishBinding`
# ([cache.go FinishBinding and finishBinding](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/cache.go#L130-L152)).
# Until then `cleanupAssumedPods` skips the pod ("binding is still in progress").

# %%
ev = sim.run_until("finishBinding")
print(ev.message, "—", ev.why)
ev = sim.run_until("cache.addPod")
print(ev.message)
sim.step("event")   # the trace point fires as AddPod starts; look one event later
sim.show("pod_states")

# %% [markdown]
# **Exercise 5.3** — write the cache's `AddPod` (confirm, re-add after expiry, add unknown): [05-3-cache-add-pod](../exercises/05-3-cache-add-pod.ipynb).

# %% [markdown]
# `AddPod` found the pod *assumed* on the same node: it drops the assumed mark and the deadline
# — the pod is **Added**. Its resources stay counted once.
#
# ## Expire: the confirmation comes too late (`assume-expiry`)
#
# `cleanupAssumedPods` runs every second
# ([cache.go cleanupAssumedPods](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/cache.go#L354-L377)).
# For each assumed pod whose binding has finished and whose deadline has passed, it
# **expires** the pod: removes it from its NodeInfo, as if it had never been scheduled.
#
# In this scenario the bind call takes 2 s, and the pod watches stall for 45 s from t = 4 s:

# %%
sim = Simulation.from_scenario("assume-expiry", seed=1)
print(sim.scenario.description)

# %% [markdown]
# **Predict first:** at one moment of this story (the seed picks it), what does the cache hold
# for `web-1`? The cells after it show the whole sequence.

# %%
from functools import partial
from kschedlearn.simulation import questions as Q
from kschedlearn.widgets.predict import PredictCell

# %% tags=["predict"]
PredictCell(partial(Q.cache_state_question, scenario="assume-expiry"), seed=3, activity="05/cache-state")

# %%
ev = sim.run_until("bind")
sim.run_until("finishBinding")
log(e for e in sim.trace[ev.seq:] if e.stage == "log" and "Binding is still in progress" in e.message or e.stage != "log")

# %% [markdown]
# While the bind call was in flight (t = 3 s and 4 s) the cleanup loop saw the pod but could not
# expire it: `Couldn't expire cache for pod default/web-1. Binding is still in progress.` At
# t = 5 s `FinishBinding` set the deadline to t = 35 s.

# %%
sim.run_until(lambda e: e.time >= 20)
sim.show("cache")

# %%
ev = sim.run_until("expirePod")
log([ev])
print(ev.why)
sim.step("event")      # the trace point fires on entry; one event later the pod is gone
cache_line(sim)
sim.show("cache")

# %% [markdown]
# At t = 36 s (the first sweep after the deadline) the pod is expired and `node-1` shows 0 CPU
# requested — **although the pod really is bound to `node-1` in the API server**. For the next
# 13 s the scheduler would over-commit that node. When the stalled watch catches up at
# t = 49 s, `AddPod` finds no state for the pod ("it was expired, add it back") and the
# accounting is right again:

# %%
ev = sim.run_until("cache.addPod")
log([ev])
sim.step("event")      # again: look one event after the trace point
cache_line(sim)
sim.show("pod_states")

# %% [markdown]
# **Exercise 5.2** — the assume, finish-binding and expiry bookkeeping: [05-2-cache-expiry](../exercises/05-2-cache-expiry.ipynb).

# %% [markdown]
# ## Forget: the binding fails (`bind-failure`)
#
# If the Binding POST fails, the bind goroutine calls `FinishBinding` (Go does that after every
# attempt), then **`ForgetPod`**: the assumed pod leaves the NodeInfo again, and the error
# handler takes over ([scheduler.go scheduleOne](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/scheduler.go#L148-L225),
# [cache.go ForgetPod](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/cache.go#L154-L181)).

# %%
sim = Simulation.from_scenario("bind-failure", seed=1)
ev = sim.run_until("forgetPod")
log(e for e in sim.trace[:ev.seq + 1] if e.stage in ("assume", "bind", "finishBinding", "forgetPod")
    or e.stage == "log" and "Failed to bind" in e.message)
cache_line(sim)

# %%
sim.show("pod_states")

# %% [markdown]
# What happens next is worth reading in the trace. The error handler starts a 1 s backoff —
# but the failure also set the pod's `PodScheduled=False` condition, and that update arrives on
# the unassigned-pod watch and puts the pod back into podQueue **at once**. So the second,
# successful attempt happens at the same virtual instant, on the other node; when the backoff
# ends at t = 3 s, the pod is already bound and is not requeued.

# %%
sim.run_until(lambda e: e.time >= 4)
log(e for e in sim.trace[ev.seq + 1:] if e.stage in ("error.backoff", "fifo.add", "fifo.update", "selectHost",
                                                     "assume", "finishBinding", "cache.addPod", "error.requeue"))

# %% [markdown]
# ## NodeInfo accounting
#
# A `NodeInfo` sums the *requests* of the pods on a node (`requested`), and separately a
# `nonzero_request` where a container without a request counts as 100m CPU / 200Mi memory (used
# by priorities only). Every change bumps a `generation`, so the scheduler can refresh its
# per-cycle snapshot incrementally (`UpdateNodeNameToInfoMap` clones only changed nodes).

# %%
from kschedlearn.api.v1 import Pod
from kschedlearn.scheduler.schedulercache import new_node_info

web = Pod.from_dict({"metadata": {"name": "web", "namespace": "default"}, "spec": {"nodeName": "n1",
                     "containers": [{"name": "c", "resources": {"requests": {"cpu": "500m", "memory": "512Mi"}}}]}})
bare = Pod.from_dict({"metadata": {"name": "bare", "namespace": "default"}, "spec": {"nodeName": "n1",
                      "containers": [{"name": "c"}]}})
ni = new_node_info(web, bare)
print("requested:", ni.requested_resource().milli_cpu, "m,", ni.requested_resource().memory // 2**20, "Mi")
print("non-zero: ", ni.nonzero_request().milli_cpu, "m,", ni.nonzero_request().memory // 2**20, "Mi")
print("generation", ni.generation)

# %% [markdown]
# **Exercise 5.1** — NodeInfo's pod accounting: [05-1-nodeinfo-accounting](../exercises/05-1-nodeinfo-accounting.ipynb).

# %% [markdown]
# ## The explorer
#
# Scrub through the expiry story yourself: open the `cache` and `pod_states` tabs and drag the
# timeline between t = 3 s and t = 50 s.

# %%
Simulation.from_scenario("assume-expiry", seed=1).explorer()

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
PredictCell(partial(Q.cache_state_question, scenario="assume-expiry"), seed=5, activity="05/cache-state-expiry")

# %% tags=["predict"]
PredictCell(partial(Q.cache_state_question, scenario="bind-failure"), seed=1,
            activity="05/cache-state-bind-failure")

# %% [markdown]
# ## Your turn
#
# Write your prediction in place of `None` and run the cell: the simulator answers from its own
# run. Then make the run yourself and look.
#
# **1.** Build the expiry by hand from `three-nodes`: lengthen it to 60 s
# (`Simulation(scenario=attrs.evolve(base, duration=60), seed=1)`), run to `assume`, then stall
# the pod watches for 45 s (`t.inject.stall_watch(45)`). At what time does `cleanupAssumedPods`
# expire `web-1`? (And when is it added back? `run_until("finishBinding")`, `"expirePod"`,
# `"cache.addPod"` tell.)

# %% tags=["ask"]
from kschedlearn.curriculum import ask

ask("05/expire-time", None)

# %% [markdown]
# **2.** Make the *next two* bindings fail in `three-nodes` (`t.inject.fail_next_bind(2)` after
# `Scheduler.Run`). How many times is `web-1` assumed by t = 15 s?

# %% tags=["ask"]
ask("05/assumed-twice", None)

# %% [markdown]
# **3.** At t = 10 s in `assume-expiry`, what is `web-1`'s expiry deadline? Ask the cache:
# `[(ps.key, ps.assumed, ps.binding_finished, ps.deadline) for ps in t.snapshot.cache.pod_states]`.

# %% tags=["ask"]
ask("05/deadline", None)

# %% [markdown] tags=["recap"]
# ## Recap
#
# - **AssumePod** counts the pod on its node before the binding is sent; **FinishBinding** starts
#   the 30 s TTL when the bind call returns; until then the pod cannot expire.
# - The assigned-pod informer's **AddPod** confirms an assumed pod (or adds back one that expired).
# - **cleanupAssumedPods** runs every second and **expires** assumed pods past their deadline,
#   freeing their resources — even if the pod really is bound.
# - A failed binding **forgets** the pod: its resources are given back and it is retried.
# - NodeInfo keeps requested and non-zero-requested resources per node.
