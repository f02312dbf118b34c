"""What ``kschedlearn.course()`` and ``kschedlearn.progress()`` show: the path and what was passed.

Go: none — kschedlearn-only (issue 22 items 2 and 4). Both read the catalog and the progress
file at the moment they are called; neither records anything. An objective counts as passed
when every activity that exercises it has been passed at least once (a predict cell answered
right, an ``ask`` right, a ``check`` that passed, the mastery check at 80 % or more).
"""

from __future__ import annotations

import html
from pathlib import Path

import attrs

from kschedlearn.curriculum import catalog
from kschedlearn.curriculum.markdown import inline
from kschedlearn.curriculum.progress import ProgressStore, Record, store
from kschedlearn.curriculum.timing import (ACTIVITY_SECONDS, CODE_LINE_SECONDS, FIGURE_SECONDS, PROSE_WPM,
                                           TEXT_LINE_SECONDS)

HOW_MEASURED = (f"Times are measured: each notebook is run headless (nbclient) when it is built; the "
                f"learner time adds its measured execution time, its prose at {PROSE_WPM} words a minute, "
                f"{CODE_LINE_SECONDS:g} s per line of code, {FIGURE_SECONDS:g} s per diagram or widget shown, "
                f"{TEXT_LINE_SECONDS:g} s per printed line and {ACTIVITY_SECONDS:g} s per checked activity "
                "(kschedlearn/curriculum/timing.py), rounded to 5 minutes.")


@attrs.frozen
class UnitStatus:
    """One unit's standing: which objectives and activities are passed, which exercises."""

    unit: catalog.Unit
    passed_activities: frozenset[str]
    passed_objectives: tuple[str, ...]
    passed_exercises: tuple[str, ...]

    @property
    def started(self) -> bool:
        return bool(self.passed_activities or self.passed_exercises)

    @property
    def done(self) -> bool:
        return len(self.passed_objectives) == len(self.unit.objectives)

    @property
    def mark(self) -> str:
        return "✓" if self.done else ("◐" if self.started else "·")


def _passed_keys(records: dict[str, Record]) -> tuple[frozenset[str], frozenset[str]]:
    activities = frozenset(r.key for r in records.values() if r.passed and r.kind != "exercise")
    exercises = frozenset(r.key for r in records.values() if r.passed and r.kind == "exercise")
    return activities, exercises


def statuses(records: dict[str, Record]) -> tuple[UnitStatus, ...]:
    """Every unit's standing, from the progress records."""
    activities, exercises = _passed_keys(records)
    out = []
    for u in catalog.units():
        mine = frozenset(a for a in u.activities if a in activities)
        objectives = tuple(o.key for o in u.objectives if o.activities and all(a in activities for a in o.activities))
        out.append(UnitStatus(u, mine, objectives, tuple(t for t in u.exercises if t in exercises)))
    return tuple(out)


@attrs.frozen
class CourseMap:
    """The path through the course: units in order, time, prerequisites and your progress."""

    units: tuple[UnitStatus, ...]
    path: Path
    notices: tuple[str, ...] = ()

    @property
    def total_minutes(self) -> int:
        return sum(s.unit.minutes or 0 for s in self.units)

    def __str__(self) -> str:
        lines = [f"The course ({self.total_minutes} min in all). Progress file: {self.path}"]
        lines += list(self.notices)
        for s in self.units:
            u = s.unit
            minutes = f"{u.minutes:3d} min" if u.minutes else "  ? min"
            lines.append(f" {s.mark} {u.key:4s} {minutes}  {catalog.plain_title(u)}  "
                         f"[objectives {len(s.passed_objectives)}/{len(u.objectives)}"
                         + (f", exercises {len(s.passed_exercises)}/{len(u.exercises)}" if u.exercises else "") + "]"
                         + (f"  after {', '.join(u.prerequisites)}" if u.prerequisites else ""))
        lines.append(HOW_MEASURED)
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        rows = []
        for s in self.units:
            u = s.unit
            ex = (f"{len(s.passed_exercises)}/{len(u.exercises)}" if u.exercises else "—")
            colour = "#e6f4ea" if s.done else ("#fff8e1" if s.started else "")
            rows.append(
                f'<tr style="background:{colour}"><td>{s.mark}</td><td>{html.escape(u.key)}</td>'
                f'<td style="text-align:left"><a href="{html.escape(u.notebook)}.ipynb">{inline(u.title)}</a>'
                + (f'<br><small style="color:#666">{inline(u.note)}</small>' if u.note else "") + "</td>"
                f"<td>{u.minutes or '?'} min</td><td>{html.escape(', '.join(u.prerequisites) or '—')}</td>"
                f"<td>{len(s.passed_objectives)}/{len(u.objectives)}</td><td>{ex}</td></tr>")
        notices = "".join(f'<p style="color:#8a1c1c">{html.escape(n)}</p>' for n in self.notices)
        return (f"{notices}<table class=\"kschedlearn-course-map\"><thead><tr><th></th><th>unit</th>"
                '<th style="text-align:left">notebook</th><th>time</th><th>after</th><th>objectives</th>'
                f"<th>exercises</th></tr></thead><tbody>{''.join(rows)}</tbody></table>"
                f"<p><b>{self.total_minutes} min</b> in all. ✓ done · ◐ started · · not started. "
                f"Progress is read from <code>{html.escape(str(self.path))}</code>.</p>"
                f'<p style="color:#666;font-size:90%">{html.escape(HOW_MEASURED)}</p>')


