"""Every v1.6.1 Go link a learner can meet is in the one link table, docs/go-links.tsv.

The links come from the package (docstrings, comments, stage tables, exercise ``go_links``), the
notebook sources ``notebooks/src/*.py`` and the exercise notebooks ``exercises/*.ipynb``. The
table (Go file, symbol, line range, where it is linked) was generated from the exact v1.6.1 tree
by ``python3 tools/go_links_table.py GO_ROOT -o docs/go-links.tsv``, which names each range after the declaration it
covers exactly (``tools/go_ranges.py``: doc comment through closing line) and writes ``-`` for a
range that covers none. CI has no Go tree: the table is the evidence, and this test checks that
the links and the table agree, so an edited or new link cannot drift silently.
"""

from __future__ import annotations

import functools
import importlib.util
import re
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("go_links_table", ROOT / "tools" / "go_links_table.py")
assert _spec is not None and _spec.loader is not None
glt = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(glt)



# Read when a test first asks, not at import: collecting the links walks the whole package,
# the notebooks and the exercises (~3 s), which `make test-fast`'s collection need not pay for
# tests it may not run.
@functools.cache
def _links() -> list[dict]:
    return glt.collect_links()


@functools.cache
def _table() -> list[dict]:
    return glt.read_table()


@functools.cache
def _rows() -> dict:
    return {(r["go_file"], r["range"]): r for r in _table()}

REGENERATE = "regenerate it with: python3 tools/go_links_table.py GO_ROOT -o docs/go-links.tsv"


def _where(link: dict) -> str:
    return f"{link['where']}: {link['text']}"


def test_links_come_from_code_notebooks_and_exercises():
    kinds = {link["where"].split("/")[0].split(".")[0] for link in _links()}
    assert kinds == {"kschedlearn", "notebooks", "exercises"}


def test_table_is_well_formed():
    seen = set()
    for row in _table():
        assert row["range"] == glt.NO_RANGE or re.fullmatch(r"L\d+-L\d+", row["range"]), row
        if row["range"] != glt.NO_RANGE:
            start, end = (int(x) for x in row["range"][1:].split("-L"))
            assert 1 <= start <= end, row
        assert row["go_file"] and row["symbol"] and row["where"], row
        key = (row["go_file"], row["range"])
        assert key not in seen, f"duplicate row {key}"
        seen.add(key)


def test_every_relative_link_resolves_to_a_go_file():
    unresolved = [_where(link) for link in _links() if link["go_file"] is None]
    assert unresolved == [], "a bare file.go#L.. link needs a full URL of that file in its module"


def test_every_link_is_in_the_table_with_its_range():
    missing = [_where(link) for link in _links() if link["go_file"] is not None
               and link["where"] not in _rows().get((link["go_file"], link["range"]), {}).get("where", "").split(", ")]
    assert missing == [], f"links not in docs/go-links.tsv ({REGENERATE}):\n" + "\n".join(missing)


def test_every_table_row_is_used():
    used = {(link["go_file"], link["range"], link["where"]) for link in _links()}
    unused = [(r["go_file"], r["range"], where) for r in _table() for where in r["where"].split(", ")
              if (r["go_file"], r["range"], where) not in used]
    assert unused == [], f"rows nothing links any more ({REGENERATE}): {unused}"


def test_every_range_lands_exactly_on_declarations():
    """``-``: when the table was generated, the range covered no declaration exactly (a block
    inside a function, a range off by a line, a wrong function's lines)."""
    off = [f"{r['go_file']}#{r['range']} ({r['where']})" for r in _table() if r["symbol"] == "-"]
    assert off == [], "ranges that are no Go declaration (link the whole function):\n" + "\n".join(off)


def test_one_range_per_symbol():
    ranges = defaultdict(set)
    for r in _table():
        if r["range"] != glt.NO_RANGE and " .. " not in r["symbol"]:
            ranges[(r["go_file"], r["symbol"])].add(r["range"])
    assert {k: v for k, v in ranges.items() if len(v) > 1} == {}


def test_a_symbol_link_always_has_a_range():
    """A class or function names one symbol (or one block): its URL carries a range. Only module
    level text (a module docstring, a notebook, an exercise) may link a whole file."""
    bare = [_where(link) for link in _links()
            if not link["module_level"] and link["range"] == glt.NO_RANGE and link["go_file"].endswith(".go")]
    assert bare == []


def _short(symbol: str) -> str:
    return symbol.rsplit(".", 1)[-1] if symbol.startswith("(") else symbol


