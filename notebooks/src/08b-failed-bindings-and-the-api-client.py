# %% [markdown] tags=["objectives"]

# %% [markdown]
# [Part 1](08-scheduleone-binding-errors-backoff.ipynb) walked through `scheduleOne`'s happy path
# and its error path: the back-off and the re-queue. This part looks at what can still go wrong
# *after* a node was chosen — the API server refusing the binding — and at two things that
# shape every run: a pod that is being deleted, and the client's rate limit, shared by every
# request the scheduler makes.

# %%
from functools import partial

from kschedlearn import Simulation
from kschedlearn.curriculum import ask, questions_course as QC
from kschedlearn.simulation import questions as Q
from kschedlearn.widgets.predict import PredictCell

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
# ## A failed binding: ForgetPod
#
# `bind-failure`: the API server refuses the first binding call — 1.6's binder POSTs the
# `Binding` to `namespaces/{ns}/bindings`
# ([factory.go binder.Bind](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/factory/factory.go#L582-L589)) — with a 500. The binding
# goroutine calls `FinishBinding` anyway, then `ForgetPod` (the cache drops the assumed pod and
# gives its resources back), then the error function, a **Normal** (sic) `FailedScheduling`
# event `Binding rejected: …` and the condition reason `BindingRejected`.

# %% [markdown]
# **Predict first:** where is `web-1` right after one of its events in `bind-failure`?

# %% tags=["predict"]
PredictCell(partial(Q.pod_location_question, scenario="bind-failure"), seed=2, activity="08b/pod-location")

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
# ## A pod that is being deleted
#
# What does scheduleOne do with a queued pod that already has a `deletionTimestamp` (it is being
# deleted, gracefully)? Our embedded API server deletes an unbound pod at once, so we write the
# timestamp into storage by hand while `big-1` (from `unschedulable-then-fits`) sits in its
# back-off. **Predict first:** once the timestamp is set, how many more scheduling attempts
# (`schedule.start`) does `big-1` get by t = 9 s?

# %% tags=["ask"]
ask("08b/deleting-pod", None)

# %% [markdown]
# scheduleOne records a Warning event and drops the pod: no `Error`, so no back-off and no
# requeue:

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
# Every request of the scheduler goes through the client's token bucket:
# `--kube-api-qps=50`, `--kube-api-burst=100` (1.6 defaults). `burst-100-pods` creates 100 pods
# at once on a cluster with room for all of them. **Predict first:** how many are bound in the
# first instant, at t = 1 s?

# %% tags=["ask"]
ask("08b/qps", None)

# %% [markdown]
# The burst holds 100 tokens, but **bindings and events share the bucket**: each scheduled pod
# costs a binding POST *and* a `Scheduled` event POST, so the burst pays for only 50 pods at
# t = 1 s. After that the bucket refills at 50 requests per second. The cell counts both kinds
# of request:

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
# stage, every view one choice away. Try it on the failing pod (it needs a live kernel).

# %%
explore = Simulation.from_scenario("unschedulable-then-fits", seed=1)
explore.start()
explore.explorer()

# %% [markdown]
# ## Predict, then check
#
# The binding fails twice in a row, with a **409 Conflict** this time (as when another
# scheduler bound the pod first). What does the FailedScheduling event say?

# %% tags=["predict"]
PredictCell(QC.conflict_event_question, seed=1, activity="08b/conflict-event")

# %% [markdown]
# **Your turn:** with those two refused bindings, how many bind attempts does `web-1` see in
# all? (To look: `t2 = Simulation.from_scenario("three-nodes", seed=1)`,
# `t2.run_until("workload")`, `t2.inject.fail_next_bind(2, conflict=True)`, `t2.run()`, then
# count the `bind` events.)

# %% tags=["ask"]
ask("08b/two-fails", None)

# %% [markdown] tags=["recap"]
# ## Recap
#
# - The binder POSTs a `Binding` to `namespaces/{ns}/bindings`; a refusal makes the binding
#   goroutine `FinishBinding`, then **forget** the assumed pod, call the error function, record a
#   (Normal) `FailedScheduling` event and set `BindingRejected`.
# - The retry usually comes at once, through the condition update on the unassigned watch —
#   not through the back-off.
# - A pod with a `deletionTimestamp` is skipped: an event, no error function, no re-queue.
# - Every request shares the client's token bucket (QPS 50, burst 100): bindings *and* events.
