# %% [markdown] tags=["objectives"]

# %% [markdown]
# Everything so far drove the simulation from Python. Real engineers drive clusters with
# `kubectl`. Here the simulation's embedded API server gets an **HTTP face** that speaks the
# Kubernetes REST API (JSON, as 1.6 did): `kubectl get`, `apply`, `describe`, `cordon`,
# `delete` and `get -w` work against it, and so does the official Kubernetes Python client.
# Then we replay a real cluster, captured by someone else, and ask how the 1.6 scheduler would
# have placed its pending pods — and why.
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
# ## A real cluster, replayed on 1.6
#
# `Simulation.from_manifests(...)` (and `kschedlearn serve --from DUMP.yaml`) read the output of
#
# ```
# kubectl get nodes,pods,services,rc,rs,statefulsets,pv,pvc -A -o yaml > dump.yaml
# ```
#
# from a modern cluster (JSON too, and the `List`s of a support bundle concatenated into one).
# Bound pods stay where they are; pending pods are scheduled by the simulated 1.6 kube-scheduler.
# The dump is read item by item: an item 1.6 could not take is skipped and named, never the
# whole dump.
#
# The project ships eight real captures, written by others (support bundles, sonobuoy results,
# tool fixtures; sources and licences in `kschedlearn/scenarios/data/dumps/real/README.md`).
# Here is one: an **OpenShift 4.7** cluster (Kubernetes 1.20) with one master and one worker,
# captured by OpenShift's Insights operator on 2021-07-07. One pod was pending: the ingress
# router.

# %%
openshift = Simulation.from_manifests(R.REAL_DUMPS / "openshift-4.7.json", seed=1)
report = openshift.import_report
print(report.summary())

# %% [markdown]
# ## Reading the report
#
# Everything the 1.6 scheduler does not read is reported once, by kind, field and count, in
# three parts:
#
# 1. **What changes scheduling** — where 1.6 may place pods differently from the captured
#    cluster. Here: OpenShift gives its operators `priorityClassName: system-cluster-critical`.
#    1.6 has no priority and no preemption: if this cluster were full, 1.6 would leave a critical
#    pod pending rather than evict a less important one.
# 2. **What 1.6 did not have** — fields born after 1.6 that cannot change its placements:
#    `status.podIPs`, `spec.enableServiceLinks`, `ephemeral-storage` and `hugepages-*` in the
#    nodes' capacity.
# 3. **What kschedlearn does not model** — fields 1.6 *had* but its scheduler never read: `env`,
#    probes, `volumeMounts`, secret and configMap volumes, `status.containerStatuses`. They are
#    not "unknown to 1.6"; they are just irrelevant to scheduling.
#
# The report is plain data too:

# %%
for finding in report.changes_scheduling:
    print(f"{finding.kind} {finding.field} ×{finding.count}: {finding.action}")
print(len(report.not_in_1_6), "fields 1.6 did not have;", len(report.not_modelled), "fields kschedlearn does not model")

# %% [markdown]
# Other captures show the rest of what a modern cluster carries. The k3s 1.33 support bundle, for
# example: its DaemonSet pod pins itself to its node with a `matchFields` term (1.12+), which
# 1.6's API server would refuse; the replay drops the term (the pod is bound and stays put) and
# says that in 1.6 the DaemonSet controller set `spec.nodeName` itself. Pods asking for
# `nvidia.com/gpu` are kept but reported: 1.6's PodFitsResources never checked extended
# resources.

# %%
k3s = Simulation.from_manifests(R.REAL_DUMPS / "k3s-v1.33.json", seed=1)
for finding in k3s.import_report.changes_scheduling + k3s.import_report.not_in_1_6:
    if "matchFields" in finding.field or "topologySpread" in finding.field:
        print(f"{finding.kind} {finding.field} ×{finding.count}: {finding.action}")

# %% [markdown]
# ## kubectl sees the cluster as it was captured
#
# Served, the replayed nodes show their own kubelet version, roles and OS image in
# `kubectl get nodes`:

# %%
serving = openshift.serve(kubeconfig="openshift.kubeconfig")
try:
    print(serving.run_kubectl("get nodes -o wide"))
except FileNotFoundError as err:
    print(err)
serving.stop()

# %% [markdown]
# ## Where does 1.6 put the pending router?
#
# The captured cluster said, in the router's `PodScheduled` condition: *0/2 nodes are
# available: 1 node(s) didn't have free ports for the requested pod ports, 1 node(s) had taint
# {node-role.kubernetes.io/master: }, that the pod didn't tolerate.* **Predict before you run:**
# will 1.6 agree?

