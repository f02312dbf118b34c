# %% [markdown] tags=["objectives"]

# %% [markdown]
# You can run several kube-scheduler replicas for availability, but only one may schedule at a
# time. In 1.6 they agree through a **lock record** kept in an annotation of the Endpoints object
# `kube-system/kube-scheduler` (hard-coded; no lock-object flags yet). Flags (defaults):
# `--leader-elect=true`, `--leader-elect-lease-duration=15s`, `--leader-elect-renew-deadline=10s`,
# `--leader-elect-retry-period=2s`.
#
# Source: [leaderelection.go](https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/client/leaderelection/leaderelection.go#L74-L288),
# [endpointslock.go](https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/client/leaderelection/resourcelock/endpointslock.go#L29-L103).
# Python: `kschedlearn/client/leaderelection/`.
#
# * **acquire**: try `tryAcquireOrRenew` every 2 s with jitter factor 1.2 (so 2 … 4.4 s apart)
#   until it succeeds.
# * **renew**: as leader, `wait.Poll(2s, 10s, tryAcquireOrRenew)`: try every 2 s; if 10 s pass
#   without a success, give up → `OnStoppedLeading` → the scheduler exits with `lost master`.
# * **the observed-time rule**: a candidate does not trust the `renewTime` written in the record
#   (clocks differ). It remembers *its own local time when the record last changed*, and only
#   takes over once 15 s have passed since then without a change.

# %%
from kschedlearn import Simulation
sim = Simulation.from_scenario("ha-failover", seed=1)
print(sim.scenario.description)

# %% [markdown]
# ## Who gets the lock
#
# Both replicas start at t = 0. `scheduler-a` runs first and creates the record; `scheduler-b`
# finds it held.

# %%
sim.run_until(lambda e: e.stage == "leaderelection.acquire" and e.process == "scheduler-b")
for e in sim.trace[: sim.cursor + 1]:
    if e.stage.startswith("leaderelection") or (e.stage == "log" and ("lease" in e.message or "lock" in e.message)):
        print(f"t={e.time:<6g} {e.process:12} {e.stage:24} {e.message}")

# %% [markdown]
# The record is JSON in the annotation `control-plane.alpha.kubernetes.io/leader`:

# %%
import json
ep = sim.world.api.get("endpoints", "kube-system", "kube-scheduler")
print(json.dumps(json.loads(ep.metadata.annotations["control-plane.alpha.kubernetes.io/leader"]), indent=2))

# %%
sim.show("leader_election")

# %% [markdown]
# **Exercise 9.1** — write `tryAcquireOrRenew` and run ha-failover on it: [09-1-try-acquire-or-renew](../exercises/09-1-try-acquire-or-renew.ipynb).

# %% [markdown]
# ## Renewing, and retrying with jitter
#
# The leader renews every 2 s (`renewTime` moves on). The follower's attempts are spaced
# by 2 s plus a random jitter: `wait.JitterUntil` with `JitterFactor = 1.2` waits
# `RetryPeriod + rand·1.2·RetryPeriod`, i.e. **up to +120 %** — 2 to 4.4 s
# ([leaderelection.go#L68](https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/client/leaderelection/leaderelection.go#L68),
# [wait.go JitterUntil](https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/util/wait/wait.go#L65-L114), [Jitter](https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/util/wait/wait.go#L116-L127)):

# %%
sim.run_until(lambda e: e.time >= 19.5)
tries_b = [round(e.time, 3) for e in sim.trace if e.stage == "leaderelection.acquire" and e.process == "scheduler-b"]
renews_a = [e.time for e in sim.trace if e.stage == "leaderelection.renew" and e.process == "scheduler-a"]
print("scheduler-a renewed at", renews_a)
print("scheduler-b tried at   ", tries_b)
print("gaps between b's tries ", [round(b - a, 3) for a, b in zip(tries_b, tries_b[1:])])

# %% [markdown]
# ## The follower still watches pods
#
# `scheduler-b` is not idle: its informers and the unassigned-pod reflector started *before*
# leader election (only `sched.Run` waits for the lock). Its podQueue fills up with the same
# pods; when `scheduler-a` binds them, the DELETED events empty it again.

# %%
for e in sim.trace[: sim.cursor + 1]:
    if e.process == "scheduler-b" and e.stage in ("fifo.add", "fifo.delete", "scheduleOne.pop"):
        print(f"t={e.time:<5g} {e.stage:16} {e.message}")

