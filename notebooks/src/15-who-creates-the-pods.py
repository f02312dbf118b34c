# %% [markdown] tags=["objectives"]

# %% [markdown]
# Until now every pod came from the scenario or from `kubectl apply`. In a real cluster almost
# none do: a **controller** creates them — a ReplicationController or ReplicaSet keeping a count,
# a Deployment rolling out a new image, a DaemonSet putting one pod on every node, a StatefulSet
# numbering its pods. In 1.6 all of them live in one binary, **kube-controller-manager**, a
# process of its own next to kube-scheduler. kschedlearn mirrors its five workload controllers
# statement by statement (`kschedlearn/controller/…`, `kschedlearn/cmd/kube_controller_manager/`).
#
# A scenario asks for it with `controller_manager: true` (or `{flags: [...]}`); `kschedlearn serve`
# runs it by default. Each controller is a work queue of object keys drained by a few workers
# (5 for RCs, ReplicaSets and Deployments, 2 for DaemonSets, 1 for StatefulSets) that compare
# what exists with what is wanted and write the difference to the API server
# ([controllermanager.go#L111-L221](https://github.com/kubernetes/kubernetes/blob/v1.6.1/cmd/kube-controller-manager/app/controllermanager.go#L111-L221)).
#
# This notebook follows four of their decisions and asks you, before it shows the run, how
# kube-scheduler sees each one: a ReplicationController's three replicas, a scale-up to 50, a
# Deployment's rolling update, and a DaemonSet.

# %% [markdown]
# **Exercise 15.1** — write the heart of the ReplicationManager, `manageReplicas`, before
# section 2 shows it at work: [15-1-manage-replicas](../exercises/15-1-manage-replicas.ipynb).

# %%
from kschedlearn.simulation import questions_controllers as QCM
from kschedlearn.widgets.predict import PredictCell

sim = QCM.simulation(seed=1)
print(sim.scenario.description)
for action in sim.scenario.timeline:
    print(f"t={action.at:>4g}s  {action.kind:6} {getattr(action.arg, 'metadata', None) and action.arg.metadata.name or action.arg}")

# %% [markdown]
# The controller manager starts like the scheduler: flags, a client per controller, one shared
# informer factory, then each controller's `InitFunc` (in name order here; Go's map order is
# random). The startup view now has a box for its goroutines — every controller's workers and
# informers, in their own process:

# %%
sim.run_until(lambda e: e.process == "kube-controller-manager" and e.stage == "informerFactory.Start"
              or e.time > 0.5)
sim.show("startup")

# %% [markdown]
# ## 1. Three replicas on three equal nodes
#
# At t = 1 s the ReplicationController `web` is created with 3 replicas. The ReplicationManager's
# sync lists the pods its selector matches (none), computes the diff (+3), **raises its
# expectations** (3 creations — the `controller.expect` trace point), and starts one goroutine
# per pod. Each POST is a pod with `nodeName: ""`, so kube-scheduler's reflector puts it in
# podQueue, as any pod.

# %%
ev = sim.run_until("controller.expect")
print(ev.time, ev.process, "|", ev.message)
sim.show("pipeline")

# %% [markdown]
# **Predict, then check.** The three nodes are empty and equal. On how many different nodes do
# the three copies land?

# %% tags=["predict"]
PredictCell(QCM.spread_question, seed=1, activity="15/spread")

# %% [markdown]
# kube-scheduler knows nothing about the RC, only that the pods share its labels:
# SelectorSpreadPriority finds the RC selecting the pod and gives the nodes with fewer of its pods
# more points. The third pod's decision shows it:

# %%
for _ in range(3):
    bound = sim.run_until(lambda e: e.stage == "apiserver.bind" and e.data["pod"].startswith("default/web-"))
    print(bound.data["pod"], "→", bound.data["node"])
third = bound.data["pod"]
attempt = sim.decision(third)[-1]
print(third, "chosen:", attempt.host, "| totals:", dict(attempt.totals))

# %% [markdown]
# ## 2. Scaled from 3 to 50
#
# At t = 8 s `web` is scaled to 50. The ReplicationManager's next sync sees 3 pods for 50
# wanted. How many creations does that one sync start?

# %% tags=["predict"]
PredictCell(QCM.burst_question, seed=1, activity="15/burst")

