"""Checked activities of unit 16, the seed article's companion.

Go: none — kschedlearn-only (issue 22 item 6; the contract of
:mod:`kschedlearn.curriculum.activities_intro`). The truths come from a run of ``three-nodes``:
which of the ConfigFactory's fields holds the pods waiting to be scheduled, in which order the
informers start, and when the assigned-pod informer's DeltaFIFO is created — the article's one
mistake about 1.6.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from functools import cache
from typing import Any

import attrs

from kschedlearn.curriculum.activities_intro import WEB1, _sim
from kschedlearn.curriculum.activity import Activity, Truth, one_of, text
from kschedlearn.curriculum.companion import objects


@cache
def _terms() -> Truth:
    from kschedlearn.client_go.tools.cache.fifo import FIFO

    sim = _sim()
    sim.run_until("fifo.add", pod=WEB1)
    factory = objects(sim)["factory"]
    holders = [f.name for f in attrs.fields(type(factory))
               if isinstance(getattr(factory, f.name, None), FIFO) and WEB1 in getattr(factory, f.name).list_keys()]
    name = holders[0] if holders else ""
    return Truth(name, f"Right after the unassigned-pod reflector's `fifo.add` of web-1, the ConfigFactory field that "
                 f"holds it is `{name}` — Go's `podQueue`, a plain `cache.FIFO`: the article's queuedPods.")


ORDER_CHOICES = ("the assigned-pod informer (ConfigFactory.Run), inside createScheduler",
                 "the shared informers (informerFactory.Start)")


@cache
def _step_order() -> Truth:
    sim = _sim()
    sim.run_until("Scheduler.Run")
    first = {stage: next(e for e in sim.trace if e.stage == stage) for stage in ("ConfigFactory.Run",
                                                                              "informerFactory.Start")}
    a, b = first["ConfigFactory.Run"], first["informerFactory.Start"]
    truth = ORDER_CHOICES[0] if a.seq < b.seq else ORDER_CHOICES[1]
    return Truth(truth, f"`ConfigFactory.Run` at event #{a.seq}, `informerFactory.Start` at #{b.seq}: CreateFromKeys "
                 "ends by running the factory — the unassigned-pod reflector and the assigned-pod informer start "
                 "while createScheduler is still building the scheduler, before app.Run gets to Start.")


CREATED_CHOICES = ("when NewIndexerInformer builds the informer (inside NewConfigFactory)",
                   "when controller.Run starts the informer", "when informerFactory.Start runs")


@contextlib.contextmanager
def _watch_new_delta_fifo(calls: list[int], sim: Any) -> Iterator[None]:
    """Record the trace length at each DeltaFIFO the controller module creates (the experiment
    swaps the module's name for a recording wrapper and puts it back)."""
    from kschedlearn.client_go.tools.cache import controller

    real = controller.new_delta_fifo

    def recording(*args: Any, **kwargs: Any) -> Any:
        calls.append(len(sim.trace))
        return real(*args, **kwargs)

    controller.new_delta_fifo = recording
    try:
        yield
    finally:
        controller.new_delta_fifo = real


@cache
def _queue_created() -> Truth:
    sim = _sim()
    calls: list[int] = []
    with _watch_new_delta_fifo(calls, sim):
        sim.run_until("Scheduler.Run")
    run_at = next(e.seq for e in sim.trace if e.stage == "ConfigFactory.Run")
    start_at = next(e.seq for e in sim.trace if e.stage == "informerFactory.Start")
    if not calls:
        return Truth("", "No DeltaFIFO was created by the controller module in this run.")
    made = calls[0]
    truth = (CREATED_CHOICES[0] if made <= run_at else CREATED_CHOICES[1] if made <= start_at else CREATED_CHOICES[2])
    before = sim.trace[made - 1] if made else None
    return Truth(truth, f"The first DeltaFIFO was created after event #{made - 1} ({before.stage if before else '-'}), "
                 f"before `ConfigFactory.Run` (#{run_at}): `NewIndexerInformer` calls `NewDeltaFIFO` itself when it "
                 "builds the informer. controller.Run only creates the Reflector that fills the queue and starts "
                 "processLoop. The article places the queue's initialisation in controller.Run: in 1.6 it is "
                 "already there.")


ACTIVITIES: tuple[Activity, ...] = (
    Activity("16/terms", "Which field of kschedlearn's `ConfigFactory` holds the article's *queuedPods*? "
             "Answer with the Python attribute name.", "an attribute name such as \"scheduler_cache\"", _terms, text),
    Activity("16/step-order", "In a run, which starts first: the assigned-pod informer (the article's controller.Run, "
             "reached from ConfigFactory.Run) or the shared informers (informerFactory.Start)?",
             "one of " + ", ".join(f'"{c}"' for c in ORDER_CHOICES), _step_order, one_of(*ORDER_CHOICES)),
    Activity("16/queue-created", "When does the assigned-pod informer's DeltaFIFO (the article's *Queue*) come "
             "into being?", "one of " + ", ".join(f'"{c}"' for c in CREATED_CHOICES), _queue_created,
             one_of(*CREATED_CHOICES)),
)

__all__ = ["ACTIVITIES"]
