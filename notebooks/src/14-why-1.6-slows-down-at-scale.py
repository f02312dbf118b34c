# %% [markdown] tags=["objectives"]

# %% [markdown]
# The real Go 1.6 scheduler places about a thousand pods a second on a 100-node cluster and a
# few dozen on a 5,000-node one. This notebook finds out why, by **measuring**: first the shape
# of one `Schedule` call in the Go source, then live profiles at sizes small enough to run in a
# few seconds here, then the project's committed figures for the big shapes. Then it looks at the
# cure 1.6 wrote and never switched on — the *equivalence cache* — and at kschedlearn's
# **accelerated engine**, which finishes that idea and still gives exactly the mirror's answers.
#
# Every time in this notebook is measured when the notebook runs: on a busy machine the numbers
# move (and they change whenever someone speeds up the code), but the *shape* — what grows with
# what — does not.

# %%
import time
from kschedlearn.simulation import scale
from kschedlearn.viz import View
from kschedlearn.viz.scale import bar_chart, cost_structure

# %% [markdown]
# ## 1. The shape of one `Schedule`
#
# For every pod, `genericScheduler.Schedule`
# ([generic_scheduler.go#L86-L131](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/core/generic_scheduler.go#L86-L131))
# lists the nodes, refreshes its snapshot of the cache, then:
#
# 1. **`findNodesThatFit`** ([#L152-L221](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/core/generic_scheduler.go#L152-L221))
#    runs `podFitsOnNode` ([#L223-L237](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/core/generic_scheduler.go#L223-L237))
#    — *every* configured predicate — on *every* node, spread over 16 goroutines with
#    `workqueue.Parallelize(16, len(nodes), checkNode)`
#    ([parallelizer.go](https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/util/workqueue/parallelizer.go#L25-L52)).
#    Work: nodes × predicates. Nothing is remembered for the next pod, even an identical one.
# 2. **`PrioritizeNodes`** ([#L239-L373](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/core/generic_scheduler.go#L239-L373))
#    runs each map-style priority on every node that fit (again `Parallelize(16, …)`), each
#    reduce once, and each *old-style* priority function once over all nodes.
# 3. Two old-style functions are special:
#    - **SelectorSpreadPriority** (`CalculateSpreadPriority`,
#      [selector_spreading.go#L96-L192](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/selector_spreading.go#L96-L192))
#      finds the Services / RCs / ReplicaSets / StatefulSets selecting the pod, then for each
#      node walks **every pod on that node** and matches it against those selectors. Summed over
#      the nodes that is every bound pod in the cluster — per pod scheduled. With a fixed density
#      (pods per node), that is O(nodes × pods per node).
#    - **InterPodAffinityPriority** (`CalculateInterPodAffinityPriority`,
#      [interpod_affinity.go#L113-L236](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/interpod_affinity.go#L113-L236))
#      walks *every* node of the cache (not only those that fit): when the pod has affinity or
#      anti-affinity terms, every pod on them — O(all pods) again; otherwise only the pods that
#      carry affinity terms themselves (cheap here: none do).
# 4. `selectHost` sorts the scores and round-robins among the best.
#
# Go spreads the node loops over the machine's cores; the mirror runs them one after the other
# (kschedlearn's runtime is one thread), so its figures are one core's work.

# %% [markdown]
# ## 2. A live profile at two sizes
#
# The workload is the one the project's benchmark uses (`test/integration/scheduler_perf`'s pod:
# one container, 100m CPU / 500Mi, port 80; one ReplicationController owning every pod and one
# Service selecting them; 4-CPU nodes in three zones, the bound pods spread round robin).
# `scale.build` feeds it through the embedded API server and the informers into the scheduler,
# wired as kube-scheduler 1.6 wires it; each new pod is then `Schedule`d, assumed and added to
# the cache. To time the stages, `scale.instrument_stages` swaps **this scheduler instance's**
# predicate map and priority list for timing wrappers — the mirrored code itself is untouched.
# The wrappers read the cheap wall clock; each stage's share of the run is then applied to the
# CPU time the run used, so other programs on the machine disturb the figures less.
#
# Same density (10 pods per node), 100 then 300 nodes:

# %%
profiles = [scale.profile_stages(scale.make_workload(n, 10 * n, 30)) for n in (100, 300)]
small, big = profiles
print(f"{'stage (CPU ms per pod)':28s} {small.nodes:>5} nodes   {big.nodes:>5} nodes   growth")
for stage, _ in big.seconds:
    a, b = small.per_pod_ms(stage), big.per_pod_ms(stage)
    print(f"{stage:28s} {a:8.2f} ms  {b:8.2f} ms   {b / a if a else float('nan'):5.1f}x")
