# %% [markdown] tags=["objectives"]

# %% [markdown]
# kschedlearn grew from an article, in Chinese, on kube-scheduler **v1.6.1** (commit `b0b7a32`):
# *Kubernetes Scheduler源码分析 — 启动过程与多队列缓存* ("the start-up and the multi-queue
# cache"). Its readers are this project's first audience. This notebook is a companion to read
# beside it: it follows the article section by section, names each code block the article shows
# by its Go symbol, steps the simulator to the moment that code runs, and shows the function in
# the source pane — kschedlearn's Python beside its Go twin. It maps the article's names to the
# code's, and says plainly where the article is wrong about 1.6.
#
# Nothing of the article is reproduced here: keep it open in another window. Its two sections
# are cited as **§一** (how a pod is processed: the multi-queue flow) and **§二** (how the pod
# queues are set up during start-up).

# %%
from kschedlearn import Simulation
from kschedlearn.curriculum import ask
from kschedlearn.curriculum.companion import step_here, step_through, terms_table

sim = Simulation.from_scenario("three-nodes", seed=1)
sim.run_until("Scheduler.Run")
print(sim)

# %% [markdown]
# `step_here(sim, stage)` moves the cursor to the first event of that stage (back or forward)
# and shows the narration and the source pane there: the mirrored function with its running line
# lit, and the link to its Go twin at v1.6.1. `sim.explorer()` is the same with buttons.
#
# ## The article's names, the code's names
#
# The article names the queues and caches in its own way (§一 speaks of *queuedPods*, "the Queue
# of the scheduler's watch object", *assumedPods*). Here they are beside Go's names and
# kschedlearn's — each Python name is looked up in this very run (last column: what it is):

# %%
sim.run_until("fifo.add", pod="default/web-1")
terms_table(sim)

# %% [markdown]
# **Your turn:** which field of kschedlearn's `ConfigFactory` holds the article's *queuedPods*?
# (Answer with the Python attribute name; the simulator finds the field that holds `web-1` right
# after it was queued.)

# %% tags=["ask"]
ask("16/terms", None)

# %% [markdown]
# ## §一 — a pod through the queues
#
# §一 lists five steps. Each is a stage of the trace; step to each and read the function that
# does it.
#
# **(1)** The watch on unassigned pods puts the new pod into the pod queue — the reflector calls
# the FIFO's `Add`:

# %%
step_here(sim, "fifo.add")

# %% [markdown]
# **(2)** `scheduleOne` takes it out (`NextPod` → `podQueue.Pop`); **(3)** after the algorithm
# chose a node, the pod is *assumed*: the cache's `assumedPods` gets its key:

# %%
step_through(sim, ["scheduleOne.pop", "assume"])

# %%
sim.show("pipeline")

# %% [markdown]
# **(4)** The bound pod comes back through the assigned-pod informer: `processLoop` pops its
# DeltaFIFO and the handler `addPodToCache` confirms the assumed pod; **(5)**
# `cleanupAssumedPods` runs every second and expires assumed pods that were never confirmed:

# %%
step_through(sim, ["controller.process_loop", "cleanupAssumedPods"])

# %% [markdown]
# ## §二 — start-up: how the queues are set up
#
# §二 walks through start-up in code blocks. Each is a stop here, in the article's order.
#
# **`func main()`** (kube-scheduler's `scheduler.go`): build the server's defaults, register the
# flags, parse them, set up logging, print the version and exit if asked, then `app.Run`. The
# four calls between `NewSchedulerServer` and `app.Run` are stops of their own:

# %%
step_through(sim, ["main", "NewSchedulerServer", "main.AddFlags", "main.InitFlags", "main.InitLogs",
                   "main.PrintAndExitIfRequested"])

# %% [markdown]
# **`NewSchedulerServer`** (the article's second block): note its last assignment — leader
# election is forced **on**; our scenario passes `--leader-elect=false`, so `app.Run` calls
# `sched.Run()` directly instead of `leaderelection.RunOrDie` (notebook 09).
#
# **`func Run`** (`app/server.go`) — the article's key steps (1) and (2): a client, an event
# recorder, then the shared informer factory:

# %%
step_through(sim, ["Run", "createClient", "createRecorder", "NewSharedInformerFactory"])

