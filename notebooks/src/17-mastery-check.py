# %% [markdown] tags=["objectives"]

# %% [markdown]
# You have followed pods through every queue and cache of kube-scheduler 1.6. This last notebook
# asks whether you can *predict* it — in a cluster you have not seen.
#
# The check **generates** two scenarios from a seed: a single-scheduler cluster with three nodes
# of random sizes (one labelled `disk: ssd`, one already running a pod) and a timeline that
# sends pods through the happy path, a rejected node, a refused binding, a pod too big for every
# node until a bigger one joins, and an assumed pod whose confirmation is held back until it
# expires; and a second cluster with two or three scheduler replicas whose leader is killed at a
# random moment. It runs each scenario once and asks **14 questions** about what happened —
# start-up order, which queue holds a pod, which node wins and why, why a node is rejected, what
# one of 1.6's quirks does, back-off times, a refused binding, expiry and the late confirmation,
# the two pod watches, the leader after the kill. Every answer is read from the run; nothing is
# stored in advance.
#
# Answer every question, then press **Score my answers**: each question is revealed with the
# simulator's explanation, you get a score, and every objective you missed is listed with the
# notebook that teaches it. **New scenario** re-rolls the seed — another cluster, other answers.
# A score of 80 % or more passes; every scored attempt is recorded in your progress
# (`kschedlearn.progress()`).

# %% tags=["mastery"]
from kschedlearn.widgets.mastery import MasteryWidget

m = MasteryWidget(seed=1)
m

# %% [markdown]
# ## Step to a question's moment
#
# Each revealed answer names the event where it shows. `m.check.simulation(i)` gives a fresh
# simulation of question `i`'s run (0-based) at that event — open the explorer on it, step back
# and forth, look at the views:
#
# ```python
# sim = m.check.simulation(9)      # the expiry question
# sim.explorer()
# ```
#
# The generated cluster itself (nodes, the pods and their timeline) is `m.check.runs["journey"].scenario`
# and `m.check.runs["failover"].scenario` — reading them before answering is fair: the
# questions are about what the scheduler *does* with them.

# %%
journey = m.check.runs["journey"].scenario
print(journey.description)
for obj in journey.objects:
    print(f"  {type(obj).kind:5} {obj.metadata.name}")
for action in journey.timeline:
    what = getattr(getattr(action.arg, "metadata", None), "name", None) or action.arg
    print(f"  t={action.at:<4g} {action.kind:6} {what}")

# %% [markdown] tags=["recap"]
# ## Recap
#
# - The mastery check is a fresh cluster per seed; its answers come from running it.
# - A score of 80 % passes; the objectives you missed point back to their notebooks and their
#   checked cells — redo those, then re-roll.
# - Your whole path, with the time each notebook takes and what you have passed, is the
#   [course map](course-map.ipynb) (`kschedlearn.course()`).