print(f"{'whole attempt':28s} {small.per_pod_ms():8.2f} ms  {big.per_pod_ms():8.2f} ms   "
      f"{big.per_pod_ms() / small.per_pod_ms():5.1f}x")
untimed = [scale.throughput(scale.make_workload(p.nodes, p.bound, p.pods), "mirrored") for p in profiles]
print(f"{'same, without the timers':28s} " + "  ".join(f"{1e3 * u.cpu_s / u.pods:8.2f} ms" for u in untimed)
      + "   (≈ the whole attempt minus 'timers (estimated)')")
print("biggest stage at each size:", [max((s for s in p.seconds if s[0] != "other"), key=lambda s: s[1])[0]
                                      for p in profiles])

# %%
bar_chart("mirrored engine: milliseconds per pod, by stage (measured now)",
          [(p.shape, [(s, p.per_pod_ms(s)) for s, _ in p.seconds]) for p in profiles], "ms")

# %% [markdown]
# The cluster tripled, nodes *and* pods, and so (within the noise of a shared machine) did
# nearly every stage: the predicates and map priorities because there are three times the nodes,
# SelectorSpread — the biggest single stage — because there are three times the *pods*.
# ("other" is the rest of the attempt — node list, snapshot,
# the node loops themselves, score sums, selectHost, assume; "timers (estimated)" is what the
# timing wrappers themselves cost, calibrated on a no-op the way `cProfile` calibrates.)
# The same figures on the call tree:

# %%
View(cost_structure(profiles))

# %% [markdown]
# To tell "grows with nodes" from "grows with pods", hold the nodes at 100 and add bound pods:

# %%
by_pods = [scale.profile_stages(scale.make_workload(100, m, 20)) for m in (0, 1000, 3000)]
watch = ("SelectorSpreadPriority", "predicates", "LeastRequestedPriority")
print(f"{'bound pods':>10}  " + "  ".join(f"{s:>24}" for s in watch))
for p in by_pods:
    print(f"{p.bound:>10,}  " + "  ".join(f"{p.per_pod_ms(s):21.2f} ms" for s in watch))

# %%
bar_chart("100 nodes, more and more bound pods: ms per pod (measured now)",
          [(f"{p.bound:,} bound pods", [(s, p.per_pod_ms(s)) for s in watch]) for p in by_pods], "ms")

# %% [markdown]
# The predicates and LeastRequested stay flat — they look at each node's *totals* (requested
# CPU and memory are kept summed in `NodeInfo`) — while SelectorSpread climbs with the number of
# pods it has to walk.

# %% [markdown]
# ## 3. Counting work instead of timing it
#
# Times are noisy; call counts are exact. `scale.count_calls` places one pod under `cProfile`
# and counts calls by function. Label-selector `Matches` (who calls it, how often) and
# `GeneralPredicates` (once per node per pod), at two sizes:

# %%
from kschedlearn.apimachinery.labels.selector import InternalSelector
from kschedlearn.scheduler.algorithm.predicates.predicates import general_predicates

for n, m in ((50, 500), (150, 1500)):
    h = scale.build(scale.make_workload(n, m, 1))
    counts = scale.count_calls(h, h.workload.new[0], [InternalSelector.matches, general_predicates])
    print(f"{n} nodes / {m} bound pods:")
    for c in counts.values():
        print(f"   {c.function:26s} {c.calls:6,} calls   by caller: {dict(c.by_caller)}")

# %% [markdown]
# Predict before you check (answers come from a fresh run with `cProfile`):

# %%
from kschedlearn.simulation import questions_scale as QS
from kschedlearn.widgets.predict import PredictCell

# %% tags=["predict"]
PredictCell(QS.spread_walk_question, seed=2, activity="14/spread-walk")

# %% [markdown]
# ## 4. The big shapes — measured on the project's machine, not live
#
# 1,000 and 5,000 nodes take minutes to build and run in this mirror, so those figures are not
# measured here. They come from `benchmarks/bench_scheduler.py --shapes` on the project's machine
# (2 shared cores), committed in
# [benchmarks/README.md](../benchmarks/README.md); the cell below prints its table as it stands
# in this checkout (pods/s, with the real Go 1.6 scheduler on the same files for comparison):

# %%
from pathlib import Path

readme = Path("../benchmarks/README.md")
rows = []
if readme.exists():
    for line in readme.read_text(encoding="utf-8").splitlines():
        if line.startswith("### "):
            if rows:
                break
        elif line.startswith("| small") or line.startswith("| medium") or line.startswith("| large"):
            rows.append(line)
        elif rows and not line.startswith("|"):
            break
