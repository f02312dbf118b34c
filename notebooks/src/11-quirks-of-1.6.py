# %% [markdown] tags=["objectives"]

# %% [markdown]
# kschedlearn mirrors v1.6.1 *including its bugs*: they are real behaviour you would have met
# running that release, and each one teaches something about how the pieces fit. This notebook
# shows them one by one and says what later releases did.

# %% [markdown]
# **Exercise 11.1** — find the bug behind one of these quirks before section 4 gives it away: [11-1-find-the-bug](../exercises/11-1-find-the-bug.ipynb).

# %%
from kschedlearn import Simulation, sim as rt_mod
from kschedlearn.api.v1 import Pod

def pod(name, node=""):
    return Pod.from_dict({"metadata": {"name": name, "namespace": "default"},
                          "spec": {"nodeName": node, "containers": [{"name": "c", "image": "x"}]}})

# %% [markdown]
# ## 1. FIFO `Replace` reshuffles the queue
#
# When the unassigned-pod reflector relists (after a watch error), it calls `podQueue.Replace`
# with the full list. client-go's FIFO throws its old order away and rebuilds the line by
# iterating a Go **map** of the listed items — and Go's map iteration order is unspecified
# (randomised on purpose), so the new order is arbitrary: pods that waited long lose their
# place, and 1.6 has no priority or fairness in the queue
# ([fifo.go Replace](https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/fifo.go#L295-L326)).
# kschedlearn cannot reproduce "random" and stay deterministic, so its `replace` keeps the
# **list's** order — a documented deviation (see the `Differs from Go:` line below). What is
# faithful is that the old order is gone:

# %%
from kschedlearn.client_go.tools.cache.fifo import new_fifo
from kschedlearn.client_go.tools.cache import meta_namespace_key_func
q = new_fifo(meta_namespace_key_func)
for name in ("old-1", "old-2", "new-3"):
    q.add(pod(name))
print("before:", q.list_keys())
q.replace([pod("new-3"), pod("old-2"), pod("old-1")], "42")   # the order the API server listed
print("after: ", q.list_keys(), " (Go: these three keys in an unspecified order)")
print([line for line in q.replace.__doc__.splitlines() if "Differs from Go" in line])

# %% [markdown]
# *Later:* 1.9 put a scheduling-queue interface in front of the FIFO, with a priority queue used
# when pod priority is enabled (PR #54503, PR #55109); pod priority is on by default from 1.11.
#
# ## 2. ForgetPod on an unknown pod: a nil-pointer crash
#
# `ForgetPod` reads the stored state's node name *before* checking that the pod is stored at
# all. For an unknown pod that is a nil-pointer dereference — a Go panic that kills the
# scheduler ([cache.go ForgetPod](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/cache.go#L154-L181)).
# In kschedlearn a panic kills the *simulated* process, and the runtime records it:

# %%
from kschedlearn.scheduler.schedulercache import cache as schedcache

runtime = rt_mod.Runtime(seed=1)
proc = runtime.new_process("kube-scheduler")

def forget_unknown():
    c = schedcache.new(30.0, rt_mod.Chan())
    c.forget_pod(pod("never-assumed", node="node-1"))

runtime.go(forget_unknown, process=proc, name="scheduleOne bind")
runtime.run(until=1)
print(runtime.crashes)
print("process alive?", proc.alive)

# %% [markdown]
# In a `Simulation` the same list is `sim.world.runtime.crashes`. *Later:* 1.7 added the
# missing `ok &&` check (PR #44152), so ForgetPod returns an error instead.
#
# ## 3. The stale assumed copy → "Schedulercache is corrupted"
#
# `UpdatePod` / `RemovePod` compare the node name of the stored pod with the incoming one; a
# mismatch is `glog.Fatalf("Schedulercache is corrupted …")`
# ([cache.go UpdatePod](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/cache.go#L248-L273), [RemovePod](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/cache.go#L275-L302)).
# The stored pod can be stale: when the assigned-pod informer confirms an assumed pod on a
# *different* node than the one assumed (another scheduler's binding won), `AddPod` moves the
# pod's resources to the right NodeInfo but leaves the **assumed copy** in `podStates`
# ([cache.go AddPod](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/cache.go#L214-L246)). The pod's next update — the kubelet reporting it
# Running — then trips the check and the whole scheduler exits. Here is that sequence, run by
# the mirrored cache on a simulated scheduler process:

