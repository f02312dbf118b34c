# %% [markdown] tags=["objectives"]

# %% [markdown]
# After the predicates (notebook 06) have kept the nodes that *can* run the pod, the
# **priorities** give each of them a score from 0 to 10. Every priority has a weight; a node's
# total is Σ score × weight, and `selectHost` picks the highest total.
#
# Source: [PrioritizeNodes, generic_scheduler.go#L239-L373](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/core/generic_scheduler.go#L239-L373),
# [selectHost, #L133-L150](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/core/generic_scheduler.go#L133-L150),
# the priorities in [algorithm/priorities/](https://github.com/kubernetes/kubernetes/tree/v1.6.1/plugin/pkg/scheduler/algorithm/priorities).
# Python: `kschedlearn/scheduler/algorithm/priorities/*.py`, `kschedlearn/scheduler/core/generic_scheduler.py`.

# %%
from kschedlearn import Simulation
from kschedlearn.api.v1 import Node, Pod
from kschedlearn.scheduler.schedulercache.node_info import new_node_info
from kschedlearn.scheduler.factory import plugins
from kschedlearn.scheduler.algorithm.priorities.least_requested import least_requested_priority_map
from kschedlearn.scheduler.algorithm.priorities.balanced_resource_allocation import balanced_resource_allocation_map

# %% [markdown]
# ## The DefaultProvider's priorities and weights
#
# Seven priorities, all weight 1 — except **NodePreferAvoidPodsPriority, weight 10000**. A node
# whose `scheduler.alpha.kubernetes.io/preferAvoidPods` annotation names the pod's
# ReplicationController/ReplicaSet scores 0 there, and loses 100 000 points: nothing else can
# make up for that. Every other node gets 10 × 10000, which is why totals look like `1000xx`.

# %%
reg = plugins.default_registry()
for key in sorted(reg.algorithm_provider_map["DefaultProvider"].priority_function_keys):
    f = reg.priority_function_map[key]
    print(f"{key:30} weight {f.weight:>5}   {'old-style Function' if f.function else 'Map (+ Reduce)'}")

# %% [markdown]
# ## A real decision
#
# In `three-nodes`, the pod `web-1` (500m CPU, 512 MiB) can go anywhere. Stop at `selectHost`
# and look at the table: one row per priority, one column per node.

# %%
sim = Simulation.from_scenario("three-nodes", seed=1)
ev = sim.run_until("selectHost")
d = sim.decision("default/web-1")[-1]
print(f"{'':30}", "  ".join(f"{n:>7}" for n in d.scored_nodes))
for name, w, row in zip(d.names, d.weights, d.scores):
    print(f"{name:24} ×{w:<5}", "  ".join(f"{s:>7}" for s in row))
print(f"{'total':30}", "  ".join(f"{t:>7}" for _, t in d.totals))
print("chosen:", d.host)

# %%
sim.show("decision")

# %% [markdown]
# ## LeastRequested and BalancedResourceAllocation by hand
#
# Both use the **non-zero** requests (100m / 200 MiB for a container without requests) of the
# pod *plus* everything already on the node, against the node's **allocatable**:
#
# * LeastRequested: per resource `((capacity - requested) * 10) // capacity`, then the two
#   integer scores averaged with `//` ([least_requested.go](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/least_requested.go#L29-L91)).
# * BalancedResourceAllocation: `int(10 - abs(cpuFraction - memFraction) * 10)` — it likes nodes
#   whose CPU and memory are used in the same proportion ([balanced_resource_allocation.go](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/balanced_resource_allocation.go#L51-L116)).
#
# node-2 has 4 CPUs / 8 GiB and already runs `db-0` (1 CPU, 2 GiB); web-1 asks 500m / 512 MiB:

