"""client-go's work queue tests, ported with the Go names as ids.

Go: staging/src/k8s.io/client-go/util/workqueue/{queue,delaying_queue,rate_limitting_queue,
default_rate_limiters}_test.go. The queue's blocking Get and the delaying queue's timers run on
the simulated runtime (the fake clock is the virtual one).
"""

from __future__ import annotations

from typing import Any, Callable

import pytest

from kschedlearn import sim
from kschedlearn.client_go.util.workqueue.default_rate_limiters import (
    new_item_exponential_failure_rate_limiter,
    new_item_fast_slow_rate_limiter,
    new_max_of_rate_limiter,
)
from kschedlearn.client_go.util.workqueue.delaying_queue import new_delaying_queue
from kschedlearn.client_go.util.workqueue.queue import new
from kschedlearn.client_go.util.workqueue.rate_limitting_queue import new_rate_limiting_queue

MS = 0.001


def _run(body: Callable[[], Any], until: float = 60.0) -> Any:
    rt = sim.Runtime(seed=0)
    box: dict[str, Any] = {}
    rt.go(lambda: box.__setitem__("r", body()), name="test", process=rt.new_process("test"))
    rt.run(until=until)
    assert not rt.crashes, rt.crashes
    return box.get("r")


def test_len() -> None:
    """Go: TestLen — adding an item already queued does not grow the queue."""
    q = new()
    q.add("foo")
    assert q.len() == 1
    q.add("bar")
    assert q.len() == 2
    q.add("foo")
    assert q.len() == 2


def test_reinsert() -> None:
    """Go: TestReinsert — an item added while being processed comes back after Done."""
    q = new()
    q.add("foo")
    i, _ = q.get()
    assert i == "foo"
    q.add(i)
    q.done(i)
    i, _ = q.get()
    assert i == "foo"
    q.done(i)
    assert q.len() == 0


def test_add_while_processing() -> None:
    """After Go's TestAddWhileProcessing — consumers re-add what they process; every item is
    processed twice, never by two consumers at once (the Go test also runs producers)."""
    def body() -> dict[str, int]:
        q = new()
        counters: dict[str, int] = {}
        for i in range(50):
            q.add(i)
        done = sim.WaitGroup()
        done.add(10)

        def consumer() -> None:
            while True:
                item, quit_ = q.get()
                if quit_:
                    done.done()
                    return
                counters[item] = counters.get(item, 0) + 1
                if counters[item] < 2:
                    q.add(item)
                q.done(item)

        for _ in range(10):
            sim.go(consumer)
        sim.sleep(1)
        q.shut_down()
        done.wait()
        return counters

    counters = _run(body)
    assert counters == {i: 2 for i in range(50)}


def test_simple_queue() -> None:
    """Go: TestSimpleQueue (delaying queue) — an item added after 50 ms is not there before, is after
    (the fake clock's steps are virtual sleeps)."""
    def body() -> tuple[int, int, Any]:
        q = new_delaying_queue()
        q.add_after("foo", 50 * MS)
        sim.sleep(10 * MS)
        before = q.len()
        sim.sleep(60 * MS)
        after = q.len()
        item, _ = q.get()
        q.done(item)
        q.shut_down()
        return before, after, item

    assert _run(body) == (0, 1, "foo")


def test_deduping() -> None:
    """After Go's TestDeduping — adding the same item twice keeps the earlier ready time (its steps
    shortened: the Go test also checks the waiting list's length at each step)."""
    def body() -> tuple[int, int]:
        q = new_delaying_queue()
        q.add_after("foo", 50 * MS)
        q.add_after("foo", 70 * MS)  # the later one is dropped
        sim.sleep(60 * MS)
        first = q.len()
        item, _ = q.get()
        q.done(item)
        q.add_after("foo", 70 * MS)
        q.add_after("foo", 50 * MS)  # the earlier one wins
        sim.sleep(60 * MS)
        second = q.len()
        q.shut_down()
        return first, second

    assert _run(body) == (1, 1)


