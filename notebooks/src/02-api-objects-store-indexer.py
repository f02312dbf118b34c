# %% [markdown] tags=["objectives"]

# %% [markdown]
# Everything the scheduler knows arrives as **API objects** (Pods, Nodes, …) from the API
# server, and is kept in client-side **stores** keyed by `namespace/name`. This notebook covers
# the building blocks the later notebooks stand on:
#
# 1. Pod and Node objects and resource **quantities** (`500m`, `1Gi`);
# 2. the client-go **Store**, **Indexer** and the **ThreadSafeStore** under them;
# 3. **label** and **field** selectors;
# 4. the embedded API server: list, watch, and what a watch with a *field selector* delivers
#    when a pod is bound (the trick the scheduler's two pod watches rely on).

# %%
import attrs
from kschedlearn.api.v1 import Pod, Node
from kschedlearn.api.resource import parse_quantity

# %% [markdown]
# ## Pods and Nodes
#
# `kschedlearn.api.v1` mirrors Go's `pkg/api/v1`: one frozen class per Go struct, field names
# in snake_case (`spec.node_name` is Go's `Spec.NodeName`). `from_dict` reads the manifest form
# you know from YAML. A pod waiting for the scheduler has an **empty `spec.nodeName`**.

# %%
pod = Pod.from_dict({
    "metadata": {"name": "web-1", "namespace": "default", "labels": {"app": "web", "tier": "front"}},
    "spec": {"containers": [{"name": "web", "image": "nginx:1.11",
                             "resources": {"requests": {"cpu": "500m", "memory": "512Mi"}}}]},
})
print(repr(pod.spec.node_name), pod.spec.containers[0].resources.requests)

# %% [markdown]
# Objects are immutable values. Go copies a struct and changes the copy (`assumed := *pod;
# assumed.Spec.NodeName = host`); Python does the same with `attrs.evolve`:

# %%
assumed = attrs.evolve(pod, spec=attrs.evolve(pod.spec, node_name="node-3"))
print(pod.spec.node_name == "", assumed.spec.node_name)

# %% [markdown]
# ## Quantities
#
# `resource.Quantity` ([quantity.go](https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go))
# parses `500m` (milli), `1Gi` (binary, 2³⁰), `2k` (decimal, 10³). The scheduler counts CPU in
# **millicores** (`milli_value()`) and memory in **bytes** (`value()`, which rounds *up*:
# `500m` has value 1).

# %%
for text in ["500m", "1.5", "2", "512Mi", "1Gi", "2k", "1e3"]:
    q = parse_quantity(text)
    print(f"{text:6s} → str {str(q):6s} value {q.value():>11}  milli {q.milli_value():>14}")

# %% [markdown]
# Bad input is reported with the object and the field path:

