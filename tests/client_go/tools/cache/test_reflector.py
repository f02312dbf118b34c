"""Port of client-go tools/cache/reflector_test.go (v1.6.1) plus the §9.5 facts.

Go: https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/reflector_test.go
(the same file as vendor/k8s.io/client-go/tools/cache/reflector_test.go at cluster-capacity
commit f271bd0a9394ad63384802cf75294f6ecab36ac2).

Each Go test is the ``test_<Go name>`` function; BenchmarkReflectorResyncChanMany is a
benchmark, not ported. ``wait.ForeverTestTimeout`` is virtual time, so the "late" branches of
Go's selects are checked as the index of the case that fired. The tests after
``test_ReflectorResync`` are kschedlearn's (spec §9.5).
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from kschedlearn.observe import attach
from kschedlearn.observe.informers import observe_informers, observe_reflector
from kschedlearn.observe.views import reflector_state
from kschedlearn import sim
from kschedlearn.apimachinery.api import errors as apierrors
from kschedlearn.api.v1 import ObjectMeta, Pod, Service
from kschedlearn.apimachinery.util import wait
from kschedlearn.client_go.tools.cache import meta_namespace_key_func, new_fifo, new_store, pop
from kschedlearn.client_go.tools.cache.listwatch import ListOptions, ListWatch
from kschedlearn.client_go.tools.cache.reflector import (
    ErrorStopRequested,
    new_reflector,
)
from kschedlearn.client_go.tools.cache.testing import FakeList, FakeListMeta, FakeWatcher, WatchEvent
from kschedlearn.trace import Tracer


def mk_pod(name: str, rv: str = "") -> Pod:
    return Pod(metadata=ObjectMeta(name=name, resource_version=rv))


def mk_list(rv: str, *pods: Pod) -> FakeList:
    return FakeList(items=tuple(pods), metadata=FakeListMeta(resource_version=rv))


def _Status() -> apierrors.Status:
    """The Status object the API server sends for 410 Gone."""
    return apierrors.new_gone("too old resource version: 1 (5)").status()


def _select_or_timeout(ch: sim.Chan) -> tuple[int, bool]:
    """Go's ``select { case _, ok := <-ch: ... case <-time.After(ForeverTestTimeout): ... }``:
    which case fired, and ``ok`` of the receive."""
    index, _, ok = sim.select(("recv", ch), ("recv", sim.after(wait.FOREVER_TEST_TIMEOUT)))
    return index, ok


def run(rt: sim.Runtime, fn: Any, *args: Any) -> Any:
    return rt.run_fn(fn, *args)


def test_CloseWatchChannelOnError() -> None:
    rt = sim.Runtime(seed=1)
    fw = FakeWatcher()
    lw = ListWatch(lambda o: mk_list("1"), lambda o: fw)
    r = new_reflector(lw, Pod, new_store(meta_namespace_key_func), 0)

    def body() -> bool:
        sim.go(r.list_and_watch, wait.NEVER_STOP)
        fw.error(mk_pod("bar"))  # Go sends a pod, not a Status, as the error object
        index, ok = _select_or_timeout(fw.result_chan())
        assert index == 0, "the cancellation is at least 30s late"
        return ok

    assert run(rt, body) is False, "Watch channel left open after cancellation"


def test_RunUntil() -> None:
    rt = sim.Runtime(seed=1)
    stop_ch = sim.Chan()
    store = new_store(meta_namespace_key_func)
    fw = FakeWatcher()
    lw = ListWatch(lambda o: mk_list("1"), lambda o: fw)
    r = new_reflector(lw, Pod, store, 0)

    def body() -> bool:
        r.run_until(stop_ch)
        fw.add(mk_pod("bar"))  # synchronous: run_until's goroutine is in the watch handler
        stop_ch.close()
        index, ok = _select_or_timeout(fw.result_chan())
        assert index == 0, "the cancellation is at least 30s late"
        return ok

    assert run(rt, body) is False, "Watch channel left open after stopping the watch"
    assert store.get_by_key("bar")[1]


def test_ReflectorResyncChan() -> None:
    rt = sim.Runtime(seed=1)
    r = new_reflector(ListWatch(lambda o: None, lambda o: None), Pod,
                      new_store(meta_namespace_key_func), 0.001)

    def body() -> int:
        a, _ = r._resync_chan()
        b = sim.after(wait.FOREVER_TEST_TIMEOUT)
        index, _, _ = sim.select(("recv", a), ("recv", b))
        return index

    assert run(rt, body) == 0


def test_ReflectorWatchHandlerError() -> None:
    rt = sim.Runtime(seed=1)
    g = new_reflector(ListWatch(lambda o: None, lambda o: None), Pod,
                      new_store(meta_namespace_key_func), 0)
    fw = FakeWatcher()

    def body() -> str:
        sim.go(fw.stop)
        try:
            g._watch_handler(fw, [""], sim.Chan(), wait.NEVER_STOP)
        except Exception as err:  # noqa: BLE001
            return str(err)
        return ""

    assert run(rt, body) == "very short watch"


def test_ReflectorWatchHandler() -> None:
    rt = sim.Runtime(seed=1)
    s = new_store(meta_namespace_key_func)
    g = new_reflector(ListWatch(lambda o: None, lambda o: None), Pod, s, 0)
    fw = FakeWatcher()
    s.add(mk_pod("foo"))
    s.add(mk_pod("bar"))

    def feed() -> None:
        fw.add(Service(metadata=ObjectMeta(name="rejected")))
        fw.delete(mk_pod("foo"))
        fw.modify(mk_pod("bar", "55"))
        fw.add(mk_pod("baz", "32"))
        fw.stop()

    resume_rv = [""]

    def body() -> None:
        sim.go(feed)
        g._watch_handler(fw, resume_rv, sim.Chan(), wait.NEVER_STOP)

    run(rt, body)
    table = [("foo", "", False), ("rejected", "", False), ("bar", "55", True), ("baz", "32", True)]
    for name, rv, exists in table:
        obj, found = s.get(mk_pod(name))
        assert found is exists, name
        if exists:
            assert obj.metadata.resource_version == rv
    assert resume_rv == ["32"]
    assert g.last_sync_resource_version() == "32"


def test_ReflectorStopWatch() -> None:
    rt = sim.Runtime(seed=1)
    g = new_reflector(ListWatch(lambda o: None, lambda o: None), Pod,
                      new_store(meta_namespace_key_func), 0)
    fw = FakeWatcher()
    stop_watch = sim.Chan()
    stop_watch.close()

    def body() -> None:
        g._watch_handler(fw, ["0"], sim.Chan(), stop_watch)

    with pytest.raises(ErrorStopRequested, match="Stop requested"):
        run(rt, body)
    assert fw.is_stopped()


def test_ReflectorListAndWatch() -> None:
    rt = sim.Runtime(seed=1)
    created_fakes = sim.Chan(name="createdFakes")
    expected_rvs = ["1", "3"]
    seen_options: list[ListOptions] = []

    def watch_func(options: ListOptions) -> FakeWatcher:
        seen_options.append(options)
        assert options.resource_version == expected_rvs.pop(0)
        fw = FakeWatcher()
        sim.go(created_fakes.send, fw)
        return fw

    def list_func(options: ListOptions) -> FakeList:
        assert options.resource_version == "0"  # spec §9.5: list at "0"
        return mk_list("1")

    s = new_fifo(meta_namespace_key_func)
    r = new_reflector(ListWatch(list_func, watch_func), Pod, s, 0)
    ids = ["foo", "bar", "baz", "qux", "zoo"]

    def body() -> list[tuple[str, str]]:
        sim.go(r.list_and_watch, wait.NEVER_STOP)
        fw = None
        for i, name in enumerate(ids):
            if fw is None:
                fw, _ = created_fakes.recv()
            sending_rv = str(i + 2)
            fw.add(mk_pod(name, sending_rv))
            if sending_rv == "3":
                fw.stop()  # the reflector must re-watch from "3" without relisting
                fw = None
        return [(p.metadata.name, p.metadata.resource_version) for p in (pop(s) for _ in ids)]

    assert run(rt, body) == [(name, str(i + 2)) for i, name in enumerate(ids)]
    assert expected_rvs == []
    for options in seen_options:
        assert 300 <= options.timeout_seconds < 600


@attrs.frozen
class _Step:
    list: FakeList | None = None
    list_err: Exception | None = None
    events: tuple[WatchEvent, ...] = ()
    watch_err: Exception | None = None


def test_ReflectorListAndWatchWithErrors() -> None:
    rt = sim.Runtime(seed=1)
    table = [
        _Step(list=mk_list("1"), events=(WatchEvent("ADDED", mk_pod("foo", "2")),
                                          WatchEvent("ADDED", mk_pod("bar", "3")))),
        _Step(list=mk_list("3", mk_pod("foo", "2"), mk_pod("bar", "3")),
              events=(WatchEvent("DELETED", mk_pod("foo", "4")),
                      WatchEvent("ADDED", mk_pod("qux", "5")))),
        _Step(list_err=RuntimeError("a list error")),
        _Step(list=mk_list("5", mk_pod("bar", "3"), mk_pod("qux", "5")),
              watch_err=RuntimeError("a watch error")),
        _Step(list=mk_list("5", mk_pod("bar", "3"), mk_pod("qux", "5")),
              events=(WatchEvent("ADDED", mk_pod("baz", "6")),)),
        _Step(list=mk_list("6", mk_pod("bar", "3"), mk_pod("qux", "5"), mk_pod("baz", "6"))),
    ]
    s = new_fifo(meta_namespace_key_func)

    def body() -> None:
        for line, item in enumerate(table):
            if item.list is not None:
                # What the previous rounds left in the store must be what this list returns.
                check = {p.metadata.name: p.metadata.resource_version for p in s.list()}
                assert check == {p.metadata.name: p.metadata.resource_version
                                 for p in item.list.items}, line
            state = {"watch_err": item.watch_err}

            def watch_func(options: ListOptions, item: _Step = item, state: dict = state) -> FakeWatcher:
                if state["watch_err"] is not None:
                    raise state["watch_err"]
                state["watch_err"] = RuntimeError("second watch")
                fw = FakeWatcher()

                def feed() -> None:
                    for e in item.events:
                        fw.action(e.type, e.object)
                    fw.stop()

                sim.go(feed)
                return fw

            def list_func(options: ListOptions, item: _Step = item) -> FakeList:
                if item.list_err is not None:
                    raise item.list_err
                return item.list  # type: ignore[return-value]

            r = new_reflector(ListWatch(list_func, watch_func), Pod, s, 0)
            try:
                r.list_and_watch(wait.NEVER_STOP)
            except RuntimeError as err:
                assert "Failed to list *v1.Pod: a list error" in str(err)

    run(rt, body)


@attrs.define(eq=False)
class _ResyncStore:
    """Go's FakeCustomStore with only ResyncFunc set."""

    iteration: int = 0

    def replace(self, items: list[Any], rv: str) -> None:
        pass

    def resync(self) -> None:
        self.iteration += 1
        if self.iteration == 2:
            raise RuntimeError("expected resync reached")