# %%
def stale_assumed_copy():
    c = schedcache.new(30.0, rt_mod.Chan())
    assumed = pod("web-1", node="node-1")
    c.assume_pod(assumed)              # scheduleOne chose node-1 ...
    c.finish_binding(assumed)          # ... and its binding call returned
    bound = pod("web-1", node="node-2")
    c.add_pod(bound)                   # the informer: bound to node-2 (another scheduler won)
    # Go: cache.podStates[key].pod is still the assumed copy
    print("stored copy's node after AddPod:", c._pod_states["default/web-1"].pod.spec.node_name)
    running = Pod.from_dict({**bound.to_dict(), "status": {"phase": "Running"}})
    c.update_pod(bound, running)       # the kubelet reports the pod Running: UpdatePod

runtime = rt_mod.Runtime(seed=1)
proc = runtime.new_process("kube-scheduler")
runtime.go(stale_assumed_copy, process=proc, name="assigned-pod informer")
runtime.run(until=1)
print(runtime.crashes)
print("process alive?", proc.alive)

# %% [markdown]
# ## 4. SelectorSpread's NaN with zones
#
# When the pod has selectors (a Service / ReplicaSet) but **no** matching pod exists yet and the
# nodes carry zone labels, the zone part divides 0 by 0. `int(NaN)` in Go on amd64 is the
# minimum int64 — every zoned node gets `-9223372036854775808` for SelectorSpread
# ([selector_spreading.go](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/selector_spreading.go#L33-L192)).
# In `spread-and-affinity`, the first replica `web-1` hits exactly that:

# %%
spread = Simulation.from_scenario("spread-and-affinity", seed=1)
spread.run_until("selectHost", pod="default/web-1")
d = spread.decision("default/web-1")[-1]
print(dict(zip(d.scored_nodes, d.scores[d.names.index("SelectorSpreadPriority")])))
print(d.ranked, "->", d.host)

# %% [markdown]
# All zoned nodes share the same garbage, so their relative order survives (selectHost still
# works) — but an un-zoned node would have beaten all of them. *Later:* fixed in Nov 2017
# (PR #55172).
#
# ## 5. The anti-affinity loop-variable quirk
#
# When collecting the required anti-affinity terms of *existing* pods that match the incoming
# pod, 1.6 stores a pointer to the Go `range` loop variable. After the loop every stored term
# reads as that pod's **last** term, so with two terms of different topology keys the wrong
# key is checked ([predicates.go getMatchingAntiAffinityTerms, the function and the checker's method](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/predicates/predicates.go#L1041-L1120)).
# The mirror reproduces it in one named helper:

# %%
import inspect
from kschedlearn.scheduler.algorithm.predicates import predicates as P
print(inspect.getsource(P._loop_variable_quirk))

# %% [markdown]
# ## 6. The E2E latency metric's `defer`
#
# scheduleOne's bind goroutine starts with `defer metrics.E2eSchedulingLatency.Observe(metrics.SinceInMicroseconds(start))`.
# Go evaluates a deferred call's **arguments** when the `defer` statement executes — at the
# start of the goroutine — and only the `Observe` call itself waits for the return. So the
# "end-to-end" latency is fixed before `Bind` is even called: it covers the algorithm and the
# assume, and **excludes the binding** (which `BindingLatency` measures separately). It is
# still observed for failed bindings, and `SchedulingAlgorithmLatency` is *not* observed when
# the algorithm fails (lines 157-191 of [scheduler.go scheduleOne](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/scheduler.go#L148-L225)).
# The mirror computes the value at the same point. In `assume-expiry` the API server takes 2 s
# of virtual time to answer the binding; the scheduler's own `/metrics` after it returned:

