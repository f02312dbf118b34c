"""A snapshot's JSON text is ``json.dumps(to_json())`` exactly, reused parts or not.

kschedlearn-only (issue 25): ``Snapshot.dumps`` writes through ``json``'s C encoder
(``attrs_json.dumps``) and reuses the text of parts shared with the snapshots dumped just before
(``trace/snapshot_text.py``). Compared here with the old way — the ``to_json`` dicts dumped with
sorted keys — on every snapshot of bundled runs (in order, out of order, with the memo dropped
after every part), on thinned snapshots, and on generated values under Hypothesis.
"""

from __future__ import annotations

import json
import math
import warnings
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.hypothesis_budget import examples

from kschedlearn import Simulation
from kschedlearn.trace import snapshot_text
from kschedlearn.trace.attrs_json import dumps, encode
from kschedlearn.trace.chunks import Chunks
from kschedlearn.trace.snapshot import Snapshot


def _old(snapshot: Snapshot) -> str:
    return json.dumps(snapshot.to_json(), sort_keys=True, separators=(",", ":"))


def _snapshots(name: str) -> list[Snapshot]:
    sim = Simulation.from_scenario(name, seed=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (a scenario's simulated crash)
        sim.run()
    return [e.snapshot for e in sim.trace if e.snapshot is not None]


@pytest.mark.parametrize("name", ["three-nodes", "burst-100-pods"])
def test_every_snapshot_dumps_as_its_json(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    snaps = _snapshots(name)
    assert any(isinstance(s.goroutines, Chunks) for s in snaps)  # shared chunk by chunk
    for s in snaps:  # in order: most parts reused
        assert s.dumps() == _old(s), s.seq
    for s in reversed(snaps[::5]):  # out of order
        assert s.dumps() == _old(s), s.seq
    # a memo that drops a generation after every part: nothing reused for long
    monkeypatch.setattr(snapshot_text, "_TEXTS", snapshot_text.PartTexts(limit=0))
    monkeypatch.setattr(snapshot_text, "_CHUNK_TEXTS", snapshot_text.PartTexts(limit=0))
    for s in snaps[::3]:
        assert s.dumps() == _old(s), s.seq


def test_a_tuple_that_is_a_chunk_and_a_part_is_written_as_each() -> None:
    """A chunk's text has no brackets, a part's has: the empty tuple (one object in CPython) is
    an empty chunk of the goroutines and the value of a store in the same snapshot."""
    shared = ("x",)
    s = Snapshot(seq=1, time=0.5, goroutines=Chunks(((), shared)), stores={"pods": (), "nodes": shared},
                 stages_seen=shared)
    assert s.dumps() == _old(s)
    assert s.dumps() == _old(s)  # again, from the memo


def test_thinned_snapshots_keep_their_thinned_fields() -> None:
    s = Snapshot(seq=3, time=1.5, thinned=("cache",), thinned_as_of=2, thinned_why="initial list")
    assert s.dumps() == _old(s) and '"thinned_as_of":2' in s.dumps()
    plain = Snapshot(seq=3, time=1.5)
    assert plain.dumps() == _old(plain) and "thinned" not in plain.dumps()


def test_a_part_s_text_is_reused_for_that_object_only() -> None:
    texts = snapshot_text.PartTexts()
    calls: list[Any] = []

    def write(part: Any) -> str:
        calls.append(part)
        return dumps(part)

    a, b = (1, 2.0), (1.0, 2)  # equal, written differently
    assert a == b
    assert texts.text(a, write) == "[1,2.0]" and texts.text(b, write) == "[1.0,2]"
    assert texts.text(a, write) == "[1,2.0]" and len(calls) == 2  # a's text kept


def test_an_older_generation_moves_on_and_then_goes() -> None:
    texts = snapshot_text.PartTexts(limit=10)
    calls: list[Any] = []

    def write(part: Any) -> str:
        calls.append(part)
        return "x" * 6

    parts = [(i,) for i in range(4)]
    for p in parts:
        texts.text(p, write)
    assert len(calls) == 4
    texts.text(parts[3], write)  # in the newer generation
    texts.text(parts[1], write)  # in the older: moves on
    assert len(calls) == 4
    texts.text(parts[0], write)  # two generations on: written again
    assert len(calls) == 5


@attrs.frozen
class _Leaf:
    name: str
    count: int
    ratio: float | None = None


@attrs.frozen
class _Node:
    label: str
    table: dict[Any, Any]
    leaves: tuple[_Leaf, ...] | Chunks[_Leaf]
    extra: Any = None


_TEXT = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=6)
_NUMBER = st.one_of(st.integers(-10**20, 10**20), st.floats(allow_nan=True, allow_infinity=True), st.booleans())
_LEAF = st.builds(_Leaf, _TEXT, st.integers(-5, 5), st.one_of(st.none(), st.floats(allow_nan=True)))
#: one kind of key per mapping (``encode`` sorts the keys as they are)
_KEYS = (_TEXT, st.integers(-3, 30), st.booleans(), st.none())


def _tables(values: st.SearchStrategy[Any], size: int) -> st.SearchStrategy[dict[Any, Any]]:
    return st.one_of(*(st.dictionaries(key, values, max_size=size) for key in _KEYS))


_LEAVES = st.lists(_LEAF, max_size=6).flatmap(
    lambda xs: st.sampled_from([tuple(xs), Chunks.of(xs), Chunks((tuple(xs[:2]), (), tuple(xs[2:])))]))
_PLAIN = st.one_of(st.none(), _TEXT, _NUMBER)
_NODE = st.builds(_Node, _TEXT, _tables(st.one_of(_PLAIN, _LEAF), 5), _LEAVES,
                  st.one_of(_PLAIN, _LEAF, _tables(_PLAIN, 4),
                            st.lists(st.one_of(_PLAIN, _LEAF), max_size=4).map(tuple)))


@settings(max_examples=examples(200), deadline=None)
@given(value=st.one_of(_NODE, st.lists(_NODE, max_size=3), _tables(_NODE, 3), _LEAVES, _PLAIN))
def test_dumps_is_json_dumps_of_encode(value: Any) -> None:
    """Attrs values holding dicts with string, integer, boolean and None keys (sorted as strings,
    as ``encode`` makes them), Chunks, NaN and infinities, non-ASCII text."""
    want = json.dumps(encode(value), sort_keys=True, separators=(",", ":"))
    assert dumps(value) == want
    if isinstance(value, float) and math.isnan(value):
        assert want == "NaN"


def test_dumps_refuses_what_encode_cannot_write() -> None:
    with pytest.raises(TypeError, match="not JSON serializable"):
        dumps(_Leaf("a", 1, ratio=object()))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="not JSON serializable"):
        json.dumps(encode(_Leaf("a", 1, ratio=object())))  # type: ignore[arg-type]