def test_link_text_names_the_linked_symbol():
    """``[fifo.go Pop](…#L137-L153)`` is caught: the text names a Go symbol of that file the
    table knows (``Pop``) and the range is another one (``(FIFO).Add``)."""
    names = defaultdict(set)
    for r in _table():
        if r["range"] != glt.NO_RANGE and " .. " not in r["symbol"]:
            names[r["go_file"]].add(_short(r["symbol"]))
    wrong = []
    for link in _links():
        row = _rows().get((link["go_file"], link["range"]))
        if not link["label"] or row is None or row["range"] == glt.NO_RANGE or " .. " in row["symbol"]:
            continue
        named = set(re.findall(r"[A-Za-z_]\w*", link["label"])) & names[link["go_file"]]
        if named and _short(row["symbol"]) not in named:
            wrong.append(f"{_where(link)} is {row['symbol']}, the text names {sorted(named)}")
    assert wrong == []


@pytest.mark.parametrize("where, go_file, rng", [
    ("kschedlearn.scheduler.factory.factory:ConfigFactory._create_assigned_non_terminated_pod_lw",
     "plugin/pkg/scheduler/factory/factory.go", "L506-L512"),
    ("kschedlearn.scheduler.factory.factory:ConfigFactory._create_unassigned_non_terminated_pod_lw",
     "plugin/pkg/scheduler/factory/factory.go", "L499-L504"),
    ("kschedlearn.scheduler.core.generic_scheduler:new_generic_scheduler",
     "plugin/pkg/scheduler/core/generic_scheduler.go", "L387-L403"),
    ("kschedlearn.scheduler.core.generic_scheduler:equal_priority_map",
     "plugin/pkg/scheduler/core/generic_scheduler.go", "L375-L385"),
    ("exercises/03-1-fifo-pop.ipynb", "staging/src/k8s.io/client-go/tools/cache/fifo.go", "L255-L293"),
    ("exercises/03-2-delta-fifo-dedup.ipynb", "staging/src/k8s.io/client-go/tools/cache/delta_fifo.go", "L262-L276"),
    ("exercises/05-2-cache-expiry.ipynb", "plugin/pkg/scheduler/schedulercache/cache.go", "L354-L377"),
    ("exercises/06-1-pod-fits-resources.ipynb", "plugin/pkg/scheduler/algorithm/predicates/predicates.go",
     "L546-L592"),
    ("exercises/10-1-custom-policy.ipynb", "plugin/pkg/scheduler/factory/factory.go", "L309-L342"),
    ("notebooks/src/00-start-here.py", "plugin/pkg/scheduler/schedulercache/cache.go", "L109-L128"),
    ("notebooks/src/05-scheduler-cache.py", "plugin/pkg/scheduler/schedulercache/cache.go", "L154-L181"),
], ids=["assigned-pod-lw", "unassigned-pod-lw", "NewGenericScheduler", "EqualPriorityMap", "ex3.1-Pop",
        "ex3.2-dedupDeltas", "ex5.2-cleanupAssumedPods", "ex6.1-PodFitsResources", "ex10.1-CreateFromConfig",
        "nb00-AssumePod", "nb05-ForgetPod"])
def test_known_fixed_links(where, go_file, rng):
    """Links issues reported wrong (swapped, past the end of the file, off by a function)."""
    assert any(link["where"] == where and link["go_file"] == go_file and link["range"] == rng for link in _links())


@pytest.mark.parametrize("text", [
    "x = 1  # see fifo.go#L10-L20\n",
    's = "#"  # cache.go\n',
    's = "# a string, not a comment: cache.go"\n',
    "s = '''\n# inside a string: https://github.com/kubernetes/kubernetes/blob/v1.6.1/a.go\n'''\n",
    "a = 1\r# fifo.go in a comment after a lone CR\r",
    "a = 1\r\n# fifo.go in a comment after a CRLF\r\n",
    "# a comment\nx = 'fifo.go'  # another, without a link\n",
    "# fifo.go\\\n",
    "",
], ids=["comment", "hash-in-string-then-comment", "string-only", "docstring-only", "cr", "crlf",
        "link-outside-comment", "backslash", "empty"])
def test_the_comment_prefilter_keeps_every_link_comment(text: str) -> None:
    """``_link_comments`` tokenizes only texts with a line holding ``.go`` or ``/v1.6.1/`` after a
    ``#``: the same comments as tokenizing every text and keeping those that name a Go file."""
    every = [(line, c) for line, c in glt._comments(text) if ".go" in c or "/v1.6.1/" in c]
    assert list(glt._link_comments(text)) == every
