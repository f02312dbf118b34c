"""Every Go link in the package is in the one link table, docs/go-links.tsv, and every row is used.

The table (Go file, symbol, line range, Python twin) was derived from the exact v1.6.1 tree
with tools/go_ranges.py (declaration or doc comment through the closing brace) and is
rebuilt with ``python3 tools/go_links_table.py GO_ROOT``. This test needs no Go source: it
checks that the package and the table agree, so a later edit of a link (or of the table)
cannot drift silently.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("go_links_table", ROOT / "tools" / "go_links_table.py")
assert _spec is not None and _spec.loader is not None
glt = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(glt)

LINKS = glt.collect_links()
TABLE = glt.read_table()


def test_table_is_well_formed():
    seen = set()
    for row in TABLE:
        assert re.fullmatch(r"L\d+-L\d+", row["range"]), row
        start, end = (int(x) for x in row["range"][1:].split("-L"))
        assert 1 <= start <= end, row
        assert row["go_file"].endswith(".go") and row["symbol"] and row["python"], row
        key = (row["go_file"], row["range"])
        assert key not in seen, f"duplicate row {key}"
        seen.add(key)


def test_every_relative_link_resolves_to_a_go_file():
    unresolved = [(link["python"], link["text"]) for link in LINKS if link["go_file"] is None]
    assert unresolved == [], "a bare file.go#L.. link needs a full URL of that file in its module"


def test_every_linked_range_is_in_the_table_with_its_twin():
    rows = {(r["go_file"], r["range"]): set(r["python"].split(", ")) for r in TABLE}
    missing = []
    for link in LINKS:
        if not link["range"] or link["go_file"] is None:
            continue
        twins = rows.get((link["go_file"], link["range"]))
        if twins is None or link["python"] not in twins:
            missing.append(f"{link['python']}: {link['go_file']}#{link['range']}")
    assert missing == [], "links not in docs/go-links.tsv (run tools/go_links_table.py):\n" + "\n".join(missing)


def test_every_table_row_is_used():
    used = {(str(link["go_file"]), str(link["range"]), str(link["python"])) for link in LINKS}
    unused = [r for r in TABLE
              for twin in r["python"].split(", ") if (r["go_file"], r["range"], twin) not in used]
    assert unused == [], f"rows or twins no docstring links any more: {unused}"


def test_a_symbol_link_always_has_a_range():
    """A class or function docstring names one symbol (or one block): its URL carries a range.
    Only module docstrings may link a whole file."""
    bare = [(link["python"], link["text"]) for link in LINKS if not link["module_doc"] and not link["range"]]
    assert bare == []


@pytest.mark.parametrize("twin, go_file, rng", [
    ("kschedlearn.scheduler.factory.factory:ConfigFactory._create_assigned_non_terminated_pod_lw",
     "plugin/pkg/scheduler/factory/factory.go", "L506-L512"),
    ("kschedlearn.scheduler.factory.factory:ConfigFactory._create_unassigned_non_terminated_pod_lw",
     "plugin/pkg/scheduler/factory/factory.go", "L499-L504"),
    ("kschedlearn.scheduler.core.generic_scheduler:new_generic_scheduler",
     "plugin/pkg/scheduler/core/generic_scheduler.go", "L387-L403"),
    ("kschedlearn.scheduler.core.generic_scheduler:equal_priority_map",
     "plugin/pkg/scheduler/core/generic_scheduler.go", "L375-L385"),
], ids=["assigned-pod-lw", "unassigned-pod-lw", "NewGenericScheduler", "EqualPriorityMap"])
def test_known_fixed_links(twin, go_file, rng):
    """Links the issue reported wrong (swapped, or past the end of the file)."""
    assert any(link["python"] == twin and link["go_file"] == go_file and link["range"] == rng for link in LINKS)
