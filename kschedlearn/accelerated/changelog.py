"""The scheduler's snapshot map, recording which node names changed (the accelerated engine).

kschedlearn-only (see ``docs/accelerated-engine.md``). ``UpdateNodeNameToInfoMap`` (the
mirror's, unchanged) refreshes the snapshot by assigning a fresh clone to every node whose
``NodeInfo`` generation moved and deleting vanished names. A :class:`ChangeLogMap` is a plain
``dict`` (reads are the dict's own, at C speed) whose writes also append the name to a log, so
the accelerated engine's per-class views learn *which* nodes changed since they last looked —
after one placement, one name — instead of re-checking every node.

It also keeps two sets the engine asks about on every pod: the names whose ``NodeInfo`` holds
pods with (anti-)affinity terms, and the names whose ``NodeInfo`` has no node object.
"""

from __future__ import annotations

from typing import Any, Iterable

from kschedlearn.observe.wrap import MirrorMethods

#: compact the log when it grows past this many entries beyond the map's size
_SLACK = 4096


class ChangeLogMap(dict):  # type: ignore[type-arg]
    """A ``dict`` of node name -> snapshot ``NodeInfo`` that logs every written name.

    ``epoch`` changes when the log is compacted (readers then rebuild from scratch);
    ``log[pos:]`` are the names written since a reader's position ``pos`` of the same epoch.
    """

    def __init__(self, items: Iterable[tuple[str, Any]] | dict[str, Any] = ()) -> None:
        super().__init__()
        self.epoch = 0
        self.log: list[str] = []
        self.with_affinity: set[str] = set()
        self.nodeless: set[str] = set()
        for name, info in dict(items).items():
            self[name] = info

    def __reduce__(self) -> tuple[Any, ...]:
        # copy / pickle rebuild from the items (pickle would set items before the attributes)
        return (ChangeLogMap, (dict(self),))

    def _note(self, name: str, info: Any) -> None:
        if len(self.log) > len(self) + _SLACK:
            self.epoch += 1
            self.log = []
        self.log.append(name)
        if info is not None and info.pods_with_affinity():
            self.with_affinity.add(name)
        else:
            self.with_affinity.discard(name)
        if info is None or info.node() is None:
            self.nodeless.add(name)
        else:
            self.nodeless.discard(name)

    def __setitem__(self, name: str, info: Any) -> None:
        super().__setitem__(name, info)
        self._note(name, info)

    def __delitem__(self, name: str) -> None:
        super().__delitem__(name)
        self._note(name, None)
        self.nodeless.discard(name)

    def pop(self, name: str, *default: Any) -> Any:  # noqa: D102 - dict's
        if name in self:
            value = self[name]
            del self[name]
            return value
        return super().pop(name, *default)

    def popitem(self) -> tuple[str, Any]:  # noqa: D102 - dict's
        name, value = super().popitem()
        self._note(name, None)
        self.nodeless.discard(name)
        return name, value

    def setdefault(self, name: str, default: Any = None) -> Any:  # noqa: D102 - dict's
        if name not in self:
            self[name] = default
        return self[name]

    def update(self, *args: Any, **kwargs: Any) -> None:  # noqa: D102 - dict's
        for name, info in dict(*args, **kwargs).items():
            self[name] = info

    def clear(self) -> None:  # noqa: D102 - dict's
        super().clear()
        self.epoch += 1
        self.log = []
        self.with_affinity.clear()
        self.nodeless.clear()

    def changed_since(self, epoch: int, pos: int) -> set[str] | None:
        """Names written since (epoch, pos); None when the log was compacted since."""
        if epoch != self.epoch or pos > len(self.log):
            return None
        return set(self.log[pos:])

    def position(self) -> tuple[int, int]:
        """The reader's position now."""
        return self.epoch, len(self.log)


# -- which cache entries changed --------------------------------------------------------------
# ``UpdateNodeNameToInfoMap`` compares every node's generation for every pod: 1.6's own largest
# single cost at 1,000 nodes. The engine instead learns from outside which node names the cache
# touched since its last refresh — the five calls through which every NodeInfo change goes —
# and refreshes those names with the mirror's statements, in the same lock.

#: the cache's methods that change a NodeInfo, and the names each one touches
_TOUCHES: dict[str, Any] = {
    "_add_pod": lambda pod: (pod.spec.node_name,),
    "_remove_pod": lambda pod: (pod.spec.node_name,),
    "add_node": lambda node: (node.metadata.name,),
    "update_node": lambda old, new: (new.metadata.name,),
    "remove_node": lambda node: (node.metadata.name,),
}
#: the cache's methods that must be the mirror's own for that to hold (an exercise may plug a
#: learner's ``assume_pod`` or expiry in, which could change a NodeInfo another way)
_MIRROR_METHODS = ("update_node_name_to_info_map", "assume_pod", "finish_binding", "_finish_binding",
                   "forget_pod", "_add_pod", "_update_pod", "_remove_pod", "add_pod", "update_pod",
                   "remove_pod", "add_node", "update_node", "remove_node", "_cleanup_expired_assumed_pods",
                   "_cleanup_assumed_pods", "_expire_pod")
_CACHE_MODULE = "kschedlearn.scheduler.schedulercache.cache"


class CacheChanges:
    """Node names the cache changed since the engine's last refresh (``None``: not known)."""

    def __init__(self) -> None:
        self.names: set[str] | None = None  # None until the first full refresh

    def around(self, name: str) -> Any:
        touched = _TOUCHES[name]

        def note(proceed: Any, call: Any) -> Any:
            try:
                return proceed(*call.args, **call.kwargs)
            finally:
                if self.names is not None:
                    self.names.update(touched(*call.args, **call.kwargs))

        return note


def track_cache(cache: Any) -> CacheChanges | None:
    """Follow ``cache``'s NodeInfo changes (this instance only); None for another kind of cache."""
    from kschedlearn.observe.wrap import on_method
    from kschedlearn.scheduler.schedulercache.cache import SchedulerCache

    if type(cache) is not SchedulerCache:
        return None
    changes = CacheChanges()
    for name in _TOUCHES:
        on_method(cache, name, around=changes.around(name))
    return changes


#: whether the cache's NodeInfo-changing methods are still the mirror's (remembered by identity)
_CACHE_METHODS = MirrorMethods(_MIRROR_METHODS, _CACHE_MODULE, "SchedulerCache")


def _mirror_methods(cache: Any) -> bool:
    return _CACHE_METHODS.check(type(cache))[0]


def refresh(cache: Any, changes: CacheChanges | None, info_map: dict[str, Any]) -> None:
    """``cache.update_node_name_to_info_map(info_map)``, looking only at the names changed since
    the last call when that is known to give the same map (same entries, same order)."""
    names = changes.names if changes is not None else None
    if names is None or any(n not in info_map for n in names) or not _mirror_methods(cache):
        # the first refresh, a name new to the map (the mirror inserts new names in the cache's
        # order), or a cache method that is not the mirror's: the mirror's whole walk
        if changes is not None:
            changes.names = set()
        cache.update_node_name_to_info_map(info_map)
        return
    changes.names = set()
    # the mirror's statements of UpdateNodeNameToInfoMap, for the changed names only:
    # https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/cache.go#L79-L93
    with cache._mu:
        nodes = cache._nodes
        for name in names:
            info = nodes.get(name)
            if info is None:
                if name in info_map:
                    del info_map[name]
                continue
            current = info_map.get(name)
            if current is None or current.generation != info.generation:
                info_map[name] = info.clone()
