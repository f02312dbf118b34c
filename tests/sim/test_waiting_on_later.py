"""A blocked goroutine's ``waiting_on`` is written when first read, and reads as it always did.

kschedlearn-only (issue 25): a blocking ``select`` and ``time.Sleep`` hand ``_park`` a function
that says what the goroutine waits on (``Goroutine.wait_on_later``); the text is the one they
wrote at once before, and a later park (or a wake) replaces a description nobody read.
"""

from __future__ import annotations

from kschedlearn import sim
from kschedlearn.sim.chan import Chan, select


def test_a_blocked_select_and_a_sleep_read_as_before() -> None:
    rt = sim.Runtime(seed=1)
    a, b = Chan(name="a"), Chan()
    got: list[int] = []
    selecting = rt.go(lambda: got.append(select(("recv", a), ("send", b, 1), ("recv", None))[0]), name="sel")
    sleeping = rt.go(lambda: rt.sleep(2.5), name="sleeper")
    rt.run(until=1.0)
    assert selecting.state == "blocked" and selecting.waiting_on == "select [recv a, send chan]"
    assert sleeping.state == "sleeping" and sleeping.waiting_on == "sleep until t=2.5"
    assert selecting.waiting_on == "select [recv a, send chan]"  # read twice: the same text
    rt.go(lambda: a.send(7), name="sender")
    rt.run(until=2.0)
    assert got == [0] and selecting.waiting_on == ""


def test_a_description_nobody_read_is_replaced_by_the_next_park_and_by_a_wake() -> None:
    rt = sim.Runtime(seed=1)
    ch = Chan(name="ch")
    seen: list[str] = []

    def twice() -> None:
        select(("recv", ch))
        ch.recv()

    g = rt.go(twice, name="g")
    rt.run()
    version = rt.version
    rt.go(lambda: ch.send(1), name="first")
    rt.run()
    assert rt.version > version  # each park and wake still counts as a change
    seen.append(g.waiting_on)  # the select's description was never read: the recv's replaced it
    assert seen == ["chan receive ch"]
    rt.go(lambda: ch.send(2), name="second")
    rt.run()
    assert not g.alive and g.waiting_on == ""
