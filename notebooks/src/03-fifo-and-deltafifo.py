# %% [markdown] tags=["objectives"]

# %% [markdown]
# The seed article's "multi-queue" picture has two queue types from client-go:
#
# * **FIFO** ([fifo.go](https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/fifo.go#L26-L358))
#   — the scheduler's **podQueue** of pods waiting to be scheduled. It keeps only the *latest*
#   version of each pod and remembers the order keys arrived in.
# * **DeltaFIFO** ([delta_fifo.go](https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/delta_fifo.go#L29-L681))
#   — the queue inside every *informer*, e.g. the one feeding the scheduler cache with bound pods.
#   It keeps *every change* (a list of Deltas: Added, Updated, Deleted, Sync) per key, so the
#   consumer can replay them in order.
#
# Both are used by a producer (a reflector) and a consumer that **blocks** in `Pop` until there
# is something to take. Here the blocking happens on kschedlearn's simulated runtime: we call
# `rt.run_fn(fn, ...)`, which runs `fn` as a goroutine and drives the runtime until it returns.

# %%
import graphviz
from kschedlearn.api.v1 import Pod
from kschedlearn.client_go.tools.cache import (DeletedFinalStateUnknown, ErrRequeue, meta_namespace_key_func,
                                               new_delta_fifo, new_fifo, new_store, pop)
from kschedlearn.observe.views import queue_state
from kschedlearn.sim import Runtime
from kschedlearn.viz import View

rt = Runtime(seed=1)

def mk(name, rv="1"):
    """A minimal pod default/<name> at resourceVersion rv."""
    return Pod.from_dict({"metadata": {"name": name, "namespace": "default", "resourceVersion": rv},
                          "spec": {"containers": [{"name": "c", "image": "busybox"}]}})

def draw(q, title):
    """The queue's keys in order; a dashed box is a key left behind by a delete (a ghost)."""
    st = queue_state(q)
    g = graphviz.Digraph(title, graph_attr={"rankdir": "LR", "label": title, "labelloc": "t"},
                         node_attr={"shape": "box", "fontsize": "10", "fontname": "Helvetica"})
    g.node("head", "Pop ▶", shape="plaintext")
    prev = "head"
    for i, key in enumerate(st.queue):
        item = st.items.get(key)
        if item is None:
            g.node(f"k{i}", f"{key}\n(ghost)", style="dashed", fontcolor="gray")
        elif isinstance(item, Pod):
            g.node(f"k{i}", f"{key}\nrv {item.metadata.resource_version}", style="filled", fillcolor="lightyellow")
        else:   # Deltas
            deltas = "\n".join(f"{d.type}" + (" (tombstone)" if isinstance(d.object, DeletedFinalStateUnknown) else "")
                               for d in item)
            g.node(f"k{i}", f"{key}\n{deltas}", style="filled", fillcolor="lightblue")
        g.edge(prev, f"k{i}")
        prev = f"k{i}"
    return View(g)

# %% [markdown]
# ## FIFO: add, update, delete
#
# `Add` and `Update` are the same: if the key is new it joins the back of the queue; if it is
# already queued only the stored object is replaced — **the position is kept**, and only the
# newest version will ever be popped.

# %%
fifo = new_fifo(meta_namespace_key_func)
fifo.add(mk("a")); fifo.add(mk("b")); fifo.add(mk("c"))
fifo.update(mk("a", rv="2"))
draw(fifo, "add a, b, c; update a")

# %% [markdown]
# `Delete` removes the object but **not its key from the queue**: the key stays behind as a
# "ghost" that `Pop` will silently skip. (This is why, when a pod is bound and the unassigned
# watch says DELETED, podQueue's `delete` is harmless.)

# %%
fifo.delete(mk("b"))
print(queue_state(fifo).queue, "items:", list(queue_state(fifo).items))
draw(fifo, "delete b: a ghost key stays")

# %% [markdown]
# ## Pop blocks, and skips ghosts
#
# `cache.Pop(queue)` pops one item. It takes the head key, skips it if it is a ghost, and
# calls the process function *while holding the queue's lock*.