# %% [markdown]
# ## Killing the leader
#
# At t = 20 the scenario kills `scheduler-a` (like `kill -9`: it releases nothing). New pods
# wait. **Predict first:** a few seconds (or tens of seconds) after the kill, whom does the
# lock record name as the leader?

# %%
from functools import partial
from kschedlearn.simulation import questions as Q
from kschedlearn.widgets.predict import PredictCell

# %% tags=["predict"]
PredictCell(partial(Q.leader_question, scenario="ha-failover"), seed=3, activity="09/leader-kill")

# %% [markdown]
# Now let us find when `scheduler-b` takes over and why then.

# %%
sim.run_until(lambda e: e.stage == "leaderelection.acquire" and "successfully" in e.message and e.process == "scheduler-b")
last_renew = max(renews_a)
seen = [t for t in tries_b if t > last_renew][0]
print("last renewal by a:           t =", last_renew)
print("b saw that record change at: t =", seen, "(its local observe time)")
print("lease runs out for b at:     t =", seen + 15)
print("b took over at:              t =", round(sim.time, 3))

# %%
sim.show("leader_election")

# %% [markdown]
# `leaderTransitions` went from 0 to 1, and `acquireTime` is new. Now the new leader's
# scheduling loop starts and binds the waiting pods:

# %%
print(json.loads(sim.world.api.get("endpoints", "kube-system", "kube-scheduler")
                 .metadata.annotations["control-plane.alpha.kubernetes.io/leader"]))
sim.run()
for e in sim.trace:
    if e.stage == "apiserver.bind":
        print(f"t={e.time:<7g} {e.message}")
print("crashes:", sim.world.runtime.crashes)

# %% [markdown]
# ## "lost master": a leader that cannot renew exits
#
# In 1.6 the scheduler's `OnStoppedLeading` is `glog.Fatalf("lost master")`: a leader that fails
# to renew for 10 s (the renew deadline) kills its own process — it cannot be sure nobody else
# is scheduling. Here the API server refuses every Endpoints update from t = 5 on:

# %%
import attrs
from kschedlearn.scenarios.scenario import Action
sc = sim.scenario
timeline = tuple(a for a in sc.timeline if a.kind != "kill") + (
    Action(at=5, kind="fault", arg={"fail_next": {"verb": "update", "resource": "endpoints", "n": 100}}),)
lost = Simulation(scenario=attrs.evolve(sc, timeline=timeline, duration=20), seed=1)
lost.run()
for e in lost.trace:
    if e.process == "scheduler-a" and (e.stage in ("leaderelection.renew", "leaderelection.lost", "process.crash")
                                       or (e.stage == "log" and ("lock" in e.message or "master" in e.message))):
        print(f"t={e.time:<5g} {e.stage:22} {e.message}")
print(lost.world.runtime.crashes)

# %% [markdown]
# The last success was at t = 4; the poll tried at 6, 8, 10, 12, 14 and gave up at 4 + 10 = 14.
# The crash kills the simulated process only; the notebook goes on.

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
PredictCell(partial(Q.leader_question, scenario="ha-failover"), seed=2, activity="09/leader")

# %% tags=["predict"]
PredictCell(partial(Q.binder_question, scenario="ha-failover"), seed=1, activity="09/binder")

# %% [markdown]
# ## Your turn
#
# Write your prediction in place of `None` and run the cell: the simulator answers from its own
# runs. Then make the runs yourself and look.
#
# **1.** Kill `scheduler-b` — the follower — at t = 20 s instead of the leader (change the
# scenario's `kill` action, or `sim.inject.kill_scheduler("scheduler-b")` at t = 20). What
# happens to the pods created after that?

# %% tags=["ask"]
from kschedlearn.curriculum import ask

ask("09/kill-follower", None)

# %% [markdown]
# **2.** Run `ha-failover` with `seed=2`: the jitter moves `scheduler-b`'s tries. Does it take the
# lock over earlier or later than with seed 1?

# %% tags=["ask"]
ask("09/seed2-takeover", None)

# %% [markdown] tags=["recap"]
# ## Recap
#
# - Replicas compete for an Endpoints lock (`kube-system/kube-scheduler`) whose annotation records
#   the holder, acquire and renew times.
# - The leader renews every 2 s; the others retry every 2 s plus up to +120 % jitter
#   (`JitterFactor` 1.2); only the leader runs `scheduleOne`, the others keep their informers warm.
# - A killed leader releases nothing: the lock is taken over only after the 15 s lease ran out,
#   at the next retry; pods created meanwhile wait.
# - A leader that cannot renew within the 10 s deadline exits (`lost master`).