# %%
try:
    Pod.from_dict({"metadata": {"name": "x", "namespace": "default"},
                   "spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "12Q"}}}]}})
except ValueError as err:
    print(type(err).__name__, "—", err)

# %% [markdown]
# ## Store, Indexer, ThreadSafeStore
#
# A **Store** ([store.go](https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/store.go#L26-L240))
# is a map from a key to the latest object. The key comes from a *key function*; the usual one,
# `MetaNamespaceKeyFunc`, gives `namespace/name` (just `name` for cluster-scoped objects such as
# Nodes). `Add` and `Update` are the same operation (overwrite); deleting a missing key is a no-op.

# %%
from kschedlearn.client_go.tools.cache import (NAMESPACE_INDEX, meta_namespace_index_func,
                                               meta_namespace_key_func, new_indexer, new_store)

store = new_store(meta_namespace_key_func)
store.add(pod)
store.update(assumed)            # same key: replaces the object
obj, exists = store.get_by_key("default/web-1")
print(store.list_keys(), exists, obj.spec.node_name)
print(meta_namespace_key_func(Node.from_dict({"metadata": {"name": "node-1"}})))

# %% [markdown]
# An **Indexer** ([index.go](https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/index.go#L26-L85))
# is a Store that also keeps *indices*: named functions from an object to a list of values,
# and for each value the set of keys. The scheduler's assigned-pod informer uses exactly one,
# `NAMESPACE_INDEX = "namespace"`, so that "all pods of namespace X" needs no full scan. Both
# sit on a **ThreadSafeStore** ([thread_safe_store.go](https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/thread_safe_store.go#L26-L288)):
# the map plus the indices, behind one lock.

# %%
def make_pod(ns, name, app):
    return attrs.evolve(pod, metadata=attrs.evolve(pod.metadata, namespace=ns, name=name, labels={"app": app}))

indexer = new_indexer(meta_namespace_key_func, {NAMESPACE_INDEX: meta_namespace_index_func})
for ns, name, app in [("default", "web-1", "web"), ("default", "web-2", "web"),
                      ("default", "db-0", "db"), ("kube-system", "kube-dns", "dns")]:
    indexer.add(make_pod(ns, name, app))
print(indexer.list_index_func_values(NAMESPACE_INDEX))
print([p.metadata.name for p in indexer.by_index(NAMESPACE_INDEX, "default")])

# %% [markdown]
# A small drawing of the indexer: index values on the left, keys in the middle, objects on the
# right (built with the `graphviz` package and rendered by kschedlearn's `View`).

# %%
import graphviz
from kschedlearn.viz import View

g = graphviz.Digraph("indexer", graph_attr={"rankdir": "LR"}, node_attr={"shape": "box", "fontsize": "10"})
for value in sorted(indexer.list_index_func_values(NAMESPACE_INDEX)):
    g.node(f"v:{value}", f'namespace="{value}"', shape="ellipse")
    for p in indexer.by_index(NAMESPACE_INDEX, value):
        key = meta_namespace_key_func(p)
        g.node(key, key)
        g.node(f"o:{key}", f"Pod {p.metadata.name}\\napp={p.metadata.labels['app']}", style="filled", fillcolor="lightyellow")
        g.edge(f"v:{value}", key)
        g.edge(key, f"o:{key}")
View(g)

# %% [markdown]
# ## Label and field selectors
#
# **Label selectors** ([labels/selector.go](https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/labels/selector.go))
# match an object's labels: `=`, `!=`, `in`, `notin`, existence (`key`) and non-existence
# (`!key`). The parser sorts the requirements by key, as Go does.

# %%
from kschedlearn.apimachinery import fields, labels

sel = labels.parse("app in (web,db),!canary")
print(sel)
for p in indexer.list():
    print(f"  {p.metadata.name:9s} {p.metadata.labels} → {sel.matches(p.metadata.labels)}")

# %% [markdown]
# **Field selectors** ([fields/selector.go](https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/fields/selector.go))
# match a flat map of field values, with `=`/`==` and `!=` only. The scheduler's two pod
# list-watches differ only in the first term
# ([factory.go createUnassignedNonTerminatedPodLW and createAssignedNonTerminatedPodLW](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/factory/factory.go#L499-L512)):

# %%
unassigned = fields.parse_selector("spec.nodeName==,status.phase!=Succeeded,status.phase!=Failed")
assigned = fields.parse_selector("spec.nodeName!=,status.phase!=Succeeded,status.phase!=Failed")
for node_name, phase in [("", "Pending"), ("node-3", "Pending"), ("node-3", "Running"), ("node-3", "Succeeded")]:
    f = {"spec.nodeName": node_name, "status.phase": phase}
    print(f"{node_name or '(none)':7s} {phase:9s} unassigned={unassigned.matches(f)!s:5s} assigned={assigned.matches(f)}")

# %% [markdown]
# **Exercise 2.1** — write a label selector requirement's `matches`: [02-1-label-selector](../exercises/02-1-label-selector.ipynb).

# %% [markdown]
# ## The embedded API server: list, watch, bind
#
# kschedlearn ships a small in-memory API server reached through a clientset shaped like
# client-go's (`client.core_v1().pods(ns).create/get/list/watch/bind`). It runs on the
# simulated runtime (`kschedlearn.sim.Runtime`); reading a watch *blocks*, so we read it inside a
# goroutine with `rt.run_fn(...)`, which runs the runtime until that function returns.
#
# Note the API server's defaulting: an empty `spec.schedulerName` becomes `default-scheduler`.

# %%
from kschedlearn.apiserver import APIServer, new_for_server
from kschedlearn.sim import Runtime

rt = Runtime(seed=1)
client = new_for_server(APIServer(rt))
client.core_v1().nodes().create(Node.from_dict({"metadata": {"name": "node-3"}}))
created = client.core_v1().pods("default").create(pod)
print(created.metadata.resource_version, repr(created.spec.scheduler_name))

# %% [markdown]
# List the unassigned pods, then open **two watches** from the list's resourceVersion — one per
# field selector, as the scheduler does:

# %%
pods = client.core_v1().pods()          # all namespaces
listed = pods.list(field_selector=unassigned)
rv = listed.metadata.resource_version
print("list at RV", rv, "→", [p.metadata.name for p in listed.items])
w_unassigned = pods.watch(field_selector=unassigned, resource_version=rv)
w_assigned = pods.watch(field_selector=assigned, resource_version=rv)

# %% [markdown]
# Now bind the pod with a POST of a `Binding` (the server sets `spec.nodeName`). This client call
# uses the pod's `binding` subresource (client-go's `Pods(ns).Bind`); 1.6's own binder POSTs the
# same Binding to the older `namespaces/{ns}/bindings` resource (notebook 08) — the API server
# serves both alike:

# %%
from kschedlearn.api.v1 import Binding, ObjectMeta, ObjectReference

client.core_v1().pods("default").bind(Binding(metadata=ObjectMeta(name="web-1", namespace="default"),
                                              target=ObjectReference(kind="Node", name="node-3")))

def next_event(w):
    event, ok = w.result_chan().recv()
    return event.type, event.object.metadata.name, event.object.spec.node_name, event.object.metadata.resource_version

print("unassigned watch:", rt.run_fn(next_event, w_unassigned))
print("assigned watch:  ", rt.run_fn(next_event, w_assigned))

# %% [markdown]
# One update on the server, two different events: the pod **stopped** matching
# `spec.nodeName==` → **DELETED** on the unassigned watch; it **started** matching
# `spec.nodeName!=` → **ADDED** on the assigned watch. That is how a bound pod leaves podQueue's
# feed and enters the scheduler cache's feed. The same two events in the live
# scheduler of `three-nodes`:

# %%
from kschedlearn import Simulation

sim = Simulation.from_scenario("three-nodes", seed=1)
sim.run_until("cache.addPod", pod="default/web-1")
for e in sim.trace:
    if e.stage == "reflector.watch_event" and e.data.get("key") == "default/web-1" or e.stage == "apiserver.bind":
        print(f"#{e.seq}  {e.goroutine:42s} {e.message}")

# %%
sim.show("pipeline")

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
PredictCell(C.selector_question, seed=1, activity="02/selector")

# %% tags=["predict"]
PredictCell(C.index_question, seed=1, activity="02/index")

# %% [markdown]
# ## Your turn
#
# Write your prediction in place of `None` and run the cell: the answer comes from running the
# mirrored code. Then try it yourself in a cell of your own.
#
# **1.** A field selector can only say `=`, `==` and `!=`. What does the parser do with
# `fields.parse_selector("spec.nodeName in (a,b)")`?

# %% tags=["ask"]
from kschedlearn.curriculum import ask

ask("02/field-in", None)

# %% [markdown]
# **2.** The kubelet marks a bound pod **Succeeded** (`update_status` with `phase="Succeeded"`).
# What does the *assigned*-pod watch deliver next — and what does that mean for the scheduler
# cache?

# %% tags=["ask"]
ask("02/succeeded-watch", None)

# %% [markdown]
# **3.** A code task: write an index function that indexes pods by their `app` label (it gets
# one object and returns a list of index values). `check` runs it inside the mirrored `Indexer`
# over this notebook's four pods and compares `by_index("app", "web")` with what the real
# index function gives.

# %% tags=["check"]
from kschedlearn.exercises import check

def by_app(obj):
    return []   # your code: the pod's app label, in a list

check("02/app-index", by_app)

# %% [markdown] tags=["recap"]
# ## Recap
#
# - API objects are immutable values; a copy with one field changed is `attrs.evolve` (Go copies the struct).
# - Quantities: CPU in millicores (`milli_value()`), memory in bytes (`value()` rounds up).
# - A **Store** keeps objects by `namespace/name`; an **Indexer** adds index functions
#   (`by_index("namespace", ns)`), both over a ThreadSafeStore.
# - Field selectors say only `=` / `!=`: `spec.nodeName==` (unassigned) and `spec.nodeName!=`
#   (assigned) split the pods into the scheduler's two watches; binding moves a pod from one to the
#   other as a DELETED plus an ADDED.
