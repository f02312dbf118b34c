"""A finished world is not kept alive by process-wide state (issue 25: the suite's heap).

kschedlearn-only. Three things held every finished world of a process until it ended — the
fault campaign's 200 worlds, ~9,000 tracked objects each, in one test worker, walked by every
later full collection there: ``wait.NEVER_STOP``'s wait queue (nobody sends on it or closes
it, so its dead waiters were never dropped), the leader-election trace point's attempt counts
(a strong reference to each elector), and the campaign's own disposal (the runtime's hub stayed
suspended). The wait queues now drop entries nobody waits on at each append (``chan._enqueue``);
which waiter a send or a close reaches is unchanged.
"""

from __future__ import annotations

import gc
import importlib.util
import sys
import weakref
from pathlib import Path

from kschedlearn import sim
from kschedlearn.apimachinery.util import wait
from kschedlearn.observe import leaderelection as observed_election
from kschedlearn.sim import chan as chan_module
from kschedlearn.sim.chan import Chan, select

_TOOL = Path(__file__).resolve().parents[2] / "tools" / "fault_campaign.py"


def _campaign():  # noqa: ANN202 - the tool's module
    spec = importlib.util.spec_from_file_location("fault_campaign_no_world_kept", _TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_a_channel_nobody_sends_on_keeps_only_live_waiters() -> None:
    never = Chan(name="never")
    rt = sim.Runtime(seed=1)
    got: list[tuple[int, object, bool]] = []

    def waiter(ch: Chan) -> None:
        got.append(select(("recv", never), ("recv", ch)))

    chans = [Chan(name=f"c{i}") for i in range(300)]
    for ch in chans:
        rt.go(waiter, ch, name="waiter")
    rt.run()
    assert len(never._recvq) == 300  # everyone waits on both
    for ch in chans[:250]:  # 250 selects end by their other case: done entries on `never`
        ch.close()
    rt.run()
    assert len(got) == 250
    late = Chan(name="late")
    rt.go(waiter, late, name="late waiter")
    rt.run()
    live = [e for e in never._recvq if not e.state.done and e.state.g.alive]
    assert len(live) == 51 and len(never._recvq) <= 2 * 51 + chan_module._SWEEP_FROM
    assert [e.state.g.gid for e in live] == sorted(e.state.g.gid for e in live)  # order kept
    never.close()  # every live waiter, in order, gets the close
    rt.run()
    assert len(got) == 301 and all(r[0] == 0 and r[2] is False for r in got[250:])


def test_a_send_reaches_the_same_waiter_with_dead_ones_before_it() -> None:
    ch = Chan(name="ch")
    rt = sim.Runtime(seed=1)
    order: list[str] = []
    doomed = rt.new_process("doomed")
    for i in range(100):
        rt.go(lambda i=i: order.append(f"dead{i}:{ch.recv()}"), name=f"d{i}", process=doomed)
    rt.run()
    rt.kill_process(doomed)
    rt.run()
    for name in ("a", "b"):
        rt.go(lambda name=name: order.append(f"{name}:{ch.recv()[0]}"), name=name)
    rt.run()
    assert len(ch._recvq) <= 2  # the dead waiters at the head went when "a" queued
    rt.go(lambda: [ch.send(1), ch.send(2)], name="sender")
    rt.run()
    assert order == ["a:1", "b:2"]


def test_attempt_counts_go_with_their_elector() -> None:
    class Elector:  # (the counts are keyed by identity; any object stands for an elector)
        pass

    class _Call:
        def __init__(self, receiver: object) -> None:
            self.receiver = receiver

    first = Elector()
    for _ in range(3):
        observed_election._count_attempt(_Call(first))  # type: ignore[arg-type]
    assert observed_election._attempts(first) == 3  # type: ignore[arg-type]
    gone = weakref.ref(first)
    key = id(first)
    del first
    gc.collect()
    assert gone() is None and key not in observed_election._ATTEMPTS
    second = Elector()
    assert observed_election._attempts(second) == 0  # type: ignore[arg-type]


def test_the_campaign_keeps_no_world_of_a_finished_seed(monkeypatch) -> None:  # noqa: ANN001
    campaign = _campaign()
    real_dispose = campaign._dispose
    worlds: list[weakref.ref] = []

    def dispose(world) -> None:  # noqa: ANN001
        worlds.append(weakref.ref(world))
        worlds.append(weakref.ref(world.runtime))
        real_dispose(world)

    monkeypatch.setattr(campaign, "_dispose", dispose)
    for seed in (2, 3, 4):
        campaign.run_seed(seed, check_export=False)
    gc.collect()
    # every world but the last is gone (the last one's dead waiters leave NEVER_STOP's queue at
    # the next world's first wait)
    assert [ref() is None for ref in worlds[:-2]] == [True] * 4
    assert all(not e.state.g.alive for e in wait.NEVER_STOP._recvq if e.state.g.runtime is worlds[-1]())
