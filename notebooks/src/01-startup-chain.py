# %% [markdown] tags=["objectives"]

# %% [markdown]
# Before a single pod is scheduled, kube-scheduler builds a client, an event recorder, a
# factory of shared informers, the scheduler cache, the pod queue and two pod watches, the
# scheduling algorithm, an HTTP server — and only then starts its main loop. This notebook steps
# through that chain one Go function at a time, in the order v1.6.1 runs it:
#
# ```
# main ─► NewSchedulerServer ─► app.Run
#          ├─ createClient ─► createRecorder ─► NewSharedInformerFactory
#          ├─ createScheduler ─► NewConfigFactory ─► schedulercache.New, NewIndexerInformer
#          │                 └─► Create ─► CreateFromProvider ─► CreateFromKeys ─► ConfigFactory.Run
#          ├─ go startHTTP ─► informerFactory.Start
#          ├─ (--leader-elect=true: leaderelection.RunOrDie ─► acquire ─► OnStartedLeading)
#          └─ Scheduler.Run ─► go wait.Until(scheduleOne, 0, stop)
# ```
#
# Go sources: [scheduler.go (main)](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/cmd/kube-scheduler/scheduler.go#L30-L43),
# [server.go (Run)](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/cmd/kube-scheduler/app/server.go#L65-L140),
# [configurator.go](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/cmd/kube-scheduler/app/configurator.go#L49-L138),
# [factory.go](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/factory/factory.go#L102-L469).

# %%
from kschedlearn import Simulation

sim = Simulation.from_scenario("three-nodes", seed=1)

def where(ev):
    """One line for an event, then its narration and its Go link."""
    print(f"#{ev.seq}  {ev.stage}: {ev.message}\n    {ev.why}\n    {ev.go_ref}")

# %% [markdown]
# ## `main` and `NewSchedulerServer`
#
# `main` builds a `SchedulerServer` holding the defaults, registers the flags, parses them and
# calls `app.Run`. Note the 1.6 detail in `NewSchedulerServer`
# ([options.go#L48-L59](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/cmd/kube-scheduler/app/options/options.go#L48-L59)):
# after defaulting, `LeaderElection.LeaderElect` is **forced to true** — leader election is on
# unless you pass `--leader-elect=false` (this scenario does).

# %%
where(sim.start())
where(sim.step())

# %% [markdown]
# ## `app.Run`: client, recorder, informer factory
#
# `createClient` builds the clientset (QPS 50, burst 100 by default), `createRecorder` an event
# broadcaster that writes Events through the API server, and `NewSharedInformerFactory(kubecli, 0)`
# a factory that will hand out at most one informer per resource type (resync 0 = never).

# %%
for _ in range(4):
    where(sim.step())

# %% [markdown]
# ## `createScheduler` → `NewConfigFactory`
#
# `NewConfigFactory` is where the seed article's queues are born:
#
# * `schedulercache.New(30s, stop)` — the scheduler cache with its 30 s assumed-pod TTL; it
#   starts `cleanupAssumedPods` every second right away;
# * `podQueue = cache.NewFIFO(MetaNamespaceKeyFunc)` — the queue of pods waiting to be scheduled;
# * `NewIndexerInformer(assigned-pod list-watch, …, handlers{addPodToCache, updatePodInCache,
#   deletePodFromCache})` — the informer that feeds the cache with **bound** pods. Its DeltaFIFO is
#   created right here, by `NewIndexerInformer` itself (`fifo := NewDeltaFIFO(...)`, line 313 of
#   [controller.go NewIndexerInformer](https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/controller.go#L285-L349)); only the
#   *Reflector* that fills it waits for the informer to run (`controller.Run` calls `NewReflector`,
#   lines 106-111 of [controller.go Run](https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/controller.go#L97-L122)). The seed article says the
#   queue is initialised in `Run` — it is not;
# * a handler on the shared **node** informer that feeds nodes into the cache.

# %%
for _ in range(4):
    where(sim.step())

# %% [markdown]
# The **startup** view draws the chain: visited frames, the current one highlighted, and the
# goroutines started so far.

# %%
sim.show("startup")