# %% [markdown]
# **`NewSharedInformerFactory` and `sharedInformerFactory`**: the factory keeps a map of informers
# (one per resource type, created when someone asks for it) and a second map,
# `startedInformers`, of those already started. `Start` starts only the informers not yet in
# that map — which is why `Start` may be called again safely: a later call starts just the
# informers asked for since. Here are those fields in this run, after `informerFactory.Start`:

# %%
informers = sim.world.replicas["scheduler-0"].handles.informer_factory
sorted(t.__name__ for t in informers.started_informers)

# %% [markdown]
# **`createScheduler`** — the article's step (2), "the important one": `NewConfigFactory` builds
# the factory, a `schedulerConfigurator` wraps it (to pick a policy file or the algorithm
# provider), and `scheduler.NewFromConfigurator` asks it to `Create` the scheduler's config —
# `CreateFromProvider` → `CreateFromKeys`, which ends by running the factory:

# %%
step_through(sim, ["createScheduler", "NewConfigFactory", "NewFromConfigurator", "schedulerConfigurator.Create",
                   "CreateFromProvider", "CreateFromKeys", "ConfigFactory.Run"])

# %% [markdown]
# **`NewConfigFactory`** (`factory.go`): the scheduler cache (`schedulercache.New` →
# `newSchedulerCache`, with its `nodes`, `assumedPods` and `podStates` maps and the 30 s TTL),
# the pod queue — `podQueue`, a `cache.FIFO` — and the assigned-pod informer made by
# `NewIndexerInformer`, whose handlers are `addPodToCache`, `updatePodInCache` and
# `deletePodFromCache`; then a handler on the shared node informer, which feeds the nodes into
# the cache.

# %%
step_through(sim, ["schedulercache.New", "NewIndexerInformer"])

# %% [markdown]
# **Predict first.** The article says the Queue of this informer — its DeltaFIFO — is initialised
# in `controller.Run`. When does it really come into being in 1.6?

# %% tags=["ask"]
ask("16/queue-created", None)

# %% [markdown]
# **A correction.** The article is wrong here about 1.6: `NewIndexerInformer` itself calls
# `NewDeltaFIFO` (the `fifo := NewDeltaFIFO(...)` line of the block the article quotes) and puts
# it into the controller's `Config`, while the factory is being built.
# **`(*controller).Run`** does not create the queue: it makes a goroutine that closes the queue
# when stopped, creates the **Reflector** (`NewReflector`) that will list and watch into that
# queue, runs it, and loops on `processLoop`:

# %%
step_through(sim, ["controller.Run", "NewReflector"])

# %% [markdown]
# **Back in `Run`**: `go startHTTP(s)`, `informerFactory.Start(stop)` (the node, PV, PVC, service,
# RC, ReplicaSet and StatefulSet informers; the pods have the scheduler's own two watches), then
# the main loop — `run` → `sched.Run()` → `go wait.Until(s.scheduleOne, 0, stop)`:

# %%
step_through(sim, ["startHTTP", "informerFactory.Start", "Scheduler.Run"])

# %% [markdown]
# **Your turn:** the article returns to `Run`'s `informerFactory.Start` after `controller.Run`.
# In a run, which starts first — the assigned-pod informer or the shared informers?

# %% tags=["ask"]
ask("16/step-order", None)

# %% [markdown] tags=["recap"]
# ## Recap
#
# - The article's *queuedPods* is `ConfigFactory.podQueue` (`pod_queue`), a plain FIFO; its
#   "Queue of the watch object" is the assigned-pod informer's DeltaFIFO; *assumedPods* lives in
#   the scheduler cache beside `podStates`.
# - Start-up runs `main` (flags, logs, version) → `app.Run` → client, recorder, shared informer
#   factory → `createScheduler` (`NewConfigFactory`, the configurator, `NewFromConfigurator` →
#   `Create` → `CreateFromKeys` → the factory's `Run`) → `startHTTP`, `informerFactory.Start` →
#   `sched.Run`.
# - Correction to the article: in 1.6 the informer's DeltaFIFO is created by
#   `NewIndexerInformer`, not in `controller.Run`, which only creates the Reflector and starts
#   `processLoop`.
# - `sharedInformerFactory.Start` keeps a map of started informers, so it can be called again.
