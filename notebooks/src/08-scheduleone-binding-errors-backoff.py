# %% [markdown]
# # 08 · scheduleOne: binding, errors and backoff
#
# `scheduleOne` is the scheduler's main loop body: `Scheduler.Run` calls it back to back
# forever (`wait.Until(scheduleOne, 0, stop)`). One call schedules one pod
# ([scheduler.go#L148-L225](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/scheduler.go#L148-L225);
# Python: `kschedlearn/scheduler/scheduler.py`, `schedule_one`):
#
# 1. `pod = NextPod()` — block on the podQueue FIFO.
# 2. If the pod is being deleted: Warning event `skip schedule deleting pod: ns/name`, drop it.
# 3. `dest = Algorithm.Schedule(pod)` — predicates, priorities, selectHost (notebooks 06, 07).
# 4. On error: `Error(pod, err)` (backoff + requeue), Warning `FailedScheduling` event, condition
#    `PodScheduled=False, reason Unschedulable`, return.
# 5. **Assume**: a copy of the pod with `spec.nodeName = dest` goes into the scheduler cache, so the
#    next pod already sees the resources as taken.
# 6. **Bind in a goroutine**: POST the Binding, then *always* `FinishBinding` (starts the 30 s
#    expiry clock); on failure `ForgetPod` + `Error` + Normal event `Binding rejected: …`; on
#    success Normal event `Scheduled`.
# 7. Return immediately: the next pod is scheduled while this binding is in flight.

# %%
from kschedlearn import Simulation

STAGES = {"scheduleOne.pop", "schedule.start", "schedule.predicates", "schedule.priorities", "selectHost",
          "assume", "bind", "apiserver.bind", "finishBinding", "forgetPod", "cache.addPod",
          "error.backoff", "error.requeue", "fifo.add", "fifo.pop", "fifo.update", "reflector.watch_event"}

def table(sim, pod=None, t0=0.0, t1=1e9, logs=False):
    for e in sim.trace[: sim.cursor + 1]:
        if not (t0 <= e.time <= t1):
            continue
        if pod and pod not in str(e.data.get("pod", e.data.get("key", ""))) and e.stage != "log":
            continue
        if e.stage in STAGES or (logs and e.stage == "log"):
            print(f"{e.seq:4} t={e.time:<5g} {e.goroutine[:28]:28} {e.stage:22} {e.message[:90]}")

# %% [markdown]
# ## The happy path, step by step
#
# `three-nodes`: one pod, `web-1`. The goroutine column shows who does what: the scheduling
# loop, then a separate **binding goroutine**, then the informer's `processLoop` confirming the
# pod in the cache when the assigned-pod watch reports it.

# %%
sim = Simulation.from_scenario("three-nodes", seed=1)
sim.run_until("assume")
sim.show("pipeline")

# %%
sim.run_until("cache.addPod", pod="default/web-1")
table(sim, pod="web-1", t0=2)

# %% [markdown]
# The assumed pod's TTL deadline is set by `finishBinding` (t = 2 + 30 s), and `cache.addPod`
# *confirms* it ("Initial → Assumed → Added", notebook 05). The cache view after the confirm:

# %%
sim.show("cache")

# %% [markdown]
# **Exercise 8.2 (the capstone)** — write `scheduleOne` and replay the guided tour, bind-failure and assume-expiry on it stage for stage: [08-2-schedule-one](../exercises/08-2-schedule-one.ipynb).

# %% [markdown]
# ## The error path: unschedulable, backoff, requeue
#
# `unschedulable-then-fits`: `big-1` asks for 6 CPUs, the two nodes have 2 each. On each
# failure the error function made by `MakeDefaultErrorFunc`
# ([factory.go#L514-L558](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/factory/factory.go#L514-L558))
# starts a goroutine that sleeps the pod's backoff — **1 s, 2 s, 4 s, 8 s … capped at 60 s**
# ([backoff_utils.go](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/util/backoff_utils.go#L38-L135)) —
# then **re-GETs** the pod from the API server and, if it is still unassigned,
# `podQueue.AddIfNotPresent(pod)`.

# %%
un = Simulation.from_scenario("unschedulable-then-fits", seed=1)
un.run_until("error.backoff")
un.show("pipeline")

# %%
un.run_until("cache.addPod", pod="default/big-1")
attempts = [e.time for e in un.trace if e.stage == "schedule.start"]
requeues = [e.time for e in un.trace if e.stage == "error.requeue"]
print("attempts at t =", attempts)
print("requeues after backoff at t =", requeues)
print("gaps between requeues:", [b - a for a, b in zip([1.0] + requeues, requeues)])

# %% [markdown]
# Two attempts happen at t = 1. Why? The first failure writes `PodScheduled=False` into the
# pod's status. That write is itself a **MODIFIED** event on the unassigned-pod watch, so the
# reflector puts the pod straight back into podQueue — without waiting for any backoff:

# %%
table(un, pod="big-1", t0=1, t1=1, logs=True)

# %% [markdown]
# Read the second attempt's lines: its error goroutine finds the pod's backoff entry already
# locked by the first one (`Request for pod default/big-1 already in flight, abandoning`), so
# only one retry sleeps at a time. (The `error.backoff` trace line prints the entry's next
# delay, 2 s, before the lock is tried.) The condition only changes on the first failure
# (`UpdatePodCondition` writes only when something changed), so later failures do not
# requeue twice. At t = 12 `big-node` joins; the pod waits out its 8 s backoff (t = 8 → 16)
# and then binds there:

# %%
table(un, pod="big-1", t0=15.9, t1=16.1)
print([(ev.type, ev.reason, ev.message) for ev in un.world.api.storage.items("events")])