def test_ReflectorResync() -> None:
    rt = sim.Runtime(seed=1)
    s = _ResyncStore()
    lw = ListWatch(lambda o: mk_list("0"), lambda o: FakeWatcher())
    r = new_reflector(lw, Pod, s, 0.001)  # type: ignore[arg-type]
    # The resync error ends the watch; ListAndWatch logs it and returns no error.
    assert rt.run_fn(r.list_and_watch, sim.Chan()) is None
    assert s.iteration == 2, "exactly 2 iterations were expected"


def test_watch_error_event_relists_after_one_second() -> None:
    """Spec §9.5: an ERROR event (410 Gone) ends the watch; run_until relists 1s later."""
    rt = sim.Runtime(seed=3)
    tracer = Tracer()
    rt.tracer = tracer
    lists: list[float] = []
    watchers: list[FakeWatcher] = []

    def list_func(options: ListOptions) -> FakeList:
        lists.append(rt.now)
        return mk_list("1")

    def watch_func(options: ListOptions) -> FakeWatcher:
        fw = FakeWatcher()
        watchers.append(fw)
        return fw

    r = new_reflector(ListWatch(list_func, watch_func), Pod, new_store(meta_namespace_key_func), 0,
                      name="test")
    observe_informers(attach(rt))  # the trace points, as a simulated world attaches them
    observe_reflector(r)
    stop_ch = sim.Chan()

    def body() -> None:
        r.run_until(stop_ch)
        sim.sleep(5.0)
        watchers[0].error(_Status())
        sim.sleep(5.0)
        stop_ch.close()

    rt.run_fn(body)
    assert lists == [0.0, 6.0]
    stages = [e.stage for e in tracer.events if e.stage.startswith("reflector.")]
    assert stages == ["reflector.list", "reflector.watch_start", "reflector.relist",
                      "reflector.list", "reflector.watch_start"]
    warn = [e.message for e in tracer.events if e.stage == "log" and e.data["level"] == "WARNING"]
    assert warn == ["test: watch of *v1.Pod ended with: too old resource version: 1 (5)"]