def test_rate_limiting_queue() -> None:
    """After Go's TestRateLimitingQueue — AddRateLimited waits by the limiter, counts requeues,
    Forget resets them (the Go test watches the waiting list with a fake clock instead)."""
    def body() -> list[Any]:
        limiter = new_item_exponential_failure_rate_limiter(1 * MS, 1.0)
        q = new_rate_limiting_queue(limiter)
        q.add_rate_limited("one")
        q.add_rate_limited("one")
        q.add_rate_limited("two")
        requeues = [q.num_requeues("one"), q.num_requeues("two")]
        q.forget("one")
        requeues.append(q.num_requeues("one"))
        sim.sleep(10 * MS)
        requeues.append(q.len())
        q.shut_down()
        return requeues

    assert _run(body) == [2, 1, 0, 2]


def test_item_exponential_failure_rate_limiter() -> None:
    """Go: TestItemExponentialFailureRateLimiter."""
    limiter = new_item_exponential_failure_rate_limiter(1 * MS, 1.0)
    assert [limiter.when("one") for _ in range(5)] == pytest.approx([1 * MS, 2 * MS, 4 * MS, 8 * MS, 16 * MS])
    assert limiter.num_requeues("one") == 5
    assert [limiter.when("two") for _ in range(2)] == pytest.approx([1 * MS, 2 * MS])
    assert limiter.num_requeues("two") == 2
    limiter.forget("one")
    assert limiter.num_requeues("one") == 0
    assert limiter.when("one") == pytest.approx(1 * MS)


def test_item_exponential_failure_rate_limiter_over_flow() -> None:
    """Go: TestItemExponentialFailureRateLimiterOverFlow — the delay is capped, never overflows."""
    limiter = new_item_exponential_failure_rate_limiter(1 * MS, 1000.0)
    for _ in range(5):
        limiter.when("one")
    assert limiter.when("one") == pytest.approx(32 * MS)
    for _ in range(1000):
        limiter.when("overflow1")
    assert limiter.when("overflow1") == pytest.approx(1000.0)
    limiter = new_item_exponential_failure_rate_limiter(60.0, 1000 * 3600.0)
    for _ in range(2):
        limiter.when("two")
    assert limiter.when("two") == pytest.approx(4 * 60.0)
    for _ in range(1000):
        limiter.when("overflow2")
    assert limiter.when("overflow2") == pytest.approx(1000 * 3600.0)


def test_item_fast_slow_rate_limiter() -> None:
    """Go: TestItemFastSlowRateLimiter."""
    limiter = new_item_fast_slow_rate_limiter(5 * MS, 10.0, 3)
    assert [limiter.when("one") for _ in range(5)] == pytest.approx([5 * MS, 5 * MS, 5 * MS, 10.0, 10.0])
    assert limiter.num_requeues("one") == 5
    assert [limiter.when("two") for _ in range(2)] == pytest.approx([5 * MS, 5 * MS])
    assert limiter.num_requeues("two") == 2
    limiter.forget("one")
    assert limiter.num_requeues("one") == 0
    assert limiter.when("one") == pytest.approx(5 * MS)


def test_max_of_rate_limiter() -> None:
    """Go: TestMaxOfRateLimiter."""
    limiter = new_max_of_rate_limiter(new_item_fast_slow_rate_limiter(5 * MS, 3.0, 3),
                                      new_item_exponential_failure_rate_limiter(1 * MS, 1.0))
    assert [limiter.when("one") for _ in range(5)] == pytest.approx([5 * MS, 5 * MS, 5 * MS, 3.0, 3.0])
    assert limiter.num_requeues("one") == 5
    assert [limiter.when("two") for _ in range(2)] == pytest.approx([5 * MS, 5 * MS])
    assert limiter.num_requeues("two") == 2
    limiter.forget("one")
    assert limiter.num_requeues("one") == 0
    assert limiter.when("one") == pytest.approx(5 * MS)
