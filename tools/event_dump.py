"""Dump every trace event of every bundled scenario, on both engines, in a comparable form.

kschedlearn-only. The committed dump (``tests/trace/data/event_dump.json.gz``) is the evidence
that moving the trace points out of the mirrored code (issue 21) changed no event: for each event
it keeps the seq, time, goroutine, process, stage, message, narration and data as they are, and
the snapshot as a digest of its JSON. The one thing allowed to change is where an event is
attributed to — the calling goroutine's stack of mirrored frames, which now ends at the Go-twin
statement making the observed call instead of at an inline trace line, and the stage's Go link
(corrected where it was wrong) — so stacks (the event's and its snapshot's) and Go links are
left out; ``tests/simulation/test_where.py`` and ``tests/test_go_links.py`` check them instead.

    .venv/bin/python tools/event_dump.py            # rewrite the committed dump
    .venv/bin/python tools/event_dump.py --check    # compare with it; exit 1 naming the first change
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DUMP = ROOT / "tests" / "trace" / "data" / "event_dump.json.gz"
ENGINES = ("mirrored", "accelerated")
SEED = 1
#: the example extender listens on a port the OS picks, and a policy file is written to a fresh
#: temporary folder: the same within a process, not across processes
_PORT = re.compile(r"127\.0\.0\.1:\d+")
_TMP = re.compile(r"kschedlearn-files-[0-9a-f]+")
#: data longer than this is kept as a digest (the dump stays small; a change still shows)
_LONG = 240


def _plain(text: str) -> str:
    return _TMP.sub("kschedlearn-files-X", _PORT.sub("127.0.0.1:PORT", text))


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _snapshot_digest(snapshot: Any) -> str:
    """The digest of the snapshot's JSON text without its stack (``Snapshot.dumps``: the text
    ``to_json`` and ``json.dumps`` write, each part shared with the snapshots before written once)."""
    if snapshot is None:
        return ""
    return _digest(_plain(snapshot.dumps(leave_out=("stack",))))


def event_rows(scenario: str, engine: str) -> list[list[Any]]:
    """One row per event of ``scenario`` run to its end on ``engine`` (seed 1, snapshots on)."""
    from kschedlearn import Simulation

    sim = Simulation.from_scenario(scenario, seed=SEED, engine=engine)
    world = sim.world
    world.run(None)
    rows = []
    for e in world.tracer.events:  # (the why is the stage's narration unless the event sets one)
        data = _plain(json.dumps(e.data, sort_keys=True, separators=(",", ":"), default=repr))
        data = data if len(data) <= _LONG else "sha256:" + _digest(data)
        rows.append([e.seq, e.time, e.goroutine, e.process, e.stage, _plain(e.message), e.why,
                     data, _snapshot_digest(e.snapshot)])
    return rows


def build() -> dict[str, list[list[Any]]]:
    """Every bundled scenario on both engines."""
    from kschedlearn.scenarios.scenario import bundled_names

    return {f"{name} {engine}": event_rows(name, engine) for name in bundled_names() for engine in ENGINES}


def load() -> dict[str, list[list[Any]]]:
    """The committed dump."""
    with gzip.open(DUMP, "rt", encoding="utf-8") as f:
        return json.load(f)


FIELDS = ("seq", "time", "goroutine", "process", "stage", "message", "why", "data", "snapshot")


def first_difference(expected: dict[str, list[list[Any]]], actual: dict[str, list[list[Any]]]) -> str:
    """"" when equal, else a sentence naming the run, the event and the field that changed."""
    if sorted(expected) != sorted(actual):
        return f"runs differ: expected {sorted(expected)}, got {sorted(actual)}"
    for run in expected:
        exp, act = expected[run], actual[run]
        for i, (a, b) in enumerate(zip(exp, act)):
            if a != b:
                for name, x, y in zip(FIELDS, a, b):
                    if x != y:
                        return f"{run}: event {i} ({a[4]}) {name}: expected {x!r}, got {y!r}"
        if len(exp) != len(act):
            return f"{run}: expected {len(exp)} events, got {len(act)}"
    return ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed dump")
    args = parser.parse_args(argv)
    current = build()
    if args.check:
        diff = first_difference(load(), current)
        sys.stdout.write((diff or "identical") + "\n")
        return 1 if diff else 0
    DUMP.parent.mkdir(parents=True, exist_ok=True)
    with gzip.GzipFile(DUMP, "wb", mtime=0) as f:
        f.write(json.dumps(current, separators=(",", ":")).encode())
    sys.stdout.write(f"wrote {DUMP.relative_to(ROOT)}: {sum(map(len, current.values()))} events\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
