"""``tools/event_dump.py``'s snapshot text: the same text ``Snapshot.to_json`` and ``json.dumps`` write.

kschedlearn-only (issue 25). The dump's digests are made from ``Snapshot.dumps`` without the
stack, which writes each shared snapshot part once (``trace/snapshot_text.py``);
``test_event_dump.py`` compares them with the committed dump for every bundled scenario. Here the
cases those runs do not reach: a thinned snapshot (its
three fields kept), chunked parts, floats that are not finite, non-ASCII text, mapping keys of
other types, a dict changed between two snapshots (written afresh), a type snapshots do not
hold today (refused as ``json.dumps`` refuses it).
"""

from __future__ import annotations

import importlib.util
import json
import math
from pathlib import Path

import attrs
import pytest

from kschedlearn.trace.attrs_json import dumps, encode
from kschedlearn.trace.chunks import Chunks
from kschedlearn.trace.snapshot import BackoffEntryView, GoroutineView, QueueItemView, QueueView, Snapshot

_TOOL = Path(__file__).resolve().parents[2] / "tools" / "event_dump.py"
_spec = importlib.util.spec_from_file_location("event_dump_text", _TOOL)
assert _spec is not None and _spec.loader is not None
event_dump = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(event_dump)


def _expected(snapshot: Snapshot) -> str:
    data = snapshot.to_json()
    data.pop("stack", None)
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def _snapshots() -> list[Snapshot]:
    items = (QueueItemView("default/p-é", ("Added",), "n1"), QueueItemView("default/q", (), ""))
    queue = QueueView("DeltaFIFO", Chunks.of(["default/p-é", "default/q"]), Chunks.of(items), True, 2)
    goroutines = Chunks((tuple(GoroutineView(i, f"g{i}", "p", "blocked", "chan") for i in range(3)), (),
                         (GoroutineView(9, "g9", "p", "running"),)))
    stores = {"pods": ("default/p-é",), "nodes": ()}
    first = Snapshot(seq=1, time=0.5, stage="schedule", goroutine="g1", queues={"podQueue": queue},
                     stores=stores, goroutines=goroutines, stages_seen=("schedule",),
                     backoff=(BackoffEntryView("default/q", math.inf, -math.inf, True),
                              BackoffEntryView("default/r", math.nan, 1e-7, False)))
    thinned = attrs.evolve(first, seq=2, thinned=("cache", "queues.podQueue"), thinned_as_of=1,
                           thinned_why="the informer's first list")
    stores["pods"] = ()  # a dict changed after it was written once: written afresh
    keyed = attrs.evolve(first, seq=3, queues={"b": queue, "a": attrs.evolve(queue, line=())})
    empty = Snapshot(seq=4, time=1.0)
    return [first, thinned, attrs.evolve(first, seq=5), keyed, empty]


def test_the_dump_writes_what_to_json_and_json_dumps_write() -> None:
    for snapshot in _snapshots():
        assert snapshot.dumps(leave_out=("stack",)) == _expected(snapshot)
        assert event_dump._snapshot_digest(snapshot) == event_dump._digest(event_dump._plain(_expected(snapshot)))
    first, thinned = _snapshots()[:2]
    assert '"thinned_why"' in thinned.dumps(leave_out=("stack",)) and '"thinned"' not in first.dumps(leave_out=("stack",))


def test_values_of_every_kind_are_written_as_json_dumps_writes_them() -> None:
    values = ["a\"\\\n\u00e9\U0001f600", 0, -3, 2**70, 0.1, -0.0, 1e300, math.inf, -math.inf, math.nan, True,
              False, None, [], (), {}, {3: "x", 1: (True, None)}, {"b": [1.5, "c"], "a": {}},
              Chunks(((), ("x",), (), ("y", "z"))), Chunks(((),)), frozenset()]
    for value in values[:-1]:
        assert dumps(value) == json.dumps(encode(value), sort_keys=True, separators=(",", ":"))
    with pytest.raises(TypeError, match="frozenset"):  # encode leaves it alone, json.dumps refuses it
        dumps(values[-1])
