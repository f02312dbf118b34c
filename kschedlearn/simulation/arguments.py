"""Argument checks of the notebook API, made before anything moves or forks.

Go: none — kschedlearn-only. ``sim.goto(2.5)`` used to leave a float cursor behind (and every
later ``step`` failed); ``jump_clock(-100)`` moved virtual time backwards. Each helper here
raises :class:`SimulationError` naming the call, the parameter and the value, and suggests
close names for unknown pods and nodes, so the session (cursor, recorded history) is untouched.
"""

from __future__ import annotations

import math
import operator
import re
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kschedlearn.scenarios.validate import suggest


from kschedlearn.simulation.checks import SimulationError  # one error class for the whole notebook API

if TYPE_CHECKING:
    from kschedlearn.simulation.simulation import Simulation
    from kschedlearn.trace import TraceEvent


_NAME = re.compile(r"^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$")  # DNS-1123 subdomain (Go's validation)
DNS_NAME = _NAME


def whole_number(call: str, param: str, value: Any, *, low: int = 0, high: int | None = None) -> int:
    """``value`` as an int in ``low..high``; SimulationError otherwise (bool is not a number).

    Integer types other than ``int`` (numpy's ``int64``, ...) are taken through ``__index__``.
    """
    if not isinstance(value, (bool, int)) and hasattr(type(value), "__index__") and type(value).__name__ != "bool_":
        value = operator.index(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise SimulationError(f"{call}: {param} must be a whole number, got {value!r} ({type(value).__name__})")
    if value < low or (high is not None and value > high):
        bound = f">= {low}" if high is None else f"in {low}..{high}"
        raise SimulationError(f"{call}: {param} must be {bound}, got {value!r}")
    return value


#: Go's time.Duration is int64 nanoseconds: no wait, timeout or clock jump is longer (~292 years)
MAX_SECONDS = (2**63 - 1) // 10**9


def seconds(call: str, param: str, value: Any, *, positive: bool = True) -> float:
    """``value`` as finite seconds (> 0 with ``positive``, else >= 0; at most Go's longest Duration)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise SimulationError(f"{call}: {param} must be a finite number of seconds, got {value!r}")
    if value < 0 or (positive and value == 0):
        raise SimulationError(f"{call}: {param} must be {'> 0' if positive else '>= 0'} "
                              f"(virtual time only moves forward), got {value!r}")
    if value > MAX_SECONDS:
        raise SimulationError(f"{call}: {param} must be at most {MAX_SECONDS} (Go's longest time.Duration, "
                              f"~292 years), got {value!r}")
    return float(value)


def flag(call: str, param: str, value: Any) -> bool:
    """``value`` if it is True or False (a string such as "no" is not silently truthy)."""
    if not isinstance(value, bool):
        raise SimulationError(f"{call}: {param} must be True or False, got {value!r} ({type(value).__name__})")
    return value


def snapshot_mode(call: str, value: Any) -> Any:
    """``snapshots=``: True (one at every event, as it is recorded), False, or "on-demand"."""
    from kschedlearn.simulation.on_demand import ON_DEMAND

    if value is True or value is False or value == ON_DEMAND:
        return value
    raise SimulationError(f"{call}: snapshots must be True, False or {ON_DEMAND!r}, got {value!r} ({type(value).__name__})"
                          + (suggest(value, [ON_DEMAND]) if isinstance(value, str) else ""))


def text(call: str, param: str, value: Any) -> str:
    """``value`` if it is a string."""
    if not isinstance(value, str):
        raise SimulationError(f"{call}: {param} must be a string, got {value!r} ({type(value).__name__})")
    return value


def pod_key(call: str, value: Any, known: Iterable[str]) -> str:
    """``namespace/name`` (``name`` alone means the default namespace) of a pod that exists."""
    if not isinstance(value, str):
        raise SimulationError(f"{call}: pod must be 'namespace/name', got {value!r} ({type(value).__name__})")
    ns, _, name = value.rpartition("/")
    ns = ns or "default"
    if not _NAME.match(name) or not _NAME.match(ns) or value.count("/") > 1:
        raise SimulationError(f"{call}: pod {value!r} is not 'namespace/name' with lower-case DNS names")
    key = f"{ns}/{name}"
    known = set(known)
    if key not in known:
        raise SimulationError(f"{call}: no pod {key!r}" + suggest(key, known))
    return key


def node_name(call: str, value: Any, known: Iterable[str]) -> str:
    """The name of a node that exists."""
    if not isinstance(value, str) or not _NAME.match(value):
        raise SimulationError(f"{call}: node must be a lower-case DNS name, got {value!r}")
    known = set(known)
    if value not in known:
        raise SimulationError(f"{call}: no node {value!r}" + suggest(value, known))
    return value


def one_of(call: str, param: str, value: Any, choices: Iterable[Any]) -> Any:
    """``value`` if it is one of ``choices``."""
    options = tuple(choices)
    if value not in options:
        shown = ", ".join(repr(c) for c in options)
        raise SimulationError(f"{call}: {param} must be one of {shown}, got {value!r}"
                              + (suggest(value, [str(o) for o in options]) if isinstance(value, str) else ""))
    return value


def writable_path(call: str, param: str, value: Any) -> Path:
    """``value`` as a path a file can be written to: its folder exists, it is not a folder."""
    if not isinstance(value, (str, Path)) or str(value) == "":
        raise SimulationError(f"{call}: {param} must be a file path, got {value!r} ({type(value).__name__})")
    path = Path(value)
    if path.is_dir():
        raise SimulationError(f"{call}: {param} {str(value)!r} is a folder, not a file")
    folder = path.parent
    if not folder.is_dir():
        raise SimulationError(f"{call}: {param} {str(value)!r}: the folder {str(folder)!r} does not exist")
    return path


def check_keywords(sim: Simulation) -> None:
    """Every keyword of ``Simulation(...)`` checked before a world is built: a bad one is an error
    naming it, not a session that fails (or silently misbehaves: ``snapshot_every=0``,
    ``assume="no"``) later. The engine is checked by ``build_world``."""
    from kschedlearn.simulation.history import GRANULARITIES, RECORD_LEVELS

    call = "Simulation"
    # numpy-style integers become plain ints (random.Random refuses them)
    sim.seed = whole_number(call, "seed", sim.seed, low=-(2**63), high=2**63 - 1)
    snapshot_mode(call, sim.snapshots)
    sim.snapshot_every = whole_number(call, "snapshot_every", sim.snapshot_every, low=1)
    sim.log_verbosity = whole_number(call, "log_verbosity", sim.log_verbosity, high=999)  # as the CLI's --v
    text(call, "follow", sim.follow)
    one_of(call, "granularity", sim.granularity, GRANULARITIES)
    one_of(call, "record", sim.record, tuple(RECORD_LEVELS))
    if sim.assume is not None:
        flag(call, "assume", sim.assume)
    text(call, "feature_gates", sim.feature_gates)


class GuardedPredicate:
    """A learner's ``run_until`` predicate that cannot kill a simulated process.

    It runs inside a simulated goroutine (the tracer asks it at every event): an exception
    escaping it would end that process as a Go panic. The first exception is kept, the run
    pauses at that event (the call answers True), and :meth:`error` reports it.
    """

    def __init__(self, predicate: Any) -> None:
        if predicate is not None and not callable(predicate):
            raise SimulationError(f"run_until: predicate must be a function of an event or a stage name, "
                                  f"got {predicate!r} ({type(predicate).__name__})")
        self.predicate = predicate
        self.failure: tuple[TraceEvent, Exception] | None = None

    def __call__(self, ev: TraceEvent) -> bool:
        if self.predicate is None:
            return True
        try:
            return bool(self.predicate(ev))
        except Exception as err:  # noqa: BLE001 - the learner's function, reported whole
            self.failure = self.failure or (ev, err)
            return True

    def error(self, cursor: int) -> SimulationError:
        assert self.failure is not None
        ev, err = self.failure
        error = SimulationError(f"run_until: the predicate raised {type(err).__name__}: {err} at event "
                                f"{ev.seq} ({ev.stage}); the cursor stays at event {cursor}")
        error.__cause__ = err
        return error
