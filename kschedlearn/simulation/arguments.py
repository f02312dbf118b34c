"""Argument checks of the notebook API, made before anything moves or forks.

Go: none — kschedlearn-only. ``sim.goto(2.5)`` used to leave a float cursor behind (and every
later ``step`` failed); ``jump_clock(-100)`` moved virtual time backwards. Each helper here
raises :class:`SimulationError` naming the call, the parameter and the value, and suggests
close names for unknown pods and nodes, so the session (cursor, recorded history) is untouched.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from typing import Any

from kschedlearn.scenarios.validate import suggest


from kschedlearn.simulation.checks import SimulationError  # one error class for the whole notebook API


_NAME = re.compile(r"^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$")  # DNS-1123 subdomain (Go's validation)
DNS_NAME = _NAME


def whole_number(call: str, param: str, value: Any, *, low: int = 0, high: int | None = None) -> int:
    """``value`` as an int in ``low..high``; SimulationError otherwise (bool is not a number)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise SimulationError(f"{call}: {param} must be a whole number, got {value!r} ({type(value).__name__})")
    if value < low or (high is not None and value > high):
        bound = f">= {low}" if high is None else f"in {low}..{high}"
        raise SimulationError(f"{call}: {param} must be {bound}, got {value!r}")
    return value


def seconds(call: str, param: str, value: Any, *, positive: bool = True) -> float:
    """``value`` as finite seconds (> 0 with ``positive``, else >= 0)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise SimulationError(f"{call}: {param} must be a finite number of seconds, got {value!r}")
    if value < 0 or (positive and value == 0):
        raise SimulationError(f"{call}: {param} must be {'> 0' if positive else '>= 0'} "
                              f"(virtual time only moves forward), got {value!r}")
    return float(value)


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
