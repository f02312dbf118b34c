"""Detect a learner function that changes the inputs it was only meant to read.

Go: none (kschedlearn-only, DESIGN §10). A predicate or a priority function gets a pod, the
predicate metadata and a NodeInfo that belong to the scheduler's cache: Go's code never writes
to them, and an answer that does would corrupt the cache in the real scheduler even when it
returns the right value. ``fingerprint(value)`` flattens a value into ``{path: leaf repr}``
(attrs fields, dicts, lists, tuples, sets, plain objects' ``__dict__``); comparing the
fingerprints taken before and after the call names the first path that changed.
"""

from __future__ import annotations

from typing import Any

import attrs

_LEAVES = (str, bytes, int, float, complex, bool, type(None))
_MAX_ENTRIES = 50_000
"""A bound on the walk (a huge input is compared on its first entries only)."""


def fingerprint(value: Any, root: str) -> dict[str, str]:
    """``{path: repr}`` of every leaf reachable from ``value`` (cycles are walked once)."""
    out: dict[str, str] = {}
    _walk(value, root, out, set())
    return out


def _walk(value: Any, path: str, out: dict[str, str], seen: set[int]) -> None:
    if len(out) >= _MAX_ENTRIES:
        return
    if isinstance(value, _LEAVES):
        out[path] = repr(value)
        return
    if id(value) in seen:
        out[path] = "<already seen>"
        return
    seen.add(id(value))
    out[path] = f"<{type(value).__name__}>"
    for sub, child in _children(value):
        _walk(child, f"{path}{sub}", out, seen)


def _children(value: Any) -> list[tuple[str, Any]]:
    if attrs.has(type(value)):
        # a memo (metadata "memo": a cache filled on read, e.g. NodeInfo's resource views) is not state
        return [(f".{f.name}", getattr(value, f.name, None)) for f in attrs.fields(type(value))
                if not f.metadata.get("memo")]
    if isinstance(value, dict):
        return [(f"[{k!r}]", v) for k, v in sorted(value.items(), key=lambda kv: repr(kv[0]))]
    if isinstance(value, (list, tuple)):
        return [(f"[{i}]", v) for i, v in enumerate(value)] + [(".len", len(value))]
    if isinstance(value, (set, frozenset)):
        return [(".items", sorted(repr(v) for v in value))]
    state = getattr(value, "__dict__", None)
    if isinstance(state, dict):
        return [(f".{k}", v) for k, v in sorted(state.items()) if not callable(v)]
    return [("", repr(value))]


def first_change(before: dict[str, str], after: dict[str, str]) -> str:
    """One sentence naming the first changed path, or "" when nothing changed."""
    for path in sorted(set(before) | set(after)):
        old, new = before.get(path), after.get(path)
        if old == new:
            continue
        if old is None:
            return f"{path} was added (= {_clip(new)})"
        if new is None:
            return f"{path} was removed (was {_clip(old)})"
        return f"{path} changed from {_clip(old)} to {_clip(new)}"
    return ""


def _clip(text: str | None, limit: int = 80) -> str:
    text = text or ""
    return text if len(text) <= limit else text[: limit - 3] + "..."