# %% [markdown]
# All **47** at once: 1.6's `manageReplicas` has no slow-start batching (1.7 added it), only the
# `burstReplicas` cap of 500 and the client's rate limit (20 QPS, burst 30). Until the informer
# has seen all 47, the expectations hold further syncs back — each `controller.observed` counts one.

# %%
burst = sim.run_until(lambda e: e.stage == "controller.expect" and e.time >= 8)
print(burst.message)
observed = sim.run_until(lambda e: e.stage == "controller.observed" and "satisfied" in e.message and e.time >= 8)
print(f"t={observed.time:g}s", observed.message)

# %% [markdown]
# Meanwhile kube-scheduler drains podQueue one `scheduleOne` at a time, and the creations arrive
# faster than it binds: here is the queue at its longest.

# %%
peak = QCM.facts(1).queue_peak
sim.goto(burst.seq)
sim.run_until(lambda e: e.stage == "fifo.add" and e.data.get("queue") == "podQueue"
              and len(e.data.get("queue_keys", ())) >= peak)
print("podQueue holds", peak, "pods at", f"t={sim.time:g}s")
sim.show("pipeline")

# %% [markdown]
# ## 3. A rolling update, seen from the scheduler
#
# At t = 16 s the Deployment `shop` is created (3 replicas) and at t = 24 s its image changes.
# The deployment controller creates a **new ReplicaSet** and moves the replicas over in steps,
# within `maxSurge` (extra pods allowed) and `maxUnavailable` (pods allowed to be missing):
# extensions/v1beta1's defaults are 1 and 1. kube-scheduler only sees new pods arriving one or
# two at a time while old ones are deleted.

# %% tags=["predict"]
PredictCell(QCM.surge_question, seed=1, activity="15/surge")

# %%
roll = sim.run_until(lambda e: e.stage == "apiserver.create" and e.data.get("resource") == "replicasets"
                     and e.time >= 24)
print(roll.message)
sim.run_until(lambda e: e.time >= 29)
for rs in sorted(sim.world.api.storage.items("replicasets"), key=lambda r: r.metadata.name):
    print(f"{rs.metadata.name:24} spec.replicas={rs.spec.replicas} ready={rs.status.ready_replicas}"
          f"  revision {rs.metadata.annotations.get('deployment.kubernetes.io/revision')}")
print([e.message for e in sim.trace if e.stage == "log" and "Scaled" in e.message and e.time >= 24][:6])

# %% [markdown]
# ## 4. A DaemonSet: one pod on every node
#
# At t = 34 s the DaemonSet `agent` is created: it wants one pod on each of the three nodes.
# Which of them go through kube-scheduler's podQueue and `scheduleOne`?

# %% tags=["predict"]
PredictCell(QCM.daemonset_question, seed=1, activity="15/daemonset")

# %% [markdown]
# The 1.6 DaemonSet controller does **not** leave placement to kube-scheduler: it runs a copy of
# the scheduler's predicates (`nodeShouldRunDaemonPod`, `GeneralPredicates`) itself and POSTs
# each pod with `spec.nodeName` already set — the `daemonset.bind` trace point. The
# unassigned-pod reflector filters on `nodeName == ""`, so these pods never enter podQueue (1.12
# moved DaemonSet scheduling to kube-scheduler, behind a feature gate).

# %%
first = sim.run_until("daemonset.bind")
print(first.message)
sim.show("pipeline")

# %% [markdown] tags=["recap"]
# ## Recap
#
# - kube-controller-manager is a process of its own; its controllers turn RCs, ReplicaSets,
#   Deployments, DaemonSets and StatefulSets into pods by writing to the API server. kschedlearn
#   runs it when a scenario says `controller_manager: true` (and in `kschedlearn serve`).
# - A controller's sync raises **expectations** before it creates or deletes pods and waits until
#   its informer has observed them all — this is what stops double creations.
# - Replicas spread across nodes because of **SelectorSpreadPriority**, not because the controller
#   asks for it: the scheduler sees only pods with labels.
# - 1.6 sends a whole diff at once (a burst of 47 here): no slow start until 1.7.
# - A rolling update is new and old ReplicaSets scaled in steps within maxSurge / maxUnavailable;
#   the new ReplicaSet starts at replicas + maxSurge − (old replicas).
# - In 1.6 **DaemonSet pods bypass kube-scheduler**: the controller picks the node itself.