@attrs.define(eq=False)
class Progress:
    """``kschedlearn.progress()``: what you passed, unit by unit; ``reset()`` starts over."""

    store: ProgressStore
    records: dict[str, Record]

    @property
    def path(self) -> Path:
        return self.store.path

    @property
    def units(self) -> tuple[UnitStatus, ...]:
        return statuses(self.records)

    def passed(self, kind: str) -> tuple[str, ...]:
        """Keys of the passed records of ``kind`` (``prediction``, ``check``, ``exercise``, ``mastery``)."""
        return tuple(sorted(r.key for r in self.records.values() if r.kind == kind and r.passed))

    @property
    def objectives(self) -> tuple[str, ...]:
        """Every passed objective, in course order."""
        return tuple(k for s in self.units for k in s.passed_objectives)

    def reset(self) -> Path | None:
        """Start over (the old file is kept beside, renamed); returns where it went."""
        kept = self.store.reset()
        self.records = {}
        return kept

    def __str__(self) -> str:
        lines = [f"Progress file: {self.path}"] + list(self.store.notices)
        if not self.records:
            lines.append("Nothing recorded yet: answer a predict cell, an ask(...) or run a check(...).")
        for kind, label in (("prediction", "predictions"), ("check", "checks"), ("exercise", "exercises"),
                            ("mastery", "mastery check")):
            keys = self.passed(kind)
            tried = sum(1 for r in self.records.values() if r.kind == kind)
            lines.append(f"{label}: {len(keys)} passed of {tried} tried" + (f" — {', '.join(keys)}" if keys else ""))
        lines.append(f"objectives: {len(self.objectives)} passed — {', '.join(self.objectives) or 'none yet'}")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        rows = []
        for s in self.units:
            if not s.started:
                continue
            objs = "".join(
                f"<li>{'✓' if o.key in s.passed_objectives else '·'} <b>{o.key}</b> {inline(o.text)} "
                f'<small style="color:#666">({", ".join(_activity_mark(a, s) for a in o.activities)})</small></li>'
                for o in s.unit.objectives)
            ex = f"<br>exercises passed: {', '.join(s.passed_exercises)}" if s.passed_exercises else ""
            rows.append(f"<tr><td>{s.mark} <b>{html.escape(s.unit.key)}</b></td>"
                        f'<td style="text-align:left"><ul style="margin:0">{objs}</ul>{ex}</td></tr>')
        notices = "".join(f'<p style="color:#8a1c1c">{html.escape(n)}</p>' for n in self.store.notices)
        body = (f"<table>{''.join(rows)}</table>" if rows else
                "<p>Nothing recorded yet: answer a predict cell, an <code>ask(...)</code> or run a "
                "<code>check(...)</code>.</p>")
        return (f"{notices}<p><b>Your progress</b> — {len(self.objectives)} objectives passed; predictions "
                f"{len(self.passed('prediction'))}, checks {len(self.passed('check'))}, exercises "
                f"{len(self.passed('exercise'))}, mastery {len(self.passed('mastery'))}. "
                f"File: <code>{html.escape(str(self.path))}</code> (<code>kschedlearn.progress().reset()</code> "
                f"starts over).</p>{body}")


def _activity_mark(key: str, s: UnitStatus) -> str:
    return ("✓ " if key in s.passed_activities else "") + html.escape(key)


def course() -> CourseMap:
    """The course map with your progress (read now from the progress file)."""
    st = store()
    records = st.records()
    return CourseMap(statuses(records), st.path, tuple(st.notices))


def progress() -> Progress:
    """Your progress: objectives, predictions, checks, exercises and mastery scores passed."""
    st = store()
    return Progress(st, st.records())


__all__ = ["CourseMap", "HOW_MEASURED", "Progress", "UnitStatus", "course", "progress", "statuses"]