# %% [markdown]
# ## `CreateFromProvider` → `CreateFromKeys` → `ConfigFactory.Run`
#
# No `--policy-config-file` was given, so the configurator uses the algorithm provider
# (`DefaultProvider`: 10 predicates, 7 priorities). `CreateFromKeys`
# ([factory.go#L344-L388](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/factory/factory.go#L344-L388))
# builds the generic scheduler and — a side effect easy to miss — calls `f.Run()`, which starts
# the *unassigned-pod reflector* feeding podQueue and the assigned-pod informer. This happens
# **before** leader election: a standby replica watches pods too.

# %%
where(sim.step())
where(sim.step())
ev = sim.step()
where(ev)

# %% [markdown]
# The call stack at this point (`sim.event.stack`, innermost last) is exactly the Go nesting
# `main → Run → createScheduler → NewFromConfigurator → Create → CreateFromProvider →
# CreateFromKeys → Run`:

# %%
for frame in sim.event.stack:
    print(f"{frame.module}.{frame.function}  (line {frame.line})")

# %%
sim.show("startup")

# %% [markdown]
# ## `startHTTP`, `informerFactory.Start`, `Scheduler.Run`
#
# `go startHTTP(s)` starts the status server in its own goroutine; `informerFactory.Start(stop)`
# starts every informer that was *asked for* so far (nodes, PVs, PVCs, services, RCs, ReplicaSets,
# StatefulSets — pods are not among them: the scheduler has its own two pod watches); and
# `Scheduler.Run` starts `wait.Until(scheduleOne, 0, stop)`
# ([scheduler.go#L143-L146](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/scheduler.go#L143-L146)).
#
# `startHTTP` is recorded where `Run` says `go startHTTP(s)`; the goroutine it starts only runs
# later, when the main goroutine blocks — it then registers `/healthz`, `/metrics` and
# `/configz` and waits in `ListenAndServe` for the rest of the process's life.

# %%
for _ in range(3):
    where(sim.step())

# %%
sim.show("startup")

# %% [markdown]
# Every goroutine of the scheduler process after start-up — one per reflector, informer and
# listener, the cache's cleanup loop, and the `scheduleOne` loop, blocked in `podQueue.Pop`
# because no pod is pending yet:

# %%
for g in sim.snapshot.goroutines:
    if g.process == "scheduler-0":
        print(f"{g.name:48s} {g.state:8s} {g.waiting_on or ''}")

# %% [markdown]
# **Exercise 1.1** — put the eight steps of `app.Run` in order; the check runs kube-scheduler in your order and tells you what breaks: [01-1-startup-chain](../exercises/01-1-startup-chain.ipynb).

# %% [markdown]
# ## The HTTP endpoints
#
# `startHTTP` ([server.go#L142-L167](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/cmd/kube-scheduler/app/server.go#L142-L167))
# serves `/healthz` (always `ok`), `/configz` (the effective configuration), `/metrics`
# (three latency histograms, in microseconds) and `/debug/pprof/` (`--profiling`, on by
# default in 1.6). The
# simulated replica answers the same paths once its `startHTTP` goroutine has got past the
# trace point above and installed its handlers — so first let the pod arrive and be bound
# (to t = 3 s):

# %%
sim.run_until(lambda e: e.time >= 3)
http = sim.world.replicas["scheduler-0"].handles.http
print(http.get("/healthz"))
status, ctype, body = http.get("/configz")
print(status, ctype); print(body[:400], "...")

# %% [markdown]
# `/metrics`: each histogram has one observation now — the scheduling algorithm's run, the
# binding call (observed in the bind goroutine after `FinishBinding`), and the "end-to-end"
# time. That last one is observed by a `defer` at the top of the bind goroutine, and Go
# evaluates a deferred call's *arguments* when the `defer` statement runs — so its value is
# fixed when the goroutine starts, and it covers the algorithm and the assume but **not** the
# binding (lines 190-191 of [scheduler.go scheduleOne](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/scheduler.go#L148-L225);
# notebook 11, quirk 6). Virtual time stood still during scheduling, so the sums are 0 µs.

# %%
status, ctype, body = http.get("/metrics")
print("\n".join(line for line in body.splitlines() if "_count" in line or "_sum" in line))

