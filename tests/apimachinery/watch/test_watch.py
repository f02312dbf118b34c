"""apimachinery watch: Event and the FakeWatcher."""

from __future__ import annotations

from kschedlearn.apimachinery import watch
from kschedlearn.sim import Runtime


def test_fake_watcher_buffered_and_stop():
    w = watch.new_fake(capacity=10)
    assert isinstance(w, watch.Interface)
    w.add("a")
    w.modify("a2")
    w.delete("a2")
    w.stop()
    w.stop()
    got = []
    while True:
        ev, ok = w.result_chan().recv()
        if not ok:
            break
        got.append(ev)
    assert got == [watch.Event(watch.ADDED, "a"), watch.Event(watch.MODIFIED, "a2"),
                   watch.Event(watch.DELETED, "a2")]
    assert w.is_stopped()


def test_fake_watcher_unbuffered_between_goroutines():
    rt = Runtime()
    w = watch.new_fake()
    got = []

    def producer() -> None:
        w.error("boom")
        w.stop()

    def consumer() -> None:
        for _ in range(2):
            ev, ok = w.result_chan().recv()
            got.append((ev, ok))

    rt.go(producer)
    rt.go(consumer)
    rt.run()
    assert got == [(watch.Event(watch.ERROR, "boom"), True), (None, False)]
