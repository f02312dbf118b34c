"""Rewrites of the runtime's hot statements (replay7, issue 25) answer as the statements they
replace: the timers' order, and the message of a channel operation that would block outside a
goroutine (built only then)."""

from __future__ import annotations

import random

import pytest

from kschedlearn.sim.chan import Chan
from kschedlearn.sim.runtime import WouldBlockError, _Timer


def test_timers_order_as_their_when_seq_tuples() -> None:
    rnd = random.Random(7)
    whens = [0.0, 0.5, 1.0, 1.0 + 1e-12, 2.0, float("inf"), float("nan")]
    timers = [_Timer(rnd.choice(whens), rnd.randrange(5), lambda: None) for _ in range(300)]
    for a in timers:
        for b in timers[:60]:
            assert (a < b) == ((a.when, a.seq) < (b.when, b.seq))


@pytest.mark.parametrize("capacity", [0, 1])
def test_a_blocking_channel_operation_outside_a_goroutine_says_which(capacity: int) -> None:
    ch = Chan(capacity, name="c")
    with pytest.raises(WouldBlockError) as err:
        ch.recv()
    assert str(err.value) == f"receive from {ch!r} would block outside a goroutine"
    for _ in range(capacity):
        ch.send(1)
    with pytest.raises(WouldBlockError) as err:
        ch.send(2)
    assert str(err.value) == f"send on {ch!r} would block outside a goroutine"
