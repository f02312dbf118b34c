"""Task 4.2: the Reflector's watch handler - apply watch events, track the resourceVersion.

Go: staging/src/k8s.io/client-go/tools/cache/reflector.go (watchHandler) and reflector_test.go
(TestReflectorWatchHandler)
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/reflector.go#L339-L407
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from kschedlearn import sim
from kschedlearn.api.v1 import ObjectMeta, Pod, Service
from kschedlearn.apimachinery.watch import Event
from kschedlearn.client_go.tools.cache import reflector as refl
from kschedlearn.client_go.tools.cache.store import meta_namespace_key_func, new_store
from kschedlearn.exercises import framework as fw
from kschedlearn.exercises.calls import CallView, describe
from kschedlearn.exercises.registry import Task
from kschedlearn.exercises.tasks._common import GO, compare, swap_attr

TASK_ID = "4.2"
NAME = "reflector_handle_event"
_REAL = refl.Reflector._handle_event


def _pod(name: str, rv: str = "") -> Pod:
    return Pod(metadata=ObjectMeta(name=name, resource_version=rv))


def _go_test(fn: Callable[..., Any]) -> dict[str, Any]:
    """Go's TestReflectorWatchHandler: store {foo, bar}; events Add(Service), Delete(foo),
    Modify(bar rv 55), Add(baz rv 32)."""
    store = new_store(meta_namespace_key_func)
    r = refl.new_reflector(None, Pod, store, 0)  # type: ignore[arg-type] - the handler never lists
    store.add(_pod("foo"))
    store.add(_pod("bar"))
    rv = [""]
    events = [Event("ADDED", Service(metadata=ObjectMeta(name="rejected"))), Event("DELETED", _pod("foo")),
              Event("MODIFIED", _pod("bar", "55")), Event("ADDED", _pod("baz", "32"))]
    results = [fn(r, e, rv) for e in events]
    return {"results": results, "store": sorted((o.metadata.name, o.metadata.resource_version) for o in store.list()),
            "resume": rv[0], "last_sync": r.last_sync_resource_version()}


def _facet(key: str) -> Callable[[Callable[..., Any]], Any]:
    return lambda fn: _go_test(fn)[key]


def _unknown(fn: Callable[..., Any]) -> Any:
    store = new_store(meta_namespace_key_func)
    r = refl.new_reflector(None, Pod, store, 0)  # type: ignore[arg-type]
    rv = ["10"]
    ok = fn(r, Event("BOOKMARK", _pod("x", "60")), rv)
    return ok, [o.metadata.name for o in store.list()], rv[0]


def _list_and_watch(fn: Callable[..., Any]) -> Any:
    """Go's TestReflectorListAndWatch plus a 410: the real ListAndWatch loop with ``fn`` as the
    watch handler's body. List at RV 1; watch 1 sends foo (2), bar (3), then closes; watch 2 must
    resume from 3 and gets ERROR 410 "too old resource version"; the Reflector relists (RV 5)."""
    from kschedlearn.apimachinery.api import errors as apierrors
    from kschedlearn.client_go.tools.cache.listwatch import ListWatch
    from kschedlearn.client_go.tools.cache.testing import FakeList, FakeListMeta, FakeWatcher

    rt = sim.Runtime(seed=1)
    store = new_store(meta_namespace_key_func)
    watches: list[str] = []
    lists = [FakeList(items=(), metadata=FakeListMeta(resource_version="1")),
             FakeList(items=(_pod("baz", "5"),), metadata=FakeListMeta(resource_version="5"))]
    listed: list[str] = []

    def list_func(options: Any) -> Any:
        got = lists[min(len(listed), 1)]
        listed.append(got.metadata.resource_version)
        return got

    def watch_func(options: Any) -> Any:
        watches.append(options.resource_version)
        w = FakeWatcher()

        def feed() -> None:
            if len(watches) == 1:
                w.add(_pod("foo", "2"))
                w.add(_pod("bar", "3"))
                w.stop()
            elif len(watches) == 2:
                w.error(apierrors.new_gone("too old resource version: 3 (4)").status())
        sim.go(feed)
        return w

    r = refl.new_reflector(ListWatch(list_func, watch_func), Pod, store, 0)
    failures: list[BaseException] = []

    def recording(*args: Any) -> Any:
        try:
            return fn(*args)
        except BaseException as err:  # the learner's error, raised in the reflector's goroutine
            failures.append(err)
            raise

    with _patch(recording):
        def body() -> None:
            stop = sim.Chan()
            r.run_until(stop)
            sim.sleep(5.0)
            stop.close()
        rt.run_fn(body)
    if failures:  # report it as the learner's, not as a crashed simulated process
        raise failures[0]
    return listed, watches[:3], sorted(o.metadata.name for o in store.list())


_GIVEN = "the store holds foo and bar; the watch sends ADDED Service 'rejected', DELETED foo, MODIFIED bar (rv 55), ADDED baz (rv 32)"


def _cases() -> list[fw.Case]:
    return [
        fw.Case("TestReflectorWatchHandler: the store", _GIVEN, [("bar", "55"), ("baz", "32")], _facet("store"),
                why="Misconception: 'a DELETED event needs no store change'. The store is the informer's copy of the "
                    "server: ADDED adds, MODIFIED updates, DELETED deletes (foo must be gone), and an object of the "
                    "wrong type is never stored."),
        fw.Case("TestReflectorWatchHandler: the type check", _GIVEN, [False, True, True, True], _facet("results"),
                why="Misconception: 'the watch only sends the type I asked for'. Go checks every object against "
                    "expectedType and skips (HandleError + continue) what does not match: the Service is rejected."),
        fw.Case("TestReflectorWatchHandler: resume RV", _GIVEN, "32", _facet("resume"),
                why="Misconception: 'the resourceVersion only matters on a relist'. Every applied event moves "
                    "*resourceVersion to the object's RV, so a new watch resumes after the last event seen (32) "
                    "instead of replaying or skipping events."),
        fw.Case("TestReflectorWatchHandler: last sync RV", _GIVEN, "32", _facet("last_sync"),
                why="setLastSyncResourceVersion(newResourceVersion) after every event: LastSyncResourceVersion() "
                    "reports it."),
        fw.Case("TestReflectorListAndWatch, then 410", "list at RV 1; watch 1 sends foo (2), bar (3) and closes; "
                "watch 2 answers 410 too old resource version", (["1", "5"], ["1", "3", "5"], ["baz"]), _list_and_watch,
                why="A closed watch is re-opened from the last RV your handler recorded (3) - no relist; an ERROR "
                    "event ends the watch loop with the status error, and ListAndWatch starts over with a LIST "
                    "(RV 5) whose Replace drops foo and bar."),
        fw.Case("unknown event type", "a Pod x (rv 60) in an event of type BOOKMARK (not in 1.6)", (True, [], "60"),
                _unknown, why="An unknown type is only logged; the RV is still taken and the event counts."),
    ]


@contextmanager
def _patch(fn: Callable[..., Any]) -> Iterator[None]:
    # the reflector.watch_event trace point stands in front of each reflector's _handle_event
    # (kschedlearn/observe/informers.py) and looks the method up when called: the learner's is
    # what runs, and is observed as the real one is
    def handle_event(self: refl.Reflector, event: Any, resource_version: list[str]) -> bool:
        return fn(self, event, resource_version)

    with swap_attr(refl.Reflector, "_handle_event", handle_event):
        yield


def _left(args: tuple[Any, ...], kwargs: dict[str, Any]) -> str:
    reflector, _, resource_version = args
    return f"store {describe(sorted(reflector.store.list_keys()))}; resume from resourceVersion {resource_version[0]}"


#: a watch event's handling is judged by its answer, the store and the resourceVersion it left
CALL_VIEW = CallView(state=_left)


def _real(reflector: Any, event: Any, resource_version: list[str]) -> bool:
    return _REAL(reflector, event, resource_version)


def _experiment(handle: Callable[..., Any], rows: list[tuple[str, str]]) -> None:
    store = new_store(meta_namespace_key_func)
    r = refl.new_reflector(None, Pod, store, 0, name="assigned-pods")  # type: ignore[arg-type]
    rv = ["5"]
    for ev in (Event("ADDED", _pod("web-1", "6")), Event("MODIFIED", _pod("web-1", "7")),
               Event("ADDED", Service(metadata=ObjectMeta(name="web", resource_version="8"))),
               Event("DELETED", _pod("web-1", "9"))):
        handle(r, ev, rv)
        kind = type(ev.object).__name__
        rows.append((f"{ev.type} {kind} {ev.object.metadata.name}",
                     f"store=[{', '.join(o.metadata.name for o in store.list())}] resume from RV {rv[0]}"))


def _plug_in(fn: Callable[..., Any], simulation: Any = None) -> fw.PlugInReport:
    return compare(TASK_ID, "the Reflector", fn, _real, _experiment, bool, NAME,
                   note="A pod reflector that last listed at RV 5 receives four watch events.")


def _scenario_plugin(fn: Callable[..., Any], scenario: str | None, *, seed: int, seconds: float) -> Any:
    from kschedlearn.exercises.capstone import run_capstone

    return run_capstone(TASK_ID, fn, (scenario,) if scenario else ("three-nodes", "assume-expiry"),
                        seed=seed, seconds=seconds)


TASK = Task(
    id=TASK_ID, title="the Reflector's watch handler", slug="reflector-watch", function_name=NAME,
    stub_imports="from typing import Any",
    intro=("The Reflector keeps a store in step with the API server: it LISTs once (Replace), then WATCHes from "
           "the list's resourceVersion. `watchHandler` loops over the watch's events; each ADDED / MODIFIED / "
           "DELETED event is applied to the store, and its object's resourceVersion is remembered, so that when "
           "the watch ends (timeout, server restart) the next watch resumes right after it. An ERROR event "
           "(e.g. 410 \"too old resource version\") ends the loop instead: ListAndWatch returns, and a second "
           "later the reflector runs it again, which lists everything anew.\n\n"
           "Write the loop body `reflector_handle_event(reflector, event, resource_version)`. "
           "`plug_in_scenario(\"4.2\", reflector_handle_event)` runs three-nodes and assume-expiry (its watches "
           "stall for 45 s and catch up) with your function in every reflector."),
    go_links=(("reflector.go watchHandler", GO + "staging/src/k8s.io/client-go/tools/cache/reflector.go#L339-L407"),
              ("reflector_test.go TestReflectorWatchHandler",
               GO + "staging/src/k8s.io/client-go/tools/cache/reflector_test.go#L141-L195")),
    hints=("Reject an object of the wrong type; otherwise change the store by the event type and remember the "
           "object's resourceVersion.",
           "Go's `watchHandler` (reflector.go L339-L407): `if e, a := r.expectedType, reflect.TypeOf(event.Object); e != nil && e != a { "
           "utilruntime.HandleError(...); continue }`; `newResourceVersion := meta.GetResourceVersion()`; `switch "
           "event.Type { case watch.Added: r.store.Add(event.Object); case watch.Modified: r.store.Update(...); "
           "case watch.Deleted: r.store.Delete(...) }`; `*resourceVersion = newResourceVersion; "
           "r.setLastSyncResourceVersion(newResourceVersion)`.",
           "`if reflector.expected_type is not None and type(event.object) is not reflector.expected_type: return False`; "
           "... `resource_version[0] = event.object.metadata.resource_version`; "
           "`reflector._set_last_sync_resource_version(resource_version[0])`; `return True`."),
    returns=bool, cases=_cases, call_view=CALL_VIEW, patch=_patch, plug_in=_plug_in, solution="nb04:reflector_handle_event",
    scenario_plugin=_scenario_plugin,
)
