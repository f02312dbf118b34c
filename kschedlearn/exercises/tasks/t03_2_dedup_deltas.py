"""Task 3.2: DeltaFIFO de-duplication of deletions, and ``Replace`` tombstones.

Go: staging/src/k8s.io/client-go/tools/cache/delta_fifo.go (dedupDeltas, isDeletionDup,
Replace) and delta_fifo_test.go (TestDeltaFIFO_ReplaceMakesDeletions, ..._detectLineJumpers)
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/delta_fifo.go#L262-L276
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from kschedlearn.client_go.tools.cache import delta_fifo as df
from kschedlearn.client_go.tools.cache.delta_fifo import (
    ADDED, DELETED, UPDATED, DeletedFinalStateUnknown, Delta, Deltas, new_delta_fifo,
)
from kschedlearn.exercises import framework as fw
from kschedlearn.exercises.registry import Task
from kschedlearn.exercises.tasks._common import GO, compare, swap_attr
from kschedlearn.exercises.tasks.t03_1_fifo_pop import Obj
from kschedlearn.observe.views import queue_state

TASK_ID = "3.2"
NAME = "dedup_deltas"
_REAL = df._dedup_deltas


def _key(obj: Any) -> str:
    return obj.key if isinstance(obj, DeletedFinalStateUnknown) else obj.name


class _Known:
    """Go's keyLookupFunc: the 'known objects' (the informer's store) of a DeltaFIFO."""

    def __init__(self, objs: list[Obj]) -> None:
        self._objs = {o.name: o for o in objs}

    def list_keys(self) -> list[str]:
        return list(self._objs)

    def get_by_key(self, key: str) -> tuple[Any, bool]:
        return self._objs.get(key), key in self._objs


def _show_deltas(deltas: Deltas) -> list[str]:
    out = []
    for d in deltas:
        obj = d.object
        text = f"Tombstone({obj.key}, {obj.obj!r})" if isinstance(obj, DeletedFinalStateUnknown) else repr(obj)
        out.append(f"{d.type} {text}")
    return out


def _direct(*deltas: Delta) -> Callable[[Callable[..., Any]], Any]:
    return lambda fn: _show_deltas(fn(Deltas(deltas)))


def _queue(known: list[Obj] | None, ops: list[tuple[str, Any]]) -> Callable[[Callable[..., Any]], Any]:
    def run(fn: Callable[..., Any]) -> Any:
        with _patch(fn):
            f = new_delta_fifo(_key, None, _Known(known) if known is not None else None)
            for op, arg in ops:
                if op == "replace":
                    f.replace(arg, "0")
                else:
                    getattr(f, op)(arg)
            state = queue_state(f)
            return [(k, _show_deltas(state.items[k])) for k in state.queue if k in state.items]
    return run


def _cases() -> list[fw.Case]:
    a1, a2 = Obj("a", 1), Obj("a", 2)
    tomb = DeletedFinalStateUnknown("a", a1)
    return [
        fw.Case("fewer than two deltas", "one Added delta", ["Added a=1"], _direct(Delta(ADDED, a1)),
                why="Nothing to compare: return the deltas unchanged."),
        fw.Case("add then delete is kept", "Added a=1, Deleted a=1", ["Added a=1", "Deleted a=1"],
                _direct(Delta(ADDED, a1), Delta(DELETED, a1)),
                why="Only two *deletions* in a row are duplicates in v1.6.1."),
        fw.Case("two deletions keep the older", "Deleted a=1, Deleted a=2", ["Deleted a=1"],
                _direct(Delta(DELETED, a1), Delta(DELETED, a2)),
                why="isDeletionDup keeps the older deletion, which is the more informative one."),
        fw.Case("tombstone then real deletion", "Deleted Tombstone(a), Deleted a=2", ["Deleted a=2"],
                _direct(Delta(DELETED, tomb), Delta(DELETED, a2)),
                why="If the older deletion is a DeletedFinalStateUnknown tombstone, keep the newer."),
        fw.Case("only the newest pair", "Added, Updated, Deleted a=1, Deleted a=2",
                ["Added a=1", "Updated a=2", "Deleted a=1"],
                _direct(Delta(ADDED, a1), Delta(UPDATED, a2), Delta(DELETED, a1), Delta(DELETED, a2)),
                why="dedupDeltas looks only at the last two deltas."),
        fw.Case("double delete through the queue", "DeltaFIFO: add a=1, delete a=1, delete a=1",
                [("a", ["Added a=1", "Deleted a=1"])],
                _queue(None, [("add", a1), ("delete", a1), ("delete", a1)]),
                why="queueActionLocked calls dedupDeltas after every append."),
        fw.Case("TestDeltaFIFO_ReplaceMakesDeletions",
                "known foo=5, bar=6, baz=7; delete baz=10; replace([foo=5])",
                [("baz", ["Deleted baz=10"]), ("foo", ["Sync foo=5"]),
                 ("bar", ["Deleted Tombstone(bar, bar=6)"])],
                _queue([Obj("foo", 5), Obj("bar", 6), Obj("baz", 7)],
                       [("delete", Obj("baz", 10)), ("replace", [Obj("foo", 5)])]),
                why="Replace queues a tombstone for every known key that the relist missed; for "
                    "baz it merges with the real deletion, which wins because it is older and real."),
        fw.Case("replace without known objects", "add foo=1, bar=2; replace([foo=3])",
                [("foo", ["Added foo=1", "Sync foo=3"]), ("bar", ["Added bar=2", "Deleted Tombstone(bar, bar=2)"])],
                _queue(None, [("add", Obj("foo", 1)), ("add", Obj("bar", 2)), ("replace", [Obj("foo", 3)])]),
                why="Without known objects, 'gone' means queued here but not relisted."),
    ]


@contextmanager
def _patch(fn: Callable[..., Any]) -> Iterator[None]:
    with swap_attr(df, "_dedup_deltas", fn):
        yield


def _experiment(dedup: Callable[..., Any], rows: list[tuple[str, str]]) -> None:
    """The assigned-pod informer's DeltaFIFO across a watch outage and a relist."""
    known = _Known([Obj("default/web-1", "bound"), Obj("default/web-2", "bound")])
    with _patch(dedup):
        f = new_delta_fifo(_key, None, known)
        f.delete(Obj("default/web-1", "deleted"))
        rows.append(("after the watch reports web-1 deleted", "; ".join(
            f"{k}: {_show_deltas(v)}" for k, v in queue_state(f).items.items())))
        f.replace([], "42")
        rows.append(("after the relist returns no pods", "; ".join(
            f"{k}: {_show_deltas(v)}" for k, v in queue_state(f).items.items())))