# %%
first = rt.run_fn(pop, fifo)
print(first.metadata.name, "rv", first.metadata.resource_version, "← the newest version")
print(rt.run_fn(pop, fifo).metadata.name, "← b was a ghost and skipped")
draw(fifo, "after two pops")

# %% [markdown]
# On an empty queue `Pop` waits on a condition variable until a producer adds something.
# Here a second goroutine adds a pod 5 virtual seconds later; the popper wakes up then:

# %%
from kschedlearn import sim as gosim

def producer():
    gosim.sleep(5)
    fifo.add(mk("late"))

def consumer():
    item = pop(fifo)
    return item.metadata.name, gosim.now()

gosim_g = rt.go(producer, name="producer")
print(rt.run_fn(consumer))

# %% [markdown]
# **Exercise 3.1** — write FIFO `pop`: [03-1-fifo-pop](../exercises/03-1-fifo-pop.ipynb).

# %% [markdown]
# ## Replace resets the order; AddIfNotPresent; ErrRequeue
#
# `Replace(list, rv)` is what a reflector calls after a **list**: the queue becomes exactly the
# listed keys — old order and pending keys not in the list are gone. Every relist of the
# unassigned-pod reflector therefore reshuffles podQueue. In which order? Go builds a map of
# the listed items and appends its keys while iterating it, and Go's map iteration order is
# unspecified (deliberately randomised), so the new order is arbitrary
# ([fifo.go Replace](https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/fifo.go#L295-L326)).
# kschedlearn keeps the list's order instead — a documented deviation, so that a run stays
# deterministic.

# %%
fifo.add(mk("x")); fifo.add(mk("y"))
fifo.replace([mk("z"), mk("y")], "42")
draw(fifo, "replace([z, y]): x is gone, order reset")

# %% [markdown]
# `AddIfNotPresent` adds only if the key is not queued — the scheduler's error handler uses it
# to put a pod back after its backoff *without* overwriting a newer version that arrived
# meanwhile. And a process function may ask for its item back by raising `ErrRequeue`: the item
# is re-added (at the back) and the inner error is returned.

# %%
fifo.add_if_not_present(mk("z", rv="99"))        # z is queued: ignored
print("z rv:", queue_state(fifo).items["default/z"].metadata.resource_version)

def not_now(obj):
    raise ErrRequeue(RuntimeError(f"{obj.metadata.name}: try again later"))

try:
    rt.run_fn(fifo.pop, not_now)
except Exception as err:
    print(type(err).__name__, "—", err)
draw(fifo, "z requeued at the back")

# %% [markdown]
# ## DeltaFIFO: every change, in order
#
# A DeltaFIFO stores, per key, the list of **Deltas** since the consumer last popped it. Pop
# hands over the whole list, oldest first; the informer's process function replays it into its
# store and calls the handlers (notebook 04). Two consecutive deletions of the same object are
# **deduplicated** (`dedupDeltas`, the only compression 1.6 does).

# %%
dfifo = new_delta_fifo(meta_namespace_key_func, None, None)
dfifo.add(mk("web", "1")); dfifo.update(mk("web", "2")); dfifo.delete(mk("web", "2")); dfifo.delete(mk("web", "2"))
dfifo.add(mk("db", "1"))
draw(dfifo, "DeltaFIFO: web Added→Updated→Deleted(×2, deduped); db Added")

# %%
deltas = rt.run_fn(dfifo.pop, lambda d: None)
print([(d.type, d.object.metadata.resource_version) for d in deltas])

# %% [markdown]
# **Exercise 3.2** — DeltaFIFO's de-duplication of deletions: [03-2-delta-fifo-dedup](../exercises/03-2-delta-fifo-dedup.ipynb).

# %% [markdown]
# ## Replace with known objects: Sync and tombstones
#
# An informer's DeltaFIFO is given its store as **knownObjects**. On `Replace` (a relist) each
# listed object gets a **Sync** delta, and every object the store knows that is *not* in the
# list gets a **Deleted** delta carrying a `DeletedFinalStateUnknown` tombstone: "it was
# deleted while we were not watching; this is the last state we saw".