# %%
Mi = 1024 * 1024
cap_cpu, cap_mem = 4000, 8192 * Mi
req_cpu, req_mem = 1000 + 500, (2048 + 512) * Mi
cpu_score = (cap_cpu - req_cpu) * 10 // cap_cpu
mem_score = (cap_mem - req_mem) * 10 // cap_mem
print("LeastRequested by hand:", cpu_score, mem_score, "->", (cpu_score + mem_score) // 2)
print("Balanced by hand:      ", int(10 - abs(req_cpu / cap_cpu - req_mem / cap_mem) * 10))

# %% [markdown]
# The same with the mirrored functions, on a NodeInfo built by hand:

# %%
def node(name, cpu, mem, labels=None, taints=(), annotations=None):
    res = {"cpu": cpu, "memory": mem, "pods": "110"}
    return Node.from_dict({"metadata": {"name": name, "labels": labels or {}, "annotations": annotations or {}},
                           "spec": {"taints": list(taints)},
                           "status": {"capacity": res, "allocatable": res}})

def pod(name, cpu=None, mem=None, node_name="", **spec):
    req = {k: v for k, v in (("cpu", cpu), ("memory", mem)) if v}
    return Pod.from_dict({"metadata": {"name": name, "namespace": "default"},
                          "spec": {"nodeName": node_name, **spec,
                                   "containers": [{"name": "c", "image": "x", "resources": {"requests": req}}]}})

node2 = new_node_info(pod("db-0", "1", "2Gi", "node-2"))
node2.set_node(node("node-2", "4", "8Gi"))
web1 = pod("web-1", "500m", "512Mi")
print(least_requested_priority_map(web1, None, node2))
print(balanced_resource_allocation_map(web1, None, node2))

# %% [markdown]
# Check against the scheduler's own row for node-2 above:

# %%
col = d.scored_nodes.index("node-2")
print({name: row[col] for name, row in zip(d.names, d.scores)
       if name in ("LeastRequestedPriority", "BalancedResourceAllocation")})

# %% [markdown]
# A pod **without** requests still counts 100m / 200 MiB here (not in the predicates!):

# %%
print(least_requested_priority_map(pod("no-req"), None, node2))
print("by hand:", ((4000 - 1100) * 10 // 4000 + (8192 * Mi - 2048 * Mi - 200 * Mi) * 10 // (8192 * Mi)) // 2)

# %% [markdown]
# **Exercises 7.1 and 7.2** — the two resource priorities: [07-1-least-requested](../exercises/07-1-least-requested.ipynb), [07-2-balanced-resource-allocation](../exercises/07-2-balanced-resource-allocation.ipynb).

# %% [markdown]
# ## NodeAffinity and TaintToleration: map, then reduce
#
# These two are *map/reduce* priorities: the map gives each node a raw count, the reduce
# normalises the counts over all nodes to 0..10.
#
# * NodeAffinity: the map sums the weights of the pod's *preferred* node-affinity terms that
#   match; the reduce scales by the maximum ([node_affinity.go](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/node_affinity.go#L29-L101)).
# * TaintToleration: the map counts `PreferNoSchedule` taints the pod does not tolerate; the
#   reduce turns "fewest" into 10 ([taint_toleration.go](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/taint_toleration.go#L28-L108)).

# %%
from kschedlearn.scheduler.algorithm.priorities.node_affinity import (
    calculate_node_affinity_priority_map, calculate_node_affinity_priority_reduce)
from kschedlearn.scheduler.algorithm.priorities.taint_toleration import (
    compute_taint_toleration_priority_map, compute_taint_toleration_priority_reduce)

infos = {}
for name, labels, taints in [
    ("ssd-fast", {"disk": "ssd", "net": "10g"}, []),
    ("ssd", {"disk": "ssd"}, [{"key": "spot", "value": "yes", "effect": "PreferNoSchedule"}]),
    ("hdd", {"disk": "hdd"}, [{"key": "spot", "value": "yes", "effect": "PreferNoSchedule"},
                              {"key": "old", "value": "yes", "effect": "PreferNoSchedule"}]),
]:
    infos[name] = new_node_info()
    infos[name].set_node(node(name, "4", "8Gi", labels, taints))

picky = pod("picky", "100m", affinity={"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
    {"weight": 3, "preference": {"matchExpressions": [{"key": "disk", "operator": "In", "values": ["ssd"]}]}},
    {"weight": 1, "preference": {"matchExpressions": [{"key": "net", "operator": "Exists"}]}}]}})

for label, map_fn, reduce_fn in [("NodeAffinity", calculate_node_affinity_priority_map, calculate_node_affinity_priority_reduce),
                                 ("TaintToleration", compute_taint_toleration_priority_map, compute_taint_toleration_priority_reduce)]:
    result = [map_fn(picky, None, ni) for ni in infos.values()]
    raw = [hp.score for hp in result]
    reduce_fn(picky, None, infos, result)
    print(f"{label:16} map {raw} -> reduce {[hp.score for hp in result]}")

# %% [markdown]
# NodeAffinity: counts 4, 3, 0 → `int(10 * count / 4)` = 10, 7, 0. TaintToleration: 0, 1, 2
# intolerable taints → `int((1 - count/2) * 10)` = 10, 5, 0.
#
# ## SelectorSpread and InterPodAffinity: whole-list functions
#
# These two are *old-style* functions: they see all candidate nodes at once.
#
# * **SelectorSpreadPriority** finds the Services / RCs / ReplicaSets / StatefulSets that select
#   the pod, counts their pods per node and per zone, and gives fewer → higher: node part
#   `10 * (maxNode - count) / maxNode`, mixed with the zone part with weight **2/3** when nodes
#   have zone labels (float32 math) ([selector_spreading.go](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/selector_spreading.go#L33-L192)).
# * **InterPodAffinityPriority** adds the weights of preferred (anti-)affinity terms — the
#   pod's, and the existing pods' (symmetry; a required affinity of an existing pod counts
#   `--hard-pod-affinity-symmetric-weight`, default 1) — per topology domain, then scales to
#   0..10 with 0 always inside [min, max] ([interpod_affinity.go](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/interpod_affinity.go#L34-L236)).
#
# The scenario `spread-and-affinity` has six nodes in three zones and a ReplicaSet `web` whose
# six replicas arrive one per second. Look at the SelectorSpread row for `web-3`, after web-1
# went to `c-1` (zone-c) and web-2 to `b-1` (zone-b):

# %%
spread = Simulation.from_scenario("spread-and-affinity", seed=1)
spread.run_until("selectHost", pod="default/web-3")
d3 = spread.decision("default/web-3")[-1]
print("nodes:         ", d3.scored_nodes)
print("SelectorSpread:", d3.scores[d3.names.index("SelectorSpreadPriority")])
print("chosen:", d3.host)

# %% [markdown]
# **Exercise 7.4** — SelectorSpread's zone-weighted, float32 reduce step: [07-4-selector-spread](../exercises/07-4-selector-spread.ipynb).

# %% [markdown]
# `b-1` and `c-1` already hold a replica: 0. `a-1`, `a-2` are in an empty zone: 10. `b-2` has
# no replica itself (node part 10) but its zone has one (zone part 0):
# `10 × 1/3 + 0 × 2/3 = 3.33` → 3. (What happened to **web-1**, the first replica, is a 1.6
# bug — see notebook 11.)
#
# ## selectHost: score descending, name descending, round robin
#
# `selectHost` sorts by score **descending**, ties by host name **descending**, counts how many
# share the top score, and picks `ranked[lastNodeIndex % ties]`, then increments
# `lastNodeIndex` — **one counter for all pods**, bumped on every successful selection.
#
# Five identical request-less pods on three identical big nodes: every score ties.

# %%
from kschedlearn.scenarios.scenario import parse_scenario

def node_yaml(name):
    return f"""
  - kind: Node
    apiVersion: v1
    metadata: {{name: {name}, labels: {{kubernetes.io/hostname: {name}}}}}
    status:
      capacity: {{cpu: "64", memory: 256Gi, pods: "110"}}
      allocatable: {{cpu: "64", memory: 256Gi, pods: "110"}}
      conditions: [{{type: Ready, status: "True"}}]"""

def pod_yaml(i):
    return f"""
  - at: {i}
    create:
      kind: Pod
      apiVersion: v1
      metadata: {{name: rr-{i}, namespace: default}}
      spec: {{containers: [{{name: c, image: pause}}]}}"""

text = ("name: round-robin\nduration: 8\nfollow: default/rr-1\n"
        "schedulers:\n  - name: scheduler-0\n    flags: [\"--leader-elect=false\"]\nobjects:"
        + "".join(node_yaml(n) for n in ("n-a", "n-b", "n-c"))
        + "\ntimeline:" + "".join(pod_yaml(i) for i in range(1, 6)))
rr = Simulation(scenario=parse_scenario(text), seed=1)
rr.run()
for e in rr.trace:
    if e.stage == "selectHost":
        print(e.data["pod"], "ranked", [h for h, _ in e.data["ranked"]], "ties", e.data["ties"],
              "lastNodeIndex", e.data["last_node_index"], "->", e.data["host"])

# %% [markdown]
# The ranked list is always `n-c, n-b, n-a` (names descending) and the counter walks through
# it: `0 % 3 → n-c`, `1 % 3 → n-b`, `2 % 3 → n-a`, `3 % 3 → n-c`, … The mirror is
# `GenericScheduler._select_host`; we can call it on a fresh scheduler:

# %%
from kschedlearn.scheduler.api import HostPriority
from kschedlearn.scheduler.core.generic_scheduler import new_generic_scheduler
import inspect
print(inspect.signature(new_generic_scheduler))

# %%
g = new_generic_scheduler(None, {}, None, [], None, [])
scores = [HostPriority(host="alpha", score=7), HostPriority(host="beta", score=9), HostPriority(host="gamma", score=9)]
print([g._select_host(scores) for _ in range(4)])

# %% [markdown]
# **Exercise 7.3** — `selectHost`'s round robin: [07-3-select-host](../exercises/07-3-select-host.ipynb).

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
PredictCell(partial(Q.winner_question, scenario="spread-and-affinity"), seed=1, activity="07/winner-spread")

# %% tags=["predict"]
PredictCell(partial(Q.winner_question, scenario="ha-failover"), seed=1, activity="07/winner-ha")

# %% [markdown]
# ## Your turn
#
# Write your prediction in place of `None` and run the cell: the mirrored priorities, or a run of
# the scenario, answer. Then change the cells above and look.
#
# **1.** `hdd` gets a third `PreferNoSchedule` taint, `team=ml`, and `picky` tolerates it. What
# are the TaintToleration scores of `ssd-fast`, `ssd` and `hdd` after the reduce?

# %% tags=["ask"]
from kschedlearn.curriculum import ask

ask("07/taint-score", None)

# %% [markdown]
# **2.** In the round-robin scenario give `n-a` 128 CPUs (the others keep 64). Where do
# `rr-1` … `rr-5` go — does the counter still matter?

# %% tags=["ask"]
ask("07/counter-matters", None)

# %% [markdown]
# **3.** What does 1.6's `selectHost` do with an empty list (`g._select_host([])`)?

# %% tags=["ask"]
ask("07/empty-select", None)

# %% [markdown] tags=["recap"]
# ## Recap
#
# - Each priority scores each node 0–10; the score is multiplied by its weight and summed.
# - LeastRequested and BalancedResourceAllocation use the non-zero requests; NodeAffinity and
#   TaintToleration are map/reduce; SelectorSpread and InterPodAffinity look at the whole list.
# - `NodePreferAvoidPodsPriority` has weight 10000: it dominates whenever it differs.
# - `selectHost` sorts by score (then name) descending and breaks ties **round-robin** with a
#   counter that moves on every call — the same pod can land elsewhere on a retry.
