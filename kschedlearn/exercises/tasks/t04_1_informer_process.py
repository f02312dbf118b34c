"""Task 4.1: the informer's ``Process`` function - apply a key's Deltas, oldest first.

Go: staging/src/k8s.io/client-go/tools/cache/controller.go, func NewInformer (the Process func
literal inside it; NewIndexerInformer has the same one) and controller_test.go (TestUpdate: the
FROM→TO transition, resyncs FROM→FROM / TO→TO, delete after the final update; ExampleNewInformer)
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/controller.go#L220-L283
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from kschedlearn.api.v1 import ObjectMeta, Pod
from kschedlearn.client_go.tools.cache import controller
from kschedlearn.client_go.tools.cache.delta_fifo import (ADDED, DELETED, SYNC, UPDATED, DeletedFinalStateUnknown,
                                                          Delta, Deltas, deletion_handling_meta_namespace_key_func)
from kschedlearn.client_go.tools.cache.store import new_store
from kschedlearn.exercises import framework as fw
from kschedlearn.exercises.calls import CallView, describe
from kschedlearn.exercises.registry import Task
from kschedlearn.exercises.tasks._common import GO, compare, swap_attr

TASK_ID = "4.1"
NAME = "informer_process"
_REAL_FACTORY = controller._informer_process


def _real(client_state: Any, handler: Any, deltas: Deltas) -> None:
    _REAL_FACTORY(client_state, handler)(deltas)


def _pod(name: str, check: str) -> Pod:
    """Go: TestUpdate's ``pod(name, check, final)`` (the label says which version it is)."""
    return Pod(metadata=ObjectMeta(name=name, namespace="default", labels={"check": check}))


def _v(obj: Any) -> str:
    if isinstance(obj, DeletedFinalStateUnknown):
        return f"tombstone({obj.key})"
    return f"{obj.metadata.name}@{obj.metadata.labels.get('check', '')}"


class _Recorder:
    """A handler that writes down each call and what the store held when it was called."""

    def __init__(self, store: Any) -> None:
        self.store, self.calls = store, []

    def _seen(self) -> str:
        return ",".join(_v(o) for o in sorted(self.store.list(), key=_v)) or "-"

    def on_add(self, obj: Any) -> None:
        self.calls.append(f"OnAdd({_v(obj)}) store=[{self._seen()}]")

    def on_update(self, old: Any, new: Any) -> None:
        self.calls.append(f"OnUpdate({_v(old)} -> {_v(new)}) store=[{self._seen()}]")

    def on_delete(self, obj: Any) -> None:
        self.calls.append(f"OnDelete({_v(obj)}) store=[{self._seen()}]")


def _replay(known: tuple[Pod, ...], deltas: tuple[tuple[str, Any], ...]) -> Callable[[Callable[..., Any]], Any]:
    def run(fn: Callable[..., Any]) -> Any:
        store = new_store(deletion_handling_meta_namespace_key_func)
        for p in known:
            store.add(p)
        h = _Recorder(store)
        fn(store, h, Deltas(Delta(t, o) for t, o in deltas))
        return h.calls, sorted(_v(o) for o in store.list())
    return run


FROM, TO = _pod("a-0-0", "from"), _pod("a-0-0", "to")


