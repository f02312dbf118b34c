"""How long a notebook takes a learner, computed from a headless run of it.

Go: none — kschedlearn-only (issue 22 item 1: the time is measured, not guessed). A headless
run (``nbclient``, as ``tools/make_notebooks.py`` and the tests do) gives what can be measured
about each cell: its execution time (``metadata.execution``), the words of its prose, the lines
of its code, the diagrams and widgets it displays, and whether it is a checked activity. The
learner time weighs each measured quantity by what a learner does with it — the *learner
factors* below, stated once and used by the build and by the test alike:

- prose is read at :data:`PROSE_WPM` words a minute: careful study of technical text full of Go
  names, about half the ~240 wpm of ordinary silent reading of non-fiction (Brysbaert 2019);
- each line of code is read, understood and run in :data:`CODE_LINE_SECONDS`;
- each diagram, widget or table shown is studied for :data:`FIGURE_SECONDS`; each line of
  printed text is read in :data:`TEXT_LINE_SECONDS`;
- each checked activity (predict cell, ``ask``, ``check``, each question of the mastery check)
  takes :data:`ACTIVITY_SECONDS` to think, answer and read the explanation;
- the learner waits for every cell to finish: the measured execution time counts once
  (:data:`EXECUTION_FACTOR`).
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

import attrs

PROSE_WPM = 120
CODE_LINE_SECONDS = 6.0
FIGURE_SECONDS = 30.0
TEXT_LINE_SECONDS = 1.0
ACTIVITY_SECONDS = 90.0
EXECUTION_FACTOR = 1.0
ACTIVITY_TAGS = frozenset({"predict", "ask", "check"})
MASTERY_TAG = "mastery"
"""A cell holding the mastery check: it counts one activity per question its output names."""
_QUESTIONS = re.compile(r"(\d+) questions")
_FIGURE_TYPES = ("image/svg+xml", "image/png", "application/vnd.jupyter.widget-view+json", "text/html")


@attrs.frozen
class Measurement:
    """The measured parts of one notebook and the learner time they add up to."""

    execution_seconds: float
    words: int
    code_lines: int
    figures: int
    text_lines: int
    activities: int

    @property
    def seconds(self) -> float:
        return (self.words / PROSE_WPM * 60 + self.code_lines * CODE_LINE_SECONDS
                + self.figures * FIGURE_SECONDS + self.text_lines * TEXT_LINE_SECONDS
                + self.activities * ACTIVITY_SECONDS + self.execution_seconds * EXECUTION_FACTOR)

    @property
    def minutes(self) -> int:
        """Rounded to the nearest 5 minutes (at least 5): a learner's plan, not a stopwatch."""
        return max(5, int(round(self.seconds / 60 / 5)) * 5)

    def as_json(self) -> dict[str, float]:
        return {"minutes": self.minutes, "execution_seconds": round(self.execution_seconds, 1),
                "words": self.words, "code_lines": self.code_lines, "figures": self.figures,
                "text_lines": self.text_lines, "activities": self.activities}


def _execution_seconds(cell: Any) -> float:
    timing = cell.get("metadata", {}).get("execution", {})
    start, end = timing.get("iopub.execute_input"), timing.get("shell.execute_reply")
    if not start or not end:
        return 0.0
    return max((datetime.fromisoformat(end.replace("Z", "+00:00"))
                - datetime.fromisoformat(start.replace("Z", "+00:00"))).total_seconds(), 0.0)


def _words(markdown: str) -> int:
    text = re.sub(r"\]\([^)]*\)", "]", markdown)  # a link's URL is not read
    return len(re.findall(r"[\w`'’-]+", text))


def _outputs(cell: Any) -> tuple[int, int]:
    figures = text_lines = 0
    for out in cell.get("outputs", []):
        data = out.get("data", {})
        if any(t in data for t in _FIGURE_TYPES):
            figures += 1
        elif out.get("output_type") == "stream":
            text_lines += str(out.get("text", "")).count("\n")
        elif "text/plain" in data:
            text_lines += str(data["text/plain"]).count("\n") + 1
    return figures, text_lines


def measure(nb: Any) -> Measurement:
    """The measurement of an *executed* notebook (``nbformat`` node with outputs and timings)."""
    execution = 0.0
    words = code_lines = figures = text_lines = activities = 0
    for cell in nb.cells:
        tags = set(cell.get("metadata", {}).get("tags", []))
        if cell.cell_type == "markdown":
            words += _words(cell.source)
            continue
        if cell.cell_type != "code":
            continue
        execution += _execution_seconds(cell)
        code_lines += sum(1 for line in cell.source.splitlines() if line.strip())
        f, t = _outputs(cell)
        figures += f
        text_lines += t
        activities += bool(tags & ACTIVITY_TAGS)
        if MASTERY_TAG in tags:
            plain = " ".join(str(o.get("data", {}).get("text/plain", "")) for o in cell.get("outputs", []))
            found = _QUESTIONS.search(plain)
            activities += int(found.group(1)) if found else 0
    return Measurement(execution, words, code_lines, figures, text_lines, activities)


__all__ = ["ACTIVITY_SECONDS", "CODE_LINE_SECONDS", "EXECUTION_FACTOR", "FIGURE_SECONDS", "Measurement",
           "PROSE_WPM", "TEXT_LINE_SECONDS", "measure"]