# %% [markdown]
# **Exercise 8.1** — the pod backoff: [08-1-pod-backoff](../exercises/08-1-pod-backoff.ipynb).

# %% [markdown]
# ## A failed binding: ForgetPod
#
# `bind-failure`: the API server refuses the first binding call — 1.6's binder POSTs the
# `Binding` to `namespaces/{ns}/bindings`
# ([factory.go binder.Bind](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/factory/factory.go#L582-L589)) — with a 500. The binding
# goroutine calls `FinishBinding` anyway, then `ForgetPod` (the cache drops the assumed pod and
# gives its resources back), then the error function, a **Normal** (sic) `FailedScheduling`
# event `Binding rejected: …` and the condition reason `BindingRejected`.

# %%
bf = Simulation.from_scenario("bind-failure", seed=1)
bf.run_until("forgetPod")
bf.show("pod_states")

# %%
bf.run_until("cache.addPod", pod="default/web-1")
table(bf, pod="web-1", t0=2, logs=True)
print([(ev.type, ev.reason, ev.message) for ev in bf.world.api.storage.items("events")])

# %% [markdown]
# Here too the retry came at once (same t = 2), through the condition update, before the
# 1 s backoff ran out — and the second attempt chose the other node, `node-1`: the round-robin
# counter had moved on (notebook 07).
#
# ## A pod that is being deleted is skipped
#
# If a queued pod already has a `deletionTimestamp`, scheduleOne records a Warning event and
# drops it: no `Error`, no requeue. Our embedded API server deletes an unbound pod at once,
# so we write the timestamp into storage by hand while `big-1` sits in its backoff:

# %%
import attrs
sk = Simulation.from_scenario("unschedulable-then-fits", seed=1)
sk.run_until("error.requeue")           # t = 2: the first backoff is over
store = sk.world.api.storage
pod = store.get("pods", ("default", "big-1"))
store.update("pods", ("default", "big-1"), attrs.evolve(
    pod, metadata=attrs.evolve(pod.metadata, deletion_timestamp=sk.time, deletion_grace_period_seconds=30)))
sk.run_until(lambda e: e.time > 9)
print([(ev.type, ev.message) for ev in store.items("events") if "skip" in ev.message])
print("attempts after the timestamp:", [e.time for e in sk.trace if e.stage == "schedule.start" and e.time > 2])

# %% [markdown]
# ## The API client is the ceiling: `--kube-api-qps`
#
# Every request of the scheduler — each binding, each event — goes through the client's token
# bucket: `--kube-api-qps=50`, `--kube-api-burst=100` (1.6 defaults). `burst-100-pods` creates 100
# pods at once. The burst holds 100 tokens, but **bindings and events share the bucket**: each
# scheduled pod costs a binding POST *and* a `Scheduled` event POST, so the burst pays for
# only 50 pods at t = 1 s. After that the bucket refills at 50 requests per second. The cell
# counts both kinds of request:

# %%
burst = Simulation.from_scenario("burst-100-pods", seed=1)
burst.run()
binds = [e.time for e in burst.trace if e.stage == "apiserver.bind"]
print(len(binds), "binds; first 50 at t =", sorted(set(binds[:50])), "; then t =", binds[50], "…", binds[-1])
print("gap between later binds:", round(binds[51] - binds[50], 3), "s")
first = binds[0]
events_posted = [e.time for e in burst.trace if e.stage == "apiserver.create" and e.process != "workload"
                 and e.data.get("resource") == "events"]
print(f"requests at t={first:g}s: {binds.count(first)} bindings + {events_posted.count(first)} events "
      f"= {binds.count(first) + events_posted.count(first)} tokens; the last event POST at t={events_posted[-1]:g}s")

# %% [markdown]
# ## Explore
#
# The explorer puts all of this under buttons: step, back, play, a timeline, breakpoints by
# stage, every view in a tab. Try it on the failing pod (it needs a live kernel).

# %%
explore = Simulation.from_scenario("unschedulable-then-fits", seed=1)
explore.start()
explore.explorer()

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
PredictCell(partial(Q.backoff_question, scenario="unschedulable-then-fits"), seed=1)

# %% tags=["predict"]
PredictCell(partial(Q.pod_location_question, scenario="bind-failure"), seed=2)

# %% [markdown]
# ## Try this
#
# 1. Make two bindings fail in a row (`inject.fail_next_bind(2)`). How many bind attempts will
#    there be?
# 2. Make the binding fail with a 409 Conflict (`conflict=True`): what will the event say?
# 3. In `unschedulable-then-fits`, when would the pod bind if the big node came at t = 17?
#
# Predict, then uncomment:

# %%
t2 = Simulation.from_scenario("three-nodes", seed=1)
t2.run_until("workload")
t2.inject.fail_next_bind(2, conflict=True)
t2.run()
# print([(ev.reason, ev.count, ev.message) for ev in t2.world.api.storage.items("events")])
# print("bind attempts:", sum(e.stage == "bind" for e in t2.trace))

# %% [markdown] tags=["recap"]
# ## Recap
#
# - scheduleOne: pop → `Schedule` (predicates, priorities, selectHost) → assume → bind in a
#   separate goroutine, so the next pod is scheduled while the binding is in flight.
# - The binder POSTs a `Binding` to `namespaces/{ns}/bindings`; a failure forgets the assumed pod.
# - On a scheduling or binding error scheduleOne calls the error function — which requeues the pod
#   after a **backoff** (1 s doubling to 60 s) with `AddIfNotPresent` — records `FailedScheduling`
#   and asks for `PodScheduled=False` (written only when the condition changed).
# - A pod with a `deletionTimestamp` is skipped.
# - Every request shares the client's token bucket (QPS 50, burst 100): bindings *and* events.