# %% [markdown]
# ## The flags
#
# Every 1.6 flag with its default (`kube-scheduler --help`):

# %%
from kschedlearn.cmd.kube_scheduler.app.options import options
print(options.usage())

# %% [markdown]
# ## `--leader-elect=true` versus `false`
#
# With `--leader-elect=false`, `Run` calls `run(nil)` directly: `sched.Run()` and block forever.
# With `true` (the default!), `Run` builds an `EndpointsLock` on `kube-system/kube-scheduler` and
# calls `leaderelection.RunOrDie`; only `OnStartedLeading` calls `sched.Run()`, in a new goroutine
# (lines 113-137 of [server.go Run](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/cmd/kube-scheduler/app/server.go#L65-L140)).
# Losing the lease later is fatal (`lost master`). Same scenario, one flag changed:

# %%
import attrs
from kschedlearn.scenarios.scenario import SchedulerSpec

base = Simulation.from_scenario("three-nodes", seed=1).scenario
leader = Simulation(scenario=attrs.evolve(base, schedulers=(SchedulerSpec("scheduler-0", ("--leader-elect=true",)),)), seed=1)
ev = leader.start()
while ev.stage != "Scheduler.Run":
    ev = leader.step()
    if ev.stage.startswith(("leaderelection", "Scheduler", "informerFactory")):
        print(f"#{ev.seq:3d} [{ev.goroutine}] {ev.stage}: {ev.message}")

# %% [markdown]
# `Scheduler.Run` now runs on the `OnStartedLeading` goroutine, after the lease is acquired. The
# lease record lives in an annotation of the Endpoints object:

# %%
print(leader.snapshot.leader)
leader.show("leader_election")

# %% [markdown]
# Notebook 09 runs two replicas and kills the leader.

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
PredictCell(partial(Q.next_stage_question, scenario="three-nodes", stages=Q.STARTUP_STAGES), seed=1,
            activity="01/next-startup")

# %% tags=["predict"]
PredictCell(partial(Q.registered_question, scenario="three-nodes"), seed=1, activity="01/registered")

# %% [markdown]
# ## Your turn
#
# Write your prediction in place of `None` and run the cell: the simulator answers from its own
# run. Then look for yourself.
#
# **1.** From `t = Simulation.from_scenario("three-nodes", seed=1); e = t.start()`, how many
# `t.step("event")` calls until `e.stage == "workload"` (the scenario's first action)? Start-up
# records every log line, list, watch and goroutine start on the way.

# %% tags=["ask"]
from kschedlearn.curriculum import ask

ask("01/startup-events", None)

# %% [markdown]
# **2.** What does kube-scheduler's flag parser say to `--kube-api-qps=fast`? To try it:
# `from kschedlearn.cmd.kube_scheduler.app.options.options import new_scheduler_server, parse_args`,
# then `parse_args(["--kube-api-qps=fast"], new_scheduler_server())`.

# %% tags=["ask"]
ask("01/bad-qps", None)

# %% [markdown]
# **3.** Jump back to `NewConfigFactory` (`sim.goto(...)` with the number of its event, found in
# `sim.trace`) and draw the startup view there. How many goroutines does the scheduler process
# have at that moment?

# %% tags=["ask"]
ask("01/goroutines-at-factory", None)

# %% [markdown] tags=["recap"]
# ## Recap
#
# - `main` → `NewSchedulerServer` (defaults; 1.6 forces `--leader-elect` on) → `app.Run`: one
#   rate-limited **clientset**, an event **recorder**, a **shared informer factory**.
# - `createScheduler` → `NewConfigFactory` builds podQueue, the scheduler cache and the informers;
#   `CreateFromProvider` / `CreateFromKeys` turn predicate and priority *names* into functions.
# - `startHTTP` serves `/healthz`, `/metrics`, `/configz`; `informerFactory.Start` starts the
#   reflectors; `Scheduler.Run` starts the `scheduleOne` loop — directly, or only after the lease is
#   acquired with `--leader-elect=true`.
# - The e2e latency metric's value is fixed when the bind goroutine starts: it leaves out the binding.
