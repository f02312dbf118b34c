"""The history's machinery: which stages are worth a stop, changes made by hand, replays.

Go: none — kschedlearn-only (DESIGN §7). A :class:`~kschedlearn.Simulation` records every event;
changing the past rebuilds a world from the scenario and seed and replays it, with the hand-made
changes (``inject.*``, an HTTP client's writes) re-applied exactly where they were made.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

if TYPE_CHECKING:  # (``from kschedlearn import Simulation`` does not load the world's machinery)
    from kschedlearn.scenarios.scenario import Action
    from kschedlearn.simulation.world import World

#: stages that ``step(granularity="stage")`` stops at
TEACHING_STAGES = frozenset({
    # start-up chain
    "main", "NewSchedulerServer", "Run", "createClient", "createRecorder", "NewSharedInformerFactory",
    "createScheduler", "NewConfigFactory", "schedulercache.New", "NewIndexerInformer", "CreateFromProvider",
    "CreateFromConfig", "CreateFromKeys", "ConfigFactory.Run", "startHTTP", "informerFactory.Start",
    "leaderelection.start", "leaderelection.acquire", "leaderelection.renew", "leaderelection.lost",
    "Scheduler.Run",
    # a pod's journey
    "workload", "inject", "fifo.add", "fifo.update", "fifo.pop", "scheduleOne.pop", "schedule.start",
    "schedule.predicates", "schedule.priorities", "selectHost", "assume", "bind", "apiserver.bind",
    "finishBinding", "forgetPod", "delta_fifo.add", "delta_fifo.pop", "handler.OnAdd", "handler.OnUpdate",
    "handler.OnDelete", "cache.addPod", "cache.removePod", "expirePod", "error.backoff", "error.requeue",
    "assume.skipped",  # kschedlearn-only: the "assume off" switch (simulation/no_assume.py)
    "kubelet.start", "kubelet.complete", "reflector.relist", "process.crash",
})
GRANULARITIES = ("event", "stage", "pod")

#: the stages of one pod's journey through one scheduler: what ``record="pod"`` keeps
POD_STAGES = frozenset({
    "workload", "inject", "scheduleOne.pop", "schedule.start", "schedule.predicates", "schedule.priorities",
    "selectHost", "assume", "assume.skipped", "bind", "apiserver.bind", "finishBinding", "forgetPod",
    "cache.addPod", "cache.removePod", "expirePod", "error.backoff", "error.requeue", "kubelet.start",
    "kubelet.complete", "process.crash",
})

#: ``Simulation(record=...)``: the stages a run records (None: every event). A thinned run keeps
#: fewer events — not the per-node verdicts (``schedule.predicate_node``), log lines or queue and
#: watch plumbing — so that a 5,000-node replay can be traced, and snapshotted at every event it
#: keeps; ``step("event")`` then moves over the kept events only, and the explorer says so.
RECORD_LEVELS: dict[str, frozenset[str] | None] = {
    "event": None,
    "stage": TEACHING_STAGES,
    "pod": POD_STAGES,
}


@attrs.frozen
class Injection:
    """A change made by hand: after event ``seq`` — the world paused there, or (``paused``
    False) stopped at ``time`` after a run to that time or to its end, or not run at all yet
    (``started`` False)."""

    seq: int
    paused: bool
    time: float
    action: Action
    started: bool = True


def replay(world: World, injections: list[Injection], target: int, applied: int = 0) -> tuple[World, list[Injection]]:
    """Run a fresh ``world`` up to event ``target``, re-applying the injections made before it.

    Returns the world and the injections that still belong to this past (the later ones are the
    discarded future). ``applied``: the world is not fresh but an earlier replay of this history,
    which has re-applied that many of the injections already (``on_demand.Twin``).
    """
    # an injection made after event `seq` belongs to a past that still contains `target`
    # only if it happened strictly before the target event
    pending = [inj for inj in injections if inj.seq < target]
    for inj in pending[applied:]:
        # on to the event it was made after (unless the world stands there already: a second
        # change made at that event, or an earlier replay that stopped there)
        events = world.tracer.events
        if not events or events[-1].seq < inj.seq:
            world.run(lambda ev, s=inj.seq: ev.seq >= s)
        if not inj.paused and inj.started:
            # made with no goroutine paused: after a run to a time (``run_for``) or to the end,
            # which left every goroutine blocked at that time with no event after `seq`
            world.runtime.run(until=inj.time)
        world.apply(inj.action, stage="inject")
    if target >= 0 and (not world.tracer.events or world.tracer.events[-1].seq < target):
        world.run(lambda ev: ev.seq >= target)
    return world, list(pending)


__all__ = ["TEACHING_STAGES", "GRANULARITIES", "POD_STAGES", "RECORD_LEVELS", "Injection", "replay"]
