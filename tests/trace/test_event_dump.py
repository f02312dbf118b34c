"""Every event of every bundled scenario, on both engines, is the one the committed dump holds.

kschedlearn-only (issue 21 item 1). ``tools/event_dump.py`` wrote the dump from the code as it
was before the trace points left the mirrored files; moving them changed no stage, time, message,
narration, data or snapshot — only the line an event is attributed to, which the dump leaves out.
A change of behaviour that is meant (a fixed bug) rewrites the dump in the same commit.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from kschedlearn.scenarios.scenario import bundled_names

_TOOL = Path(__file__).resolve().parents[2] / "tools" / "event_dump.py"
_spec = importlib.util.spec_from_file_location("event_dump", _TOOL)
assert _spec is not None and _spec.loader is not None
event_dump = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(event_dump)


@pytest.fixture(scope="module")
def committed() -> dict[str, list[list[object]]]:
    return event_dump.load()


def test_the_dump_covers_every_bundled_scenario_on_both_engines(committed: dict[str, list[list[object]]]) -> None:
    assert sorted(committed) == sorted(f"{n} {e}" for n in bundled_names() for e in event_dump.ENGINES)


@pytest.mark.parametrize("engine", event_dump.ENGINES)
@pytest.mark.parametrize("scenario", bundled_names())
def test_events_identical_to_the_dump(committed: dict[str, list[list[object]]], scenario: str, engine: str) -> None:
    run = f"{scenario} {engine}"
    diff = event_dump.first_difference({run: committed[run]}, {run: event_dump.event_rows(scenario, engine)})
    assert diff == ""
