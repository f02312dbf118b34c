# %% [markdown] tags=["objectives"]

# %% [markdown]
# By default kube-scheduler uses the algorithm provider `DefaultProvider` (notebooks 06–07).
# With `--policy-config-file=policy.json` it instead reads a **Policy** that lists predicates and
# priorities by name — built-in ones, argument-based ones (label presence, label preference,
# service affinity), and HTTP extenders. `createScheduler` then calls `CreateFromConfig`
# instead of `CreateFromProvider`.
#
# Source: [api/v1/types.go](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/api/v1/types.go#L27-L173),
# [validation.go ValidatePolicy](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/api/validation/validation.go#L26-L43),
# [CreateFromConfig, factory.go#L309-L342](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/factory/factory.go#L309-L342),
# [plugins.go](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/factory/plugins.go#L35-L430).
# Python: `kschedlearn/scheduler/api/v1/types.py` (`load_policy`), `kschedlearn/scheduler/factory/plugins.py`.

# %%
import json, attrs
from kschedlearn import Simulation
from kschedlearn.scheduler.api.v1.types import load_policy, PolicyError
from kschedlearn.scheduler.factory import plugins
_ = plugins.reset_registry()  # start from what 1.6 registers at start-up

# %% [markdown]
# ## What a policy looks like
#
# Upstream's compatibility test keeps one policy per release (1.0 … 1.4)
# ([compatibility_test.go](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithmprovider/defaults/compatibility_test.go));
# kschedlearn ships them in `kschedlearn/scheduler/api/policy_examples.json`. The 1.4 one:

# %%
import importlib.resources
examples = json.loads((importlib.resources.files("kschedlearn.scheduler.api") / "policy_examples.json").read_text())["cases"]
print([c["version"] for c in examples])
v14 = [c for c in examples if c["version"] == "1.4"][0]["policy_json"]
print(v14[:900])

# %%
policy = load_policy(v14)
print(len(policy.predicates), "predicates,", len(policy.priorities), "priorities")
print([p.name for p in policy.priorities], [p.weight for p in policy.priorities])

# %% [markdown]
# Decoding errors name the field:

# %%
try:
    load_policy('{"kind": "Policy", "apiVersion": "v1", "priorities": [{"name": "X", "weight": "heavy"}]}')
except PolicyError as err:
    print(err)

# %% [markdown]
# ## The bundled `policy-file` scenario
#
# Its policy keeps resources/ports/host/selector checks, adds a **LabelsPresence** predicate
# `RequireSSD` (node must have label `disktype`) and a **LabelPreference** priority `PreferFast`
# (weight 5: nodes labelled `fast` score 10).

# %%
pf = Simulation.from_scenario("policy-file", seed=1)
print(dict(pf.scenario.files)["policy.json"])
pf.run()
for e in pf.trace:
    if e.stage in ("CreateFromConfig", "CreateFromKeys"):
        print(e.stage, "—", e.message)
    if e.stage == "selectHost":
        print(e.data["pod"], "->", e.data["host"], e.data["ranked"])

# %% [markdown]
# `plain-1` and `plain-2` never appear: they fail `RequireSSD` with reason
# `CheckNodeLabelPresence`. The first four pods go to `ssd-fast` (5 × 10 points from PreferFast),
# then it is full:

# %%
d = pf.decision("default/db-5")[-1]
print({v.node: [r for _, rs in v.predicates for r in rs] for v in d.verdicts})

# %% [markdown]
# ## Your own predicate and priority
#
# In Go you would add a function to the registry in an `init()` and rebuild the binary. Here the
# registry is a Python object: `register_fit_predicate(name, fn)` and
# `register_priority_function2(name, map_fn, reduce_fn, weight)`. A policy then names them
# (without an argument, the policy reuses what is registered under that name, with the
# **policy's** weight).
#
# A predicate returns `(fits, reasons)`. Careful: 1.6's `podFitsOnNode` decides "fits" by
# **whether any reasons were collected**, so a predicate that says `False` with no reason does
# not filter anything. Always return a reason:

# %%
from kschedlearn.scheduler.algorithm.predicates.error import new_failure_reason
from kschedlearn.scheduler.api import HostPriority

def even_node(pod, meta, node_info):
    ok = node_info.node().metadata.name[-1] in "02468"
    return ok, ([] if ok else [new_failure_reason("OddNode")])

def short_name(pod, meta, node_info):
    name = node_info.node().metadata.name
    return HostPriority(host=name, score=max(0, 10 - len(name)))

