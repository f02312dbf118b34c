"""Port of apimachinery pkg/util/wait/wait_test.go (v1.6.1) on virtual time, plus exact-time
facts of until, jitter_until (sliding and not), poll and backoff.

Go: https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/util/wait/wait_test.go
(the same file as vendor/k8s.io/apimachinery/pkg/util/wait/wait_test.go at cluster-capacity
commit f271bd0a9394ad63384802cf75294f6ecab36ac2).

Every Go test is a ``test_<Go name>`` function below; Go's wall-clock bounds
(``ForeverTestTimeout``, "returns within 25 s") are virtual seconds, so each wait is instant and
the bounds hold exactly. A Go condition's ``error`` is an exception here.

Skipped: TestJitterUntilRecoversPanic needs ``runtime.ReallyCrash = false`` and a replaced
``PanicHandlers`` list, which the mirror does not model (both are fixed at 1.6's defaults, see
``apimachinery/util/runtime.py``); ``test_panic_in_until_kills_the_process`` checks the 1.6
default path instead (the panic re-raises and ends the process).
"""

from __future__ import annotations

from collections.abc import Callable

import attrs
import pytest

from kschedlearn import sim
from kschedlearn.apimachinery.util import wait

FOREVER = wait.FOREVER_TEST_TIMEOUT


def _go_test(body: Callable[[], object]) -> object:
    """Run a Go test body as a goroutine of a fresh runtime; re-raise what it raised, and fail
    if any goroutine it started crashed (that would end the body's process silently)."""
    rt = sim.Runtime(seed=1)
    result = rt.run_fn(body)
    assert rt.crashes == [], rt.crashes
    return result


def _never_called() -> None:
    pytest.fail("should not have been invoked")


def _until_dance(run_loop: Callable[[Callable[[], None], sim.Chan], None]) -> None:
    """TestUntil / TestNonSlidingUntil / TestJitterUntil share this shape: a closed stop
    channel never calls f; an open one calls it until closed, then the loop returns."""
    ch = sim.Chan()
    ch.close()
    run_loop(_never_called, ch)

    ch = sim.Chan()
    called = sim.Chan(name="called")

    def loop() -> None:
        run_loop(lambda: called.send(None), ch)
        called.close()

    sim.go(loop)
    called.recv()
    ch.close()
    called.recv()


def test_Until() -> None:
    _go_test(lambda: _until_dance(lambda f, ch: wait.until(f, 0, ch)))


def test_NonSlidingUntil() -> None:
    _go_test(lambda: _until_dance(lambda f, ch: wait.non_sliding_until(f, 0, ch)))


def test_JitterUntil() -> None:
    _go_test(lambda: _until_dance(lambda f, ch: wait.jitter_until(f, 0, 1.0, True, ch)))


def _returns_immediately(run_loop: Callable[[Callable[[], None], sim.Chan], None]) -> None:
    now = sim.now()
    ch = sim.Chan()
    run_loop(ch.close, ch)
    assert not now + 25 < sim.now(), "did not return immediately when f closed the stop chan"


def test_UntilReturnsImmediately() -> None:
    _go_test(lambda: _returns_immediately(lambda f, ch: wait.until(f, 30, ch)))


def test_JitterUntilReturnsImmediately() -> None:
    _go_test(lambda: _returns_immediately(lambda f, ch: wait.jitter_until(f, 30, 1.0, True, ch)))


@pytest.mark.parametrize("case", [pytest.param(
    "TestJitterUntilRecoversPanic", id="TestJitterUntilRecoversPanic",
    marks=pytest.mark.skip(reason="needs runtime.ReallyCrash = false and a replaced PanicHandlers "
                                  "list; the mirror fixes both at 1.6's defaults (a panic re-raises)"))])
def test_JitterUntilRecoversPanic(case: str) -> None:
    raise AssertionError(f"{case} needs ReallyCrash = false")  # never runs: skipped


def test_JitterUntilNegativeFactor() -> None:
    def body() -> tuple[float, float]:
        now = sim.now()
        ch, called, received = sim.Chan(), sim.Chan(name="called"), sim.Chan(name="received")

        def f() -> None:
            called.send(None)
            received.recv()

        sim.go(wait.jitter_until, f, 1.0, -30.0, True, ch)
        called.recv()  # first loop
        received.send(None)
        called.recv()  # second loop
        ch.close()
        received.send(None)
        return now, sim.now()

    now, end = _go_test(body)  # type: ignore[misc]
    assert not now + 3 < end, "a negative factor must not stretch the period"


