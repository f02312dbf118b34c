"""Task 3.1: ``FIFO.pop`` - order, de-duplication on add, ghosts of deleted keys, requeue.

Go: staging/src/k8s.io/client-go/tools/cache/fifo.go (Pop) and fifo_test.go (TestFIFO_basic,
TestFIFO_addUpdate, TestFIFO_detectLineJumpers, TestFIFO_requeueOnPop, TestFIFO_HasSynced)
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/fifo.go#L69-L79
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import attrs

from kschedlearn import sim
from kschedlearn.client_go.tools.cache import fifo as fifo_module
from kschedlearn.client_go.tools.cache.fifo import FIFO, ErrRequeue, FIFOClosedError, new_fifo
from kschedlearn.exercises import framework as fw
from kschedlearn.exercises.calls import CallView
from kschedlearn.exercises.registry import Task
from kschedlearn.exercises.tasks._common import GO, compare, swap_attr
from kschedlearn.observe.views import queue_state

TASK_ID = "3.1"
_REAL_POP = FIFO.pop  # captured before any patch
NAME = "fifo_pop"


@attrs.frozen
class Obj:
    """Go's testFifoObject: a name (the key) and a value."""

    name: str
    val: Any

    def __repr__(self) -> str:
        return f"{self.name}={self.val}"


def _key(obj: Any) -> str:
    return obj.name


def _fifo(*ops: tuple[str, str, Any]) -> FIFO:
    """A FIFO after the real add/update/delete/replace operations ``ops``."""
    f = new_fifo(_key)
    for op, name, val in ops:
        if op == "replace":
            f.replace([Obj(n, v) for n, v in val], "0")
        else:
            getattr(f, op)(Obj(name, val))
    return f


def _noop(item: Any) -> None:
    return None


def _pop_all(ops: tuple[tuple[str, str, Any], ...], times: int) -> Callable[[Callable[..., Any]], Any]:
    def run(pop: Callable[..., Any]) -> Any:
        f = _fifo(*ops)
        popped = [repr(pop(f, _noop)) for _ in range(times)]
        return popped, list(queue_state(f).queue)
    return run


def _requeue(pop: Callable[..., Any]) -> Any:
    f = _fifo(("add", "foo", 10))

    def process(item: Any) -> None:
        raise ErrRequeue()

    got = pop(f, process)
    return repr(got), list(queue_state(f).queue), sorted(map(repr, f.list()))


def _synced(pop: Callable[..., Any]) -> Any:
    f = _fifo(("replace", "", [("a", 1), ("b", 2)]))
    seen = [f.has_synced()]
    for _ in range(2):
        pop(f, _noop)
        seen.append(f.has_synced())
    return seen


def _ghost_only(pop: Callable[..., Any]) -> Any:
    return pop(_fifo(("add", "a", 1), ("delete", "a", 1)), _noop)


def _closed(pop: Callable[..., Any]) -> Any:
    f = _fifo()
    f.close()
    return pop(f, _noop)


def _cases() -> list[fw.Case]:
    return [
        fw.Case("basic order", "add a, b, c; pop three times", (["a=1", "b=2", "c=3"], []),
                _pop_all((("add", "a", 1), ("add", "b", 2), ("add", "c", 3)), 3),
                why="A FIFO hands items out in the order their keys were first queued."),
        fw.Case("TestFIFO_addUpdate", "add foo=10, update foo=15; pop once", (["foo=15"], []),
                _pop_all((("add", "foo", 10), ("update", "foo", 15)), 1),
                why="An update of a queued key replaces the object but keeps its place; pop "
                    "returns the newest object and the key leaves the line."),
        fw.Case("TestFIFO_detectLineJumpers",
                "add foo=10, bar=1, foo=11, foo=13, zab=30; pop three times",
                (["foo=13", "bar=1", "zab=30"], []),
                _pop_all((("add", "foo", 10), ("add", "bar", 1), ("add", "foo", 11),
                          ("add", "foo", 13), ("add", "zab", 30)), 3),
                why="Re-adding foo must not move it behind bar, and it is popped once."),
        fw.Case("deleted key is a ghost", "add a=1, b=2, delete a; pop once", (["b=2"], []),
                _pop_all((("add", "a", 1), ("add", "b", 2), ("delete", "a", 1)), 1),
                why="Delete removes the item but leaves its key in f._queue; pop must skip "
                    "keys that have no item in f._items."),
        fw.Case("1.6 quirk: re-add after delete", "add a=1, b=2, delete a, add a=3; pop twice",
                (["a=3", "b=2"], ["a"]),
                _pop_all((("add", "a", 1), ("add", "b", 2), ("delete", "a", 1), ("add", "a", 3)), 2),
                why="The ghost 'a' at the head finds the re-added item, so a=3 pops first and the "
                    "second 'a' key stays behind as a ghost."),
        fw.Case("TestFIFO_requeueOnPop", "add foo=10; pop with a process that raises ErrRequeue()",
                ("foo=10", ["foo"], ["foo=10"]), _requeue,
                why="ErrRequeue puts the item back (f._add_if_not_present) and pop still returns it."),
        fw.Case("TestFIFO_HasSynced", "replace([a, b]); has_synced() before and after each pop",
                [False, False, True], _synced,
                why="Every key taken off the line after the first replace counts down "
                    "f._initial_population_count; has_synced() turns True at zero."),
        fw.Case("only ghosts: pop waits", "add a, delete a; pop (outside a goroutine)", None,
                _ghost_only, expect_raises=sim.WouldBlockError,
                why="With nothing live left pop must block on f._cond.wait(), which outside a "
                    "goroutine raises sim.WouldBlockError."),
        fw.Case("closed and empty", "an empty, closed FIFO; pop", None, _closed,
                expect_raises=FIFOClosedError,
                why="Pop on a closed, empty queue raises FIFOClosedError instead of waiting."),
    ]


