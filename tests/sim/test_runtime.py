"""The deterministic runtime: goroutines, channels, select, sync, timers, processes, pauses."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.hypothesis_budget import examples

from kschedlearn import sim, trace
from kschedlearn.trace import glog


def test_unbuffered_channel_hands_values_over_in_order() -> None:
    rt = sim.Runtime()
    ch = sim.Chan()
    log: list[tuple[str, int, float]] = []

    def producer() -> None:
        for i in range(3):
            sim.sleep(1)
            ch.send(i)
        ch.close()

    def consumer() -> None:
        while True:
            v, ok = ch.recv()
            if not ok:
                return
            log.append(("got", v, sim.now()))

    rt.go(producer)
    rt.go(consumer)
    assert rt.run() is None
    assert log == [("got", 0, 1.0), ("got", 1, 2.0), ("got", 2, 3.0)]
    assert rt.now == 3.0


def test_buffered_channel_blocks_only_when_full() -> None:
    rt = sim.Runtime()
    ch = sim.Chan(2)
    sent: list[float] = []

    def producer() -> None:
        for i in range(3):
            ch.send(i)
            sent.append(sim.now())

    def consumer() -> None:
        sim.sleep(5)
        assert ch.recv() == (0, True)

    rt.go(producer)
    rt.go(consumer)
    rt.run()
    assert sent == [0.0, 0.0, 5.0]
    assert len(ch) == 2


def test_send_on_closed_channel_panics_and_close_twice_panics() -> None:
    ch = sim.Chan(1)
    ch.close()
    with pytest.raises(sim.ChanClosedError, match="send on closed channel"):
        ch.send(1)
    with pytest.raises(sim.ChanClosedError, match="close of closed channel"):
        ch.close()
    assert ch.recv() == (None, False)


def test_blocking_outside_a_goroutine_raises_instead_of_freezing() -> None:
    with pytest.raises(sim.WouldBlockError):
        sim.Chan().recv()
    mu = sim.Mutex()
    mu.lock()
    with pytest.raises(sim.WouldBlockError):
        mu.lock()


def test_select_default_and_ready_case() -> None:
    rt = sim.Runtime()
    a, b = sim.Chan(1), sim.Chan(1)
    assert sim.select(("recv", a), default=True) == (-1, None, False)
    b.send("x")
    assert sim.select(("recv", a), ("recv", b)) == (1, "x", True)

    got: list[tuple[int, object, bool]] = []

    def waiter() -> None:
        got.append(sim.select(("recv", a), ("recv", b), ("recv", None)))

    def sender() -> None:
        sim.sleep(2)
        a.send("late")

    rt.go(waiter)
    rt.go(sender)
    rt.run()
    assert got == [(0, "late", True)]


def test_select_send_case_to_waiting_receiver() -> None:
    rt = sim.Runtime()
    ch = sim.Chan()
    out: list[object] = []
    rt.go(lambda: out.append(ch.recv()))
    rt.go(lambda: out.append(sim.select(("send", ch, 7))))
    rt.run()
    assert out == [(0, None, True), (7, True)] or out == [(7, True), (0, None, True)]


def test_mutex_and_cond_fifo_wakeups() -> None:
    rt = sim.Runtime()
    mu = sim.Mutex()
    cond = sim.Cond(mu)
    items: list[int] = []
    popped: list[tuple[str, int]] = []

    def popper(name: str) -> None:
        with mu:
            while not items:
                cond.wait()
            popped.append((name, items.pop(0)))

    def pusher() -> None:
        for i in range(2):
            sim.sleep(1)
            with mu:
                items.append(i)
                cond.signal()

    rt.go(popper, "a")
    rt.go(popper, "b")
    rt.go(pusher)
    rt.run()
    assert popped == [("a", 0), ("b", 1)]
    assert not mu.locked


def test_timer_stop_and_reset() -> None:
    rt = sim.Runtime()
    fired: list[float] = []

    def body() -> None:
        t = sim.new_timer(5)
        assert t.stop() is True
        assert t.stop() is False
        t.reset(2)
        _, v, _ = sim.select(("recv", t.c))
        fired.append(v)

    rt.run_fn(body)
    assert fired == [2.0]


def test_run_until_stops_the_clock_there() -> None:
    rt = sim.Runtime()
    ticks: list[float] = []

    def ticker() -> None:
        while True:
            sim.sleep(1)
            ticks.append(sim.now())

    rt.go(ticker)
    rt.run(until=3.5)
    assert ticks == [1.0, 2.0, 3.0]
    assert rt.now == 3.5
    rt.run(until=5)
    assert ticks == [1.0, 2.0, 3.0, 4.0, 5.0]


def test_goroutine_that_raises_kills_only_its_process() -> None:
    rt = sim.Runtime()
    bad, good = rt.new_process("scheduler-1"), rt.new_process("apiserver")
    unwound: list[str] = []
    beats: list[float] = []

    def boom() -> None:
        sim.sleep(1)
        raise ValueError("nil map")

    def sibling() -> None:
        try:
            sim.sleep(100)
        finally:
            unwound.append("sibling")

    def heartbeat() -> None:
        for _ in range(3):
            sim.sleep(1)
            beats.append(sim.now())

    rt.go(boom, process=bad)
    rt.go(sibling, process=bad)
    rt.go(heartbeat, process=good)
    rt.run()
    assert [c.process for c in rt.crashes] == ["scheduler-1"]
    assert "nil map" in rt.crashes[0].message
    assert not bad.alive and good.alive
    assert unwound == ["sibling"]
    assert beats == [1.0, 2.0, 3.0]
    # the dead sibling's 100 s sleep does not drag the clock forward
    assert rt.now == 3.0
    # goroutines started in a dead process never run
    ran: list[int] = []
    rt.go(lambda: ran.append(1), process=bad)
    rt.run()
    assert ran == []


def test_glog_fatalf_kills_the_process_with_exit_255() -> None:
    rt = sim.Runtime()
    proc = rt.new_process("kube-scheduler")

    def lost() -> None:
        glog.fatalf("leaderelection lost")

    rt.go(lost, process=proc)
    rt.run()
    assert not proc.alive
    assert isinstance(rt.crashes[0].error, glog.FatalError)
    assert rt.crashes[0].error.code == 255
    assert str(rt.crashes[0].error) == "leaderelection lost"


def test_kill_process_from_outside() -> None:
    rt = sim.Runtime()
    proc = rt.new_process("replica")
    seen: list[float] = []

    def loop() -> None:
        while True:
            sim.sleep(1)
            seen.append(sim.now())

    rt.go(loop, process=proc)
    rt.run(until=2)
    rt.kill_process(proc, "killed by the learner")
    rt.run(until=5)
    assert seen == [1.0, 2.0]
    assert proc.exit_reason == "killed by the learner"


def test_a_pause_in_the_middle_of_a_function_resumes_exactly_there() -> None:
    rt = sim.Runtime()
    rt.tracer = trace.Tracer(breakpoint=lambda e: e.stage == "point")
    steps: list[str] = []
    other: list[str] = []

    def work() -> None:
        local = "kept"
        steps.append("before")
        trace.emit("point", "first")
        steps.append(f"after first ({local})")
        trace.emit("point", "second")
        steps.append("after second")

    def bystander() -> None:
        other.append("ran")

    rt.go(work)
    rt.go(bystander)
    ev = rt.run()
    assert ev is not None and ev.message == "first"
    assert steps == ["before"] and other == []  # a pause lets no other goroutine run
    assert rt.paused is not None and rt.paused.name.endswith("work")
    ev = rt.run()
    assert ev.message == "second" and steps == ["before", "after first (kept)"]
    assert rt.run() is None
    assert steps[-1] == "after second" and other == ["ran"]


def test_run_fn_reports_deadlock_clearly() -> None:
    rt = sim.Runtime()
    with pytest.raises(sim.WouldBlockError, match="deadlock"):
        rt.run_fn(lambda: sim.Chan(name="never").recv())


def test_run_fn_reraises_the_goroutines_error() -> None:
    rt = sim.Runtime()

    def fail() -> None:
        raise KeyError("x")

    with pytest.raises(KeyError):
        rt.run_fn(fail)


# -- determinism over random goroutine programs ----------------------------------------

_op = st.one_of(
    st.tuples(st.just("sleep"), st.sampled_from([0.0, 0.5, 1.0, 2.0])),
    st.tuples(st.just("send"), st.integers(0, 2)),
    st.tuples(st.just("recv"), st.integers(0, 2)),
    st.tuples(st.just("select"), st.integers(0, 2)),
    st.tuples(st.just("rand"), st.just(0)),
    st.tuples(st.just("spawn"), st.just(0)),
)
_program = st.lists(st.lists(_op, max_size=8), min_size=1, max_size=5)


def _run_program(program: list[list[tuple[str, object]]], seed: int) -> list[tuple[object, ...]]:
    rt = sim.Runtime(seed=seed)
    rt.tracer = trace.Tracer(capture_stacks=False)
    chans = [sim.Chan(1, name=f"c{i}") for i in range(3)]
    log: list[tuple[object, ...]] = []

    def body(gi: int, ops: list[tuple[str, object]]) -> None:
        for kind, arg in ops:
            if kind == "sleep":
                sim.sleep(float(arg))  # type: ignore[arg-type]
            elif kind == "send":
                sim.select(("send", chans[int(arg)], gi), default=True)  # type: ignore[arg-type]
            elif kind == "recv":
                t = sim.new_timer(1.5)
                log.append(("recv", gi, sim.select(("recv", chans[int(arg)]), ("recv", t.c))[0]))  # type: ignore[arg-type]
            elif kind == "select":
                log.append(("sel", gi, sim.select(*(("recv", c) for c in chans), default=True)))
            elif kind == "rand":
                log.append(("rand", gi, sim.current_runtime().rand.random()))
            elif kind == "spawn":
                sim.go(lambda: log.append(("child", gi, sim.now())))
            trace.emit("step", f"{gi} {kind}")
            log.append((gi, kind, sim.now()))

    for gi, ops in enumerate(program):
        rt.go(body, gi, ops, name=f"g{gi}")
    rt.run()
    return log + [(e.seq, e.goroutine, e.time, e.message) for e in rt.tracer.events]


@settings(max_examples=examples(60), deadline=None)
@given(program=_program, seed=st.integers(0, 3))
def test_same_seed_same_event_sequence(program: list[list[tuple[str, object]]], seed: int) -> None:
    assert _run_program(program, seed) == _run_program(program, seed)


def test_a_listener_that_raises_does_not_kill_the_emitting_process() -> None:
    rt = sim.Runtime()
    rt.tracer = trace.Tracer(capture_stacks=False)

    def broken(ev: trace.TraceEvent) -> None:
        raise ValueError(f"listener bug at {ev.stage}")

    rt.tracer.listeners.append(broken)
    proc = rt.new_process("scheduler")
    done: list[str] = []

    def work() -> None:
        trace.emit("point", "hello")
        done.append("after")

    rt.go(work, process=proc)
    rt.run()
    assert proc.alive and done == ["after"]
    assert [str(err) for _, err in rt.tracer.listener_errors] == ["listener bug at point"]