# %%
openshift.run_until(lambda e: e.time > 3)
router = openshift.decision("openshift-ingress/router-default-7bbdcfcf9b-7xdln")[-1]
print("chosen:", router.host or "(none)")
for verdict in router.verdicts:
    reasons = [r for _, rs in verdict.predicates for r in rs]
    print(f"  {verdict.node}: {'fits' if verdict.fits else ', '.join(reasons)}")

# %% [markdown]
# 1.6 binds the router to the worker. The master is out for two reasons, as in the real cluster:
# the router's `nodeSelector` asks for `node-role.kubernetes.io/worker`, and it does not tolerate
# the master's taint. But the worker's host ports 80, 443 and 1936 are free *in the dump*: what
# held them was the other router replica, and the Insights archive keeps only some pods (those
# of troubled operators and the pending ones). **A replay is only as complete as its capture** —
# read what a dump holds before trusting a placement.

# %%
openshift.show("decision", pod="openshift-ingress/router-default-7bbdcfcf9b-7xdln")

# %% [markdown]
# ## A bigger (generated) cluster
#
# The captures above are small. The project also ships a generated dump shaped like a modern
# cloud cluster: 12 nodes in three zones, three Deployments, a StatefulSet with zonal volumes, a
# DaemonSet, and a scale-up that left 10 pods pending. Three of its nodes carry their zone only
# under the new `topology.kubernetes.io/zone` label; 1.6 reads
# `failure-domain.beta.kubernetes.io/zone`, so for it those nodes have no zone — the report puts
# that under what changes scheduling.

# %%
replay = Simulation.from_manifests(R.SAMPLE_DUMP, seed=1)
print("\n".join(line for line in replay.import_report.summary().splitlines()[:8]))

# %% [markdown]
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
# ## Looking back through a replay: snapshots on demand
#
# Every view above is drawn from a *snapshot*: the queues, the cache, the API server's objects
# and the goroutines as they stood at one event. Teaching mode builds one at every event while
# it records it, and for a big cluster that costs more than the simulation itself
# (`benchmarks/README.md` measures it at 1,000 nodes). Most replays are run to the end first and
# looked at in a few places afterwards. `snapshots="on-demand"` records the events alone and
# builds an event's snapshot the first time you ask for it (`sim.snapshot_at(i)`, or any view
# at the cursor): a *twin* world of the same dump and seed runs, taking teaching mode's
# snapshots, as far as you have looked. The run is deterministic, so the twin reaches the same
# state at every event, and each event it answers for is checked against yours.

# %%
import time

def cpu(fn):
    start = time.process_time()
    out = fn()
    return out, time.process_time() - start

lazy = Simulation.from_manifests(R.SAMPLE_DUMP, seed=1, snapshots="on-demand")
_, t_run = cpu(lambda: lazy.run_until(lambda e: e.time > 20))
i = next(e.seq for e in lazy.trace if e.stage == "selectHost" and "canary" in str(e.data))
snap, t_first = cpu(lambda: lazy.snapshot_at(i))
_, t_again = cpu(lambda: lazy.snapshot_at(i - 1))
print(f"run to t=20s without snapshots: {t_run:.2f} CPU-s, {len(lazy.trace)} events")
print(f"first look, at event {i} (shop/canary's selectHost): {t_first:.2f} CPU-s")
print(f"a look at event {i - 1}, before it: {t_again * 1000:.2f} ms")

# %% [markdown]
# Is it the state teaching mode would have shown? Run the same dump with a snapshot at every
# event and compare that event's snapshot, part for part:

# %%
eager = Simulation.from_manifests(R.SAMPLE_DUMP, seed=1, snapshot_every=1)
eager.run_until(lambda e: e.time > 20)
print("same events:", [(e.stage, e.message) for e in eager.trace] == [(e.stage, e.message) for e in lazy.trace])
print(f"same snapshot at event {i}:", eager.trace[i].snapshot.to_json() == snap.to_json())
lazy.goto(i)
lazy.show("cache")

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
# - `Simulation.from_manifests` replays a real cluster's dump item by item. Its report says what
#   changes scheduling (priorities, topology spread, `matchFields`, resource names and zone labels
#   1.6 did not know), what 1.6 did not have, and what kschedlearn does not model — never
#   silently.
# - A replay is only as complete as its capture: the OpenShift router fits in the replay because
#   the pod that held its ports was not captured.
# - `snapshots="on-demand"` records a replay without snapshots and builds the one of an event
#   when first asked for, in a twin world run as far as you have looked: the same state as
#   teaching mode's, paid for only where you look.