def test_ExponentialBackoff() -> None:
    opts = wait.Backoff(duration=0.0, factor=1.0, steps=3)

    def body() -> None:
        # waits up to steps
        calls = [0]

        def never() -> bool:
            calls[0] += 1
            return False

        with pytest.raises(wait.ErrWaitTimeout):
            wait.exponential_backoff(opts, never)
        assert calls[0] == opts.steps

        # returns immediately
        calls[0] = 0

        def at_once() -> bool:
            calls[0] += 1
            return True

        wait.exponential_backoff(opts, at_once)
        assert calls[0] == 1

        # returns immediately on error
        test_err = RuntimeError("some other error")

        def failing() -> bool:
            raise test_err

        with pytest.raises(RuntimeError) as info:
            wait.exponential_backoff(opts, failing)
        assert info.value is test_err

        # invoked multiple times
        calls[0] = 1

        def third_time() -> bool:
            if calls[0] < opts.steps:
                calls[0] += 1
                return False
            return True

        wait.exponential_backoff(opts, third_time)
        assert calls[0] == opts.steps

    _go_test(body)


def test_Poller() -> None:
    def body() -> int:
        done = sim.Chan(name="done")
        ch = wait.poller(0.001, 0.002)(done)
        count = 0
        while True:
            index, _, is_open = sim.select(("recv", ch), ("recv", sim.after(FOREVER)))
            assert index == 0, "unexpected timeout after poll"
            if not is_open:
                break
            count += 1
        done.close()
        return count

    assert _go_test(body) <= 3  # type: ignore[operator]


def fake_ticker(max_ticks: int, used: list[int] | None,
                done_func: Callable[[], None]) -> Callable[[sim.Chan], sim.Chan]:
    """Go's fakeTicker: a WaitFunc that hands out ``max_ticks`` ticks, counting each taken one."""

    def wait_func(done: sim.Chan) -> sim.Chan:
        ch = sim.Chan(name="fakeTicker")

        def run() -> None:
            try:
                for _ in range(max_ticks):
                    index, _, _ = sim.select(("send", ch, None), ("recv", done))
                    if index == 1:
                        return
                    if used is not None:
                        used[0] += 1
            finally:
                ch.close()
                done_func()

        sim.go(run, name="fakeTicker")
        return ch

    return wait_func


@attrs.define(eq=False)
class FakePoller:
    """Go's fakePoller: ``max`` ticks, the count ``used`` and a WaitGroup over its tickers."""

    max: int
    used: list[int] = attrs.field(factory=lambda: [0])
    wg: sim.WaitGroup = attrs.field(factory=sim.WaitGroup)

    def get_wait_func(self) -> Callable[[sim.Chan], sim.Chan]:
        self.wg.add(1)
        return fake_ticker(self.max, self.used, self.wg.done)


def test_Poll() -> None:
    invocations = [0]

    def f() -> bool:
        invocations[0] += 1
        return True

    fp = FakePoller(max=1)

    def body() -> None:
        wait._poll_internal(fp.get_wait_func(), f)
        fp.wg.wait()

    _go_test(body)
    assert invocations[0] == 1, "expected exactly one invocation"
    assert fp.used[0] == 1, "expected exactly one tick"


def test_PollError() -> None:
    expected_error = RuntimeError("Expected error")

    def f() -> bool:
        raise expected_error

    fp = FakePoller(max=1)

    def body() -> BaseException | None:
        try:
            wait._poll_internal(fp.get_wait_func(), f)
        except RuntimeError as err:
            fp.wg.wait()
            return err
        return None

    assert _go_test(body) is expected_error
    assert fp.used[0] == 1, "expected exactly one tick"


def test_PollImmediate() -> None:
    invocations = [0]

    def f() -> bool:
        invocations[0] += 1
        return True

    fp = FakePoller(max=0)
    # No wait on fp.wg: PollImmediate must not call the WaitFunc at all.
    _go_test(lambda: wait._poll_immediate_internal(fp.get_wait_func(), f))
    assert invocations[0] == 1, "expected exactly one invocation"
    assert fp.used[0] == 0, "expected exactly zero ticks"


def test_PollImmediateError() -> None:
    expected_error = RuntimeError("Expected error")

    def f() -> bool:
        raise expected_error

    fp = FakePoller(max=0)
    with pytest.raises(RuntimeError) as info:
        _go_test(lambda: wait._poll_immediate_internal(fp.get_wait_func(), f))
    assert info.value is expected_error
    assert fp.used[0] == 0, "expected exactly zero ticks"


