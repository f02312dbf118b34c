# %% [markdown] tags=["objectives"]

# %% [markdown]
# Scheduling a pod in kube-scheduler 1.6 has two phases. First the **predicates** filter the
# nodes: each predicate is a yes/no test ("does the pod fit in the free CPU?", "does the node
# carry a taint the pod does not tolerate?"). Then the **priorities** rank the nodes that are
# left (notebook 07). This notebook covers the filter.
#
# Where it lives in v1.6.1:
# [predicates.go](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/predicates/predicates.go),
# the failure reasons in [error.go](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/predicates/error.go#L25-L103),
# and the loop that runs them, `findNodesThatFit` / `podFitsOnNode` in
# [generic_scheduler.go#L152-L237](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/core/generic_scheduler.go#L152-L237).
# The Python mirror: `kschedlearn/scheduler/algorithm/predicates/predicates.py` and
# `kschedlearn/scheduler/core/generic_scheduler.py`.
#
# A predicate has the shape `predicate(pod, meta, node_info) -> (fits, reasons)`; `meta` is
# optional precomputed data about the pod (it may be `None`: every predicate then computes what
# it needs itself). A predicate that hits an *error* (not a "no") raises, and that aborts the
# whole scheduling attempt.

# %%
from kschedlearn import Simulation
from kschedlearn.api.v1 import Node, Pod
from kschedlearn.scheduler.schedulercache.node_info import new_node_info
from kschedlearn.scheduler.algorithm.predicates import predicates as P
from kschedlearn.scheduler.factory import plugins

# %% [markdown]
# ## The predicates of the DefaultProvider
#
# The default algorithm provider registers ten predicate keys
# ([defaults.go](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithmprovider/defaults/defaults.go#L37-L241)).
# A few more are registered but only usable from a policy file (notebook 10).

# %%
reg = plugins.default_registry()
default_keys = sorted(reg.algorithm_provider_map["DefaultProvider"].fit_predicate_keys)
print("DefaultProvider:", default_keys)
print("policy-only:    ", sorted(set(reg.fit_predicate_map) - set(default_keys)))

# %% [markdown]
# | key | what it checks | failure reason (`get_reason()`) |
# |---|---|---|
# | `GeneralPredicates` | runs PodFitsResources, then PodFitsHost, PodFitsHostPorts, PodSelectorMatches, collecting all reasons | the sub-predicates' reasons |
# | ↳ `PodFitsResources` | pod count, then cpu / memory / GPU / opaque ints: `allocatable < request + already requested` fails | `Insufficient cpu`, `Insufficient memory`, `Insufficient pods`, … |
# | ↳ `HostName` (PodFitsHost) | if `spec.nodeName` is set, it must be this node | `HostName` |
# | ↳ `PodFitsHostPorts` | no wanted `hostPort` already used on the node (protocol ignored) | `PodFitsHostPorts` |
# | ↳ `MatchNodeSelector` | `spec.nodeSelector` and required node affinity match the node labels | `MatchNodeSelector` |
# | `NoDiskConflict` | GCE PD / EBS / RBD / iSCSI volume already mounted by a pod on the node | `NoDiskConflict` |
# | `NoVolumeZoneConflict` | the PVs' zone/region labels equal the node's | `NoVolumeZoneConflict` |
# | `MaxEBSVolumeCount`, `MaxGCEPDVolumeCount`, `MaxAzureDiskVolumeCount` | at most 39 / 16 / 16 distinct volumes per node (`KUBE_MAX_PD_VOLS`) | `MaxVolumeCount` |
# | `MatchInterPodAffinity` | required pod (anti-)affinity, of the pod and of pods already there | `MatchInterPodAffinity` |
# | `PodToleratesNodeTaints` | every `NoSchedule`/`NoExecute` taint is tolerated | `PodToleratesNodeTaints` |
# | `CheckNodeMemoryPressure` | a **BestEffort** pod may not go to a node with MemoryPressure | `NodeUnderMemoryPressure` |
# | `CheckNodeDiskPressure` | **no** pod may go to a node with DiskPressure | `NodeUnderDiskPressure` |
#
# Each predicate's exact rules are in its Go source, linked from the docstring of its Python
# mirror (`help(P.pod_fits_resources)` shows the link), in
# [predicates.go](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/predicates/predicates.go).

# %% [markdown]
# ## Running predicates by hand
#
# Two small helpers to build a node and a pod from manifest dicts, then a `NodeInfo` — the
# scheduler cache's per-node summary (`new_node_info(*pods)` then `set_node(node)`, as in
# [node_info.go](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/node_info.go)).

