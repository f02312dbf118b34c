"""The learner-facing sources cite only what a learner has, and compute their event numbers.

Go: none — kschedlearn-only (issue 11 item 5). A learner has the repository and the Go tree
at v1.6.1, not the project's spec ("Spec §9.3", "fact sheet §12"); and event numbers change
whenever the trace gains an event, so a notebook finds them with ``run_until`` / the trace
instead of typing them in.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted((ROOT / "notebooks" / "src").glob("*.py"))
EXERCISE_SOURCES = [ROOT / "tools" / "make_exercises.py", *sorted((ROOT / "kschedlearn" / "exercises").rglob("*.py"))]

#: citations of documents outside the repository
UNAVAILABLE = re.compile(r"\b[Ss]pec(?:ification)? (?:sections? )?§|fact sheet|§\s?\d+(?:\.\d+)?(?![^\n]*DESIGN)", re.IGNORECASE)
#: an event number typed in: goto(98), trace[98:...], "events 108–109", "event #97"
TYPED_EVENT = re.compile(r"goto\(\s*[1-9]\d*\s*\)|trace\[\s*[1-9]\d*\s*[:\]]|\bevents? #?\d{2,}\b|#\d{2,}\b(?!\d)")


def _learner_text(path: Path) -> str:
    """For exercise modules only what reaches the learner (strings), not ``Go:`` docstring lines."""
    text = path.read_text(encoding="utf-8")
    return "\n".join(line for line in text.splitlines() if "DESIGN §" not in line)


@pytest.mark.parametrize("path", SOURCES + EXERCISE_SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_citation_of_a_document_the_learner_does_not_have(path: Path) -> None:
    hits = [line.strip() for line in _learner_text(path).splitlines() if UNAVAILABLE.search(line)]
    assert not hits, f"{path.name} cites the project spec: {hits}"


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_no_hard_coded_event_number(path: Path) -> None:
    hits = [line.strip() for line in path.read_text(encoding="utf-8").splitlines()
            if TYPED_EVENT.search(line) and "PR #" not in line and "(#" not in line]
    assert not hits, f"{path.name} types event numbers in: {hits}"


def test_flags_heading_is_markdown() -> None:
    """Notebook 01's "## The flags" once sat inside a code cell, as a comment."""
    import nbformat

    nb = nbformat.read(ROOT / "notebooks" / "01-startup-chain.ipynb", as_version=4)
    assert any(c.cell_type == "markdown" and "## The flags" in c.source for c in nb.cells)
    assert not any(c.cell_type == "code" and "## The flags" in c.source for c in nb.cells)