@contextmanager
def _patch(fn: Callable[..., Any]) -> Iterator[None]:
    def pop(self: FIFO, process: Any) -> Any:
        return fn(self, process)

    with swap_attr(FIFO, "pop", pop):
        yield


def _queue(args: tuple[Any, ...], kwargs: dict[str, Any]) -> str:
    f = args[0] if args else kwargs["f"]
    return "queue [" + ", ".join(f._queue) + "]"


def _left(args: tuple[Any, ...], kwargs: dict[str, Any]) -> str:
    f = args[0] if args else kwargs["f"]
    return f"left {_queue(args, kwargs)}, items [{', '.join(sorted(f._items))}]"


#: a pop is judged by what it returned and by the queue and items it left
CALL_VIEW = CallView(subject=_queue, state=_left)


def _experiment(pop: Callable[..., Any], rows: list[tuple[str, str]]) -> None:
    """The podQueue of one scheduling burst: adds, an update, a delete and a re-add."""
    f = new_fifo(_key)
    for op, name, val in (("add", "default/web-1", "v1"), ("add", "default/web-2", "v1"),
                          ("add", "default/db-1", "v1"), ("update", "default/web-1", "v2"),
                          ("delete", "default/web-2", "v1"), ("add", "default/web-2", "v2")):
        getattr(f, op)(Obj(name, val))
    rows.append(("podQueue after the informer's events", " ".join(queue_state(f).queue)))
    for i in range(3):
        with _patch(pop):
            item = fifo_module.pop(f)  # the real Pop(queue) helper, calling queue.pop
        rows.append((f"scheduleOne #{i + 1} pops", repr(item)))
        rows.append((f"podQueue after pop #{i + 1}", " ".join(queue_state(f).queue) or "(empty)"))


def _plug_in(fn: Callable[..., Any], simulation: Any = None) -> fw.PlugInReport:
    return compare(TASK_ID, "the podQueue FIFO", fn, _REAL_POP, _experiment, None, NAME,
                   note="The scheduler's podQueue after add, update, delete and re-add events, "
                        "then three pops by scheduleOne through cache.Pop(queue).")


TASK = Task(
    id=TASK_ID,
    title="FIFO.pop",
    slug="fifo-pop",
    function_name=NAME,
    stub_imports="from kschedlearn.client_go.tools.cache.fifo import FIFO, ErrRequeue, FIFOClosedError",
    intro=(
        "The scheduler's pending-pod queue (`podQueue`) is a client-go `FIFO`. Adding a key that is "
        "already queued keeps its place and only replaces the object; deleting removes the object "
        "but leaves the key in line as a *ghost*. `scheduleOne` takes pods out with `Pop`.\n\n"
        "Write `fifo_pop(f, process)`: the body of `FIFO.Pop` for a FIFO `f` whose key line is "
        "`f._queue` and whose items are `f._items`."
    ),
    go_links=(("fifo.go Pop", GO + "staging/src/k8s.io/client-go/tools/cache/fifo.go#L255-L293"),
              ("fifo.go Add", GO + "staging/src/k8s.io/client-go/tools/cache/fifo.go#L137-L153"),
              ("fifo_test.go", GO + "staging/src/k8s.io/client-go/tools/cache/fifo_test.go")),
    hints=(
        "A FIFO is two structures: the line of keys (`f._queue`, a list) and the newest object per "
        "key (`f._items`, a dict). Pop takes keys off the front of the line until one still has an "
        "item; that item leaves the dict too.",
        "Go's `(*FIFO).Pop` in fifo.go L255-L293: an outer `for`, an inner `for len(f.queue) == 0` "
        "that returns `FIFOClosedError` when closed or calls `f.cond.Wait()`, then `id := f.queue[0]; "
        "f.queue = f.queue[1:]`, the `initialPopulationCount` countdown, the ghost `continue`, "
        "`delete(f.items, id)`, `process(item)` and the `ErrRequeue` branch.",
        "`while True:` → `while not f._queue: raise FIFOClosedError() if f._closed else f._cond.wait()`; "
        "`key = f._queue.pop(0)`; decrement `f._initial_population_count` if > 0; `if key not in "
        "f._items: continue`; `item = f._items.pop(key)`; `try: process(item)` `except ErrRequeue: "
        "f._add_if_not_present(key, item)`; `return item`.",
    ),
    returns=None,
    cases=_cases,
    patch=_patch,
    call_view=CALL_VIEW,
    plug_in=_plug_in,
    solution="nb03:fifo_pop",
    quiz="fifo",
)