def test_connection_refused_rewatches_without_relist() -> None:
    rt = sim.Runtime(seed=3)
    lists: list[float] = []
    watch_calls: list[tuple[float, str]] = []
    fw = FakeWatcher()

    def list_func(options: ListOptions) -> FakeList:
        lists.append(rt.now)
        return mk_list("7")

    def watch_func(options: ListOptions) -> FakeWatcher:
        watch_calls.append((rt.now, options.resource_version))
        if len(watch_calls) <= 2:
            raise ConnectionRefusedError("connection refused")
        return fw

    r = new_reflector(ListWatch(list_func, watch_func), Pod, new_store(meta_namespace_key_func), 0)
    stop_ch = sim.Chan()

    def body() -> None:
        r.run_until(stop_ch)
        sim.sleep(10.0)
        stop_ch.close()

    rt.run_fn(body)
    assert lists == [0.0]
    assert watch_calls == [(0.0, "7"), (1.0, "7"), (2.0, "7")]


def test_normal_close_rewatches_from_last_rv() -> None:
    rt = sim.Runtime(seed=3)
    lists: list[float] = []
    rvs: list[str] = []
    fws: list[FakeWatcher] = []

    def list_func(options: ListOptions) -> FakeList:
        lists.append(rt.now)
        return mk_list("1")

    def watch_func(options: ListOptions) -> FakeWatcher:
        rvs.append(options.resource_version)
        fws.append(FakeWatcher())
        return fws[-1]

    store = new_store(meta_namespace_key_func)
    r = new_reflector(ListWatch(list_func, watch_func), Pod, store, 0)
    stop_ch = sim.Chan()

    def body() -> None:
        r.run_until(stop_ch)
        sim.sleep(1.0)
        fws[0].add(mk_pod("a", "4"))
        sim.sleep(400.0)  # a long watch that ends normally (server timeout)
        fws[0].stop()
        sim.sleep(1.0)
        stop_ch.close()

    rt.run_fn(body)
    assert lists == [0.0]
    assert rvs == ["1", "4"]
    assert reflector_state(r).last_sync_resource_version == "4"
    assert reflector_state(r).store == ("a",)