# %%
slow = Simulation.from_scenario("assume-expiry", seed=1)
done = slow.run_until("finishBinding")
slow.run_until(lambda e: e.time > done.time)   # the metrics are observed as the goroutine returns
_, _, metrics_text = slow.world.replicas["scheduler-0"].handles.http.get("/metrics")
print("\n".join(line for line in metrics_text.splitlines()
                if line.startswith(("scheduler_e2e", "scheduler_binding")) and line.split()[0].endswith(("_sum", "_count"))))

# %% [markdown]
# One binding took 2 000 000 µs; the single "end-to-end" observation is 0 µs — the binding is
# not in it.
#
# ## 7. No `WaitForCacheSync`
#
# 1.6 starts scheduling without waiting for the informers to finish their first list: the first
# pods can be scheduled against an incomplete view of the nodes and of the pods already running.
# In the startup trace (this scenario runs with `--leader-elect=false`), `informerFactory.Start`
# is followed directly by `Scheduler.Run` — the node informer's first list has not even been
# recorded yet; nothing waits in between:

# %%
s = Simulation.from_scenario("three-nodes", seed=1)
s.run_until("Scheduler.Run")
print([e.stage for e in s.trace if e.stage in ("informerFactory.Start", "leaderelection.start",
                                                "Scheduler.Run", "reflector.list", "handler.OnAdd")])

# %% [markdown]
# *Later:* the scheduler waits for caches to sync before scheduling (1.7+).
#
# ## 8. The FitError double colon
#
# `No nodes are available that match all of the following predicates:: …` — the message
# constant ends with a colon and the format adds another:

# %%
u = Simulation.from_scenario("unschedulable-then-fits", seed=1)
u.run_until("error.backoff")
print([e.message for e in u.trace if e.stage == "log" and "Error scheduling" in e.message][0])

# %% [markdown]
# *Earlier* (1.5) the text was `pod (…) failed to fit in any node`; later releases reworded it
# to `0/N nodes are available: …`.
#
# ## 9. EqualPriority only with no priorities *and* no extenders
#
# `EqualPriority` (every node scores 1) is used implicitly only when the configuration has no
# priorities and no extenders; a policy with no priorities but an extender gets the extender's
# scores only. Notebook 10's last cell shows the first case: all totals 1, the round robin
# decides.
#
# ## What else changed after 1.6
#
# * 1.7: ForgetPod fix (#44152); lock-object flags for leader election; policy from a ConfigMap.
# * 1.8+: pod priority and **preemption**; host ports aggregated in NodeInfo.
# * Later: the scheduling queue (active / backoff / unschedulable), the equivalence cache wired
#   in, and eventually the scheduling framework with plugins replacing predicates/priorities.

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
PredictCell(partial(Q.winner_question, scenario="spread-and-affinity"), seed=3, activity="11/winner-spread")

# %% tags=["predict"]
PredictCell(partial(Q.pod_location_question, scenario="assume-expiry"), seed=9, activity="11/pod-location")

# %% [markdown]
# ## Your turn
#
# Write your prediction in place of `None` and run the cell: the simulator (or the mirrored
# cache on a simulated process) answers. Then look yourself.
#
# **1.** In `spread-and-affinity`, the second replica `web-2` arrives once `web-1` is placed.
# What does *its* SelectorSpread row look like? (`spread.run_until("selectHost", pod="default/web-2")`,
# then the decision's `SelectorSpreadPriority` row.)

# %% tags=["ask"]
from kschedlearn.curriculum import ask

ask("11/spread-web-2", None)

# %% [markdown]
# **2.** From a goroutine of a scheduler process: assume a pod, then `forget_pod` it (the pod the
# cache *does* know). What happens?

# %% tags=["ask"]
ask("11/forget-assumed", None)

# %% [markdown] tags=["recap"]
# ## Recap
#
# - podQueue's `Replace` throws the old order away (Go: map order, unspecified).
# - `ForgetPod` on an unknown pod dereferences nil; a stale assumed copy corrupts the cache.
# - SelectorSpread can produce NaN with zones; the anti-affinity check uses the last term's topology key.
# - The e2e latency metric excludes the binding (its `defer` argument is evaluated at goroutine start).
# - 1.6 does not wait for the informers' first list before scheduling.