# %%
def node(name, cpu="2", mem="4Gi", labels=None, taints=(), conditions=None):
    res = {"cpu": cpu, "memory": mem, "pods": "110"}
    return Node.from_dict({"metadata": {"name": name, "labels": labels or {}},
                           "spec": {"taints": list(taints)},
                           "status": {"capacity": res, "allocatable": res,
                                      "conditions": conditions or [{"type": "Ready", "status": "True"}]}})

def pod(name, cpu=None, mem=None, host_port=None, **spec):
    req = {k: v for k, v in (("cpu", cpu), ("memory", mem)) if v}
    c = {"name": "c", "image": "nginx", "resources": {"requests": req} if req else {}}
    if host_port:
        c["ports"] = [{"containerPort": host_port, "hostPort": host_port}]
    return Pod.from_dict({"metadata": {"name": name, "namespace": "default"},
                          "spec": {"containers": [c], **spec}})

n1 = new_node_info(pod("already-there", cpu="1500m", mem="1Gi", host_port=80, nodeName="n1"))
n1.set_node(node("n1", labels={"disk": "hdd"}))
print(n1)

# %% [markdown]
# `n1` has 2 CPUs and already runs a pod asking 1.5 CPU. A pod asking 1 CPU does not fit:

# %%
fits, reasons = P.pod_fits_resources(pod("x", cpu="1", mem="1Gi"), None, n1)
print(fits, [r.get_reason() for r in reasons])
print(str(reasons[0]))

# %% [markdown]
# The check is a strict `<`: a pod that fills the node *exactly* fits.

# %%
print(P.pod_fits_resources(pod("exact", cpu="500m"), None, n1))
print(P.pod_fits_resources(pod("one-milli-too-many", cpu="501m"), None, n1)[0])

# %% [markdown]
# **GeneralPredicates** runs its four parts one after another and keeps *every* reason — here
# the pod is too big, is pinned to another node, wants the busy host port 80, and asks for an
# SSD node:

# %%
greedy = pod("greedy", cpu="1", host_port=80, nodeName="n2", nodeSelector={"disk": "ssd"})
fits, reasons = P.general_predicates(greedy, None, n1)
print(fits, [r.get_reason() for r in reasons])

# %% [markdown]
# Taints and node conditions. `t1` carries a `NoSchedule` taint and reports both MemoryPressure
# and DiskPressure. The memory check only turns away **BestEffort** pods (no requests or limits
# at all); the disk check turns away everyone.

# %%
t1 = new_node_info()
t1.set_node(node("t1", taints=[{"key": "dedicated", "value": "gpu", "effect": "NoSchedule"}],
                 conditions=[{"type": "Ready", "status": "True"},
                             {"type": "MemoryPressure", "status": "True"},
                             {"type": "DiskPressure", "status": "True"}]))
best_effort, burstable = pod("be"), pod("bu", cpu="100m")
tolerant = pod("tol", cpu="100m", tolerations=[{"key": "dedicated", "operator": "Equal",
                                                "value": "gpu", "effect": "NoSchedule"}])
for name, fn in [("taints", P.pod_tolerates_node_taints),
                 ("memory", P.check_node_memory_pressure_predicate),
                 ("disk", P.check_node_disk_pressure_predicate)]:
    print(f"{name:7}", {p.metadata.name: fn(p, None, t1)[0] for p in (best_effort, burstable, tolerant)})

# %% [markdown]
# **Exercises 6.1 and 6.2** — `PodFitsResources` and `PodFitsHostPorts`: [06-1-pod-fits-resources](../exercises/06-1-pod-fits-resources.ipynb), [06-2-pod-fits-host-ports](../exercises/06-2-pod-fits-host-ports.ipynb).

# %% [markdown]
# ## The non-zero defaults are for priorities only
#
# A container without requests counts as **100m CPU and 200 MiB** — but only for the
# *priorities* and `NodeInfo.nonzero_request()`, never for the predicates
# ([non_zero.go](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/util/non_zero.go#L21-L50)).
# So a node "full" of request-less pods still fits any number of them (up to the pod count):

# %%
crowd = [pod(f"nr-{i}", nodeName="small") for i in range(30)]
small = new_node_info(*crowd)
small.set_node(node("small", cpu="1", mem="1Gi"))
print("requested (predicates see):", small.requested_resource())
print("non-zero  (priorities see):", small.nonzero_request())
print("one more request-less pod fits?", P.pod_fits_resources(pod("nr-31"), None, small)[0])