def test_PollForever() -> None:
    failures: list[str] = []

    def body() -> None:
        ch = sim.Chan(name="ch")
        done = sim.Chan(1, name="done")
        complete = sim.Chan(name="complete")

        def polling() -> None:
            def f() -> bool:
                ch.send(None)
                index, _, _ = sim.select(("recv", done), default=True)
                return index == 0

            wait.poll_infinite(1e-6, f)
            ch.close()
            complete.send(None)

        sim.go(polling)
        ch.recv()  # the condition is running
        for _ in range(10):  # and keeps being called
            index, _, is_open = sim.select(("recv", ch), ("recv", sim.after(FOREVER)))
            assert index == 0, "channel did not return at least once within the poll interval"
            assert is_open, "did not expect channel to be closed"
        # at most one more call once the condition has returned true
        done.send(None)

        def drain() -> None:
            for _ in range(2):
                _, is_open = ch.recv()
                if not is_open:
                    return
            failures.append("expected closed channel after two iterations")

        sim.go(drain)
        complete.recv()

    _go_test(body)
    assert failures == []


@pytest.mark.parametrize(("outcome", "ticks", "invoked", "has_err"), [
    pytest.param("true", 2, 1, False, id="invoked once"),
    # WaitFor calls the condition once more when the tick channel closes
    pytest.param("false", 2, 3, True, id="invoked and returns a timeout"),
    pytest.param("error", 2, 1, True, id="returns immediately on error"),
])
def test_WaitFor(outcome: str, ticks: int, invoked: int, has_err: bool) -> None:
    invocations = [0]

    def f() -> bool:
        invocations[0] += 1
        if outcome == "error":
            raise RuntimeError("test")
        return outcome == "true"

    def body() -> Exception | None:
        ticker = fake_ticker(ticks, None, lambda: None)
        done = sim.Chan(name="done")
        try:
            wait.wait_for(ticker, f, done)
        except Exception as err:  # noqa: BLE001 - Go's returned error
            return err
        finally:
            done.close()
        return None

    err = _go_test(body)
    assert (err is not None) is has_err, err
    assert invocations[0] == invoked


def test_WaitForWithDelay() -> None:
    def body() -> int:
        done = sim.Chan(name="done")

        def f() -> bool:
            sim.sleep(0.01)
            return True

        try:
            wait.wait_for(wait.poller(0.001, FOREVER), f, done)
            # the polling goroutine must still see done (else it would leak its timers)
            index, _, _ = sim.select(("send", done, None), ("recv", sim.after(FOREVER)))
        finally:
            done.close()
        return index

    assert _go_test(body) == 0, "expected an ack of the done signal"


def test_PollUntil() -> None:
    def body() -> None:
        stop_ch = sim.Chan(name="stopCh")
        called = sim.Chan(name="called")
        poll_done = sim.Chan(name="pollDone")

        def condition() -> bool:
            called.send(True)
            return False

        def polling() -> None:
            try:
                wait.poll_until(1e-6, condition, stop_ch)
            except wait.ErrWaitTimeout:
                pass  # Go ignores PollUntil's result here
            poll_done.close()

        sim.go(polling)
        called.recv()  # called once
        stop_ch.close()  # this must end the poll

        def release() -> None:
            while True:
                called.recv()

        sim.go(release)
        poll_done.recv()

    _go_test(body)


# --- kschedlearn: exact virtual times -------------------------------------------------------


def _runtime() -> sim.Runtime:
    return sim.Runtime(seed=7)


def test_until_calls_f_every_period_after_it_returns_and_stops() -> None:
    rt = _runtime()
    stop = sim.Chan()
    calls: list[float] = []

    def f() -> None:
        calls.append(sim.now())
        sim.sleep(0.25)  # f takes time: the sliding period starts after it returns

    def stopper() -> None:
        sim.sleep(4)
        stop.close()

    rt.go(wait.until, f, 1.0, stop)
    rt.go(stopper)
    rt.run()
    assert calls == [0.0, 1.25, 2.5, 3.75]


def test_non_sliding_until_period_includes_the_work() -> None:
    rt = _runtime()
    stop = sim.Chan()
    calls: list[float] = []

    def f() -> None:
        calls.append(sim.now())
        sim.sleep(0.25)

    def stopper() -> None:
        sim.sleep(3.5)
        stop.close()

    rt.go(wait.non_sliding_until, f, 1.0, stop)
    rt.go(stopper)
    rt.run()
    assert calls == [0.0, 1.0, 2.0, 3.0]


def test_until_returns_immediately_when_already_stopped() -> None:
    rt = _runtime()
    stop = sim.Chan()
    stop.close()
    calls: list[float] = []
    rt.run_fn(wait.until, lambda: calls.append(sim.now()), 1.0, stop)
    assert calls == []


def test_until_with_period_zero_reruns_at_once() -> None:
    rt = _runtime()
    stop = sim.Chan()
    calls: list[float] = []

    def f() -> None:
        calls.append(sim.now())
        if len(calls) == 5:
            stop.close()

    rt.run_fn(wait.until, f, 0.0, stop)
    assert calls == [0.0] * 5


