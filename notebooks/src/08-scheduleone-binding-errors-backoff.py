# %% [markdown] tags=["objectives"]

# %% [markdown]
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
# **Predict:** which stage comes next for the pod? The question picks a moment of `web-1`'s
# journey; **New question** picks another.

# %%
from functools import partial
from kschedlearn.simulation import questions as Q
from kschedlearn.widgets.predict import PredictCell

# %% tags=["predict"]
PredictCell(partial(Q.next_stage_question, scenario="three-nodes"), seed=3, activity="08/next-stage")

# %% [markdown]
# And a question about the goroutine column above: which goroutine POSTs the Binding? Write
# your answer in place of `None`.

# %% tags=["ask"]
from kschedlearn.curriculum import ask

ask("08/bind-goroutine", None)

# %% [markdown]
# **Exercise 8.2 (the capstone)** — write `scheduleOne` and replay the guided tour, bind-failure
# and assume-expiry on it stage for stage. Three rungs, with less and less help: start with
# [8.2a](../exercises/08-2a-schedule-one-blanks.ipynb) (the function with ten blanks), then
# [8.2](../exercises/08-2-schedule-one.ipynb) (its contract only), then
# [8.2b](../exercises/08-2b-schedule-one-spec.ipynb) (Go's function and the behaviours it must show).

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
# ## Predict, then check
#
# Answer first, then press **Check**: the simulator runs the scenario and reveals what really
# happens, with the event number to step to (`sim.goto(n)`). **New question** re-rolls the seed.

# %% tags=["predict"]
PredictCell(partial(Q.backoff_question, scenario="unschedulable-then-fits"), seed=1, activity="08/backoff")

# %% [markdown]
# **Your turn:** in `unschedulable-then-fits`, the big node now joins at t = 17 s instead of
# 12 s. When is `big-1` bound? (To look: move the node's create action in the scenario's
# timeline with `attrs.evolve`, run, and find `apiserver.bind`.)

# %% tags=["ask"]
ask("08/late-node", None)

# %% [markdown] tags=["recap"]
# ## Recap
#
# - scheduleOne: pop → `Schedule` (predicates, priorities, selectHost) → assume → bind in a
#   separate goroutine, so the next pod is scheduled while the binding is in flight.
# - On a scheduling error scheduleOne calls the error function — which requeues the pod after a
#   **backoff** (1 s doubling to 60 s) with `AddIfNotPresent` — records `FailedScheduling` and asks
#   for `PodScheduled=False` (written only when the condition changed; that write itself
#   re-queues the pod once, through the unassigned-pod watch).
# - A node that joins does not wake a waiting pod: only the end of its back-off does.
# - Next: [part 2](08b-failed-bindings-and-the-api-client.ipynb) — a refused binding, a pod being
#   deleted, the API client's rate limit.
