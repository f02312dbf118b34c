# %% [markdown] tags=["objectives"]

# %% [markdown]
# [Part 1](00-start-here.ipynb) followed `web-1` from its creation to the binding: podQueue,
# scheduleOne, the predicates and priorities, the assumed pod in the scheduler cache, the bind
# goroutine. The API server now stores the pod with `spec.nodeName = node-3`. This part follows
# the news of that binding back into the scheduler, then shows how to move through the
# recorded history and the explorer that puts it all under buttons.

# %%
from functools import partial

from kschedlearn import Simulation
from kschedlearn.curriculum import ask
from kschedlearn.simulation import questions as Q
from kschedlearn.widgets.predict import PredictCell

def log(events):
    """Print trace events one per line: number, virtual time, stage, message."""
    for e in events:
        print(f"{e.seq:4d}  t={e.time:4.1f}s  {e.stage:24s} {e.message}")

sim = Simulation.from_scenario("three-nodes", seed=1)
assumed_at = sim.run_until("assume").seq   # remembered for later (event numbers are computed)
sim.run_until("finishBinding")
log([sim.event])

# %% [markdown]
# **Predict first:** the scheduler watches pods twice — once for pods with no node (they feed
# podQueue), once for pods with a node (they feed the scheduler cache). After web-1 is bound,
# what does the *unassigned*-pod watch deliver about it? Write your answer in place of `None`.

# %% tags=["ask"]
ask("00b/unassigned-sees", None)

# %% [markdown]
# ## The confirmation comes back through the second watch
#
# The API server now has `spec.nodeName = node-3`. The pod stops matching the unassigned
# watch's field selector (`spec.nodeName==`) and starts matching the assigned one
# (`spec.nodeName!=`). So the first watch sees **DELETED** and the second **ADDED**. The
# assigned-pod watch feeds an informer: reflector → **DeltaFIFO** → `processLoop` → handler
# `addPodToCache` → `cache.AddPod`, which turns *Assumed* into *Added*.

# %%
ev = sim.run_until("delta_fifo.add")
log([ev])
sim.show("pipeline")

# %%
ev = sim.run_until("cache.addPod")
log(e for e in sim.trace[ev.seq - 5:ev.seq + 1] if e.stage != "log")
sim.step("event")   # a trace point fires as AddPod starts; one event later its effect is visible
sim.show("pipeline")

# %%
sim.show("pod_states")

# %% [markdown]
# The pod-state machine (Initial → Assumed → Added) of
# [interface.go Cache](https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/interface.go#L24-L96)
# shows `web-1` in **Added**: the scheduler's cache now agrees with the API server.
#
# ## The whole journey on one screen
#
# Here is every event that names `web-1`, from creation to confirmation (log lines left out).
# Note the two events after `finishBinding` (picked out below the list): binding made the pod
# *leave* the unassigned watch (DELETED), and the reflector's `podQueue.delete` is a no-op
# because the pod was already popped.

# %%
journey = [e for e in sim.trace[:sim.cursor + 1]
           if e.data.get("pod") == "default/web-1" or e.data.get("key") == "default/web-1"]
log(e for e in journey if e.stage != "log")
finished = next(e for e in journey if e.stage == "finishBinding")
left = [e for e in journey if e.seq > finished.seq and (e.stage == "fifo.delete" or (e.stage == "reflector.watch_event" and "DELETED" in e.message))]
print("after finishBinding, the pod leaves podQueue's feed:"); log(left)

# %% [markdown]
# ## Rewind and jump
#
# Everything is recorded, so going back costs nothing. `back()` moves one stage back,
# `goto(n)` to event number `n` (here the `assume` event we remembered above):

# %%
sim.back()
print(sim)
sim.goto(assumed_at)
print(sim, "→", sim.event.stage)

# %% [markdown]
# **Your turn:** at which stage does web-1's state in the scheduler cache turn from *assumed*
# to *added* (confirmed)? Find it by jumping around — `sim.goto(n)`, then
# `[(ps.key, ps.assumed) for ps in sim.snapshot.cache.pod_states]` — and answer with the stage
# name:

# %% tags=["ask"]
ask("00b/confirmed-at", None)

# %% [markdown]
# ## The explorer
#
# The same controls as buttons, in one row: Back, Step, Play, the step size, the timeline slider
# over the recorded history, the view to draw and where the source pane goes. Under the diagram
# the narration of the current event and the *source pane* — the mirrored Python function
# running now, its current line lit, and its Go twin. Breakpoints, the followed pod, the trace
# log and the buttons that change what happens are folded below. (In a saved notebook without
# a kernel the widget is not live; the diagrams above are static SVG so GitHub still shows them.)

# %%
sim.explorer()

# %% [markdown]
# ## Predict, then check
#
# Which step of the confirmation comes next? The question picks a moment of web-1's way back,
# between the binding and the confirmation; **New question** picks another.

# %%
from kschedlearn.curriculum import questions_course as QC

# %% tags=["predict"]
PredictCell(QC.confirmation_question, seed=1, activity="00b/next-stage")

# %% [markdown]
# ## Your turn: a pod too big for a node
#
# Which failure reason would 1.6 report for `node-1` (2 CPUs) if `web-1` asked for **3** CPUs?
# To look yourself: copy the scenario with the pod's request changed (`attrs.evolve` on
# `sim.scenario.timeline`'s create action), run it to
# `run_until("schedule.predicate_node", node="node-1")`, and read the event's
# `data["predicates"]`, which maps each predicate to its failure reasons.

# %% tags=["ask"]
ask("00b/three-cpus", None)

# %% [markdown] tags=["recap"]
# ## Recap
#
# - Binding changes the pod in the API server: it *leaves* the unassigned watch (DELETED) and
#   *enters* the assigned one (ADDED).
# - The bound pod comes back through the **assigned-pod watch** → DeltaFIFO → `processLoop` →
#   `addPodToCache`, which **confirms** the assumed pod (Assumed → Added).
# - Everything is recorded: `back()` and `goto(n)` cost nothing; the explorer puts the same
#   controls under buttons, with the source pane beside the diagram.
# - Next: [01, the start-up chain](01-startup-chain.ipynb); the whole path is on the
#   [course map](course-map.ipynb).
