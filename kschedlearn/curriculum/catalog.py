"""The course's shape: units (notebooks) in order, their objectives, prerequisites and activities.

Go: none — kschedlearn-only (issue 22 items 1 and 2). This is the one place that says what each
curriculum notebook teaches: a notebook's ``objectives`` cell is rendered from its :class:`Unit`
(``tools/make_notebooks.py``), the course map and ``progress()`` read it, and the tests check
that every objective is exercised by a checked cell of that notebook (a predict cell, an ``ask``
or a ``check`` whose activity names the objective).

An activity key is ``"<unit>/<name>"`` (``"05/expire-time"``): the predict cell's
``activity=``, the first argument of ``ask`` / ``check``. A unit's learner time is measured,
not written here: ``minutes`` comes from ``data/timings.json``, which ``tools/make_notebooks.py``
writes from the notebook's headless run (see :mod:`kschedlearn.curriculum.timing`).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import attrs

DATA = Path(__file__).resolve().parent / "data"


@attrs.frozen
class Objective:
    """Something the learner will be able to do (a verb a check can observe)."""

    key: str
    text: str
    activities: tuple[str, ...]

    @property
    def unit(self) -> str:
        return self.key.split(".", 1)[0]


@attrs.frozen
class Unit:
    """One curriculum notebook."""

    key: str
    notebook: str
    title: str
    objectives: tuple[Objective, ...]
    prerequisites: tuple[str, ...] = ()
    exercises: tuple[str, ...] = ()
    note: str = ""

    @property
    def activities(self) -> tuple[str, ...]:
        """Every activity of the unit, in the order its objectives name them (no repeats)."""
        return tuple(dict.fromkeys(a for o in self.objectives for a in o.activities))

    @property
    def minutes(self) -> int | None:
        """The measured learner time (None until the notebook was built with timing)."""
        entry = timings().get(self.notebook)
        return None if entry is None else int(entry["minutes"])

    @property
    def measured(self) -> dict[str, float] | None:
        """What the time was computed from (``tools/make_notebooks.py``'s measurement)."""
        return timings().get(self.notebook)


@cache
def timings() -> dict[str, dict[str, float]]:
    """``data/timings.json``: per notebook stem, the measured learner time and its parts."""
    path = DATA / "timings.json"
    if not path.exists():
        return {}
    return dict(json.loads(path.read_text(encoding="utf-8")))


def _o(key: str, text: str, *activities: str) -> Objective:
    return Objective(key, text, tuple(activities))


def units() -> tuple[Unit, ...]:
    """Every unit, in the order of the course."""
    from kschedlearn.curriculum.units import UNITS

    return UNITS


def unit(key: str) -> Unit:
    """The unit ``key`` (``"05"``) or notebook stem; a clear error listing the units otherwise."""
    for u in units():
        if key in (u.key, u.notebook):
            return u
    raise KeyError(f"no course unit {key!r}; the units are {', '.join(u.key for u in units())}")


def objective(key: str) -> Objective:
    """The objective ``key`` (``"05.2"``)."""
    for u in units():
        for o in u.objectives:
            if o.key == key:
                return o
    raise KeyError(f"no objective {key!r}")


def activity_objectives(activity: str) -> tuple[Objective, ...]:
    """The objectives an activity exercises."""
    return tuple(o for u in units() for o in u.objectives if activity in o.activities)


def render_objectives(u: Unit) -> str:
    """The Markdown of a notebook's ``objectives`` cell: its title, what you will be able to do,
    what it assumes, its measured time."""
    lines = [f"# {u.key} · {u.title}", "", f"**In this notebook** ({_time_text(u)}) you will be able to:", ""]
    lines += [f"{i}. {o.text}" for i, o in enumerate(u.objectives, 1)]
    lines.append("")
    pre = ", ".join(_prerequisite_link(p) for p in u.prerequisites) or "none — start here"
    lines.append(f"**Before this:** {pre}.")
    if u.exercises:
        ex = ", ".join(_exercise_link(t) for t in u.exercises)
        lines.append(f"**Exercises that go with it:** {ex}.")
    if u.note:
        lines.append(u.note)
    lines.append("")
    lines.append("Each objective is checked below: a *predict* cell, an `ask(...)` or a `check(...)`. "
                 "What you pass is recorded — see `kschedlearn.progress()` and the "
                 "[course map](course-map.ipynb).")
    return "\n".join(lines)


def markdown_table(prefix: str = "notebooks/") -> str:
    """The course as a Markdown table (the README's curriculum section is this table)."""
    rows = ["| unit | notebook | time | you will be able to | after |", "|---|---|---|---|---|"]
    for u in units():
        minutes = f"{u.minutes} min" if u.minutes else "?"
        goals = "; ".join(o.text[0].lower() + o.text[1:].rstrip(".") for o in u.objectives)
        rows.append(f"| {u.key} | [{u.title}]({prefix}{u.notebook}.ipynb) | {minutes} | {goals} | "
                    f"{', '.join(u.prerequisites) or '—'} |")
    return "\n".join(rows)


def plain_title(u: Unit) -> str:
    """The unit's title without Markdown marks."""
    from kschedlearn.curriculum.markdown import plain

    return plain(u.title)


def _time_text(u: Unit) -> str:
    m = u.measured
    if m is None:
        return "time not measured yet"
    return (f"about **{int(m['minutes'])} min**, measured: a headless run of this notebook, "
            "each cell weighed by what a learner does with it — see the course map")


def _prerequisite_link(key: str) -> str:
    if "." in key and not key[0].isalpha():  # an exercise id such as 3.1
        return _exercise_link(key)
    u = unit(key)
    return f"[{u.key} {u.title}]({u.notebook}.ipynb)"


def _exercise_link(task_id: str) -> str:
    from kschedlearn.exercises.registry import get_task

    task = get_task(task_id)
    return f"[exercise {task.id}](../exercises/{task.notebook})"


__all__ = ["Objective", "Unit", "activity_objectives", "markdown_table", "objective", "plain_title",
           "render_objectives", "timings", "unit", "units"]