def _cases() -> list[fw.Case]:
    return [
        fw.Case("Added, new object", "an empty store and Deltas [Added a@from]",
                (["OnAdd(a-0-0@from) store=[a-0-0@from]"], ["a-0-0@from"]), _replay((), ((ADDED, FROM),)),
                why="An object the store does not know is added, then OnAdd is called."),
        fw.Case("TestUpdate: from -> to", "an empty store and Deltas [Added a@from, Updated a@to]",
                (["OnAdd(a-0-0@from) store=[a-0-0@from]", "OnUpdate(a-0-0@from -> a-0-0@to) store=[a-0-0@to]"],
                 ["a-0-0@to"]), _replay((), ((ADDED, FROM), (UPDATED, TO))),
                why="Misconception: 'the newest delta matters most, so process it first'. Deltas are oldest "
                    "first and must be applied in that order - Go's TestUpdate only allows the transition "
                    "from -> to (a to -> from update would tell the handler time ran backwards)."),
        fw.Case("TestUpdate: resync", "a store that has a@to and Deltas [Sync a@to]",
                (["OnUpdate(a-0-0@to -> a-0-0@to) store=[a-0-0@to]"], ["a-0-0@to"]), _replay((TO,), ((SYNC, TO),)),
                why="A resync of a known object is an update with old == new (TestUpdate allows to -> to)."),
        fw.Case("Updated, unknown object", "an empty store and Deltas [Updated a@to]",
                (["OnAdd(a-0-0@to) store=[a-0-0@to]"], ["a-0-0@to"]), _replay((), ((UPDATED, TO),)),
                why="Misconception: 'the delta type says which handler to call'. Go ignores the difference "
                    "between Sync, Added and Updated: what decides is whether the store already has the "
                    "object (store.Get) - unknown means add + OnAdd, known means update + OnUpdate."),
        fw.Case("Added, known object", "a store that has a@from and Deltas [Added a@to]",
                (["OnUpdate(a-0-0@from -> a-0-0@to) store=[a-0-0@to]"], ["a-0-0@to"]), _replay((FROM,), ((ADDED, TO),)),
                why="An Added delta for an object the store knows is an update (a relist re-adds known objects)."),
        fw.Case("Deleted", "a store that has a@to and Deltas [Deleted a@to]",
                (["OnDelete(a-0-0@to) store=[-]"], []), _replay((TO,), ((DELETED, TO),)),
                why="Misconception: 'the handler is all that matters'. Deleted removes the object from the "
                    "store first, then calls OnDelete: listers read that store, and the next delta for the "
                    "key must find it gone."),
        fw.Case("add, update, delete", "an empty store and Deltas [Added a@from, Updated a@to, Deleted a@to]",
                (["OnAdd(a-0-0@from) store=[a-0-0@from]", "OnUpdate(a-0-0@from -> a-0-0@to) store=[a-0-0@to]",
                  "OnDelete(a-0-0@to) store=[-]"], []),
                _replay((), ((ADDED, FROM), (UPDATED, TO), (DELETED, TO))),
                why="TestUpdate's full life: add, the update to the final version, then the delete."),
        fw.Case("tombstone", "a store that has a@to and Deltas [Deleted tombstone(default/a-0-0)]",
                (["OnDelete(tombstone(default/a-0-0)) store=[-]"], []),
                _replay((TO,), ((DELETED, DeletedFinalStateUnknown("default/a-0-0", TO)),)),
                why="A deletion seen only by a relist arrives as DeletedFinalStateUnknown; delete it from the "
                    "store (its key func understands tombstones) and pass it to OnDelete as it is."),
    ]


class _NotingHandler:
    """The handler the learner's process function gets, noting each call for the call record."""

    def __init__(self, h: Any, notes: list[str]) -> None:
        self._h = h
        self._notes = notes

    def on_add(self, obj: Any) -> None:
        self._notes.append(f"OnAdd({describe(obj)})")
        self._h.on_add(obj)

    def on_update(self, old: Any, new: Any) -> None:
        self._notes.append(f"OnUpdate({describe(old)} -> {describe(new)})")
        self._h.on_update(old, new)

    def on_delete(self, obj: Any) -> None:
        self._notes.append(f"OnDelete({describe(obj)})")
        self._h.on_delete(obj)