# %%
known = new_store(meta_namespace_key_func)
known.add(mk("kept")); known.add(mk("gone"))
d2 = new_delta_fifo(meta_namespace_key_func, None, known)
d2.replace([mk("kept", "7")], "7")
draw(d2, "replace([kept]) with known {kept, gone}")

# %%
for _ in range(2):
    ds = rt.run_fn(d2.pop, lambda d: None)
    print([(d.type, type(d.object).__name__) for d in ds])

# %% [markdown]
# ## podQueue in a real run
#
# In the `unschedulable-then-fits` scenario, a 6-CPU pod fits on no node. The **first** failed
# attempt sets the pod's `PodScheduled=False` condition — an update the unassigned-pod watch
# delivers straight back into podQueue, so a second attempt follows at once. Later failures do
# not write the condition again: the scheduler's condition updater PUTs the status only when
# `UpdatePodCondition` reports a change
# ([resource_helpers.go UpdatePodCondition](https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/api/v1/resource_helpers.go#L143-L171),
# [factory.go podConditionUpdater.Update](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/factory/factory.go#L595-L602)),
# and the status, reason and message are the same each time (notebook 08). After a backoff the
# error handler re-adds the pod with `AddIfNotPresent` (1 s, 2 s, 4 s, 8 s: the backoff
# doubles). A big node joins at t = 12 s; the attempt after the next backoff binds the pod.
# Every podQueue operation (the `apiserver.update` of the pod's status appears once):

# %%
from kschedlearn import Simulation

sim = Simulation.from_scenario("unschedulable-then-fits", seed=1)
sim.run_until("assume")
for e in sim.trace:
    if e.stage.startswith("fifo.") or e.stage in ("error.requeue", "selectHost", "assume") \
            or (e.stage == "apiserver.update" and e.message.startswith("update_status pods")):
        print(f"t={e.time:5.2f}s  {e.stage:14s} {e.message}")

# %% [markdown]
# The pipeline view at the moment the pod is back in podQueue after its first backoff:

# %%
sim.goto(0)
sim.run_until("error.requeue")
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
PredictCell(C.fifo_pop_question, seed=1, activity="03/fifo-pop")

# %% tags=["predict"]
PredictCell(C.delta_fifo_question, seed=1, activity="03/delta-fifo")

# %% [markdown]
# ## Your turn
#
# Write your prediction in place of `None` and run the cell: the answer comes from running the
# mirrored FIFO / DeltaFIFO or the simulation. Then build the case yourself with the calls above.
#
# **1.** A DeltaFIFO with a known store that holds `p`: `delete(p)`, then a relist
# `replace([p at resourceVersion 2], "2")`. Which Delta types does the next `Pop` hand over for
# `p`, in order? (What should a queue do with a relist's `Sync` for an object whose deletion it has
# not handed over yet?)

# %% tags=["ask"]
from kschedlearn.curriculum import ask

ask("03/sync-after-delete", None)

# %% [markdown]
# **2.** A goroutine waits in `Pop` on an empty FIFO; another goroutine calls `Close()` a second
# later. What does the waiting `Pop` get? (And what does the helper `cache.Pop(queue)` return?)

# %% tags=["ask"]
ask("03/closed-pop", None)

# %% [markdown]
# **3.** Follow podQueue in `three-nodes` through its `fifo.*` events only
# (`t.run_until(lambda ev: ev.stage.startswith("fifo."))`, repeated). How many are there before
# t = 5 s?

# %% tags=["ask"]
ask("03/fifo-events", None)

# %% [markdown] tags=["recap"]
# ## Recap
#
# - **FIFO** (podQueue): one item per key; Add/Update keep the key's place and replace the object;
#   Delete leaves a *ghost* key that Pop skips; `AddIfNotPresent` is how the error handler requeues.
# - `Replace` (a relist) resets the line to the listed keys; Go's order is a map iteration
#   (unspecified), kschedlearn keeps the list's order.
# - **DeltaFIFO** (the informers): every change per key since the last Pop, oldest first; two
#   Deleted in a row are deduplicated; Replace queues Sync deltas and tombstones
#   (`DeletedFinalStateUnknown`) for known objects missing from the list.
# - Pop blocks until there is an item; a process function raising `ErrRequeue` puts it back.