print("committed figures (measured on the project's machine, not live):")
print("| shape (nodes / bound / new) | engine | pods/s median (min – max) | pods per CPU-s | p50 ms | p99 ms | Go 1.6 pods/s | hosts = Go's |")
print("\n".join(rows) if rows else "(benchmarks/README.md has no figures table in this checkout)")

# %% [markdown]
# Read the mirrored rows from small (100 nodes / 3,000 pods) to medium (1,000 / 30,000): about
# an order of magnitude slower, and slower again at 5,000 nodes. The Go column shows that the
# algorithm, not Python, is the cause: the real Go 1.6 scheduler falls from over a thousand pods
# a second to a few dozen on the same files, and at the medium shape it spends about 80 % of its
# time in SelectorSpread's walk (the Go profile quoted in `docs/accelerated-engine.md`).

# %% [markdown]
# ## 5. The cure 1.6 wrote and left switched off: the equivalence cache
#
# Two replicas of one controller ask for the same things, so every node-local predicate gives
# them the same verdict on a node that did not change. 1.6 has a file for exactly that,
# `core/equivalence_cache.go`
# ([equivalence_cache.go](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/core/equivalence_cache.go#L31-L134)):
# verdicts kept per node in a small LRU (4,096 entries), keyed by a hash of the pod's
# *equivalence pod* (for the defaults, its controller owner reference), thrown away per node by
# `SendInvalidAlgorithmCacheReq`. But nothing creates one: `Schedule` has only a TODO to call
# `scheduleWithEquivalenceClass`, at line 107 of
# [generic_scheduler.go#L86-L131](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/core/generic_scheduler.go#L86-L131),
# and no event handler sends the invalidations. kschedlearn mirrors the stub for reading
# (`kschedlearn/scheduler/core/equivalence_cache.py`); here it is, used by hand:

# %%
from kschedlearn.scheduler.core.equivalence_cache import new_equivalence_cache
from kschedlearn.scheduler.algorithmprovider.defaults.defaults import get_equivalence_pod
from kschedlearn.scheduler.core import generic_scheduler as core

h = scale.build(scale.make_workload(30, 300, 2))
first, second = h.workload.new
algo, nodes = h.config.algorithm, h.config.node_lister.list()
h.config.scheduler_cache.update_node_name_to_info_map(algo.cached_node_info_map)
fit, failed = core.find_nodes_that_fit(first, algo.cached_node_info_map, nodes, algo.predicates, [],
                                       algo.predicate_meta_producer)
ecache = new_equivalence_cache(get_equivalence_pod)
ecache.add_pod_predicates_cache(first, fit, failed)       # what scheduleWithEquivalenceClass would have done
hit, hit_failed, missing = ecache.get_cached_predicates(second, nodes)
print("equivalence pod of both:", get_equivalence_pod(second).controller_ref.name)
print(f"{len(hit)} nodes answered from the cache, {len(missing)} still to check")
ecache.send_invalid_algorithm_cache_req(nodes[0].metadata.name)   # node-00000 changed
print("after invalidating one node:", len(ecache.get_cached_predicates(second, nodes)[2]), "to check")

# %% [markdown]
# Why it stayed off: keying on the controller alone is unsound (two pods of one controller can
# differ, e.g. mid-rollout), some predicates read more than the node (other pods' affinity,
# Services, volumes), and every cache change has to invalidate exactly the right entries.
# Releases 1.8–1.10 finished it with per-predicate invalidation.

# %% [markdown]
# ## 6. The accelerated engine's trick
#
# `engine="accelerated"` (kschedlearn-only, beside the mirror — `docs/accelerated-engine.md`)
# finishes the idea:
#
# - **Equivalence classes** from everything a node-local check can read of the pod (namespace,
#   labels, annotations, owners, the whole spec) — not just the controller.
# - **Per-(class, node) caches** of predicate verdicts and of map-priority scores, valid while the
#   scheduler's snapshot holds the *same* `NodeInfo` at the *same generation* — every change to
#   a node's pods bumps its generation, so placing a pod invalidates exactly one node.
#   Predicates that read more than the node (ServiceAffinity, volumes, inter-pod affinity with
#   terms) run every time, in the mirror's order.
# - **Incremental spread counts**: SelectorSpread's per-node count of matching pods is kept per
#   (namespace, selectors) and recounted only for nodes whose `NodeInfo` changed.
#
# It must give *exactly* the mirror's answers. On a bundled scenario with affinity, spreading and
# failures, compare every scheduling event (predicate verdicts per node, every priority's score
# per node, the chosen host):

# %%
from kschedlearn import Simulation