def _watch(args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[tuple[Any, ...], dict[str, Any], Callable[[], str]]:
    notes: list[str] = []
    client_state, handler, deltas = args
    return (client_state, _NotingHandler(handler, notes), deltas), kwargs, \
        lambda: "handler calls: " + ("; ".join(notes) or "none") + "; store " + describe(sorted(client_state.list_keys()))


#: a Process call is judged by the handler calls it made and the store it left
CALL_VIEW = CallView(watch=_watch, returns=False)


@contextmanager
def _patch(fn: Callable[..., Any]) -> Iterator[None]:
    def factory(client_state: Any, h: Any) -> Callable[[Any], None]:
        # h is the informer's own handler: its calls are the handler.On* trace points
        return lambda obj: fn(client_state, h, obj)

    with swap_attr(controller, "_informer_process", factory):
        yield


def _experiment(process: Callable[..., Any], rows: list[tuple[str, str]]) -> None:
    store = new_store(deletion_handling_meta_namespace_key_func)
    h = _Recorder(store)
    bound = Pod(metadata=ObjectMeta(name="web-1", namespace="default", labels={"check": "bound"}))
    running = Pod(metadata=ObjectMeta(name="web-1", namespace="default", labels={"check": "running"}))
    for label, deltas in (("watch ADDED web-1 (bound)", ((ADDED, bound),)),
                          ("watch MODIFIED web-1 (running), then resync", ((UPDATED, running), (SYNC, running))),
                          ("watch DELETED web-1", ((DELETED, running),))):
        h.calls.clear()
        process(store, h, Deltas(Delta(t, o) for t, o in deltas))
        rows.append((label, "; ".join(h.calls) or "no handler call"))


def _plug_in(fn: Callable[..., Any], simulation: Any = None) -> fw.PlugInReport:
    return compare(TASK_ID, "the assigned-pod informer", fn, _real, _experiment, type(None), NAME,
                   note="The deltas the scheduler's assigned-pod informer pops for one pod's life.")


def _scenario_plugin(fn: Callable[..., Any], scenario: str | None, *, seed: int, seconds: float) -> Any:
    from kschedlearn.exercises.capstone import run_capstone

    return run_capstone(TASK_ID, fn, (scenario or "three-nodes",), seed=seed, seconds=seconds)


TASK = Task(
    id=TASK_ID, title="the informer's Process function", slug="informer-process", function_name=NAME,
    stub_imports="from kschedlearn.client_go.tools.cache.delta_fifo import ADDED, DELETED, SYNC, UPDATED, Deltas",
    intro=("An informer is a Reflector (list + watch) feeding a DeltaFIFO, and `processLoop` popping one "
           "key's `Deltas` at a time and handing them to the informer's *Process* function. Process keeps "
           "the informer's own store in step and calls the event handler - for the scheduler's assigned-pod "
           "informer that handler is what puts bound pods into the scheduler cache (`AddPod` confirms the "
           "assumed pod).\n\nWrite `informer_process(client_state, handler, deltas)`. "
           "`plug_in_scenario(\"4.1\", informer_process)` runs three-nodes with your function inside the "
           "assigned-pod informer and compares every trace stage with the real run."),
    go_links=(("controller.go NewInformer (Process is the func literal inside it)",
               GO + "staging/src/k8s.io/client-go/tools/cache/controller.go#L220-L283"),
              ("controller.go processLoop", GO + "staging/src/k8s.io/client-go/tools/cache/controller.go#L136-L158"),
              ("controller_test.go TestUpdate", GO + "staging/src/k8s.io/client-go/tools/cache/controller_test.go#L294-L405")),
    hints=("Walk the deltas in the order they came (oldest first). The store, not the delta type, tells you "
           "whether this is an add or an update.",
           "Go, in NewInformer (controller.go L220-L283): `for _, d := range obj.(Deltas) { switch d.Type { case Sync, Added, Updated: "
           "if old, exists, err := clientState.Get(d.Object); err == nil && exists { clientState.Update(d.Object); "
           "h.OnUpdate(old, d.Object) } else { clientState.Add(d.Object); h.OnAdd(d.Object) }; case Deleted: "
           "clientState.Delete(d.Object); h.OnDelete(d.Object) } }`.",
           "`for d in deltas:` `if d.type in (SYNC, ADDED, UPDATED): old, exists = client_state.get(d.object)` ... "
           "`elif d.type == DELETED: client_state.delete(d.object); handler.on_delete(d.object)`."),
    returns=type(None), cases=_cases, call_view=CALL_VIEW, patch=_patch, plug_in=_plug_in, solution="nb04:informer_process",
    scenario_plugin=_scenario_plugin,
)
