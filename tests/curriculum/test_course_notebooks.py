"""The curriculum is a course: each notebook opens with its objectives, checks each of them, and
has no commented-out answers; the course map and the README follow the same catalog.

Go: none — kschedlearn-only (issue 22 items 1 and 2, "must show"). Reads the committed
notebooks (cheap); ``tests/notebooks/test_notebooks.py`` re-runs them and re-measures the time.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import nbformat
import pytest

from kschedlearn.curriculum import activity, catalog
from kschedlearn.curriculum.timing import ACTIVITY_TAGS, MASTERY_TAG
from kschedlearn.widgets.mastery import ACTIVITY as MASTERY_ACTIVITY

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9]*.ipynb"))
CHECKED_TAGS = ACTIVITY_TAGS | {MASTERY_TAG}
_ACTIVITY_REFS = (re.compile(r'activity="([^"]+)"'), re.compile(r'\bask\(\s*"([^"]+)"'),
                  re.compile(r'\bcheck\(\s*"([^"]+/[^"]+)"'))


def _nb(path: Path) -> nbformat.NotebookNode:
    return nbformat.read(path, as_version=4)


def _tags(cell: nbformat.NotebookNode) -> set[str]:
    return set(cell.get("metadata", {}).get("tags", []))


def checked_activities(nb: nbformat.NotebookNode) -> dict[str, int]:
    """Activity key -> index of the checked cell (tagged predict/ask/check/mastery) naming it."""
    found: dict[str, int] = {}
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code" or not _tags(cell) & CHECKED_TAGS:
            continue
        for pattern in _ACTIVITY_REFS:
            for key in pattern.findall(cell.source):
                found.setdefault(key, i)
        if MASTERY_TAG in _tags(cell) and "MasteryWidget(" in cell.source:
            found.setdefault(MASTERY_ACTIVITY, i)
    return found


def commented_out_code(source: str) -> list[str]:
    """Comment lines of a code cell that are themselves Python code (a call, an assignment, a
    loop): an answer left for the learner to uncomment."""
    hits = []
    for line in source.splitlines():
        text = line.strip()
        if not text.startswith("#"):
            continue
        body = text.lstrip("#").strip().split("  # ")[0].rstrip("← ").strip()
        if not body or body.startswith(("!", "%")):
            continue
        try:
            tree = ast.parse(body)
        except SyntaxError:
            continue
        if any(isinstance(n, (ast.Call, ast.Assign, ast.AugAssign, ast.For, ast.While, ast.Subscript))
               for n in ast.walk(tree)):
            hits.append(line)
    return hits


def test_the_detector_finds_commented_out_answers() -> None:
    assert commented_out_code('t = 1\n# print(t.run_until("selectHost").message)   # ← check')
    assert commented_out_code("# n = 0\n# while e.stage != 'x':\n#     e = t.step()")
    assert not commented_out_code("# the informer's handlers run here\n# (see notebook 05)\nx = 1")
    assert not commented_out_code("x = 1  # ignored: the answer is computed")


def test_every_unit_has_its_notebook_and_every_notebook_its_unit() -> None:
    stems = {p.stem for p in NOTEBOOKS}
    assert {u.notebook for u in catalog.units()} == stems
    keys = [u.key for u in catalog.units()]
    assert len(keys) == len(set(keys)) and keys[-1] == "17"  # the mastery check ends the path
    assert catalog.unit("17").notebook == "17-mastery-check" and MASTERY_ACTIVITY.startswith("17/")
    for u in catalog.units():
        for pre in u.prerequisites:
            assert pre in keys and keys.index(pre) < keys.index(u.key), (u.key, pre)
        assert 3 <= len(u.objectives) <= 5 and all(o.key.startswith(u.key + ".") for o in u.objectives)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_opens_with_its_objectives_and_checks_each_of_them(path: Path) -> None:
    nb = _nb(path)
    unit = catalog.unit(path.stem)
    tagged = [i for i, c in enumerate(nb.cells) if "objectives" in _tags(c)]
    assert tagged == [0], f"{path.name}: the objectives cell must be the first and only one, got {tagged}"
    cell = nb.cells[0]
    assert cell.cell_type == "markdown" and cell.source == catalog.render_objectives(unit)
    minutes = unit.minutes
    assert minutes is not None and f"about **{minutes} min**" in cell.source, "time not measured"
    checked = checked_activities(nb)
    for o in unit.objectives:
        assert o.text in cell.source
        present = [a for a in o.activities if a in checked]
        assert present, f"{path.name}: objective {o.key} is not exercised by any checked cell"
        assert present == list(o.activities), f"{path.name}: objective {o.key} names missing activities"
    for key in checked:
        assert key.split("/")[0] == unit.key, f"{path.name} checks {key}, an activity of another unit"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_no_commented_out_answer_cell(path: Path) -> None:
    hits = [(i, line) for i, c in enumerate(_nb(path).cells) if c.cell_type == "code"
            for line in commented_out_code(c.source)]
    assert not hits, f"{path.name}: commented-out answers {hits}"


def test_every_registered_activity_is_a_cell_of_its_notebook() -> None:
    cells = {}
    for path in NOTEBOOKS:
        cells.update(checked_activities(_nb(path)))
    missing = [k for k in activity.keys() if k not in cells]
    assert not missing, f"activities without a notebook cell: {missing}"


def test_the_readme_curriculum_lists_every_unit_with_its_time() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## The curriculum", 1)[1].split("\n## ", 1)[0]
    for u in catalog.units():
        assert f"notebooks/{u.notebook}.ipynb" in section, u.notebook
        assert re.search(rf"{re.escape(u.notebook)}\.ipynb\)[^\n]*\| *{u.minutes} min", section), u.notebook
    assert "course-map.ipynb" in section and "kschedlearn.course()" in section