def test_jitter_until_periods_within_bounds_and_seeded() -> None:
    def run(seed: int) -> list[float]:
        rt = sim.Runtime(seed=seed)
        stop = sim.Chan()
        calls: list[float] = []

        def f() -> None:
            calls.append(sim.now())
            if len(calls) == 6:
                stop.close()

        rt.run_fn(wait.jitter_until, f, 2.0, 0.5, True, stop)
        return calls

    calls = run(3)
    gaps = [b - a for a, b in zip(calls, calls[1:])]
    assert all(2.0 <= g < 3.0 for g in gaps)
    assert len(set(gaps)) > 1
    assert run(3) == calls
    assert run(4) != calls


def test_jitter_negative_factor_means_factor_one() -> None:
    rt = _runtime()
    values = rt.run_fn(lambda: [wait.jitter(1.0, -1.0) for _ in range(20)])
    assert all(1.0 <= v < 2.0 for v in values)


def test_panic_in_until_kills_the_process() -> None:
    rt = _runtime()
    proc = rt.new_process("p")

    def f() -> None:
        raise RuntimeError("test panic")

    rt.go(wait.until, f, 1.0, wait.NEVER_STOP, process=proc)
    rt.run()
    assert not proc.alive and "test panic" in rt.crashes[0].message


def test_poll_waits_one_interval_before_the_first_check() -> None:
    rt = _runtime()
    checks: list[float] = []

    def cond() -> bool:
        checks.append(sim.now())
        return len(checks) == 3

    rt.run_fn(wait.poll, 1.0, 10.0, cond)
    assert checks == [1.0, 2.0, 3.0]


def test_poll_times_out_with_a_last_check() -> None:
    rt = _runtime()
    checks: list[float] = []

    def cond() -> bool:
        checks.append(sim.now())
        return False

    with pytest.raises(wait.ErrWaitTimeout, match="timed out waiting for the condition"):
        rt.run_fn(wait.poll, 1.0, 3.5, cond)
    assert checks == [1.0, 2.0, 3.0, 3.5]


def test_poll_immediate_checks_first() -> None:
    rt = _runtime()
    checks: list[float] = []
    rt.run_fn(wait.poll_immediate, 1.0, 5.0, lambda: checks.append(sim.now()) or True)
    assert checks == [0.0]


def test_poll_condition_error_propagates() -> None:
    rt = _runtime()

    def cond() -> bool:
        raise ValueError("boom")

    with pytest.raises(ValueError, match="boom"):
        rt.run_fn(wait.poll, 1.0, 5.0, cond)


def test_poll_until_stops_when_stop_closes() -> None:
    rt = _runtime()
    stop = sim.Chan()
    checks: list[float] = []

    def stopper() -> None:
        sim.sleep(2.5)
        stop.close()

    rt.go(stopper)
    with pytest.raises(wait.ErrWaitTimeout):
        rt.run_fn(wait.poll_until, 1.0, lambda: checks.append(sim.now()) or False, stop)
    assert checks[:2] == [1.0, 2.0]
    assert rt.now == 2.5


def test_exponential_backoff_sleeps_between_checks() -> None:
    rt = _runtime()
    checks: list[float] = []
    backoff = wait.Backoff(duration=1.0, factor=2.0, steps=4)

    with pytest.raises(wait.ErrWaitTimeout):
        rt.run_fn(wait.exponential_backoff, backoff, lambda: checks.append(sim.now()) or False)
    assert checks == [0.0, 1.0, 3.0, 7.0]
    checks.clear()
    rt2 = _runtime()
    rt2.run_fn(wait.exponential_backoff, backoff, lambda: checks.append(sim.now()) or len(checks) == 2)
    assert checks == [0.0, 1.0]


def test_poll_until_poller_watches_stop_itself() -> None:
    """1.6's PollUntil hands ``stop_ch`` straight to the poller (wait.go#L249-L251): once the
    condition holds, only the poller goroutine is left, and it ends when ``stop_ch`` closes."""
    rt = _runtime()
    stop = sim.Chan()

    def body() -> list[str]:
        wait.poll_until(1.0, lambda: True, stop)
        return sorted(g.name for g in rt.goroutines if g.alive and g is not sim.current_goroutine())

    assert rt.run_fn(body) == ["wait.poller"]
    stop.close()
    rt.run()
    assert [g.name for g in rt.goroutines if g.alive] == []


def test_poll_leaves_its_poller_running_until_the_timeout() -> None:
    """1.6's pollInternal waits on NeverStop (wait.go#L186-L188): a Poll that succeeds at the
    first tick leaves its poller ticking until the timeout, then it ends."""
    rt = _runtime()

    def body() -> float:
        wait.poll(1.0, 10.0, lambda: True)
        return sim.now()

    assert rt.run_fn(body) == 1.0
    assert [g.name for g in rt.goroutines if g.alive] == ["wait.poller"]
    rt.run()
    assert rt.now == 10.0 and [g.name for g in rt.goroutines if g.alive] == []