plugins.register_fit_predicate("EvenNode", even_node)
plugins.register_priority_function2("ShortName", short_name, None, 1)

my_policy = {"kind": "Policy", "apiVersion": "v1",
             "predicates": [{"name": "PodFitsResources"}, {"name": "EvenNode"}],
             "priorities": [{"name": "ShortName", "weight": 3}, {"name": "LeastRequestedPriority", "weight": 1}]}

def with_policy(doc):
    sc = attrs.evolve(pf.scenario, files=(("policy.json", json.dumps(doc)),))
    return Simulation(scenario=sc, seed=1)

mine = with_policy(my_policy)
mine.run()
for e in mine.trace:
    if e.stage == "selectHost":
        print(e.data["pod"], "->", e.data["host"], e.data["ranked"])

# %% [markdown]
# Only `plain-2` ends in an even digit; once it is full (4 CPUs, 1 CPU per pod) the rest fit
# nowhere, and the FitError lists our reason:

# %%
print(mine.world.runtime.crashes)
print({ev.message for ev in mine.world.api.storage.items("events") if ev.reason == "FailedScheduling"})

# %%
mine.goto(0)
mine.run_until("selectHost", pod="default/db-1")
mine.show("decision", pod="default/db-1")

# %% [markdown]
# **Exercise 10.1** — a custom predicate and priority through a policy file: [10-1-custom-policy](../exercises/10-1-custom-policy.ipynb).

# %% [markdown]
# ## Invalid policies
#
# An unknown predicate name is a **fatal** error in 1.6 (`glog.Fatalf` in
# `RegisterCustomFitPredicate`); a priority weight ≤ 0 fails validation and `main` exits with
# `scheduler app failed to run: …`. Both kill the simulated scheduler process — the notebook
# keeps working:

# %%
bad_policies = {
    "unknown predicate": {"kind": "Policy", "apiVersion": "v1", "predicates": [{"name": "NoSuchPredicate"}], "priorities": []},
    "negative weight": {"kind": "Policy", "apiVersion": "v1", "predicates": [],
                        "priorities": [{"name": "LeastRequestedPriority", "weight": -1}]},
}
for label, doc in bad_policies.items():
    s = with_policy(doc)
    s.run()
    print(f"{label:18}", [c.message for c in s.world.runtime.crashes])

# %% [markdown]
# ## Starting over
#
# Registrations stay in the process (as in Go, where only a restart clears them).
# `reset_registry()` goes back to the 1.6 start-up state:

# %%
print("EvenNode" in plugins.default_registry().fit_predicate_map)
_ = plugins.reset_registry()
print("EvenNode" in plugins.default_registry().fit_predicate_map)

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
PredictCell(partial(Q.registered_question, scenario="policy-file"), seed=1, activity="10/registered")

# %% tags=["predict"]
PredictCell(partial(Q.winner_question, scenario="policy-file"), seed=1, activity="10/winner")

# %% tags=["predict"]
PredictCell(partial(Q.failing_predicate_question, scenario="policy-file"), seed=1, activity="10/failing-predicate")

# %% [markdown]
# ## Your turn
#
# Write your prediction in place of `None` and run the cell: the simulator answers from its own
# run (it registers what it needs in a *copy* of the plugin registry, so your registrations
# above stay as they are). Then try it yourself with `plugins.register_fit_predicate` and
# `with_policy(...)`.
#
# **1.** Register `EvenNode` again, but answering `False, []` for every node. With the policy
# `PodFitsResources` + `EvenNode`, do pods still land on odd nodes?

# %% tags=["ask"]
from kschedlearn.curriculum import ask

ask("10/always-false", None)

# %% [markdown]
# **2.** A policy with `PodFitsResources` and **no** priorities: every node scores 1
# (`EqualPriority`) and selectHost's round robin decides. Which hosts do the pods get, in order?

# %% tags=["ask"]
ask("10/equal-priority", None)

# %% [markdown]
# Registrations stay in the process; `reset_registry()` goes back to the 1.6 start-up state:

# %%
_ = plugins.reset_registry()

# %% [markdown] tags=["recap"]
# ## Recap
#
# - A policy file names predicates and priorities (with weights) and can define new ones from
#   arguments (label presence, service affinity, label preference).
# - `CreateFromConfig` replaces the provider's lists entirely: what the policy omits does not run.
# - Your own predicate or priority is a function registered under a name, then named in a policy.
# - Unknown names and bad arguments are fatal at start-up.
