"""The JSON text of a snapshot, each part shared with the snapshots dumped just before written once.

Go: none — kschedlearn-only (issue 25). Consecutive snapshots share every part that did not
change — the very same objects (``trace/sharing.py``), and a long part's unchanged chunks
(``trace/chunks.py``) — so dumping a run's snapshots one after another (an export, a test that
compares every snapshot with a full rebuild) wrote the same parts again and again. This module
keeps the text of the parts it wrote lately, by identity, and writes the rest with
:func:`kschedlearn.trace.attrs_json.dumps`: the text is exactly ``Snapshot.to_json``'s, dumped with
sorted keys and compact separators.

A part's text is reused only for that very object, held by the memo while its text is kept (so
no other object can take its ``id``). Snapshot parts are immutable — frozen attrs values, tuples
and :class:`Chunks` of them (``trace/snapshot.py``) — so the text of a part cannot go stale; the
two ``dict`` fields of a :class:`Snapshot` itself (its queues and stores) are written afresh,
their values looked up.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from json.encoder import encode_basestring_ascii
from typing import Any

import attrs

from kschedlearn.trace.attrs_json import dumps
from kschedlearn.trace.chunks import Chunks

#: characters of text one generation of the memo holds before a new one starts (the older one is
#: dropped then): two generations hold the parts of the last snapshots dumped, at every scale
GENERATION_CHARS = 4_000_000

_SCALARS = (str, int, float, bool, type(None))


class PartTexts:
    """The text of snapshot parts by identity, in two generations: a part found in the older
    one moves to the newer; when the newer holds ``limit`` characters the older is dropped."""

    def __init__(self, limit: int = GENERATION_CHARS) -> None:
        self.limit = limit
        self._new: dict[int, tuple[Any, str]] = {}
        self._old: dict[int, tuple[Any, str]] = {}
        self._chars = 0

    def text(self, part: Any, write: Callable[[Any], str]) -> str:
        """``write(part)``, or the text it gave for this very object lately."""
        key = id(part)
        kept = self._new.get(key)
        if kept is not None and kept[0] is part:
            return kept[1]
        kept = self._old.get(key)
        if kept is None or kept[0] is not part:
            kept = (part, write(part))
        if self._chars > self.limit:
            self._old, self._new, self._chars = self._new, {}, 0
        self._new[key] = kept
        self._chars += len(kept[1])
        return kept[1]


_TEXTS = PartTexts()
#: a chunk's text is its elements without the brackets: kept apart from the parts' texts, since one
#: tuple can be both (the empty tuple is one object; a chunk may also be a field's value)
_CHUNK_TEXTS = PartTexts()


def snapshot_text(snapshot: Any, names: Iterable[str]) -> str:
    """The JSON object of ``snapshot``'s fields ``names`` (keys sorted, compact)."""
    items = []
    for name in sorted(names):
        items.append(f"{encode_basestring_ascii(name)}:{_field_text(getattr(snapshot, name))}")
    return "{" + ",".join(items) + "}"


def _field_text(value: Any) -> str:
    if isinstance(value, dict):  # queues, stores: keys as attrs_json writes them, values looked up
        texts = {str(k): _part_text(value[k]) for k in sorted(value)}
        return "{" + ",".join(f"{encode_basestring_ascii(k)}:{texts[k]}" for k in sorted(texts)) + "}"
    return _part_text(value)


def _part_text(value: Any) -> str:
    if isinstance(value, _SCALARS):
        return dumps(value)
    return _TEXTS.text(value, _write_part)


def _write_part(part: Any) -> str:
    """A part's text: a Chunks chunk by chunk, an attrs value field by field (so that the
    Chunks it holds reuse their chunks' text too), anything else at once."""
    if isinstance(part, Chunks):
        return _chunks_text(part)
    if attrs.has(type(part)):
        items = []
        for name in sorted(f.name for f in attrs.fields(type(part))):
            value = getattr(part, name)
            text = _chunks_text(value) if isinstance(value, Chunks) else dumps(value)
            items.append(f"{encode_basestring_ascii(name)}:{text}")
        return "{" + ",".join(items) + "}"
    return dumps(part)


def _chunks_text(chunks: Chunks[Any]) -> str:
    texts = (_CHUNK_TEXTS.text(chunk, _chunk_text) for chunk in chunks.chunks)
    return "[" + ",".join(text for text in texts if text) + "]"


def _chunk_text(chunk: tuple[Any, ...]) -> str:
    """A chunk's elements, comma-separated (empty for an empty chunk), each element's text reused
    by identity: a new chunk is mostly the elements of the chunk it replaced (one view changed)."""
    return ",".join(map(_part_text, chunk))


__all__ = ["GENERATION_CHARS", "PartTexts", "snapshot_text"]
