"""An LRU set of UIDs: the owners the collector found absent.

Go: pkg/controller/garbagecollector/uid_cache.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/controller/garbagecollector/uid_cache.go

Differs from Go: ``groupcache/lru`` is an ordered dict; no mutex (goroutines of a simulation
never run at the same time).
"""

from __future__ import annotations

from collections import OrderedDict

import attrs


@attrs.define(eq=False)
class UIDCache:
    """Go: ``UIDCache`` — uid_cache.go#L26-L30."""

    max_entries: int
    cache: OrderedDict[str, None] = attrs.field(factory=OrderedDict)

    def add(self, uid: str) -> None:
        """Go: ``(*UIDCache).Add`` — uid_cache.go#L39-L44 (the oldest entry leaves when full)."""
        self.cache[uid] = None
        self.cache.move_to_end(uid)
        if self.max_entries and len(self.cache) > self.max_entries:
            self.cache.popitem(last=False)

    def has(self, uid: str) -> bool:
        """Go: ``(*UIDCache).Has`` — uid_cache.go#L46-L52 (a hit counts as a use)."""
        found = uid in self.cache
        if found:
            self.cache.move_to_end(uid)
        return found


def new_uid_cache(max_cache_entries: int) -> UIDCache:
    """Go: ``NewUIDCache`` — uid_cache.go#L32-L37."""
    return UIDCache(max_cache_entries)


__all__ = ["UIDCache", "new_uid_cache"]
