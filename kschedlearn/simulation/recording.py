"""Export and import of a recorded trace as JSON.

Go: none — kschedlearn-only. The JSON is a pure function of the recorded events (sorted keys,
compact separators), so the same scenario and seed give byte-identical text.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from kschedlearn.trace import Frame, TraceEvent
from kschedlearn.trace.snapshot import Snapshot

if TYPE_CHECKING:
    from kschedlearn.simulation.simulation import Simulation

FORMAT = "kschedlearn-trace/1"


def dump_trace(sim: Simulation, *, with_snapshots: bool = True) -> str:
    """The simulation's whole recorded history as JSON text."""
    from kschedlearn.simulation.on_demand import own_snapshot

    events = []
    for ev in sim.trace:
        data = ev.to_json()
        snap = own_snapshot(sim, ev.seq) if with_snapshots else None  # (on demand: built now)
        if snap is not None:
            data["snapshot"] = snap.to_json()
        events.append(data)
    doc = {"format": FORMAT, "scenario": sim.scenario.name, "seed": sim.seed, "events": events}
    return json.dumps(doc, sort_keys=True, separators=(",", ":"), default=_default)


def _default(value: Any) -> Any:
    if attrs.has(type(value)):
        return attrs.asdict(value)
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    return str(value)


@attrs.frozen
class Recording:
    """A trace read back from JSON: events (with snapshots) you can browse without running."""

    scenario: str
    seed: int
    events: tuple[TraceEvent, ...]

    def snapshot(self, seq: int) -> Snapshot | None:
        return self.events[seq].snapshot


def load_trace(text_or_path: str | Path) -> Recording:
    """Parse an exported trace (raises ValueError naming what is wrong)."""
    if not isinstance(text_or_path, (str, Path)):
        raise ValueError(f"trace: expected exported JSON text or a file path, got {text_or_path!r} "
                         f"({type(text_or_path).__name__})")
    text = str(text_or_path)
    if isinstance(text_or_path, Path) or not text.lstrip().startswith(("{", "[")):
        path = Path(text_or_path)
        if not path.is_file():
            raise ValueError(f"trace: {text[:200]!r} is {'a folder' if path.is_dir() else 'not a file'} "
                             "(expected exported JSON text or the path of a file holding it)")
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as err:
            raise ValueError(f"trace: {str(path)!r}: cannot read the file: {err}") from None
    try:
        doc = json.loads(text)
    except ValueError as err:
        raise ValueError(f"trace: invalid JSON: {err}") from err
    if not isinstance(doc, dict):
        raise ValueError(f"trace: expected a JSON object, got {type(doc).__name__}")
    if doc.get("format") != FORMAT:
        raise ValueError(f"trace: format must be {FORMAT!r}, got {doc.get('format')!r}")
    events = []
    for i, raw in enumerate(doc.get("events", [])):
        try:
            snap = Snapshot.from_json(raw["snapshot"]) if raw.get("snapshot") is not None else None
            events.append(TraceEvent(
                seq=raw["seq"], time=raw["time"], goroutine=raw["goroutine"], process=raw["process"],
                stage=raw["stage"], go_ref=raw["go_ref"], message=raw["message"], why=raw.get("why", ""),
                data=raw.get("data", {}), stack=tuple(Frame(**f) for f in raw.get("stack", ())),
                snapshot=snap,
            ))
        except (KeyError, TypeError, ValueError) as err:
            raise ValueError(f"trace: events[{i}]: {err}") from err
    return Recording(scenario=doc.get("scenario", ""), seed=int(doc.get("seed", 0)), events=tuple(events))
