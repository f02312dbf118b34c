"""When a snapshot is thinned: an informer's own events while it processes its initial list.

Go: none — kschedlearn-only (DESIGN §6). ``SnapshotBuilder`` (``trace/snapshot.py``) asks
:func:`thinned_queue` at every snapshot; the queue sources are ``observe.sharing.Source`` objects,
whose watch notes the goroutine processing a popped item and the size of the last ``Replace``.
A source of another kind (any object with ``debug_state`` and ``kind``) has no watch to ask and
is never thinned.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def thinned_queue(queues: Mapping[str, Any], current: Any, threshold: int, targets: Mapping[str, Any],
                  views: Mapping[str, Any]) -> tuple[str, int] | None:
    """(the queue's name, how many items its list had) when ``current`` is processing an item
    its followed DeltaFIFO handed over from an initial list of at least ``threshold`` items and
    that item is not the list's last (Pop lowers the count left as it takes an item); ``targets``
    / ``views``: the queues and their views as the last full snapshot built them (the carried
    view must be of the same queue: the same focused replica)."""
    for name, source in queues.items():
        known = getattr(source, "known_watch", None) if source.kind == "DeltaFIFO" else None
        if known is None or known[1].processing is not current:  # (cheap: no target asked)
            continue
        found = source.watched()  # the focused replica's queue now
        if found is None:
            continue
        queue, w = found
        if w.processing is current and w.listed >= threshold \
                and getattr(queue, "_initial_population_count", 0) > 0 \
                and targets.get(name) is queue and name in views:
            return name, w.listed
    return None


def thinned_texts(memo: dict[tuple[str, int], tuple[tuple[str, ...], str]], name: str,
                  listed: int) -> tuple[tuple[str, ...], str]:
    """A thinned snapshot's ``thinned`` and ``thinned_why`` for queue ``name``'s list of
    ``listed`` items, made once per list in ``memo`` (the same for each of its events)."""
    texts = memo.get((name, listed))
    if texts is None:
        texts = memo[(name, listed)] = (
            ("cache", "queues." + name), f"not refreshed while {name} processes its initial list of {listed:,} items")
    return texts


def queue_targets(queues: Mapping[str, Any]) -> dict[str, Any]:
    """The followed DeltaFIFOs whose views the last full snapshot built (by name): what a thinned
    snapshot checks it still shows."""
    out = {}
    for name, source in queues.items():
        known = getattr(source, "known_watch", None) if source.kind == "DeltaFIFO" else None
        if known is not None:
            out[name] = known[0]
    return out


__all__ = ["queue_targets", "thinned_queue", "thinned_texts"]