# %% [markdown]
# ## Inside the scheduler: every predicate on every node
#
# `podFitsOnNode` runs **all** predicates for a node, even after one has failed (1.6 has no
# short circuit), so the failure table is complete. The nodes are checked by 16 parallel
# workers (`workqueue.Parallelize`).
#
# The scenario `unschedulable-then-fits`: two nodes with 2 CPUs, and a pod `big-1` that asks
# for 6. Let us stop when the scheduler has given up on the first attempt.

# %%
sim = Simulation.from_scenario("unschedulable-then-fits", seed=1)
ev = sim.run_until("error.backoff")
print(ev.time, ev.stage, "—", ev.message)
for e in sim.trace:
    if e.stage == "schedule.predicate_node":
        failing = {k: v for k, v in e.data["predicates"].items() if v}
        print(e.data["node"], "fits" if e.data["fits"] else "does not fit", failing,
              f"({len(e.data['predicates'])} predicates ran)")

# %% [markdown]
# The `decision` view draws the same table: predicates × nodes, with the reasons.

# %%
sim.show("decision")

# %% [markdown]
# ## The FitError and its double colon
#
# No node fits, so `Schedule` returns a `FitError`. Its text is a **histogram** of the reasons
# over all nodes, sorted as strings — with 1.6's odd `::`
# ([generic_scheduler.go NoNodeAvailableMsg and FitError.Error](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/core/generic_scheduler.go#L47-L68)).
# The scheduler logs it, writes it into a `FailedScheduling` event and into the pod's
# `PodScheduled=False` condition:

# %%
for e in sim.trace:
    if e.stage == "log" and "Error scheduling" in e.message:
        print("log:  ", e.message)
sim.run_until("fifo.add")      # the condition update comes back through the watch
print("event:", [(ev.reason, ev.message) for ev in sim.world.api.storage.items("events")])
pod_obj = sim.world.api.get("pods", "default", "big-1")
print("condition:", [(c.type, c.status, c.reason, c.message) for c in pod_obj.status.conditions])

# %% [markdown]
# We can build a FitError ourselves: the histogram counts (node, reason) pairs.

# %%
from kschedlearn.scheduler.core.generic_scheduler import FitError
from kschedlearn.scheduler.algorithm.predicates import error as perr
failed = {
    "n1": [perr.new_insufficient_resource_error("cpu", 1000, 1500, 2000), perr.ERR_NODE_SELECTOR_NOT_MATCH],
    "n2": [perr.new_insufficient_resource_error("cpu", 1000, 1900, 2000)],
    "n3": [perr.ERR_TAINTS_TOLERATIONS_NOT_MATCH, perr.ERR_NODE_UNDER_DISK_PRESSURE],
}
print(FitError(greedy, failed))

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
PredictCell(partial(Q.failing_predicate_question, scenario="spread-and-affinity"), seed=1,
            activity="06/failing-predicate")

# %% tags=["predict"]
PredictCell(partial(Q.failing_predicate_question, scenario="unschedulable-then-fits"), seed=1,
            activity="06/failing-predicate-big")

# %% [markdown]
# ## Your turn
#
# Write your prediction in place of `None` and run the cell: the mirrored predicates answer.
# Then build the case with `pod(...)`, `node(...)` and `new_node_info(...)` above and run the
# predicate yourself.
#
# **1.** Make `greedy` fit on `n1` by dropping things: `less-greedy` asks 500m CPU with
# `nodeSelector: {disk: hdd}` — no host port, no node name. Which failure reasons does
# `P.general_predicates(less_greedy, None, n1)` still report? (`[]` if it fits.)

# %% tags=["ask"]
from kschedlearn.curriculum import ask

ask("06/first-reason", None)

# %% [markdown]
# **2.** A node `small` with 1 CPU runs 19 pods of 50m each. What is the largest CPU request,
# in millicores, that a new pod can have and still fit?

# %% tags=["ask"]
ask("06/crowd50", None)

# %% [markdown]
# **3.** `n1` runs a pod with TCP hostPort 80. A new pod wants hostPort 80 over **UDP**. Does
# 1.6 care about the protocol?

# %% tags=["ask"]
ask("06/udp-port", None)

# %% [markdown] tags=["recap"]
# ## Recap
#
# - A predicate answers "can this node run the pod?" with `fits` and failure **reasons**.
# - 1.6 runs **every** predicate on **every** node (no short-circuit), so a node collects all its reasons.
# - `GeneralPredicates` bundles resources, host name, host ports and node selector; the pressure
#   predicates, taints, volumes and inter-pod affinity are separate.
# - The non-zero request defaults (100m CPU, 200Mi) are for the priorities only; predicates use the
#   real requests.
# - When no node fits, the FitError message lists the reasons per node (with its 1.6 double colon).