def _plug_in(fn: Callable[..., Any], simulation: Any = None) -> fw.PlugInReport:
    return compare(TASK_ID, "the informer's DeltaFIFO", fn, _REAL, _experiment, Deltas, NAME,
                   note="A watch deletion of web-1, then a relist that finds no pods: web-1's real "
                        "deletion must survive the tombstone; web-2 only gets a tombstone.")


TASK = Task(
    id=TASK_ID, title="DeltaFIFO dedupDeltas", slug="delta-fifo-dedup", function_name=NAME,
    stub_imports="from kschedlearn.client_go.tools.cache.delta_fifo import DELETED, DeletedFinalStateUnknown, Delta, Deltas",
    intro=("The informers queue *changes* in a `DeltaFIFO`: per key a list of `Delta(type, object)`. "
           "After every append, `dedupDeltas` merges two deletions in a row; `Replace` (a relist) "
           "adds `DeletedFinalStateUnknown` tombstones for objects that vanished while nobody watched.\n\n"
           "Write `dedup_deltas(deltas)`."),
    go_links=(("delta_fifo.go dedupDeltas", GO + "staging/src/k8s.io/client-go/tools/cache/delta_fifo.go#L262-L276"),
              ("delta_fifo.go Replace", GO + "staging/src/k8s.io/client-go/tools/cache/delta_fifo.go#L462-L535")),
    hints=("Only the last two deltas matter, and only when both are deletions. Which of the two "
           "knows more about the object? A tombstone's object may be stale.",
           "Go's `dedupDeltas` (delta_fifo.go L262-L276) calls `isDup(a, b)` with `a` the newest and `b` "
           "the one before; `isDeletionDup` returns `b` unless `b.Object` is a `DeletedFinalStateUnknown`.",
           "`if len(deltas) < 2: return deltas`; `a, b = deltas[-1], deltas[-2]`; if both types are "
           "`DELETED`: `keep = a if isinstance(b.object, DeletedFinalStateUnknown) else b`; "
           "`return Deltas((*deltas[:-2], keep))`; otherwise return `deltas`."),
    returns=Deltas, cases=_cases, patch=_patch, plug_in=_plug_in, solution="nb03:dedup_deltas",
)
