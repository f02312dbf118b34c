"""Every exercise notebook is linked from the curriculum notebook that teaches its topic, and links back.

Go: none — kschedlearn-only (issue 15: "every curriculum notebook that has an exercise links to
it at the point the topic is taught, and the exercise notebooks link back").
"""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
EXERCISES = sorted((ROOT / "exercises").glob("[0-9]*.ipynb"))


def _markdown(path: Path) -> str:
    return "\n".join(c.source for c in nbformat.read(path, as_version=4).cells if c.cell_type == "markdown")


@pytest.mark.parametrize("exercise", EXERCISES, ids=[p.stem for p in EXERCISES])
def test_the_teaching_notebook_links_to_the_exercise_and_back(exercise: Path) -> None:
    chapter = exercise.name.split("-")[0]
    teaching = next((ROOT / "notebooks").glob(f"{chapter}-*.ipynb"))
    assert f"](../exercises/{exercise.name})" in _markdown(teaching), f"{teaching.name} does not link {exercise.name}"
    assert f"../notebooks/{teaching.name}" in _markdown(exercise), f"{exercise.name} does not link back to {teaching.name}"
