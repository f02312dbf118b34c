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