SEAMS = ("schedule.predicate_node", "schedule.predicates", "schedule.priorities", "selectHost")

def seams(engine):
    sim = Simulation.from_scenario("spread-and-affinity", seed=1, engine=engine, snapshots=False)
    sim.run()
    return [(e.stage, e.message, repr(e.data)) for e in sim.trace if e.stage in SEAMS]

mirrored, accelerated = seams("mirrored"), seams("accelerated")
print(len(mirrored), "scheduling events; identical with both engines:", mirrored == accelerated)
print("hosts:", [m.removeprefix("selected ") for s, m, _ in mirrored if s == "selectHost"])

# %% [markdown]
# And on the benchmark's shape, the hosts of 100 pods with each engine, and the speed ratio:

# %%
w = scale.make_workload(100, 1000, 100)
runs = {e: scale.throughput(w, e) for e in ("mirrored", "accelerated")}
print("same hosts:", runs["mirrored"].hosts == runs["accelerated"].hosts)
print(f"accelerated / mirrored, per CPU-second: "
      f"{runs['accelerated'].pods_per_cpu_s / runs['mirrored'].pods_per_cpu_s:.1f}x")

# %% [markdown]
# How much predicate work does the second identical replica cost? Predict, then check:

# %% tags=["predict"]
PredictCell(QS.equivalence_question, seed=1, activity="14/equivalence")

# %% [markdown]
# ## 7. Throughput, measured now
#
# Both engines at two small shapes (a fresh scheduler for each run; the wall-clock figure moves
# with the machine's load, pods per CPU-second less so):

# %%
table = [runs["mirrored"], runs["accelerated"]]       # 100 nodes: the runs of section 6
w = scale.make_workload(300, 3000, 40)
for engine in ("mirrored", "accelerated"):
    table.append(scale.throughput(w, engine))
print("| shape | engine | pods/s | pods per CPU-s | same hosts as mirrored |")
print("|---|---|---|---|---|")
for i, r in enumerate(table):
    same = r.hosts == table[i - i % 2].hosts
    print(f"| {r.shape} | {r.engine} | {r.pods_per_s:,.1f} | {r.pods_per_cpu_s:,.1f} | {'yes' if same else 'NO'} |")

# %%
bar_chart("pods per CPU-second (measured now; longer is faster)",
          [(shape, [(r.engine, r.pods_per_cpu_s) for r in table if r.shape == shape])
           for shape in dict.fromkeys(r.shape for r in table)], "pods/CPU-s")

# %% [markdown]
# The mirror slows down as the cluster grows, because it is 1.6. The accelerated engine does
# far less work per pod (compare the two shapes' ratios above): what it still does per pod is O(nodes) bookkeeping (node list, snapshot, one
# cache lookup per node, score sums, selectHost's sort) — the O(all pods) walk is gone.

# %% [markdown]
# ## Your turn
#
# Write your prediction in place of `None` and run the cell: the answer is measured (or counted)
# now, on a fresh harness. Then try it yourself with `scale.profile_stages` and
# `scale.count_calls`.
#
# **1.** Profile each predicate separately (`scale.profile_stages(scale.make_workload(100, 1000,
# 20), per_predicate=True)`). Which predicate costs the most per pod?

# %% tags=["ask"]
from kschedlearn.curriculum import ask

ask("14/costliest-predicate", None)

# %% [markdown]
# **2.** 50 nodes, 300 bound replicas; half of them get the label `app=other`, so neither the
# Service nor the RC selects them any more. How many times does SelectorSpread call a selector's
# `Matches` for the next replica? (It still *visits* every pod of the namespace.)

# %% tags=["ask"]
ask("14/relabelled", None)

# %% [markdown] tags=["recap"]
# ## Recap
#
# - One 1.6 `Schedule` runs every predicate on every node and every priority on every node that
#   fits (`Parallelize(16, …)`); nothing carries over to the next pod.
# - **SelectorSpreadPriority** walks every pod of every node and matches it against the pod's
#   Service/RC selectors: per pod scheduled, work ∝ all bound pods — the biggest stage, and it
#   grows with pods while the predicates grow with nodes.
# - From 100 to 1,000 nodes that costs the mirror — and Go 1.6 itself — about an order of
#   magnitude in pods per second (committed figures in `benchmarks/README.md`).
# - 1.6 wrote an **equivalence cache** (`core/equivalence_cache.go`) but never calls it — a TODO
#   in `Schedule`.
# - The **accelerated engine** finishes it: equivalence classes, per-(class, node) caches
#   invalidated by `NodeInfo` generation, incremental spread counts — same placements and
#   scores, far less work.
