"""Port of apimachinery pkg/watch/watch_test.go (v1.6.1), plus facts of the FakeWatcher.

Go: https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/watch/watch_test.go
(the same file as vendor/k8s.io/kubernetes/staging/src/k8s.io/apimachinery/pkg/watch/watch_test.go
at cluster-capacity commit f271bd0a9394ad63384802cf75294f6ecab36ac2).

TestFake and TestRaceFreeFake are ``test_Fake`` and ``test_RaceFreeFake`` (the race-free fake
is ``new_fake(capacity=100)``); TestEmpty is skipped (``NewEmptyWatch`` is not mirrored). The
tests after them are kschedlearn's.
"""

from __future__ import annotations

from typing import Any

import pytest

from kschedlearn import sim
from kschedlearn.apimachinery import watch
from kschedlearn.sim import Runtime

_TABLE = [
    (watch.ADDED, "foo"),
    (watch.MODIFIED, "qux"),
    (watch.MODIFIED, "bar"),
    (watch.DELETED, "bar"),
    (watch.ERROR, "error: blah"),
]


def _send_and_consume(f: Any) -> None:
    """The body both Go tests share: a sender goroutine feeds ``f``; the consumer, which takes
    any ``watch.Interface``, reads the table back in order and then sees the channel closed."""

    def consumer(w: watch.Interface) -> None:
        for expect_type, expect_obj in _TABLE:
            got, ok = w.result_chan().recv()
            assert ok, "closed early"
            assert got.type == expect_type
            assert got.object == expect_obj
        _, still_open = w.result_chan().recv()
        assert not still_open, "Never stopped"

    def sender() -> None:
        f.add("foo")
        f.action(watch.MODIFIED, "qux")
        f.modify("bar")
        f.delete("bar")
        f.error("error: blah")
        f.stop()

    def body() -> None:
        sim.go(sender)
        consumer(f)

    rt = Runtime(seed=1)
    rt.run_fn(body)
    assert rt.crashes == []


def test_Fake() -> None:
    _send_and_consume(watch.new_fake())


def test_RaceFreeFake() -> None:
    _send_and_consume(watch.new_fake(capacity=100))


@pytest.mark.parametrize("case", [pytest.param(
    "TestEmpty", id="TestEmpty",
    marks=pytest.mark.skip(reason="watch.NewEmptyWatch is not mirrored"))])
def test_Empty(case: str) -> None:
    raise AssertionError(f"{case} needs NewEmptyWatch")  # never runs: skipped


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
