# %% [markdown] tags=["objectives"]

# %% [markdown]
# Everything so far drove the simulation from Python. Real engineers drive clusters with
# `kubectl`. Here the simulation's embedded API server gets an **HTTP face** that speaks the
# Kubernetes REST API (JSON, as 1.6 did): `kubectl get`, `apply`, `describe`, `cordon`,
# `delete` and `get -w` work against it, and so does the official Kubernetes Python client.
# Then we load the dump of a (made-up but realistic) modern cluster and ask how the 1.6
# scheduler would have placed its pending pods — and why.
#
# What you need to know about the face (kschedlearn-only, `kschedlearn/apiserver/rest/`):
#
# - It listens on **127.0.0.1 only**, over TLS with a throw-away certificate, and wants a bearer
#   token; `sim.serve()` writes a kubeconfig holding both.
# - A client's **write** (create, update, patch, delete, bind) is applied at the cursor's virtual
#   time and **recorded in the history**, like `sim.inject.*`: replays repeat it, and if you
#   rewind and change the past, requests made after that point are gone.
# - **Reads** are answered from the live simulation; **watches** stream what the API server
#   stores as you step.
# - The simulated cluster lives on 2017-04-03 (the v1.6.1 release day): where kubectl computes an
#   age itself (`describe`'s event ages), it prints `9y`.
#
# The binder's request, as 1.6 sends it: [factory.go binder.Bind](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/factory/factory.go#L582-L589).

# %%
import json
from functools import partial
from kschedlearn import Simulation
from kschedlearn.simulation import questions_replay as R
from kschedlearn.widgets.predict import PredictCell

sim = Simulation.from_scenario("three-nodes", seed=1)
sim.run_until("cache.addPod", pod="default/web-1")
serving = sim.serve(kubeconfig="three-nodes.kubeconfig")
serving

# %% [markdown]
# Copy `serving.kubectl` into a terminal (JupyterLab: *File → New → Terminal*) and try
# `get nodes`, `get pods -o wide`, `get pods -w`. Requests are answered between cells; a cell
# that runs for a long time holds them until it ends.
#
# From inside the notebook, `serving.run_kubectl(...)` runs kubectl for you (if the machine has
# it) and `serving.call(...)` runs a Python-client call while the kernel answers it:

# %%
print(serving.kubectl)
try:
    print(serving.run_kubectl("get pods -o wide"))
except FileNotFoundError as err:
    print(err)

# %% [markdown]
# ## kubectl apply, then step
#
# `kubectl apply -f pod.yaml` is a GET (is it there?) followed by a POST of the manifest. Here the
# same POST is sent through the REST layer, then we step the scheduler: the pod goes through
# the podQueue FIFO, `scheduleOne`, `assume`, the bind goroutine and the assigned-pod informer —
# the journey of notebook 00, started by a real client's request.

# %%
R.apply_pod(sim, "api-1", cpu="500m")
for stage in ("scheduleOne.pop", "assume", "bind", "cache.addPod"):
    ev = sim.run_until(stage, pod="default/api-1")
    print(f"{ev.seq:5}  {ev.stage:16} {ev.message}")

# %%
sim.show("pipeline")

# %% [markdown]
# The request is part of the history — the `inject` event says which:

# %%
print([e.message for e in sim.trace if e.stage == "inject"])

# %% [markdown]
# **Predict, then check.** A pod is applied with kubectl right after web-1 is bound. Which node
# does it land on? (Think of LeastRequested and BalancedResourceAllocation from notebook 07.)

# %% tags=["predict"]
PredictCell(R.kubectl_apply_question, seed=1, activity="13/kubectl-apply")

# %%
serving.stop()

# %% [markdown]
# ## Your own cluster, scheduled by 1.6
#
# `Simulation.from_manifests(...)` (and `kschedlearn serve --from DUMP.yaml`) read the output of
#
# ```
# kubectl get nodes,pods,services,rc,rs,statefulsets,pv,pvc -A -o yaml > dump.yaml
# ```
#
# from a modern cluster. Bound pods stay where they are; pending pods are scheduled by the
# simulated 1.6 kube-scheduler. What 1.6 does not read is listed once — never reinterpreted.
# The project ships a sample: 12 nodes in three zones, three Deployments, a StatefulSet with
# zonal volumes, a DaemonSet, and a scale-up that left 10 pods pending.

# %%
replay = Simulation.from_manifests(R.SAMPLE_DUMP, seed=1)
print(replay.import_report.summary())

# %% [markdown]
# Read the list: `topologySpreadConstraints` (1.18+) and `preemptionPolicy` mean nothing to 1.6,
# and three nodes carry their zone only under the new `topology.kubernetes.io/zone` label —
# 1.6 reads `failure-domain.beta.kubernetes.io/zone`, so for it those nodes have no zone.
#
# **Predict, then check.** Before running it: where does 1.6 put one of the pending pods?

# %% tags=["predict"]
PredictCell(R.replay_placement_question, seed=2, activity="13/replay-2")

# %%
replay.run_until(lambda e: e.time > 20)
placed = {p.key: p.node_name for p in replay.snapshot.apiserver.pods}
pending = sorted(f"{o.metadata.namespace}/{o.metadata.name}" for o in replay.scenario.objects
                 if type(o).kind == "Pod" and not o.spec.node_name)
for key in pending:
    print(f"{key:32} → {placed[key]}")

# %% [markdown]
# ## Why there? The decision view
#
# `shop/canary` has a required pod anti-affinity against every `app=frontend` pod per hostname,
# so most nodes fail `MatchInterPodAffinity`. Among the three left, look at the
# `SelectorSpreadPriority` column: one node scores −9223372036854775808 — 1.6's NaN bug of
# notebook 11, hit here because that node has no zone label 1.6 can read.

# %%
attempt = replay.decision("shop/canary")[-1]
print("chosen:", attempt.host, "| ties at the top:", attempt.ties)
print(dict(attempt.totals))

# %%
replay.show("decision", pod="shop/canary")

# %% [markdown]
# **Predict, then check** once more, with another pod of the dump (the button re-rolls which):

# %% tags=["predict"]
PredictCell(R.replay_placement_question, seed=3, activity="13/replay-3")

# %% [markdown] tags=["recap"]
# ## Recap
#
# - `sim.serve()` puts the embedded API server on 127.0.0.1 behind TLS and a token and writes a
#   kubeconfig; kubectl and the Python client then read, write and watch the simulation.
# - Writes are recorded external actions at the cursor: deterministic, replayed, dropped by a fork.
# - `kubectl apply` is a POST; the pod then takes the same path as every pod: reflector →
#   podQueue → scheduleOne → assume → bind (`POST namespaces/{ns}/bindings`) → informer → cache.
# - `Simulation.from_manifests` replays a real cluster's dump: unknown kinds and fields are listed,
#   never silently changed; 1.6 places the pending pods — and shows what it does *not* know
#   (topology spread constraints, the new zone label).
