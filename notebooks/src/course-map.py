# %% [markdown]
# # The course map
#
# kschedlearn's notebooks form one path, from a first look at one pod's journey to a mastery
# check on a cluster you have not seen. Each notebook opens with what you will be able to do,
# what it assumes, and how long it takes; each of its objectives is checked in the notebook —
# a *predict* cell, an `ask(...)` or a `check(...)` — and what you pass is recorded in a small
# progress file in your user data folder (never in the repository).
#
# Run the cell below for the map with **your** progress: ✓ done, ◐ started, · not started.
# (In a saved copy of this notebook the table shows no progress: it was built without any.)

# %%
import kschedlearn

kschedlearn.course()

# %% [markdown]
# ## How the times are measured
#
# Not guessed: every notebook is run headless when it is built (`tools/make_notebooks.py`), and
# its learner time adds up what that run measured, each part weighed by what a learner does with
# it — see the note under the table and `kschedlearn/curriculum/timing.py`. The test suite runs
# every notebook again and checks that the time stated in its opening cell is within a factor
# of two of the time computed from that run.
#
# ## Your progress
#
# `kschedlearn.progress()` lists what you passed — objectives, predictions, checks, exercises and
# mastery scores — and prints where the file is. `kschedlearn.progress().reset()` starts over
# (the old file is kept beside it). To keep the progress somewhere else, set the environment
# variable `KSCHEDLEARN_DATA_DIR` before starting Jupyter.

# %%
kschedlearn.progress()

# %% [markdown]
# ## The exercises
#
# The exercises in [`../exercises/`](../exercises) re-implement real pieces of the scheduler;
# each notebook's opening cell names the ones that go with it. A `check(...)` that passes every
# case is recorded as a passed exercise. The capstone comes in three rungs with less and less
# help: [8.2a](../exercises/08-2a-schedule-one-blanks.ipynb) (scheduleOne with blanks),
# [8.2](../exercises/08-2-schedule-one.ipynb) (its contract) and
# [8.2b](../exercises/08-2b-schedule-one-spec.ipynb) (Go's function and the behaviours it must show).
